// bindings.cpp: the only file that includes Emscripten. JS typed arrays come in as
// { rows, cols, data }, traces go out as plain objects of copied typed arrays, and an error
// goes out as an `error` string. No C++ exception ever crosses into JS: the core throws none.
#include <emscripten/bind.h>
#include <malloc.h>
#include <unistd.h>

#include "../attention.hpp"

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

// { scale?, causal, mask?: { rows, cols, data: Uint8Array }, dropoutP, seed }
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

// shape { batch, heads, nQ, nK, dK, dV }; q, k, v are Float32Array.
val attend_batched(val q, val k, val v, val shape, val options) {
  const auto dim = [&shape](const char* name) {
    return static_cast<std::int64_t>(shape[name].as<double>());
  };
  const attention::BatchShape s{dim("batch"), dim("heads"), dim("nQ"),
                                dim("nK"),    dim("dK"),    dim("dV")};
  const auto result = attention::attend_batched(emscripten::convertJSArrayToNumberVector<float>(q),
                                                emscripten::convertJSArrayToNumberVector<float>(k),
                                                emscripten::convertJSArrayToNumberVector<float>(v),
                                                s, read_options(options));
  if (!result.ok()) return error(result.error);
  val out = val::object();
  out.set("output", typed_copy(result.value.output.data(), Index(result.value.output.size())));
  out.set("weights", typed_copy(result.value.weights.data(), Index(result.value.weights.size())));
  return out;
}

// The leak tests watch these: bytes malloc has handed out, and the top of the heap.
double heap_in_use() { return double(mallinfo().uordblks); }
double heap_top() { return double(reinterpret_cast<std::uintptr_t>(sbrk(0))); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::function("attend", &attend);
  emscripten::function("selfAttention", &self_attention);
  emscripten::function("attendBatched", &attend_batched);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("heapTop", &heap_top);
}
