// labs/gpt/helps.js: what the heads the lab names help to predict, measured by switching
// them off (ablation.json, written by tools/ablation.mjs): the held-out loss on the characters
// and on the punctuation marks, with and without them, and why each helps. Drawing only: the
// losses are measured; the one piece of arithmetic here is e^L, the "1 in N" of a loss.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { oneIn } from "./meaning.js";

const marks = new Set([..."，。？！、：；“”《》"]);

/** What a target token is: ⏎ ("end"), a punctuation mark, or a character (the unknown one too). */
export const targetKind = (t, chars) =>
  t === 0 ? "end" : t >= 2 && marks.has(chars[t - 2]) ? "mark" : "character";

/** The roles step's why: each named group of heads switched off, and what it was for. */
export function helpsPanel({ msg }, ablation) {
  const w = msg.gptLab;
  const at2 = (x) => fmt(x, 2);
  const { full, targets } = ablation;
  return el(
    "div",
    { class: "why-note", id: "heads-help" },
    el("p", { text: w.switchedOff }),
    ablation.off.map((group) =>
      el("p", {
        id: `without-${group.role}`,
        text:
          w.without(
            group.heads.map(([l, h]) => w.where(l, h)),
            w.relations[group.role],
            { characters: targets.character, marks: targets.mark },
            [at2(full.character), at2(group.character)],
            [at2(full.mark), at2(group.mark)],
            [oneIn(full.mark, 2), oneIn(group.mark, 2)],
          ) + (w.helps[group.role] ? `${w.sentenceGap}${w.helps[group.role]}` : ""),
      }),
    ),
  );
}
