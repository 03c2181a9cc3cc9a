// heads.js: <attention-heads>, every head at once, as attention_by_hand.show_heads() writes it
// (docs/python.md): a grid of small heatmaps, layer by layer, each head's attention weights as
// the core computed them (handed in, never computed here), with its tokens. A head is a button:
// a click or Enter opens its step-by-step <attention-walkthrough> below the grid, from the same
// q, k, v and mask, or, where the heads cannot open (the data's `why`), the grid says why.
// Bundled into the element's classic script (tools/bundle.mjs, by web/element.js).
//
//   <attention-heads lang="en"><script type="application/json">{ data }</script></attention-heads>
//
// data: { title, tokens: [n labels], why: null or { zh, en }, layers: [{ layer (from 1),
// d_head, scale, mask: "causal" or null, heads: [{ weights (n × n), q, k, v (n × d_head; absent
// when `why`) }] }] }. The data property takes the same object (types: element.d.ts). Method:
// open(layer, head), from 1, as a click on it. Event: headopen { layer, head } (from 1). Nothing it
// does throws into the page: a data it cannot draw is shown as an alert naming the field.
import { el, svg, shade } from "./views.js";
import { fmt } from "./format.js";
import css from "./heads.css";

const words = {
  zh: {
    layer: (l) => `第 ${l} 层`,
    name: (l, h) => `第 ${l} 层 · 头 ${h}`,
    hint: "点一个头（或用 Tab 选中后按 Enter），在下面打开它的逐步讲解：同样的 q、k、v。",
    causal: "因果掩码：每个词元只看它自己和它之前的词元。",
    open: "：打开逐步讲解",
    picture: (name, n) => `${name}：${n}×${n} 的注意力权重，颜色越深权重越大`,
    strongest: "每个词元最关注的词元：",
    stepByStep: (name) => `${name}，逐步讲解`,
    close: "收起",
    bad: "attention-heads：数据不对",
  },
  en: {
    layer: (l) => `Layer ${l}`,
    name: (l, h) => `Layer ${l} · head ${h}`,
    hint: "Pick a head (or Tab to it and press Enter) to open its step-by-step walkthrough below: the same q, k and v.",
    causal: "Causal mask: each token sees itself and the tokens before it.",
    open: ": open it step by step",
    picture: (name, n) => `${name}: ${n}×${n} attention weights, the darker the larger`,
    strongest: "The token each token attends to most: ",
    stepByStep: (name) => `${name}, step by step`,
    close: "Close",
    bad: "attention-heads: the data is wrong",
  },
};

let sheet; // made by the first element, shared by all

class AttentionHeads extends (globalThis.HTMLElement ?? class {}) {
  static observedAttributes = ["lang"];

  #root = this.attachShadow({ mode: "open" });
  #data = null; // given to the data property
  #shown = null; // the data drawn

  constructor() {
    super();
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    this.#root.adoptedStyleSheets = [sheet];
  }

  /** The heads drawn: the data property's, or the inline JSON's. */
  get data() {
    return this.#shown;
  }

  set data(value) {
    this.#data = value;
    if (this.isConnected) this.#start();
  }

  connectedCallback() {
    if (Object.hasOwn(this, "data")) {
      const value = this.data;
      delete this.data;
      this.#data = value;
    }
    this.#start();
  }

  attributeChangedCallback(name, old, value) {
    if (this.#shown && old !== value) this.#draw(this.#shown);
  }

  /** Opens a head's walkthrough: layer and head as the grid numbers them, from 1. */
  open(layer, head) {
    const button = this.#root.querySelector(
      `[data-layer="${Number(layer)}"][data-head="${Number(head)}"] button`,
    );
    button?.click();
    return Boolean(button);
  }

