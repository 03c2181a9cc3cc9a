// scene-schema.test.mjs: the published JSON Schema and the element's own checks agree on what
// a custom scene is, and the parser names the field and the reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv from "ajv/dist/2020.js";
import { parseScene } from "../../web/custom-scene.js";

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url)));
const validate = new Ajv({ allErrors: true }).compile(read("../../web/scene.schema.json"));

const lookup = { title: "t", inputs: { q: [[1, 0]], k: [[1, 0]], v: [[2]] } };
const cases = [
  ["the example scene", read("../../web/example-scene.json"), null],
  ["the test pages' scene", read("../browser/pages/scene-lookup.json"), null],
  [
    "self-attention with an explicit mask",
    {
      title: { zh: "自", en: "self" },
      tokens: ["a", "b"],
      inputs: { x: [[1], [2]], wq: [[1]], wk: [[1]], wv: [[1, 2]] },
      mask: [
        [true, false],
        [true, true],
      ],
    },
    null,
  ],
  ["no title", { inputs: lookup.inputs }, 'title: must be a string or { "zh": …, "en": … }'],
  ["no inputs", { title: "t" }, "inputs: must be an object: { q, k, v } or { x, wq, wk, wv }"],
  ["a missing v", { title: "t", inputs: { q: [[1]], k: [[1]] } }, "inputs.v: is missing"],
  [
    "x mixed with q",
    { title: "t", inputs: { ...lookup.inputs, x: [[1]] } },
    "inputs.q: does not go with x (give x, wq, wk and wv)",
  ],
  [
    "a string in a matrix",
    { title: "t", inputs: { ...lookup.inputs, k: [[1, "0"]] } },
    'inputs.k[1][2]: must be a finite number, not "0"',
  ],
  [
    "a ragged matrix",
    { title: "t", inputs: { ...lookup.inputs, k: [[1, 0], [1]] } },
    "inputs.k row 2: has 1 number but row 1 has 2",
  ],
  [
    "an empty matrix",
    { title: "t", inputs: { ...lookup.inputs, q: [] } },
    "inputs.q: must be a non-empty array of rows",
  ],
  [
    "a bad mask",
    { ...lookup, mask: "future" },
    'mask: must be "causal" or an array of rows of true and false',
  ],
  [
    "a title missing a language",
    { ...lookup, title: { zh: "只有中文" } },
    "title.en: must be a non-empty string",
  ],
  ["an unknown field", { ...lookup, colour: "red" }, "colour: is not a scene field"],
  [
    "an unknown step",
    { ...lookup, steps: { magic: "x" } },
    "steps.magic: is not a step (inputs, projections, scores, scaled, masked, weights, output, result)",
  ],
  ["too many labels", { ...lookup, keys: ["a", "b"] }, "keys: has 2 labels for 1 row"],
  [
    "a matrix too large to work by hand",
    { title: "t", inputs: { ...lookup.inputs, k: Array(17).fill([1, 0]) } },
    "inputs.k: has 17 rows or columns; a scene to work by hand has at most 16",
  ],
  [
    "an array where a number goes",
    { title: "t", inputs: { ...lookup.inputs, v: [[[[[2]]]]] } },
    "inputs.v[1][1]: must be a finite number, not an array",
  ],
  [
    "markup as a number",
    { title: "t", inputs: { ...lookup.inputs, v: [["<img src=x onerror=alert(1)>"]] } },
    'inputs.v[1][1]: must be a finite number, not "<img src=x onerror=a…"',
  ],
  [
    "a title of 2001 characters",
    { ...lookup, title: "长".repeat(2001) },
    "title: has 2001 characters; at most 2000",
  ],
  [
    "a label of 41 characters",
    { ...lookup, keys: ["k".repeat(41)] },
    "keys: must be an array of strings of at most 40 characters",
  ],
  [
    "an unknown field with a long name",
    { ...lookup, ["x".repeat(100)]: 1 },
    `${"x".repeat(30)}…: is not a scene field`,
  ],
];

// What a schema cannot say (equal row lengths, one label per row) only the parser checks.
const parserOnly = ["a ragged matrix", "too many labels"];

