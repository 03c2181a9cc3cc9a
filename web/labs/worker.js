// labs/worker.js: the labs' Web Worker (web/train-worker.js, built into
// generated/train-worker.js), started once where the page is served over http(s), shared by the
// labs that train (the induction lab, the real model's "Train it yourself", the own-text lab),
// which shares each step with as many helpers as the learner's device has cores (useWorkers).
// Its messages, declared in train-messages.js, go to the lab they name ({ lab }) with their kind;
// a worker that fails tells each lab, which then trains on the page.
// Under the page's Trusted Types, the worker's URL comes through one policy, allowed by name in
// its Content-Security-Policy, which passes that URL and nothing else.

import { kindOf, messageOf } from "./train-messages.js";

let worker; // the worker once started; null where it cannot be
const labs = {}; // lab → { message(data, kind), failed() }

// How many workers share each step (labs/share.js): the learner's choice, at most the device's
// cores and 4, all of them unless chosen; and how many the worker says it has.
export const mostWorkers = () =>
  Math.max(1, Math.min(globalThis.navigator?.hardwareConcurrency ?? 1, 4));
let chosen;
let using; // undefined until the worker answers the last choice
const hearing = new Set(); // what hears a change in `using`
export const workersWanted = () => chosen ?? mostWorkers();
export const workersUsing = () => using;

/** Asks the worker for `n` workers in all; what hears `using` hears the worker's answer. */
export function useWorkers(n) {
  chosen = n;
  using = undefined;
  tell("workers", "use", { use: n });
}

/** hear(using) after each change the worker says; returns what stops it. */
export function onWorkers(hear) {
  hearing.add(hear);
  return () => hearing.delete(hear);
}

labs.workers = {
  message(data) {
    using = data.using;
    for (const hear of [...hearing]) hear(using);
  },
  failed() {
    using = undefined;
  },
};

function scriptUrl(url) {
  const types = globalThis.trustedTypes;
  if (!types) return url;
  const policy = types.createPolicy("train-worker", {
    createScriptURL: (wanted) => {
      if (wanted !== url) throw new Error(`not the labs' worker: ${wanted}`);
      return wanted;
    },
  });
  return policy.createScriptURL(url);
}

/**
 * Whether the labs train in the worker here, without starting it (it starts with the first
 * run): the page served over http(s) where workers exist, and the worker not failed.
 */
export function workerPossible() {
  if (worker !== undefined) return worker !== null;
  const served = typeof location === "object" && /^https?:$/.test(location.protocol);
  return served && typeof Worker === "function" && typeof document === "object";
}

/** The worker, or null where the page is not served over http(s) or it cannot start. */
export function trainWorker() {
  if (worker !== undefined) return worker;
  if (!workerPossible()) return (worker = null);
  try {
    const url = new URL("generated/train-worker.js", document.baseURI).href;
    worker = new Worker(scriptUrl(url), { type: "module" });
  } catch {
    return (worker = null);
  }
  worker.onmessage = ({ data }) => {
    const kind = kindOf("out", data);
    labs[data.lab]?.message(data, kind);
  };
  worker.onerror = () => {
    worker = null;
    for (const lab of Object.values(labs)) lab.failed();
  };
  tell("workers", "use", { use: workersWanted() });
  return worker;
}

/** What a lab hears from the worker, and what it does when the worker fails. */
export function listen(lab, handlers) {
  labs[lab] = handlers;
}

/** A message of `kind` to the worker for `lab` (train-messages.js), if there is a worker. */
export function tell(lab, kind, fields, transfer) {
  const message = messageOf("in", lab, kind, fields);
  worker?.postMessage(message, transfer);
}
