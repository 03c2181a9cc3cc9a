// labs/gpt/panels.js: what the model lab draws besides its matrices: the line's tokens, every
// head's attention at a glance, and what each head does, measured over the held-out poems when
// the model was trained (tang.json; tests/node/gpt-lab.test.mjs measures it again). Drawing
// only: every number is the core's.
import { el, svg } from "../../views.js";
import { fmt } from "../../format.js";
import { numbers } from "../kit.js";

/**
 * The line as the model reads it: each character and its id (1: unknown to the model), first,
 * just under the field; then the held-out couplets to try.
 */
export function tokensPanel({ trace, msg, update }, examples) {
  const w = msg.gptLab;
  // the characters unknown to the model, as typed: Chinese ones (字) counted apart
  const unknown = trace.rows.filter((c, i) => trace.tokens[i] === 1);
  const han = unknown.filter((c) => /\p{Script=Han}/u.test(c)).length;
  return el(
    "div",
    { class: "why-note" },
    tokensTable(trace, w),
    el("p", {
      id: "model-unknown",
      text: unknown.length ? w.unknown(unknown.length, han) : w.allKnown,
    }),
    el("p", { class: "note", text: w.reading(trace.json.config.context - 1) }),
    el("p", { text: w.examples }),
    el(
      "div",
      { class: "model-examples", role: "group", "aria-label": w.examples },
      examples.map((line, k) =>
        el(
          "button",
          { type: "button", id: `example-${k + 1}`, onclick: () => update({ line }) },
          el("span", { lang: "zh", text: line }),
          // a literal gloss for English readers
          w.exampleGlosses
            ? [" ", el("small", { class: "gloss", text: w.exampleGlosses[line] })]
            : [],
        ),
      ),
    ),
  );
}

// The line's tokens: what a typed line changes (data-result: the page brings it into view).
function tokensTable(trace, w) {
  const table = numbers(
    "why-numbers model-tokens",
    w.tokensTitle(trace.tokens.length),
    trace.rows.map((c, i) => el("span", { lang: "zh", text: c, "data-position": i })),
    [[w.id, ...trace.tokens.map(String)]],
  );
  table.dataset.result = "";
  return table;
}

// The shades a thumbnail draws: its cells' darkness in this many steps.
const shades = 20;

// One head's weights as a small picture, the darker the larger (drawing only): one path per
// shade, so that a long line's 2,000 cells are some 20 elements, not 2,000.
function thumbnail(weights, label) {
  const n = weights.length;
  const cell = Math.max(3, Math.floor(96 / n));
  const picture = svg("svg", {
    viewBox: `0 0 ${n * cell} ${n * cell}`,
    class: "head-thumb",
    role: "img",
    "aria-label": label,
  });
  const paths = Array.from({ length: shades + 1 }, () => []);
  weights.forEach((row, i) =>
    row.forEach((x, j) => {
      if (j > i) return;
      paths[Math.round(Math.min(1, x) * shades)].push(
        `M${j * cell},${i * cell}h${cell}v${cell}h-${cell}z`,
      );
    }),
  );
  paths.forEach((cells, k) => {
    if (k === 0 || cells.length === 0) return;
    picture.append(svg("path", { d: cells.join(""), fill: `rgba(40, 90, 200, ${k / shades})` }));
  });
  return picture;
}

/** Every layer's and head's weights on the line; a click opens that head. */
export function headGrid({ trace, state, msg, update }) {
  const w = msg.gptLab;
  return el(
    "div",
    { class: "head-grid", role: "group", "aria-label": w.gridTitle },
    trace.forward.layers.map((layer, l) =>
      el(
        "div",
        { class: "head-row" },
        el("span", { class: "label-text", text: w.layerName(l + 1) }),
        layer.weights.map((weights, h) => {
          const on = state.layer === l + 1 && state.head === h + 1;
          return el(
            "button",
            {
              type: "button",
              class: on ? "head-pick on" : "head-pick",
              id: `head-${l + 1}-${h + 1}`,
              "aria-pressed": String(on),
              "aria-label": w.where(l + 1, h + 1),
              onclick: () => update({ layer: l + 1, head: h + 1 }),
            },
            thumbnail(weights, w.where(l + 1, h + 1)),
            el("span", { text: w.headName(h + 1) }),
          );
        }),
      ),
    ),
  );
}

/**
 * The relation a head's numbers single out, if one does: at least `least` of its weight on
 * average, and at least `times` what spreading evenly puts there.
 */
export const naming = { least: 0.4, times: 3 };

export function roleOf(relations, l, h) {
  let best;
  for (const r of relations) {
    const mean = r.mean[l][h];
    if (mean >= naming.least && mean >= naming.times * r.uniform && !(best?.mean[l][h] > mean)) {
      best = r;
    }
  }
  return best?.name;
}

/** What each head seems to do: its mean weight on each relation, measured, and a name where
 * the numbers give one. */
export function rolesPanel({ trace, state, msg }) {
  const w = msg.gptLab;
  const { relations, poems } = trace.json.heads;
  const { layers, heads } = trace.json.config;
  const d = Math.min(state.digits, 3);
  const rows = [[w.evenly, ...relations.map((r) => fmt(r.uniform, d)), ""]];
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      const role = roleOf(relations, l, h);
      rows.push([
        w.where(l + 1, h + 1),
        ...relations.map((r) => fmt(r.mean[l][h], d)),
        role ? w.roles[role] : w.noRole,
      ]);
    }
  }
  return el(
    "div",
    { class: "why-note" },
    numbers(
      "why-numbers model-roles",
      w.rolesTitle(poems),
      [...relations.map((r) => w.relations[r.name]), w.seems],
      rows,
      { stacked: true },
    ),
    el("p", { text: w.namingRule(Math.round(naming.least * 100), naming.times) }),
  );
}
