// labs/train-messages.js: the messages between the page and the labs' Web Worker
// (web/train-worker.js), declared once: the worker and the page (labs/worker.js) build and read
// every message here, and one of a kind not declared is refused with an error, on either side.
// Every message names its lab ({ lab }); its kind is the one whose fields it has, no more and no
// fewer. `in` is what the page sends the worker, `out` what the worker sends back.

// The own-text lab's and the real model's "Train it yourself" (train.js): each lab its own run.
const model = {
  in: {
    open: ["open"], // { open: { config, train, heldOut, options } } opens the lab's trainer
    run: ["run"], // { run: true } starts or resumes it
    stop: ["stop"], // { stop: true } pauses it; the worker sends its weights, then stopped
    reset: ["reset"], // { reset: true } forgets it
  },
  out: {
    // a slice's result as it goes (a sequence a slice): its losses, the step reached, and the
    // held-out losses ([[step, loss]]) at step 1 and every evalEvery steps (train-state.js)
    slice: ["losses", "step", "measures"],
    weights: ["params", "at"], // with each measure, when it stops and when it fails: at step `at`
    stopped: ["stopped"], // { stopped: true }
    done: ["done"], // { done: true }
    // { failed: { step, error? } }: the core refused a step or a loss was not finite
    failed: ["failed"],
  },
};

/** By lab, the kinds of message each way, each as its fields. */
export const messages = {
  // the induction lab (induction-run.js), one run per number of layers
  induction: {
    in: {
      run: ["run"], // { run: layers } starts or resumes that run
      stop: ["stop"], // { stop: true } pauses it; the worker ends the step under way, then stopped
      reset: ["reset"], // { reset: layers } forgets it
    },
    out: {
      slice: ["layers", "losses", "step"], // a slice's result as it goes, 8 sequences a slice
      kept: ["layers", "kept", "params", "scores"], // at every kept step (kept: the step)
      done: ["layers", "done"], // { layers, done: true }
      // { layers, stopped: true }: the run told to stop (layers 0 when none ran) has stopped, its
      // last slice and kept step sent before
      stopped: ["layers", "stopped"],
    },
  },
  gpt: model,
  text: model,
  // how many workers share a step (share.js), the labs' worker included: the labs' control asks
  // for some (use), the worker says how many it has (using: fewer where a helper cannot start)
  workers: {
    in: { use: ["use"] },
    out: { using: ["using"] },
  },
  // a step's slices, between the labs' worker and one of its helpers (share.js): the step's
  // weights, the tokens and targets of the slices asked and each one's size in sequences; back,
  // each slice's { loss, gradients } in order, or the error that stopped them
  slices: {
    in: { work: ["work", "config", "params", "tokens", "targets", "sizes"] },
    out: { done: ["work", "results"], failed: ["work", "error"] },
  },
  // the worker's core.memory(): its WASM heap and live embind handles, which a long run must
  // leave flat (long-run.test.mjs)
  memory: {
    in: { ask: [] },
    out: { memory: ["inUse", "heapTop", "heapBytes", "handles"] },
  },
};

const sameFields = (fields, keys) =>
  fields.length === keys.length && fields.every((f) => keys.includes(f));

/** The kind of `data`, a message `way` ("in" or "out") of its lab; an error if none is declared. */
export function kindOf(way, data) {
  const declared = messages[data?.lab]?.[way];
  const keys = Object.keys(data ?? {}).filter((k) => k !== "lab");
  const kind = declared && Object.keys(declared).find((k) => sameFields(declared[k], keys));
  if (kind === undefined) {
    throw new Error(`no ${way} message of the labs' worker for lab ${data?.lab} with ${keys}`);
  }
  return kind;
}

/** The message of `kind` for `lab`, way "in" or "out", with `fields`; an error if undeclared. */
export function messageOf(way, lab, kind, fields = {}) {
  const message = { ...fields, lab };
  const found = kindOf(way, message);
  if (found !== kind)
    throw new Error(`a ${way} message of lab ${lab} of kind ${found}, not ${kind}`);
  return message;
}
