"""Every keyword of the package reaches the core: for each, a call with it set gives what a
NumPy reference written here gives for that setting, or (where the reference would be the
core again) a result that differs from the default's and equals the default's when the keyword
is given its default value. A keyword the layer dropped (RoPE's base, always 10000, once) fails
here."""

import math

import numpy as np
import pytest

import attention_by_hand as abh

Q = np.array([[1.0, 0.5], [0.0, 2.0], [-1.0, 1.0]])
K = np.array([[1.0, 0.0], [0.5, 1.0], [2.0, -1.0], [0.0, 0.3]])
V = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0], [0.5, 0.5]])
MASK = np.array([[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 0, 0]], dtype=bool)


def reference(q, k, v, *, scale=None, mask=None, mask_value=-math.inf):
    """softmax(mask(Q·Kᵀ·scale))·V in float64, written apart from the core."""
    s = q @ k.T * (1 / math.sqrt(q.shape[1]) if scale is None else scale)
    if mask is not None:
        s = np.where(mask, s, mask_value)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w, w @ v


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


CAUSAL = np.tril(np.ones((3, 4), dtype=bool))

# each keyword of attention() and the reference's setting for it
ATTENTION_CASES = {
    "scale": ({"scale": 0.3}, {"scale": 0.3}),
    "mask": ({"mask": MASK}, {"mask": MASK}),
    "mask 'causal'": ({"mask": "causal"}, {"mask": CAUSAL}),
    "causal": ({"causal": True}, {"mask": CAUSAL}),
    "mask_value": ({"mask": MASK, "mask_value": -2.0}, {"mask": MASK, "mask_value": -2.0}),
}


@pytest.mark.parametrize("name", ATTENTION_CASES)
def test_attention_keywords_reach_the_core(name):
    given, ref = ATTENTION_CASES[name]
    w, out = reference(Q, K, V, **ref)
    r = abh.attention(Q, K, V, **given)
    close(r.weights, w)
    close(r.output, out)
    # and through the backward pass
    b = abh.attention_backward(Q, K, V, np.ones((3, 2)), **given)
    close(b.trace.weights, w)


def test_self_attention_keywords_reach_the_core():
    x = np.array([[1.0, 0.0], [0.5, 1.0], [2.0, -1.0], [0.0, 0.3]])
    wq = np.array([[1.0, 0.5], [0.0, 2.0]])
    wk = np.array([[0.3, 1.0], [1.0, 0.0]])
    wv = np.array([[1.0, 0.0], [0.5, 2.0]])
    q, k, v = x @ wq, x @ wk, x @ wv
    mask = np.array([[1, 0, 1, 1], [1, 1, 0, 0], [0, 0, 1, 0], [1, 1, 1, 1]], dtype=bool)
    for given, ref in (
        ({"scale": 0.3}, {"scale": 0.3}),
        ({"mask": mask}, {"mask": mask}),
        ({"causal": True}, {"mask": np.tril(np.ones((4, 4), dtype=bool))}),
        ({"mask": mask, "mask_value": -2.0}, {"mask": mask, "mask_value": -2.0}),
    ):
        w, out = reference(q, k, v, **ref)
        close(abh.self_attention(x, wq, wk, wv, **given).output, out)
        b = abh.self_attention_backward(x, wq, wk, wv, np.ones((4, 2)), **given)
        close(b.trace.weights, w)


def test_dropout_reaches_the_core_with_its_seed():
    plain = abh.attention(Q, K, V)
    dropped = abh.attention(Q, K, V, dropout={"p": 0.5, "seed": 3})
    again = abh.attention(Q, K, V, dropout={"p": 0.5, "seed": 3})
    other = abh.attention(Q, K, V, dropout={"p": 0.5, "seed": 4})
    close(dropped.dropped, again.dropped)
    assert not np.array_equal(dropped.dropped, other.dropped)
    # each kept weight is weight / (1 − p), each dropped one 0
    kept = dropped.dropped != 0
    close(np.asarray(dropped.dropped)[kept], np.asarray(plain.weights)[kept] / 0.5)
    assert not np.array_equal(dropped.output, plain.output)


def test_d_weights_reaches_the_backward_pass():
    d_out = np.zeros((3, 2))
    d_weights = np.arange(12.0).reshape(3, 4) / 10
    b = abh.attention_backward(Q, K, V, d_out, d_weights=d_weights)
    w, _ = reference(Q, K, V)
    # dL/d(scaled) = w ⊙ (dW − rowsum(w ⊙ dW)), then the scale 1/√2
    d_scaled = w * (d_weights - (w * d_weights).sum(axis=1, keepdims=True))
    close(b.gradients.q, d_scaled @ K / math.sqrt(2))


