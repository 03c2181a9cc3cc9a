// labs/gpt/glosses.js: the next character's top five for English readers: each with its
// pinyin and a short gloss (glosses.json, from CC-CEDICT by tools/glosses.mjs), and ⏎, � and
// the marks named. Only where the page's language has glosses (English): a Chinese reader
// reads the characters.
import { el } from "../../views.js";
import { numbers } from "../kit.js";

/** The top five as a table: the character, its pinyin, what it means. */
export function glossPanel({ trace, msg }, glosses) {
  const w = msg.gptLab;
  if (!w.glossTitle) return null;
  const rows = trace.next.chars.map((c) => {
    const [pinyin, gloss] = glosses[c] ?? ["", w.markNames[c] ?? ""];
    return [c, pinyin, gloss];
  });
  return el(
    "div",
    { class: "why-note", id: "next-glosses" },
    numbers("why-numbers model-glosses", w.glossTitle, [w.pinyin, w.meaning], rows),
    el("p", { class: "note", text: w.glossSource }),
  );
}
