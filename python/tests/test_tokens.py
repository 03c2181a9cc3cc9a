"""The small models' tokenizer in Python (gpt_encode, text_encode, gpt_decode) against the page's
own (web/tokens.js, run in Node) on the Tang model's vocabulary: lines with ASCII and full-width
punctuation, every kind of space JavaScript's \\s drops and characters Python's isspace() would
drop but the page keeps, unknown characters, and characters outside the BMP; then what
gpt_forward reads, and bad arguments."""

import json
import pathlib
import subprocess

import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
TANG = abh.gpt_model_from_files(ROOT / "web/labs/gpt/tang.json", ROOT / "web/labs/gpt/tang.bin")
LINES = ["床前明月光", "床前明月光, 疑是地上霜.", "举头望明月?低头思故乡!", "a b\tc\u3000d\ufeffe\u00a0f",
         "春\x1c眠\x1f不觉晓", "😀花落知多少", "", " ", "；:;：", "\u2028\u2029\u200b\u180e"]

PAGE = """
import { gptEncode, textEncode, gptDecode } from "./web/tokens.js";
const { lines, chars } = JSON.parse(process.argv[1]);
console.log(JSON.stringify(lines.map((l) => {
  const g = gptEncode(l, chars);
  return { gpt: g, text: textEncode(l, chars), back: gptDecode(g, chars) };
})));
"""


@pytest.fixture(scope="module")
def page():
    run = subprocess.run(["node", "--input-type=module", "-e", PAGE, json.dumps({"lines": LINES, "chars": TANG.chars})],
                         cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(run.stdout)


@pytest.mark.parametrize("i", range(len(LINES)))
def test_a_line_is_read_as_the_page_reads_it(page, i):
    line = LINES[i]
    assert abh.gpt_encode(line, TANG.chars) == page[i]["gpt"], repr(line)
    assert abh.text_encode(line, TANG.chars) == page[i]["text"], repr(line)
    assert abh.gpt_decode(abh.gpt_encode(line, TANG.chars), TANG.chars) == page[i]["back"]


def test_by_hand_and_into_the_model():
    ids = abh.gpt_encode("床前, 明月", TANG.chars)
    # the end token, then each character's place in chars plus 2, the comma made full width
    assert ids == [0] + [TANG.chars.index(c) + 2 for c in "床前，明月"]
    assert abh.gpt_decode(ids, TANG.chars) == "⏎床前，明月"
    assert abh.gpt_encode("床X", TANG.chars)[-1] == 1
    assert len(abh.gpt_forward(TANG.model, ids).layers) == TANG.model.config["layers"]


@pytest.mark.parametrize("call, error, words", [
    (lambda: abh.gpt_encode(["床"], TANG.chars), TypeError, "text must be a str, not list"),
    (lambda: abh.gpt_encode("床", list(TANG.chars)), TypeError, "chars must be the model's characters, a str"),
    (lambda: abh.gpt_decode([0, 99999], TANG.chars), ValueError, "tokens[1] is 99999, not an id from 0 to"),
    (lambda: abh.gpt_decode([0, 1.5], TANG.chars), ValueError, "tokens[1] is 1.5"),
    (lambda: abh.gpt_decode([True], TANG.chars), ValueError, "tokens[0] is True"),
])
def test_bad_arguments_are_refused_by_name(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in str(e.value)
