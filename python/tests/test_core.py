"""The core in Python against independent references: a float64 NumPy reference written here,
PyTorch (its softmax, its multi-head attention, its autograd), hand values from docs/scenes.md,
and the page's own WASM core through Node (the same numbers: one core)."""

import json
import math
import pathlib
import subprocess

import numpy as np
import pytest

import attention_by_hand as abh

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENES = json.loads((ROOT / "tests/fixtures/scenes.json").read_text())

STEPS = ["scores", "scaled", "row_max", "exp", "row_sum", "weights", "output", "blocked_rows", "scale"]


def reference(q, k, v, scale=None, mask=None):
    """softmax(Q·Kᵀ·scale)·V in float64, written apart from the core."""
    q, k, v = (np.asarray(m, dtype=np.float64) for m in (q, k, v))
    scale = 1 / np.sqrt(q.shape[1]) if scale is None else scale
    s = q @ k.T * scale
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    top = s.max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):  # a blocked row: −∞ − −∞
        e = np.exp(s - top)
    w = e / e.sum(axis=1, keepdims=True)
    return {"scores": q @ k.T, "scaled": q @ k.T * scale, "weights": w, "output": w @ v}


def test_the_installed_copy_is_tested():
    """make test-python installs the wheel into a venv: these tests must not read the tree's copy."""
    here = pathlib.Path(abh.__file__).resolve()
    assert ROOT / "python" not in here.parents, f"attention_by_hand imported from the tree: {here}"
    assert (here.parent / "attention-walkthrough.js").exists(), "the wheel lacks the walkthrough's script"


def test_age_scene_by_hand_and_every_step_named():
    q = [[1, 0, 0]]
    k = [[1, 2, 0], [1, 2, 0], [0, 0, 2], [1, 4, 0]]
    v = [[18], [20], [22], [19]]
    t = abh.attention(q, k, v)
    assert sorted(t) == sorted(STEPS)
    assert t.scores.tolist() == [[1, 1, 0, 1]]
    assert round(float(t.output[0, 0]), 4) == 19.4729  # docs/scenes.md
    np.testing.assert_allclose(t.weights[0], [0.2808, 0.2808, 0.1576, 0.2808], atol=5e-5)
    assert t["weights"] is t.weights
    assert isinstance(t.weights, np.ndarray) and t.weights.dtype == np.float64


@pytest.mark.parametrize("name", ["classroom", "apple", "age", "dictionary", "cup"])
def test_the_scenes_equal_the_fixtures(name):
    scene = SCENES[name]
    if "x" in scene:
        t = abh.self_attention(scene["x"], scene["wq"], scene["wk"], scene["wv"])
    else:
        # the apple scene's mask keeps each 苹果 to its own sentence
        mask = np.array(scene["allowed"]) if "allowed" in scene else None
        t = abh.attention(scene["q"], scene["k"], scene["v"], mask=mask)
    for step in ("weights", "output"):
        if step in scene:
            np.testing.assert_allclose(t[step], scene[step], rtol=0, atol=1e-9)