for (const [name, scene, error] of cases) {
  test(`custom scene: ${name}`, () => {
    const schemaSaysValid = error === null || parserOnly.includes(name);
    assert.equal(validate(scene), schemaSaysValid, JSON.stringify(validate.errors));
    if (error === null) assert.ok(parseScene(JSON.stringify(scene)).inputs);
    else assert.throws(() => parseScene(scene), { message: error });
  });
}

test("custom scene: the mask's size is checked against the rows of Q and K", () => {
  assert.throws(() => parseScene({ ...lookup, mask: [[true, false]] }), {
    message: "mask: must be 1×1 (one row per query, one column per key)",
  });
  // Two queries and three keys: a 2×3 mask is right, its transpose is not.
  const wide = {
    title: "t",
    inputs: { q: [[1], [2]], k: [[1], [2], [3]], v: [[1], [2], [3]] },
  };
  const mask = [
    [true, false, true],
    [false, true, true],
  ];
  assert.deepEqual(parseScene({ ...wide, mask }).mask, mask);
  assert.throws(
    () =>
      parseScene({
        ...wide,
        mask: [
          [true, false],
          [true, true],
          [false, true],
        ],
      }),
    {
      message: "mask: must be 2×3 (one row per query, one column per key)",
    },
  );
});

test("custom scene: hostile text is refused quickly, and never echoed whole", () => {
  const huge = JSON.stringify({ ...lookup, note: "x".repeat(10_000_000) });
  assert.throws(() => parseScene(huge), {
    message: `scene: is ${huge.length} characters, over the limit of 1000000`,
  });
  const deep = `{"title":"t","inputs":{"q":${"[".repeat(400_000)}${"]".repeat(400_000)},"k":[[1]],"v":[[1]]}}`;
  assert.throws(() => parseScene(deep), {
    message: "inputs.q[1][1]: must be a finite number, not an array",
  });
  assert.throws(() => parseScene({ ...lookup, title: { zh: "<script>", en: 7 } }), {
    message: "title.en: must be a non-empty string",
  });
});

