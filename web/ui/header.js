// ui/header.js: the title, the language switch, and on the page the embedding link and
// "copy link".
import { el } from "../views.js";
import { messages } from "../i18n/index.js";

export function header({ msg, state, host, update }) {
  const status = el("span", { class: "status", role: "status" });
  return el(
    "header",
    {},
    el(host.page ? "h1" : "p", { class: "title", text: msg.title }),
    el("p", { class: "tagline", text: msg.tagline }),
    el(
      "div",
      { class: "tools", role: "group", "aria-label": msg.ui.language },
      Object.values(messages).map((m) =>
        el("button", {
          type: "button",
          id: `lang-${m.lang}`,
          lang: m.htmlLang,
          "aria-pressed": String(m.lang === state.lang),
          text: m.languageName,
          onclick: () => update({ lang: m.lang }, { announce: true }),
        }),
      ),
      host.page && el("a", { href: "embedding.html", text: msg.ui.embed }),
      host.page &&
        el("button", {
          type: "button",
          id: "copy-link",
          text: msg.ui.copyLink,
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(location.href);
              status.textContent = msg.ui.copied;
            } catch {
              status.textContent = msg.ui.copyFailed;
            }
          },
        }),
      status,
    ),
  );
}
