// bindings.cpp: the only file that includes Emscripten. The teaching path through embind: JS
// typed arrays come in as { rows, cols, data }, traces go out as plain objects of copied typed
// arrays, and an error goes out as an `error` string. The batched path through a few plain
// exports on one block of WASM memory (below). No C++ exception ever crosses into JS: the core
// throws none.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>

#include "../attention.hpp"
#if ATTENTION_LABS
#include "../backward.hpp"
#include "../gpt.hpp"
#include "../learn.hpp"
#include "../model.hpp"
#include "../why.hpp"
#endif

namespace {

using attention::Index;
using attention::Matrix;
using emscripten::val;

// A matrix that arrived from JS: its numbers, owned here, and a row-major view of them.
struct JsMatrix {
  std::vector<double> data;
  Index rows = 0, cols = 0;
  Eigen::Map<const Matrix<double>> view() const { return {data.data(), rows, cols}; }
};

JsMatrix read_matrix(const val& js) {
  JsMatrix m{emscripten::convertJSArrayToNumberVector<double>(js["data"]), js["rows"].as<Index>(),
             js["cols"].as<Index>()};
  if (Index(m.data.size()) != m.rows * m.cols) m.rows = m.cols = 0;
  return m;
}

// { scale?, causal, mask?: { rows, cols, data: Uint8Array }, maskValue?, dropoutP, seed }
attention::Options read_options(const val& js) {
  attention::Options options;
  if (!js["scale"].isUndefined()) options.scale = js["scale"].as<double>();
  if (js["causal"].as<bool>()) options.mask_kind = attention::MaskKind::kCausal;
  if (!js["mask"].isUndefined()) {
    const val mask = js["mask"];
    const auto cells = emscripten::convertJSArrayToNumberVector<std::uint8_t>(mask["data"]);
    options.mask_kind = attention::MaskKind::kExplicit;
    options.mask.resize(mask["rows"].as<Index>(), mask["cols"].as<Index>());
    if (Index(cells.size()) != options.mask.size()) options.mask.resize(0, 0);
    for (Index i = 0; i < options.mask.size(); ++i) options.mask.data()[i] = cells[i] != 0;
  }
  if (!js["maskValue"].isUndefined()) options.mask_value = js["maskValue"].as<double>();
  options.dropout_p = js["dropoutP"].as<double>();
  options.seed = static_cast<std::uint64_t>(js["seed"].as<double>());
  return options;
}

template <typename T>
val typed_copy(const T* data, Index size) {
  return val(emscripten::typed_memory_view(size_t(size), data)).call<val>("slice");
}

template <typename Derived>
val to_js(const Eigen::DenseBase<Derived>& m) {
  val out = val::object();
  out.set("rows", m.rows());
  out.set("cols", m.cols());
  out.set("data", typed_copy(m.derived().data(), m.size()));
  return out;
}

val error(const std::string& message) {
  val out = val::object();
  out.set("error", message);
  return out;
}

val trace_to_js(const attention::Result<attention::Trace<double>>& result) {
  if (!result.ok()) return error(result.error);
  const attention::Trace<double>& t = result.value;
  val out = val::object();
  for (auto [name, m] :
       {std::pair{"q", &t.q}, std::pair{"k", &t.k}, std::pair{"v", &t.v},
        std::pair{"scores", &t.scores}, std::pair{"scaled", &t.scaled},
        std::pair{"masked", &t.masked}, std::pair{"exp", &t.exp}, std::pair{"weights", &t.weights},
        std::pair{"dropped", &t.dropped}, std::pair{"output", &t.output}}) {
    if (m->size() > 0) out.set(name, to_js(*m));
  }
  out.set("rowMax", typed_copy(t.row_max.data(), t.row_max.size()));
  out.set("rowSum", typed_copy(t.row_sum.data(), t.row_sum.size()));
  out.set("blockedRows", typed_copy(t.blocked_rows.data(), Index(t.blocked_rows.size())));
  out.set("scale", t.scale);
  return out;
}

val attend(val q, val k, val v, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return trace_to_js(
      attention::attend<double>(Q.view(), K.view(), V.view(), read_options(options)));
}

val self_attention(val x, val w_q, val w_k, val w_v, val options) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  return trace_to_js(attention::self_attention<double>(X.view(), W_Q.view(), W_K.view(), W_V.view(),
                                                       read_options(options)));
}

