// status-state.test.mjs: the labs' status sentences tied to the state they describe, in English
// and Chinese. sentence-arguments.test.mjs checks each template puts each argument beside its
// name; here a run's state (its losses, its held-out measures, its clock, the induction run's
// drop) goes through the labs' own status functions, and each number the learner reads is the
// one the state holds: the latest held-out measure (not the first), the minutes left from the
// steps still to go (not all of them), the seconds at the drop (not now). The glossary's split
// of the poems is read against the core's own split of a text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { glossary } from "../../web/i18n/glossary.js";
import { announcement, momentOf, runStatus } from "../../web/labs/gpt/train-panels.js";
import { gptWords } from "../../web/labs/gpt/words.js";
import en from "../../web/i18n/en.js";
import { status as inductionStatus } from "../../web/labs/gpt/induction-panels.js";
import { inductionWords } from "../../web/labs/gpt/induction-words.js";

// A clock stopped at `ms` (the stopwatch's read()).
const clockAt = (ms) => ({ read: () => ms, running: () => false });

// 150 steps in 60 s of a 2,000-step run, two held-out measures: at step 1 and at step 100.
const losses = Array.from({ length: 150 }, (_, i) => 6.0003 - i / 100); // the last 4.513
const json = { training: { steps: 2000 } };
const run = (more) => ({
  losses,
  heldOut: [
    [1, 5.5312],
    [100, 3.2468],
  ],
  clock: clockAt(60000),
  ...more,
});
// read apart: 2.5 steps per second; 1,850 steps left at that rate are 740 s, 12.3 min: about 12
const expected = {
  en: {
    running: [
      "step 150 of 2000",
      "after 60 s",
      "2.5 steps per second",
      "training loss 4.51",
      "held-out loss 3.247 (measured at step 100)",
      "About 12 min",
    ],
    paused: [
      "step 150 of 2000",
      "training loss 4.51",
      "held-out loss 3.247 (measured at step 100)",
    ],
  },
  zh: {
    running: [
      "第 150 个训练步，共 2000 个",
      "已用 60 秒",
      "每秒 2.5 步",
      "训练损失 4.51",
      "留出损失 3.247（第 100 步测得）",
      "还要 12 分钟",
    ],
    paused: ["第 150 个训练步，共 2000 个", "训练损失 4.51", "留出损失 3.247（第 100 步测得）"],
  },
};

for (const lang of ["en", "zh"]) {
  const msg = { ...gptWords[lang], coreError: (e) => e };

  test(`${lang}: a model lab's status while it trains and paused says the latest held-out measure and the minutes left from the steps to go`, () => {
    for (const [state, running] of [
      ["running", true],
      ["paused", false],
    ]) {
      const said = runStatus(run({ running }), json, msg);
      for (const part of expected[lang][state])
        assert.ok(said.includes(part), `${state}: "${part}" in "${said}"`);
    }
  });

  test(`${lang}: the time left follows the steps to go: under a minute, in seconds`, () => {
    // 1,990 steps in 60 s: 10 left at 33.2 a second are 0.3 s, said as 1 s
    const near = { ...run({ running: true }), losses: Array(1990).fill(2) };
    const said = runStatus(near, json, msg);
    assert.ok(said.includes(lang === "en" ? "About 1 s to the end" : "还要 1 秒。"), said);
    // 1,500 steps in 60 s: 500 left at 25 a second are 20 s, not "1 min"
    const soon = { ...run({ running: true }), losses: Array(1500).fill(2) };
    const then = runStatus(soon, json, msg);
    assert.ok(then.includes(lang === "en" ? "About 20 s to the end" : "还要 20 秒。"), then);
  });

  const w = inductionWords[lang].induction;
  test(`${lang}: the induction status gives the drop's step and its seconds on the clock then, not now`, () => {
    const said = inductionStatus(
      {
        layers: 7, // no such run: not finished
        running: false,
        losses: Array(400).fill(1),
        clock: clockAt(90000),
        drop: { step: 175, wall: 21400 },
      },
      w,
    );
    const parts = {
      en: ["step 400 of 1000", "after 90 s", "at step 175, 21 s after Start"],
      zh: ["暂停在第 400 步", "已用时 90 秒", "在第 175 步第一次降到", "开始后 21 秒"],
    }[lang];
    for (const part of parts) assert.ok(said.includes(part), `"${part}" in "${said}"`);
  });

  test(`${lang}: the induction status while it trains: its step, its seconds and its rate, each by its name`, () => {
    const said = inductionStatus(
      { layers: 7, running: true, losses: Array(400).fill(1), clock: clockAt(80000) },
      w,
    );
    const parts = {
      en: ["step 400 of 1000", "80 s on the clock", ", 5 steps per second"],
      zh: ["第 400 步", "共 1000 步", "用时 80 秒", "每秒 5 步"],
    }[lang];
    for (const part of parts) assert.ok(said.includes(part), `"${part}" in "${said}"`);
  });
}

