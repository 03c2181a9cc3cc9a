// app.js: the walkthrough page. The whole state lives in the URL, so a link restores it.
import { loadAttention } from "./attention.js";
import { scenes } from "./scenes.js";
import { createWalkthrough, messages, stateFromParams, paramsFromState } from "./walkthrough.js";

const root = document.getElementById("app");
const state = stateFromParams(new URLSearchParams(location.search), scenes);
document.documentElement.lang = messages[state.lang].htmlLang;
root.textContent = messages[state.lang].loading;

const core = await loadAttention();
createWalkthrough(root, {
  core,
  scenes,
  state,
  page: true,
  keyTarget: window,
  onChange(now) {
    const scene = scenes.find((s) => s.id === now.scene);
    history.replaceState(null, "", `${location.pathname}?${paramsFromState(now, scene)}`);
  },
});
root.dataset.ready = "true";
