"""A model kept in its two files (gpt_model_files) and loaded from them (gpt_model_from_files), as
in the JS API: the shipped pair loads and is written again byte for byte; a model's files give
the int8 model's numbers exactly, against a quantization written here in NumPy; every way a
description or a weights file can be wrong is refused with a ValueError that names the field, in
the JS API's words where the core checks (the same messages, checked against Node's); a good pair
loads after many bad ones."""

import json
import pathlib
import struct
import subprocess

import numpy as np
import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
TANG_JSON = ROOT / "web/labs/gpt/tang.json"
TANG_BIN = ROOT / "web/labs/gpt/tang.bin"
TANG = json.loads(TANG_JSON.read_text(encoding="utf-8"))
TEXT = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
CHARS = "".join(dict.fromkeys(TEXT))
SMALL = {"vocab": len(CHARS) + 2, "context": 16, "d_model": 16, "layers": 1, "heads": 2}


def quantize_here(config, params):
    """The weights file as docs/model.md describes it, in NumPy: per matrix row a float32 scale (the
    row's largest |value| / 127) and round(value / scale) as int8, halves away from 0; vectors as
    float32. And the float32 values it holds."""
    out, values = bytearray(), np.empty_like(params)
    for t in abh.gpt_layout(config):
        block = params[t.offset:t.offset + t.rows * t.cols].reshape(t.rows, t.cols)
        if t.rows == 1:
            out += block.astype("<f4").tobytes()
            values[t.offset:t.offset + t.cols] = block[0]
            continue
        for r, row in enumerate(block):
            top = float(np.max(np.abs(row.astype(np.float64))))
            scale = np.float32(top / 127) if top > 0 else np.float32(1)
            q = np.sign(row) * np.floor(np.abs(row.astype(np.float64) / np.float64(scale)) + 0.5)
            out += struct.pack("<f", scale) + q.astype(np.int8).tobytes()
            at = t.offset + r * t.cols
            values[at:at + t.cols] = (q.astype(np.float32) * scale).astype(np.float32) + np.float32(0)
    return bytes(out), values


def small_model():
    """The small model with seeded random weights (Python has no trainer): N(0, 0.05)."""
    size = sum(t.rows * t.cols for t in abh.gpt_layout(SMALL))
    params = np.random.default_rng(7).normal(0, 0.05, size).astype(np.float32)
    return {"config": SMALL, "params": params}


def test_the_shipped_pair_loads_and_is_written_again_byte_for_byte():
    loaded = abh.gpt_model_from_files(TANG_JSON.read_text(encoding="utf-8"), TANG_BIN.read_bytes())
    assert loaded.chars == TANG["chars"]
    assert loaded.description == TANG
    np.testing.assert_array_equal(loaded.model.params, abh.gpt_model(TANG["config"], str(TANG_BIN)).params)
    by_path = abh.gpt_model_from_files(TANG_JSON, TANG_BIN)
    np.testing.assert_array_equal(by_path.model.params, loaded.model.params)
    rest = {k: v for k, v in TANG.items() if k != "config"}
    weights, description = abh.gpt_model_files(loaded.model, rest)
    assert weights == TANG_BIN.read_bytes()
    written = json.loads(description)
    assert list(written)[:4] == ["format", "version", "config", "chars"]
    assert (written["format"], written["version"]) == ("attention-by-hand model", 1)
    assert written["config"] == {**TANG["config"], "mlp": True}
    assert {k: v for k, v in written.items() if k not in ("format", "version", "config")} == rest
    again = abh.gpt_model_from_files(description, weights)
    np.testing.assert_array_equal(again.model.params, loaded.model.params)
    assert abh.gpt_model_files(again.model, again.description) == (weights, description)


def test_a_models_files_give_the_int8_models_numbers_exactly():
    model = small_model()
    weights, description = abh.gpt_model_files(model, {"chars": CHARS, "text": "静夜思"})
    want_bytes, want_values = quantize_here(SMALL, model["params"])
    assert weights == want_bytes
    loaded = abh.gpt_model_from_files(description, weights)
    assert loaded.description["text"] == "静夜思" and loaded.chars == CHARS
    np.testing.assert_array_equal(loaded.model.params, want_values)
    tokens = [0] + [CHARS.index(c) + 2 for c in "床前明月光"]
    from_file = abh.gpt_forward(loaded.model, tokens)
    quantized = abh.gpt_forward({"config": SMALL, "params": want_values}, tokens)
    np.testing.assert_array_equal(from_file.logits, quantized.logits)
    float32 = abh.gpt_forward(model, tokens)
    gap = float(np.max(np.abs(from_file.logits - float32.logits)))
    assert 0 < gap < 0.05, gap


def refused(description, weights, message):
    with pytest.raises(ValueError) as e:
        abh.gpt_model_from_files(description, weights)
    assert str(e.value) == message if isinstance(message, str) else message.search(str(e.value)), str(e.value)


