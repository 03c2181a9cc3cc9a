// result-fields.test.mjs: the fields of the core's results and inputs, as their C++ structs
// declare them (fields(), src/fields.hpp; read back through the labs module's resultFields() and
// inputFields()), each with its words; the API's text generated from them (tools/api.mjs:
// web/attention.d.ts's interfaces, docs/api.md's tables, _core.pyi's TypedDicts) is current; and
// read apart from the generator, the d.ts types and api.md documents every field a result has,
// and nothing the core does not return.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import createLabs from "../../web/generated/attention-labs.mjs";
import { generated, internal, reshaped } from "../../tools/api.mjs";
import { camel } from "../../web/wasm/core.js";

const read = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const labs = await createLabs();
// { Trace: { scores: "Matrix", … } } in JS names, from the declared lists
const byName = (list) =>
  Object.fromEntries(
    Object.entries(list).map(([type, fields]) => [
      type,
      Object.fromEntries(fields.map((f) => [camel(f.name), f.type])),
    ]),
  );
const declaredLists = labs.resultFields();
const inputLists = labs.inputFields();
const declared = byName(declaredLists);

// Fields that stay typed arrays after unpack() (web/wasm/core.js's staysTyped).
const typedArray = /^(Float32Array|Float64Array|Int32Array)( \| (Float32Array|Float64Array))?$/;

