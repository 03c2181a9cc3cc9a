"""Byte-pair encoding through Python (bpe_learn, bpe_encode) against the BPE written apart in plain
Python (tests/fixtures/bpe_reference.py): every case of its bpe.json, and 300 more seeded texts it
learns and encodes here; every refusal with the JS API's words; the module usable after."""
import importlib.util
import json
import pathlib
import random

import numpy as np
import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bpe_reference", ROOT / "tests/fixtures/bpe_reference.py")
reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference)
fixture = json.loads((ROOT / "tests/fixtures/bpe.json").read_text(encoding="utf-8"))


def plain(x):
    """A result as the reference writes it: dicts, lists and ints (NumPy arrays as lists)."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return x.tolist()
    return x


def learned(case):
    return abh.bpe_learn(case["text"], merges=case["merges"], start=case["start"], presplit=case["presplit"])


def test_the_results_are_int32_arrays_and_attributes():
    t = abh.bpe_learn("啊啊啊", merges=3)
    assert t.steps[0].after.ids.dtype == np.int32
    assert t.vocabulary[1].text == "啊啊"
    assert (t.steps[0].count, t.steps[0].replaced) == (2, 1)


@pytest.mark.parametrize("case", fixture["cases"], ids=lambda c: f'{c["name"]} {c["start"]} {c["presplit"]}')
def test_every_case_of_the_reference(case):
    t = plain(learned(case))
    want = dict(case["expect"])
    made = want.pop("made")
    vocabulary = t.pop("vocabulary")
    assert t == want
    assert vocabulary[t["base"]:] == made
    for line in case["encoded"]:
        assert plain(abh.bpe_encode(learned(case), line["text"])) == line["expect"], line["text"]


def test_seeded_texts_learned_and_encoded_as_the_reference_does():
    rng = random.Random(6)
    letters = ["a", "b", "ab", " ", "啊", "明月", "\n", "，", "7", "😀", "\r\n", "\t"]
    for _ in range(300):
        text = "".join(rng.choice(letters) for _ in range(rng.randint(1, 40)))
        if not "".join(reference.lines_of(text)):
            continue
        merges, start, presplit = rng.randint(0, 15), rng.choice(["characters", "bytes"]), rng.random() < 0.5
        want = reference.learn(text, merges, start, presplit)
        got = plain(abh.bpe_learn(text, merges=merges, start=start, presplit=presplit))
        assert got == want, (text, merges, start, presplit)
        line = "".join(rng.choice(letters + ["z"]) for _ in range(rng.randint(1, 20)))
        if "".join(reference.lines_of(line)):
            assert plain(abh.bpe_encode(got, line)) == reference.encode(want, line), (text, line)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: abh.bpe_learn(""), ValueError, "the text is empty"),
        (lambda: abh.bpe_learn("\n\n"), ValueError, "the text has only line breaks"),
        (lambda: abh.bpe_learn("月" * 2001), ValueError,
         "the text has 2001 characters (line breaks count); at most 2000 are read here, so that every token can be "
         "shown"),
        (lambda: abh.bpe_learn("a\ud83db"), ValueError, "text holds a lone surrogate (U+D83D) at character 2, not text"),
        (lambda: abh.bpe_learn(b"ab"), TypeError, "text must be a str, not bytes"),
        (lambda: abh.bpe_learn("ab", merges=501), ValueError, "merges is 501; it must be from 0 to 500"),
        (lambda: abh.bpe_learn("ab", merges=-1), ValueError, "merges must be a whole number, not -1"),
        (lambda: abh.bpe_learn("ab", merges=2.5), ValueError, "merges must be a whole number, not 2.5"),
        (lambda: abh.bpe_learn("ab", start="words"), ValueError,
         'start is "words"; it must be "characters" or "bytes"'),
        (lambda: abh.bpe_learn("ab", presplit="yes"), TypeError, "presplit must be True or False, not 'yes'"),
        (lambda: abh.bpe_encode({"start": "characters", "alphabet": "ab", "steps": [{"left": 0, "right": 2}]}, "ab"),
         ValueError, "merge 1's right token is 2; it must be from 0 to 1 (the tokens made before it)"),
        (lambda: abh.bpe_encode({"start": "bytes", "alphabet": "ab", "steps": []}, "ab"), ValueError,
         "the alphabet must be empty from bytes: the 256 bytes are the base"),
        (lambda: abh.bpe_encode({"start": "characters", "alphabet": "aa", "steps": []}, "ab"), ValueError,
         "the alphabet holds a twice"),
        (lambda: abh.bpe_encode({"start": "characters", "steps": [{"left": 2**60, "right": 0}]}, "ab"), ValueError,
         "learned steps[0] has the token 1152921504606846976, past any vocabulary"),
        (lambda: abh.bpe_encode([], "ab"), TypeError, "learned must be what bpe_learn returned"),
    ],
)
def test_refusals(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message)


def test_the_module_is_right_after_many_refusals():
    case = fixture["cases"][0]
    before = plain(learned(case))
    for _ in range(500):
        for bad in ("", "\n", "月" * 2001):
            with pytest.raises(ValueError):
                abh.bpe_learn(bad)
    assert plain(learned(case)) == before
