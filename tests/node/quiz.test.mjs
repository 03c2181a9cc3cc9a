// quiz.test.mjs: the check at the end of each lesson (web/quiz.js, ui/quiz.js). Every question's
// answer, worked out by the real core as the page works it out, equals a value found apart from
// it: the fixtures (docs/scenes.md's numbers, tests/fixtures/inside_labs.py's NumPy), a float64
// reference written apart (tests/node/reference.mjs, gpt-reference.mjs), the tokenizer's own
// package, or a formula worked out here; a key planted off by one at the question's decimals,
// or on another choice, is caught by the same comparison. Every question has its words in both
// languages and a step that explains it; marking takes the right answer, typed as a learner
// types it, and refuses a wrong one; the summary for the teacher says what was right and wrong.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { encode as gpt2Encode } from "gpt-tokenizer/encoding/r50k_base";
import "./gpt-files.mjs";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { lessons, scenes as entries } from "../../web/catalogue.js";
import { sceneById } from "../../web/scenes.js";
import { messages } from "../../web/i18n/index.js";
import { gptEncode } from "../../web/tokens.js";
import { quizzes, questionsOf, answerOf, answersOf } from "../../web/quiz.js";
import { markAnswer, summaryText } from "../../web/ui/quiz.js";
import { referenceAttention } from "./reference.mjs";
import { readWeights, referenceForward } from "./gpt-reference.mjs";

const core = await loadAttention();
const labs = await loadLabs();
const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const scenesJson = fixture("scenes.json");
const inside = fixture("inside-labs.json");
const byId = Object.fromEntries(entries.map((s) => [s.id, s]));
const questions = Object.values(quizzes).flat();

const matmul = (a, b) =>
  a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));
const argmax = (row) => row.indexOf(Math.max(...row));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// the Tang model, read by the reference's own reader of its weights file
const tangFile = (name) => new URL(`../../web/labs/gpt/${name}`, import.meta.url);
const tang = JSON.parse(readFileSync(tangFile("tang.json"), "utf8"));
const tangParams = readWeights(tang.config, new Uint8Array(readFileSync(tangFile("tang.bin"))));

// the published configurations' numbers, from the model cards: layers, K/V heads, d_head
const kvPerToken = (layers, kvHeads, dHead) => 2 * layers * kvHeads * dHead * 2;
const cards = {
  llama3: kvPerToken(32, 8, 128),
  qwen25: kvPerToken(28, 4, 128),
  qwen3: kvPerToken(36, 8, 128),
};

// output(α) of the age lookup, the sharpness lab's: 19 + 3 / (3·e^(α/√3) + 1), and its slope
const ageOut = (a) => 19 + 3 / (3 * Math.exp(a / Math.sqrt(3)) + 1);
const ageSlope = (a) => {
  const e = Math.exp(a / Math.sqrt(3));
  return (-3 * 3 * e) / Math.sqrt(3) / (3 * e + 1) ** 2;
};

