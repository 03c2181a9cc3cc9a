// element.js: <attention-walkthrough>, the walkthrough as a custom element for other people's
// pages. Built twice (tools/bundle.mjs): a classic script with the core inlined, and an ES
// module that imports the core from attention.js, so an author who imports both gets one.
// Styles live in a shadow root; every element on a page shares one WASM instance; nothing it
// does throws into the host page: errors are shown inside the element and fired as `error`
// events. In Node (server-side rendering) it imports cleanly and defines nothing.
//
//   <attention-walkthrough scene="age" lang="zh" step="3" controls></attention-walkthrough>
//
// Attributes (all reactive): scene, lang, step (1-based), controls, nav, src (a scene JSON),
// predict (with controls: each step's results stay hidden until the learner has answered),
// layout ("compact": one step that fits a 16:9 slide, and the element's height if it is given
// one; docs/embedding.md says what it leaves out).
// A <script type="application/json"> child is an inline custom scene. The scene property takes a
// custom scene as an object too, which survives every template language (Vue, MDX, JSX): from it
// the element reads no JSON text, and it comes before src and an inline script.
// Events: ready, stepchange { scene, step, stepId, total }, error { message }.
// Methods: goTo(step), play(), pause(), setInputs({ q, k, v } or { x, wq, wk, wv }); property
// state.
import { loadAttention } from "./attention.js";
import { scenes } from "./scenes.js";
import { createWalkthrough, defaultLang, messages } from "./walkthrough.js";
import { maxSceneLength, parseScene } from "./custom-scene.js";
import hostCss from "./element.css";
import css from "./style.css";
import compactCss from "./compact.css";
// <attention-heads>, every head at once (show_heads in Python), opens this element for a head
import "./heads.js";

const teaching = scenes.filter((s) => !s.lazy);

/** The layouts: the attribute's values; without it, the normal one. */
const layouts = ["compact"];

/** How long a scene from src may take to arrive, in ms. */
const srcTimeout = 10_000;

// Made by the first element, shared by all of them: not at import, which must work in Node.
let sheet;

// Without a DOM (Node) the base is a plain class: the element is then never defined.
class AttentionWalkthrough extends (globalThis.HTMLElement ?? class {}) {
  static observedAttributes = [
    "scene",
    "lang",
    "step",
    "controls",
    "nav",
    "src",
    "predict",
    "layout",
  ];

  #root = this.attachShadow({ mode: "open" });
  #walk = null;
  #custom = null; // a parsed custom scene, from the scene property, src or an inline script
  #sceneObject = null; // a custom scene given to the scene property
  #loading = null;
  #kept = null; // the state while the element is out of the document, so a move loses nothing
  #started = false; // attributes seen while upgrading are read by the first start

