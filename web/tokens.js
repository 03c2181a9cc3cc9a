// tokens.js: the small model's tokenizer, one for the page's model lab and for the JS API
// (attention.js exports gptEncode and gptDecode from here). A model's vocabulary is its
// tang.json's `chars`: id 0 ends a poem (⏎, and a poem starts after one), id 1 is any character
// the model does not know (�), and character i of `chars` is id i + 2. A typed line is read as
// the poems are written: no spaces, and ASCII punctuation full width; a line of a learner's own
// text as it is written (textEncode). Pure: no DOM, no core.

// ASCII punctuation as the poems write it, full width.
const fullWidth = { ",": "，", ".": "。", "?": "？", "!": "！", ";": "；", ":": "：" };

/** The characters the model reads from a typed line: no spaces; ASCII punctuation full width. */
export const readOf = (text) => [...text.replace(/\s/g, "")].map((c) => fullWidth[c] ?? c);

let index = { chars: null, ids: new Map() }; // the last vocabulary's character → id

function idsOf(chars) {
  if (typeof chars !== "string") throw new Error("chars must be the model's characters, a string");
  if (index.chars !== chars) index = { chars, ids: new Map([...chars].map((c, i) => [c, i + 2])) };
  return index.ids;
}

/** A line of a learner's own text as token ids, every character as written (spaces too): the
 * end token first, then each character's id (unknown → 1). */
export function textEncode(text, chars) {
  if (typeof text !== "string") throw new Error("text must be a string");
  const ids = idsOf(chars);
  return [0, ...[...text].map((c) => ids.get(c) ?? 1)];
}

/** A line as token ids: the end token first, then each character's id (unknown → 1). */
export function gptEncode(text, chars) {
  if (typeof text !== "string") throw new Error("text must be a string");
  const ids = idsOf(chars);
  return [0, ...readOf(text).map((c) => ids.get(c) ?? 1)];
}

/** A token's character: ⏎ for the end token, � for the unknown one (chars: a string or an array). */
export function charOf(t, chars) {
  return t === 0 ? "⏎" : t === 1 ? "�" : chars[t - 2];
}

/** Token ids as text, ⏎ and � included. */
export function gptDecode(tokens, chars) {
  const list = [...idsOf(chars).keys()];
  return Array.from(tokens, (t) => {
    if (!Number.isInteger(t) || t < 0 || t >= list.length + 2) {
      throw new Error(`token ${t} is not an id from 0 to ${list.length + 1}`);
    }
    return t === 0 ? "⏎" : t === 1 ? "�" : list[t - 2];
  }).join("");
}
