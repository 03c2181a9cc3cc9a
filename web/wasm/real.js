// wasm/real.js: lesson 6's wrappers, the models people use (src/wasm/real.cpp): a real
// tokenizer's tokens over a text, a real model's sizes from its configuration, and a vocabulary
// learned by BPE.
import {
  checkFlag,
  declaredInput,
  isObject,
  kindOf,
  packDeclared,
  unpacked,
  whole,
} from "./core.js";

// A string that UTF-8 can hold: no lone surrogate (TextEncoder would write one as U+FFFD, and
// the core would read a character the text does not have).
function checkText(name, text) {
  if (typeof text !== "string") throw new Error(`${name} must be a string, not ${kindOf(text)}`);
  const at = text.search(/[\uD800-\uDFFF]/u);
  if (at >= 0) {
    const code = text.charCodeAt(at).toString(16).toUpperCase();
    const character = [...text.slice(0, at)].length + 1;
    throw new Error(
      `${name} holds a lone surrogate (U+${code}) at character ${character}, not text`,
    );
  }
  return text;
}

// A learned vocabulary as bpeEncode reads it: its start, pre-split, alphabet and merges.
function packBpeModel(learned) {
  if (!isObject(learned) || !Array.isArray(learned.steps)) {
    throw new Error(
      "learned must be what bpeLearn returned, or { start, presplit, alphabet, steps: [{ left, right }] }",
    );
  }
  const { start, presplit = false, alphabet = "" } = learned;
  if (typeof start !== "string")
    throw new Error(`learned.start must be a string, not ${kindOf(start)}`);
  checkFlag("learned.presplit", presplit);
  checkText("learned.alphabet", alphabet);
  const merges = new Float64Array(learned.steps.length * 2);
  learned.steps.forEach((step, k) => {
    if (!isObject(step)) throw new Error(`learned.steps[${k}] must be an object { left, right }`);
    merges[2 * k] = whole(`learned.steps[${k}].left`, step.left);
    merges[2 * k + 1] = whole(`learned.steps[${k}].right`, step.right);
  });
  return { model: { start, presplit, alphabet }, merges };
}

export function realLabs(core) {
  return {
    /**
     * A text and its tokens, each a Uint8Array of its bytes (as a real tokenizer decodes them),
     * → each token's bytes in hex, the characters it holds, whether it is a piece of one; the
     * counts and the characters of such text in `context` tokens. The tokens must spell the
     * text's UTF-8 exactly.
     */
    tokenized(text, tokens, { context }) {
      if (typeof text !== "string") throw new Error("text must be a string");
      if (!Array.isArray(tokens) || !tokens.every((t) => t instanceof Uint8Array)) {
        throw new Error("tokens must be an array of Uint8Array, each token's bytes");
      }
      const lengths = Float64Array.from(tokens, (t) => t.length);
      const bytes = new Uint8Array(lengths.reduce((a, b) => a + b, 0));
      let at = 0;
      for (const t of tokens) bytes.set(t, (at += t.length) - t.length);
      return unpacked(core.tokenized(text, bytes, lengths, whole("context", context)));
    },

    /**
     * A model's configuration (ModelShape) → its parameters in all and by part, its KV cache's
     * bytes, and one token's multiply-adds at context n, values of bytesPerValue bytes.
     */
    modelSize(shape, { n, bytesPerValue = 2 }) {
      return unpacked(
        core.modelSize(
          packDeclared("shape", shape, declaredInput(core, "ModelShape")),
          whole("n", n),
          whole("bytesPerValue", bytesPerValue),
        ),
      );
    },

    /**
     * Byte-pair encoding learned from a text, step by step: each merge's counts (the most frequent
     * pairs), the pair merged, where it occurs, and the text's tokens after it. options: merges
     * (how many, 0 to 500), start ("characters" or "bytes"), presplit (never merge across
     * letters, digits, spaces and punctuation). The rules: src/bpe.hpp, docs/api.md.
     */
    bpeLearn(text, options = {}) {
      checkText("text", text);
      return unpacked(
        core.bpeLearn(text, packDeclared("options", options, declaredInput(core, "BpeOptions"))),
      );
    },

    /**
     * A text read with a learned vocabulary (bpeLearn's result): its characters or bytes, then the
     * merges in the order learned; each token, the merges that applied, the unknown characters.
     */
    bpeEncode(learned, text) {
      const { model, merges } = packBpeModel(learned);
      return unpacked(core.bpeEncode(model, merges, checkText("text", text)));
    },
  };
}
