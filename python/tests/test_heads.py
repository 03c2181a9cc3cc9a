"""show_heads(): every head at once, from multi_head_attention(), gpt_forward() and from_torch().
The weights it holds and writes into its output are the trace's, every head, to the last bit;
each head that opens carries its own q, k and v (the walkthrough computes from them the head's
weights again); heads that cannot open say why; bad input is refused by name."""

import json
import pathlib
import re

import numpy as np
import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
rng = np.random.default_rng(7)
X = rng.normal(size=(5, 8))
W = {name: rng.normal(size=(8, 8)) for name in ("wq", "wk", "wv", "wo")}
TOKENS = ["I", "love", "to", "read", "."]


def data_of(view):
    """The JSON that the output hands to <attention-heads>: what the grid draws."""
    html = view._repr_html_()
    found = re.search(r'<attention-heads lang="(\w+)"><script type="application/json">(.*?)</script>', html, re.S)
    assert found, "one <attention-heads> with its data inline"
    return found[1], json.loads(found[2].replace("<\\/", "</"))


def tang():
    m = abh.gpt_model_from_files(ROOT / "web/labs/gpt/tang.json", ROOT / "web/labs/gpt/tang.bin")
    line = "床前明月光"
    return m, abh.gpt_forward(m.model, [m.chars.index(c) + 2 for c in line]), list(line)


@pytest.mark.parametrize("causal", [False, True])
def test_a_multi_head_layer_every_head_as_the_trace(causal):
    # grouped-query: W_K and W_V of one key-value head (4 columns), read by both heads
    t = abh.multi_head_attention(X, {**W, "wk": W["wk"][:, :4], "wv": W["wv"][:, :4]}, heads=2, kv_heads=1,
                                 causal=causal)
    view = abh.show_heads(t, TOKENS, lang="en")
    assert view.weights.shape == (1, 2, 5, 5)
    lang, data = data_of(view)
    assert lang == "en" and data["tokens"] == TOKENS and data["why"] is None
    layer = data["layers"][0]
    assert layer["mask"] == ("causal" if causal else None) and layer["d_head"] == 4
    for h, head in enumerate(t.heads):
        assert np.array_equal(view.weights[0, h], head.weights)
        assert np.array_equal(np.array(layer["heads"][h]["weights"]), head.weights)  # written to the last bit
        for m in "qkv":
            assert np.array_equal(np.array(layer["heads"][h][m]), head[m])
        # what the walkthrough computes from them: the head's own weights again
        again = abh.attention(*(layer["heads"][h][m] for m in "qkv"), mask=layer["mask"])
        np.testing.assert_array_equal(again.weights, head.weights)
    # both heads read key-value head 0
    assert layer["heads"][0]["k"] == layer["heads"][1]["k"]


def test_every_layer_of_the_tang_model():
    _, g, line = tang()
    view = abh.show_heads(g, line)
    _, data = data_of(view)
    assert view.weights.shape == (2, 4, 5, 5) and [l["layer"] for l in data["layers"]] == [1, 2]
    for l, layer in enumerate(g.layers):
        q = np.asarray(layer.q, dtype=np.float64)
        for h, w in enumerate(layer.weights):
            assert np.array_equal(view.weights[l, h], np.asarray(w, dtype=np.float64))
            assert np.array_equal(np.array(data["layers"][l]["heads"][h]["weights"]), w)
            assert np.array_equal(np.array(data["layers"][l]["heads"][h]["q"]), q[:, h * 16:(h + 1) * 16])
        assert data["layers"][l]["mask"] == "causal" and data["layers"][l]["scale"] == 0.25
    one = abh.show_heads(g, line, layer=1, lang="en")
    assert np.array_equal(one.weights[0], view.weights[1])
    assert data_of(one)[1]["layers"][0]["layer"] == 2
    assert repr(one).startswith("<Heads 'Every head' (lang en): layer 2 of 2 × 4 heads over 5 tokens: 床 前 明 月 光, causal")