def test_attention_batched_keywords_reach_the_core():
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((1, 2, 3, 4)).astype(np.float32) for _ in range(3))
    ref = lambda **o: np.stack([np.stack([reference(q[0, h].astype(np.float64), k[0, h].astype(np.float64),
                                                    v[0, h].astype(np.float64), **o)[1]
                                          for h in range(2)])])
    np.testing.assert_allclose(abh.attention_batched(q, k, v, scale=0.3).output, ref(scale=0.3), atol=1e-5)
    causal = np.tril(np.ones((3, 3), dtype=bool))
    np.testing.assert_allclose(abh.attention_batched(q, k, v, causal=True).output, ref(mask=causal), atol=1e-5)
    assert "weights" not in abh.attention_batched(q, k, v, weights=False)
    fast = abh.attention_batched(q, k, v, causal=True)
    slow = abh.attention_batched(q, k, v, causal=True, reference=True)
    np.testing.assert_allclose(fast.output, slow.output, atol=1e-5)


X = np.array([[1.0, 0.0, 0.5, -1.0], [0.5, 1.0, 0.0, 0.3], [2.0, -1.0, 1.0, 0.0]])
rng = np.random.default_rng(11)
WEIGHTS = {n: rng.standard_normal((4, 4)) / 2 for n in ("wq", "wk", "wv", "wo")}

# each layer keyword: a value that must change the output from the call without it
LAYER_CASES = {
    "heads": ({"heads": 2}, {}),
    "causal": ({"causal": True}, {}),
    "positions sinusoidal": ({"positions": "sinusoidal"}, {}),
    "positions rope": ({"positions": "rope"}, {}),
    "base": ({"positions": "rope", "base": 100}, {"positions": "rope"}),
    "pe_scale": ({"positions": "sinusoidal", "pe_scale": 0.25}, {"positions": "sinusoidal"}),
    "scale": ({"scale": 0.3}, {}),
}


@pytest.mark.parametrize("name", LAYER_CASES)
def test_layer_keywords_reach_the_core(name):
    given, without = LAYER_CASES[name]
    for call in (
        lambda **o: abh.multi_head_attention(X, WEIGHTS, **o).output,
        lambda **o: abh.multi_head_backward(X, WEIGHTS, np.ones((3, 4)), **o).trace.output,
    ):
        changed, plain = np.asarray(call(**given)), np.asarray(call(**without))
        assert np.abs(changed - plain).max() > 1e-6, f"{name} changed nothing"


def test_kv_heads_reaches_the_core():
    # one K/V head shared by two query heads is two heads whose K and V columns are the same
    shared = {**WEIGHTS, "wk": WEIGHTS["wk"][:, :2], "wv": WEIGHTS["wv"][:, :2]}
    repeated = {**WEIGHTS, "wk": np.hstack([shared["wk"]] * 2), "wv": np.hstack([shared["wv"]] * 2)}
    gqa = abh.multi_head_attention(X, shared, heads=2, kv_heads=1, positions="rope")
    close(gqa.output, abh.multi_head_attention(X, repeated, heads=2, positions="rope").output)
    cache = None
    for row in X:
        cache = abh.decode_step(cache, row, shared, heads=2, kv_heads=1, positions="rope")
    np.testing.assert_allclose(np.asarray(cache.trace.output).ravel(),
                               np.asarray(abh.multi_head_attention(X, shared, heads=2, kv_heads=1, causal=True,
                                                                   positions="rope").output)[-1], atol=1e-12)


def test_layer_defaults_given_are_the_defaults():
    plain = abh.multi_head_attention(X, WEIGHTS, heads=2, positions="rope").output
    close(abh.multi_head_attention(X, WEIGHTS, heads=2, positions="rope", base=10000, kv_heads=2,
                                   scale=1 / math.sqrt(2), pe_scale=1).output, plain)


def test_decode_step_layer_keywords_reach_the_core():
    # the last token's row of the cache's steps equals the full causal layer's, keywords and all
    for layer in ({"heads": 2}, {"positions": "rope", "base": 100}, {"positions": "sinusoidal", "pe_scale": 0.25}):
        full = abh.multi_head_attention(X, WEIGHTS, causal=True, **layer).output
        cache = None
        for row in X:
            cache = abh.decode_step(cache, row, WEIGHTS, **layer)
        np.testing.assert_allclose(np.asarray(cache.trace.output).ravel(), np.asarray(full)[-1], atol=1e-12)


