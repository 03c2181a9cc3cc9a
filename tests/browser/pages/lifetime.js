// lifetime.js: the page of lifetime.html, the walkthrough with every scene, and its core in
// reach of the test (window.core), so that it can read the WASM heap between actions.
import { loadAttention } from "../../../web/attention.js";
import { createWalkthrough } from "../../../web/walkthrough.js";
import { scenes } from "../../../web/scenes.js";

const root = document.getElementById("app");
window.core = await loadAttention();
window.walk = createWalkthrough(root, {
  core: window.core,
  scenes,
  state: { lang: "en" },
  page: true,
  keyTarget: window,
});
root.dataset.ready = "true";
