"""The induction task in Python: its sequences against a generator written here (splitmix64 in
Python integers, as docs/model.md describes it), the same as the page's; its scores on a model
that attends evenly and predicts nothing, by hand; errors."""

import math

import numpy as np
import pytest

import attention_by_hand as abh

TASK = {"vocab": 32, "context": 20, "min_segment": 3, "max_segment": 10}


def splitmix64(seed):
    state = seed % 2**64

    def uniform():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        z ^= z >> 31
        return (z >> 11) / 2**53

    return uniform


def reference_batch(task, batch, seed):
    u = splitmix64(seed)
    tokens, targets, segments = [], [], []
    for _ in range(batch):
        m = task["min_segment"] + int(u() * (task["max_segment"] - task["min_segment"] + 1))
        pool = list(range(task["vocab"]))
        for i in range(m):
            j = i + int(u() * (task["vocab"] - i))
            pool[i], pool[j] = pool[j], pool[i]
        seq = pool[:m] * 2
        while len(seq) < task["context"] + 1:
            seq.append(int(u() * task["vocab"]))
        tokens += seq[:-1]
        targets += seq[1:]
        segments.append(m)
    return tokens, targets, segments


def test_sequences_are_the_documented_generators():
    for seed in (1, 7, 2**40 + 3):
        b = abh.induction_batch(TASK, batch=30, seed=seed)
        tokens, targets, segments = reference_batch(TASK, 30, seed)
        assert list(b.tokens) == tokens
        assert list(b.targets) == targets
        assert list(b.segments) == segments


def test_scores_of_a_model_that_attends_evenly():
    config = {"vocab": 32, "context": 20, "d_model": 16, "layers": 2, "heads": 2, "mlp": False}
    last = abh.gpt_layout(config)[-1]
    model = {"config": config, "params": np.zeros(last.offset + last.cols, np.float32)}
    b = abh.induction_batch(TASK, batch=5, seed=2)
    s = abh.induction_scores(model, b)
    # every score is 0: position i gives 1/(i + 1) to each of 0 … i; every logit is 0
    previous = sum(1 / (i + 1) for i in range(1, 20)) / 19
    weights = [1 / (i + 1) for m in b.segments for i in range(m, 2 * m)]
    assert s.first_loss == pytest.approx(math.log(32), abs=1e-6)
    assert s.repeat_loss == pytest.approx(math.log(32), abs=1e-6)
    assert np.allclose(s.previous, previous, atol=1e-6)
    assert np.allclose(s.induction, sum(weights) / len(weights), atol=1e-6)


def test_errors_name_the_field():
    with pytest.raises(ValueError, match="max_segment is 11"):
        abh.induction_batch({**TASK, "max_segment": 11}, batch=2)
    with pytest.raises(ValueError, match="task min_segment must be a whole number"):
        abh.induction_batch({**TASK, "min_segment": 2.5}, batch=2)
