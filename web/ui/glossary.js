// ui/glossary.js: the glossary on the page. After each redraw, the first time each word of
// web/i18n/glossary.js appears in the scene's prose (paragraphs, list items, captions: not
// headings, tables, controls or pictures; only what is drawn, so not a closed details' text or a
// wide screen's copy on a phone) it becomes a button that opens its entry, and only that first
// time. The entry, or the whole glossary (the header's button), opens in one panel beside the
// walkthrough: a non-modal dialog that Escape or its close button closes, returning the focus
// to the button that opened it; on a phone it fills the screen's width at the bottom.
import { el } from "../views.js";
import { glossary, entryOf, patternsFor, whereHref } from "../i18n/glossary.js";

// Where words are linked: text in these, and in none of `skipped` (a live region, or a text that
// its panel rewrites as it goes, marked data-glossary="off", is read or changed too often).
const prose = "p, li, figcaption, dd";
const skipped =
  "a, button:not(.term), label, select, option, textarea, input, svg, summary, table, h1, h2, h3, h4, h5, h6, pre, code, [aria-hidden='true'], .visually-hidden, [aria-live], [role='status'], [data-glossary='off']";

const patterns = { en: patternsFor("en"), zh: patternsFor("zh") };

// Whether an element is drawn: not hidden, nor in a closed details (which keeps its boxes).
const drawn = (element) =>
  element.checkVisibility?.() ??
  (element.getClientRects().length > 0 && !element.closest("details:not([open]) > :not(summary)"));

/** The prose text nodes under `root` that are drawn, in the order they are read. */
export function proseText(root) {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent?.closest(prose) && !parent.closest(skipped) && drawn(parent)) {
      nodes.push(node);
    }
  }
  return nodes;
}

// A term's button around `text` (a text node, moved inside it).
function termButton(id, text, open) {
  const button = el("button", {
    type: "button",
    class: "term",
    "data-term": id,
    "aria-expanded": "false",
    "aria-controls": "glossary-panel",
  });
  text.replaceWith(button);
  button.append(text);
  button.addEventListener("click", () => open(id, button));
  return button;
}

// Takes a term's button away, leaving its words.
function unwrap(button) {
  const parent = button.parentNode;
  button.replaceWith(...button.childNodes);
  parent?.normalize();
}

// The first match of `pattern` in `nodes` (the prose's), outside the buttons of other terms.
function firstMatch(nodes, id, pattern) {
  for (const [at, node] of nodes.entries()) {
    const owner = node.parentElement.closest(".term");
    if (owner && owner.dataset.term !== id) continue;
    pattern.lastIndex = 0;
    const m = pattern.exec(node.data);
    if (m) return { at, node, start: m.index, end: m.index + m[0].length, owner };
  }
  return undefined;
}

/**
 * The page's glossary: { panel (to place once, outside what is redrawn), link(root, lang, msg)
 * after each redraw, openIndex(opener, msg) }.
 */
export function createGlossary({ go } = {}) {
  const title = el("h2", { id: "glossary-title" });
  const body = el("div", { class: "glossary-body" });
  const close = el("button", { type: "button", class: "glossary-close" });
  const panel = el(
    "div",
    {
      id: "glossary-panel",
      class: "glossary-panel",
      role: "dialog",
      "aria-modal": "false",
      "aria-labelledby": "glossary-title",
      tabindex: -1,
      hidden: true,
    },
    el("div", { class: "glossary-head" }, title, close),
    body,
  );
  let opener; // the button that opened the panel
  let words; // the page's strings now

  const entryNodes = (entry, lang, heading) => {
    const e = entry[lang];
    return [
      heading && el(heading, { text: e.term }),
      el("p", { text: e.text }),
      el("p", { class: "glossary-formula", text: e.formula }),
      el(
        "p",
        { class: "glossary-where" },
        words.glossary.computedIn,
        " ",
        el("a", {
          href: whereHref(entry, lang),
          text: words.glossary.where(words.scenes[entry.where.scene].name, entry.where.step),
          // in place, as the scene list's links open a scene: the panel closes and the
          // scene's title takes the focus (a page load would leave it on the page)
          onclick: (event) => {
            if (!go) return;
            event.preventDefault();
            shut({ refocus: false });
            go(entry.where);
          },
        }),
      ),
    ];
  };

  function shut({ refocus = true } = {}) {
    if (panel.hidden) return;
    panel.hidden = true;
    panel.ownerDocument.removeEventListener("keydown", onEscape, true);
    opener?.setAttribute("aria-expanded", "false");
    if (refocus && opener?.isConnected) opener.focus();
    opener = undefined;
  }

  function show(button, heading, nodes) {
    opener?.setAttribute("aria-expanded", "false");
    opener = button;
    button.setAttribute("aria-expanded", "true");
    title.textContent = heading;
    close.textContent = words.glossary.close;
    body.replaceChildren(...nodes.flat().filter(Boolean));
    panel.hidden = false;
    panel.ownerDocument.addEventListener("keydown", onEscape, true);
    panel.focus();
  }

  function open(id, button) {
    if (opener === button && !panel.hidden) return shut();
    const lang = words.lang;
    const entry = entryOf(id);
    const all = el("button", {
      type: "button",
      class: "glossary-all",
      text: words.glossary.all,
      onclick: () => openIndex(button),
    });
    show(button, entry[lang].term, [entryNodes(entry, lang), el("p", {}, all)]);
  }

  function openIndex(button) {
    if (opener === button && !panel.hidden) return shut();
    const lang = words.lang;
    const items = glossary.map((entry) =>
      el("li", { id: `glossary-${entry.id}` }, entryNodes(entry, lang, "h3")),
    );
    show(button, words.glossary.title, [el("ul", { class: "glossary-index" }, items)]);
  }

  // Escape closes the panel wherever the focus is while it is open
  const onEscape = (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    event.stopPropagation();
    shut();
  };
  close.addEventListener("click", shut);

  /** Links each term's first appearance under `root`, and no other. */
  function link(root, msg) {
    if (words && words.lang !== msg.lang) shut();
    words = msg;
    panel.lang = msg.htmlLang;
    const active = root.ownerDocument.activeElement;
    // every button but the focused one or the panel's opener goes; the first appearances are
    // found again below
    for (const button of root.querySelectorAll("button.term")) {
      if (button !== active && button !== opener) unwrap(button);
    }
    // the prose is read once, and kept up to date as words are wrapped
    let nodes = proseText(root);
    for (const { id, pattern } of patterns[msg.lang]) {
      let first = firstMatch(nodes, id, pattern);
      const stale = [...root.querySelectorAll(`button.term[data-term="${id}"]`)].filter(
        (button) => button !== first?.owner,
      );
      if (stale.length) {
        stale.forEach(unwrap);
        nodes = proseText(root);
        first = firstMatch(nodes, id, pattern);
      }
      if (!first || first.owner) continue;
      const word = first.node.splitText(first.start);
      const after = word.splitText(first.end - first.start);
      termButton(id, word, open);
      nodes.splice(first.at + 1, 0, word, after);
    }
  }

  return { panel, link, openIndex, shut };
}
