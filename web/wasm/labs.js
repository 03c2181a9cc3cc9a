// wasm/labs.js: the labs module's functions, lesson by lesson as src/wasm/ binds them (the core's
// own come from core.js's wrap). attention.js's loadLabs imports this file when a lab opens, with
// the labs module itself, so that the page's first view carries none of it.
import { insideLabs } from "./inside.js";
import { whyLabs } from "./why.js";
import { learnLabs } from "./learn.js";
import { gptLabs } from "./gpt.js";
import { modelFileLabs } from "./model-files.js";
import { realLabs } from "./real.js";

/** Every lesson's functions on the labs module's instance `core`. */
export function labsOf(core) {
  return {
    ...insideLabs(core),
    ...whyLabs(core),
    ...learnLabs(core),
    ...gptLabs(core),
    ...modelFileLabs(core),
    ...realLabs(core),
  };
}
