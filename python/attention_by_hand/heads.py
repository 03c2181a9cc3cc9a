"""show_heads(): every head at once. The result of multi_head_attention(), of gpt_forward() (every
layer's heads) or of from_torch() (an nn.MultiheadAttention) as a grid of small heatmaps, layer by
layer, each of the core's weights with its tokens; a click (or Enter) on a head opens its
step-by-step walkthrough with the same q, k, v and mask. Drawn by <attention-heads>, an element of
the walkthrough's script, inlined as show() inlines it: nothing is fetched."""

from __future__ import annotations

import html
import json
import pathlib
from typing import Any, Optional, Sequence

import numpy as np

from .show import MAX_SIDE, _document, _inline_script, _is_default_scale

# A grid draws each head's n × n weights: past this many tokens it is no longer a picture.
MAX_TOKENS = 64

# Shown only where the script may not run (an untrusted notebook): the element hides it once drawn.
_untrusted = {
    "zh": "这里是每个注意力头的网格，它需要运行自己的脚本：请信任这个笔记本（File ▸ Trust Notebook），或重新运行这个单元格。",
    "en": "Every head's weights show here once the script may run: trust this notebook (File ▸ Trust Notebook) "
    "or run this cell again.",
}

_title = {"zh": "每个注意力头", "en": "Every head"}


class Heads:
    """Every head at once, to display: Jupyter calls _repr_html_(); save(path) writes one HTML file
    that opens offline; .weights holds the weights shown, (layers, heads, n, n)."""

    def __init__(self, data: dict, lang: str, weights: np.ndarray, layers: list, total: int) -> None:
        self.data, self.lang, self.layers, self.total = data, lang, layers, total
        self.weights = weights  # (layers shown, heads, n, n): the trace's, as drawn

    @property
    def why(self) -> Optional[str]:
        """Why the heads cannot be opened step by step, in the view's language; None if they can."""
        return None if self.data["why"] is None else self.data["why"][self.lang]

    def __repr__(self) -> str:
        n_layers, heads, n, _ = self.weights.shape
        d = self.data
        tokens = " ".join(d["tokens"][:8]) + (" …" if n > 8 else "")
        where = (f"{n_layers} layer{'s' * (n_layers != 1)}" if n_layers == self.total
                 else f"layer {self.layers[0] + 1} of {self.total}")
        lines = [f"<Heads {d['title']!r} (lang {self.lang}): {where} × {heads} head{'s' * (heads != 1)} over {n} "
                 f"tokens: {tokens}"
                 + (", causal" if d["layers"][0]["mask"] == "causal" else "")]
        lines.append(f"weights: .weights, shape {self.weights.shape}; " + (
            "a head opens step by step when clicked" if d["why"] is None else f"not step by step: {d['why']['en']}"))
        return "\n".join(lines) + ">"

    def to_html(self) -> str:
        """The grid as one HTML document with its script and WASM core in it: opened from a file,
        offline, it shows what the notebook shows, every head opening step by step."""
        return _document(self.data["title"], self.lang, self._repr_html_())

    def save(self, path: "str | pathlib.Path") -> pathlib.Path:
        """Writes to_html() to path (UTF-8) and returns it: a file to send, opened offline."""
        target = pathlib.Path(path)
        target.write_text(self.to_html(), encoding="utf-8")
        return target

    def _repr_html_(self) -> str:
        text = json.dumps(self.data, ensure_ascii=False, allow_nan=False).replace("</", "<\\/")
        fallback = f"<p>{html.escape(_untrusted[self.lang])}</p>"
        return (f"{_inline_script('attention-heads')}\n<attention-heads lang=\"{self.lang}\">"
                f'<script type="application/json">{text}</script>{fallback}</attention-heads>')


def _rows(a: Any) -> list:
    return np.asarray(a, dtype=np.float64).tolist()


def _from_multi_head(trace: dict) -> tuple:
    """One layer from multi_head_attention()'s trace: each head's weights, q, k, v, scale, mask."""
    heads = trace["heads"]
    n = np.asarray(trace["x"]).shape[0]
    layer = {"d_head": int(trace["d_head"]), "scale": float(heads[0]["scale"]),
             "mask": "causal" if np.asarray(heads[0].get("masked", [])).size else None,
             "heads": [{name: np.asarray(h[name], dtype=np.float64) for name in ("weights", "q", "k", "v")}
                       for h in heads]}
    return n, [layer]


def _from_gpt(result: dict) -> tuple:
    """Every layer of gpt_forward()'s result: its q, k and v (after RoPE), each head's d_head
    columns of them; every head causal, scaled by 1/√d_head, as the model computes."""
    layers = []
    n = np.asarray(result["layers"][0]["q"]).shape[0]
    for layer in result["layers"]:
        q, k, v = (np.asarray(layer[name], dtype=np.float64) for name in ("q", "k", "v"))
        h = len(layer["weights"])
        d = q.shape[1] // h
        cols = [slice(i * d, (i + 1) * d) for i in range(h)]
        layers.append({"d_head": d, "scale": float(1 / np.sqrt(d)), "mask": "causal",
                       "heads": [{"weights": np.asarray(w, dtype=np.float64), "q": q[:, c], "k": k[:, c],
                                  "v": v[:, c]} for w, c in zip(layer["weights"], cols)]})
    return n, layers


