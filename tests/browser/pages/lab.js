// lab.js: the page of lab.html, a walkthrough of a test-only lab beside a built-in scene, and
// the same lab loaded lazily.
import { loadAttention } from "../../../web/attention.js";
import { createWalkthrough } from "../../../web/walkthrough.js";
import { scenes } from "../../../web/scenes.js";
import { tinyScene } from "../../fixtures/tiny-lab.js";

const root = document.getElementById("app");
window.walk = createWalkthrough(root, {
  core: await loadAttention(),
  scenes: [
    tinyScene,
    scenes.find((s) => s.id === "dictionary"),
    // Lazy: its module and the labs module load when it opens. Its name is there before.
    {
      id: "tiny-lazy",
      lazy: () => import("../../fixtures/tiny-lab-lazy.js"),
      text: { en: { name: "Softmax, loaded late" }, zh: { name: "晚些加载的 softmax" } },
    },
  ],
  state: { lang: "en" },
  nav: true,
  controls: true,
});
root.dataset.ready = "true";
