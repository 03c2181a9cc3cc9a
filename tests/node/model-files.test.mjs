// model-files.test.mjs: a model kept in its two files (gptModelFiles) and loaded from them
// (gptModelFromFiles). The shipped pair loads and is written again byte for byte; a model trained
// a few steps comes back as its int8 file says, checked against a quantization written here in
// plain JS; every way a description or a weights file can be wrong is refused with a message that
// names the field and says what is wrong, and the module loads a good pair after any number of
// bad ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs, gptEncode } from "../../web/attention.js";

const core = await loadLabs();
const web = new URL("../../web/", import.meta.url);
const tangText = readFileSync(new URL("labs/gpt/tang.json", web), "utf8");
const tangBin = new Uint8Array(readFileSync(new URL("labs/gpt/tang.bin", web)));
const tang = JSON.parse(tangText);

// f throws an Error with exactly this message, or one that matches this pattern
function refuses(f, message) {
  let error;
  try {
    f();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `no Error thrown; wanted ${message}`);
  if (message instanceof RegExp) assert.match(error.message, message);
  else assert.equal(error.message, message);
}

// A learner's model: its characters from a text, ids 2 on; a small configuration.
const text = "床前明月光，疑是地上霜。举头望明月，低头思故乡。";
const chars = [...new Set(text)].join("");
const small = { vocab: [...chars].length + 2, context: 16, dModel: 16, layers: 1, heads: 2 };

// The weights file as docs/model.md describes it, written here in plain JS: per matrix row a
// float32 scale (the row's largest |value| / 127) and round(value / scale) as int8 (halves away
// from 0, as C's lround); vectors as float32. And the float32 values it holds.
function quantizeHere(config, params) {
  const bytes = [];
  const values = new Float32Array(params.length);
  const f32 = (x) => bytes.push(...new Uint8Array(Float32Array.of(x).buffer));
  for (const t of core.gptLayout(config)) {
    for (let r = 0; r < t.rows; r++) {
      const at = t.offset + r * t.cols;
      const row = params.subarray(at, at + t.cols);
      if (t.rows === 1) {
        row.forEach(f32);
        values.set(row, at);
        continue;
      }
      const top = Math.max(...Array.from(row, Math.abs));
      const scale = top > 0 ? Math.fround(top / 127) : 1;
      f32(scale);
      row.forEach((x, j) => {
        const q = Math.sign(x) * Math.round(Math.abs(x / scale)) || 0; // no −0: an int8 has none
        bytes.push(q & 0xff);
        values[at + j] = Math.fround(q * scale);
      });
    }
  }
  return { bytes: Uint8Array.from(bytes), values };
}

function trainedSmall() {
  const data = gptEncode(text.repeat(4), chars);
  const trainer = core.gptTrainer(small, data, { batch: 2, total: 5, seed: 3 });
  trainer.step(5);
  const params = trainer.params();
  trainer.close();
  return { config: small, params };
}

test("the shipped pair loads (no format: version 1) and is written again byte for byte", () => {
  const loaded = core.gptModelFromFiles(tangText, tangBin);
  assert.equal(loaded.chars, tang.chars);
  assert.deepEqual(loaded.description, tang);
  assert.deepEqual(loaded.model.params, core.gptModel(tang.config, tangBin).params);
  assert.deepEqual(core.gptModelFromFiles(tang, tangBin).model, loaded.model); // parsed, too
  const { chars: _, config: __, ...rest } = tang;
  const files = core.gptModelFiles(loaded.model, { chars: loaded.chars, ...rest });
  assert.ok(files.weights instanceof Uint8Array);
  assert.equal(files.weights.length, tangBin.length);
  const differ = files.weights.findIndex((b, i) => b !== tangBin[i]);
  assert.equal(differ, -1, `the written weights differ from tang.bin at byte ${differ + 1}`);
  const written = JSON.parse(files.description);
  assert.deepEqual(Object.keys(written).slice(0, 4), ["format", "version", "config", "chars"]);
  assert.equal(written.format, "attention-by-hand model");
  assert.equal(written.version, 1);
  assert.deepEqual(written.config, { ...tang.config, mlp: true });
  assert.deepEqual(
    { ...written, format: undefined, version: undefined, config: undefined },
    {
      ...tang,
      format: undefined,
      version: undefined,
      config: undefined,
    },
  );
  // and what was written loads again, the same model; its description can be written again
  const again = core.gptModelFromFiles(files.description, files.weights);
  assert.deepEqual(again.model.params, loaded.model.params);
  const third = core.gptModelFiles(again.model, again.description);
  assert.equal(third.description, files.description);
  assert.deepEqual(third.weights, files.weights);
});

