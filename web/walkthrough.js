// walkthrough.js: one walkthrough, rendered into any container: the page's #app or a custom
// element's shadow root. One state object per walkthrough; every number on screen comes from
// the core through web/attention.js; steps.js says what to show and views.js draws it.
import { stepsFor, stepView, highlights, derivation, labelsFor, ranking } from "./steps.js";
import { checkPanel } from "./check-panel.js";
import { fmt, parseNumber, matrixToText, matrixFromText } from "./format.js";
import { random } from "./random.js";
import { el, matrixView, heatmapView, linesView, plotView } from "./views.js";
import en from "./i18n/en.js";
import zh from "./i18n/zh.js";

export const messages = { en, zh };
export const inputIds = ["x", "wq", "wk", "wv", "q", "k", "v"];

// Shapes that change together, so that a new row or column always fits: a new feature of X
// needs a row in each W, a new dimension of Q needs one of K, a new key needs a new value.
const features = [
  ["x", "cols"],
  ["wq", "rows"],
  ["wk", "rows"],
  ["wv", "rows"],
];
const dK = (a, b) => [
  [a, "cols"],
  [b, "cols"],
];
const linkedShapes = {
  x: { rows: [["x", "rows"]], cols: features },
  wq: { rows: features, cols: dK("wq", "wk") },
  wk: { rows: features, cols: dK("wq", "wk") },
  wv: { rows: features, cols: [["wv", "cols"]] },
  q: { rows: [["q", "rows"]], cols: dK("q", "k") },
  k: {
    rows: [
      ["k", "rows"],
      ["v", "rows"],
    ],
    cols: dK("q", "k"),
  },
  v: {
    rows: [
      ["k", "rows"],
      ["v", "rows"],
    ],
    cols: [["v", "cols"]],
  },
};

// A matrix with a row or column of zeros added at the end, or its last one removed.
function reshape(rows, along, grow) {
  if (along === "rows") return grow ? [...rows, rows[0].map(() => 0)] : rows.slice(0, -1);
  return rows.map((row) => (grow ? [...row, 0] : row.slice(0, -1)));
}

/** The browser's language if it is Chinese, else English. */
export function defaultLang() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  return wanted.some((l) => /^zh/i.test(l)) ? "zh" : "en";
}

/** State from URL parameters: ?scene=age&step=4&lang=en, plus alpha, causal, digits and edits. */
export function stateFromParams(p, scenes) {
  const scene = scenes.find((s) => s.id === p.get("scene")) ?? scenes[0];
  const edits = {};
  for (const id of inputIds) {
    const m = p.has(id) && scene.inputs[id] ? matrixFromText(p.get(id)) : undefined;
    if (m) edits[id] = m;
  }
  const number = (key, fallback) => {
    const x = parseNumber(p.get(key) ?? "");
    return x === undefined ? fallback : x;
  };
  const [m, i, j] = (p.get("cell") ?? "").split(".");
  return {
    scene: scene.id,
    lang: messages[p.get("lang")] ? p.get("lang") : defaultLang(),
    step: Math.max(0, Math.round(number("step", 1)) - 1),
    edits,
    alpha: scene.alpha ? number("alpha", scene.alpha.initial) : undefined,
    causal: Boolean(scene.causalToggle && p.get("causal") === "1"),
    digits: Math.min(10, Math.max(0, Math.round(number("digits", 4)))),
    speed: number("speed", 1),
    seed: Math.round(number("seed", 1)),
    focus: m ? { m, i: Number(i) || 0, j: Number(j) || 0 } : null,
  };
}

/** The state as URL parameters; defaults are left out. */
export function paramsFromState(state, scene) {
  const p = new URLSearchParams({ scene: state.scene, step: state.step + 1, lang: state.lang });
  if (scene.alpha && state.alpha !== scene.alpha.initial) p.set("alpha", state.alpha);
  if (state.causal) p.set("causal", "1");
  if (state.digits !== 4) p.set("digits", state.digits);
  if (state.speed !== 1) p.set("speed", state.speed);
  for (const [id, m] of Object.entries(state.edits)) p.set(id, matrixToText(m));
  if (state.focus) p.set("cell", `${state.focus.m}.${state.focus.i}.${state.focus.j}`);
  return p;
}

