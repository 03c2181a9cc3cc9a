// i18n/languages.js: the page's languages, by code: each one's name for itself and its HTML
// language tag, without its words (i18n/en.js, i18n/zh.js), and the words as the page uses them
// (`withNames`: these fields, and the labs' names for the scene list from web/labs/names.js,
// their one place).
import { labNames } from "../labs/names.js";

export const languages = {
  en: { lang: "en", htmlLang: "en", languageName: "English" },
  zh: { lang: "zh", htmlLang: "zh-CN", languageName: "中文" },
};

/** One language's words (its i18n file's default export) as the page uses them. */
export function withNames(lang, words) {
  const scenes = { ...words.scenes };
  for (const [id, name] of Object.entries(labNames)) {
    scenes[id] = { ...scenes[id], name: name[lang] };
  }
  return { ...languages[lang], ...words, scenes };
}