// ---- the batched path: plain exports, so that a small call costs little ----
// web/attention.js writes a call's request into one block of doubles, field by field, by the
// names below (it reads them with batchLayout()); batch_plan checks and plans it and allocates
// one block for all its buffers; JS copies the inputs in with HEAPF32.set, batch_run runs it,
// and JS reads the results out of the same block: no std::vector, no copy inside the core. The
// block lives until the wrapper releases it, or until the next call is planned, so results
// can also be lent out in place. Both layouts are defined here, once.

// The request: one double each, in this order. Flags are 1 or 0; sizes come as doubles, so
// that JS numbers past 2^31 are not wrapped.
constexpr const char* kRequestFields[] = {
    "batch",     "heads",    "nQ",     "nK",       "dK",       "dV",       "qSize",
    "kSize",     "vSize",    "causal", "mask",     "maskRows", "maskCols", "weights",
    "reference", "hasScale", "scale",  "dropoutP", "seed"};
constexpr int kRequestSize = int(std::size(kRequestFields));
// The buffers planned for a call: one byte address each, in this order.
constexpr const char* kBufferFields[] = {"q", "k", "v", "mask", "output", "weights"};
constexpr int kBufferCount = int(std::size(kBufferFields));

constexpr int field_index(const char* const* names, int n, std::string_view name) {
  for (int i = 0; i < n; ++i)
    if (names[i] == name) return i;
  return -1;
}

struct BatchCall {
  double request[kRequestSize] = {};
  attention::BatchShape shape;
  attention::Options options;
  attention::BatchPlan plan;
  void* block = nullptr;
  std::uint32_t buffers[kBufferCount] = {};
  std::string error;
};
BatchCall call;

// A field by its name, found when compiling: a name that is not in the list does not build.
template <int I>
constexpr int known() {
  static_assert(I >= 0, "not a field of the batched layout");
  return I;
}
#define REQUEST(name) call.request[known<field_index(kRequestFields, kRequestSize, name)>()]
#define BUFFER(name) call.buffers[known<field_index(kBufferFields, kBufferCount, name)>()]

// Small calls reuse this block instead of asking malloc each time.
constexpr std::int64_t kSmallBlock = 64 * 1024;
alignas(16) unsigned char small_block[kSmallBlock];

std::string bytes(std::int64_t n) { return std::to_string(n) + " bytes"; }

std::string batch_error() { return call.error; }

// { request: [field names], buffers: [buffer names] }
val batch_layout() {
  val out = val::object();
  for (auto [key, names, n] : {std::tuple{"request", kRequestFields, kRequestSize},
                               std::tuple{"buffers", kBufferFields, kBufferCount}}) {
    val list = val::array();
    for (int i = 0; i < n; ++i) list.call<void>("push", std::string(names[i]));
    out.set(key, list);
  }
  return out;
}

}  // namespace

extern "C" {

// Frees the last call's block.
EMSCRIPTEN_KEEPALIVE void batch_release() {
  if (call.block != small_block) std::free(call.block);
  call.block = nullptr;
}

// Where JS writes a call's request (kRequestSize doubles).
EMSCRIPTEN_KEEPALIVE double* batch_request() { return call.request; }

// Checks and plans the request and allocates its buffers. Returns the address of their byte
// addresses (kBufferFields' order), or 0 with batch_error() set.
EMSCRIPTEN_KEEPALIVE std::uint32_t* batch_plan() {
  batch_release();
  const auto whole = [](double x) { return static_cast<std::int64_t>(x); };
  const auto flag = [](double x) { return x != 0; };
  call.shape = {whole(REQUEST("batch")), whole(REQUEST("heads")), whole(REQUEST("nQ")),
                whole(REQUEST("nK")),    whole(REQUEST("dK")),    whole(REQUEST("dV"))};
  call.options = {};
  if (flag(REQUEST("causal"))) call.options.mask_kind = attention::MaskKind::kCausal;
  if (flag(REQUEST("mask"))) {
    call.options.mask_kind = attention::MaskKind::kExplicit;
    call.options.mask.resize(Index(REQUEST("maskRows")), Index(REQUEST("maskCols")));
  }
  if (flag(REQUEST("hasScale"))) call.options.scale = REQUEST("scale");
  call.options.dropout_p = REQUEST("dropoutP");
  call.options.seed = static_cast<std::uint64_t>(REQUEST("seed"));
  const attention::BatchOptions batch_options{flag(REQUEST("weights")), flag(REQUEST("reference"))};
  auto planned =
      attention::plan_batched(call.shape, whole(REQUEST("qSize")), whole(REQUEST("kSize")),
                              whole(REQUEST("vSize")), call.options, batch_options);
  if (!planned.ok()) {
    call.error = std::move(planned.error);
    return nullptr;
  }
  const attention::BatchPlan& plan = call.plan = planned.value;
  // workspace (16-byte aligned) | q | k | v | output | weights | mask
  const std::int64_t floats[] = {plan.workspace, plan.q, plan.k, plan.v, plan.output, plan.weights};
  std::int64_t offsets[7] = {};
  for (int i = 0; i < 6; ++i) offsets[i + 1] = offsets[i] + (floats[i] + 3) / 4 * 16;
  const std::int64_t mask = call.options.mask.size(), total = offsets[6] + mask;
  // The reference allocates its trace itself: make sure the heap can give it first.
  void* trace = plan.reference > 0 ? std::malloc(size_t(plan.reference)) : nullptr;
  if (plan.reference == 0 || trace != nullptr) {
    std::free(trace);
    call.block =
        total <= kSmallBlock ? small_block : aligned_alloc(16, size_t((total + 15) / 16 * 16));
  }
  if (call.block == nullptr) {
    call.error = "could not allocate " + bytes(total + plan.reference) +
                 " for this call: WASM memory is limited to " + bytes(attention::kMaxBytes) +
                 " (1 GiB), and " + bytes(mallinfo().uordblks) + " of it are in use";
    return nullptr;
  }
  const auto at = [](const void* block, std::int64_t offset) {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(block) + offset);
  };
  BUFFER("q") = at(call.block, offsets[1]);
  BUFFER("k") = at(call.block, offsets[2]);
  BUFFER("v") = at(call.block, offsets[3]);
  BUFFER("output") = at(call.block, offsets[4]);
  BUFFER("weights") = at(call.block, offsets[5]);
  BUFFER("mask") = at(call.block, offsets[6]);
  return call.buffers;
}