def test_random_shapes_against_the_float64_reference_and_pytorch():
    torch = pytest.importorskip("torch")
    gen = np.random.default_rng(7)
    for _ in range(50):
        n_q, n_k, d_k, d_v = gen.integers(1, 9, size=4)
        q, k = gen.normal(size=(n_q, d_k)), gen.normal(size=(n_k, d_k))
        v = gen.normal(size=(n_k, d_v))
        t = abh.attention(q, k, v)
        ref = reference(q, k, v)
        for step in ("scores", "scaled", "weights", "output"):
            np.testing.assert_allclose(t[step], ref[step], rtol=1e-12, atol=1e-12)
        w = torch.softmax(torch.tensor(q) @ torch.tensor(k).T / np.sqrt(d_k), dim=1)
        np.testing.assert_allclose(t.weights, w.numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(t.weights.sum(axis=1), 1, atol=1e-12)


def test_masks_causal_explicit_and_a_blocked_row():
    s = SCENES["classroom"]
    causal = abh.attention(s["q"], s["k"], s["v"], mask="causal")
    assert causal.masked[0, 1] == -np.inf and causal.weights[0, 1] == 0 and causal.weights[0, 0] == 1
    assert abh.attention(s["q"], s["k"], s["v"], causal=True).weights.tolist() == causal.weights.tolist()
    mask = [[True, True, True], [False, False, False], [True, False, True]]
    t = abh.attention(s["q"], s["k"], s["v"], mask=mask)
    assert t.blocked_rows.tolist() == [1]
    assert t.weights[1].tolist() == [0, 0, 0] and t.output[1].tolist() == [0, 0]
    np.testing.assert_allclose(t.weights, np.nan_to_num(reference(s["q"], s["k"], s["v"], mask=np.array(mask))["weights"]))
    assert abh.attention(s["q"], s["k"], s["v"], mask=np.array(mask, dtype=int)).weights.tolist() == t.weights.tolist()


def test_the_gradients_equal_pytorch_autograd():
    torch = pytest.importorskip("torch")
    gen = np.random.default_rng(3)
    q, k, v = gen.normal(size=(3, 4)), gen.normal(size=(5, 4)), gen.normal(size=(5, 2))
    d_out = gen.normal(size=(3, 2))
    r = abh.attention_backward(q, k, v, d_out, causal=True)
    tq, tk, tv = (torch.tensor(m, requires_grad=True) for m in (q, k, v))
    s = tq @ tk.T / 2.0
    s = s.masked_fill(torch.triu(torch.ones(3, 5, dtype=torch.bool), 1), float("-inf"))
    out = torch.softmax(s, dim=1) @ tv
    out.backward(torch.tensor(d_out))
    for name, t in (("q", tq), ("k", tk), ("v", tv)):
        np.testing.assert_allclose(r.gradients[name], t.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(r.trace.output, out.detach().numpy(), rtol=1e-12)


def test_inputs_lists_arrays_tensors_and_anything_with_array():
    torch = pytest.importorskip("torch")
    q = [[1.0, 0.5], [0.0, 2.0]]

    class Wrapped:
        def __array__(self, dtype=None):
            return np.array(q)

    want = abh.attention(q, q, q).output
    for given in (np.array(q), np.array(q, dtype=np.float32), torch.tensor(q, requires_grad=True), Wrapped(), tuple(map(tuple, q))):
        np.testing.assert_allclose(abh.attention(given, q, q).output, want, rtol=1e-7)


BAD = [
    (lambda: abh.attention([[1, 2], [3]], [[1, 2]], [[1]]), ValueError, "Q row 2 has 1 number but row 1 has 2"),
    (lambda: abh.attention(np.array([[1, None]], dtype=object), [[1, 2]], [[1]]), TypeError, "Q holds object values, not numbers"),
    (lambda: abh.attention([["a", "b"]], [[1, 2]], [[1]]), TypeError, "Q holds <U1 values, not numbers"),
    (lambda: abh.attention(np.zeros((1, 2, 2)), [[1, 2]], [[1]]), ValueError, "Q must be 2-D (rows × columns), not 3-D of shape (1, 2, 2)"),
    (lambda: abh.attention([1, 2], [[1, 2]], [[1]]), ValueError, "Q must be 2-D (rows × columns), not 1-D of shape (2,)"),
    (lambda: abh.attention([[1, 2]], [[1, 2, 3]], [[1]]), ValueError, "K has 3 columns but Q has 2"),
    (lambda: abh.attention([[1, np.nan]], [[1, 2]], [[1]]), ValueError, "Q[0, 1] (row 1, column 2) is NaN"),
    (lambda: abh.attention([[1, 2]], [[1, 2], [3, -np.inf]], [[1], [2]]), ValueError, "K[1, 1] (row 2, column 2) is infinite"),
    (lambda: abh.attention_batched(np.full((1, 1, 1, 2), np.nan), np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 1))), ValueError, "Q[0, 0, 0, 0] (row 1, column 1) is NaN"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], causal="False"), TypeError, "causal must be True or False, not 'False'"),
    (lambda: abh.show(q=[[1, 2]], k=[[1, 2, 3]], v=[[1]]), ValueError, "K has 3 columns but Q has 2"),
    (lambda: abh.show(q=[[1, np.nan]], k=[[1, 2]], v=[[1]]), ValueError, "Q[0, 1] (row 1, column 2) is NaN"),
    (lambda: abh.show(q=np.zeros((17, 2)), k=np.zeros((17, 2)), v=np.zeros((17, 1))), ValueError, "Q is 17×2; a walkthrough to work by hand has at most 16"),
    (lambda: abh.show(q=[[1, 2]], k=[[1, 2]], v=[[1]], mask="casual"), ValueError, "mask must be 'causal'"),
    (lambda: abh.show(q=np.eye(3), k=np.eye(3), v=np.eye(3), tokens=["a", "b"]), ValueError, "tokens has 2 labels but there are 3 rows of Q"),
    (lambda: abh.show(q=np.eye(3), k=np.eye(3), v=np.eye(3), values=["x"]), ValueError, "values has 1 label but there are 3 columns of V"),
    (lambda: abh.attention(np.zeros((0, 2)), [[1, 2]], [[1]]), ValueError, "Q"),
    (lambda: abh.attention(np.zeros((1, 9000)), np.zeros((1, 9000)), [[1]]), ValueError, "9000"),
    (lambda: abh.attention("q", [[1, 2]], [[1]]), TypeError, "Q must be an array"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], scale="2"), TypeError, "scale must be a number"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], mask="future"), ValueError, "mask must be 'causal'"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], mask=[[2]]), ValueError, "mask must hold only true and false"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], mask=[[True, False]]), ValueError, "mask"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], dropout=1.5), ValueError, "dropout p is 1.5"),
    (lambda: abh.attention([[1, 2]], [[1, 2]], [[1]], dropout={"p": 0.5, "seed": -1}), ValueError, "dropout seed must be a whole number"),
    (lambda: abh.attention_batched(np.zeros((1, 1, 2)), np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 2, 1))), ValueError, "Q must be 4-D"),
    (lambda: abh.multi_head_attention([[1, 2]], {"wq": [[1], [1]]}, heads=1), ValueError, "W_K"),
    (lambda: abh.multi_head_attention([[1, 2]], [], heads=1), TypeError, "weights must be a dict"),
    # a string of labels is one text, never its characters without a word (it said "queries has 3
    # labels but there are 3 rows of Q")
    (lambda: abh.show(q=np.eye(3), k=np.eye(3), v=np.eye(3), queries="abc"), ValueError,
     "queries must be a list of labels, one a row of Q, not the string 'abc': write list('abc')"),
    (lambda: abh.show(q=np.eye(3), k=np.eye(3), v=np.eye(3), tokens="abc"), ValueError,
     "tokens must be a list of labels, one a row, not the string 'abc'"),
    # booleans are a mask's, never numbers read as 0 and 1
    (lambda: abh.attention([[True, False]], [[1, 2]], [[1]]), TypeError,
     "Q holds booleans (True and False), not numbers"),
    (lambda: abh.self_attention([[1, 2]], np.eye(2, dtype=bool), np.eye(2), np.eye(2)), TypeError,
     "W_Q holds booleans"),
    # the batched path's limits name the arrays' axes, not the JS API's shape fields
    (lambda: abh.attention_batched(np.zeros((1, 1, 1, 4), np.float32), np.zeros((1, 1, 9000, 4), np.float32),
                                   np.zeros((1, 1, 9000, 4), np.float32)), ValueError,
     "K.shape[2] (n_k) is 9000; it must be from 1 to 8192"),
]


