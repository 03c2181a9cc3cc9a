// quiz.js: the short check at the end of each lesson, as data. Each question names the scene
// and the step that explain it, and asks for a number (at `decimals`) or for one of `choices`;
// its answer is computed at run time by the core, from the scene as published (its lab's
// compute, at the scene's initial state and the question's `state`): nothing here is an answer
// written down. Its words are in web/i18n (quiz.questions.<id>); ui/quiz.js draws and marks it.
//
// A question: { id, scene, step (a step id of the scene), decimals? | choices?, state?,
// answer({ scene, trace, core }) → a number, or the key of the right choice }.
import { coreFor, labOf, resolveScene } from "./lab.js";
import { initialState } from "./state.js";

// The index of a row's largest number.
const argmax = (row) => row.reduce((best, x, j) => (x > row[best] ? j : best), 0);

/** Each lesson's questions, by lesson id (web/catalogue.js). */
export const quizzes = {
  walkthroughs: [
    {
      id: "selfWeight",
      scene: "classroom",
      step: "weights",
      decimals: 2,
      // 你 is the last token: its row, its own column
      answer: ({ trace }) => trace.weights.at(-1).at(-1),
    },
    {
      id: "ageOutput",
      scene: "age",
      step: "output",
      decimals: 2,
      answer: ({ trace }) => trace.output[0][0],
    },
    {
      id: "bookTop",
      scene: "book",
      step: "weights",
      choices: ["读", "图书馆", "有趣", "我"],
      // 书 is the last token: the key its row weighs most
      answer: ({ scene, trace }) => scene.tokens[argmax(trace.weights.at(-1))],
    },
  ],
  inside: [
    {
      id: "prevHead",
      scene: "heads",
      step: "headWeights",
      choices: [1, 2, 3, 4],
      // each head's mean weight on the token just before, over the tokens that have one
      answer: ({ trace }) => {
        const before = trace.heads.map(({ weights }) => {
          const on = weights.slice(1).map((row, i) => row[i]);
          return on.reduce((a, b) => a + b, 0) / on.length;
        });
        return argmax(before) + 1;
      },
    },
    {
      id: "cacheK",
      scene: "gqa",
      step: "memory",
      decimals: 0,
      answer: ({ trace }) => trace[2].cache.k.length,
    },
    {
      id: "cachedStep",
      scene: "kvcache",
      step: "token5",
      decimals: 0,
      answer: ({ trace }) => trace.steps[4].cost.total,
    },
  ],
  why: [
    {
      id: "stableTop",
      scene: "stability",
      step: "stable",
      decimals: 4,
      answer: ({ trace }) => trace.weights[0][0],
    },
    {
      id: "maskedRow",
      scene: "stability",
      step: "masking",
      decimals: 2,
      // the row that −∞ blocks whole (its weights all 0), masked with −1e9 instead
      answer: ({ trace }) => {
        const row = trace.minusInfinity.weights.findIndex((r) => r.every((w) => w === 0));
        return trace.minus1e9.weights[row][0];
      },
    },
    {
      id: "unscaledTop",
      scene: "scaling",
      step: "unscaled",
      state: { dk: 512 },
      // the ranges of the choices, [from, to)
      choices: ["0-0.2", "0.2-0.6", "0.6-0.9", "0.9-1"],
      answer: ({ trace }) => {
        const x = trace.stats.maxWeightUnscaled;
        return x < 0.2 ? "0-0.2" : x < 0.6 ? "0.2-0.6" : x < 0.9 ? "0.6-0.9" : "0.9-1";
      },
    },
  ],
  learn: [
    {
      id: "startLoss",
      scene: "sharpness",
      step: "task",
      decimals: 4,
      answer: ({ trace }) => trace.path[0].loss,
    },
    {
      id: "startGradient",
      scene: "sharpness",
      step: "chain",
      decimals: 4,
      answer: ({ trace }) => trace.path[0].dAlpha,
    },
    {
      id: "firstUpdate",
      scene: "sharpness",
      step: "update",
      decimals: 4,
      answer: ({ trace }) => trace.path[0].next,
    },
  ],
  gpt: [
    {
      id: "evenGuess",
      scene: "induction",
      step: "repeats",
      decimals: 2,
      // an even guess is what a model whose weights are all 0 makes: every logit 0, each of the
      // 32 tokens 1/32; its loss, the core's cross-entropy, on the first held-out sequence
      answer: async ({ core }) => {
        const { configOf, heldOut, task } = await import("./labs/gpt/induction-run.js");
        const config = configOf(2);
        const size = core.gptLayout(config).reduce((n, t) => n + t.rows * t.cols, 0);
        const { tokens, targets } = heldOut(core);
        const model = { config, params: new Float64Array(size) };
        const [seq, next] = [tokens, targets].map((t) => t.slice(0, task.context));
        return core.gptForward(model, seq, { targets: next, precise: true }).loss;
      },
    },
    {
      id: "nextChar",
      scene: "model",
      step: "next",
      state: { line: "举头望明" },
      choices: ["月", "，", "明", "光"],
      answer: ({ trace }) => trace.next.chars[0],
    },
  ],
  real: [
    {
      id: "gpt2Love",
      scene: "tokens",
      step: "gpt2",
      state: { text: "我爱你" },
      decimals: 0,
      answer: ({ trace }) => trace.models.find((m) => m.id === "gpt2").count,
    },
    {
      id: "llamaKv",
      scene: "sizes",
      step: "kvcache",
      decimals: 0,
      answer: ({ trace }) => trace.rows.find((r) => r.id === "llama3").size.kvBytesPerToken,
    },
    {
      id: "fewestKv",
      scene: "sizes",
      step: "kvcache",
      choices: ["llama3", "qwen25", "qwen3"],
      answer: ({ trace }) => {
        const rows = trace.rows.filter((r) => ["llama3", "qwen25", "qwen3"].includes(r.id));
        return rows.reduce((a, b) => (b.size.kvBytesPerToken < a.size.kvBytesPerToken ? b : a)).id;
      },
    },
  ],
};