// Runs the planned call on the inputs JS has copied in. 1 on success, else 0 with
// batch_error() set and the block released.
EMSCRIPTEN_KEEPALIVE int batch_run() {
  const auto address = [](std::uint32_t a) { return reinterpret_cast<float*>(std::uintptr_t(a)); };
  attention::Mask& mask = call.options.mask;
  const auto* cells = reinterpret_cast<const std::uint8_t*>(std::uintptr_t(BUFFER("mask")));
  for (Index i = 0; i < mask.size(); ++i) mask.data()[i] = cells[i] != 0;
  const attention::BatchBuffers buffers{
      address(BUFFER("q")),
      address(BUFFER("k")),
      address(BUFFER("v")),
      address(BUFFER("output")),
      call.plan.weights > 0 ? address(BUFFER("weights")) : nullptr,
      static_cast<float*>(call.block)};
  call.error = attention::run_batched(call.shape, call.options, call.plan, buffers);
  if (call.error.empty()) return 1;
  batch_release();
  return 0;
}

}  // extern "C"

namespace {

// The leak tests watch these: bytes malloc has handed out, and the top of the heap.
double heap_in_use() { return double(mallinfo().uordblks); }
double heap_top() { return double(reinterpret_cast<std::uintptr_t>(sbrk(0))); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::function("attend", &attend);
  emscripten::function("selfAttention", &self_attention);
  emscripten::function("batchError", &batch_error);
  emscripten::function("batchLayout", &batch_layout);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("heapTop", &heap_top);
}

#if ATTENTION_LABS
// The labs module: everything above, and the labs' functions, in one section per issue: first
// the model's (multi-head, grouped-query heads, the KV cache, positions), then the why's
// (tiling, statistics, dropout). Built with -DATTENTION_LABS=1 as web/generated/attention-labs.mjs.
// ---- Labs: attention inside a model (multi-head, grouped-query heads, the KV cache,
// positions). Same conventions: plain objects of copied typed arrays out, `error` on failure.
namespace {

// { heads, kvHeads, causal, positions: 0 none | 1 sinusoidal | 2 rotary, base, peScale, scale? }
attention::ModelOptions read_model_options(const val& js) {
  attention::ModelOptions o;
  o.heads = js["heads"].as<Index>();
  o.kv_heads = js["kvHeads"].as<Index>();
  o.causal = js["causal"].as<bool>();
  o.positions = static_cast<attention::Positions>(js["positions"].as<int>());
  o.base = js["base"].as<double>();
  o.pe_scale = js["peScale"].as<double>();
  if (!js["scale"].isUndefined()) o.scale = js["scale"].as<double>();
  return o;
}

attention::ModelWeights read_weights(const val& w) {
  const auto full = [](const val& js) { return Matrix<double>(read_matrix(js).view()); };
  return {full(w["wq"]), full(w["wk"]), full(w["wv"]), full(w["wo"])};
}

val angles_to_js(const attention::PositionTrace& t) {
  val out = val::object();
  out.set("positions", typed_copy(t.positions.data(), Index(t.positions.size())));
  out.set("theta", typed_copy(t.theta.data(), t.theta.size()));
  out.set("angles", to_js(t.angles));
  out.set("cos", to_js(t.cos));
  out.set("sin", to_js(t.sin));
  return out;
}

val sinusoidal_to_js(const attention::SinusoidalTrace& t) {
  val out = angles_to_js(t.angles);
  out.set("encoding", to_js(t.encoding));
  return out;
}

val rotary_to_js(const attention::RotaryTrace& t) {
  val out = angles_to_js(t.angles);
  out.set("rotated", to_js(t.rotated));
  return out;
}

val multi_head_to_js(const attention::MultiHeadTrace& t) {
  val out = val::object();
  out.set("dHead", t.d_head);
  out.set("h", t.heads);
  out.set("hKv", t.kv_heads);
  out.set("kvHead", typed_copy(t.kv_head.data(), Index(t.kv_head.size())));
  out.set("x", to_js(t.x));
  if (t.sinusoidal) out.set("sinusoidal", sinusoidal_to_js(*t.sinusoidal));
  out.set("q", to_js(t.q));
  out.set("k", to_js(t.k));
  out.set("v", to_js(t.v));
  if (t.q_rotated) out.set("qRotated", rotary_to_js(*t.q_rotated));
  if (t.k_rotated) out.set("kRotated", rotary_to_js(*t.k_rotated));
  val heads = val::array();
  for (const auto& head : t.head) heads.call<void>("push", trace_to_js({head, {}}));
  out.set("heads", heads);
  out.set("concat", to_js(t.concat));
  out.set("output", to_js(t.output));
  return out;
}

val cost_to_js(const attention::Cost& c) {
  val out = val::object();
  out.set("projections", double(c.projections));
  out.set("scores", double(c.scores));
  out.set("weightedSum", double(c.weighted_sum));
  out.set("output", double(c.output));
  out.set("total", double(c.total));
  return out;
}

val multi_head_attention(val x, val weights, val options) {
  const JsMatrix X = read_matrix(x);
  auto result =
      attention::multi_head_attention(X.view(), read_weights(weights), read_model_options(options));
  return result.ok() ? multi_head_to_js(result.value) : error(result.error);
}

val decode_step(val x, val k_cache, val v_cache, val weights, val options) {
  const JsMatrix X = read_matrix(x), K = read_matrix(k_cache), V = read_matrix(v_cache);
  auto result = attention::decode_step(X.view(), K.view(), V.view(), read_weights(weights),
                                       read_model_options(options));
  if (!result.ok()) return error(result.error);
  const attention::DecodeStep& step = result.value;
  val out = val::object();
  out.set("position", step.position);
  out.set("kCache", to_js(step.k_cache));
  out.set("vCache", to_js(step.v_cache));
  out.set("trace", multi_head_to_js(step.trace));
  out.set("cost", cost_to_js(step.cost));
  out.set("full", cost_to_js(step.full));
  return out;
}

val sinusoidal_positions(val positions, int d_model, double base) {
  auto result = attention::sinusoidal_positions(
      emscripten::convertJSArrayToNumberVector<double>(positions), d_model, base);
  return result.ok() ? sinusoidal_to_js(result.value) : error(result.error);
}

val rotary(val m, val positions, int d_head, double base) {
  const JsMatrix M = read_matrix(m);
  auto result = attention::rotary(
      M.view(), emscripten::convertJSArrayToNumberVector<double>(positions), d_head, base);
  return result.ok() ? rotary_to_js(result.value) : error(result.error);
}

}  // namespace

// ---- Labs: why it is built this way: tiling, the 1/√d_k statistics, dropout ----
// Counts arrive as doubles that web/attention.js has checked to be whole numbers.
namespace {

val vector_to_js(const attention::Vector<double>& v) { return typed_copy(v.data(), v.size()); }

val tiled_attention(val q, val k, val v, double block, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  const auto result =
      attention::tiled_attention(Q.view(), K.view(), V.view(), Index(block), read_options(options));
  if (!result.ok()) return error(result.error);
  const attention::TiledTrace& t = result.value;
  val blocks = val::array();
  for (const attention::TiledBlock& b : t.blocks) {
    val out = val::object();
    out.set("start", b.start);
    out.set("end", b.end);
    out.set("logits", to_js(b.logits));
    out.set("blockMax", vector_to_js(b.block_max));
    out.set("m", vector_to_js(b.m));
    out.set("rescale", vector_to_js(b.rescale));
    out.set("p", to_js(b.p));
    out.set("l", vector_to_js(b.l));
    out.set("acc", to_js(b.acc));
    out.set("partial", to_js(b.partial));
    blocks.call<void>("push", out);
  }
  val out = val::object();
  out.set("block", t.block);
  out.set("scale", t.scale);
  out.set("blocks", blocks);
  out.set("output", to_js(t.output));
  out.set("full", to_js(t.full));
  out.set("maxDifference", t.max_difference);
  out.set("blockedRows", typed_copy(t.blocked_rows.data(), Index(t.blocked_rows.size())));
  return out;
}

val scaling_batch(double d_k, double n_keys, double rows, double seed) {
  const auto result = attention::scaling_batch(Index(d_k), Index(n_keys), Index(rows),
                                               static_cast<std::uint64_t>(seed));
  if (!result.ok()) return error(result.error);
  val out = val::object();
  out.set("q", to_js(result.value.q));
  out.set("k", to_js(result.value.k));
  return out;
}

val scaling_stats(double d_k, double n_keys, double rows, double seed) {
  const auto result = attention::scaling_stats(Index(d_k), Index(n_keys), Index(rows),
                                               static_cast<std::uint64_t>(seed));
  if (!result.ok()) return error(result.error);
  const attention::ScalingStats& s = result.value;
  val out = val::object();
  out.set("dK", s.d_k);
  out.set("nKeys", s.n_keys);
  out.set("rows", s.rows);
  out.set("scale", s.scale);
  out.set("scoreMean", s.score_mean);
  out.set("scoreVariance", s.score_variance);
  out.set("scaledVariance", s.scaled_variance);
  out.set("maxWeightUnscaled", s.max_weight_unscaled);
  out.set("maxWeightScaled", s.max_weight_scaled);
  out.set("oneHotUnscaled", s.one_hot_unscaled);
  out.set("oneHotScaled", s.one_hot_scaled);
  out.set("exampleQ", vector_to_js(s.example_q));
  out.set("exampleK", to_js(s.example_k));
  out.set("exampleScores", vector_to_js(s.example_scores));
  out.set("exampleUnscaled", vector_to_js(s.example_unscaled));
  out.set("exampleScaled", vector_to_js(s.example_scaled));
  return out;
}

val dropout_stats(val q, val k, val v, val options, double draws) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  const auto result =
      attention::dropout_stats(Q.view(), K.view(), V.view(), read_options(options), Index(draws));
  if (!result.ok()) return error(result.error);
  const attention::DropoutStats& s = result.value;
  val out = val::object();
  for (auto [name, m] : {std::pair{"weights", &s.weights}, std::pair{"output", &s.output},
                         std::pair{"dropped", &s.dropped}, std::pair{"drawOutput", &s.draw_output},
                         std::pair{"meanDropped", &s.mean_dropped},
                         std::pair{"meanOutput", &s.mean_output}, std::pair{"kept", &s.kept}}) {
    out.set(name, to_js(*m));
  }
  out.set("droppedRowSums", vector_to_js(s.dropped_row_sums));
  out.set("maxDifference", s.max_difference);
  out.set("counts", typed_copy(s.counts.data(), Index(s.counts.size())));
  out.set("differences", typed_copy(s.differences.data(), Index(s.differences.size())));
  return out;
}

}  // namespace