@pytest.mark.parametrize("call,kind,words", BAD, ids=[w for _, _, w in BAD])
def test_bad_input_gets_a_clear_error(call, kind, words):
    with pytest.raises(kind) as e:
        call()
    assert words in str(e.value)


def test_the_interpreter_stays_usable_after_many_errors():
    for i in range(3000):
        call, kind, _ = BAD[i % len(BAD)]
        with pytest.raises(kind):
            call()
    assert round(float(abh.attention([[1, 0, 0]], [[1, 2, 0], [0, 0, 2]], [[18], [22]]).output[0, 0]), 6) == round(
        float(reference([[1, 0, 0]], [[1, 2, 0], [0, 0, 2]], [[18], [22]])["output"][0, 0]), 6
    )


def test_batched_float32_equals_a_loop_over_single_heads():
    gen = np.random.default_rng(11)
    q, k, v = gen.normal(size=(2, 3, 5, 8)), gen.normal(size=(2, 3, 7, 8)), gen.normal(size=(2, 3, 7, 4))
    for causal in (False, True):
        r = abh.attention_batched(q, k, v, causal=causal)
        assert r.output.shape == (2, 3, 5, 4) and r.weights.shape == (2, 3, 5, 7)
        for b in range(2):
            for h in range(3):
                one = abh.attention(q[b, h], k[b, h], v[b, h], causal=causal)
                np.testing.assert_allclose(r.output[b, h], one.output, rtol=1e-4, atol=1e-5)


