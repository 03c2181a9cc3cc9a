// gpt_file.hpp: the small model's weights file, as `make train` writes it and the page loads
// it: for each tensor of gpt_layout in order, a matrix as rows of (a float32 scale, then its
// int8 values, value = int8 × scale, the scale the row's largest |value| / 127), and a vector
// (1×n) as float32. Little-endian, no header: the configuration comes beside it (tang.json).
#pragma once

#include <cstdint>
#include <vector>

#include "gpt.hpp"

namespace attention {

// The parameters (gpt_size(config) of them) as the file's bytes.
std::vector<std::uint8_t> gpt_quantize(const GptConfig& config, const std::vector<float>& params);

// The file's bytes as float32 parameters; an error when the configuration is not valid, when
// the file is shorter or longer than the configuration's tensors, or a number is not finite.
Result<std::vector<float>> gpt_dequantize(const GptConfig& config,
                                          const std::vector<std::uint8_t>& bytes);

}  // namespace attention
