"""_core.pyi, whose TypedDicts tools/api.mjs writes from the core's declarations: every name it
uses is defined, and what the compiled module returns has the keys its type declares (the
required ones always, the NotRequired ones only when their step is taken), read apart from the
generator: by calling the module."""

import sys
import types
import typing
from pathlib import Path

import numpy as np
import pytest

import attention_by_hand as abh
from attention_by_hand import _core

STUBS = Path(abh.__file__).with_name("_core.pyi")


@pytest.fixture(scope="module")
def stubs():
    """The stubs run as a module of their own (its names are where TypedDict's forward references
    look), their annotations left unevaluated until the tests ask."""
    module = types.ModuleType("core_stubs")
    sys.modules[module.__name__] = module
    source = "from __future__ import annotations\n" + STUBS.read_text(encoding="utf-8")
    exec(compile(source, str(STUBS), "exec"), module.__dict__)
    yield module.__dict__
    del sys.modules[module.__name__]


def test_every_name_the_stubs_use_is_defined(stubs):
    typed = [v for v in stubs.values() if isinstance(v, type) and typing.is_typeddict(v)]
    functions = [v for v in stubs.values() if isinstance(v, types.FunctionType)]
    assert len(typed) >= 40 and len(functions) >= 20
    for one in typed + functions:
        typing.get_type_hints(one, globalns=stubs)  # a name not defined raises NameError


def optional(kind) -> set:
    """The keys a TypedDict marks NotRequired, read from its annotations' text (unevaluated, so
    TypedDict itself cannot tell)."""
    text = lambda a: a.__forward_arg__ if isinstance(a, typing.ForwardRef) else str(a)  # noqa: E731
    return {k for k, a in kind.__annotations__.items() if text(a).startswith("NotRequired[")}


def keys_fit(result: dict, kind, stubs: dict, path="") -> None:
    """result's keys are kind's: every required one there, none undeclared; nested results too."""
    hints = typing.get_type_hints(kind, globalns=stubs)
    declared = set(hints)
    assert set(result) <= declared, f"{path}{kind.__name__} lacks {set(result) - declared}"
    required = declared - optional(kind)
    assert required <= set(result), f"{path}{kind.__name__} has no {required - set(result)}"
    for name, value in result.items():
        inner = hints[name]
        args = typing.get_args(inner)
        if typing.get_origin(inner) is list and args and typing.is_typeddict(args[0]):
            for i, one in enumerate(value):
                keys_fit(one, args[0], stubs, f"{path}{name}[{i}].")
        elif typing.is_typeddict(inner):
            keys_fit(value, inner, stubs, f"{path}{name}.")


def test_results_have_the_keys_their_types_declare(stubs):
    q = np.array([[1.0, 0.5], [0.0, 2.0]])
    k = np.array([[1.0, 0.0], [0.5, 1.0], [2.0, -1.0]])
    v = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0]])
    plain = _core.attend(q, k, v, {"causal": False})
    keys_fit(plain, stubs["Trace"], stubs)
    assert "masked" not in plain and "dropped" not in plain
    masked = _core.attend(q, k, v, {"causal": True})
    keys_fit(masked, stubs["Trace"], stubs)
    assert "masked" in masked
    x = np.arange(12.0).reshape(3, 4) / 10
    w = np.eye(4)
    keys_fit(_core.multi_head_attention(x, w, w, w, w, {"heads": 2, "positions": 2}), stubs["MultiHeadTrace"], stubs)
    keys_fit(_core.attend_backward(q, k, v, np.ones((2, 2)), None, {"causal": False}), stubs["AttentionBackward"], stubs)
    config = {"vocab": 5, "context": 4, "d_model": 4, "layers": 1, "heads": 2}
    model = abh.gpt_trainer(config, np.array([0, 1, 2, 3, 4, 0, 1, 2]), steps=1, batch=1).model
    forward = _core.gpt_forward(abh._config(config), np.asarray(model["params"], np.float32),
                                np.array([0, 1, 2], np.int32), None)
    keys_fit(forward, stubs["GptForward"], stubs)
    keys_fit(_core.bpe_learn(b"abab abab", {"merges": 2}), stubs["BpeTrace"], stubs)
    task = {"vocab": 8, "context": 8, "min_segment": 2, "max_segment": 3}
    keys_fit(_core.induction_batch(task, 2, 1), stubs["InductionBatch"], stubs)


def test_the_inputs_types_are_the_declared_inputs(stubs):
    for kind, fields in _core.input_fields().items():
        typed = stubs[kind]
        assert list(typing.get_type_hints(typed, globalns=stubs)) == [f["name"] for f in fields], kind
        assert optional(typed) == {f["name"] for f in fields if f["sometimes"]}, kind
