// words.js: the strings a scene is shown with: the page's (web/i18n/) for a language, with its
// lab's own words and a custom scene's words merged in. Pure: no DOM, no core.
import { messages } from "./i18n/index.js";

// The first of `patterns` ([regexp, say]) that matches the message, said; else undefined.
function translated(patterns, message) {
  for (const [pattern, say] of patterns) {
    const m = message.match(pattern);
    if (m) return say(...m.slice(1));
  }
  return undefined;
}

/**
 * The strings for `lang`, with the lab's own words and a custom scene's words merged in. A
 * lab's `coreErrors` ([regexp, say]) are tried before the page's own translations of the
 * core's messages.
 */
export function wordsFor(lang, scene) {
  let msg = messages[lang];
  const { coreErrors, ...own } = scene.lab?.words?.[lang] ?? {};
  if (coreErrors || Object.keys(own).length) {
    const page = msg;
    msg = { ...msg };
    for (const [key, value] of Object.entries(own)) {
      msg[key] = typeof value === "object" ? { ...msg[key], ...value } : value;
    }
    // a lab's scenes keep the names the page gives them (web/labs/names.js)
    for (const [id, words] of Object.entries(own.scenes ?? {})) {
      msg.scenes[id] = { ...page.scenes[id], ...words };
    }
    if (coreErrors) {
      msg.coreError = (message) => translated(coreErrors, message) ?? page.coreError(message);
    }
  }
  const custom = scene.text?.[lang];
  return custom ? { ...msg, scenes: { ...msg.scenes, [scene.id]: custom } } : msg;
}
