// tools/api.mjs: the API's text generated from the core's declarations (src/fields.hpp). Each
// result's and input's fields are declared once, beside its C++ struct, with their words; the
// WASM module lists them (resultFields(), inputFields()), and this writes, from that list:
// - web/attention.d.ts: each declared type's interface, in place (the file's other text, the
//   functions and their options, stays as written);
// - docs/api.md: the sections "Every result, field by field" and "Every input, field by field";
// - python/attention_by_hand/_core.pyi: a TypedDict per result and input, between its markers.
// The three are committed; tests/node/result-fields.test.mjs fails when one is not what this
// writes now. Run `make api` (or `node tools/api.mjs`) after changing a declaration.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import createLabs from "../web/generated/attention-labs.mjs";
import { camel, staysTyped } from "../web/wasm/core.js";

const root = new URL("../", import.meta.url);
export const files = {
  types: "web/attention.d.ts",
  docs: "docs/api.md",
  stubs: "python/attention_by_hand/_core.pyi",
};

// Results the JS wrapper keeps to itself (never handed to a caller).
export const internal = {
  GptTrainerOpened: "gptTrainer() keeps the session's id",
  GptStreamLoss: "gptStreamLoss() returns its loss as a number",
};

// What a JS wrapper (web/wasm/) makes of a result beyond unpack(): the fields it takes and the
// ones it adds, with their types and words (the decoder in web/wasm/inside.js).
export const reshaped = {
  DecodeStep: {
    takes: ["kCache", "vCache"],
    adds: {
      cache: ["KvCache", "The new cache, one row longer; the cache passed in is unchanged."],
      output: ["number[]", "(d_model) the new token's output row."],
    },
  },
};

// Where the JS types say more than the core's C++ type can: a field that is always a
// self-attention's trace, a trace the wrapper puts in an object (web/wasm/learn.js), a gradient
// in float64 when asked (precise), a string of two values.
const refined = {
  "MultiHeadTrace.heads": "SelfAttentionTrace[]",
  "TeachStep.gradients": "SelfAttentionGradients",
  "TeachRun.after": "{ trace: SelfAttentionTrace }",
  "GptGradients.gradients": "Float32Array | Float64Array",
  "BpeOptions.start": '"characters" | "bytes"',
  // a trainer's batch() is handed out as the core gives it, for slices of it to be cut
  "GptTrainBatch.tokens": "Int32Array",
  "GptTrainBatch.targets": "Int32Array",
};

const typedArrays = { float64: "Float64Array", float32: "Float32Array", int32: "Int32Array" };

/** A field's TypeScript type, as the JS API hands it out (after unpack()). */
function tsType(type, field) {
  const name = camel(field.name);
  const exact = refined[`${type}.${name}`];
  if (exact) return exact;
  if (staysTyped.has(name) && field.type === "number[]") return typedArrays[field.scalar];
  return field.type;
}

// Whole numbers are Index (ptrdiff_t), 32 bits in WASM and 64 natively: Ints is either.
const numpyArrays = { float64: "F64", float32: "F32", int32: "Ints", int64: "Ints", uint8: "U8" };

/** A field's Python type, as the compiled module returns it (src/python/convert.hpp). */
function pyType(field) {
  if (field.type === "Matrix" || field.type === "number[]") return numpyArrays[field.scalar];
  if (field.type.endsWith("[]"))
    return `list[${pyType({ ...field, type: field.type.slice(0, -2) })}]`;
  if (field.type === "number") return field.scalar.startsWith("float") ? "float" : "int";
  return { boolean: "bool", string: "str" }[field.type] ?? field.type;
}

/** The declared types, JS names: { name: [{ name, ts, what, sometimes, default? }] }. */
function declared(list, kind) {
  const out = {};
  for (const type of Object.keys(list).sort()) {
    if (type in internal) continue;
    const fields = list[type].map((f) => ({
      name: camel(f.name),
      snake: f.name,
      ts: tsType(type, f),
      py: pyType(f),
      what: f.what,
      sometimes: f.sometimes,
      default: f.sometimes ? f.default : undefined,
    }));
    const shape = kind === "result" ? reshaped[type] : undefined;
    const kept = fields.filter((f) => !shape?.takes.includes(f.name));
    for (const [name, [ts, what]] of Object.entries(shape?.adds ?? {})) {
      kept.push({ name, ts, what, sometimes: false });
    }
    out[type] = { fields: kept, python: fields };
  }
  return out;
}

function interfaceText(type, fields) {
  const lines = [`export interface ${type} {`];
  for (const f of fields) {
    if (!f.what) throw new Error(`${type}.${f.name} is declared without words`);
    lines.push(`  /** ${f.what} */`, `  ${f.name}${f.sometimes ? "?" : ""}: ${f.ts};`);
  }
  return [...lines, "}"].join("\n");
}