test("a model trained a few steps: its files give the int8 model's numbers exactly", (t) => {
  const model = trainedSmall();
  const files = core.gptModelFiles(model, { chars, text: "静夜思", heldOut: 3.25 });
  const here = quantizeHere(small, model.params);
  assert.deepEqual(files.weights, here.bytes);
  const loaded = core.gptModelFromFiles(files.description, files.weights);
  assert.deepEqual(loaded.model.config, { ...small, base: 10000, mlp: true });
  assert.equal(loaded.chars, chars);
  assert.equal(loaded.description.text, "静夜思");
  assert.equal(loaded.description.heldOut, 3.25);
  assert.deepEqual(loaded.model.params, here.values);
  const tokens = gptEncode("床前明月光", chars);
  const targets = [...tokens.slice(1), gptEncode("疑", chars)[1]];
  const fromFile = core.gptForward(loaded.model, tokens, { targets });
  const quantized = core.gptForward({ config: small, params: here.values }, tokens, { targets });
  assert.deepEqual(fromFile.logits, quantized.logits);
  assert.equal(fromFile.loss, quantized.loss);
  // how far the int8 model is from the float32 one it was written from
  const float32 = core.gptForward(model, tokens, { targets });
  const gap = Math.max(
    ...fromFile.logits.flatMap((row, i) => row.map((x, j) => Math.abs(x - float32.logits[i][j]))),
  );
  t.diagnostic(
    `int8 against float32: logits within ${gap.toExponential(2)}, loss ${fromFile.loss} against ${float32.loss}`,
  );
  assert.ok(gap > 0 && gap < 0.05, `logits within ${gap}`);
  assert.ok(Math.abs(fromFile.loss - float32.loss) < 0.01);
});

// A description of the small model, and its weights, for the bad cases below.
const good = trainedSmall();
const goodFiles = core.gptModelFiles(good, { chars });
const goodDescription = JSON.parse(goodFiles.description);
const withConfig = (change) => ({
  ...goodDescription,
  config: { ...goodDescription.config, ...change },
});
const withoutField = (object, name) =>
  Object.fromEntries(Object.entries(object).filter(([k]) => k !== name));

test("a description that is not JSON says where JSON.parse failed", () => {
  refuses(
    () => core.gptModelFromFiles('{ "config": }', goodFiles.weights),
    "the description is not JSON: Unexpected token '}' (line 1, column 13)",
  );
  const cut = goodFiles.description.slice(0, 60);
  refuses(
    () => core.gptModelFromFiles(cut, goodFiles.weights),
    "the description is not JSON: Unterminated string (line 4, column 4)",
  );
  const lines = goodFiles.description.split("\n");
  lines[2] = lines[2].replace(",", ""); // "version": 1 with no comma after it
  refuses(
    () => core.gptModelFromFiles(lines.join("\n"), goodFiles.weights),
    "the description is not JSON: Expected ',' or '}' after property value (line 4, column 3)",
  );
  refuses(
    () => core.gptModelFromFiles("", goodFiles.weights),
    "the description is not JSON: Unexpected end of JSON input (line 1, column 1)",
  );
});

test("JSON that is not a model's description: another file, or not an object", () => {
  const packageJson = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  refuses(
    () => core.gptModelFromFiles(packageJson, goodFiles.weights),
    /^the description has no config: it is not a model's description \(its fields: name, version, description, license, type, main, …\)$/,
  );
  const baselines = readFileSync(new URL("labs/gpt/baselines.json", web), "utf8");
  refuses(
    () => core.gptModelFromFiles(baselines, goodFiles.weights),
    /^the description has no config: .*\(its fields: vocab, poems, targets, uniform, unigram, bigram, …\)$/,
  );
  refuses(
    () => core.gptModelFromFiles("[1, 2]", goodFiles.weights),
    "the description must be an object { format, version, config, chars, … } or its JSON text, not JSON of an array",
  );
  refuses(() => core.gptModelFromFiles("42", goodFiles.weights), /not JSON of the number 42$/);
  refuses(
    () => core.gptModelFromFiles(goodFiles.weights, goodFiles.weights),
    /or its JSON text, not a Uint8Array$/,
  );
  refuses(() => core.gptModelFromFiles(null, goodFiles.weights), /or its JSON text, not null$/);
});

test("a format or a version this code does not read", () => {
  const read = (d) => core.gptModelFromFiles(d, goodFiles.weights);
  refuses(
    () => read({ ...goodDescription, format: "gguf" }),
    'format is the string "gguf"; this reads only "attention-by-hand model" files',
  );
  refuses(
    () => read({ ...goodDescription, version: 2 }),
    "version is the number 2; this reads version 1",
  );
  refuses(
    () => read({ ...goodDescription, version: "1" }),
    'version is the string "1"; this reads version 1',
  );
  refuses(() => read(withoutField(goodDescription, "version")), "version is missing");
  refuses(
    () => read({ config: tang.config, chars: tang.chars, version: 2 }),
    /version is the number 2/,
  );
  refuses(() => read(withoutField(goodDescription, "config")), "config is missing");
  refuses(() => read({ ...goodDescription, config: [64] }), "config is an array, not an object");
});

