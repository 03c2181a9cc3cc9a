// lab-wording.test.mjs: the labs' wording a learner's pass found wrong (issue 26 §5), each pinned against
// the core's numbers or a hand rule: the heads lab's circle is the one X's position columns draw,
// the GQA rule counts heads from 1 as its sentence does, the teach lab's zh derivation is
// Chinese, and Latin letters are not 字.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const sceneOf = (id) => resolveScene(listed.find((s) => s.id === id));
const textAt = (L, lang, stepId) => {
  const c = L.at(lang, stepId);
  return c.lab.text ? c.lab.text(stepId, c) : c.msg.steps[stepId].text;
};
const degrees = (x, y) => (((Math.atan2(y, x) * 180) / Math.PI + 360) % 360).toFixed(0);

test("heads, step 4: the circle the words speak of is X's pos cos and pos sin, and 我 splits as they say", async () => {
  const L = labAt(core, await sceneOf("heads"));
  const x = L.inputs.x;
  // the angle of each token on the circle, from X's last two columns (pos cos, pos sin)
  const angle = x.map((row) => degrees(row[5], row[6]));
  for (const [lang, source] of [
    [
      "en",
      String.raw`columns pos cos and pos sin place the tokens on a circle, (?<step>\d+)° apart, 我 at (?<wo>\d+)° and 书 at (?<shu>\d+)°; head 2 looks (?<back>\d+)° back, and \d+° back from 我 is (?<at>\d+)°`,
    ],
    [
      "zh",
      String.raw`“位置 cos”和“位置 sin”两列把词元放在一个圆上，相邻两个差 (?<step>\d+)°，我 在 (?<wo>\d+)°，书 在 (?<shu>\d+)°；头 2 往回看 (?<back>\d+)°，从 我 往回 \d+° 是 (?<at>\d+)°`,
    ],
  ]) {
    const text = textAt(L, lang, "headWeights");
    const m = new RegExp(source).exec(text);
    assert.ok(m, `${lang}: ${text}`);
    const g = m.groups;
    assert.equal(g.wo, angle[0], `${lang}: 我's angle`);
    assert.equal(g.shu, angle[4], `${lang}: 书's angle`);
    angle.slice(1).forEach((a, i) => assert.equal((a - angle[i] + 360) % 360, Number(g.step)));
    assert.equal(String((Number(g.wo) - Number(g.back) + 360) % 360), g.at);
  }
  // head 2 turns each position back by 60°: W_Q's position rows are 4 × that rotation
  const wq = L.inputs.wq.slice(5).map((row) => row.slice(2, 4));
  assert.equal(degrees(wq[0][0], wq[0][1]), "300");
  // and 我's weight splits evenly between itself and 书, the two largest of its row
  const row = L.trace.heads[1].weights[0];
  assert.ok(Math.abs(row[0] - row[4]) < 1e-3, row.join(" ")); // sin 60° is 0.866 in X
  assert.ok(
    row.slice(1, 4).every((w) => w < row[0]),
    row.join(" "),
  );
});

test("fewer K/V heads, step 2: the rule counts heads from 1, as the sentence does, and is the core's", async () => {
  const L = labAt(core, await sceneOf("gqa"));
  const t = L.trace[2];
  for (const [lang, source] of [
    ["en", String.raw`\(query head i reads key-value head (?<open>[⌈⌊])i·h_kv/h[⌉⌋]\)`],
    ["zh", String.raw`（查询头 i 读键值头 (?<open>[⌈⌊])i·h_kv/h[⌉⌋]）`],
  ]) {
    const text = textAt(L, lang, "kv2");
    assert.doesNotMatch(text, /counting from 0|从 0 数起/, lang);
    const m = new RegExp(source).exec(text);
    assert.ok(m, `${lang}: ${text}`);
    const round = m.groups.open === "⌈" ? Math.ceil : Math.floor;
    for (let i = 1; i <= 4; i++) {
      assert.equal(round((i * 2) / 4), t.kvHead[i - 1] + 1, `${lang}: head ${i}`);
    }
  }
});

test("teach: the updated weights' derivation names them in the page's language", async () => {
  const L = labAt(core, await sceneOf("teach"));
  for (const [mid, name] of [
    ["nwq", "W_Q"],
    ["nwk", "W_K"],
  ]) {
    for (const [lang, want] of [
      ["en", `${name} new[1][2] = `],
      ["zh", `新的 ${name}[1][2] = `],
    ]) {
      const c = L.at(lang, "update");
      const [first] = c.lab.derivation(mid, 0, 1, c).lines.map((l) => l.text);
      assert.ok(first.startsWith(want), `${lang}: ${first}`);
      // and the matrix's own label says the same
      assert.ok(want.startsWith(c.view.matrices.find((m) => m.id === mid).label), lang);
    }
  }
});

test("a real model: letters, digits and signs unknown to it are not counted as 字", async () => {
  const scene = await sceneOf("model");
  const said = (line, lang) => {
    const L = labAt(core, scene, { line });
    const panel = scene.lab.panels.tokens(L.at(lang, "line"));
    const p = [...walk(panel)].find((n) => n.attributes?.id === "model-unknown");
    return textOf(p);
  };
  assert.match(said("hello world", "zh"), /^有 10 个字符（字母、数字或符号，不是汉字）模型不认识/);
  assert.match(said("hello world", "en"), /^10 characters are unknown/);
  // 盡 is traditional: unknown to the model, and a 字
  assert.match(said("盡ab", "zh"), /^有 1 个字和 2 个其他字符（字母、数字或符号）模型不认识/);
  assert.match(said("盡", "zh"), /^有 1 个字模型不认识/);
});

function* walk(node) {
  yield node;
  for (const child of node.childNodes ?? []) yield* walk(child);
}