test("custom scene: text that is not JSON", () => {
  assert.throws(() => parseScene("{ title: 1 }"), { message: /^scene: not valid JSON \(/ });
});

test("custom scene: what a parsed scene holds", () => {
  const scene = parseScene({
    $schema: "https://example.org/scene.schema.json",
    id: "fruit-2",
    title: { zh: "水果", en: "Fruit" },
    analogy: "a dictionary",
    note: { zh: "注", en: "a note" },
    result: { zh: "结果", en: "the result" },
    queries: ["q1"],
    keys: ["apple", "pear"],
    values: ["price"],
    inputs: {
      q: [[1, 0]],
      k: [
        [1, 0],
        [0, 1],
      ],
      v: [[2], [3]],
    },
    mask: "causal",
    steps: { weights: { zh: "归一化", en: "normalise" } },
  });
  assert.equal(scene.id, "fruit-2");
  assert.deepEqual(scene.inputs, {
    q: [[1, 0]],
    k: [
      [1, 0],
      [0, 1],
    ],
    v: [[2], [3]],
  });
  assert.equal(scene.tokens, undefined);
  assert.deepEqual(scene.queryLabels, ["q1"]);
  assert.deepEqual(scene.keyLabels, ["apple", "pear"]);
  assert.deepEqual(scene.valueLabels, ["price"]);
  assert.equal(scene.mask, "causal");
  assert.deepEqual(scene.text.en, {
    name: "Fruit",
    title: "Fruit",
    analogy: "a dictionary",
    note: "a note",
    result: "the result",
    steps: { weights: "normalise" },
  });
  assert.deepEqual(scene.text.zh.steps, { weights: "归一化" });
  assert.equal(scene.text.zh.analogy, "a dictionary");

  const bare = parseScene({
    title: "t",
    tokens: ["a"],
    inputs: { x: [[1]], wq: [[1]], wk: [[1]], wv: [[1]] },
  });
  assert.equal(bare.id, "custom");
  assert.deepEqual(bare.tokens, ["a"]);
  assert.deepEqual([bare.queryLabels, bare.keyLabels], [[], []]);
  assert.equal(bare.valueLabels, undefined);
  assert.equal(bare.mask, undefined);
  assert.deepEqual(bare.text.en, {
    name: "t",
    title: "t",
    analogy: "",
    note: undefined,
    result: undefined,
    steps: {},
  });
});

test("custom scene: every limit, at the edge and one past it", () => {
  const lookup = { title: "t", inputs: { q: [[1, 0]], k: [[1, 0]], v: [[2]] } };
  const ok = (scene) => assert.ok(parseScene(scene).inputs);
  const refused = (scene, message) => assert.throws(() => parseScene(scene), { message });
  ok({
    ...lookup,
    inputs: { ...lookup.inputs, k: Array(16).fill([1, 0]), v: Array(16).fill([2]) },
  });
  ok({ ...lookup, title: "长".repeat(2000) });
  ok({ ...lookup, keys: ["k".repeat(40)] });
  ok({ ...lookup, id: "a-1" });
  const padded = JSON.stringify(lookup);
  ok(padded + " ".repeat(1_000_000 - padded.length));
  refused(
    padded + " ".repeat(1_000_001 - padded.length),
    "scene: is 1000001 characters, over the limit of 1000000",
  );
  refused({ ...lookup, ["x".repeat(30)]: 1 }, `${"x".repeat(30)}: is not a scene field`);
  refused({ ...lookup, ["x".repeat(31)]: 1 }, `${"x".repeat(30)}…: is not a scene field`);
  refused(
    { ...lookup, inputs: { ...lookup.inputs, v: [["x".repeat(20)]] } },
    `inputs.v[1][1]: must be a finite number, not "${"x".repeat(20)}"`,
  );
  refused(
    { ...lookup, inputs: { ...lookup.inputs, v: [["x".repeat(21)]] } },
    `inputs.v[1][1]: must be a finite number, not "${"x".repeat(20)}…"`,
  );
  for (const [x, said] of [
    [null, "null"],
    [{}, "an object"],
    [NaN, "NaN"],
    [Infinity, "Infinity"],
    [true, "true"],
  ]) {
    refused(
      { ...lookup, inputs: { ...lookup.inputs, v: [[x]] } },
      `inputs.v[1][1]: must be a finite number, not ${said}`,
    );
  }
  for (const row of [5, []]) {
    refused(
      { ...lookup, inputs: { ...lookup.inputs, k: [[1, 0], row] } },
      "inputs.k row 2: must be a non-empty array of numbers",
    );
  }
  for (const json of [[], null, 5, "[]", "null", "5"])
    refused(json, "scene: must be a JSON object");
  for (const inputs of [null, 5])
    refused({ title: "t", inputs }, "inputs: must be an object: { q, k, v } or { x, wq, wk, wv }");
  refused(
    { ...lookup, inputs: { ...lookup.inputs, w: [[1]] } },
    "inputs.w: is not an input (give q, k and v, or x, wq, wk and wv)",
  );
  for (const title of [5, null])
    refused({ ...lookup, title }, 'title: must be a string or { "zh": …, "en": … }');
  refused({ ...lookup, title: "   " }, "title: must be a non-empty string");
  refused(
    { ...lookup, note: { zh: "注", en: "x".repeat(2001) } },
    "note.en: has 2001 characters; at most 2000",
  );
  for (const keys of ["ab", [7]])
    refused({ ...lookup, keys }, "keys: must be an array of strings of at most 40 characters");
  refused({ ...lookup, queries: [] }, "queries: has 0 labels for 1 row");
  refused(
    { ...lookup, keys: ["a", "b"], inputs: { q: [[1]], k: [[1], [2], [3]], v: [[1], [2], [3]] } },
    "keys: has 2 labels for 3 rows",
  );
  refused({ ...lookup, values: ["a", "b"] }, "values: has 2 labels for 1 column of V");
  refused(
    { ...lookup, tokens: [], inputs: { x: [[1]], wq: [[1]], wk: [[1]], wv: [[1]] } },
    "tokens: has 0 labels for 1 row",
  );
  for (const mask of [[[1]], [5], "future"])
    refused({ ...lookup, mask }, 'mask: must be "causal" or an array of rows of true and false');
  for (const id of ["1a", "Bad", "a_b", 5, ""])
    refused({ ...lookup, id }, "id: must be lowercase letters, digits and dashes");
  for (const steps of [null, 5])
    refused({ ...lookup, steps }, "steps: must be an object keyed by step");
  refused({ ...lookup, steps: { weights: "" } }, "steps.weights: must be a non-empty string");
});
