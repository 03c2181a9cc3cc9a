// lab.js: the page of lab.html, a walkthrough of a test-only lab beside a built-in scene.
import { loadAttention } from "../../../web/attention.js";
import { createWalkthrough } from "../../../web/walkthrough.js";
import { scenes } from "../../../web/scenes.js";
import { tinyScene } from "../../fixtures/tiny-lab.js";

const root = document.getElementById("app");
window.walk = createWalkthrough(root, {
  core: await loadAttention(),
  scenes: [tinyScene, scenes[2]],
  state: { lang: "en" },
  nav: true,
  controls: true,
});
root.dataset.ready = "true";
