// wasm/model-files.js: a model's two files (src/gpt_file.hpp, bound in src/wasm/gpt.cpp): its
// weights and its description, the JSON of { format, version, config, chars, … }, written
// (gptModelFiles) and read (gptModelFromFiles). What the description says about the model is
// checked in the core; its JSON's shape here, and where JSON.parse stopped in a text that is not
// JSON.
import { camel, check, declaredInput, int32, isObject, kindOf, refuseUnknown } from "./core.js";
import { packGptConfig, packParams } from "./gpt.js";

const modelFormat = "attention-by-hand model";
const modelVersion = 1;

// Where JSON.parse stopped in `text`: the index of the first character that is not JSON (the
// text's length when it ends too soon). Engines word and place their errors differently (V8 gives
// no position for an unexpected token), so the place is found here, by the grammar of RFC 8259.
function jsonErrorAt(text) {
  let i = 0;
  const fail = () => {
    throw i;
  };
  const space = () => {
    while (" \t\n\r".includes(text[i] ?? "x")) i++;
  };
  const word = (w) => {
    for (const c of w) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c < " ") fail();
      i++;
      if (c === '"') return;
      if (c !== "\\") continue;
      if (text[i] === "u") {
        i++;
        for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
      } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) {
        i++;
      } else {
        fail();
      }
    }
  };
  const value = () => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ":") fail();
          i++;
        }
        value();
        space();
        if (text[i] === close) return void i++;
        if (text[i] !== ",") fail();
        i++;
      }
    }
    if (c === '"') return string();
    if (c === "t" || c === "f" || c === "n") return word({ t: "true", f: "false", n: "null" }[c]);
    numberPattern.lastIndex = i;
    if (!numberPattern.test(text)) fail();
    i = numberPattern.lastIndex;
  };
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (at) {
    if (typeof at === "number") return at;
    return -1; // nested too deep to follow here: the engine's words alone
  }
}

// The description's text parsed, or an Error saying what JSON.parse said and where: line and
// column (from 1, in characters).
function parseDescription(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = e.message
      .replace(/,? (?:\.\.\.)?".*" is not valid JSON$/s, "")
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(/^JSON\.parse: /, "");
    const at = jsonErrorAt(text);
    if (at < 0) throw new Error(`the description is not JSON: ${reason}`);
    const before = text.slice(0, at).split("\n");
    const where = `line ${before.length}, column ${[...before.at(-1)].length + 1}`;
    throw new Error(`the description is not JSON: ${reason} (${where})`);
  }
}

// The description as an object, its format and version read (no format: version 1, as tang.json).
function readDescription(description) {
  const d = typeof description === "string" ? parseDescription(description) : description;
  if (!isObject(d)) {
    const given = typeof description === "string" ? "JSON of " : "";
    throw new Error(
      `the description must be an object { format, version, config, chars, … } or its JSON text, not ${given}${kindOf(d)}`,
    );
  }
  if ("format" in d && d.format !== modelFormat) {
    throw new Error(`format is ${kindOf(d.format)}; this reads only "${modelFormat}" files`);
  }
  if (!("config" in d) && !("format" in d)) {
    const fields = Object.keys(d);
    const shown = fields.slice(0, 6).join(", ") + (fields.length > 6 ? ", …" : "");
    throw new Error(
      `the description has no config: it is not a model's description (its fields: ${shown || "none"})`,
    );
  }
  if ("format" in d && !("version" in d)) throw new Error("version is missing");
  if ("version" in d && d.version !== modelVersion) {
    throw new Error(`version is ${kindOf(d.version)}; this reads version ${modelVersion}`);
  }
  return d;
}

