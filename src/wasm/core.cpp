// core.cpp: the core module's bindings, in the module the page's first view loads: the five
// steps as a trace (attend, selfAttention), the batched fast path through a few plain exports,
// the heap's figures for the leak tests, and resultFields() for the tests of the types and docs.
#include <emscripten/emscripten.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <iterator>
#include <string_view>
#include <tuple>

#include "convert.hpp"

namespace {

using attention::Index;
using namespace attention::wasm;

val attend(val q, val k, val v, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return to_js(attention::attend<double>(Q.view(), K.view(), V.view(), read_options(options)));
}

val self_attention(val x, val w_q, val w_k, val w_v, val options) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  return to_js(attention::self_attention<double>(X.view(), W_Q.view(), W_K.view(), W_V.view(),
                                                 read_options(options)));
}

// ---- the batched path: plain exports, so that a small call costs little ----
// web/wasm/core.js writes a call's request into one block of doubles, field by field, by the
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

// Every field of every result (or input) that the bindings linked into this module return
// (or read), each file registering its own, in declared order: { Trace: [{ name, type, scalar,
// what, sometimes, default? }, …] }, an input's default its field in T{}. The name is as
// declared (snake_case); JS spells it in camelCase.
val declared_fields(const FieldDocs& registry) {
  val out = val::object();
  for (const auto& [type, fields] : registry) {
    val list = val::array();
    for (const FieldDoc& f : fields) {
      val one = val::object();
      one.set("name", f.name);
      one.set("type", f.type);
      one.set("scalar", f.scalar);
      one.set("what", f.what);
      one.set("sometimes", f.sometimes);
      if (f.fallback) one.set("default", f.fallback());
      list.call<void>("push", one);
    }
    out.set(type, list);
  }
  return out;
}
val result_fields() { return declared_fields(registered_results()); }
val input_fields() { return declared_fields(registered_inputs()); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::function("attend", &attend);
  emscripten::function("selfAttention", &self_attention);
  emscripten::function("batchError", &batch_error);
  emscripten::function("batchLayout", &batch_layout);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("heapTop", &heap_top);
  emscripten::function("resultFields", &result_fields);
  emscripten::function("inputFields", &input_fields);
  register_results<attention::Trace<double>>();
}
