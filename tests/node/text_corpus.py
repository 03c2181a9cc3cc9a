"""text_corpus.py: a learner's text read apart from the core, for text-corpus.test.mjs.

Reads JSON from stdin: a list of file paths; writes for each the lines, pieces, vocabulary,
streams and baselines as src/text.hpp describes them, computed here with Python and NumPy:
lines end in token 0, a line is cut every 100 characters, piece k is held out when k % 10 == 9
and chooses when k % 10 == 8, the vocabulary is the characters seen twice in training (most
frequent first, ties by code point, 2,000 tokens at most), and the three baselines.
"""
import json
import math
import sys
from collections import Counter

import numpy as np


def read(path):
    text = open(path, "rb").read().decode("utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    pieces = []  # (characters, ends its line)
    for line in lines:
        cuts = list(range(0, len(line), 100)) or [0]
        for at in cuts:
            part = line[at : at + 100]
            pieces.append((part, at + 100 >= len(line)))
    training = [p for k, p in enumerate(pieces) if k % 10 < 8]
    counts = Counter(c for part, _ in training for c in part)
    seen = sorted((c for c, n in counts.items() if n >= 2), key=lambda c: (-counts[c], ord(c)))
    seen = seen[:1998]
    ids = {c: t + 2 for t, c in enumerate(seen)}
    streams = {"train": [], "validation": [], "heldOut": []}
    for k, (part, ends) in enumerate(pieces):
        name = "heldOut" if k % 10 == 9 else "validation" if k % 10 == 8 else "train"
        streams[name] += [ids.get(c, 1) for c in part] + ([0] if ends else [])
    V = len(seen) + 2
    train = np.array(streams["train"])
    unigram = (np.bincount(train, minlength=V) + 1.0) / (len(train) + V)
    pairs = np.zeros((V, V))
    np.add.at(pairs, (train[:-1], train[1:]), 1)
    after = pairs.sum(axis=1)

    def loss(stream, lam):
        a, b = np.array(stream[:-1]), np.array(stream[1:])
        with np.errstate(invalid="ignore", divide="ignore"):
            pair = np.where(after[a] > 0, pairs[a, b] / np.maximum(after[a], 1), 0.0)
        p = np.where(after[a] > 0, lam * pair + (1 - lam) * unigram[b], unigram[b])
        return float(-np.log(p).mean())

    grid = [k / 100 for k in range(1, 100)]
    scored = [loss(streams["validation"], lam) for lam in grid]
    lam = grid[int(np.argmin(scored))]
    held = streams["heldOut"]
    return {
        "chars": "".join(seen),
        "lines": len(lines),
        "pieces": len(pieces),
        "characters": sum(len(line) for line in lines),
        "distinct": len(set("".join(lines))),
        **streams,
        "baselines": {
            "uniform": math.log(V),
            "unigram": float(-np.log(unigram[np.array(held[1:])]).mean()),
            "bigram": loss(held, lam),
            "lambda": lam,
        },
    }


if __name__ == "__main__":
    print(json.dumps([read(path) for path in json.load(sys.stdin)]))
