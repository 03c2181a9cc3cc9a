// i18n/index.js: the page's languages, by code. Each file has the same keys.
import en from "./en.js";
import zh from "./zh.js";

export const messages = { en, zh };
