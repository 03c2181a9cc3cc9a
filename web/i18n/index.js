// i18n/index.js: the page's languages, by code, each with its words (i18n/languages.js). Each
// words file has the same keys. The page itself loads only the language it shows
// (i18n/one-language.js, which tools/bundle.mjs puts in this module's place in the page's
// bundle); everything else (the element, Node, the tests) has both here at once.
import en from "./en.js";
import zh from "./zh.js";
import { languages, withNames } from "./languages.js";

export { languages };
export const messages = { en: withNames("en", en), zh: withNames("zh", zh) };

/** Makes sure that `lang`'s words are in `messages`: here they always are (undefined). */
export const loadLanguage = () => undefined;
