# gpt_baselines.py: the model lab's three baselines (uniform, unigram, bigram) measured again
# from Debian's fortunes-zh with NumPy, written apart from src/corpus.cpp and
# tools/baselines.mjs: its own reading of the fortune files, split, vocabulary and counts.
# Prints JSON: the losses, λ, and the held-out token ids (which the test compares with the
# streams the page trains on). Run by tests/node/gpt-baselines.test.mjs.
import json
import math
import sys

import numpy as np

FORTUNES = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/games/fortunes"
MARKS = set("，。？！、：；“”《》")


def kept(c):
    o = ord(c)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or c in MARKS


def bodies(name):
    """Each entry's kept characters; lines with an ANSI escape (titles, authors) dropped."""
    with open(f"{FORTUNES}/{name}", encoding="utf-8") as f:
        entries = f.read().split("\n%\n")
    out = []
    for entry in entries:
        lines = [line for line in entry.split("\n") if "\x1b" not in line and line != "%"]
        text = "".join(c for line in lines for c in line if kept(c))
        if text:
            out.append(text)
    return out


tang = bodies("tang300")
train = [p for i, p in enumerate(tang) if i % 10 < 8]
validation = [p for i, p in enumerate(tang) if i % 10 == 8]
held = [p for i, p in enumerate(tang) if i % 10 == 9]

counts = {}
for poem in train:
    for c in poem:
        counts[c] = counts.get(c, 0) + 1
kept_chars = sorted((c for c in counts if counts[c] >= 2), key=lambda c: (-counts[c], ord(c)))
ids = {c: i + 2 for i, c in enumerate(kept_chars)}
V = len(kept_chars) + 2


def stream(poems):
    ids_out = []
    for poem in poems:
        ids_out += [ids.get(c, 1) for c in poem] + [0]
    return np.array(ids_out, dtype=np.int64)


training = stream(train + bodies("song100") + bodies("chinese"))
valid, held_out = stream(validation), stream(held)

unigram = (np.bincount(training, minlength=V) + 1.0) / (len(training) + V)
pairs = np.zeros((V, V))
np.add.at(pairs, (training[:-1], training[1:]), 1.0)
row = pairs.sum(axis=1)
assert (row > 0).all()


def bigram_loss(s, lam):
    a, b = s[:-1], s[1:]
    return float(-np.log(lam * pairs[a, b] / row[a] + (1 - lam) * unigram[b]).mean())


grid = [k / 100 for k in range(1, 100)]
lam = min(grid, key=lambda x: bigram_loss(valid, x))
print(
    json.dumps(
        {
            "vocab": V,
            "poems": len(held),
            "targets": len(held_out) - 1,
            "uniform": math.log(V),
            "unigram": float(-np.log(unigram[held_out[1:]]).mean()),
            "bigram": bigram_loss(held_out, lam),
            "lambda": lam,
            "trainingTokens": len(training),
            "heldOut": held_out.tolist(),
        }
    )
)