def test_generate_keywords_reach_the_core():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = json.loads((root / "web/labs/gpt/tang.json").read_text(encoding="utf-8"))["config"]
    model = abh.gpt_model(config, str(root / "web/labs/gpt/tang.bin"))
    prompt = [5, 6, 7]
    assert len(abh.gpt_generate(model, prompt, count=4, temperature=0)) <= 4
    # temperature 0 is the largest logit each time but the unknown character's (id 1, never
    # written): gpt_forward's argmax, for the first token
    logits = np.asarray(abh.gpt_forward(model, prompt).logits)[-1].copy()
    logits[1] = -np.inf
    assert abh.gpt_generate(model, prompt, count=1, temperature=0)[0] == int(np.argmax(logits))
    # at temperature 1 the seed picks the draw: two seeds of twenty tokens differ, one seed repeats
    draws = [abh.gpt_generate(model, prompt, count=20, seed=s) for s in (1, 2, 1)]
    assert draws[0] == draws[2] and draws[0] != draws[1]


def test_induction_batch_keywords_reach_the_core():
    task = {"vocab": 32, "context": 20, "min_segment": 3, "max_segment": 10}
    a = abh.induction_batch(task, batch=2, seed=1)
    assert len(a.tokens) == 2 * 20 and len(abh.induction_batch(task, batch=3, seed=1).tokens) == 3 * 20
    assert not np.array_equal(a.tokens, abh.induction_batch(task, batch=2, seed=2).tokens)


def test_bpe_keywords_reach_the_core():
    text = "明月明月啊啊啊\nthe cat sat on the mat"
    assert len(abh.bpe_learn(text, merges=1).steps) == 1 and len(abh.bpe_learn(text, merges=3).steps) == 3
    chars = abh.bpe_learn(text, merges=0)
    byte = abh.bpe_learn(text, merges=0, start="bytes")
    # a line's end is no token: the lines are read apart
    assert byte.initial.count == len(text.encode()) - 1 and chars.initial.count == len(text) - 1
    assert abh.bpe_learn(text, merges=0, presplit=True).initial.count == chars.initial.count
    # the pre-split cuts each line into more pieces
    assert len(abh.bpe_learn(text, merges=0, presplit=True).initial.sizes) > len(chars.initial.sizes)


def test_config_fields_reach_the_core_and_no_other_is_taken():
    config = {"vocab": 6, "context": 4, "d_model": 4, "layers": 1, "heads": 1}
    count = lambda c: sum(t.rows * t.cols for t in abh.gpt_layout(c))  # noqa: E731
    for name, value in {"vocab": 9, "d_model": 8, "layers": 2}.items():
        assert count({**config, name: value}) != count(config), name
    assert count({**config, "mlp": False}) < count(config)
    # the page's spelling of a field is read as its own
    assert count({**{k: v for k, v in config.items() if k != "d_model"}, "dModel": 8}) == count({**config, "d_model": 8})
    model = abh.gpt_trainer(config, np.array([0, 1, 2, 3, 4, 5] * 3), steps=1, batch=1).model
    logits = lambda c: abh.gpt_forward({"config": c, "params": model["params"]}, [1, 2, 3]).logits  # noqa: E731
    assert np.array_equal(logits({**config, "base": 10000}), logits(config))
    assert not np.array_equal(logits({**config, "base": 3}), logits(config))
    with pytest.raises(ValueError, match=r'config has no field "Base"; its fields are vocab, context, d_model, '
                                         r"layers, heads, base, mlp"):
        abh.gpt_layout({**config, "Base": 3})
    with pytest.raises(TypeError, match=r"config mlp must be True or False, not 0"):
        abh.gpt_layout({**config, "mlp": 0})
    with pytest.raises(ValueError, match=r"config vocab must be a whole number of at least 1, not 0"):
        abh.gpt_forward({"config": {**config, "vocab": 0}, "params": model["params"]}, [0])
    task = {"vocab": 8, "context": 8, "min_segment": 2, "max_segment": 3}
    with pytest.raises(ValueError, match=r'task has no field "minSegmnt"'):
        abh.induction_batch({**task, "minSegmnt": 2}, batch=1)
