// labs/real/models.js: the real models lesson 6 compares with this project's own, as data. Each
// published configuration is copied from its publisher's config.json (the file and the fields
// read are named in `source`), in the shape the core's model_size takes (ModelShape,
// src/sizes.hpp: its fields' meanings are there). Pure: no DOM, no core.

/** Published configurations: GPT-2 small, Llama 3 8B, Qwen2.5 7B, Qwen3 8B. */
export const published = [
  {
    id: "gpt2",
    name: "GPT-2 small",
    year: 2019,
    source:
      "huggingface.co/openai-community/gpt2 config.json (n_embd, n_layer, n_head, n_ctx, vocab_size)",
    shape: {
      vocab: 50257,
      context: 1024,
      dModel: 768,
      layers: 12,
      heads: 12,
      kvHeads: 12,
      dHead: 64,
      dFf: 3072,
      mlp: "gelu",
      norm: "layer",
      positions: "learned",
      tied: true,
      qkvBias: true,
      oBias: true,
      mlpBias: true,
      qkNorm: false,
    },
  },
  {
    id: "llama3",
    name: "Llama 3 8B",
    year: 2024,
    source:
      "huggingface.co/meta-llama/Meta-Llama-3-8B config.json (hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, num_attention_heads 32, num_key_value_heads 8, max_position_embeddings 8192, vocab_size 128256, attention_bias false, tie_word_embeddings false)",
    shape: {
      vocab: 128256,
      context: 8192,
      dModel: 4096,
      layers: 32,
      heads: 32,
      kvHeads: 8,
      dHead: 128,
      dFf: 14336,
      mlp: "gated",
      norm: "rms",
      positions: "rotary",
      tied: false,
      qkvBias: false,
      oBias: false,
      mlpBias: false,
      qkNorm: false,
    },
  },
  {
    id: "qwen25",
    name: "Qwen2.5 7B",
    year: 2024,
    source:
      "huggingface.co/Qwen/Qwen2.5-7B-Instruct config.json (hidden_size 3584, intermediate_size 18944, num_hidden_layers 28, num_attention_heads 28, num_key_value_heads 4, max_position_embeddings 32768, vocab_size 152064, tie_word_embeddings false; biases on q, k and v, as Qwen2's code has them)",
    shape: {
      vocab: 152064,
      context: 32768,
      dModel: 3584,
      layers: 28,
      heads: 28,
      kvHeads: 4,
      dHead: 128,
      dFf: 18944,
      mlp: "gated",
      norm: "rms",
      positions: "rotary",
      tied: false,
      qkvBias: true,
      oBias: false,
      mlpBias: false,
      qkNorm: false,
    },
  },
  {
    id: "qwen3",
    name: "Qwen3 8B",
    year: 2025,
    source:
      "huggingface.co/Qwen/Qwen3-8B config.json (hidden_size 4096, intermediate_size 12288, num_hidden_layers 36, num_attention_heads 32, num_key_value_heads 8, head_dim 128, vocab_size 151936, attention_bias false, tie_word_embeddings false); its model card: 32,768 tokens of context natively; q and k normed per head, as Qwen3's code has them",
    shape: {
      vocab: 151936,
      context: 32768,
      dModel: 4096,
      layers: 36,
      heads: 32,
      kvHeads: 8,
      dHead: 128,
      dFf: 12288,
      mlp: "gated",
      norm: "rms",
      positions: "rotary",
      tied: false,
      qkvBias: false,
      oBias: false,
      mlpBias: false,
      qkNorm: true,
    },
  },
];

/** GPT-4o: its tokenizer is published (o200k_base), its size is not; its context is. */
export const gpt4o = {
  id: "gpt4o",
  name: "GPT-4o",
  context: 128000,
  source: "platform.openai.com's GPT-4o model page: a context window of 128,000 tokens",
};

/**
 * This project's own models as ModelShape: a GptConfig (src/gpt.hpp; the Tang model's is
 * tang.json's `config`, the induction lab's configOf) laid out as gpt_layout lays it out: tied
 * embeddings, RoPE, LayerNorm, q, k, v and o without biases, an MLP of 4·d_model with biases, or
 * no MLP in an attention-only model.
 */
export const ourShape = ({ vocab, context, dModel, layers, heads, mlp = true }) => ({
  vocab,
  context,
  dModel,
  layers,
  heads,
  kvHeads: heads,
  dHead: dModel / heads,
  dFf: mlp ? 4 * dModel : 0,
  mlp: mlp ? "gelu" : "none",
  norm: "layer",
  positions: "rotary",
  tied: true,
  qkvBias: false,
  oBias: false,
  mlpBias: mlp,
  qkNorm: false,
});