/** The interfaces of a .d.ts: name → { extends: [names], props: Map(name → type text) }. */
export function interfaces(text) {
  const found = new Map();
  let current = null;
  let depth = 0;
  for (const line of text.replace(/\/\*[\s\S]*?\*\//g, "").split("\n")) {
    const start = line.match(/^export interface (\w+)(?: extends ([\w, ]+))? \{$/);
    if (start) {
      current = { extends: start[2] ? start[2].split(/,\s*/) : [], props: new Map() };
      found.set(start[1], current);
      depth = 1;
      continue;
    }
    if (!current) continue;
    const prop = line.match(/^ {2}(?:readonly )?(\w+)\??: (.+?);?$/);
    if (depth === 1 && prop) current.props.set(prop[1], prop[2]);
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    if (depth === 0) current = null;
  }
  return found;
}

/** Every property of an interface, its parents' included. */
function properties(all, name) {
  const one = all.get(name);
  if (!one) return null;
  const props = new Map();
  for (const parent of one.extends)
    for (const [k, v] of properties(all, parent) ?? []) props.set(k, v);
  for (const [k, v] of one.props) props.set(k, v);
  return props;
}

/** The field tables of docs/api.md's "Every result (or input), field by field": type → [fields]. */
export function documented(text, kind = "result") {
  const section =
    text.split(new RegExp(`^## Every ${kind}, field by field$`, "m"))[1]?.split(/^## /m)[0] ?? "";
  const found = new Map();
  let current = null;
  for (const line of section.split("\n")) {
    const heading = line.match(/^### `(\w+)`$/);
    if (heading) found.set(heading[1], (current = []));
    const row = line.match(/^\| `(\w+)`/);
    if (row && current) current.push(row[1]);
  }
  return found;
}

const types = interfaces(read("../../web/attention.d.ts"));
const docs = documented(read("../../docs/api.md"), "result");
const inputDocs = documented(read("../../docs/api.md"), "input");

// The fields a caller gets for a type, and their types before unpack().
function returned(type) {
  const fields = new Map(Object.entries(declared[type] ?? byName(inputLists)[type]));
  for (const name of reshaped[type]?.takes ?? []) fields.delete(name);
  for (const name of Object.keys(reshaped[type]?.adds ?? {})) fields.set(name, "(the wrapper's)");
  return fields;
}

const inputTypes = Object.keys(inputLists);
const publicTypes = Object.keys(declared).filter(
  (type) => !(type in internal) && !inputTypes.includes(type),
);

test("the core declares the results the bindings return", () => {
  for (const type of ["Trace", "MultiHeadTrace", "DecodeStep", "TiledTrace", "ScalingStats"]) {
    assert.ok(type in declared, `${type} is declared`);
  }
  assert.deepEqual(Object.keys(declared.Trace).sort(), [
    "blockedRows",
    "dropped",
    "exp",
    "k",
    "masked",
    "output",
    "q",
    "rowMax",
    "rowSum",
    "scale",
    "scaled",
    "scores",
    "v",
    "weights",
  ]);
  assert.equal(declared.Trace.rowMax, "number[]");
  assert.equal(declared.Trace.scores, "Matrix");
  assert.equal(declared.MultiHeadTrace.heads, "Trace[]");
  assert.equal(declared.SinusoidalTrace.theta, "number[]", "inlined from PositionTrace");
  assert.ok(publicTypes.length >= 20, `${publicTypes.length} public result types`);
});

test("every declared field says what it is, and an input's optional field has its default", () => {
  for (const [type, fields] of Object.entries({ ...declaredLists, ...inputLists })) {
    for (const f of fields) assert.ok(f.what.trim().length > 0, `${type}.${f.name} has no words`);
  }
  const config = Object.fromEntries(inputLists.GptConfig.map((f) => [f.name, f]));
  assert.deepEqual(Object.keys(config), [
    "vocab",
    "context",
    "d_model",
    "layers",
    "heads",
    "base",
    "mlp",
  ]);
  assert.equal(config.base.default, 10000);
  assert.equal(config.base.sometimes, true);
  assert.equal(config.mlp.default, true);
  assert.equal(config.vocab.sometimes, false);
  assert.equal(config.vocab.scalar, "int32");
});

test("the API's generated text is current: tools/api.mjs writes these files as they are", async () => {
  for (const [path, text] of Object.entries(await generated())) {
    assert.ok(
      read(`../../${path}`) === text,
      `${path} is stale: run make api (node tools/api.mjs) after changing a declaration`,
    );
  }
});

test("web/attention.d.ts types every field a result or an input has, with its type, and no other", () => {
  for (const type of [...publicTypes, ...inputTypes]) {
    const props = properties(types, type);
    assert.ok(props, `attention.d.ts has no interface ${type}`);
    const fields = returned(type);
    for (const [name, cpp] of fields) {
      assert.ok(props.has(name), `attention.d.ts's ${type} lacks ${name}`);
      const ts = props.get(name);
      if (cpp === "string") {
        assert.match(ts, /^(string|"\w+"( \| "\w+")+)$/, `${type}.${name}`);
      } else if (cpp === "number" || cpp === "boolean") {
        assert.equal(ts, cpp, `${type}.${name}`);
      } else if (cpp === "Matrix" || cpp === "number[]") {
        assert.ok(ts === cpp || typedArray.test(ts), `${type}.${name} is ${ts}, not ${cpp}`);
      }
    }
    for (const name of props.keys()) {
      assert.ok(
        fields.has(name),
        `attention.d.ts's ${type} has ${name}, which the core never returns`,
      );
    }
  }
});

test("docs/api.md documents every field an input has, and no other", () => {
  for (const type of inputTypes) {
    assert.deepEqual(inputDocs.get(type), [...returned(type).keys()], type);
  }
  assert.deepEqual([...inputDocs.keys()].sort(), [...inputTypes].sort());
});

test("docs/api.md documents every field a result has, and no other", () => {
  for (const type of publicTypes) {
    const rows = docs.get(type);
    assert.ok(rows, `docs/api.md has no table for ${type}`);
    const fields = returned(type);
    for (const name of fields.keys()) {
      assert.ok(rows.includes(name), `docs/api.md's ${type} lacks ${name}`);
    }
    for (const name of rows) {
      assert.ok(fields.has(name), `docs/api.md's ${type} documents ${name}, which it never has`);
    }
  }
  for (const type of docs.keys()) {
    assert.ok(publicTypes.includes(type), `docs/api.md documents ${type}, which no call returns`);
  }
});

test("the parsers find what they look for (they cannot pass on an empty file)", () => {
  const sample = interfaces(
    "export interface A {\n  /** x */\n  x: number;\n  y?: Matrix;\n  f(a: number): void;\n  o: {\n    z: number;\n  };\n}\nexport interface B extends A {\n  w: number[];\n}\n",
  );
  assert.deepEqual([...properties(sample, "B").keys()], ["x", "y", "o", "w"]);
  const doc = documented(
    "## Every result, field by field\n\n### `A`\n\n| field | type | what |\n| --- | --- | --- |\n| `x` | number | one |\n\n## Next\n\n### `B`\n| `y` | |\n",
  );
  assert.deepEqual([...doc], [["A", ["x"]]]);
});
