// app.js: the walkthrough page. The whole state lives in the URL, so a link restores it.
import { loadAttention } from "./attention.js";
import { resolveScene } from "./lab.js";
import { scenes as listed, lessons } from "./catalogue.js";
import { createWalkthrough, messages, stateFromParams } from "./walkthrough.js";
import { classFromParams } from "./state.js";
import { questionsOf, answersOf } from "./quiz.js";
import { keep } from "./prerendered.js";
import { languages, loadLanguage } from "./i18n/index.js";

const root = document.getElementById("app");
const params = new URLSearchParams(location.search);
// A link to a lab loads the lab's code first; if it cannot, the page opens on the first scene.
// (A class link opens its path's first scene when it names none of the path.)
const opening = listed.find((s) => s.id === classFromParams(params, listed).opening);
const scenes = opening?.lazy
  ? await resolveScene(opening).then(
      (scene) => listed.map((s) => (s === opening ? scene : s)),
      () => listed,
    )
  : listed;
const state = stateFromParams(params, scenes);
document.documentElement.lang = languages[state.lang].htmlLang;
// the words of the language shown (the page's start has requested them with the rest)
await loadLanguage(state.lang);
// The view prerendered for this URL (generated/start.js drew it: the same DOM as the live
// one) stays until the live one replaces it, with what the learner did in it; without one, the
// page says that it is loading, and a view still coming is not drawn.
const prerendered = root.dataset.firstView?.startsWith(
  `${state.scene}:${state.lang}:${state.step + 1}:`,
);
delete root.dataset.coming;
if (!prerendered) root.textContent = messages[state.lang].loading;

// the state to write into the URL at the end of this task, as URL parameters (the walkthrough
// knows the scene as loaded: a lab opened from the page has its own parameters)
let latest;
function writeUrl() {
  const search = `?${latest()}`;
  latest = undefined;
  if (search !== location.search) history.replaceState(null, "", `${location.pathname}${search}`);
}

const core = await loadAttention();
const again = prerendered ? keep(root) : () => {};
delete root.dataset.firstView;
const walkthrough = createWalkthrough(root, {
  core,
  scenes,
  lessons,
  quiz: { questionsOf, answersOf },
  state,
  page: true,
  keyTarget: window,
  // Changes made in one go (a script picking many cells) write the URL once: browsers
  // throttle history calls.
  onChange(now, stepChanged, link) {
    const first = latest === undefined;
    latest = link;
    if (first) queueMicrotask(writeUrl);
  },
});
again();
// Back (or Forward) to an entry the page pushed (the check, left for the step a wrong answer
// links to): the scene and step of that URL
addEventListener("popstate", () => {
  const back = new URLSearchParams(location.search);
  walkthrough.show(back.get("scene"), Number(back.get("step") ?? 1) - 1);
});
root.dataset.ready = "true";