// ---- how attention learns: the gradients of a call, beside its forward trace ----
namespace {

// Every gradient that is there, named as the forward step it belongs to.
val gradients_to_js(const attention::AttentionGradients& g) {
  val out = val::object();
  for (auto [name, m] :
       {std::pair{"output", &g.output}, std::pair{"dropped", &g.dropped},
        std::pair{"weights", &g.weights}, std::pair{"masked", &g.masked},
        std::pair{"scaled", &g.scaled}, std::pair{"scores", &g.scores}, std::pair{"q", &g.q},
        std::pair{"k", &g.k}, std::pair{"v", &g.v}, std::pair{"x", &g.x}, std::pair{"wq", &g.w_q},
        std::pair{"wk", &g.w_k}, std::pair{"wv", &g.w_v}}) {
    if (m->size() > 0) out.set(name, to_js(*m));
  }
  out.set("rowDot", vector_to_js(g.row_dot));
  return out;
}

val backward_to_js(const attention::Result<attention::AttentionBackward>& r) {
  if (!r.ok()) return error(r.error);
  val out = val::object();
  out.set("trace", trace_to_js({r.value.trace, {}}));
  out.set("gradients", gradients_to_js(r.value.gradients));
  return out;
}

// { output, weights? }: what the loss gives, dL/d(output) and its own dL/d(weights)
attention::LossGradients read_loss(const val& js) {
  attention::LossGradients loss{Matrix<double>(read_matrix(js["output"]).view()), {}};
  if (!js["weights"].isUndefined()) loss.weights = read_matrix(js["weights"]).view();
  return loss;
}

val attention_backward(val q, val k, val v, val loss, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return backward_to_js(attention::attend_backward(Q.view(), K.view(), V.view(), read_loss(loss),
                                                   read_options(options)));
}

val self_attention_backward(val x, val w_q, val w_k, val w_v, val loss, val options) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  return backward_to_js(attention::self_attention_backward(
      X.view(), W_Q.view(), W_K.view(), W_V.view(), read_loss(loss), read_options(options)));
}

