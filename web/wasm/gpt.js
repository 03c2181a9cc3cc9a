// wasm/gpt.js: lesson 5's wrappers, a real model (src/wasm/gpt.cpp): the small transformer
// trained on Tang poems (its layout, its weights file read, a forward pass, the gradient,
// generation), the induction task, a learner's own text, and the trainers' lifetime in the core.
// Its two files, written and read, are model-files.js's.
import {
  check,
  checkFlag,
  declaredInput,
  packDeclared,
  quote,
  unpack,
  unpacked,
  whole,
} from "./core.js";

// A model's configuration { vocab, context, dModel, layers, heads, base?, mlp? } (GptConfig, as the
// core declares it) → what the bindings read, every field given.
export const packGptConfig = (core, config) =>
  packDeclared("config", config, declaredInput(core, "GptConfig"), { least: 1 });

// The most bytes of a text that textCorpus reads (src/text.hpp's kMaxTextBytes).
const textLimit = 1 << 20;

// { vocab, context, minSegment, maxSegment } (InductionTask) → what the bindings read
const packInductionTask = (core, task) =>
  packDeclared("task", task, declaredInput(core, "InductionTask"));

// Token ids, each checked as the number the caller gave (a whole number from 0 to vocab − 1;
// targets may also be −1, "no target") before they are packed, so that none is wrapped.
function packTokens(name, tokens, vocab, { noTarget = false } = {}) {
  if (!Array.isArray(tokens) && !ArrayBuffer.isView(tokens)) {
    throw new Error(`${name} must be an array of token ids`);
  }
  const least = noTarget ? -1 : 0;
  Array.from(tokens).forEach((t, i) => {
    if (!Number.isInteger(t) || t < least || t >= vocab) {
      const range = `an id from ${least} to ${vocab - 1}`;
      throw new Error(`${name}[${i + 1}] is ${quote(t)}, not ${range}`);
    }
  });
  return Int32Array.from(tokens);
}

// The parameters, checked finite where they enter; a bad one is named by its tensor and cell.
export function packParams(core, model, config) {
  const params = model?.params;
  if (!(params instanceof Float32Array) && !(params instanceof Float64Array)) {
    throw new Error("model.params must be a Float32Array or a Float64Array");
  }
  const bad = params.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) {
    const layout = check(core.gptLayout(config));
    const t = layout.findLast((one) => one.offset <= bad);
    const cell = t && bad < t.offset + t.rows * t.cols ? t : null;
    const at = bad - (cell?.offset ?? 0);
    const where = cell ? ` (${t.name}[${Math.floor(at / t.cols) + 1}][${(at % t.cols) + 1}])` : "";
    throw new Error(`model.params[${bad}]${where} is ${params[bad]}, not a finite number`);
  }
  return params;
}

// A model's config and parameters, checked and packed, handed to f(config, params) with the core's
// result checked.
function run(core, model, f) {
  const config = packGptConfig(core, model?.config);
  return check(f(config, packParams(core, model, config)));
}