/**
 * The questions of lesson `lesson` on the scenes offered (`scenes`, the walkthrough's: a class
 * link's path keeps only some), in order; [] when it has none there.
 */
export function questionsOf(lesson, scenes) {
  const offered = new Set(scenes.map((s) => s.id));
  return (quizzes[lesson] ?? []).filter((q) => offered.has(q.scene));
}

const worked = new Map(); // question id → the promise of its answer

/**
 * A question's answer, worked out by the core: { value } for a number, { choice: its index }
 * for a choice; `step`, the index of the step that explains it, and `scene`, the scene resolved
 * (for the step's words). `entry` is its scene's
 * entry in the catalogue (resolved here if lazy); `core` the page's core (loadAttention's); a
 * lab on the labs module gets that. Rejects when the scene does not load, or when the core's
 * answer is not among the question's choices or is not a finite number.
 */
export async function answerOf(question, entry, core) {
  const scene = await resolveScene(entry);
  const lab = labOf(scene);
  const state = initialState([scene], { scene: scene.id, lang: "en", ...question.state });
  const labCore = coreFor(lab, core);
  let computed;
  const context = {
    scene,
    core: labCore,
    get trace() {
      computed ??= lab.compute(labCore, scene, state);
      return computed.trace;
    },
  };
  const answer = await question.answer(context);
  const step = lab.steps(scene, state).findIndex((s) => s.id === question.step);
  if (step < 0) throw new Error(`${question.id}: ${scene.id} has no step "${question.step}"`);
  if (question.choices) {
    const choice = question.choices.indexOf(answer);
    if (choice < 0) throw new Error(`${question.id}: the core's answer ${answer} is no choice`);
    return { choice, step, scene };
  }
  if (!Number.isFinite(answer)) throw new Error(`${question.id}: the answer is ${answer}`);
  return { value: answer, step, scene };
}

/**
 * The answers of `questions`, each worked out once: a promise of [answerOf's] in their order.
 * `entries` are the catalogue's scenes (lazy or not), by id.
 */
export function answersOf(questions, entries, core) {
  return Promise.all(
    questions.map((q) => {
      if (!worked.has(q.id)) {
        const promise = answerOf(q, entries[q.scene], core);
        // a failure (a lab that did not load) may be tried again
        worked.set(
          q.id,
          promise.catch((error) => (worked.delete(q.id), Promise.reject(error))),
        );
      }
      return worked.get(q.id);
    }),
  );
}