val multi_head_backward(val x, val weights, val d_output, val options) {
  const JsMatrix X = read_matrix(x), D = read_matrix(d_output);
  const auto r = attention::multi_head_backward(X.view(), read_weights(weights), D.view(),
                                                read_model_options(options));
  if (!r.ok()) return error(r.error);
  const attention::MultiHeadGradients& g = r.value.gradients;
  val grads = val::object();
  for (auto [name, m] :
       {std::pair{"output", &g.output}, std::pair{"wo", &g.w_o}, std::pair{"concat", &g.concat},
        std::pair{"qRotated", &g.q_rotated}, std::pair{"kRotated", &g.k_rotated},
        std::pair{"q", &g.q}, std::pair{"k", &g.k}, std::pair{"v", &g.v}, std::pair{"wq", &g.w_q},
        std::pair{"wk", &g.w_k}, std::pair{"wv", &g.w_v}, std::pair{"x", &g.x}}) {
    if (m->size() > 0) grads.set(name, to_js(*m));
  }
  val heads = val::array();
  for (const auto& head : g.head) heads.call<void>("push", gradients_to_js(head));
  grads.set("heads", heads);
  val out = val::object();
  out.set("trace", multi_head_to_js(r.value.trace));
  out.set("gradients", grads);
  return out;
}

