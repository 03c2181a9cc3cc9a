"""The small models' tokenizer, as the page's (web/tokens.js, the JS API's gptEncode, gptDecode and
textEncode): a model's vocabulary is its description's `chars`; id 0 ends a poem (⏎, and a line
starts after one), id 1 is any character the model does not know (�), and character i of
`chars` is id i + 2."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

# JavaScript's \s, which the page drops from a line (Python's isspace() also takes \x1c-\x1f, and
# not U+FEFF)
_JS_SPACE = re.compile(r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")

# ASCII punctuation as the poems write it, full width
_FULL_WIDTH = {",": "，", ".": "。", "?": "？", "!": "！", ";": "；", ":": "："}


def _ids(chars: Any) -> dict:
    if not isinstance(chars, str):
        raise TypeError(f"chars must be the model's characters, a str (its description's chars), not "
                        f"{type(chars).__name__}")
    return {c: i + 2 for i, c in enumerate(chars)}


def _line(name: str, text: Any) -> str:
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}")
    return text


def gpt_encode(text: str, chars: str) -> list:
    """A line read as the Tang model reads it: the end token first, then each character's id (an
    unknown one 1), spaces dropped and ASCII punctuation made full width, as the poems are written.
    For gpt_forward(model, gpt_encode(line, loaded.chars))."""
    ids = _ids(chars)
    read = [_FULL_WIDTH.get(c, c) for c in _JS_SPACE.sub("", _line("text", text))]
    return [0] + [ids.get(c, 1) for c in read]


def text_encode(text: str, chars: str) -> list:
    """A line of a text of one's own (text_corpus' chars) as token ids, every character as written,
    spaces too: the end token first, then each character's id (an unknown one 1)."""
    ids = _ids(chars)
    return [0] + [ids.get(c, 1) for c in _line("text", text)]


def gpt_decode(tokens: Any, chars: str) -> str:
    """Token ids as text, ⏎ for the end token and � for the unknown one."""
    ids = _ids(chars)
    last = len(ids) + 1
    out = []
    for i, t in enumerate(np.asarray(tokens).ravel().tolist() if not isinstance(tokens, list) else tokens):
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t <= last:
            raise ValueError(f"tokens[{i}] is {t!r}, not an id from 0 to {last}")
        out.append("⏎" if t == 0 else "�" if t == 1 else chars[t - 2])
    return "".join(out)
