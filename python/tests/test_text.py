"""A learner's own text through Python: the same reading as the page's core (text_corpus), checked
against tests/node/text_corpus.py, the reading written apart in Python and NumPy; every text
that cannot be trained on refused with the page's words; the module usable after."""
import importlib.util
import math
import pathlib

import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("text_corpus", ROOT / "tests/node/text_corpus.py")
text_reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(text_reference)


@pytest.mark.parametrize("name", ["tang300", "song100", "genesis"])
def test_a_preset_is_read_as_the_reference_reads_it(name):
    path = ROOT / f"web/generated/texts/{name}.txt"
    got = abh.text_corpus(path.read_bytes())
    want = text_reference.read(path)
    assert got.chars == want["chars"]
    for key in ("lines", "pieces", "characters", "distinct"):
        assert got[key] == want[key], key
    for key, theirs in (("train", "train"), ("validation", "validation"), ("held_out", "heldOut")):
        assert list(got[key]) == want[theirs], key
    for key, y in want["baselines"].items():
        assert math.isclose(got.baselines[key], y, abs_tol=1e-9), key
    assert sum(got.counts) == len(got.train)


def test_a_str_and_its_bytes_read_the_same():
    text = "床前明月光，\n疑是地上霜。\n" * 12
    a, b = abh.text_corpus(text), abh.text_corpus(text.encode())
    assert a.chars == b.chars and a.baselines == b.baselines
    assert list(a.train) == list(b.train) and list(a.held_out) == list(b.held_out)


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "the text is empty"),
        ("a\nb\n", "too short to hold a tenth of it out: 2 lines, 2 characters"),
        ("a" * 3000, "one character only (“a”, 3,000 times)"),
        (b"\x89PNG\r\n\x1a\n", "not UTF-8: the bytes from byte 1 (0x89)"),
        ("a\ud800b", "not UTF-8"),
        (b"a\x00b", "control character U+0000 at character 2"),
        (b"a" * (1 << 20) + b"b", "more than 1,048,576 bytes (1 MiB)"),
    ],
)
def test_a_text_that_cannot_be_trained_on_is_refused_with_why(text, why):
    for _ in range(3):
        with pytest.raises(ValueError) as e:
            abh.text_corpus(text)
        assert why in str(e.value)
    assert len(abh.text_corpus("ab\n" * 20).train) > 0


def test_not_a_text():
    with pytest.raises(TypeError, match="text must be a str or bytes, not int"):
        abh.text_corpus(42)
