// prerendered.js: the views drawn at build time (tools/prerender.mjs), in the page. viewFor picks
// the one a URL asks for, draw puts it into #app (web/start.js, the classic script index.html runs
// before its first paint), and keep carries what the learner did in it through the live page's
// takeover (app.js).
import { markScrollers } from "./ui/scroll-cue.js";
import { showCurrent } from "./ui/scene-list.js";
import { litInView } from "./focus.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * The key ("scene:lang:step") of the prerendered view that these URL parameters open, or
 * undefined: a view is prerendered for each step of each walkthrough in each language, and a URL
 * is read as one only when it says nothing else (scene, step and lang, each at most once, the
 * step one of the scene's `steps`, written as the page writes it; no step: the first; no lang: the
 * browser's, as state.js's defaultLang). Anything else waits for the live page. The first
 * scene's first step is in index.html; any other view is the file
 * generated/views/<scene>-<lang>-<step>.json.
 */
export function viewFor(params, { scenes, langs, steps, languages }) {
  const keys = [...params.keys()];
  if (keys.some((k, i) => !["scene", "step", "lang"].includes(k) || keys.indexOf(k) !== i))
    return undefined;
  const scene = params.get("scene") ?? scenes[0];
  const lang = params.get("lang") ?? browserLang(languages);
  if (!scenes.includes(scene) || !langs.includes(lang)) return undefined;
  const step = params.get("step") ?? "1";
  if (!/^[1-9][0-9]*$/.test(step) || Number(step) > steps[scene]) return undefined;
  return `${scene}:${lang}:${step}`;
}

/**
 * The language the live page shows for these URL parameters (state.js reads it the same way): a
 * known `lang` (the first, if repeated), else the browser's: Chinese if it asks for it, else
 * English.
 */
export function langOf(params, { langs, languages }) {
  const asked = params.get("lang");
  return langs.includes(asked) ? asked : browserLang(languages);
}

// The browser's language as the page reads it (state.js's defaultLang): Chinese if it asks for
// it, else English.
const browserLang = (languages) => (languages.some((l) => /^zh/i.test(l)) ? "zh" : "en");

// A node from its data (tools/prerender.mjs): text a string, a comment null, an element
// [tag, attributes, ...child ids] in the table. A style goes through the CSSOM, which a strict
// CSP allows, as views.js's el() sets it.
function node(table, id) {
  if (typeof id === "string") return document.createTextNode(id);
  if (id === null) return document.createComment("");
  const [tag, attributes, ...children] = table[id];
  const element = tag.startsWith("svg:")
    ? document.createElementNS(SVG, tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name !== "style") element.setAttribute(name, value);
    else
      for (const rule of value.split(";").filter((r) => r.trim())) {
        const at = rule.indexOf(":");
        element.style.setProperty(rule.slice(0, at).trim(), rule.slice(at + 1).trim());
      }
  }
  element.append(...children.map((c) => node(table, c)));
  return element;
}

/**
 * Draws a view into root (its elements are ids in table): the narrow column's or the wide one's,
 * as style.css decides for this root (a probe of the wide screen's copy of the analogy, which a
 * narrow column hides), then what the live page does once drawn (the scroll cues, the current
 * scene and lit cells in view).
 */
export function draw(root, { table, view, key }) {
  const shell = root.ownerDocument.createElement("div");
  shell.className = "walkthrough page";
  const probe = shell.appendChild(root.ownerDocument.createElement("div"));
  probe.className = "about-wide";
  root.replaceChildren(shell);
  const width = getComputedStyle(probe).display === "none" ? "narrow" : "wide";
  root.replaceChildren(...view[width].map((id) => node(table, id)));
  document.title = view.title;
  document.documentElement.lang = view.htmlLang;
  markScrollers(root, view.scrollHint);
  showCurrent(root);
  litInView(root);
  root.dataset.firstView = `${key}:${width}`;
  // a button pressed before the live page takes over (→ tapped while it loads) is kept by its id,
  // and a player's key (← → Home End) pressed outside a field as key:<name>, in order, for the
  // live page to do again (keep); the live page ends the view's data-first-view
  const did = (what) => (root.dataset.pressed = `${root.dataset.pressed ?? ""} ${what}`.trim());
  root.addEventListener(
    "click",
    (event) => {
      const id = root.dataset.firstView && event.target.closest?.("button[id]")?.id;
      if (id) did(id);
    },
    true,
  );
  // keys: on the whole document, as the live page hears them (a keyboard learner starts with
  // nothing focused)
  root.ownerDocument.addEventListener(
    "keydown",
    (event) => {
      if (!root.dataset.firstView || !playerKeys.includes(event.key)) return;
      if (event.target.closest?.("input, select, textarea")) return;
      did(`key:${event.key}`);
    },
    true,
  );
}

const playerKeys = ["ArrowLeft", "ArrowRight", "Home", "End"];

// Whether a field differs from how it was drawn: a box ticked, a slider moved, a choice made, a
// number typed.
function changed(field) {
  if (field.type === "checkbox" || field.type === "radio")
    return field.checked !== field.defaultChecked;
  if (field.localName === "select")
    return [...field.options].some((o) => o.selected !== o.defaultSelected);
  return field.value !== field.defaultValue;
}

// An element's place under root, as child indices (text nodes aside: the live page may split
// and join them).
function pathOf(root, element) {
  const path = [];
  for (let e = element; e !== root; e = e.parentElement)
    path.unshift([...e.parentElement.children].indexOf(e));
  return path;
}
const at = (root, path) => path.reduce((e, i) => e?.children[i], root);

/**
 * What the learner did in the prerendered view under root (the explanations opened or closed,
 * how far each row was scrolled sideways, the fields changed, the buttons and the player's keys
 * pressed, the focus); returns the function that does it again, in that order, in the live view
 * that replaces it, the same DOM (a field through its input and change events, as a learner's
 * change comes to the live page).
 */
export function keep(root) {
  const pressed = root.dataset.pressed?.split(" ") ?? [];
  delete root.dataset.pressed;
  const fields = [...root.querySelectorAll("input, select, textarea")]
    .filter(changed)
    .map((f) => [
      pathOf(root, f),
      f.type === "checkbox" || f.type === "radio" ? f.checked : f.value,
    ]);
  const active = root.ownerDocument.activeElement;
  const focus = active !== root && root.contains(active) ? pathOf(root, active) : undefined;
  const open = [...root.querySelectorAll("details")].map((d) => [pathOf(root, d), d.open]);
  const scrolled = [...root.querySelectorAll(".scroll")]
    .filter((s) => s.scrollLeft)
    .map((s) => [pathOf(root, s), s.scrollLeft]);
  return () => {
    for (const [path, isOpen] of open) {
      const details = at(root, path);
      if (details?.localName === "details" && details.open !== isOpen) details.open = isOpen;
    }
    for (const [path, left] of scrolled) {
      const scroller = at(root, path);
      if (scroller) scroller.scrollLeft = left;
    }
    for (const [path, value] of fields) {
      const field = at(root, path);
      if (!field) continue;
      if (typeof value === "boolean") field.checked = value;
      else field.value = value;
      for (const type of ["input", "change"])
        field.dispatchEvent(new Event(type, { bubbles: true }));
    }
    for (const what of pressed) {
      if (!what.startsWith("key:")) root.ownerDocument.getElementById(what)?.click();
      else {
        const key = what.slice(4);
        const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
        (root.ownerDocument.activeElement ?? root).dispatchEvent(event);
      }
    }
    if (focus) at(root, focus)?.focus({ preventScroll: true });
  };
}