/** attention.d.ts with every declared type's interface written from its declaration. */
function types(text, all) {
  for (const [type, { fields }] of Object.entries(all)) {
    const start = text.search(new RegExp(`^export interface ${type}\\b[^{]*\\{$`, "m"));
    const generated = interfaceText(type, fields);
    if (start < 0) {
      text = `${text.trimEnd()}\n\n${generated}\n`;
      continue;
    }
    const end = text.indexOf("\n}", start) + 2;
    text = text.slice(0, start) + generated + text.slice(end);
  }
  return text;
}

const cell = (text) => String(text).replaceAll("|", "\\|");

function table(type, fields, withDefault) {
  const head = withDefault ? "| field | type | default | what |" : "| field | type | what |";
  const rule = withDefault ? "| --- | --- | --- | --- |" : "| --- | --- | --- |";
  const rows = fields.map((f) => {
    const name = `\`${f.name}\`${f.sometimes ? " (optional)" : ""}`;
    const fallback = f.default === undefined ? "" : `\`${JSON.stringify(f.default)}\``;
    const cells = [name, `\`${cell(f.ts)}\``, ...(withDefault ? [fallback] : []), cell(f.what)];
    return `| ${cells.join(" | ")} |`;
  });
  return [`### \`${type}\``, "", head, rule, ...rows].join("\n");
}

const resultsIntro = `Each result's fields are declared once, beside its C++ struct (\`fields()\`, [\`src/fields.hpp\`](../src/fields.hpp)),
with the words below; one conversion walks them for every function
([\`src/wasm/convert.hpp\`](../src/wasm/convert.hpp)), and \`tools/api.mjs\` writes these tables,
the interfaces of \`web/attention.d.ts\` and the Python stubs from them (\`make api\`;
\`tests/node/result-fields.test.mjs\` fails when they are stale). The types are what
\`web/attention.js\` hands out: matrices as arrays of rows, vectors as arrays of numbers, except a
model's gradient and a text's token streams, which stay typed arrays. Python spells the fields in
snake_case. A field marked optional is absent when its step is not taken.`;

const inputsIntro = `The configurations the core reads are declared the same way, and read by one walk in the
WASM binding, the JS wrappers and the Python package: a field marked optional may be left out and
then has its default; any field not listed is refused, by name.`;

/** api.md with its two generated sections. */
function docs(text, results, inputs) {
  const section = (title, intro, all, withDefault) =>
    [
      `## ${title}`,
      "",
      intro,
      "",
      ...Object.entries(all).map(([type, { fields }]) => table(type, fields, withDefault) + "\n"),
    ].join("\n");
  const parts = text.split(/^(?=## )/m);
  const keep = parts.filter((p) => !/^## Every (result|input), field by field\n/.test(p));
  const at = parts.findIndex((p) => p.startsWith("## Every result, field by field\n"));
  const generated = [
    section("Every result, field by field", resultsIntro, results, false),
    section("Every input, field by field", inputsIntro, inputs, true),
  ];
  keep.splice(at < 0 ? keep.length : at, 0, ...generated);
  return keep.join("");
}

const begin = "# ---- generated by tools/api.mjs from the core's declarations: do not edit ----";
const end = "# ---- end of generated ----";

/** _core.pyi with a TypedDict per declared type between its markers. */
function stubs(text, results, inputs) {
  const classes = Object.entries({ ...results, ...inputs }).map(([type, { python }]) => {
    const lines = [`class ${type}(TypedDict):`];
    for (const f of python) {
      lines.push(`    ${f.snake}: ${f.sometimes ? `NotRequired[${f.py}]` : f.py}`);
      lines.push(`    """${f.what.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"""`);
    }
    return lines.join("\n");
  });
  const block = [begin, "", ...classes.map((c) => c + "\n"), end]
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n\n");
  const [before, rest] = text.split(begin);
  if (rest === undefined) return `${text.trimEnd()}\n\n\n${block}\n`;
  return before + block + rest.split(end)[1];
}

/** { path: text } as they should be, from the built core's declarations. */
export async function generated() {
  const labs = await createLabs();
  const results = declared(labs.resultFields(), "result");
  const inputs = declared(labs.inputFields(), "input");
  for (const type of Object.keys(inputs)) delete results[type];
  const read = (path) => readFileSync(new URL(path, root), "utf8");
  const format = (text, parser) => prettier.format(text, { parser, printWidth: 100 });
  return {
    [files.types]: await format(types(read(files.types), { ...results, ...inputs }), "typescript"),
    [files.docs]: await format(docs(read(files.docs), results, inputs), "markdown"),
    [files.stubs]: stubs(read(files.stubs), results, inputs),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const [path, text] of Object.entries(await generated())) {
    if (readFileSync(new URL(path, root), "utf8") === text) continue;
    stale.push(path);
    if (!check) writeFileSync(new URL(path, root), text);
  }
  if (check && stale.length) {
    console.error(`stale (run make api): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log(stale.length ? `wrote ${stale.join(", ")}` : "current");
}