// A learner's finding: trained again, the hidden status announced "第 0 个训练步…每秒 0 步；训练损失 —"
// while the status on screen said step 46: the announcement, made once a moment, was the status
// of its first redraw. Now each says what stays true of its moment: started or resumed from its
// step; every 500 steps, that step's training loss and the latest held-out measure up to it.
test("a model lab's announcements: the step a run goes on from, then each 500th step's losses (en, zh)", () => {
  const json = { training: { steps: 2000 } };
  const losses = Array.from({ length: 2000 }, (_, i) => 6 - i / 1000);
  const measures = [[1, 5.9], ...Array.from({ length: 40 }, (_, k) => [50 * (k + 1), 5 - k / 100])];
  const at = (n, running, announced) => ({
    running,
    losses: losses.slice(0, n),
    heldOut: measures.filter(([s]) => s <= n),
    clock: clockAt(1000),
    announced,
  });
  const from = {
    en: /^Training from step (?<n>\d+) of (?<total>\d+);/,
    zh: /^训练中：从第 (?<n>\d+) 个训练步开始，共 (?<total>\d+) 个/,
  };
  const passed = {
    en: /^Training step (?<step>\d+) of (?<total>\d+) done: training loss (?<loss>[\d.]+), held-out loss (?<held>[\d.]+) \(measured at step (?<heldAt>\d+)\)\.$/,
    zh: /^第 (?<step>\d+) 个训练步已完成，共 (?<total>\d+) 个：训练损失 (?<loss>[\d.]+)，留出损失 (?<held>[\d.]+)（第 (?<heldAt>\d+) 步测得）。$/,
  };
  for (const lang of ["en", "zh"]) {
    const msg = { ...gptWords[lang], coreError: (e) => e };
    // started (nothing heard yet), and resumed at step 46 after a pause there
    for (const [run, n] of [
      [at(0, true, undefined), 0],
      [at(46, true, "paused 46"), 46],
      [at(620, true, "paused 620"), 620],
    ]) {
      const said = announcement(run, json, msg, run.announced);
      const g = from[lang].exec(said)?.groups;
      assert.ok(g, `${lang}: «${said}»`);
      assert.deepEqual([Number(g.n), Number(g.total)], [n, 2000], said);
      assert.doesNotMatch(said, /—/, "no loss that is not there");
    }
    // the moment of step 500 reached (drawn at step 503): step 500's numbers, not 503's
    const run = at(503, true, "running 0");
    assert.equal(momentOf(run, json), "running 1");
    const g = passed[lang].exec(announcement(run, json, msg, run.announced))?.groups;
    assert.ok(g, lang);
    assert.deepEqual(
      [g.step, g.total, g.loss, g.held, g.heldAt].map(Number),
      [500, 2000, Number(losses[499].toFixed(3)), 4.91, 500],
      lang,
    );
    // paused: the status, which stays true while it is paused
    const paused = at(503, false, "running 1");
    assert.equal(announcement(paused, json, msg, paused.announced), runStatus(paused, json, msg));
  }
});

// A learner's finding: back at L = 2, "一层的那次训练还在，停在第 1000 步" read as interrupted though the
// one-layer run had finished; and with L = 1 done and L = 2 paused, L = 1's status said nothing of
// L = 2's run. Each status now says where the other run is, done or paused, read by what it says.
test("the induction status says where the other layers' run is: done at its last step, or paused (en, zh)", () => {
  const total = 1000;
  const runAt = (layers, n, running = false) => ({
    layers,
    running,
    losses: Array(n).fill(1),
    last: n - (n % 25),
    clock: clockAt(60000),
  });
  const other = {
    en: /The (?<which>one|two)-layer run is kept: (?:done, all (?<done>\d+) steps trained|paused at step (?<paused>\d+)); set L = (?<L>\d) to see it\.$/,
    zh: /(?<which>一|两)层的那次训练还在：(?:已经完成，(?<done>\d+) 步都训练完了|暂停在第 (?<paused>\d+) 步)；把 L 设为 (?<L>\d) 就能看到。$/,
  };
  const own = {
    en: { none: /^Not started/, done: /^Done: 1000 steps/, paused: /^Paused at step 175 of 1000/ },
    zh: { none: /^还没开始/, done: /^完成：1000 步/, paused: /^暂停在第 175 步/ },
  };
  const cases = [
    // [this run (undefined: not started), the other run, what this run's own words are]
    [undefined, runAt(1, total), "none"],
    [runAt(2, 175), runAt(1, total), "paused"],
    [runAt(1, total), runAt(2, 175), "done"],
    [runAt(2, total), runAt(1, 175), "done"],
  ];
  for (const lang of ["en", "zh"]) {
    const w = inductionWords[lang].induction;
    for (const [run, kept, mine] of cases) {
      const said = inductionStatus(run, w, kept);
      assert.match(said, own[lang][mine], said);
      const g = other[lang].exec(said)?.groups;
      assert.ok(g, `${lang}: the other run in «${said}»`);
      const done = kept.last >= total;
      assert.equal(
        g.which,
        { 1: lang === "en" ? "one" : "一", 2: lang === "en" ? "two" : "两" }[kept.layers],
      );
      assert.equal(Number(g.L), kept.layers, said);
      assert.equal(Number(done ? g.done : g.paused), kept.losses.length, said);
      assert.equal(
        done ? g.paused : g.done,
        undefined,
        `${lang}: done or paused, as it is: ${said}`,
      );
    }
    // no other run: nothing said of one
    assert.doesNotMatch(inductionStatus(runAt(2, 175), w, undefined), other[lang]);
  }
});

