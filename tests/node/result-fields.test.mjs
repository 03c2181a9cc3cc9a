// result-fields.test.mjs: every field that a result of the core has, as its C++ struct declares
// it (fields(), src/fields.hpp; read back through the labs module's resultFields()), is typed
// in web/attention.d.ts and documented in docs/api.md, and nothing is typed or documented that
// the core does not return.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import createLabs from "../../web/generated/attention-labs.mjs";

const read = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const declared = (await createLabs()).resultFields();

// What the JS wrapper (web/wasm/) makes of a result beyond unpack(), by type: the fields it adds
// and the ones it takes, and the types it consumes itself (never handed to the caller).
const reshaped = {
  DecodeStep: { adds: ["cache", "output"], takes: ["kCache", "vCache"] },
};
const internal = {
  GptTrainerOpened: "gptTrainer() keeps the session's id",
  GptStreamLoss: "gptStreamLoss() returns its loss as a number",
};
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

/** The field tables of docs/api.md's "Every result, field by field": type → [fields]. */
export function documented(text) {
  const section = text.split(/^## Every result, field by field$/m)[1]?.split(/^## /m)[0] ?? "";
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
const docs = documented(read("../../docs/api.md"));

// The fields a caller gets for a type, and their types before unpack().
function returned(type) {
  const fields = new Map(Object.entries(declared[type]));
  for (const name of reshaped[type]?.takes ?? []) fields.delete(name);
  for (const name of reshaped[type]?.adds ?? []) fields.set(name, "(the wrapper's)");
  return fields;
}

const publicTypes = Object.keys(declared).filter((type) => !(type in internal));

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

test("web/attention.d.ts types every field a result has, with its type, and no other", () => {
  for (const type of publicTypes) {
    const props = properties(types, type);
    assert.ok(props, `attention.d.ts has no interface ${type}`);
    const fields = returned(type);
    for (const [name, cpp] of fields) {
      assert.ok(props.has(name), `attention.d.ts's ${type} lacks ${name}`);
      const ts = props.get(name);
      if (cpp === "number" || cpp === "boolean" || cpp === "string") {
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