def test_multi_head_grouped_query_rope_and_the_kv_cache():
    gen = np.random.default_rng(5)
    n, d = 5, 8
    x = gen.normal(size=(n, d))
    w = {"wq": gen.normal(size=(d, 8)), "wk": gen.normal(size=(d, 4)), "wv": gen.normal(size=(d, 4)), "wo": gen.normal(size=(8, d))}
    t = abh.multi_head_attention(x, w, heads=4, kv_heads=2, causal=True, positions="rope")
    assert t.h == 4 and t.h_kv == 2 and t.d_head == 2 and t.kv_head.tolist() == [0, 0, 1, 1]
    # each head is single-head attention on its own columns, after RoPE
    q, k, v = t.q_rotated.rotated, t.k_rotated.rotated, t.v
    for i in range(4):
        j = t.kv_head[i]
        one = abh.attention(q[:, 2 * i : 2 * i + 2], k[:, 2 * j : 2 * j + 2], v[:, 2 * j : 2 * j + 2], causal=True)
        np.testing.assert_allclose(t.heads[i].weights, one.weights, atol=1e-13)
    np.testing.assert_allclose(t.output, t.concat @ w["wo"], atol=1e-12)
    # the KV cache, token by token, gives the full causal pass's rows
    decoder = abh.Decoder(w, heads=4, kv_heads=2, positions="rope")
    for i in range(n):
        step = decoder.step(x[i])
        assert step.position == i and step.k_cache.shape == (i + 1, 4)
        np.testing.assert_allclose(step.trace.output[0], t.output[i], atol=1e-12)