def test_a_description_that_is_not_a_models():
    weights, description = abh.gpt_model_files(small_model(), {"chars": CHARS})
    refused('{ "config": }', weights, "the description is not JSON: Expecting value (line 1, column 13)")
    refused(description[:60], weights, "the description is not JSON: Unterminated string starting at (line 4, column 3)")
    refused('{"config": NaN}', weights, "the description is not JSON: NaN is not a JSON number")
    package = (ROOT / "package.json").read_text()
    refused(package, weights, "the description has no config: it is not a model's description (its fields: name, "
            "version, description, license, type, main, …)")
    refused("[1, 2]", weights, "the description must be an object { format, version, config, chars, … } or its "
            "JSON text, not JSON of an array")
    d = json.loads(description)
    refused({**d, "format": "gguf"}, weights, 'format is the string "gguf"; this reads only "attention-by-hand model" files')
    refused({**d, "version": 2}, weights, "version is the number 2; this reads version 1")
    refused({k: v for k, v in d.items() if k != "version"}, weights, "version is missing")
    refused({k: v for k, v in d.items() if k != "config"}, weights, "config is missing")
    refused({**d, "config": None}, weights, "config is null, not an object")


def test_each_config_field_and_chars():
    weights, description = abh.gpt_model_files(small_model(), {"chars": CHARS})
    d = json.loads(description)
    limits = {"vocab": 65536, "context": 1024, "dModel": 1024, "layers": 16, "heads": 64}
    for name, high in limits.items():
        def read(x, name=name):
            return {**d, "config": {**d["config"], name: x}}
        refused({**d, "config": {k: v for k, v in d["config"].items() if k != name}}, weights, f"config.{name} is missing")
        refused(read("64"), weights, f'config.{name} is the string "64", not a number')
        refused(read(True), weights, f"config.{name} is true, not a number")
        refused(read(2.5), weights, f"config.{name} is 2.5, not a whole number")
        refused(read(0), weights, f"config.{name} is 0; it must be from 1 to {high}")
        refused(read(high + 1), weights, f"config.{name} is {high + 1}; it must be from 1 to {high}")
        refused(read(10**12), weights, f"config.{name} is 1000000000000, past any size the core reads (2147483647)")
    refused({**d, "config": {**d["config"], "heads": 3}}, weights,
            "config.dModel 16 is not config.heads × an even d_head (config.heads = 3; RoPE turns pairs)")
    refused({**d, "config": {**d["config"], "base": -1}}, weights, "config.base must be a finite number above 0")
    refused({**d, "config": {**d["config"], "mlp": "yes"}}, weights, 'config.mlp is the string "yes", not true or false')
    # a field the loader does not know is refused by name, not ignored
    refused({**d, "config": {**d["config"], "Base": 100}}, weights,
            'config has no field "Base"; its fields are vocab, context, dModel, layers, heads, base, mlp')
    tang_bin = TANG_BIN.read_bytes()
    refused({k: v for k, v in TANG.items() if k != "chars"}, tang_bin, "chars is missing: the model's characters, a string")
    refused({**TANG, "chars": list(TANG["chars"])}, tang_bin, "chars is an array, not a string")
    refused({**TANG, "chars": TANG["chars"][:1493]}, tang_bin,
            "chars has 1,493 characters but config.vocab = 1497 needs 1,495")
    twice = list(TANG["chars"])
    twice[339] = twice[11]
    refused({**TANG, "chars": "".join(twice)}, tang_bin,
            f"chars holds {twice[11]} (U+{ord(twice[11]):04X}) twice: characters 12 and 340 (tokens 13 and 341)")
    lone = list(TANG["chars"])
    lone[4] = "\ud800"
    refused({**TANG, "chars": "".join(lone)}, tang_bin,
            "chars character 5 is a lone surrogate (U+D800), not a character")


def test_a_weights_file_that_is_wrong():
    tang_json, tang_bin = TANG_JSON.read_text(encoding="utf-8"), TANG_BIN.read_bytes()
    refused(tang_json, tang_bin[:-1], "the weights file has 209,827 bytes but this model (config.vocab 1497, "
            "config.dModel 64, config.layers 2, with MLPs) needs 209,828: it is 1 byte too short (cut off, or "
            "another model's weights)")
    refused(tang_json, tang_bin + b"\0\0", "the weights file has 209,830 bytes but this model (config.vocab 1497, "
            "config.dModel 64, config.layers 2, with MLPs) needs 209,828: it is 2 bytes too long (another model's "
            "weights, or more after them)")
    row = 4 + 64  # wte's rows: a scale, then 64 int8
    for scale, shown in ((float("nan"), "NaN"), (float("-inf"), "-Infinity"), (-0.25, "-0.25")):
        bad = bytearray(tang_bin)
        bad[row:row + 4] = struct.pack("<f", scale)
        refused(tang_json, bytes(bad),
                f"the weights file's wte row 2 has the scale {shown}; a row's scale must be a finite number ≥ 0")
    bad = bytearray(tang_bin)
    ln1_g = 1497 * row
    bad[ln1_g + 8:ln1_g + 12] = struct.pack("<f", float("nan"))
    refused(tang_json, bytes(bad), "the weights file's l0.ln1_g[1][3] is NaN; every weight must be finite")
    with pytest.raises(TypeError, match="weights must be the weights file's bytes or its path, not list"):
        abh.gpt_model_from_files(tang_json, list(tang_bin[:4]))