/** Each question's answer found apart from the core: a number, or the key of a choice. */
const independent = {
  selfWeight: () => scenesJson.classroom.weights[2][2],
  ageOutput: () => scenesJson.age.output[0][0],
  bookTop: () => {
    const { x, wq, wk, wv } = sceneById.book.inputs;
    const { weights } = referenceAttention(matmul(x, wq), matmul(x, wk), matmul(x, wv));
    return sceneById.book.tokens[argmax(weights.at(-1))];
  },
  prevHead: () => {
    const before = inside.heads["4"].weights.map((w) => mean(w.slice(1).map((row, i) => row[i])));
    return argmax(before) + 1;
  },
  cacheK: () => inside.heads["2"].cache.k,
  // 书, the 5th token: its q, k, v rows d·(h + 2·h_kv)·d_head, its 5 scores and its weighted
  // sum h·5·d_head each, the output h·d_head·d, with the lab's layer: d 7, h 4, h_kv 2, d_head 2
  cachedStep: () => {
    const d = inside.inputs.x[0].length;
    const [h, hKv] = [4, 2];
    const dHead = inside.inputs.wq[0].length / h;
    return d * (h + 2 * hKv) * dHead + 2 * h * 5 * dHead + h * dHead * d;
  },
  stableTop: () => 1 / (1 + Math.exp(-2) + Math.exp(-10)),
  maskedRow: () => 1 / 3,
  // the mean largest weight over the seeded rows, from the same draws as the lab, worked here
  unscaledTop: () => {
    const { q, k } = labs.scalingBatch({ dK: 512, nKeys: 8, rows: 100, seed: 1 });
    const top = q.map((qr, r) => {
      const s = Array.from({ length: 8 }, (_, j) =>
        qr.reduce((a, x, c) => a + x * k[r * 8 + j][c], 0),
      );
      const m = Math.max(...s);
      return 1 / s.reduce((a, x) => a + Math.exp(x - m), 0);
    });
    const x = mean(top);
    return x < 0.2 ? "0-0.2" : x < 0.6 ? "0.2-0.6" : x < 0.9 ? "0.6-0.9" : "0.9-1";
  },
  startLoss: () => (ageOut(1) - 19) ** 2,
  startGradient: () => 2 * (ageOut(1) - 19) * ageSlope(1),
  firstUpdate: () => 1 - 10 * 2 * (ageOut(1) - 19) * ageSlope(1),
  evenGuess: () => Math.log(32),
  nextChar: () => {
    const tokens = gptEncode("举头望明", tang.chars);
    const { probs } = referenceForward(tang.config, tangParams, tokens);
    return [...tang.chars][argmax(probs.at(-1)) - 2];
  },
  gpt2Love: () => gpt2Encode("我爱你").length,
  llamaKv: () => cards.llama3,
  fewestKv: () => Object.entries(cards).sort((a, b) => a[1] - b[1])[0][0],
};

/**
 * Whether a key agrees with the value found apart: a choice is the same choice; a number is
 * within 1e-9 of it, relative (the fixtures' 10 decimals), so that at the question's decimals
 * both are written alike. Returns a reason when it does not.
 */