// What a model computes: its layout, the shipped weights read, a sequence through it, the
// gradient, generation and a stream's loss.
function modelLabs(core) {
  return {
    /** Where each parameter lives in the flat buffer: [{ name, rows, cols, offset, decay }]. */
    gptLayout(config) {
      return unpacked(core.gptLayout(packGptConfig(core, config)));
    },

    /** The shipped weights file (int8 with a float32 scale per matrix row) → { config, params }. */
    gptModel(config, bytes) {
      if (!(bytes instanceof Uint8Array)) throw new Error("bytes must be a Uint8Array");
      const packed = packGptConfig(core, config);
      return { config: packed, params: check(core.gptDequantize(packed, bytes)) };
    },

    /**
     * One sequence through the model: per layer the rotated q and k, and v (T, C); per head the
     * scores q·k/√d_head and the causal weights (T, T); the logits and probabilities of the
     * next token (T, V); with targets (−1 where none), the mean loss. precise: in float64.
     */
    gptForward(model, tokens, { targets, precise = false } = {}) {
      checkFlag("precise", precise);
      const { vocab } = packGptConfig(core, model?.config);
      const ids = packTokens("tokens", tokens, vocab);
      if (ids.length === 0) throw new Error("tokens is empty: give it at least one token id");
      const wanted =
        targets === undefined
          ? undefined
          : packTokens("targets", targets, vocab, { noTarget: true });
      return unpack(run(core, model, (c, p) => core.gptForward(c, p, ids, wanted, precise)));
    },

    /** The mean loss of `batch` sequences and its gradient, flat, in gptLayout's order. */
    gptGradients(model, tokens, targets, { batch = 1, precise = false } = {}) {
      checkFlag("precise", precise);
      const { vocab } = packGptConfig(core, model?.config);
      const ids = packTokens("tokens", tokens, vocab);
      const wanted = packTokens("targets", targets, vocab, { noTarget: true });
      return unpack(
        run(core, model, (c, p) =>
          core.gptGradients(c, p, ids, whole("batch", batch), wanted, precise),
        ),
      );
    },

    /** Up to `count` tokens after the prompt, sampled at `temperature` with a seeded stream. */
    gptGenerate(model, prompt, { count, temperature = 1, seed = 1 } = {}) {
      if (typeof temperature !== "number") throw new Error("temperature must be a number");
      const ids = packTokens("prompt", prompt, packGptConfig(core, model?.config).vocab);
      const n = whole("count", count);
      const s = whole("seed", seed);
      return unpack(run(core, model, (c, p) => core.gptGenerate(c, p, ids, n, temperature, s)));
    },

    /** The mean loss over a stream, in windows of the context, each predicting the next id. */
    gptStreamLoss(model, stream) {
      const ids = packTokens("stream", stream, packGptConfig(core, model?.config).vocab);
      return run(core, model, (c, p) => core.gptStreamLoss(c, p, ids)).loss;
    },
  };
}

// The model lab's other data: the induction task's sequences and what a model does on them, and
// a learner's own text as token streams.
function dataLabs(core) {
  return {
    /**
     * The induction task's sequences: a seeded batch of { tokens, targets } (B·T each) and each
     * sequence's segment length m (the segment, then the same again, then random tokens).
     */
    inductionBatch(task, { batch, seed = 1 } = {}) {
      const packed = packInductionTask(core, task);
      return unpacked(core.inductionBatch(packed, whole("batch", batch), whole("seed", seed)));
    },

    /**
     * What a model does on a batch of the task: the mean loss on the first half and on the
     * repeated half, and per layer and head the previous-token and induction scores (L, H).
     */
    inductionScores(model, batch) {
      const { vocab } = packGptConfig(core, model?.config);
      if (typeof batch !== "object" || batch === null) throw new Error("batch must be an object");
      const packed = {
        tokens: packTokens("batch.tokens", batch.tokens, vocab),
        targets: packTokens("batch.targets", batch.targets, vocab),
        segments: Int32Array.from(batch.segments ?? [], (m, i) =>
          whole(`batch.segments[${i + 1}]`, m),
        ),
      };
      return unpack(run(core, model, (c, p) => core.inductionScores(c, p, packed)));
    },

    /**
     * A learner's text (a string, or a file's bytes: bytes that are not UTF-8 are refused, not
     * read as U+FFFD) → its token streams, vocabulary and baselines, or an Error that says why
     * a model cannot be trained on it (empty, too short, one character, more than 1 MiB …).
     */
    textCorpus(text) {
      const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
      if (!(bytes instanceof Uint8Array)) throw new Error("text must be a string or a Uint8Array");
      // past the limit, the core needs only to see that it is past
      return unpacked(core.textCorpus(bytes.subarray(0, textLimit + 1)));
    },
  };
}

// A trainer lives in the core between calls (src/wasm/gpt.cpp says why); one whose object is
// collected without close() is closed here.
const registry = (close) =>
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry(close)
    : { register() {}, unregister() {} };
const trainerRegistry = (core) => registry((id) => core.gptTrainClose(id));

