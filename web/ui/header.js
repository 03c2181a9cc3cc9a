// ui/header.js: on the page, links that skip to the player and to the step (the first Tab
// stops, shown when focused); the title, the language switch (unless a class link hides it),
// and on the page the glossary, the embedding link, "share with a class" and "copy link".
import { el } from "../views.js";
import { languages } from "../i18n/index.js";

// A link past everything above `target`: it focuses `focus` there (the player's Play button, the
// step's title), so that the next keys act on it, and brings it to the top of the screen (below
// the sticky player: the page's scroll padding), with what follows it in view.
const skip = (root, target, focus, text) =>
  el("a", {
    href: `#${target}`,
    text,
    onclick: (event) => {
      event.preventDefault();
      const to = root.querySelector(focus);
      to?.focus({ preventScroll: true });
      to?.scrollIntoView({ block: "start" });
    },
  });

export function header({ msg, state, host, update, root, glossary }) {
  const status = el("span", { class: "status", role: "status" });
  return el(
    "header",
    {},
    host.page &&
      el(
        "nav",
        { class: "skip", "aria-label": msg.ui.skipLinks },
        skip(root, "player", "#play", msg.ui.skipPlayer),
        skip(root, "step-title", "#step-title", msg.ui.skipStep),
      ),
    el(host.page ? "h1" : "p", { class: "title", text: msg.title }),
    el("p", { class: "tagline", text: msg.tagline }),
    el(
      "div",
      { class: "tools", role: "group", "aria-label": msg.ui.language },
      !state.hide.includes("lang") &&
        Object.values(languages).map((m) =>
          el("button", {
            type: "button",
            id: `lang-${m.lang}`,
            lang: m.htmlLang,
            "aria-pressed": String(m.lang === state.lang),
            text: m.languageName,
            // until the other language's words are in (the page loads one: the header is drawn
            // again then, or with the notice that they could not load), the button says so
            onclick: (event) => {
              if (m.lang !== state.lang) event.currentTarget.setAttribute("aria-busy", "true");
              update({ lang: m.lang }, { announce: true });
            },
          }),
        ),
      glossary &&
        el("button", {
          type: "button",
          id: "glossary-open",
          "aria-expanded": "false",
          "aria-controls": "glossary-panel",
          text: msg.glossary.open,
          onclick: (event) => glossary.openIndex(event.currentTarget),
        }),
      host.page && el("a", { href: "embedding.html", text: msg.ui.embed }),
      // the teacher's panel at the foot of the page, opened there
      host.page &&
        !state.hide.includes("share") &&
        el("a", {
          href: "#share",
          id: "share-open",
          text: msg.share.open,
          onclick: (event) => {
            const panel = root.querySelector("#share");
            if (!panel) return;
            event.preventDefault();
            panel.open = true;
            const summary = panel.querySelector("summary");
            summary.focus({ preventScroll: true });
            summary.scrollIntoView({ block: "start" });
          },
        }),
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