// A description's config, each field checked as the JSON gives it, by the core's declaration
// (GptConfig), packed for the core, which checks the ranges.
function readDescriptionConfig(core, config) {
  if (config === undefined) throw new Error("config is missing");
  if (!isObject(config)) throw new Error(`config is ${kindOf(config)}, not an object`);
  const fields = declaredInput(core, "GptConfig");
  const known = fields.map((f) => camel(f.name));
  refuseUnknown("config", config, known);
  const packed = {};
  fields.forEach((field, i) => {
    const name = known[i];
    const x = field.sometimes ? (config[name] ?? field.default) : config[name];
    if (x === undefined) throw new Error(`config.${name} is missing`);
    if (field.scalar === "bool") {
      if (typeof x !== "boolean")
        throw new Error(`config.${name} is ${kindOf(x)}, not true or false`);
    } else if (typeof x !== "number") {
      throw new Error(`config.${name} is ${kindOf(x)}, not a number`);
    } else if (!field.scalar.startsWith("float")) {
      if (!Number.isInteger(x)) throw new Error(`config.${name} is ${x}, not a whole number`);
      if (Math.abs(x) > int32) {
        throw new Error(`config.${name} is ${x}, past any size the core reads (${int32})`);
      }
    }
    packed[name] = x;
  });
  return packed;
}

// chars as the JSON gives it: a string of whole characters (no lone surrogate, which the core's
// UTF-8 cannot hold); the core checks its count and that no character comes twice.
function readChars(chars) {
  if (chars === undefined) throw new Error("chars is missing: the model's characters, a string");
  if (typeof chars !== "string") throw new Error(`chars is ${kindOf(chars)}, not a string`);
  const lone = [...chars].findIndex((c) => /\p{Surrogate}/u.test(c));
  if (lone >= 0) {
    const code = [...chars][lone].codePointAt(0).toString(16).toUpperCase();
    throw new Error(`chars character ${lone + 1} is a lone surrogate (U+${code}), not a character`);
  }
  return chars;
}

// gptModelFiles and gptModelFromFiles, lesson 5's functions for a model's two files.
export function modelFileLabs(core) {
  return {
    /**
     * A model's two files, to keep it: { weights: the weights file's bytes (int8, as tang.bin),
     * description: the JSON text of { format, version, config, chars, …the rest of description } }.
     * description must give chars; its format, version and config, if given, must be these.
     */
    gptModelFiles(model, description) {
      const config = packGptConfig(core, model?.config);
      const params = packParams(core, model, config);
      if (!isObject(description)) {
        throw new Error(`description must be an object { chars, … }, not ${kindOf(description)}`);
      }
      const { format, version, config: given, chars, ...rest } = description;
      if (format !== undefined && format !== modelFormat) {
        throw new Error(`description.format is ${kindOf(format)}; it is written "${modelFormat}"`);
      }
      if (version !== undefined && version !== modelVersion) {
        throw new Error(`description.version is ${kindOf(version)}; it is written ${modelVersion}`);
      }
      if (given !== undefined) {
        const other = packGptConfig(core, given);
        const differs = Object.keys(config).find((name) => other[name] !== config[name]);
        if (differs) {
          throw new Error(
            `description.config.${differs} is ${other[differs]} but the model's is ${config[differs]}`,
          );
        }
      }
      const checked = core.gptCheckChars(config, readChars(chars));
      if (checked !== undefined) check(checked);
      const weights = check(core.gptQuantize(config, params));
      const written = { format: modelFormat, version: modelVersion, config, chars, ...rest };
      let text;
      try {
        text = JSON.stringify(written, null, 2);
      } catch (e) {
        throw new Error(`description cannot be written as JSON: ${e.message}`);
      }
      return { weights, description: `${text}\n` };
    },

    /**
     * A model from its two files, every field checked before use: description (its JSON text, or
     * the parsed object) and weights (the weights file's bytes) → { model: { config, params },
     * description (the parsed object), chars }; or an Error naming the field and what is wrong.
     */
    gptModelFromFiles(description, weights) {
      const d = readDescription(description);
      const config = readDescriptionConfig(core, d.config);
      const chars = readChars(d.chars);
      if (!(weights instanceof Uint8Array)) {
        throw new Error(
          `weights must be a Uint8Array (the weights file's bytes), not ${kindOf(weights)}`,
        );
      }
      const params = check(core.gptReadModel(config, chars, weights));
      return { model: { config, params }, description: d, chars };
    },
  };
}