  async #start() {
    try {
      let data = this.#data;
      if (!data) {
        const inline = () => this.querySelector('script[type="application/json"]');
        // parsed from a page after the class was defined: its children may still be on their way
        if (!inline() && document.readyState === "loading") {
          await new Promise((ready) =>
            document.addEventListener("DOMContentLoaded", ready, { once: true }),
          );
        }
        if (!inline()) throw new Error("no data: a data property or an inline JSON script");
        data = JSON.parse(inline().textContent);
      }
      this.#draw(checked(data));
    } catch (error) {
      const box = el("p", {
        class: "error",
        role: "alert",
        text: `${words[this.#lang()].bad}: ${error.message}`,
      });
      this.#shown = null;
      this.#root.replaceChildren(box);
    }
  }

  #lang() {
    const lang = (this.closest("[lang]")?.getAttribute("lang") ?? "").toLowerCase().split("-")[0];
    return lang === "en" ? "en" : "zh";
  }

  #draw(data) {
    this.#shown = data;
    const lang = this.#lang();
    const w = words[lang];
    const { tokens } = data;
    const panel = el("section", { class: "open", id: "open", hidden: true });
    const buttons = [];
    const openHead = (layer, h, button) => {
      const head = layer.heads[h];
      const name = w.name(layer.layer, h + 1);
      const walk = document.createElement("attention-walkthrough");
      walk.setAttribute("lang", lang);
      walk.setAttribute("controls", "");
      // the same numbers: the head's own q, k and v, its tokens and its mask
      walk.scene = {
        title: name,
        inputs: { q: head.q, k: head.k, v: head.v },
        queries: tokens,
        keys: tokens,
        ...(layer.mask ? { mask: layer.mask } : {}),
      };
      const title = el("h3", { tabindex: "-1", text: w.stepByStep(name) });
      const close = () => {
        panel.hidden = true;
        panel.replaceChildren();
        button.setAttribute("aria-expanded", "false");
        button.focus();
      };
      panel.replaceChildren(
        el(
          "div",
          { class: "open-head" },
          title,
          el("button", { type: "button", class: "close", onclick: close, text: w.close }),
        ),
        walk,
      );
      panel.hidden = false;
      for (const b of buttons) b.setAttribute("aria-expanded", String(b === button));
      title.focus();
      this.dispatchEvent(
        new CustomEvent("headopen", {
          bubbles: true,
          detail: { layer: layer.layer, head: h + 1 },
        }),
      );
    };
    const card = (layer, head, h) => {
      const name = w.name(layer.layer, h + 1);
      const id = `strongest-${layer.layer}-${h + 1}`;
      const summary = el(
        "p",
        { id, class: "sr-only" },
        w.strongest,
        strongest(head.weights, tokens),
      );
      const picture = heatmap(head.weights, tokens);
      const where = { class: "head", "data-layer": layer.layer, "data-head": h + 1 };
      if (data.why) {
        const figure = el(
          "div",
          { role: "img", "aria-label": w.picture(name, tokens.length), "aria-describedby": id },
          picture,
        );
        return el("li", where, figure, el("span", { class: "name", text: name }), summary);
      }
      const button = el(
        "button",
        {
          type: "button",
          "aria-describedby": id,
          "aria-expanded": "false",
          "aria-controls": "open",
        },
        picture,
        el("span", { class: "name", text: name }, el("span", { class: "sr-only", text: w.open })),
      );
      button.addEventListener("click", () => openHead(layer, h, button));
      buttons.push(button);
      return el("li", where, button, summary);
    };
    this.#root.replaceChildren(
      el(
        "div",
        { class: "heads", lang: lang === "zh" ? "zh-CN" : "en" },
        el("h2", { text: data.title }),
        el("p", { class: data.why ? "why" : "hint", text: data.why ? data.why[lang] : w.hint }),
        data.layers.some((l) => l.mask === "causal") && el("p", { text: w.causal }),
        data.layers.map((layer) =>
          el(
            "section",
            { class: "layer", "aria-labelledby": `layer-${layer.layer}` },
            el("h3", { id: `layer-${layer.layer}`, text: w.layer(layer.layer) }),
            el(
              "ul",
              { class: "grid" },
              layer.heads.map((head, h) => card(layer, head, h)),
            ),
          ),
        ),
        panel,
      ),
    );
  }
}