val sharpness_descent(val q, val k, val v, double target, double alpha, double eta, double steps) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  const auto r =
      attention::sharpness_descent(Q.view(), K.view(), V.view(), target, alpha, eta, Index(steps));
  if (!r.ok()) return error(r.error);
  val path = val::array();
  for (const attention::SharpnessStep& s : r.value) {
    val step = backward_to_js({s.at, {}});
    step.set("alpha", s.alpha);
    step.set("loss", s.loss);
    step.set("dOutput", s.d_output);
    step.set("dAlpha", s.d_alpha);
    step.set("next", s.next);
    path.call<void>("push", step);
  }
  return path;
}

val teach_descent(val x, val w_q, val w_k, val w_v, double row, double key, double eta,
                  double steps) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  const auto r = attention::teach_descent(X.view(), W_Q.view(), W_K.view(), W_V.view(), Index(row),
                                          Index(key), eta, Index(steps));
  if (!r.ok()) return error(r.error);
  val path = val::array();
  for (const attention::TeachStep& s : r.value.steps) {
    val step = backward_to_js({s.at, {}});
    step.set("wq", to_js(s.w_q));
    step.set("wk", to_js(s.w_k));
    step.set("loss", s.loss);
    path.call<void>("push", step);
  }
  val out = val::object();
  out.set("steps", path);
  out.set("wq", to_js(r.value.w_q));
  out.set("wk", to_js(r.value.w_k));
  out.set("after", trace_to_js({r.value.after, {}}));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_learn) {
  emscripten::function("attentionBackward", &attention_backward);
  emscripten::function("selfAttentionBackward", &self_attention_backward);
  emscripten::function("multiHeadBackward", &multi_head_backward);
  emscripten::function("sharpnessDescent", &sharpness_descent);
  emscripten::function("teachDescent", &teach_descent);
}

