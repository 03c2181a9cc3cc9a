// gpt_file.hpp: the small model's two files, as `make train` writes them, the page loads them and
// a learner downloads and loads their own. The weights file: for each tensor of gpt_layout in
// order, a matrix as rows of (a float32 scale, then its int8 values, value = int8 × scale, the
// scale the row's largest |value| / 127), and a vector (1×n) as float32. Little-endian, no
// header: the configuration comes beside it, in the description (tang.json), with the
// vocabulary's characters. The description's JSON is read by each binding; what it says about
// the model (the configuration, the characters, the weights that fit them) is checked here, so
// that JS and Python say the same.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpt.hpp"

namespace attention {

// The weights file's size in bytes for a valid configuration.
std::int64_t gpt_file_size(const GptConfig& config);

// The parameters (gpt_size(config) of them, finite) as the file's bytes; an error when the
// configuration is not valid, or the parameters are not its size or not finite.
Result<std::vector<std::uint8_t>> gpt_quantize(const GptConfig& config,
                                               const std::vector<float>& params);

// The file's bytes as float32 parameters; an error when the configuration is not valid, when
// the file is not the configuration's size, when a row's scale is not a finite number ≥ 0, or
// a value is not finite. `names`: how the configuration's fields are named in its messages.
Result<std::vector<float>> gpt_dequantize(const GptConfig& config,
                                          const std::vector<std::uint8_t>& bytes,
                                          const GptConfigNames& names = {});

// A model's characters, its description's `chars` (UTF-8): character i (from 0) is token i + 2,
// after the end token 0 and the unknown token 1. An error unless the configuration's vocabulary
// has room for the two, and chars is UTF-8 of vocab − 2 code points, none of them twice.
std::string check_gpt_chars(const GptConfig& config, const std::string& chars);

// A model from its description's configuration and characters and its weights file, every one
// checked before the parameters are used; the messages name the fields as the description
// spells them ("config.dModel", "chars").
Result<std::vector<float>> gpt_read_model(const GptConfig& config, const std::string& chars,
                                          const std::vector<std::uint8_t>& bytes);

}  // namespace attention