test("the glossary's held-out and validation residues are the core's split of a text's pieces", async () => {
  const core = await loadLabs();
  // 20 lines, line p of length p + 2 (a and b alternating): each split's stream is its lines
  // and an end token each, so its length names the lines in it
  const lines = Array.from({ length: 20 }, (_, p) => "ab".repeat(20).slice(0, p + 2));
  const corpus = core.textCorpus(lines.join("\n"));
  // the residue r whose two lines (r and r + 10, each with its end token) make the stream
  const residue = (stream) => {
    for (let r = 0; r < 10; r++) if (stream.length === r + 3 + (r + 10) + 3) return r;
    return undefined;
  };
  const heldOut = residue(corpus.heldOut);
  const validation = residue(corpus.validation);
  assert.ok(heldOut !== undefined && validation !== undefined, "each stream is two lines");
  const split = glossary.find((g) => g.id === "held-out");
  const en =
    /index mod 10 = (\d)\); another tenth \(mod 10 = (\d)\) picks the best training step/.exec(
      split.en.formula,
    );
  const zh = /第十首（编号 mod 10 = (\d)）；另有十分之一（mod 10 = (\d)）用来挑最好的训练步/.exec(
    split.zh.formula,
  );
  for (const [lang, found] of [
    ["en", en],
    ["zh", zh],
  ]) {
    assert.ok(found, `${lang}: the formula names both residues`);
    assert.deepEqual(
      [Number(found[1]), Number(found[2])],
      [heldOut, validation],
      `${lang}: held-out and validation`,
    );
  }
});

// A planted bug drew each token's weight on itself as masked in the model lab's head: the cells
// drawn masked are those whose weight the core's causal forward pass makes exactly 0, no more.
test("the model lab's head heatmap hatches exactly the keys the causal mask hides (the core's zeros)", async () => {
  const { installTextDom } = await import("./text-dom.mjs");
  installTextDom();
  const { headNow } = await import("../../web/labs/gpt/train-panels.js");
  const core = await loadLabs();
  const config = { vocab: 8, context: 8, dModel: 8, layers: 1, heads: 2 };
  const trainer = core.gptTrainer(config, [1, 2, 3, 4, 5, 6, 7, 2, 3, 4], { batch: 1, total: 2 });
  const model = { config, params: trainer.params() };
  trainer.close();
  const tokens = [2, 3, 4, 5, 6];
  const msg = { ...en, ...gptWords.en, coreError: (e) => e };
  for (const head of [1, 2]) {
    const figure = headNow(
      core,
      { model, at: 0 },
      {
        trace: { tokens, rows: tokens.map(String) },
        state: { layer: 1, head },
        msg,
      },
    );
    const weights = core.gptForward(model, tokens).layers[0].weights[head - 1];
    const rows = figure.querySelectorAll("tr").filter((tr) => tr.querySelectorAll("td").length);
    assert.equal(rows.length, tokens.length);
    rows.forEach((tr, i) =>
      tr
        .querySelectorAll("td")
        .forEach((td, j) =>
          assert.equal(
            (td.getAttribute("class") ?? "").includes("masked"),
            weights[i][j] === 0,
            `head ${head}, query ${i}, key ${j}: weight ${weights[i][j]}`,
          ),
        ),
    );
  }
});

