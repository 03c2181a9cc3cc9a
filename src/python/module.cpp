// module.cpp: attention_by_hand._core, the core for Python (pybind11): the same entry points as
// the JS bindings in src/wasm/, through the same field declarations. python/attention_by_hand/
// checks every argument and shapes it (float64, 2-D, C-contiguous); this file reads what that
// layer passes and converts each result once (convert.hpp). Options arrive as a dict:
// { scale?, causal, mask?, mask_value?, dropout_p, seed } for attention, { heads, kv_heads,
// causal, positions: 0 none | 1 sinusoidal | 2 rotary, base, pe_scale, scale? } for a layer,
// { merges, start, presplit } for byte-pair encoding.
#include <cstdint>
#include <string>
#include <vector>

#include "../attention.hpp"
#include "../backward.hpp"
#include "../bpe.hpp"
#include "../gpt.hpp"
#include "../gpt_file.hpp"
#include "../induction.hpp"
#include "../multihead.hpp"
#include "../text.hpp"
#include "convert.hpp"

namespace {

using attention::Index;
using attention::Matrix;
using namespace attention::python;

template <typename T>
T get(const py::dict& d, const char* key, T fallback) {
  return d.contains(key) && !d[key].is_none() ? d[key].cast<T>() : fallback;
}

attention::Options read_options(const py::dict& d) {
  attention::Options o;
  if (d.contains("scale") && !d["scale"].is_none()) o.scale = d["scale"].cast<double>();
  if (get(d, "causal", false)) o.mask_kind = attention::MaskKind::kCausal;
  if (d.contains("mask") && !d["mask"].is_none()) {
    const auto mask = d["mask"].cast<py::array_t<bool, py::array::c_style>>();
    o.mask_kind = attention::MaskKind::kExplicit;
    o.mask.resize(Index(mask.shape(0)), Index(mask.shape(1)));
    for (Index i = 0; i < o.mask.size(); ++i) o.mask.data()[i] = mask.data()[i];
  }
  o.mask_value = get(d, "mask_value", o.mask_value);
  o.dropout_p = get(d, "dropout_p", 0.0);
  o.seed = get<std::uint64_t>(d, "seed", 0);
  return o;
}

attention::MultiHeadOptions read_layer_options(const py::dict& d) {
  attention::MultiHeadOptions o;
  o.heads = get<Index>(d, "heads", 1);
  o.kv_heads = get<Index>(d, "kv_heads", 0);
  o.causal = get(d, "causal", false);
  o.positions = static_cast<attention::Positions>(get(d, "positions", 0));
  o.base = get(d, "base", 10000.0);
  o.pe_scale = get(d, "pe_scale", 1.0);
  if (d.contains("scale") && !d["scale"].is_none()) o.scale = d["scale"].cast<double>();
  return o;
}

attention::MultiHeadWeights read_weights(const Array& wq, const Array& wk, const Array& wv,
                                         const Array& wo) {
  return {Matrix<double>(view(wq)), Matrix<double>(view(wk)), Matrix<double>(view(wv)),
          Matrix<double>(view(wo))};
}

template <typename T>
std::vector<T> numbers(const py::array_t<T, py::array::c_style | py::array::forcecast>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;
using Ids = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

py::object attend(const Array& q, const Array& k, const Array& v, const py::dict& options) {
  return to_py(attention::attend<double>(view(q), view(k), view(v), read_options(options)));
}

py::object self_attention(const Array& x, const Array& wq, const Array& wk, const Array& wv,
                          const py::dict& options) {
  return to_py(attention::self_attention<double>(view(x), view(wq), view(wk), view(wv),
                                                 read_options(options)));
}

// q, k, v flat float32 in [batch, heads, seq, dim] order; shape (batch, heads, n_q, n_k, d_k,
// d_v): { output, weights? } flat.
py::object attend_batched(const Floats& q, const Floats& k, const Floats& v,
                          const std::vector<std::int64_t>& shape, const py::dict& options,
                          bool weights, bool reference) {
  const attention::BatchShape s{shape[0], shape[1], shape[2], shape[3], shape[4], shape[5]};
  const auto r = attention::attend_batched(numbers(q), numbers(k), numbers(v), s,
                                           read_options(options), {weights, reference});
  if (!r.ok()) return error(r.error);
  py::dict out;
  out["output"] = to_py(r.value.output);
  if (weights) out["weights"] = to_py(r.value.weights);
  return std::move(out);
}

py::object multi_head_attention(const Array& x, const Array& wq, const Array& wk, const Array& wv,
                                const Array& wo, const py::dict& options) {
  return to_py(attention::multi_head_attention(view(x), read_weights(wq, wk, wv, wo),
                                               read_layer_options(options)));
}

py::object decode_step(const Array& x, const Array& k_cache, const Array& v_cache, const Array& wq,
                       const Array& wk, const Array& wv, const Array& wo, const py::dict& options) {
  return to_py(attention::decode_step(view(x), view(k_cache), view(v_cache),
                                      read_weights(wq, wk, wv, wo), read_layer_options(options)));
}

attention::LossGradients read_loss(const Array& d_output, const std::optional<Array>& d_weights) {
  attention::LossGradients loss{Matrix<double>(view(d_output)), {}};
  if (d_weights) loss.weights = view(*d_weights);
  return loss;
}

py::object attend_backward(const Array& q, const Array& k, const Array& v, const Array& d_output,
                           const std::optional<Array>& d_weights, const py::dict& options) {
  return to_py(attention::attend_backward(view(q), view(k), view(v), read_loss(d_output, d_weights),
                                          read_options(options)));
}

py::object self_attention_backward(const Array& x, const Array& wq, const Array& wk,
                                   const Array& wv, const Array& d_output,
                                   const std::optional<Array>& d_weights, const py::dict& options) {
  return to_py(attention::self_attention_backward(view(x), view(wq), view(wk), view(wv),
                                                  read_loss(d_output, d_weights),
                                                  read_options(options)));
}

py::object multi_head_backward(const Array& x, const Array& wq, const Array& wk, const Array& wv,
                               const Array& wo, const Array& d_output, const py::dict& options) {
  return to_py(attention::multi_head_backward(view(x), read_weights(wq, wk, wv, wo), view(d_output),
                                              read_layer_options(options)));
}

py::object gpt_layout(const py::dict& config) {
  const attention::GptConfig c = read_fields<attention::GptConfig>(config);
  if (auto e = attention::check_gpt_config(c); !e.empty()) return error(e);
  return to_py(attention::gpt_layout(c));
}

py::object gpt_dequantize(const py::dict& config, const py::bytes& file) {
  const std::string bytes = file;
  return to_py(attention::gpt_dequantize(read_fields<attention::GptConfig>(config),
                                         std::vector<std::uint8_t>(bytes.begin(), bytes.end())));
}

// The parameters as the weights file's bytes, or { error }.
py::object gpt_quantize(const py::dict& config, const Floats& params) {
  const auto r =
      attention::gpt_quantize(read_fields<attention::GptConfig>(config), numbers(params));
  if (!r.ok()) return error(r.error);
  return py::bytes(reinterpret_cast<const char*>(r.value.data()), r.value.size());
}

// chars (a str that encodes to UTF-8: attention_by_hand checks) against the configuration:
// None, or { error }.
py::object gpt_check_chars(const py::dict& config, const std::string& chars) {
  const std::string e =
      attention::check_gpt_chars(read_fields<attention::GptConfig>(config), chars);
  return e.empty() ? py::object(py::none()) : error(e);
}

// A model from its description's configuration and characters and its weights file, each
// checked (gpt_file.hpp): the parameters, or { error } naming the description's field.
py::object gpt_read_model(const py::dict& config, const std::string& chars, const py::bytes& file) {
  const std::string bytes = file;
  return to_py(attention::gpt_read_model(read_fields<attention::GptConfig>(config), chars,
                                         std::vector<std::uint8_t>(bytes.begin(), bytes.end())));
}

py::object gpt_forward(const py::dict& config, const Floats& params, const Ids& tokens,
                       const std::optional<Ids>& targets) {
  return to_py(attention::gpt_forward<float>(read_fields<attention::GptConfig>(config),
                                             numbers(params), numbers(tokens), 1,
                                             targets ? numbers(*targets) : std::vector<int>{}));
}

py::object gpt_generate(const py::dict& config, const Floats& params, const Ids& prompt,
                        Index count, double temperature, std::uint64_t seed) {
  return to_py(attention::gpt_generate<float>(read_fields<attention::GptConfig>(config),
                                              numbers(params), numbers(prompt), count, temperature,
                                              seed));
}

py::object induction_batch(const py::dict& task, Index batch, std::uint64_t seed) {
  return to_py(
      attention::induction_batch(read_fields<attention::InductionTask>(task), batch, seed));
}

py::object induction_scores(const py::dict& config, const Floats& params, const Ids& tokens,
                            const Ids& targets, const Ids& segments) {
  attention::InductionBatch b;
  b.tokens = numbers(tokens);
  b.targets = numbers(targets);
  b.segments = numbers(segments);
  b.batch = Index(b.segments.size());
  b.context = b.batch > 0 ? Index(b.tokens.size()) / b.batch : 0;
  return to_py(attention::induction_scores<float>(read_fields<attention::GptConfig>(config),
                                                  numbers(params), b));
}

// A training session (gpt.hpp's GptTrainer, float32 as the page's): Python owns it, and it is freed
// with its Python object.
struct Session {
  attention::GptTrainer<float> trainer;
};

template <typename T>
py::object session(attention::Result<T> r) {
  if (!r.ok()) return error(r.error);
  return py::cast(Session{std::move(r.value)});
}

py::object gpt_trainer(const py::dict& config, const Ids& data, Index batch, double lr,
                       std::int64_t total, std::uint64_t seed) {
  return session(attention::gpt_trainer<float>(read_fields<attention::GptConfig>(config),
                                               numbers(data), batch, lr, total, seed));
}

py::object induction_trainer(const py::dict& config, const py::dict& task, Index batch, double lr,
                             std::int64_t total, std::uint64_t seed) {
  return session(attention::induction_trainer<float>(read_fields<attention::GptConfig>(config),
                                                     read_fields<attention::InductionTask>(task),
                                                     batch, lr, total, seed));
}

// The next `sequences` of the step under way: the batch's loss when they end it, else None.
py::object train_slice(Session& s, Index sequences) {
  const auto r = attention::gpt_train_slice(s.trainer, sequences);
  if (!r.ok()) return error(r.error);
  return r.value ? py::object(py::float_(*r.value)) : py::object(py::none());
}

py::object gpt_stream_loss(const py::dict& config, const Floats& params, const Ids& stream) {
  return to_py(attention::gpt_stream_loss<float>(read_fields<attention::GptConfig>(config),
                                                 numbers(params), numbers(stream)));
}

// A learner's own text, as bytes: its streams, vocabulary and baselines (text.hpp).
py::object text_corpus(const py::bytes& text) {
  return to_py(attention::text_corpus(std::string(text)));
}

// The inputs the core declares (src/fields.hpp), for the package's checks: { "GptConfig": [{
// name, scalar, sometimes, what, default }, …], … } in declared order, the default each field
// in T{}.
template <typename... Inputs>
py::dict declared_inputs() {
  py::dict out;
  const auto one = [&](auto tag) {
    using T = typename decltype(tag)::type;
    py::list fields;
    attention::for_each_field_type<T>([&](const auto& field, auto member) {
      using M = typename decltype(member)::type;
      py::dict f;
      f["name"] = field.name;
      f["scalar"] = attention::scalar_of<M>();
      f["sometimes"] = field.sometimes;
      f["what"] = field.what;
      fields.append(f);
    });
    const T defaults{};
    size_t i = 0;
    attention::for_each_field(defaults, [&](const char*, const auto& member) {
      fields[i++].cast<py::dict>()["default"] = to_py(member);
    });
    out[T::kName] = fields;
  };
  (one(attention::TypeTag<Inputs>{}), ...);
  return out;
}

py::dict input_fields() {
  return declared_inputs<attention::GptConfig, attention::InductionTask, attention::BpeOptions>();
}

// Byte-pair encoding (bpe.hpp): the text as UTF-8 bytes, { merges, start, presplit }.
py::object bpe_learn(const py::bytes& text, const py::dict& options) {
  return to_py(
      attention::bpe_learn(std::string(text), read_fields<attention::BpeOptions>(options)));
}

// { start, presplit, alphabet (UTF-8 bytes) }, the merges' token ids as (left, right) pairs, the
// text as UTF-8 bytes.
py::object bpe_encode(const py::dict& learned,
                      const std::vector<std::array<std::int64_t, 2>>& merges,
                      const py::bytes& text) {
  attention::BpeModel model;
  model.start = learned["start"].cast<std::string>();
  model.presplit = learned["presplit"].cast<bool>();
  model.alphabet = learned["alphabet"].cast<std::string>();
  model.merges = merges;
  return to_py(attention::bpe_encode(model, std::string(text)));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The attention-by-hand core (C++, Eigen): use the attention_by_hand package.";
  m.def("attend", &attend);
  m.def("self_attention", &self_attention);
  m.def("attend_batched", &attend_batched);
  m.def("multi_head_attention", &multi_head_attention);
  m.def("decode_step", &decode_step);
  m.def("attend_backward", &attend_backward);
  m.def("self_attention_backward", &self_attention_backward);
  m.def("multi_head_backward", &multi_head_backward);
  m.def("gpt_layout", &gpt_layout);
  m.def("gpt_dequantize", &gpt_dequantize);
  m.def("gpt_quantize", &gpt_quantize);
  m.def("gpt_check_chars", &gpt_check_chars);
  m.def("gpt_read_model", &gpt_read_model);
  m.def("gpt_forward", &gpt_forward);
  m.def("gpt_generate", &gpt_generate);
  m.def("induction_batch", &induction_batch);
  m.def("induction_scores", &induction_scores);
  m.def("text_corpus", &text_corpus);
  m.def("gpt_trainer", &gpt_trainer);
  m.def("induction_trainer", &induction_trainer);
  m.def("gpt_stream_loss", &gpt_stream_loss);
  py::class_<Session>(m, "Session")
      .def("slice", &train_slice)
      .def("params", [](const Session& s) { return to_py(s.trainer.params); })
      .def_property_readonly("steps", [](const Session& s) { return s.trainer.steps; })
      .def_property_readonly("done", [](const Session& s) { return s.trainer.done; });
  m.def("bpe_learn", &bpe_learn);
  m.def("input_fields", &input_fields);
  m.def("bpe_encode", &bpe_encode);
}