def test_from_torch_every_head_as_the_module_weights_them():
    torch = pytest.importorskip("torch")
    torch.manual_seed(4)
    m = torch.nn.MultiheadAttention(8, 2, batch_first=True).double().eval()
    x = torch.randn(1, 5, 8, dtype=torch.float64)
    _, weights = m(x, x, x, need_weights=True, average_attn_weights=False)
    view = abh.show_heads(abh.from_torch(m, x), TOKENS)
    np.testing.assert_allclose(view.weights[0], weights[0].detach().numpy(), rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError, match=r"from_torch\(\) of a function, one head's attention"):
        abh.show_heads(abh.from_torch(lambda x: (x, x, x), X), TOKENS)


def test_heads_that_cannot_open_say_why():
    long = abh.multi_head_attention(rng.normal(size=(20, 4)), {n: np.eye(4) for n in W}, heads=2)
    view = abh.show_heads(long)
    _, data = data_of(view)
    assert data["why"]["zh"].startswith("这里有 20 个词元；逐步讲解最多 16 个")
    assert data["why"]["en"].startswith("There are 20 tokens; a step-by-step walkthrough has at most 16")
    assert "q" not in data["layers"][0]["heads"][0] and data["tokens"] == [str(i) for i in range(1, 21)]
    wide = abh.multi_head_attention(rng.normal(size=(3, 20)), {n: np.eye(20) for n in W}, heads=1)
    assert abh.show_heads(wide).why.startswith("每个头的 q、k 有 20 列；逐步讲解最多 16 列")
    scaled = abh.multi_head_attention(X, W, heads=2, scale=1)
    assert abh.show_heads(scaled, lang="en").why.startswith("These heads scale by 1, not 1/√d_k = 1/√4")
    # the scale it would compute anyway opens
    assert abh.show_heads(abh.multi_head_attention(X, W, heads=2, scale=0.5)).why is None


def test_it_reads_as_text_and_saves_as_one_file(tmp_path):
    view = abh.show_heads(abh.multi_head_attention(X, W, heads=2, causal=True), TOKENS, lang="en", title="Mine")
    assert repr(view) == ("<Heads 'Mine' (lang en): 1 layer × 2 heads over 5 tokens: I love to read ., causal\n"
                          "weights: .weights, shape (1, 2, 5, 5); a head opens step by step when clicked>")
    path = view.save(tmp_path / "heads.html")
    text = path.read_text(encoding="utf-8")
    assert text == view.to_html() and text.startswith('<!doctype html>\n<html lang="en">')
    assert "<title>Mine</title>" in text and view._repr_html_() in text
    # the script in it defines both elements: a walkthrough opens from the grid
    assert "attention-heads" in text and "attention-walkthrough" in text and "</script" not in data_of(view)[1]


def bad_calls():
    t = abh.multi_head_attention(X, W, heads=2)
    _, g, line = tang()
    return [
        (lambda: abh.show_heads(abh.attention(X, X, X)), TypeError,
         "result must be what multi_head_attention(), gpt_forward() or from_torch()"),
        (lambda: abh.show_heads([1, 2]), TypeError, "not list"),
        (lambda: abh.show_heads(t, ["a", "b"]), ValueError, "tokens has 2 labels but the result has 5 tokens"),
        (lambda: abh.show_heads(t, "abcde"), ValueError, "tokens must be a list of labels, one a row, not the string"),
        (lambda: abh.show_heads(t, ["x" * 41] + TOKENS[1:]), ValueError, "tokens[0] has 41 characters"),
        (lambda: abh.show_heads(g, line, layer=2), ValueError, "layer is 2, but the result has 2 layers (0 to 1)"),
        (lambda: abh.show_heads(t, layer=-1), ValueError, "layer is -1, but the result has 1 layer (0 to 0)"),
        (lambda: abh.show_heads(t, layer=True), TypeError, "layer must be a whole number, not True"),
        (lambda: abh.show_heads(t, lang="fr"), ValueError, "lang must be 'zh' or 'en', not 'fr'"),
        (lambda: abh.show_heads(t, title=3), TypeError, "title must be a str, not int"),
        (lambda: abh.show_heads(abh.multi_head_attention(np.zeros((65, 2)), {n: np.eye(2) for n in W})),
         ValueError, "the result has 65 tokens; show_heads draws at most 64"),
    ]


def test_bad_input_is_refused_by_name():
    for call, kind, words in bad_calls():
        with pytest.raises(kind) as e:
            call()
        assert words in str(e.value), (words, str(e.value))