def test_writing_only_what_can_be_read_again():
    model = small_model()
    with pytest.raises(ValueError, match=r"^chars is missing"):
        abh.gpt_model_files(model, {})
    with pytest.raises(ValueError, match=rf"^chars has {len(CHARS) + 1} characters but config.vocab = {len(CHARS) + 2}"):
        abh.gpt_model_files(model, {"chars": CHARS + "X"})
    with pytest.raises(ValueError, match=r"^description.config.layers is 2 but the model's is 1$"):
        abh.gpt_model_files(model, {"chars": CHARS, "config": {**SMALL, "layers": 2}})
    with pytest.raises(ValueError, match=r"^description.version is the number 2; it is written 1$"):
        abh.gpt_model_files(model, {"chars": CHARS, "version": 2})
    with pytest.raises(ValueError, match=r"^description cannot be written as JSON: "):
        abh.gpt_model_files(model, {"chars": CHARS, "loss": np.float32(1)})
    with pytest.raises(ValueError, match=r"^params has 10 numbers but the model has"):
        abh.gpt_model_files({"config": SMALL, "params": model["params"][:10]}, {"chars": CHARS})


def test_python_and_js_say_the_same_and_read_each_others_files(tmp_path):
    """Both bindings word the same message for the same bad description (the core's checks, and the
    shape checks each writes), write the same description for the same model, and a pair Python
    wrote loads in JS."""
    weights, description = abh.gpt_model_files(small_model(), {"chars": CHARS})
    (tmp_path / "m.json").write_text(description, encoding="utf-8")
    (tmp_path / "m.bin").write_bytes(weights)
    d = json.loads(description)
    cases = [
        {**d, "config": {**d["config"], "layers": 17}},
        {**d, "chars": CHARS[:-1]},
        {**d, "chars": CHARS[:-1] + CHARS[0]},
        {**d, "config": {**d["config"], "dModel": "16"}},
        {**d, "config": {**d["config"], "heads": 2.5}},
        {**d, "format": "gguf"},
        {**d, "version": 2},
        {"vocab": 1497, "poems": 31},
        {**d, "chars": None},
    ]
    script = """
      import { readFileSync } from "node:fs";
      import { loadLabs } from "./web/attention.js";
      const core = await loadLabs();
      const [dir, cases] = [process.argv[1], JSON.parse(process.argv[2])];
      const weights = new Uint8Array(readFileSync(dir + "/m.bin"));
      const loaded = core.gptModelFromFiles(readFileSync(dir + "/m.json", "utf8"), weights);
      const messages = cases.map((c) => { try { core.gptModelFromFiles(c, weights); } catch (e) { return e.message; } });
      messages.push((() => { try { core.gptModelFromFiles(readFileSync(dir + "/m.json", "utf8"), weights.subarray(1)); } catch (e) { return e.message; } })());
      const tang = JSON.parse(readFileSync("web/labs/gpt/tang.json", "utf8"));
      const { config, ...rest } = tang;
      const tangModel = core.gptModelFromFiles(tang, new Uint8Array(readFileSync("web/labs/gpt/tang.bin"))).model;
      const written = core.gptModelFiles(tangModel, rest).description;
      console.log(JSON.stringify({ params: Array.from(loaded.model.params), messages, written }));
    """
    run = subprocess.run(["node", "--input-type=module", "-e", script, str(tmp_path), json.dumps(cases)],
                         cwd=ROOT, check=True, capture_output=True, text=True)
    page = json.loads(run.stdout)
    np.testing.assert_array_equal(np.float32(page["params"]), abh.gpt_model_from_files(description, weights).model.params)
    mine = []
    for c in cases:
        with pytest.raises(ValueError) as e:
            abh.gpt_model_from_files(c, weights)
        mine.append(str(e.value))
    with pytest.raises(ValueError) as e:
        abh.gpt_model_from_files(description, weights[1:])
    mine.append(str(e.value))
    assert page["messages"] == mine
    # and both write the same description, to the byte
    loaded = abh.gpt_model_from_files(TANG_JSON, TANG_BIN)
    rest = {k: v for k, v in TANG.items() if k != "config"}
    assert abh.gpt_model_files(loaded.model, rest)[1] == page["written"]


def test_after_many_bad_files_a_good_pair_loads():
    weights, description = abh.gpt_model_files(small_model(), {"chars": CHARS})
    d = json.loads(description)
    for k in range(300):
        bad = description[:k] if k % 3 == 0 else {**d, "config": {**d["config"], "vocab": k}}
        with pytest.raises(ValueError):
            abh.gpt_model_from_files(bad, weights[: (k * 7919) % (len(weights) + 9)])
    np.testing.assert_array_equal(abh.gpt_model_from_files(description, weights).model.params,
                                  quantize_here(SMALL, small_model()["params"])[1])