// For each query, the key of its largest weight and that weight, as the data gives it.
function strongest(weights, tokens) {
  return weights
    .map((row, i) => {
      const j = row.indexOf(Math.max(...row));
      return `${tokens[i]} → ${tokens[j]} ${fmt(row[j], 2)}`;
    })
    .join("; ");
}

// A head's weights as a small SVG heatmap, the page's shades; each cell keeps its weight, as
// given, in data-weight, and (up to 16 tokens) the tokens beside the rows and above the columns.
function heatmap(weights, tokens) {
  const n = tokens.length;
  const labelled = n <= 16;
  const cell = labelled ? 10 : Math.max(3, Math.floor(160 / n));
  const margin = labelled ? 20 : 0;
  const side = margin + n * cell;
  const picture = svg("svg", {
    viewBox: `0 0 ${side} ${side}`,
    class: "heatmap",
    "aria-hidden": "true",
    focusable: "false",
  });
  // a label in the margin: its first three characters
  const short = (t) => (t.length > 3 ? `${t.slice(0, 3)}…` : t);
  if (labelled) {
    tokens.forEach((t, i) => {
      const middle = margin + (i + 0.5) * cell;
      picture.append(
        svg("text", { x: margin - 2, y: middle, class: "row", text: short(t) }),
        // one character stands upright over its column (a Chinese character is not laid on
        // its side); a longer label is turned to read upwards
        [...t].length === 1
          ? svg("text", { x: middle, y: margin - 2, class: "col", text: t })
          : svg("text", {
              x: middle,
              y: margin - 2,
              class: "col turned",
              transform: `rotate(-90 ${middle} ${margin - 2})`,
              text: short(t),
            }),
      );
    });
  }
  weights.forEach((row, i) =>
    row.forEach((x, j) => {
      const rect = svg("rect", {
        x: margin + j * cell,
        y: margin + i * cell,
        width: cell,
        height: cell,
        fill: shade(x).background,
        "data-i": i,
        "data-j": j,
        "data-weight": String(x),
      });
      if (labelled)
        rect.append(svg("title", { text: `${tokens[i]} → ${tokens[j]}: ${fmt(x, 4)}` }));
      picture.append(rect);
    }),
  );
  return picture;
}

// The data, its shape checked: what it cannot draw is an Error naming the field.
function checked(data) {
  const fail = (field, reason) => {
    throw new Error(`${field}: ${reason}`);
  };
  if (!data || typeof data !== "object") fail("data", "must be an object");
  const { tokens, layers, why } = data;
  if (!Array.isArray(tokens) || tokens.length === 0 || tokens.some((t) => typeof t !== "string"))
    fail("tokens", "must be a non-empty array of strings");
  if (typeof data.title !== "string") fail("title", "must be a string");
  if (why !== null && (typeof why?.zh !== "string" || typeof why?.en !== "string"))
    fail("why", "must be null or { zh, en }");
  if (!Array.isArray(layers) || layers.length === 0) fail("layers", "must be a non-empty array");
  const n = tokens.length;
  const square = (m, cols) =>
    Array.isArray(m) &&
    m.length === n &&
    m.every(
      (row) =>
        Array.isArray(row) &&
        row.length === (cols ?? row.length) &&
        row.every((x) => typeof x === "number"),
    );
  layers.forEach((layer, l) => {
    if (!Array.isArray(layer.heads) || layer.heads.length === 0)
      fail(`layers[${l}].heads`, "must be a non-empty array");
    layer.heads.forEach((head, h) => {
      if (!square(head.weights, n))
        fail(`layers[${l}].heads[${h}].weights`, `must be ${n}×${n} numbers`);
      if (!why)
        for (const m of ["q", "k", "v"])
          if (!square(head[m]))
            fail(`layers[${l}].heads[${h}].${m}`, `must be ${n} rows of numbers`);
    });
  });
  return data;
}

if (globalThis.customElements && !customElements.get("attention-heads")) {
  customElements.define("attention-heads", AttentionHeads);
}
