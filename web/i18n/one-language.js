// i18n/one-language.js: i18n/index.js as the page has it (tools/bundle.mjs puts it in that
// module's place in the page's bundle): `messages` holds the languages loaded so far, and
// loadLanguage loads one, so that a page in Chinese does not load the English words, nor the
// other way round (each is a chunk of its own, which the page's start requests with the rest).
import { languages, withNames } from "./languages.js";

export { languages };
export const messages = {};

const files = { en: () => import("./en.js"), zh: () => import("./zh.js") };

/**
 * Makes sure that `lang`'s words are in `messages`: undefined when they are already, else a
 * promise that resolves once they are (and rejects when its file cannot load).
 */
export function loadLanguage(lang) {
  if (Object.hasOwn(messages, lang)) return undefined;
  return files[lang]().then(({ default: words }) => {
    messages[lang] ??= withNames(lang, words);
  });
}