  constructor() {
    super();
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(hostCss + css + compactCss);
    }
    this.#root.adoptedStyleSheets = [sheet];
  }

  connectedCallback() {
    // a scene set as a property before the element was defined is a plain own property
    if (Object.hasOwn(this, "scene")) {
      const value = this.scene;
      delete this.scene;
      if (value && typeof value === "object") this.#sceneObject = value;
      else if (value != null) this.setAttribute("scene", String(value));
    }
    this.#started = true;
    this.#restart({ keep: true });
  }

  disconnectedCallback() {
    this.#kept = this.#walk?.state ?? this.#kept;
    this.#walk?.destroy();
    this.#walk = null;
  }

  attributeChangedCallback(name, old, value) {
    if (!this.#started || !this.isConnected || old === value) return;
    // After an error there is no walkthrough: any change is a fresh start.
    if (!this.#walk) this.#restart();
    else if (name === "lang") this.#walk.setLang(this.#lang());
    else if (name === "predict") this.#walk.setPredict(this.#predict());
    else if (name === "step") {
      if (this.#step() !== this.#walk.state.step) this.#walk.goTo(this.#step());
    } else this.#restart({ keep: ["controls", "nav", "layout"].includes(name) });
  }

  /** The scene: a custom scene given as an object, or the scene attribute (an id). */
  get scene() {
    return this.#sceneObject ?? this.getAttribute("scene");
  }

  /** An id sets the scene attribute; an object is a custom scene, as a scene JSON would be. */
  set scene(value) {
    const live = this.#started && this.isConnected;
    if (value && typeof value === "object") {
      this.#sceneObject = value;
      if (live) this.#restart();
      return;
    }
    const before = [this.#sceneObject, this.getAttribute("scene")];
    this.#sceneObject = null;
    if (value == null) this.removeAttribute("scene");
    else this.setAttribute("scene", String(value));
    // from an object back to the id the attribute already had: no attribute change to hear
    if (live && before[0] && before[1] === this.getAttribute("scene")) this.#restart();
  }

  /** The current state: scene, step (1-based), stepId, lang, inputs, output, … */
  get state() {
    const state = this.#walk?.state;
    return state && { ...state, step: state.step + 1 };
  }

  /** Goes to a step, 1-based. False (and an `error` event) for a step that is not a number. */
  goTo(step) {
    try {
      this.#walk?.goTo(Number(step) - 1);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    }
  }

  play() {
    this.#walk?.play();
  }

  pause() {
    this.#walk?.pause();
  }

  /** Replaces inputs; an input the core rejects is reported as an `error` event and kept out. */
  setInputs(inputs) {
    try {
      this.#walk?.setInputs(inputs);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    }
  }

  // The lang attribute, else the nearest lang around the element, else the browser's: zh-CN,
  // zh-Hans and ZH all mean Chinese.
  #lang() {
    const lang = (this.closest("[lang]")?.getAttribute("lang") ?? "").toLowerCase();
    const base = lang.split("-")[0];
    return Object.hasOwn(messages, base) ? base : defaultLang();
  }

  // The compact layout, or null for the normal one; any other value is an error.
  #layout() {
    const layout = this.getAttribute("layout");
    if (layout === null || layout === "") return null;
    if (!layouts.includes(layout)) {
      throw new Error(`layout: "${layout}" is not a layout (${layouts.join(", ")}, or none)`);
    }
    return layout;
  }

  // Predict mode needs "check my numbers", which a compact layout leaves out.
  #predict() {
    return this.hasAttribute("predict") && this.getAttribute("layout") !== "compact";
  }

  #step() {
    return Math.max(0, Math.round(Number(this.getAttribute("step")) || 1) - 1);
  }

  // (Re)builds the walkthrough from the attributes; `keep` keeps the scene and step it had.
  async #restart({ keep = false } = {}) {
    const loading = (this.#loading = Symbol());
    try {
      const compact = this.#layout() === "compact";
      const core = await loadAttention();
      const custom = await this.#customScene();
      if (loading !== this.#loading || !this.isConnected) return;
      this.#custom = custom;
      const previous = keep ? (this.#walk?.state ?? this.#kept) : undefined;
      this.#kept = null;
      this.#walk?.destroy();
      this.#walk = null;
      const id = previous?.scene ?? custom?.id ?? this.getAttribute("scene") ?? scenes[0].id;
      // The element shows the five scenes and custom ones; the labs are on the page.
      const list = custom ? [custom] : teaching;
      if (!list.some((s) => s.id === id)) {
        throw new Error(`scene: "${id}" is not a scene (${teaching.map((s) => s.id).join(", ")})`);
      }
      this.#walk = createWalkthrough(this.#root, {
        core,
        scenes: this.hasAttribute("nav") ? list : list.filter((s) => s.id === id),
        state: {
          ...pick(previous, ["edits", "alpha", "causal", "digits", "speed", "seed", "focus"]),
          scene: id,
          lang: this.#lang(),
          step: previous?.step ?? this.#step(),
          predict: this.#predict(),
        },
        nav: this.hasAttribute("nav"),
        controls: this.hasAttribute("controls"),
        compact,
        keyTarget: this.#root,
        onChange: (state, stepChanged) => {
          // A language picked inside (with nav) becomes the element's own.
          if (state.lang !== this.#lang()) this.setAttribute("lang", state.lang);
          if (stepChanged) {
            // The step attribute follows, so setting it again later always moves.
            this.setAttribute("step", String(state.step + 1));
            this.dispatchEvent(
              new CustomEvent("stepchange", {
                bubbles: true,
                detail: {
                  scene: state.scene,
                  step: state.step + 1,
                  stepId: state.stepId,
                  total: state.steps.length,
                },
              }),
            );
          }
        },
      });
      this.dispatchEvent(
        new CustomEvent("ready", { bubbles: true, detail: { scene: this.#walk.state.scene } }),
      );
    } catch (error) {
      if (loading === this.#loading) this.#fail(error, true);
    }
  }

  // A custom scene from the scene property, the src attribute or an inline JSON script, or null
  // for a built-in one.
  async #customScene() {
    if (this.#sceneObject) return parseScene(this.#sceneObject);
    const src = this.getAttribute("src");
    if (src) {
      // A scene that does not arrive whole within srcTimeout is given up, never waited for.
      const shownSrc = src.length > 80 ? `${src.slice(0, 80)}…` : src;
      const timeout = AbortSignal.timeout(srcTimeout);
      let text;
      try {
        const response = await fetch(new URL(src, document.baseURI), { signal: timeout });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const length = Number(response.headers.get("content-length"));
        if (length > maxSceneLength) throw new Error(`${length} bytes, over the limit`);
        text = await response.text();
      } catch (error) {
        const reason = timeout.aborted
          ? `no whole answer within ${srcTimeout / 1000} s`
          : error.message;
        throw new Error(`src: could not load ${shownSrc} (${reason})`);
      }
      return parseScene(text);
    }
    const inline = () => this.querySelector('script[type="application/json"]');
    // An element parsed from the page's HTML after its class was defined (a notebook exported
    // to HTML) is connected before its children are parsed: without a scene attribute, its
    // inline scene may still be on its way.
    if (!inline() && !this.hasAttribute("scene") && document.readyState === "loading") {
      await new Promise((ready) =>
        document.addEventListener("DOMContentLoaded", ready, { once: true }),
      );
    }
    return inline() ? parseScene(inline().textContent) : null;
  }

  // Shows the message inside the element (replacing it when nothing could be shown) and
  // fires an `error` event. Never throws.
  #fail(error, replace = false) {
    const message = error?.message ?? String(error);
    if (replace || !this.#walk) {
      this.#walk?.destroy();
      this.#walk = null;
      const box = document.createElement("p");
      box.className = "embed-error";
      box.setAttribute("role", "alert");
      box.textContent = `attention-walkthrough: ${message}`;
      this.#root.replaceChildren(box);
    }
    this.dispatchEvent(new CustomEvent("error", { detail: { message } }));
  }
}

function pick(object, keys) {
  return Object.fromEntries(
    keys.filter((k) => object?.[k] !== undefined).map((k) => [k, object[k]]),
  );
}

if (globalThis.customElements && !customElements.get("attention-walkthrough")) {
  customElements.define("attention-walkthrough", AttentionWalkthrough);
}
