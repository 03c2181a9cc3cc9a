// i18n/index.js: the page's languages, by code. Each file has the same keys; the labs' names for
// the scene list are merged in from web/labs/names.js, their one place.
import en from "./en.js";
import zh from "./zh.js";
import { labNames } from "../labs/names.js";

const named = (msg) => {
  const scenes = { ...msg.scenes };
  for (const [id, name] of Object.entries(labNames)) {
    scenes[id] = { ...scenes[id], name: name[msg.lang] };
  }
  return { ...msg, scenes };
};

export const messages = { en: named(en), zh: named(zh) };