/**
 * Renders a walkthrough into `root` and returns its controller.
 * options: core (from loadAttention), scenes (those it may show), state (initial, partial),
 * page (the full page: it sets the document's title and language), nav (the title, the
 * language switch and the scene list; always on a page), controls (the player, the input
 * tools and "check my numbers"; always on a page), keyTarget (where keys are heard),
 * onChange(state, stepChanged) after every render.
 */
export function createWalkthrough(root, options) {
  const { core, scenes, page = false, keyTarget = root, onChange } = options;
  const byId = Object.fromEntries(scenes.map((s) => [s.id, s]));
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  let state;
  let good; // the last good { inputs, trace } for the current scene and edits
  let notice = null; // (msg) => the inline message after a rejected edit, in the current language
  let focusAfter = null; // a cell { m, i, j } to focus after the next render
  const checks = {}; // what the learner typed in "check my numbers", by scene, step and cell
  let timer;
  let lastStep;

  // Messages, with a custom scene's own words in place of the built-in scene texts.
  function msgOf(lang) {
    const custom = byId[state.scene].text?.[lang];
    const base = messages[lang];
    return custom ? { ...base, scenes: { ...base.scenes, [state.scene]: custom } } : base;
  }

  // ---- computing, always through the core ----

  function inputsOf(scene, edits, alpha) {
    const inputs = { ...scene.inputs, ...edits };
    // The sharpness slider edits the query: Q = α·q, an input, before the core sees it.
    if (scene.alpha) inputs.q = inputs.q.map((row) => row.map((x) => alpha * x));
    return inputs;
  }

  function compute(scene, edits, alpha, causal) {
    const inputs = inputsOf(scene, edits, alpha);
    const mask = causal ? "causal" : scene.mask;
    const options = mask ? { mask } : {};
    const trace = inputs.x
      ? core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv, options)
      : core.attention(inputs.q, inputs.k, inputs.v, options);
    return { inputs, trace };
  }

  /** Applies a change to the inputs if the core accepts it; otherwise keeps the last good state. */
  function tryChange(change) {
    const next = { ...state, ...change, edits: { ...state.edits, ...change.edits } };
    for (const [id, m] of Object.entries(next.edits)) if (m === null) delete next.edits[id];
    const stepId = stepsFor(byId[state.scene], state)[state.step];
    try {
      good = compute(byId[next.scene], next.edits, next.alpha, next.causal);
      state = next;
      notice = null;
    } catch (error) {
      notice = (words) => words.coreError(error.message);
    }
    // Stay on the same step when the mask adds or removes one.
    const steps = stepsFor(byId[state.scene], state);
    if (steps.includes(stepId)) state.step = steps.indexOf(stepId);
    clampStep();
    render();
  }

  function clampStep() {
    const total = stepsFor(byId[state.scene], state).length;
    state.step = Math.min(Math.max(0, state.step), total - 1);
  }

  // ---- navigation and playing ----

  function go(step) {
    state.step = step;
    clampStep();
    state.reveal = Infinity;
    state.focus = null;
    notice = null;
    render({ announce: true });
  }

  // A step chosen by the learner stops playing.
  function goByHand(step) {
    stopPlaying();
    go(step);
  }

  function stopPlaying() {
    clearTimeout(timer);
    state.playing = false;
    state.reveal = Infinity;
  }

  function cellsOf(view) {
    const m = view.matrices.find((x) => x.id === view.focusMatrix);
    return m ? m.data.length * m.data[0].length : 0;
  }

  function setPlaying(playing) {
    stopPlaying();
    if (playing) {
      state.playing = true;
      const last = stepsFor(byId[state.scene], state).length - 1;
      if (state.step === last) go(0);
      // A first pause on the step where play starts, then on.
      timer = setTimeout(tick, reducedMotion.matches ? 2400 / state.speed : 600 / state.speed);
    }
    render();
  }

  function tick() {
    const { steps, view } = current();
    const cells = cellsOf(view);
    const cols = cells && view.matrices.find((x) => x.id === view.focusMatrix).data[0].length;
    const stepMs = 2400 / state.speed;
    if (
      !reducedMotion.matches &&
      cells > 0 &&
      (state.reveal === Infinity || state.reveal < cells)
    ) {
      // Reveal the focus matrix cell by cell, each one explained as it appears.
      state.reveal = state.reveal === Infinity ? 1 : state.reveal + 1;
      const n = state.reveal - 1;
      state.focus = { m: view.focusMatrix, i: Math.floor(n / cols), j: n % cols };
      render();
      timer = setTimeout(tick, Math.max(40, stepMs / cells));
      return;
    }
    if (state.step >= steps.length - 1) {
      setPlaying(false);
      return;
    }
    go(state.step + 1);
    if (reducedMotion.matches || cellsOf(current().view) === 0) {
      timer = setTimeout(tick, stepMs);
    } else {
      state.reveal = 0;
      timer = setTimeout(tick, 300 / state.speed);
    }
  }

  function onKey(event) {
    const target = event.target;
    if (target.closest?.("input:not([type=checkbox]), select, textarea")) return;
    const last = stepsFor(byId[state.scene], state).length - 1;
    const keys = {
      ArrowRight: () => goByHand(state.step + 1),
      ArrowLeft: () => goByHand(state.step - 1),
      Home: () => goByHand(0),
      End: () => goByHand(last),
      " ": () => setPlaying(!state.playing),
    };
    if (!keys[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    // Space presses an ordinary button, ticks a box and edits an input cell; elsewhere
    // (the page, a result cell) it plays or pauses.
    const own = "button:not(.cell), a, summary, input, .role-input button.cell";
    if (event.key === " " && (target.closest?.(own) || !(page || options.controls))) return;
    event.preventDefault();
    if (!page) event.stopPropagation(); // in someone else's page, our keys stay ours
    keys[event.key]();
  }

  // ---- rendering ----

  // Where the walkthrough is: the scene, its words, its steps, and the current step's view.
  function current() {
    const scene = byId[state.scene];
    const msg = msgOf(state.lang);
    const steps = stepsFor(scene, state);
    const labels = labelsFor(scene, msg, good.trace, good.inputs);
    const stepId = steps[state.step];
    const inputs = stepId === "inputs" ? shownInputs() : good.inputs;
    const view = stepView(stepId, { scene, trace: good.trace, inputs, labels });
    return { scene, msg, steps, stepId, labels, view };
  }

  // Inputs as the learner edits them: the age scene's q before α.
  function shownInputs() {
    const scene = byId[state.scene];
    return scene.alpha ? { ...good.inputs, q: inputsOf(scene, state.edits, 1).q } : good.inputs;
  }

  function render({ announce = false } = {}) {
    const { scene, msg, steps, stepId, labels, view } = current();
    const { trace } = good;
    const causal = state.causal || scene.mask === "causal";
    const ctx = { trace, inputs: good.inputs, msg, digits: state.digits, causal };
    if (!state.focus || !view.matrices.some((m) => m.id === state.focus.m)) {
      state.focus = view.focusMatrix
        ? {
            m: view.focusMatrix,
            i: Math.min(scene.focusRow ?? 0, good.trace.scores.length - 1),
            j: 0,
          }
        : null;
    }
    const focus = state.focus;
    const lit = focus ? highlights(focus.m, focus.i, focus.j, ctx) : {};
    const hidden = (m) =>
      state.reveal !== Infinity && m.id === view.focusMatrix
        ? (i, j) => i * m.data[0].length + j >= state.reveal
        : undefined;

    if (page) {
      document.documentElement.lang = msg.htmlLang;
      document.title = `${msg.title} · ${msg.scenes[scene.id].name}`;
    }
    const activeCell = root.getRootNode().activeElement?.closest?.("[data-matrix] button.cell");
    const activeKey = activeCell && {
      m: activeCell.closest("[data-matrix]").dataset.matrix,
      i: activeCell.dataset.i,
      j: activeCell.dataset.j,
    };
    const activeId = root.getRootNode().activeElement?.id;

    const custom = scene.text?.[state.lang]?.steps?.[stepId];
    const stepText =
      custom ??
      (stepId === "masked" && !causal ? msg.steps.masked.explicit : msg.steps[stepId].text);
    const dK = (trace.q ?? good.inputs.q)[0].length;
    const text =
      typeof stepText === "function" ? stepText(dK, fmt(trace.scale, state.digits)) : stepText;

    // Inputs are editable where there are controls; elsewhere they are shown like operands.
    const controls = page || options.controls;
    const shown = view.matrices.map((m) =>
      m.role === "input" && !controls ? { ...m, role: "operand" } : m,
    );
    const matrices = shown.map((m) =>
      matrixView(m, {
        lit: lit[m.id],
        hidden: hidden(m),
        focus,
        digits: state.digits,
        msg,
        onCell: (mm, i, j, fromFocus) => onCell(mm, i, j, fromFocus),
        tools: m.role === "input" ? shapeTools(m, msg) : undefined,
      }),
    );

    content.replaceChildren(
      el(
        "div",
        { class: "walkthrough", lang: msg.htmlLang },
        (page || options.nav) && header(msg),
        (page || options.nav) && scenes.length > 1 && sceneNav(msg),
        el(
          page ? "main" : "div",
          { id: "main", tabindex: -1 },
          el(
            "section",
            { class: "intro", "aria-labelledby": "scene-title" },
            el("h2", { id: "scene-title", text: msg.scenes[scene.id].title }),
            el("p", { class: "analogy", text: msg.scenes[scene.id].analogy }),
            msg.scenes[scene.id].note &&
              el("p", { class: "note", text: msg.scenes[scene.id].note }),
            scene.source && el("p", { class: "source", text: msg.ui.source(scene.source) }),
          ),
          controls && sceneControls(scene, msg),
          controls && player(msg, steps),
          el(
            "section",
            { class: "step", "aria-labelledby": "step-title" },
            el("h3", { id: "step-title" }, `${state.step + 1}. ${msg.steps[stepId].title}`),
            el("p", { class: "step-text", text }),
            notice &&
              el("p", { class: "error", role: "alert" }, `${msg.ui.rejected} ${notice(msg)}`),
            stepId === "inputs" && controls && el("p", { class: "hint", text: msg.ui.edit }),
            el("div", { class: "matrices" }, matrices),
            focus &&
              el(
                "div",
                { class: "derivation", "aria-live": "off" },
                el("h4", { text: msg.ui.derivation }),
                el("p", {}, el("code", { text: derivation(focus.m, focus.i, focus.j, ctx) })),
              ),
            !focus && stepId !== "inputs" && el("p", { class: "hint", text: msg.ui.focusHint }),
            stepId === "result" && resultView(scene, msg, labels),
          ),
          viewsFor(scene, stepId, msg, labels, focus),
          controls && view.focusMatrix && checkPanelFor(scene, stepId, view, msg),
        ),
      ),
    );
    if (announce) {
      live.textContent = `${msg.ui.stepOf(state.step + 1, steps.length)}: ${msg.steps[stepId].title}. ${text}`;
    }
    const wanted = focusAfter ?? activeKey;
    focusAfter = null;
    if (wanted) {
      const cell = root.querySelector(
        `[data-matrix="${wanted.m}"] button[data-i="${wanted.i}"][data-j="${wanted.j}"]`,
      );
      (cell ?? root.querySelector("#main"))?.focus({ preventScroll: true });
    } else if (activeId) {
      root.querySelector(`#${activeId}`)?.focus({ preventScroll: true });
    }
    const stepChanged = lastStep !== undefined && lastStep !== `${state.scene}:${state.step}`;
    lastStep = `${state.scene}:${state.step}`;
    onChange?.(publicState(), stepChanged);
  }

  function header(msg) {
    const status = el("span", { class: "status", role: "status" });
    return el(
      "header",
      {},
      el(page ? "h1" : "p", { class: "title", text: msg.title }),
      el("p", { class: "tagline", text: msg.tagline }),
      el(
        "div",
        { class: "tools", role: "group", "aria-label": msg.ui.language },
        Object.values(messages).map((m) =>
          el("button", {
            type: "button",
            id: `lang-${m.lang}`,
            lang: m.htmlLang,
            "aria-pressed": String(m.lang === state.lang),
            text: m.languageName,
            onclick: () => {
              state.lang = m.lang;
              render({ announce: true });
            },
          }),
        ),
        page && el("a", { href: "embedding.html", text: msg.ui.embed }),
        page &&
          el("button", {
            type: "button",
            id: "copy-link",
            text: msg.ui.copyLink,
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(location.href);
                status.textContent = msg.ui.copied;
              } catch {
                status.textContent = msg.ui.copyFailed;
              }
            },
          }),
        status,
      ),
    );
  }

  function sceneNav(msg) {
    return el(
      "nav",
      { "aria-label": msg.ui.scenes },
      el(
        "ul",
        {},
        scenes.map((s) =>
          el(
            "li",
            {},
            el("button", {
              type: "button",
              id: `scene-${s.id}`,
              "aria-current": s.id === state.scene ? "page" : undefined,
              text: msg.scenes[s.id].name,
              onclick: () => switchScene(s.id),
            }),
          ),
        ),
      ),
    );
  }

  function switchScene(id) {
    stopPlaying();
    const s = byId[id];
    state = {
      ...state,
      scene: id,
      step: 0,
      edits: {},
      alpha: s.alpha?.initial,
      causal: false,
      focus: null,
      reveal: Infinity,
    };
    notice = null;
    good = compute(s, {}, state.alpha, false);
    render({ announce: true });
  }

  function sceneControls(scene, msg) {
    const controls = [];
    if (scene.alpha) {
      controls.push(
        el(
          "label",
          { class: "alpha" },
          msg.ui.alpha,
          el("input", {
            type: "range",
            id: "alpha",
            min: scene.alpha.min,
            max: scene.alpha.max,
            step: scene.alpha.step,
            value: state.alpha,
            oninput: (e) => tryChange({ alpha: Number(e.target.value) }),
          }),
          el("output", { for: "alpha", text: `α = ${state.alpha}` }),
        ),
      );
    }
    if (scene.causalToggle) {
      controls.push(
        el(
          "label",
          { class: "toggle" },
          el("input", {
            type: "checkbox",
            id: "causal",
            checked: state.causal,
            onchange: (e) => tryChange({ causal: e.target.checked }),
          }),
          msg.ui.causal,
        ),
      );
    }
    const seedInput = el("input", {
      type: "number",
      id: "seed",
      min: 0,
      value: state.seed,
      inputmode: "numeric",
      onchange: (e) => (state.seed = Math.max(0, Math.round(Number(e.target.value) || 0))),
    });
    controls.push(
      el("button", {
        type: "button",
        id: "reset",
        text: msg.ui.reset,
        onclick: () => tryChange({ edits: Object.fromEntries(inputIds.map((id) => [id, null])) }),
      }),
      el("button", {
        type: "button",
        id: "random",
        text: msg.ui.random,
        onclick: () => tryChange({ edits: randomInputs(scene, state.seed), seed: state.seed + 1 }),
      }),
      el("label", { class: "seed" }, msg.ui.seed, seedInput),
      choice("digits", msg.ui.digits, [2, 3, 4, 6, 8, 10], String),
    );
    return el("section", { class: "scene-controls" }, controls);
  }

  // A labelled <select> bound to state[key].
  function choice(key, text, values, show) {
    const onchange = (e) => {
      state[key] = Number(e.target.value);
      render();
    };
    const options = values.map((x) =>
      el("option", { value: x, selected: x === state[key], text: show(x) }),
    );
    return el("label", { class: key }, text, el("select", { id: key, onchange }, options));
  }

  // Random inputs of the same shapes, one decimal each so they can be worked by hand.
  function randomInputs(scene, seed) {
    const next = random(seed);
    const current = inputsOf(scene, state.edits, 1);
    const edits = {};
    for (const id of inputIds) {
      if (!scene.inputs[id]) continue;
      edits[id] = current[id].map((row) => row.map(() => Math.round(next() * 40 - 20) / 10));
    }
    return edits;
  }

  function player(msg, steps) {
    const button = (id, text, onclick, extra = {}) =>
      el("button", { type: "button", id, "aria-label": text, title: text, onclick, ...extra });
    return el(
      "section",
      { class: "player", "aria-label": msg.ui.scrubber },
      button("restart", msg.ui.restart, () => goByHand(0), { text: "↺" }),
      button("back", msg.ui.back, () => goByHand(state.step - 1), { text: "←" }),
      button("play", state.playing ? msg.ui.pause : msg.ui.play, () => setPlaying(!state.playing), {
        text: state.playing ? "❚❚" : "▶",
        "aria-pressed": String(state.playing),
      }),
      button("forward", msg.ui.forward, () => goByHand(state.step + 1), { text: "→" }),
      el(
        "label",
        { class: "scrubber" },
        el("span", { class: "visually-hidden", text: msg.ui.scrubber }),
        el("input", {
          type: "range",
          id: "scrubber",
          min: 1,
          max: steps.length,
          value: state.step + 1,
          "aria-valuetext": `${msg.ui.stepOf(state.step + 1, steps.length)}: ${msg.steps[steps[state.step]].title}`,
          oninput: (e) => goByHand(Number(e.target.value) - 1),
        }),
      ),
      choice("speed", msg.ui.speed, [0.5, 1, 2, 4], (x) => `${x}×`),
      el("p", {
        class: "counter",
        id: "counter",
        text: msg.ui.stepOf(state.step + 1, steps.length),
      }),
      el("p", { class: "hint keys", text: msg.ui.keyboard }),
    );
  }

  // Add or remove a row or a column of an input matrix; the core judges the new shape.
  function shapeTools(m, msg) {
    const inputs = shownInputs();
    const tool = (axis, grow) => {
      const group = linkedShapes[m.id][axis];
      const size = axis === "rows" ? m.data.length : m.data[0].length;
      const text = msg.ui[`${grow ? "add" : "remove"}${axis === "rows" ? "Row" : "Column"}`];
      return el("button", {
        type: "button",
        class: "tool",
        id: `${m.id}-${grow ? "add" : "remove"}-${axis}`,
        "aria-label": `${m.label}: ${text}`,
        title: text,
        text: `${grow ? "+" : "−"}${axis === "rows" ? "↓" : "→"}`,
        disabled: !grow && size === 1,
        onclick: () => {
          const edits = {};
          for (const [id, along] of group) edits[id] = reshape(inputs[id], along, grow);
          tryChange({ edits });
        },
      });
    };
    return el(
      "span",
      { class: "shape-tools" },
      tool("rows", true),
      tool("rows", false),
      tool("cols", true),
      tool("cols", false),
    );
  }

  function onCell(m, i, j, fromFocus) {
    if (m.role === "input") {
      if (!fromFocus) editCell(m, i, j);
      return;
    }
    if (state.focus?.m === m.id && state.focus.i === i && state.focus.j === j) return;
    state.focus = { m: m.id, i, j };
    render();
  }

  // Replaces a cell's button with a text field; Enter or leaving applies, Escape cancels.
  function editCell(m, i, j) {
    const msg = msgOf(state.lang);
    const button = root.querySelector(
      `[data-matrix="${m.id}"] button[data-i="${i}"][data-j="${j}"]`,
    );
    const input = el("input", {
      type: "text",
      class: "cell-edit",
      inputmode: "decimal",
      value: String(m.data[i][j]),
      "aria-label": msg.ui.editCell(m.label, i, j, ""),
    });
    let done = false;
    // Enter and Escape come back to the cell; leaving by Tab or a click goes where it went.
    const finish = (apply, back) => {
      if (done) return;
      done = true;
      if (back) focusAfter = { m: m.id, i, j };
      if (!apply) return render();
      const value = parseNumber(input.value);
      if (value === undefined) {
        const typed = input.value;
        notice = (words) => words.ui.notANumber(typed);
        return render();
      }
      const rows = m.data.map((row) => [...row]);
      rows[i][j] = value;
      tryChange({ edits: { [m.id]: rows } });
    };
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== "Escape") return;
      // Without this, the Enter would also press the cell's button that gets focus back.
      e.preventDefault();
      finish(e.key === "Enter", true);
    });
    input.addEventListener("blur", () => finish(true, false));
    button.replaceWith(input);
    input.focus();
    input.select();
  }

  // The result in words, built from the core's numbers, so it stays true after any edit.
  function resultView(scene, msg, labels) {
    const { trace, inputs } = good;
    const text = msg.scenes[scene.id].result;
    const names = (row) => ranking(trace, row).map((j) => labels.keys[j]);
    const vector = (row) => `[${row.map((x) => fmt(x, 3)).join(", ")}]`;
    const p = (words) => el("div", { class: "result" }, el("p", { text: words }));
    if (scene.text) return text ? p(text) : undefined; // a custom scene's own words
    switch (scene.id) {
      case "classroom":
        return p(text(labels.queries[0], vector(inputs.x[0]), vector(trace.output[0])));
      case "age": {
        const value = fmt(trace.output[0][0], state.digits);
        if (state.edits.k || state.edits.v) return p(msg.scenes.age.resultEdited(value));
        const rows = [
          [msg.scenes.age.attention, value],
          [msg.scenes.age.exact, fmt(scene.compare.exact, state.digits)],
          [msg.scenes.age.mean, fmt(scene.compare.mean, state.digits)],
        ];
        return el(
          "div",
          { class: "result" },
          el("p", { text: text(value, scene.compare.exact, scene.compare.mean) }),
          el(
            "dl",
            { class: "compare" },
            rows.map(([name, x]) => [el("dt", { text: name }), el("dd", { text: x })]),
          ),
        );
      }
      case "dictionary": {
        const top = ranking(trace, 0)[0];
        const weight = fmt(trace.weights[0][top], 2);
        return p(text(labels.keys[top], weight, vector(inputs.v[top]), vector(trace.output[0])));
      }
      case "book": {
        const top = names(scene.focusRow).slice(0, 3);
        return p(text(msg.list(top), top.join() === ["读", "有趣", "图书馆"].join()));
      }
      case "cup":
        return p(text(names(0)[0], names(1)[0]));
      default:
        return text ? p(text) : undefined;
    }
  }

  function viewsFor(scene, stepId, msg, labels, focus) {
    const { trace } = good;
    const shown = [];
    const focusRow = focus?.i ?? scene.focusRow ?? 0;
    if (["softmax", "output", "result"].includes(stepId)) {
      shown.push(
        heatmapView(trace.weights, labels.queries, labels.keys, {
          digits: Math.min(state.digits, 3),
          title: msg.views.heatmap,
          focusRow,
        }),
        linesView(trace.weights, labels.queries, labels.keys, { title: msg.views.lines, focusRow }),
      );
    }
    const q = trace.q ?? good.inputs.q;
    const k = trace.k ?? good.inputs.k;
    if (
      scene.plot &&
      q[0].length === 2 &&
      ["scores", "scaled", "masked", "softmax"].includes(stepId)
    ) {
      const pair =
        focus && ["scores", "scaled", "masked", "weights", "exp"].includes(focus.m)
          ? focus
          : { i: focusRow, j: 0 };
      shown.push(
        plotView(q, k, labels.queries, labels.keys, {
          focus: pair,
          score: trace.scores[pair.i][pair.j],
          digits: state.digits,
          title: msg.views.plot,
          note: msg.views.plotNote,
        }),
      );
    }
    return shown.length ? el("section", { class: "views" }, shown) : undefined;
  }

  // ---- check my numbers ----

  function checkPanelFor(scene, stepId, view, msg) {
    const m = view.matrices.find((x) => x.id === view.focusMatrix);
    const rows =
      m.data.length * m.data[0].length > 16 ? [state.focus?.i ?? 0] : m.data.map((_, i) => i);
    // What was typed survives redraws (a click on a cell, another language, …).
    const saved = (checks[`${state.scene}:${stepId}`] ??= { typed: {}, decimals: 4, run: false });
    const printed = scene.seedPrinted;
    const values =
      printed &&
      { softmax: printed.weights, output: printed.output, result: printed.output }[stepId];
    const summary = stepId === "softmax" ? undefined : printed?.summary;
    return checkPanel(m, rows, saved, msg, values && { values, summary });
  }

  // What the outside sees: the state, the step's id, the inputs and the output.
  function publicState() {
    const { reveal, ...rest } = state;
    const steps = stepsFor(byId[state.scene], state);
    return {
      ...rest,
      stepId: steps[state.step],
      steps,
      inputs: shownInputs(),
      output: good.trace.output,
    };
  }

  // ---- start ----

  // The live region stays while the rest is redrawn, so screen readers hear each change.
  const content = el("div");
  const live = el("p", { id: "announce", class: "visually-hidden", "aria-live": "polite" });
  root.replaceChildren(content, live);

  state = {
    scene: scenes[0].id,
    step: 0,
    lang: defaultLang(),
    edits: {},
    digits: 4,
    speed: 1,
    seed: 1,
    focus: null,
    ...options.state,
    playing: false,
    reveal: Infinity,
  };
  if (!byId[state.scene]) state.scene = scenes[0].id;
  const scene = byId[state.scene];
  state.alpha ??= scene.alpha?.initial;
  try {
    good = compute(scene, state.edits, state.alpha, state.causal);
  } catch (error) {
    // Edits the core rejects (from a URL, say) give way to the scene as published, and say why.
    notice = (words) => words.coreError(error.message);
    state.edits = {};
    good = compute(scene, {}, state.alpha, state.causal);
  }
  clampStep();
  keyTarget.addEventListener("keydown", onKey);
  render({ announce: true });

  return {
    get state() {
      return publicState();
    },
    goTo(step) {
      if (!Number.isFinite(step)) throw new Error(`goTo: the step must be a number, not ${step}`);
      goByHand(Math.round(step));
    },
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    setLang(lang) {
      if (messages[lang] && lang !== state.lang) {
        state.lang = lang;
        render({ announce: true });
      }
    },
    setScene: (id) => byId[id] && id !== state.scene && switchScene(id),
    /** Replaces inputs ({ x, wq, … } as arrays of rows); throws the core's error if rejected. */
    setInputs(edits) {
      const scene = byId[state.scene];
      const names = Object.keys(scene.inputs).join(", ");
      if (!edits || typeof edits !== "object") throw new Error(`setInputs: give { ${names} }`);
      for (const [id, rows] of Object.entries(edits)) {
        if (!scene.inputs[id]) throw new Error(`setInputs: ${id} is not an input here (${names})`);
        if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
          throw new Error(`setInputs: ${id} must be an array of rows of numbers`);
        }
      }
      tryChange({ edits });
      if (notice) throw new Error(notice(msgOf(state.lang)));
    },
    destroy() {
      clearTimeout(timer);
      keyTarget.removeEventListener("keydown", onKey);
      root.replaceChildren();
    },
  };
}