// The trainers: gptTrainer and inductionTrainer each open a session in the core, which lives
// until its close() or its object's collection.
function trainerLabs(core) {
  const trainers = trainerRegistry(core);
  const slicers = registry((id) => core.gptSlicerClose(id));
  // A session opened in the core: the trainer object of gptTrainer and inductionTrainer.
  const session = (id, config) => {
    const trainer = {
      config,
      step(n) {
        return unpacked(core.gptTrainSteps(id, whole("n", n)));
      },
      /** Part of a step: the next `sequences` of its batch; the loss when the step ends. */
      slice(sequences) {
        return check(core.gptTrainSlice(id, whole("sequences", sequences)));
      },
      params: () => check(core.gptTrainParams(id)),
      /** The step under way's batch { tokens, targets (Int32Array, B·T), done }, drawn unless it is. */
      batch: () => check(core.gptTrainBatch(id)),
      /**
       * A slice computed elsewhere (a gptSlicer's gradient: { loss, gradients }) added as the step's
       * next `sequences`: as slice(sequences) would, when added in order.
       */
      add(sequences, { loss, gradients }) {
        if (typeof loss !== "number") throw new Error("loss must be a number");
        if (!(gradients instanceof Float32Array)) {
          throw new Error("gradients must be a Float32Array");
        }
        return check(core.gptTrainAdd(id, whole("sequences", sequences, 1), loss, gradients));
      },
      close() {
        trainers.unregister(trainer);
        core.gptTrainClose(id);
      },
    };
    trainers.register(trainer, id, trainer);
    return trainer;
  };
  return {
    /**
     * A training run in float32, from seeded random weights: step(n) takes n AdamW steps and
     * returns their losses; params() the weights now; close() frees it.
     */
    gptTrainer(config, data, { batch = 16, lr = 3e-3, total, seed = 1 } = {}) {
      if (typeof lr !== "number") throw new Error("lr must be a number");
      const packed = packGptConfig(core, config);
      const { id } = check(
        core.gptTrainOpen(
          packed,
          packTokens("data", data, packed.vocab),
          whole("batch", batch),
          lr,
          whole("total", total),
          whole("seed", seed),
        ),
      );
      return session(id, packed);
    },

    /** A training run as gptTrainer's, whose batches are the induction task's sequences. */
    inductionTrainer(config, task, { batch = 32, lr = 1e-3, total, seed = 1 } = {}) {
      if (typeof lr !== "number") throw new Error("lr must be a number");
      const packed = packGptConfig(core, config);
      const { id } = check(
        core.inductionTrainOpen(
          packed,
          packInductionTask(core, task),
          whole("batch", batch),
          lr,
          whole("total", total),
          whole("seed", seed),
        ),
      );
      return session(id, packed);
    },

    /**
     * A step's weights kept in the core, from which slices of that step are computed as the
     * trainer's slice() computes them, to the last bit: gradient(tokens, targets, { sequences })
     * gives the mean loss of those sequences (from the trainer's batch()) and its gradient,
     * which the trainer adds (add); close() frees it. The labs' workers share a step this way.
     */
    gptSlicer(model) {
      const { id } = run(core, model, (c, p) => core.gptSlicerOpen(c, p));
      const { vocab } = model.config;
      const slicer = {
        gradient(tokens, targets, { sequences = 1 } = {}) {
          const ids = packTokens("tokens", tokens, vocab);
          const wanted = packTokens("targets", targets, vocab, { noTarget: true });
          const n = whole("sequences", sequences, 1);
          return unpack(check(core.gptSlicerGradient(id, ids, wanted, n)));
        },
        close() {
          slicers.unregister(slicer);
          core.gptSlicerClose(id);
        },
      };
      slicers.register(slicer, id, slicer);
      return slicer;
    },

    /** How many trainers are open in the core: for the tests of their lifetime. */
    gptTrainersOpen: () => core.gptTrainersOpen(),
  };
}

// Lesson 5's functions, but for a model's two files (model-files.js).
export function gptLabs(core) {
  return { ...modelLabs(core), ...dataLabs(core), ...trainerLabs(core) };
}
