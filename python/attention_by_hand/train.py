"""Training from Python: the runs the page's labs train in the learner's tab, through the same
core, with the same numbers for the same seed, to float32's last few bits (not to the bit: this
module is the core compiled natively, where Eigen vectorises and glibc takes exp, and the page's
is WebAssembly; docs/python.md gives the measured differences). A step is taken as the page takes
it, a slice of its batch's sequences at a time (one for a model of text, eight for the induction
task), the slices' shares summed in that order.

    trainer = text_trainer("床前明月光，疑是地上霜。\\n…")   # the own-text lab's run
    losses = trainer.step(100)                              # the batch loss of each step
    trainer.model                                           # {config, params}: gpt_forward, gpt_model_files

The three runs of the page: text_trainer (lesson 5's own-text lab), induction_trainer(layers)
(the induction lab, 1 or 2 layers), and the real model's "Train it yourself", which is gpt_trainer
on tang.json's configuration and training with read_streams' train stream."""

from __future__ import annotations

import pathlib
from typing import Any, Union

import numpy as np

from . import Result, _config, _core, _ids, _input, _number, _whole, _wrap, text_corpus

# The own-text lab's model (web/labs/gpt/text.js, textModel): the real model's shape, its
# vocabulary the text's (its characters, then the end and unknown tokens).
TEXT_MODEL = {"config": {"context": 64, "d_model": 64, "layers": 2, "heads": 4, "base": 10000},
              "training": {"steps": 2000, "batch": 16, "lr": 3e-3, "seed": 1}}
# The induction lab's (web/labs/gpt/induction-run.js): its task, its attention-only model of one
# head a layer (RoPE base 100), and its training.
INDUCTION_TASK = {"vocab": 32, "context": 20, "min_segment": 3, "max_segment": 10}
INDUCTION_MODEL = {"config": {"vocab": 32, "context": 20, "d_model": 64, "heads": 1, "base": 100, "mlp": False},
                   "training": {"steps": 1000, "batch": 32, "lr": 1e-3, "seed": 1}}


class Trainer:
    """A training run in float32 (AdamW, a warm-up then a cosine decay over `steps`), from
    seeded random weights. step(n) takes n steps and returns their batch losses (each before its
    update); params and model are the weights now; steps is how many have been taken."""

    def __init__(self, session: Any, config: dict, steps: int, sequences: int, corpus: Any = None) -> None:
        self._session, self.config, self.total, self.sequences = session, config, steps, sequences
        self.corpus = corpus  # text_trainer's: the text's streams and vocabulary

    @property
    def steps(self) -> int:
        return int(self._session.steps)

    @property
    def params(self) -> np.ndarray:
        """A copy of the weights now (float32, in gpt_layout's order)."""
        return self._session.params()

    @property
    def model(self) -> Result:
        """{config, params}: for gpt_forward, gpt_generate, induction_scores and gpt_model_files."""
        return Result(config=dict(self.config), params=self.params)

    def step(self, n: int = 1) -> list:
        n = _whole("n", n)
        losses = []
        for _ in range(n):
            loss = None
            while loss is None:
                loss = _wrap(self._session.slice(self.sequences))
            losses.append(loss)
        return losses

    def __repr__(self) -> str:
        c = self.config
        return (f"<Trainer: {c['layers']} layer(s) of {c['heads']} head(s), d_model {c['d_model']}, "
                f"vocab {c['vocab']}, context {c['context']}; step {self.steps} of {self.total}>")


def _training(steps: Any, batch: Any, lr: Any, seed: Any, sequences: Any) -> tuple:
    return (_whole("steps", steps, 1), _whole("batch", batch, 1), _number("lr", lr), _whole("seed", seed),
            _whole("sequences", sequences, 1))


def gpt_trainer(config: dict, data: Any, *, steps: int, batch: int = 16, lr: float = 3e-3, seed: int = 1,
                sequences: int = 1) -> Trainer:
    """A run on a stream of token ids (data): each step takes `batch` windows of context + 1
    tokens at seeded places, `sequences` at a time (1, as the page takes them)."""
    c = _config(config)
    s, b, rate, sd, per = _training(steps, batch, lr, seed, sequences)
    ids = _ids("data", data, c["vocab"])
    return Trainer(_wrap(_core.gpt_trainer(c, ids, b, rate, s, sd)), c, s, per)


def induction_trainer(layers: int = 2, *, task: dict = INDUCTION_TASK, steps: int = 1000, batch: int = 32,
                      lr: float = 1e-3, seed: int = 1, sequences: int = 8) -> Trainer:
    """The induction lab's run: INDUCTION_MODEL with 1 or 2 layers (the lab's choice) on the
    task's sequences (batches drawn from seed + 1), `sequences` at a time (8, as the page takes
    them)."""
    c = _config({**INDUCTION_MODEL["config"], "layers": _whole("layers", layers, 1)})
    t = _input("InductionTask", "task", task)
    s, b, rate, sd, per = _training(steps, batch, lr, seed, sequences)
    return Trainer(_wrap(_core.induction_trainer(c, t, b, rate, s, sd)), c, s, per)


def text_trainer(text: Union[str, bytes, Result], *, lr: float = 3e-3, steps: int = 2000, seed: int = 1) -> Trainer:
    """The own-text lab's run on a text (or text_corpus' result): TEXT_MODEL's shape and
    training, its vocabulary the text's; the trainer's corpus is the text's streams (held_out
    for gpt_stream_loss) and chars (for gpt_model_files' description)."""
    corpus = text if isinstance(text, dict) else text_corpus(text)
    config = {**TEXT_MODEL["config"], "vocab": len(corpus["chars"]) + 2}
    t = TEXT_MODEL["training"]
    trainer = gpt_trainer(config, corpus["train"], steps=steps, batch=t["batch"], lr=lr, seed=seed)
    trainer.corpus = corpus
    return trainer


def gpt_stream_loss(model: dict, stream: Any) -> float:
    """The mean loss over a stream of ids in windows of the context, each predicting the next
    id (the held-out loss the labs plot)."""
    from . import _params

    c, p = _params(model)
    return _wrap(_core.gpt_stream_loss(c, p, _ids("stream", stream, c["vocab"])))


def read_streams(path: Union[str, "pathlib.Path"]) -> Result:
    """The Tang streams the page trains on (web/generated/tang-streams.bin, `make streams`):
    three little-endian uint32 lengths, then train, validation and held_out as uint16 ids."""
    data = pathlib.Path(path).read_bytes()
    if len(data) < 12:
        raise ValueError(f"{path} has {len(data)} bytes: too few for its three lengths")
    lengths = np.frombuffer(data, dtype="<u4", count=3).astype(np.int64)
    if len(data) != 12 + 2 * int(lengths.sum()):
        raise ValueError(f"{path} has {len(data)} bytes, not what its lengths say ({12 + 2 * int(lengths.sum())})")
    ids = np.frombuffer(data, dtype="<u2", offset=12).astype(np.int32)
    ends = np.cumsum(lengths)
    return Result(train=ids[: ends[0]], validation=ids[ends[0]: ends[1]], held_out=ids[ends[1]:])