// ---- a real model: the small transformer of gpt.hpp, its weights, generation, training ----
namespace {

// { vocab, context, dModel, layers, heads, base }
attention::GptConfig read_gpt_config(const val& js) {
  return {js["vocab"].as<Index>(),  js["context"].as<Index>(), js["dModel"].as<Index>(),
          js["layers"].as<Index>(), js["heads"].as<Index>(),   js["base"].as<double>()};
}

template <typename T>
std::vector<T> read_numbers(const val& js) {
  return emscripten::convertJSArrayToNumberVector<T>(js);
}

// The parameters' layout: [{ name, rows, cols, offset, decay }], in the flat buffer's order.
val gpt_layout(val config) {
  const attention::GptConfig c = read_gpt_config(config);
  if (auto e = attention::check_gpt_config(c); !e.empty()) return error(e);
  val out = val::array();
  for (const attention::GptTensor& t : attention::gpt_layout(c)) {
    val tensor = val::object();
    tensor.set("name", t.name);
    tensor.set("rows", t.rows);
    tensor.set("cols", t.cols);
    tensor.set("offset", double(t.offset));
    tensor.set("decay", t.decay);
    out.call<void>("push", tensor);
  }
  return out;
}

// The int8 file (a float32 scale per matrix row, then its int8 values; vectors as float32)
// as float32 parameters.
val gpt_dequantize(val config, val bytes) {
  const attention::GptConfig c = read_gpt_config(config);
  if (auto e = attention::check_gpt_config(c); !e.empty()) return error(e);
  const std::vector<std::uint8_t> in = read_numbers<std::uint8_t>(bytes);
  std::vector<float> params(size_t(attention::gpt_size(c)));
  size_t at = 0;
  const auto take = [&](void* out, size_t n) {
    if (at + n > in.size()) return false;
    std::copy_n(in.data() + at, n, static_cast<std::uint8_t*>(out));
    at += n;
    return true;
  };
  for (const attention::GptTensor& t : attention::gpt_layout(c)) {
    for (Index r = 0; r < t.rows; ++r) {
      float* row = params.data() + t.offset + std::int64_t(r) * t.cols;
      float scale = 1;
      if (t.rows > 1 && !take(&scale, 4)) return error("the weights file is too short");
      for (Index j = 0; j < t.cols; ++j) {
        if (t.rows == 1) {
          if (!take(row + j, 4)) return error("the weights file is too short");
        } else {
          std::int8_t q = 0;
          if (!take(&q, 1)) return error("the weights file is too short");
          row[j] = float(q) * scale;
        }
      }
    }
  }
  if (at != in.size()) return error("the weights file is longer than the model");
  return typed_copy(params.data(), Index(params.size()));
}

// A forward pass on one sequence: per layer the rotated q and k, v, each head's scores and
// weights; the logits and probabilities of the next token at every position; the loss when
// there are targets.
template <typename T>
val gpt_forward_as(const attention::GptConfig& c, const val& params, const val& tokens,
                   const val& targets) {
  const auto ids = read_numbers<std::int32_t>(tokens);
  const auto wanted =
      targets.isUndefined() ? std::vector<std::int32_t>{} : read_numbers<std::int32_t>(targets);
  const auto r = attention::gpt_forward<T>(c, read_numbers<T>(params), ids, 1, wanted);
  if (!r.ok()) return error(r.error);
  val layers = val::array();
  for (const auto& L : r.value.layers) {
    val layer = val::object();
    layer.set("q", to_js(L.q));
    layer.set("k", to_js(L.k));
    layer.set("v", to_js(L.v));
    val scores = val::array(), weights = val::array();
    for (const auto& m : L.s) scores.call<void>("push", to_js(m));
    for (const auto& m : L.p) weights.call<void>("push", to_js(m));
    layer.set("scores", scores);
    layer.set("weights", weights);
    layers.call<void>("push", layer);
  }
  val out = val::object();
  out.set("layers", layers);
  out.set("logits", to_js(r.value.logits));
  out.set("probs", to_js(r.value.probs));
  out.set("top", typed_copy(r.value.top.data(), r.value.top.size()));
  out.set("sum", typed_copy(r.value.sum.data(), r.value.sum.size()));
  out.set("loss", r.value.loss);
  return out;
}

val gpt_forward(val config, val params, val tokens, val targets, bool precise) {
  const attention::GptConfig c = read_gpt_config(config);
  return precise ? gpt_forward_as<double>(c, params, tokens, targets)
                 : gpt_forward_as<float>(c, params, tokens, targets);
}

// The mean loss of a batch of sequences and its gradient for every parameter, in the flat
// layout.
template <typename T>
val gpt_gradients_as(const attention::GptConfig& c, const val& params, const val& tokens,
                     double batch, const val& targets) {
  const auto p = read_numbers<T>(params);
  const auto ids = read_numbers<std::int32_t>(tokens);
  const auto wanted = read_numbers<std::int32_t>(targets);
  const auto r = attention::gpt_forward<T>(c, p, ids, Index(batch), wanted);
  if (!r.ok()) return error(r.error);
  const auto g = attention::gpt_backward<T>(c, p, r.value, ids, wanted);
  if (!g.ok()) return error(g.error);
  val out = val::object();
  out.set("loss", r.value.loss);
  out.set("gradients", typed_copy(g.value.data(), Index(g.value.size())));
  return out;
}

val gpt_gradients(val config, val params, val tokens, double batch, val targets, bool precise) {
  const attention::GptConfig c = read_gpt_config(config);
  return precise ? gpt_gradients_as<double>(c, params, tokens, batch, targets)
                 : gpt_gradients_as<float>(c, params, tokens, batch, targets);
}

val gpt_generate(val config, val params, val prompt, double steps, double temperature,
                 double seed) {
  const auto r = attention::gpt_generate<float>(
      read_gpt_config(config), read_numbers<float>(params), read_numbers<std::int32_t>(prompt),
      Index(steps), temperature, std::uint64_t(seed));
  if (!r.ok()) return error(r.error);
  return typed_copy(r.value.data(), Index(r.value.size()));
}

val gpt_stream_loss(val config, val params, val stream) {
  const auto r = attention::gpt_stream_loss<float>(
      read_gpt_config(config), read_numbers<float>(params), read_numbers<std::int32_t>(stream));
  if (!r.ok()) return error(r.error);
  val out = val::object();
  out.set("loss", r.value);
  return out;
}

// Training sessions, by number: the page trains in slices, a few steps between frames, and
// the trainer's state stays here between them.
std::map<int, attention::GptTrainer<float>> trainers;
int next_trainer = 1;

val gpt_train_open(val config, val data, double batch, double lr, double total, double seed) {
  auto r =
      attention::gpt_trainer<float>(read_gpt_config(config), read_numbers<std::int32_t>(data),
                                    Index(batch), lr, std::int64_t(total), std::uint64_t(seed));
  if (!r.ok()) return error(r.error);
  const int id = next_trainer++;
  trainers.emplace(id, std::move(r.value));
  val out = val::object();
  out.set("id", id);
  return out;
}

val gpt_train_steps(int id, double steps) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return error("no trainer " + std::to_string(id) + " is open");
  std::vector<double> losses;
  for (Index s = 0; s < Index(steps); ++s) {
    const auto loss = attention::gpt_train_step(found->second);
    if (!loss.ok()) return error(loss.error);
    losses.push_back(loss.value);
  }
  val out = val::object();
  out.set("losses", typed_copy(losses.data(), Index(losses.size())));
  out.set("step", double(found->second.steps));
  return out;
}

