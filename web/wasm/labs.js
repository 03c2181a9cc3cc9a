// wasm/labs.js: the labs module's functions, lesson by lesson as src/wasm/ binds them (the core's
// own come from core.js's wrap), for attention.js's loadLabs.
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