test("each config field: missing, not a number, not whole, out of range", () => {
  const read = (change) => core.gptModelFromFiles(withConfig(change), goodFiles.weights);
  const limits = { vocab: 65536, context: 1024, dModel: 1024, layers: 16, heads: 64 };
  for (const [name, high] of Object.entries(limits)) {
    refuses(
      () =>
        core.gptModelFromFiles(
          { ...goodDescription, config: withoutField(goodDescription.config, name) },
          goodFiles.weights,
        ),
      `config.${name} is missing`,
    );
    refuses(() => read({ [name]: "64" }), `config.${name} is the string "64", not a number`);
    refuses(() => read({ [name]: null }), `config.${name} is null, not a number`);
    refuses(() => read({ [name]: 2.5 }), `config.${name} is 2.5, not a whole number`);
    refuses(() => read({ [name]: 0 }), `config.${name} is 0; it must be from 1 to ${high}`);
    refuses(
      () => read({ [name]: high + 1 }),
      `config.${name} is ${high + 1}; it must be from 1 to ${high}`,
    );
    refuses(() => read({ [name]: -3 }), `config.${name} is -3; it must be from 1 to ${high}`);
    refuses(
      () => read({ [name]: 1e12 }),
      `config.${name} is 1000000000000, past any size the core reads (2147483647)`,
    );
  }
  refuses(
    () => read({ heads: 3 }),
    "config.dModel 16 is not config.heads × an even d_head (config.heads = 3; RoPE turns pairs)",
  );
  refuses(() => read({ base: "10000" }), 'config.base is the string "10000", not a number');
  refuses(() => read({ base: -1 }), "config.base must be a finite number above 0");
  refuses(() => read({ mlp: "yes" }), 'config.mlp is the string "yes", not true or false');
  // a field the loader does not know is refused by name, not ignored (a misspelt Base would run
  // the model with base 10000)
  refuses(
    () => read({ Base: 100 }),
    'config has no field "Base"; its fields are vocab, context, dModel, layers, heads, base, mlp',
  );
  refuses(
    () => read({ vocab: 1, dModel: 16 }),
    /^config.vocab is 1; a model's description needs at least 2/,
  );
});

test("chars: missing, not a string, the wrong count, a character twice, a lone surrogate", () => {
  const read = (d, weights = tangBin) => core.gptModelFromFiles(d, weights);
  refuses(
    () => read(withoutField(tang, "chars")),
    "chars is missing: the model's characters, a string",
  );
  refuses(() => read({ ...tang, chars: [...tang.chars] }), "chars is an array, not a string");
  const short = [...tang.chars].slice(0, 1493).join("");
  refuses(
    () => read({ ...tang, chars: short }),
    "chars has 1,493 characters but config.vocab = 1497 needs 1,495",
  );
  refuses(
    () => read({ ...tang, chars: tang.chars + "𝄞" }),
    "chars has 1,496 characters but config.vocab = 1497 needs 1,495",
  );
  const list = [...tang.chars];
  list[339] = list[11];
  const twice = `chars holds ${list[11]} (U+${list[11].codePointAt(0).toString(16).toUpperCase()}) twice: characters 12 and 340 (tokens 13 and 341)`;
  refuses(() => read({ ...tang, chars: list.join("") }), twice);
  const lone = [...tang.chars];
  lone[4] = "\ud800";
  refuses(
    () => read({ ...tang, chars: lone.join("") }),
    "chars character 5 is a lone surrogate (U+D800), not a character",
  );
});

test("a weights file that is not this description's: truncated, too long, another model's", () => {
  refuses(
    () => core.gptModelFromFiles(tangText, tangBin.subarray(0, tangBin.length - 1)),
    "the weights file has 209,827 bytes but this model (config.vocab 1497, config.dModel 64, config.layers 2, with MLPs) needs 209,828: it is 1 byte too short (cut off, or another model's weights)",
  );
  refuses(
    () => core.gptModelFromFiles(tangText, Uint8Array.from([...tangBin, 0, 0])),
    "the weights file has 209,830 bytes but this model (config.vocab 1497, config.dModel 64, config.layers 2, with MLPs) needs 209,828: it is 2 bytes too long (another model's weights, or more after them)",
  );
  refuses(
    () => core.gptModelFromFiles(tangText, goodFiles.weights),
    new RegExp(
      `^the weights file has ${goodFiles.weights.length.toLocaleString("en")} bytes but this model \\(config.vocab 1497, .*\\) needs 209,828: it is [\\d,]+ bytes too short \\(cut off, or another model's weights\\)$`,
    ),
  );
  refuses(
    () => core.gptModelFromFiles(tangText, new Uint8Array(0)),
    /^the weights file has 0 bytes but this model/,
  );
  refuses(
    () => core.gptModelFromFiles(tangText, tangBin.buffer),
    "weights must be a Uint8Array (the weights file's bytes), not an ArrayBuffer",
  );
  refuses(
    () => core.gptModelFromFiles(tangText),
    "weights must be a Uint8Array (the weights file's bytes), not undefined",
  );
});