_kinds = "what multi_head_attention(), gpt_forward() or from_torch() (of an nn.MultiheadAttention) returned"


def _read(result: Any) -> tuple:
    if isinstance(result, dict) and "trace" in result and "output" in result:
        trace = result["trace"]
        if isinstance(trace, dict) and "heads" not in trace:
            raise TypeError("result is from_torch() of a function, one head's attention with no q, k and v kept: "
                            "show(q=…, k=…, v=…) shows that head")
        result = trace
    if isinstance(result, dict) and "heads" in result and "d_head" in result:
        return _from_multi_head(result)
    if isinstance(result, dict) and "layers" in result and "logits" in result:
        return _from_gpt(result)
    raise TypeError(f"result must be {_kinds}, not {type(result).__name__}"
                    + (f" with the fields {', '.join(map(str, list(result)[:6]))}" if isinstance(result, dict) else ""))


def _why(n: int, layers: list) -> Optional[dict]:
    """Why no head opens step by step (zh and en), or None: the walkthrough's limits, and a scale
    it can show (it says 1/√d_k at every step)."""
    d = max(layer["d_head"] for layer in layers)
    if n > MAX_SIDE:
        return {"zh": f"这里有 {n} 个词元；逐步讲解最多 {MAX_SIDE} 个，所以这些头不能逐步打开。",
                "en": f"There are {n} tokens; a step-by-step walkthrough has at most {MAX_SIDE}, "
                      "so these heads do not open step by step."}
    if d > MAX_SIDE:
        return {"zh": f"每个头的 q、k 有 {d} 列；逐步讲解最多 {MAX_SIDE} 列，所以这些头不能逐步打开。",
                "en": f"Each head's q and k have {d} columns; a step-by-step walkthrough has at most "
                      f"{MAX_SIDE}, so these heads do not open step by step."}
    for layer in layers:
        if not _is_default_scale(layer["scale"], layer["d_head"]):
            s, dk = layer["scale"], layer["d_head"]
            return {"zh": f"这些头的缩放是 {s:.6g}，不是 1/√d_k = 1/√{dk}；逐步讲解每一步都按 1/√d_k "
                          "计算和说明，所以这些头不能逐步打开。",
                    "en": f"These heads scale by {s:.6g}, not 1/√d_k = 1/√{dk}; the step-by-step "
                          "walkthrough computes and explains 1/√d_k at every step, so these heads do not "
                          "open step by step."}
    return None


def show_heads(result: Any, tokens: Optional[Sequence[str]] = None, *, lang: str = "zh",
               layer: Optional[int] = None, title: Optional[str] = None) -> Heads:
    """Every head at once: result is what multi_head_attention(), gpt_forward() (every layer) or
    from_torch() (an nn.MultiheadAttention) returned; tokens, one label a row of x (a list, not a
    string); layer, one layer only, counted from 0 (the grid says layer 1); lang "zh" or "en". A
    grid of each head's weights; a head opens step by step when clicked, or the grid says why not."""
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be 'zh' or 'en', not {lang!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str, not {type(title).__name__}")
    n, layers = _read(result)
    if layer is not None:
        if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
            raise TypeError(f"layer must be a whole number, not {layer!r}")
        if not 0 <= layer < len(layers):
            raise ValueError(f"layer is {layer}, but the result has {len(layers)} layer"
                             f"{'s' * (len(layers) != 1)} (0 to {len(layers) - 1})")
        shown = [int(layer)]
    else:
        shown = list(range(len(layers)))
    if n > MAX_TOKENS:
        raise ValueError(f"the result has {n} tokens; show_heads draws at most {MAX_TOKENS} (each head's weights "
                         "as an n × n heatmap)")
    if isinstance(tokens, str):
        raise ValueError(f"tokens must be a list of labels, one a row, not the string {tokens!r}: "
                         f"write list({tokens!r}) for one label a character")
    if tokens is None:
        labels = [str(i + 1) for i in range(n)]
    else:
        labels = [str(t) for t in tokens]
        if len(labels) != n:
            raise ValueError(f"tokens has {len(labels)} label{'s' * (len(labels) != 1)} but the result has "
                             f"{n} tokens (rows of x)")
        for i, t in enumerate(labels):
            if len(t) > 40:
                raise ValueError(f"tokens[{i}] has {len(t)} characters; a label has at most 40")
    picked = [layers[i] for i in shown]
    why = _why(n, picked)
    data = {
        "title": title or _title[lang],
        "tokens": labels,
        "why": why,
        "layers": [{
            "layer": i + 1, "d_head": l["d_head"], "scale": l["scale"], "mask": l["mask"],
            # q, k and v only for heads that open: a grid of 64 tokens would carry them for nothing
            "heads": [{"weights": _rows(h["weights"]),
                       **({} if why else {m: _rows(h[m]) for m in "qkv"})} for h in l["heads"]],
        } for i, l in zip(shown, picked)],
    }
    weights = np.array([[h["weights"] for h in l["heads"]] for l in picked], dtype=np.float64)
    return Heads(data, lang, weights, shown, len(layers))
