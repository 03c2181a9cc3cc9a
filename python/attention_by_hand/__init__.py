"""attention-by-hand's C++ core in Python: scaled dot-product attention as a trace of named
steps (scores, scaled, masked, row_max, exp, row_sum, weights, dropped, output, blocked_rows),
its gradients, multi-head attention with grouped-query heads and positions, the KV cache, the
float32 batched path, the small transformer trained on Tang poems, and a vocabulary learned by
byte-pair encoding.

Every function checks its arguments and raises ValueError (a wrong value or shape) or TypeError
(a wrong kind of thing) with the core's own words; the interpreter stays usable after any number
of errors. Matrices can be NumPy arrays, nested lists, or anything with __array__ (a PyTorch
tensor); results are dicts of NumPy arrays, whose keys are also attributes.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core

__all__ = [
    "attention",
    "self_attention",
    "attention_batched",
    "multi_head_attention",
    "from_torch",
    "decode_step",
    "Decoder",
    "attention_backward",
    "self_attention_backward",
    "multi_head_backward",
    "gpt_layout",
    "gpt_model",
    "gpt_model_files",
    "gpt_model_from_files",
    "gpt_forward",
    "gpt_generate",
    "induction_batch",
    "text_corpus",
    "induction_scores",
    "Trainer",
    "gpt_trainer",
    "induction_trainer",
    "text_trainer",
    "gpt_stream_loss",
    "read_streams",
    "bpe_learn",
    "bpe_encode",
    "Result",
    "show",
    "show_heads",
    "gpt_encode",
    "gpt_decode",
    "text_encode",
]

MatrixLike = Any  # a 2-D array, nested lists, or anything with __array__


class Result(dict):
    """A result of the core: its fields by name, as keys (trace["weights"]) and as attributes
    (trace.weights)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        """Its fields and their shapes, one line each, not every number (a trace is screens long):
        read a field (trace.weights) for its numbers."""
        return "\n".join(["<Result"] + [f"  {k}: {_shape_of(v)}" for k, v in self.items()]) + ">"