function disagreement(question, key, expected) {
  if (question.choices) {
    const choice = question.choices.indexOf(expected);
    return key.choice === choice ? undefined : `choice ${key.choice}, expected ${choice}`;
  }
  const close = Math.abs(key.value - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  return close ? undefined : `${key.value}, expected ${expected}`;
}

const keys = Object.fromEntries(
  await Promise.all(questions.map(async (q) => [q.id, await answerOf(q, byId[q.scene], core)])),
);

test("every lesson has a short check, and every question of it an answer found apart from the core", () => {
  assert.deepEqual(
    Object.keys(quizzes),
    lessons.map((l) => l.id),
  );
  for (const [lesson, list] of Object.entries(quizzes)) {
    assert.ok(list.length >= 2 && list.length <= 4, `${lesson}: ${list.length} questions`);
    const ids = lessons.find((l) => l.id === lesson).scenes.map((s) => s.id);
    for (const q of list) assert.ok(ids.includes(q.scene), `${q.id}: ${q.scene} is in ${lesson}`);
  }
  assert.deepEqual(Object.keys(independent).sort(), questions.map((q) => q.id).sort());
  for (const q of questions) {
    assert.equal(disagreement(q, keys[q.id], independent[q.id]()), undefined, q.id);
  }
  // both kinds are asked
  assert.ok(questions.some((q) => q.choices) && questions.some((q) => !q.choices));
});

test("a planted wrong key is caught: a number off by one at its decimals, another choice", () => {
  for (const q of questions) {
    const key = keys[q.id];
    const planted = q.choices
      ? { ...key, choice: (key.choice + 1) % q.choices.length }
      : { ...key, value: key.value + 10 ** -q.decimals };
    assert.notEqual(disagreement(q, planted, independent[q.id]()), undefined, q.id);
    // and marking: the right answer, typed, is right; the planted key's, typed, is not
    const typed = (k) => (q.choices ? k.choice : k.value.toFixed(q.decimals));
    const right = q.choices
      ? q.choices.indexOf(independent[q.id]())
      : independent[q.id]().toFixed(q.decimals);
    assert.equal(markAnswer(q, key, right).status, "right", `${q.id}: ${right}`);
    assert.equal(markAnswer(q, key, typed(planted)).status, "wrong", `${q.id}: ${typed(planted)}`);
  }
});

test("each question names a step of its scene that explains it, and its words in both languages", () => {
  for (const q of questions) {
    const key = keys[q.id];
    assert.ok(key.step >= 0, q.id);
    for (const msg of Object.values(messages)) {
      const words = msg.quiz.questions[q.id];
      assert.ok(words?.text, `${msg.lang} ${q.id}`);
      if (q.choices) assert.equal(words.options.length, q.choices.length, `${msg.lang} ${q.id}`);
      else assert.equal(words.options, undefined, `${msg.lang} ${q.id}`);
    }
  }
  assert.deepEqual(
    Object.keys(messages.zh.quiz.questions).sort(),
    Object.keys(messages.en.quiz.questions).sort(),
  );
  // the steps, as the page numbers them
  assert.equal(keys.selfWeight.step, 4, "classroom: step 5, Softmax");
  assert.equal(keys.cachedStep.step, 4, "the KV cache: step 5, the 5th token");
  assert.equal(keys.gpt2Love.step, 1, "the tokens: step 2, GPT-2's");
});

test("marking: a number as a learner types it, rounded or cut off at the decimals asked", () => {
  const q = (id) => questions.find((x) => x.id === id);
  const mark = (id, typed) => markAnswer(q(id), keys[id], typed).status;
  // 你 on itself: 0.3596 (docs/scenes.md), to 2 decimals
  assert.equal(mark("selfWeight", "0.36"), "right");
  assert.equal(mark("selfWeight", "0.35"), "right", "cut off");
  assert.equal(mark("selfWeight", "0.37"), "wrong");
  assert.equal(mark("selfWeight", "0.4"), "short");
  assert.equal(mark("selfWeight", ""), "empty");
  assert.equal(mark("selfWeight", "a third"), "invalid");
  // whole numbers, with or without thousands separators
  assert.equal(mark("llamaKv", "131072"), "right");
  assert.equal(mark("llamaKv", "131,072"), "right");
  assert.equal(mark("llamaKv", "131 072"), "right");
  assert.equal(mark("llamaKv", "131,073"), "wrong");
  assert.equal(mark("llamaKv", "13,1072"), "wrong", "a comma in the wrong place is a decimal");
  assert.equal(mark("startGradient", "−0.2175"), "right");
  assert.equal(mark("startGradient", "0.2175"), "wrong");
  assert.equal(mark("bookTop", undefined), "empty");
});

test("the questions offered: those on the scenes of the path, none for a lesson with none there", async () => {
  const some = entries.filter((s) => ["age", "book", "kvcache"].includes(s.id));
  assert.deepEqual(
    questionsOf("walkthroughs", some).map((q) => q.id),
    ["ageOutput", "bookTop"],
  );
  assert.deepEqual(
    questionsOf("inside", some).map((q) => q.id),
    ["cachedStep"],
  );
  assert.deepEqual(questionsOf("why", some), []);
  const answers = await answersOf(questionsOf("walkthroughs", some), byId, core);
  assert.deepEqual(answers, [keys.ageOutput, keys.bookTop]);
});

test("the summary for the teacher: each lesson checked, each answer right or wrong, the link", () => {
  const url = "https://example.org/attention/?scene=book&step=6&lang=en&predict=1&path=age.book";
  const date = new Date(2026, 11, 3, 14, 5);
  for (const msg of Object.values(messages)) {
    const w = msg.quiz.questions;
    const results = [
      {
        lesson: msg.ui.lesson(1, msg.ui.lessons.walkthroughs),
        answers: [
          { text: w.ageOutput.text, typed: "19.47", status: "right" },
          { text: w.bookTop.text, typed: w.bookTop.options[1], status: "wrong", review: "X, 5" },
        ],
      },
    ];
    const text = summaryText({ msg, results, name: " Li Lei ", url, date });
    const lines = text.split("\n");
    assert.equal(lines[0], msg.quiz.sheet.heading);
    assert.equal(lines[1], msg.quiz.sheet.name("Li Lei"));
    assert.equal(lines[2], msg.quiz.sheet.date("2026-12-03 14:05"));
    assert.equal(lines[3], msg.quiz.sheet.link(url));
    assert.equal(lines[5], msg.quiz.sheet.lesson(results[0].lesson, 1, 2));
    assert.equal(lines[6], msg.quiz.sheet.answer(1, w.ageOutput.text, "19.47", msg.quiz.right));
    assert.equal(
      lines[7],
      msg.quiz.sheet.answer(2, w.bookTop.text, w.bookTop.options[1], msg.quiz.wrong, "X, 5"),
    );
    assert.ok(text.endsWith("\n") && !text.endsWith("\n\n"));
    const empty = summaryText({ msg, results: [], name: "", url, date });
    assert.match(empty, new RegExp(msg.quiz.sheet.none.replace(/[.()]/g, "\\$&")));
    assert.ok(empty.includes(msg.quiz.sheet.name("")));
  }
  // in English, read by meaning
  const en = summaryText({
    msg: messages.en,
    results: [
      {
        lesson: "1 Walkthroughs",
        answers: [
          { text: "Q?", typed: "3", status: "wrong", review: "Classroom, step 5: Softmax" },
        ],
      },
    ],
    name: "",
    url,
    date,
  });
  assert.match(en, /Lesson 1 Walkthroughs: 0 of 1 right/);
  assert.match(en, / {2}1\. Q\? Answer: 3\. not right\. Review Classroom, step 5: Softmax\./);
  // in Chinese, with its own punctuation (it ended '。对.' and '。不对. 复习')
  const zh = summaryText({
    msg: messages.zh,
    results: [
      {
        lesson: "1 一步步算",
        answers: [
          { text: "问？", typed: "3", status: "wrong", review: "教室找人，第 5 步：Softmax" },
          { text: "问二？", typed: "0.36", status: "right" },
        ],
      },
    ],
    name: "",
    url,
    date,
  });
  assert.match(zh, /1 一步步算：共 2 题，答对 1 题\n/);
  assert.match(zh, / {2}1\. 问？ 答案：3。不对。复习 教室找人，第 5 步：Softmax。\n/);
  assert.match(zh, / {2}2\. 问二？ 答案：0\.36。对。\n/);
});

// A planted bug counted every answer not wrong as right: unanswered, short and not a number too.
test("the teacher's summary counts as right only the answers marked right, whatever else they are", () => {
  const date = new Date(2026, 11, 3, 14, 5);
  const statuses = ["right", "wrong", "empty", "short", "invalid"];
  for (const [lang, line] of [
    ["en", "Lesson 1 Walkthroughs: 1 of 5 right"],
    ["zh", "1 Walkthroughs：共 5 题，答对 1 题"],
  ]) {
    const msg = messages[lang];
    const answers = statuses.map((status, k) => ({ text: `Q${k}`, typed: "1", status }));
    const text = summaryText({
      msg,
      results: [{ lesson: "1 Walkthroughs", answers }],
      name: "",
      url: "https://example.org/",
      date,
    });
    const lines = text.split("\n");
    assert.equal(lines[5], line, lang);
    statuses.forEach((status, k) => {
      const mark = status === "right" ? msg.quiz.right : msg.quiz.wrong;
      assert.equal(
        lines[6 + k],
        msg.quiz.sheet.answer(k + 1, `Q${k}`, "1", mark),
        `${lang} ${status}`,
      );
    });
  }
});
