// inside.hpp: what lesson 2's bindings read that learn.cpp reads too: a multi-head layer's
// options and weights, as web/wasm/inside.js packs them.
#pragma once

#include "../multihead.hpp"
#include "convert.hpp"

namespace attention::wasm {

MultiHeadOptions read_multi_head_options(const val& js);
MultiHeadWeights read_weights(const val& w);

}  // namespace attention::wasm