// Part of a step: the next `sequences` of its batch; { step, loss } when that ends the step.
val gpt_train_slice(int id, double sequences) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return error("no trainer " + std::to_string(id) + " is open");
  const auto r = attention::gpt_train_slice(found->second, Index(sequences));
  if (!r.ok()) return error(r.error);
  val out = val::object();
  if (r.value) out.set("loss", *r.value);
  out.set("step", double(found->second.steps));
  return out;
}

val gpt_train_params(int id) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return error("no trainer " + std::to_string(id) + " is open");
  const std::vector<float>& p = found->second.params;
  return typed_copy(p.data(), Index(p.size()));
}

void gpt_train_close(int id) { trainers.erase(id); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_gpt) {
  emscripten::function("gptLayout", &gpt_layout);
  emscripten::function("gptDequantize", &gpt_dequantize);
  emscripten::function("gptForward", &gpt_forward);
  emscripten::function("gptGradients", &gpt_gradients);
  emscripten::function("gptGenerate", &gpt_generate);
  emscripten::function("gptStreamLoss", &gpt_stream_loss);
  emscripten::function("gptTrainOpen", &gpt_train_open);
  emscripten::function("gptTrainSteps", &gpt_train_steps);
  emscripten::function("gptTrainSlice", &gpt_train_slice);
  emscripten::function("gptTrainParams", &gpt_train_params);
  emscripten::function("gptTrainClose", &gpt_train_close);
}

EMSCRIPTEN_BINDINGS(attention_model) {
  emscripten::function("multiHeadAttention", &multi_head_attention);
  emscripten::function("decodeStep", &decode_step);
  emscripten::function("sinusoidalPositions", &sinusoidal_positions);
  emscripten::function("rotary", &rotary);
}

EMSCRIPTEN_BINDINGS(attention_why) {
  emscripten::function("tiledAttention", &tiled_attention);
  emscripten::function("scalingBatch", &scaling_batch);
  emscripten::function("scalingStats", &scaling_stats);
  emscripten::function("dropoutStats", &dropout_stats);
}

#endif  // ATTENTION_LABS