test("weights that are NaN or infinite, and scales that are NaN, infinite or negative", () => {
  const layout = core.gptLayout(small);
  const wte = layout[0];
  const rowBytes = 4 + wte.cols;
  const ln1g = wte.rows * rowBytes; // the first vector's bytes, after wte's rows
  const corrupt = (at, x) => {
    const bytes = goodFiles.weights.slice();
    new DataView(bytes.buffer).setFloat32(at, x, true);
    return bytes;
  };
  const read = (bytes) => core.gptModelFromFiles(goodFiles.description, bytes);
  refuses(
    () => read(corrupt(rowBytes, NaN)),
    "the weights file's wte row 2 has the scale NaN; a row's scale must be a finite number ≥ 0",
  );
  refuses(
    () => read(corrupt(rowBytes, -Infinity)),
    "the weights file's wte row 2 has the scale -Infinity; a row's scale must be a finite number ≥ 0",
  );
  refuses(
    () => read(corrupt(0, -0.25)),
    "the weights file's wte row 1 has the scale -0.25; a row's scale must be a finite number ≥ 0",
  );
  refuses(
    () => read(corrupt(ln1g + 8, NaN)),
    "the weights file's l0.ln1_g[1][3] is NaN; every weight must be finite",
  );
  refuses(
    () => read(corrupt(goodFiles.weights.length - 4, Infinity)),
    `the weights file's lnf_b[1][${small.dModel}] is Infinity; every weight must be finite`,
  );
  const overflow = corrupt(0, 3e38);
  overflow[4] = 0x81; // int8 −127
  refuses(
    () => read(overflow),
    "the weights file's wte[1][1] is -Infinity (-127 × the row's scale 3e+38); every weight must be finite",
  );
});

test("writing: only a model whose files can be read again", () => {
  refuses(
    () => core.gptModelFiles(good),
    "description must be an object { chars, … }, not undefined",
  );
  refuses(() => core.gptModelFiles(good, {}), "chars is missing: the model's characters, a string");
  refuses(
    () => core.gptModelFiles(good, { chars: chars + "X" }),
    `chars has ${[...chars].length + 1} characters but config.vocab = ${small.vocab} needs ${small.vocab - 2}`,
  );
  refuses(
    () => core.gptModelFiles(good, { chars, format: "zip" }),
    'description.format is the string "zip"; it is written "attention-by-hand model"',
  );
  refuses(
    () => core.gptModelFiles(good, { chars, version: 2 }),
    "description.version is the number 2; it is written 1",
  );
  refuses(
    () => core.gptModelFiles(good, { chars, config: { ...small, layers: 2 } }),
    "description.config.layers is 2 but the model's is 1",
  );
  const nan = { config: small, params: good.params.slice() };
  nan.params[3] = NaN;
  refuses(
    () => core.gptModelFiles(nan, { chars }),
    "model.params[3] (wte[1][4]) is NaN, not a finite number",
  );
  refuses(
    () => core.gptModelFiles({ config: small, params: good.params.subarray(1) }, { chars }),
    `params has ${good.params.length - 1} numbers but the model has ${good.params.length}`,
  );
  refuses(
    () => core.gptModelFiles(good, { chars, steps: 10n }),
    /^description cannot be written as JSON: /,
  );
});

test("after many bad files, a good pair still loads", () => {
  let refused = 0;
  const weights = goodFiles.weights;
  for (let k = 0; k < 300; k++) {
    const bytes = weights.slice(0, (k * 7919) % (weights.length + 9));
    const description = k % 3 === 0 ? goodFiles.description.slice(0, k) : withConfig({ vocab: k });
    try {
      core.gptModelFromFiles(description, bytes);
    } catch {
      refused++;
    }
  }
  assert.equal(refused, 300);
  const loaded = core.gptModelFromFiles(goodFiles.description, weights);
  assert.deepEqual(loaded.model.params, quantizeHere(small, good.params).values);
  assert.equal(core.gptModelFromFiles(tangText, tangBin).chars, tang.chars);
});