// A planted bug named the second-to-last token as the last of a long list: step 1 of a scene of
// more than six tokens names its first and its last token, read from the scene's own labels.
test("a long scene's first step names its first and last token (the book scene's 11, en and zh)", async () => {
  const { scenes } = await import("../../web/catalogue.js");
  const { labOf, resolveScene } = await import("../../web/lab.js");
  const { labAt } = await import("./lab-context.mjs");
  const book = await resolveScene(scenes.find((s) => s.id === "book"));
  const scene = { ...book, lab: labOf(book) };
  const lab = labAt(await loadLabs(), scene, { scene: "book" });
  const step = lab.steps[0];
  for (const [lang, range] of [
    ["en", (n, a, b) => `the ${n} from ${a} to ${b}`],
    ["zh", (n, a, b) => `从${a}到${b}的 ${n} 个词`],
  ]) {
    const ctx = lab.at(lang, step.id);
    const queries = ctx.labels.queries;
    assert.ok(queries.length > 6, `${queries.length} tokens`);
    const said = scene.lab.text(step.id, ctx);
    const [first, last] = [ctx.msg.list([queries[0]]), ctx.msg.list([queries.at(-1)])];
    assert.ok(said.includes(range(queries.length, first, last)), `${lang}: ${said}`);
  }
});

// A planted bug swapped the numbers of queries and keys in the √d_k lab's plot title: the title
// names those the core was asked to average over (its scalingStats calls, watched here).
test("the √d_k lab's plot title names the queries and keys its statistics were computed over (en, zh)", async () => {
  const { scenes } = await import("../../web/catalogue.js");
  const { resolveScene } = await import("../../web/lab.js");
  const { labAt } = await import("./lab-context.mjs");
  const scaling = await resolveScene(scenes.find((s) => s.id === "scaling"));
  const core = await loadLabs();
  const asked = [];
  const watched = { ...core, scalingStats: (o) => (asked.push(o), core.scalingStats(o)) };
  const lab = labAt(watched, scaling, {});
  assert.ok(asked.length > 0, "the statistics were computed here");
  const { rows, nKeys } = asked[0];
  assert.ok(asked.every((o) => o.rows === rows && o.nKeys === nKeys));
  for (const [lang, title] of [
    ["en", `over ${rows} queries of ${nKeys} keys`],
    ["zh", `${rows} 个查询（每个 ${nKeys} 个键）`],
  ]) {
    const figure = scaling.lab.panels.plot(lab.at(lang, "plot"));
    assert.ok(figure.textContent.includes(title), `${lang}: ${figure.textContent.slice(0, 200)}`);
  }
});

// A learner's finding: the classroom's result said "its output is [0.573, 0.462]" under a table
// showing 0.5735; rounding the table's number gives 0.574. The sentence's rows now read as the
// output table's, at whatever decimals the page shows.
test("the classroom's result sentence gives each output row as the output table shows it (en, zh; 2 to 4 decimals)", async () => {
  const { installTextDom, textOf } = await import("./text-dom.mjs");
  installTextDom();
  const { loadLabs } = await import("../../web/attention.js");
  const { labAt } = await import("./lab-context.mjs");
  const { sceneById } = await import("../../web/scenes.js");
  const attention = (await import("../../web/labs/walkthroughs/attention.js")).default;
  const { resultView } = await import("../../web/ui/result-view.js");
  const { fmt } = await import("../../web/format.js");
  const core = await loadLabs();
  for (const digits of [2, 3, 4]) {
    const L = labAt(core, { ...sceneById.classroom, lab: attention }, { digits });
    const output = L.at("en", "output").view.matrices.find((m) => m.id === "output").data;
    for (const lang of ["en", "zh"]) {
      const said = textOf(resultView(L.at(lang, "result")));
      const rows = [...said.matchAll(/\[([^\]]*,[^\]]*)\]/g)].map((m) => m[1]);
      // the first word's value and output, then the last word's input, value and output
      const shown = (i) => output[i].map((x) => fmt(x, digits)).join(", ");
      assert.equal(rows[1], shown(0), `${lang}, ${digits} decimals: ${said}`);
      assert.equal(rows.at(-1), shown(output.length - 1), `${lang}, ${digits} decimals: ${said}`);
    }
    // the apple's two outputs, beside its table of them (at most 3 decimals)
    const apple = labAt(core, { ...sceneById.apple, lab: attention }, { digits });
    const outputs = apple.trace.output.map(
      (row) => `[${row.map((x) => fmt(x, Math.min(digits, 3))).join(", ")}]`,
    );
    for (const lang of ["en", "zh"]) {
      const said = textOf(resultView(apple.at(lang, apple.steps.at(-1).id)));
      for (const row of outputs)
        assert.ok(said.includes(row), `${lang}, ${digits} decimals: ${row} in ${said}`);
    }
  }
});