def _shape_of(value: Any, depth: int = 0) -> str:
    """A field in a few words: an array's shape and dtype, a list's length and first item, a number."""
    if isinstance(value, np.ndarray):
        return f"array {'×'.join(map(str, value.shape)) or 'scalar'} {value.dtype}"
    if isinstance(value, Result):
        if depth >= 1:
            return f"Result of {', '.join(value)}"
        return "Result: " + "; ".join(f"{k} {_shape_of(v, depth + 1)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return f"{len(value)} × ({_shape_of(value[0], depth + 1)})"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        if "error" in value:
            raise ValueError(value["error"])
        return Result({k: _wrap(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def _array(name: str, x: Any) -> np.ndarray:
    """x as a NumPy array of numbers, or a TypeError/ValueError that names it."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a PyTorch tensor, with or without grad
        x = x.detach().cpu()
    if isinstance(x, (list, tuple)):
        rows = [r for r in x if isinstance(r, (list, tuple))]
        if rows and len(rows) == len(x):
            for i, row in enumerate(x):
                if len(row) != len(x[0]):
                    numbers = "number" if len(row) == 1 else "numbers"
                    raise ValueError(
                        f"{name} row {i + 1} has {len(row)} {numbers} but row 1 has {len(x[0])}"
                    )
    elif not isinstance(x, np.ndarray) and not hasattr(x, "__array__"):
        raise TypeError(f"{name} must be an array, a list of rows or a tensor, not {type(x).__name__}")
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{name} is not an array of numbers: {e}") from None
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} holds {a.dtype} values, not numbers")
    return a


def _finite(name: str, a: np.ndarray) -> np.ndarray:
    """a, or a ValueError naming its first number that is not finite, indexed as NumPy indexes
    it (from 0), and as its row and column (from 1)."""
    bad = np.argwhere(~np.isfinite(a))
    if bad.size:
        at = tuple(int(i) for i in bad[0])
        value = a[at]
        what = "NaN" if np.isnan(value) else "infinite"
        place = f" (row {at[-2] + 1}, column {at[-1] + 1})" if a.ndim >= 2 else ""
        raise ValueError(f"{name}[{', '.join(map(str, at))}]{place} is {what}; every input must be finite")
    return a


def _numbers(name: str, a: np.ndarray) -> np.ndarray:
    """a, or a TypeError for booleans: an input of numbers is not read as 0 and 1 (a mask is
    the one input that takes booleans)."""
    if a.dtype == np.bool_:
        raise TypeError(f"{name} holds booleans (True and False), not numbers; give numbers "
                        "(a mask, which keys each query may see, is mask=)")
    return a


def _matrix(name: str, x: MatrixLike) -> np.ndarray:
    a = _numbers(name, _array(name, x))
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows × columns), not {a.ndim}-D of shape {a.shape}")
    return _finite(name, np.ascontiguousarray(a, dtype=np.float64))


def _flag(name: str, x: Any) -> bool:
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {x!r}")
    return bool(x)


def _number(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {type(x).__name__}")
    return float(x)


def _whole(name: str, x: Any, least: int = 0) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < least:
        bound = f" of at least {least}" if least > 0 else ""
        raise ValueError(f"{name} must be a whole number{bound}, not {x!r}")
    return int(x)


def _options(mask: Any, causal: bool, scale: Optional[float], dropout: Any, mask_value: Any) -> dict:
    options: dict = {"causal": _flag("causal", causal), "dropout_p": 0.0, "seed": 0}
    if isinstance(mask, str):
        if mask != "causal":
            raise ValueError(f"mask must be 'causal' or an n_q×n_k array of booleans, not {mask!r}")
        options["causal"] = True
    elif mask is not None:
        m = _array("mask", mask)
        if m.ndim != 2:
            raise ValueError(f"mask must be 2-D (n_q × n_k), not {m.ndim}-D")
        if m.dtype != np.bool_:
            if not np.isin(m, (0, 1)).all():
                raise ValueError("mask must hold only true and false (or 1 and 0)")
        options["mask"] = np.ascontiguousarray(m, dtype=np.bool_)
    if scale is not None:
        options["scale"] = _number("scale", scale)
    if mask_value is not None:
        options["mask_value"] = _number("mask_value", mask_value)
    if dropout is not None:
        p, seed = (dropout.get("p"), dropout.get("seed", 0)) if isinstance(dropout, dict) else (dropout, 0)
        options["dropout_p"] = _number("dropout p", p)
        options["seed"] = _whole("dropout seed", seed)
    return options


def attention(
    q: MatrixLike,
    k: MatrixLike,
    v: MatrixLike,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: Optional[float] = None,
    dropout: Union[None, float, dict] = None,
    mask_value: Optional[float] = None,
) -> Result:
    """softmax(Q·Kᵀ·scale)·V, every step: Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v).

    mask: "causal" (query i sees keys 0..i) or an (n_q, n_k) array of booleans, true where query
    i may see key j. scale: 1/√d_k unless given. dropout: p, or {"p": p, "seed": s}. mask_value:
    what a masked score becomes (−∞ unless given). Returns the trace: scores, scaled, masked
    (with a mask), row_max, exp, row_sum, weights, dropped (with dropout), output, blocked_rows,
    scale.
    """
    options = _options(mask, causal, scale, dropout, mask_value)
    return _wrap(_core.attend(_matrix("Q", q), _matrix("K", k), _matrix("V", v), options))


def self_attention(x: MatrixLike, wq: MatrixLike, wk: MatrixLike, wv: MatrixLike, **options: Any) -> Result:
    """Q = X·W_Q, K = X·W_K, V = X·W_V, then attention(Q, K, V, **options): the trace with q, k, v."""
    packed = _options(options.pop("mask", None), options.pop("causal", False), options.pop("scale", None),
                      options.pop("dropout", None), options.pop("mask_value", None))
    if options:
        raise TypeError(f"self_attention() has no option {sorted(options)[0]!r}")
    return _wrap(_core.self_attention(_matrix("X", x), _matrix("W_Q", wq), _matrix("W_K", wk),
                                      _matrix("W_V", wv), packed))


def attention_batched(
    q: Any, k: Any, v: Any, *, causal: bool = False, scale: Optional[float] = None,
    weights: bool = True, reference: bool = False,
) -> Result:
    """The float32 fast path over [batch, heads, seq, dim] arrays: {"output": (b, h, n_q, d_v),
    "weights": (b, h, n_q, n_k)} as float32 arrays. reference: Eigen, head by head."""
    arrays = []
    for name, x in (("Q", q), ("K", k), ("V", v)):
        a = _numbers(name, _array(name, x))
        if a.ndim != 4:
            raise ValueError(f"{name} must be 4-D [batch, heads, seq, dim], not {a.ndim}-D of shape {a.shape}")
        arrays.append(_finite(name, np.ascontiguousarray(a, dtype=np.float32)))
    Q, K, V = arrays
    b, h, n_q, d_k = Q.shape
    n_k, d_v = K.shape[2], V.shape[3]
    for name, a, want in (("K", K, (b, h, n_k, d_k)), ("V", V, (b, h, n_k, d_v))):
        if a.shape != want:
            raise ValueError(f"{name} has shape {a.shape} but Q's [batch, heads, ·, d_k] needs {want}")
    options = _options(None, causal, scale, None, None)
    try:
        raw = _wrap(_core.attend_batched(Q.ravel(), K.ravel(), V.ravel(), [b, h, n_q, n_k, d_k, d_v], options,
                                         _flag("weights", weights), _flag("reference", reference)))
    except ValueError as e:
        # the core names the JS API's shape fields; in Python, the arrays' own axes
        said = re.fullmatch(r"shape\.(\w+) (is .*)", str(e))
        if said is None or said[1] not in _batched_axes:
            raise
        raise ValueError(f"{_batched_axes[said[1]]} {said[2]}") from None
    out = Result(output=raw["output"].reshape(b, h, n_q, d_v))
    if weights:
        out["weights"] = raw["weights"].reshape(b, h, n_q, n_k)
    return out


# the core's names of the batched shape's fields, as Python's arrays hold them
_batched_axes = {"batch": "Q.shape[0] (batch)", "heads": "Q.shape[1] (heads)", "nQ": "Q.shape[2] (n_q)",
                 "nK": "K.shape[2] (n_k)", "dK": "Q.shape[3] (d_k)", "dV": "V.shape[3] (d_v)"}

_positions = {"none": 0, "sinusoidal": 1, "rope": 2}


def _layer(weights: dict, heads: int, kv_heads: Optional[int], causal: bool, positions: str,
           base: float, pe_scale: float, scale: Optional[float]) -> tuple:
    if not isinstance(weights, dict):
        raise TypeError("weights must be a dict {'wq', 'wk', 'wv', 'wo'}")
    if positions not in _positions:
        raise ValueError(f"positions must be 'none', 'sinusoidal' or 'rope', not {positions!r}")
    options = {"heads": _whole("heads", heads, 1), "kv_heads": _whole("kv_heads", heads if kv_heads is None else kv_heads, 1),
               "causal": _flag("causal", causal), "positions": _positions[positions], "base": _number("base", base),
               "pe_scale": _number("pe_scale", pe_scale)}
    if scale is not None:
        options["scale"] = _number("scale", scale)
    names = {"wq": "W_Q", "wk": "W_K", "wv": "W_V", "wo": "W_O"}
    for n in names:
        if weights.get(n) is None:
            raise ValueError(f"weights has no {n!r} ({names[n]})")
    return tuple(_matrix(names[n], weights[n]) for n in names), options


def multi_head_attention(
    x: MatrixLike, weights: dict, *, heads: int = 1, kv_heads: Optional[int] = None, causal: bool = False,
    positions: str = "none", base: float = 10000, pe_scale: float = 1, scale: Optional[float] = None,
) -> Result:
    """A multi-head layer on X (n, d_model): h heads of d_head = W_Q's columns / h, kv_heads
    key-value heads (grouped-query; 1 is multi-query), positions "none", "sinusoidal" or "rope";
    weights {"wq", "wk", "wv", "wo"}. Returns the trace: x, q, k, v, heads (one attention trace
    each), concat, output, kv_head, and the positions' angles."""
    w, options = _layer(weights, heads, kv_heads, causal, positions, base, pe_scale, scale)
    return _wrap(_core.multi_head_attention(_matrix("X", x), *w, options))


def _tensor(name: str, t: Any) -> np.ndarray:
    """A module's parameter (a tensor) as float64 numbers."""
    return _finite(name, np.asarray(t.detach().cpu().double().numpy(), dtype=np.float64))


def from_torch(module: Any, x: Any, *, causal: bool = False) -> Result:
    """Your own torch.nn.MultiheadAttention on one sequence x (n × embed_dim; or 1 × n × embed_dim
    with batch_first, n × 1 × embed_dim without), as self-attention (query = key = value = x),
    computed by the core: {"trace": multi_head_attention()'s trace, every head's weights;
    "output": the module's output, n × embed_dim}. Or a plain function of x that returns one
    head's (q, k, v): {"trace": attention(q, k, v)'s, "output"}, with the same causal. Its biases, when it has them, are a last row of
    W_Q, W_K and W_V (the trace's x then ends in a column of 1s: x·W + b is [x 1]·[W; b], and W_O
    a column of 0s, the trace's output's last column); the output projection's bias is added to
    the trace's output. causal: each token sees itself and those
    before it (the module's attn_mask of the upper triangle). PyTorch is needed only to pass the
    module in. Dropout is not applied: the module as in eval()."""
    if callable(module) and not hasattr(module, "in_proj_weight") and not hasattr(module, "parameters"):
        got = module(x)
        if not isinstance(got, (tuple, list)) or len(got) != 3:
            raise TypeError("a function given to from_torch must return (q, k, v), one head's, "
                            f"not {type(got).__name__}")
        trace = attention(*got, causal=causal)
        return Result(trace=trace, output=trace.output)
    for attr in ("in_proj_weight", "out_proj", "num_heads", "embed_dim"):
        if not hasattr(module, attr):
            raise TypeError(f"module must be a torch.nn.MultiheadAttention, or a function that returns "
                            f"(q, k, v) (it has no {attr})")
    if module.in_proj_weight is None:
        raise ValueError("module has separate kdim or vdim (q_proj_weight, k_proj_weight, v_proj_weight): "
                         "only a module whose query, key and value share embed_dim is read here")
    if getattr(module, "bias_k", None) is not None or getattr(module, "add_zero_attn", False):
        raise ValueError("module adds a bias to the keys and values (add_bias_kv) or a zero attention "
                         "(add_zero_attn): neither is read here")
    e, h = int(module.embed_dim), int(module.num_heads)
    a = _array("x", x)
    if a.ndim == 3:
        batch_first = bool(getattr(module, "batch_first", False))
        sequences = a.shape[0] if batch_first else a.shape[1]
        if sequences != 1:
            axis = "x.shape[0]" if batch_first else "x.shape[1]"
            raise ValueError(f"x holds {sequences} sequences ({axis}, batch_first={batch_first}); give one")
        a = a[0] if batch_first else a[:, 0]
    x2 = _matrix("x", a)
    if x2.shape[1] != e:
        raise ValueError(f"x has {x2.shape[1]} columns but the module's embed_dim is {e}")
    w = _tensor("in_proj_weight", module.in_proj_weight)  # 3e × e: q, k, v's rows, x·Wᵀ
    b = None if module.in_proj_bias is None else _tensor("in_proj_bias", module.in_proj_bias)
    weights = {}
    for j, name in enumerate(("wq", "wk", "wv")):
        m = w[j * e:(j + 1) * e].T  # e × e, as the core's X·W takes it
        weights[name] = m if b is None else np.vstack([m, b[j * e:(j + 1) * e]])
    weights["wo"] = _tensor("out_proj.weight", module.out_proj.weight).T
    if b is not None:
        # x's column of 1s goes through W_O as a column of 0s: the output's last column, 0
        x2 = np.hstack([x2, np.ones((len(x2), 1))])
        weights["wo"] = np.hstack([weights["wo"], np.zeros((e, 1))])
    trace = multi_head_attention(x2, weights, heads=h, causal=causal)
    output = np.asarray(trace.output)[:, :e]
    if module.out_proj.bias is not None:
        output = output + _tensor("out_proj.bias", module.out_proj.bias)
    return Result(trace=trace, output=output)


def decode_step(cache: Optional[Result], x: Any, weights: dict, **layer: Any) -> Result:
    """One step of the KV cache: x is the next token's row (d_model); cache is the last step's
    result, or None for the first token. Returns position, k_cache, v_cache, trace, cost, full."""
    w, options = _layer(weights, **{"heads": 1, "kv_heads": None, "causal": True, "positions": "none", "base": 10000,
                                    "pe_scale": 1, "scale": None, **layer})
    row = _array("x", x)
    if row.ndim != 1:
        raise ValueError(f"x must be one token's row (1-D), not {row.ndim}-D")
    width = w[1].shape[1]
    k = np.zeros((0, width)) if cache is None else _matrix("cache k_cache", cache["k_cache"])
    v = np.zeros((0, w[2].shape[1])) if cache is None else _matrix("cache v_cache", cache["v_cache"])
    return _wrap(_core.decode_step(_matrix("x", row[None, :]), k, v, *w, options))


class Decoder:
    """A decoder that keeps its KV cache between steps: step(x) → decode_step's result."""

    def __init__(self, weights: dict, **layer: Any) -> None:
        self.weights, self.layer, self.cache = weights, layer, None

    def step(self, x: Any) -> Result:
        result = decode_step(self.cache, x, self.weights, **self.layer)
        self.cache = result
        return result

    def reset(self) -> None:
        self.cache = None


def attention_backward(q: MatrixLike, k: MatrixLike, v: MatrixLike, d_output: MatrixLike, *,
                       d_weights: Optional[MatrixLike] = None, mask: Any = None, causal: bool = False,
                       scale: Optional[float] = None, dropout: Any = None, mask_value: Optional[float] = None) -> Result:
    """attention()'s trace and dL/d of every step and input, given dL/d(output) (and a loss's own
    dL/d(weights)): {"trace", "gradients"}."""
    options = _options(mask, causal, scale, dropout, mask_value)
    dw = None if d_weights is None else _matrix("d_weights", d_weights)
    return _wrap(_core.attend_backward(_matrix("Q", q), _matrix("K", k), _matrix("V", v),
                                       _matrix("d_output", d_output), dw, options))


def self_attention_backward(x: MatrixLike, wq: MatrixLike, wk: MatrixLike, wv: MatrixLike, d_output: MatrixLike, *,
                            d_weights: Optional[MatrixLike] = None, mask: Any = None, causal: bool = False,
                            scale: Optional[float] = None, dropout: Any = None,
                            mask_value: Optional[float] = None) -> Result:
    """The same for self_attention(): also dL/dX, dL/dW_Q, dL/dW_K and dL/dW_V (x, wq, wk, wv)."""
    options = _options(mask, causal, scale, dropout, mask_value)
    dw = None if d_weights is None else _matrix("d_weights", d_weights)
    return _wrap(_core.self_attention_backward(_matrix("X", x), _matrix("W_Q", wq), _matrix("W_K", wk),
                                               _matrix("W_V", wv), _matrix("d_output", d_output), dw, options))


def multi_head_backward(x: MatrixLike, weights: dict, d_output: MatrixLike, **layer: Any) -> Result:
    """multi_head_attention()'s trace and the layer's gradients, given dL/d(output)."""
    w, options = _layer(weights, **{"heads": 1, "kv_heads": None, "causal": False, "positions": "none",
                                    "base": 10000, "pe_scale": 1, "scale": None, **layer})
    return _wrap(_core.multi_head_backward(_matrix("X", x), *w, _matrix("d_output", d_output), options))


# ---- the small transformer ----

# The inputs the core declares (src/fields.hpp: GptConfig, InductionTask, BpeOptions), each field's
# name, kind, default and words, read from the compiled module: one declaration for C++, JS and here.
_declared = _core.input_fields()


def _camel(name: str) -> str:
    """d_model → dModel, as the page and a model's description spell a declared field."""
    return re.sub(r"_(\w)", lambda m: m.group(1).upper(), name)


def _refuse_unknown(label: str, given: dict, known: list, aliases: Any = ()) -> None:
    """A field the core does not declare would be ignored (a misspelt Base, and the model run with
    another base): refused, named, with the names it knows."""
    unknown = next((k for k in given if k not in known and k not in aliases), None)
    if unknown is not None:
        raise ValueError(f'{label} has no field "{unknown}"; its fields are {", ".join(known)}')


def _input(kind: str, label: str, given: Any, least: int = 0) -> dict:
    """given (a dict) as the core's declared input `kind`: each field by its name (or its
    camelCase, as tang.json spells dModel) and of its kind, a field the core marks `sometimes`
    given its default when left out, and no other field (a misspelt one would otherwise be
    ignored). `label` names the argument in messages ("" for keyword arguments); `least` is the
    smallest whole number taken (a model's sizes start at 1)."""
    fields = _declared[kind]
    names = [f["name"] for f in fields]
    if not isinstance(given, dict):
        raise TypeError(f"{label} must be a dict {{{', '.join(names)}}}")
    _refuse_unknown(label, given, names, {_camel(n) for n in names})
    out: dict = {}
    for f in fields:
        name, scalar = f["name"], f["scalar"]
        x = given.get(name, given.get(_camel(name)))
        if x is None and f["sometimes"]:
            x = f["default"]
        what = f"{label} {name}" if label else name
        if scalar == "bool":
            out[name] = _flag(what, x)
        elif scalar.startswith("float"):
            out[name] = _number(what, x)
        elif scalar:
            out[name] = _whole(what, x, least)
        elif not isinstance(x, str):
            raise TypeError(f"{what} must be a str, not {type(x).__name__}")
        else:
            out[name] = x
    return out


def _config(config: dict) -> dict:
    return _input("GptConfig", "config", config, least=1)


def gpt_layout(config: dict) -> list:
    """Where each parameter lives in the flat buffer: [{name, rows, cols, offset, decay}]."""
    return _wrap(_core.gpt_layout(_config(config)))


def gpt_model(config: dict, weights: Union[bytes, str]) -> Result:
    """A model from its weights file (bytes, or a path: web/labs/gpt/tang.bin) and its
    configuration: {"config", "params"} with float32 params in gpt_layout's order."""
    if isinstance(weights, str):
        with open(weights, "rb") as f:
            weights = f.read()
    if not isinstance(weights, (bytes, bytearray)):
        raise TypeError("weights must be the file's bytes or its path")
    c = _config(config)
    return Result(config=c, params=_wrap(_core.gpt_dequantize(c, bytes(weights))))


# ---- a model's two files: its weights and its description, the JSON of {format, version, config,
# chars, …} (src/gpt_file.hpp). What the description says about the model is checked in the core,
# with the JS API's words; its JSON's shape here, as web/wasm/model-files.js checks it. ----

_model_format = "attention-by-hand model"
_model_version = 1
_int32 = 2**31 - 1  # a size the core reads: larger ones are refused here, named
_missing = object()  # a field the description does not have (JSON's null is None)


def _kind(x: Any) -> str:
    """What a JSON value is, for a message, in the JS API's words: the string "…", the number 5,
    an array, an object, null, true."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (int, float)):
        return f"the number {_number_text(x)}"
    if isinstance(x, str):
        return f"the string {json.dumps(x[:40], ensure_ascii=False)}"
    if isinstance(x, (list, tuple)):
        return "an array"
    if isinstance(x, dict):
        return "an object"
    name = type(x).__name__
    return f"{'an' if name[:1] in 'AEIOaeio' else 'a'} {name}"


def _number_text(x: Any) -> str:
    """A number as JS writes it: 64 for 64.0."""
    return str(int(x)) if isinstance(x, float) and x.is_integer() and abs(x) < 1e21 else str(x)


def _parse_description(text: str) -> Any:
    def no_constant(name: str) -> Any:
        raise ValueError(f"the description is not JSON: {name} is not a JSON number")

    try:
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"the description is not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None


def _read_description(description: Any) -> dict:
    """The description as a dict, its format and version read (no format: version 1, as tang.json)."""
    if isinstance(description, os.PathLike):
        with open(description, encoding="utf-8") as f:
            description = f.read()
    d = _parse_description(description) if isinstance(description, str) else description
    if not isinstance(d, dict):
        given = "JSON of " if isinstance(description, str) else ""
        raise ValueError("the description must be an object { format, version, config, chars, … } or its JSON "
                         f"text, not {given}{_kind(d)}")
    if "format" in d and d["format"] != _model_format:
        raise ValueError(f'format is {_kind(d["format"])}; this reads only "{_model_format}" files')
    if "config" not in d and "format" not in d:
        fields = list(d)
        shown = ", ".join(map(str, fields[:6])) + (", …" if len(fields) > 6 else "")
        raise ValueError(f"the description has no config: it is not a model's description (its fields: "
                         f"{shown or 'none'})")
    if "format" in d and "version" not in d:
        raise ValueError("version is missing")
    if "version" in d and (isinstance(d["version"], bool) or d["version"] != _model_version):
        raise ValueError(f"version is {_kind(d['version'])}; this reads version {_model_version}")
    return d


def _description_config(config: Any) -> dict:
    """A description's config, each field checked as the JSON gives it, by the core's declaration
    (GptConfig), as the core's dict; the core checks the ranges."""
    if config is _missing:
        raise ValueError("config is missing")
    if not isinstance(config, dict):
        raise ValueError(f"config is {_kind(config)}, not an object")
    fields = _declared["GptConfig"]
    known = [_camel(f["name"]) for f in fields]
    _refuse_unknown("config", config, known)
    out: dict = {}
    for f, name in zip(fields, known):
        if f["sometimes"]:
            x = config.get(name)
            x = f["default"] if x is None else x
        elif name not in config:
            raise ValueError(f"config.{name} is missing")
        else:
            x = config[name]
        if f["scalar"] == "bool":
            if not isinstance(x, bool):
                raise ValueError(f"config.{name} is {_kind(x)}, not true or false")
        elif isinstance(x, bool) or not isinstance(x, (int, float)):
            raise ValueError(f"config.{name} is {_kind(x)}, not a number")
        elif f["scalar"].startswith("float"):
            x = float(x)
        else:
            if isinstance(x, float) and not x.is_integer():
                raise ValueError(f"config.{name} is {x}, not a whole number")
            if abs(x) > _int32:
                raise ValueError(f"config.{name} is {_number_text(x)}, past any size the core reads ({_int32})")
            x = int(x)
        out[f["name"]] = x
    return out


def _chars(chars: Any) -> str:
    """chars as the JSON gives it: a string of whole characters (no lone surrogate, which UTF-8
    cannot hold); the core checks its count and that no character comes twice."""
    if chars is _missing:
        raise ValueError("chars is missing: the model's characters, a string")
    if not isinstance(chars, str):
        raise ValueError(f"chars is {_kind(chars)}, not a string")
    for i, c in enumerate(chars):
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise ValueError(f"chars character {i + 1} is a lone surrogate (U+{ord(c):04X}), not a character")
    return chars


def _file_config(c: dict) -> dict:
    """The core's config dict as the description writes it: dModel, base 10000 (not 10000.0)."""
    whole = lambda x: int(x) if isinstance(x, float) and x.is_integer() else x  # noqa: E731
    return {_camel(f["name"]): whole(c[f["name"]]) for f in _declared["GptConfig"]}


def gpt_model_files(model: dict, description: dict) -> Tuple[bytes, str]:
    """A model's two files, to keep it: (the weights file's bytes, int8 as tang.bin; the JSON text of
    {format, version, config, chars, …the rest of description}). description must give chars (the
    vocabulary's characters from token 2 on); its format, version and config, if given, must be
    these. Raises ValueError or TypeError naming the field."""
    c, p = _params(model)
    if not isinstance(description, dict):
        raise TypeError(f"description must be an object {{ chars, … }}, not {_kind(description)}")
    rest = {k: v for k, v in description.items() if k not in ("format", "version", "config", "chars")}
    if "format" in description and description["format"] != _model_format:
        raise ValueError(f'description.format is {_kind(description["format"])}; it is written "{_model_format}"')
    version = description.get("version", _model_version)
    if isinstance(version, bool) or version != _model_version:
        raise ValueError(f"description.version is {_kind(version)}; it is written {_model_version}")
    if "config" in description:
        given = _file_config(_config(description["config"]))
        mine = _file_config(c)
        for name in mine:
            if given[name] != mine[name]:
                raise ValueError(f"description.config.{name} is {given[name]} but the model's is {mine[name]}")
    chars = _chars(description.get("chars", _missing))
    _wrap(_core.gpt_check_chars(c, chars))
    weights = _wrap(_core.gpt_quantize(c, p))
    written = {"format": _model_format, "version": _model_version, "config": _file_config(c), "chars": chars,
               **rest}
    try:
        text = json.dumps(written, indent=2, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"description cannot be written as JSON: {e}") from None
    return weights, text + "\n"


def gpt_model_from_files(description: Union[str, dict, "os.PathLike[str]"],
                         weights: Union[bytes, bytearray, "os.PathLike[str]"]) -> Result:
    """A model from its two files, every field checked before use: description (its JSON text, the
    parsed dict, or a path) and weights (the weights file's bytes, or a path) → {"model": {"config",
    "params"}, "description": the parsed dict, "chars"}; or a ValueError naming the field and what
    is wrong. A description with no format (the shipped tang.json) is read as version 1."""
    d = _read_description(description)
    c = _description_config(d.get("config", _missing))
    chars = _chars(d.get("chars", _missing))
    if isinstance(weights, os.PathLike):
        with open(weights, "rb") as f:
            weights = f.read()
    if not isinstance(weights, (bytes, bytearray)):
        raise TypeError(f"weights must be the weights file's bytes or its path, not {type(weights).__name__}")
    params = _wrap(_core.gpt_read_model(c, chars, bytes(weights)))
    return Result(model=Result(config=c, params=params), description=d, chars=chars)


def _ids(name: str, tokens: Sequence[int], vocab: int, least: int = 0) -> np.ndarray:
    a = _array(name, tokens)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, a list of token ids")
    for i, t in enumerate(a.tolist()):
        if not float(t).is_integer() or t < least or t >= vocab:
            raise ValueError(f"{name}[{i}] is {t!r}, not an id from {least} to {vocab - 1}")
    return np.ascontiguousarray(a, dtype=np.int32)


def _params(model: dict) -> tuple:
    if not isinstance(model, dict) or "params" not in model or "config" not in model:
        raise TypeError("model must be gpt_model()'s result: {'config', 'params'}")
    params = _array("model params", model["params"])
    bad = np.flatnonzero(~np.isfinite(params))
    if bad.size:
        raise ValueError(f"model params[{bad[0]}] is {params[bad[0]]}, not a finite number")
    c = _config(model["config"])
    return c, np.ascontiguousarray(params, dtype=np.float32)


def gpt_forward(model: dict, tokens: Sequence[int], *, targets: Optional[Sequence[int]] = None) -> Result:
    """One sequence through the model (float32): per layer q, k, v and each head's scores and
    weights; the logits and probabilities of the next token at every position; with targets (−1
    where none), the mean loss."""
    c, p = _params(model)
    ids = _ids("tokens", tokens, c["vocab"])
    if ids.size == 0:
        raise ValueError("tokens is empty: give it at least one token id")
    wanted = None if targets is None else _ids("targets", targets, c["vocab"], least=-1)
    return _wrap(_core.gpt_forward(c, p, ids, wanted))


def gpt_generate(model: dict, prompt: Sequence[int], *, count: int, temperature: float = 1, seed: int = 1) -> list:
    """Up to count tokens after the prompt, sampled from softmax(logits/temperature) with a
    seeded stream (the largest at temperature 0); it stops after the end token (id 0)."""
    c, p = _params(model)
    ids = _ids("prompt", prompt, c["vocab"])
    out = _wrap(_core.gpt_generate(c, p, ids, _whole("count", count), _number("temperature", temperature),
                                   _whole("seed", seed)))
    return [int(t) for t in out]


def induction_batch(task: dict, *, batch: int, seed: int = 1) -> Result:
    """Seeded sequences of the induction task {vocab, context, min_segment, max_segment}: a
    segment of m distinct tokens, the same again, then random tokens: {tokens, targets} (B·T ids;
    a target is the next token) and segments (each sequence's m). The page draws the same."""
    t = _input("InductionTask", "task", task)
    return _wrap(_core.induction_batch(t, _whole("batch", batch), _whole("seed", seed)))


def induction_scores(model: dict, batch: dict) -> Result:
    """What a model does on a batch of the task: first_loss and repeat_loss (the mean loss at
    positions 0 … m−2 and m … 2m−2) and per layer and head (L, H) the previous-token and
    induction scores."""
    c, p = _params(model)
    ids = {name: _ids(f"batch {name}", batch[name], c["vocab"]) for name in ("tokens", "targets")}
    segments = np.ascontiguousarray(_array("batch segments", batch["segments"]), dtype=np.int32)
    return _wrap(_core.induction_scores(c, p, ids["tokens"], ids["targets"], segments))


from .show import show  # noqa: E402  (it reads _matrix and _array above)


def text_corpus(text: Union[str, bytes]) -> Result:
    """A learner's own text (a str, or a file's bytes: bytes that are not UTF-8 are refused, not
    replaced) as lesson 5's own-text lab reads it: its lines end in token 0, a line longer than 100
    characters is cut into pieces of 100, every tenth piece held out; the vocabulary (chars, from
    token 2), the streams train, validation and held_out, the counts, the unigram model and three
    baselines. ValueError, saying why, for a text that cannot be trained on."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    if not isinstance(text, (bytes, bytearray)):
        raise TypeError(f"text must be a str or bytes, not {type(text).__name__}")
    return _wrap(_core.text_corpus(bytes(text)))


# ---- a vocabulary built by hand: byte-pair encoding (src/bpe.hpp) ----


def _text(name: str, text: Any) -> bytes:
    """text as UTF-8, or a TypeError (not a str) or ValueError (a lone surrogate) naming it."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}")
    for i, c in enumerate(text):
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise ValueError(f"{name} holds a lone surrogate (U+{ord(c):04X}) at character {i + 1}, not text")
    return text.encode("utf-8")


def bpe_learn(text: str, *, merges: int = 10, start: str = "characters", presplit: bool = False) -> Result:
    """Byte-pair encoding learned from text, step by step: merges (0 to 500) merges, each of the
    pair counted most often (every adjacent position, overlapping ones included; ties: the pair
    that occurs first), merged left to right without overlap; learning stops early when no pair
    occurs twice. start "characters" (the default) or "bytes" (UTF-8, as GPT-2 does); presplit:
    never merge across letters, digits, spaces and punctuation. A line break is a boundary.
    Returns the trace: alphabet, base, vocabulary, initial, steps (each: top, distinct, tied, left,
    right, id, count, replaced, at, merged_at, after), next. The rules: src/bpe.hpp."""
    options = _input("BpeOptions", "", {"merges": merges, "start": start, "presplit": presplit})
    return _wrap(_core.bpe_learn(_text("text", text), options))


def bpe_encode(learned: dict, text: str) -> Result:
    """text read with a learned vocabulary (bpe_learn's result, or a dict of start, presplit,
    alphabet and steps [{left, right}]): its characters or bytes, then each merge in the order
    learned. Returns tokens (each id, text, hex, whole, known, segment), initial, applied, count,
    unknown, characters, bytes."""
    if not isinstance(learned, dict) or not isinstance(learned.get("steps"), list):
        raise TypeError("learned must be what bpe_learn returned, or {start, presplit, alphabet, steps: "
                        "[{left, right}]}")
    start = learned.get("start")
    if not isinstance(start, str):
        raise TypeError(f"learned start must be a str, not {type(start).__name__}")
    alphabet = _text("learned alphabet", learned.get("alphabet", ""))
    presplit = _flag("learned presplit", learned.get("presplit", False))
    merges = []
    for k, step in enumerate(learned["steps"]):
        if not isinstance(step, dict):
            raise TypeError(f"learned steps[{k}] must be a dict {{left, right}}")
        pair = tuple(_whole(f"learned steps[{k}] {side}", step.get(side)) for side in ("left", "right"))
        for x in pair:
            if x >= 2**53:
                raise ValueError(f"learned steps[{k}] has the token {x}, past any vocabulary")
        merges.append(pair)
    return _wrap(_core.bpe_encode({"start": start, "presplit": presplit, "alphabet": alphabet}, merges,
                                  _text("text", text)))


from .train import Trainer, gpt_stream_loss, gpt_trainer, induction_trainer, read_streams, text_trainer  # noqa: E402
from .heads import show_heads  # noqa: E402
from .tokens import gpt_decode, gpt_encode, text_encode  # noqa: E402