def test_the_same_numbers_as_the_page_core():
    """The page's WASM core (through Node) and this module give the same trace: one core."""
    gen = np.random.default_rng(2)
    q, k, v = gen.normal(size=(3, 4)).round(3), gen.normal(size=(4, 4)).round(3), gen.normal(size=(4, 2)).round(3)
    script = (
        "import { loadAttention } from './web/attention.js';"
        "const core = await loadAttention();"
        f"const t = core.attention({json.dumps(q.tolist())}, {json.dumps(k.tolist())}, {json.dumps(v.tolist())}, {{ mask: 'causal' }});"
        "console.log(JSON.stringify({ weights: t.weights, output: t.output, rowSum: t.rowSum }));"
    )
    page = json.loads(subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    t = abh.attention(q, k, v, mask="causal")
    assert t.weights.tolist() == page["weights"]
    assert t.output.tolist() == page["output"]
    assert t.row_sum.tolist() == page["rowSum"]


def test_the_small_model_shipped_weights():
    config = json.loads((ROOT / "web/labs/gpt/tang.json").read_text())
    model = abh.gpt_model(config["config"], str(ROOT / "web/labs/gpt/tang.bin"))
    chars = list(config["chars"])
    ids = [0] + [chars.index(c) + 2 for c in "国破山河在，"]
    f = abh.gpt_forward(model, ids)
    np.testing.assert_allclose(f.probs.sum(axis=1), 1, atol=1e-5)
    assert len(f.layers) == config["config"]["layers"]
    weights = f.layers[0].weights[0]
    assert np.allclose(np.triu(weights, 1), 0) and np.allclose(weights.sum(axis=1), 1, atol=1e-5)
    greedy = abh.gpt_generate(model, ids, count=3, temperature=0)
    assert greedy[0] == int(np.argmax(np.where(np.arange(len(f.logits[-1])) == 1, -np.inf, f.logits[-1])))
    with pytest.raises(ValueError, match=r"tokens\[1\] is 4294967298, not an id"):
        abh.gpt_forward(model, [0, 2**32 + 2])
    # the range it names is the vocabulary's, from 0 to vocab − 1 (the last id taken, the next refused)
    last = model["config"]["vocab"] - 1
    abh.gpt_forward(model, [0, last])
    with pytest.raises(ValueError) as e:
        abh.gpt_forward(model, [0, last + 1])
    assert str(e.value) == f"tokens[1] is {last + 1}, not an id from 0 to {last}"
    with pytest.raises(ValueError, match="too short"):
        abh.gpt_model(config["config"], (ROOT / "web/labs/gpt/tang.bin").read_bytes()[:-1])


def test_a_walkthrough_reads_as_text_and_saves_as_one_file(tmp_path):
    q, k, v = [[1, 0.5], [0, 2]], [[1, 0], [0.5, 1], [2, -1]], [[1], [2], [3]]
    w = abh.show(q=q, k=k, v=v, queries=["a", "b"], keys=["x", "y", "z"], mask="causal", lang="en", step=3)
    out = abh.attention(q, k, v, mask="causal").output
    said = repr(w)
    # the shapes, the mask and the output, each row at 4 decimals (not <… object at 0x…>)
    assert said.startswith("<Walkthrough 'Your attention' (lang en, step 3): Q 2×2, K 3×2, V 3×1, mask 'causal'")
    assert [line.strip() for line in said.splitlines()[2:]] == [f"{row[0]:.4f}" + (">" if i == 1 else "")
                                                               for i, row in enumerate(out)]
    assert repr(abh.show("age")).startswith("<Walkthrough of the scene 'age' (lang zh, step 1)")
    path = w.save(tmp_path / "mine.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith('<!doctype html>\n<html lang="en">') and text == w.to_html()
    assert w._repr_html_() in text and "<title>Your attention</title>" in text


# show(scale=): the walkthrough computes and explains 1/√d_k at every step (its words, the
# exported script, the spreadsheet's formulas), so that scale is shown and any other refused
def test_show_takes_the_scale_it_shows_and_refuses_another_with_why():
    q, k, v = [[1, 0.5], [0, 2]], [[1, 0], [0.5, 1], [2, -1]], [[1], [2], [3]]
    same = abh.show(q=q, k=k, v=v, scale=1 / math.sqrt(2), lang="en")
    assert same.output == abh.attention(q, k, v).output.tolist()
    with pytest.raises(ValueError) as e:
        abh.show(q=q, k=k, v=v, scale=1)
    said = str(e.value)
    assert said.startswith("scale is 1.0, but the walkthrough scales by 1/√d_k = 1/√2 = 0.7071067811865475 "
                           "and says so at every step, so it cannot show another: leave scale out for 1/√d_k;")
    # the factor to the last digit: a rounded one (1.41421) moved a shown weight's 4th decimal
    assert "show(q=q * 1.4142135623730951, …)" in said
    # a teacher's rounded 1/√2 is not 1/√2: refused, and told to leave it out
    with pytest.raises(ValueError, match="scale is 0.7071, .* leave scale out for 1/√d_k"):
        abh.show(q=q, k=k, v=v, scale=0.7071)
    # what it says to do shows the scaled weights
    shown = abh.attention(np.array(q) * math.sqrt(2), k, v).weights
    np.testing.assert_allclose(shown, abh.attention(q, k, v, scale=1).weights, rtol=1e-14)
    with pytest.raises(TypeError, match="scale must be a number, not str"):
        abh.show(q=q, k=k, v=v, scale="1")
    with pytest.raises(ValueError, match="scale is for your own q, k and v; the scene 'age' has its own"):
        abh.show("age", scale=1)


def test_a_result_reads_in_a_console_as_its_fields_and_shapes_not_every_number():
    x = np.random.default_rng(3).normal(size=(40, 8))
    w = {n: np.eye(8) for n in ("wq", "wk", "wv", "wo")}
    said = repr(abh.multi_head_attention(x, w, heads=2))
    assert said.startswith("<Result\n  h: 2\n  h_kv: 2\n  d_head: 4\n  kv_head: array 2 int64\n  x: array 40×8 float64\n")
    assert "  heads: 2 × (Result of q, k, v, scores, scaled, row_max, exp, row_sum, weights, output" in said
    assert len(said.splitlines()) == len(abh.multi_head_attention(x, w, heads=2)) + 1 and len(said) < 1200
    assert repr(abh.attention([[1, 0]], [[1, 0]], [[2]])).endswith("  scale: 0.7071067811865475>")
