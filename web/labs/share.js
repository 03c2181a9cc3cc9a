// labs/share.js: a training step shared among workers. The labs' worker (train-worker.js) keeps
// helpers, more workers of its own script; a step's batch is cut into whole slices (a sequence
// each for the model labs, 8 for the induction lab, as on the page), the worker takes the first
// share with its trainer's slice() and each helper computes the next share's slices from the
// step's weights (gptSlicer). The trainer adds the helpers' slices after its own, in
// slice order: the sum is the one the trainer makes alone, so a run has the same bits whatever
// the number of workers (tests/node/train-slices.test.mjs, tests/browser/workers.test.mjs).
// A helper that fails or is let go: its slices are computed here, the same bits again.
import { kindOf, messageOf } from "./train-messages.js";

/** Each slice's { loss, gradients }, in order, of `work` (a helper's share of a step). */
export function slicesOf(core, { config, params, tokens, targets, sizes }) {
  const T = config.context;
  const slicer = core.gptSlicer({ config, params });
  let at = 0;
  try {
    return sizes.map((n) => {
      const part = (a) => a.subarray(at * T, (at + n) * T);
      const slice = slicer.gradient(part(tokens), part(targets), { sequences: n });
      at += n;
      return slice;
    });
  } finally {
    slicer.close();
  }
}

// `sizes` cut into `parts` runs of slices, as even as whole slices allow, the first the largest.
function shares(sizes, parts) {
  const out = [];
  let from = 0;
  for (let p = 0; p < parts; p += 1) {
    const to = from + Math.ceil((sizes.length - from) / (parts - p));
    out.push(sizes.slice(from, to));
    from = to;
  }
  return out.filter((part) => part.length);
}

const sum = (sizes) => sizes.reduce((a, b) => a + b, 0);

/**
 * The helpers of a worker: spawn() starts one (a Worker of the same script, which answers
 * slicesOf's work), said(using) hears how many workers share a step: at each use(), and when a
 * helper fails. use(n) asks for n workers in all (this one included), using() says how many
 * there are, and step(core, trainer, size) takes the rest of the trainer's step, shared: the
 * trainer's slice() result of its last slice ({ step, loss }).
 */
export function helpers(spawn, said) {
  const pool = []; // { worker, pending: Map of work → { resolve, reject } }
  let wanted = 1;
  let cannot = false; // a helper failed to start or to answer: no more are started until use()
  let next = 0;
  let told = 1;

  const tellUsing = () => {
    if (pool.length + 1 !== told) said((told = pool.length + 1));
  };
  const drop = (helper, error) => {
    const at = pool.indexOf(helper);
    if (at >= 0) pool.splice(at, 1);
    helper.worker.terminate();
    for (const { reject } of helper.pending.values()) reject(error);
    helper.pending.clear();
  };
  const start = () => {
    const helper = { worker: spawn(), pending: new Map() };
    helper.worker.onmessage = ({ data }) => {
      const kind = kindOf("out", data);
      const waiting = helper.pending.get(data.work);
      helper.pending.delete(data.work);
      if (kind === "done") waiting?.resolve(data.results);
      else waiting?.reject(new Error(data.error));
    };
    helper.worker.onerror = (event) => {
      event.preventDefault?.();
      cannot = true;
      drop(helper, new Error("a helper stopped"));
      tellUsing();
    };
    return helper;
  };
  const fit = () => {
    while (pool.length > wanted - 1) drop(pool.at(-1), new Error("a helper let go"));
    while (pool.length < wanted - 1 && !cannot) {
      try {
        pool.push(start());
      } catch {
        cannot = true;
      }
    }
  };
  const ask = (helper, work) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      helper.pending.set(id, { resolve, reject });
      helper.worker.postMessage(messageOf("in", "slices", "work", { work: id, ...work }));
    });

  return {
    use(n) {
      wanted = n;
      cannot = false;
      fit();
      said((told = pool.length + 1));
    },
    using: () => pool.length + 1,
    async step(core, trainer, size) {
      fit();
      tellUsing();
      const { tokens, targets, done } = trainer.batch();
      const { config } = trainer;
      const T = config.context;
      const sizes = [];
      const B = tokens.length / T;
      for (let s = done; s < B; s += size) sizes.push(Math.min(size, B - s));
      const [mine, ...theirs] = shares(sizes, pool.length + 1);
      const params = theirs.length ? trainer.params() : undefined;
      let from = done + sum(mine);
      const asked = theirs.map((part, i) => {
        const [begin, end] = [from, (from += sum(part))];
        const cut = (a) => a.slice(begin * T, end * T);
        const work = { config, params, tokens: cut(tokens), targets: cut(targets), sizes: part };
        const helper = pool[i];
        return ask(helper, work).catch((error) => {
          // a helper still in the pool failed (one let go by use() is out of it already)
          if (pool.includes(helper)) {
            cannot = true;
            drop(helper, error);
            tellUsing();
          }
          return slicesOf(core, work);
        });
      });
      let r;
      for (const n of mine) r = trainer.slice(n);
      const answers = await Promise.all(asked);
      answers.forEach((results, i) => {
        results.forEach((slice, k) => (r = trainer.add(theirs[i][k], slice)));
      });
      return r;
    },
  };
}
