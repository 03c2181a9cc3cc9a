// labs/inside/data.js: the hand-built layer that the four model labs share, as data.
// 我在图书馆读书 ("I read in the library"), shortened from article 004's sentence
// 我昨天在图书馆读了一本很有趣的书. Every derived number comes from the core; only inputs live here.
// tests/fixtures/inside_labs.py holds the same inputs and works the expected numbers out in
// float64 NumPy, apart from the core.

export const tokens = ["我", "在", "图书馆", "读", "书"];

// The features of X, by column: five kinds of word, and two hand-made position features: a
// point on a circle that turns 60° per token (cos, sin), so that a head can find "the token
// before me" (see the word-order lab for positions that a model computes).
export const dims = ["person", "function", "place", "action", "thing", "pos1", "pos2"];

const c = 0.5; // cos 60°
const s = 0.866; // sin 60°, to 3 decimals

// X (5, 7): 我, 在, 图书馆, 读, 书
export const x = [
  [1, 0, 0, 0, 0, 1, 0],
  [0, 1, 0, 0, 0, c, s],
  [0, 0, 1, 0, 0, -c, s],
  [0, 0, 0, 1, 0, -1, 0],
  [0, 0, 0, 0, 1, -c, -s],
];

// X without the position features, for the word-order lab: the same words, no order.
export const xPlain = x.map((row) => [...row.slice(0, 5), 0, 0]);

// Four heads of d_head = 2; head h owns columns 2h−1 and 2h of W_Q (and of W_K and W_V when
// h_kv = 4).
//   head 1, who does what: 读 looks for a thing (书), 我 for an action (读)
//   head 2, the previous token: q is the position turned back by 60° (×4), k the position
//   head 3, back to the verb: 书 looks for an action (读), 在 for a place (图书馆)
//   head 4, nothing to look for: q = 0, so it spreads its weight evenly
// W_Q (7, 8)
export const wq = [
  [0, 3, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 3, 0, 0],
  [0, 0, 0, 0, 0, 0, 0, 0],
  [3, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 3, 0, 0, 0],
  [0, 0, 2, -3.464, 0, 0, 0, 0],
  [0, 0, 3.464, 2, 0, 0, 0, 0],
];

// Four key heads (h_kv = 4), W_K (7, 8): head 1 keys on thing and action, head 2 on the
// position, head 3 on action and place, head 4 on nothing.
export const wk4 = [
  [0, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 1, 0, 0],
  [0, 1, 0, 0, 1, 0, 0, 0],
  [1, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 1, 0, 0, 0, 0, 0],
  [0, 0, 0, 1, 0, 0, 0, 0],
];

// What each head carries, W_V (7, 8): head 1 the thing and the action it found, head 2 the
// previous token's function word and place, head 3 the action and place, head 4 person and
// thing.
export const wv4 = [
  [0, 0, 0, 0, 0, 0, 1, 0],
  [0, 0, 1, 0, 0, 0, 0, 0],
  [0, 0, 0, 1, 0, 1, 0, 0],
  [0, 1, 0, 0, 1, 0, 0, 0],
  [1, 0, 0, 0, 0, 0, 0, 1],
  [0, 0, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 0, 0, 0],
];

// W_O (8, 7): writes each column of the concatenation back into the feature it carries.
export const wo = [
  [0, 0, 0, 0, 1, 0, 0],
  [0, 0, 0, 1, 0, 0, 0],
  [0, 1, 0, 0, 0, 0, 0],
  [0, 0, 1, 0, 0, 0, 0],
  [0, 0, 0, 1, 0, 0, 0],
  [0, 0, 1, 0, 0, 0, 0],
  [1, 0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 1, 0, 0],
];

// Fewer key-value heads, made from the four the way the GQA paper converts a model: each
// shared head is the mean of the heads of its group. h_kv = 2: heads 1–2 and 3–4.
// W_K (7, 4) and W_V (7, 4)
export const wk2 = [
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0.5],
  [0, 0.5, 0.5, 0],
  [0.5, 0, 0, 0],
  [0.5, 0, 0, 0],
  [0, 0.5, 0, 0],
];
export const wv2 = [
  [0, 0, 0.5, 0],
  [0.5, 0, 0, 0],
  [0, 0.5, 0, 0.5],
  [0, 0.5, 0.5, 0],
  [0.5, 0, 0, 0.5],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
];
// h_kv = 1, multi-query: the mean of all four. W_K (7, 2) and W_V (7, 2)
export const wk1 = [
  [0, 0],
  [0, 0],
  [0, 0.25],
  [0.25, 0.25],
  [0.25, 0],
  [0.25, 0],
  [0, 0.25],
];
export const wv1 = [
  [0.25, 0],
  [0.25, 0],
  [0, 0.5],
  [0.25, 0.25],
  [0.25, 0.25],
  [0, 0],
  [0, 0],
];

export const layers = {
  4: { wq, wk: wk4, wv: wv4, wo },
  2: { wq, wk: wk2, wv: wv2, wo },
  1: { wq, wk: wk1, wv: wv1, wo },
};

// The word-order lab's shuffle: 书 读 我 图书馆 在 (row r of the shuffled sentence is token
// order[r] of the original).
export const order = [4, 3, 0, 2, 1];
