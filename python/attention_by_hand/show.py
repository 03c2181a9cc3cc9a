"""show(): the walkthrough in a notebook. The object it returns displays as the page's
<attention-walkthrough> element, with the element's script and its WASM core inlined in the
output: nothing is fetched, so it works offline, in JupyterLab, classic Notebook and VS Code, and
in HTML exported with nbconvert. Every number it shows is the WASM core's, the same core as
this package's.

The script is about 353 KB (144 KB gzipped) and is written into each output that shows a
walkthrough; several on one page register the element once and share one WASM instance. A
walkthrough also saves itself as one HTML file that needs nothing else (save(), to_html()), and
reads as a few lines of text in a console (repr)."""

from __future__ import annotations

import html
import json
import math
import pathlib
from typing import Any, Optional, Sequence

SCENES = ("classroom", "apple", "age", "dictionary", "book", "cup")

# A walkthrough to work by hand: at most this many rows and columns in each matrix (web/custom-scene.js's maxSide).
MAX_SIDE = 16

_here = pathlib.Path(__file__).resolve().parent
# The element's script: beside this file in an installed package, in web/generated/ in the tree.
_scripts = (_here / "attention-walkthrough.js", _here.parents[1] / "web/generated/attention-walkthrough.js")


def _script() -> str:
    for path in _scripts:
        if path.exists():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError("the walkthrough's script is not built: run make bundle")


def _inline_script(element: str) -> str:
    """The script, run only where it has not defined the element yet (several outputs, one page)."""
    return f"<script>if (!customElements.get('{element}')) {{\n{_script()}\n}}</script>"


def _document(title: str, lang: str, body: str) -> str:
    """One HTML document around an output: opened from a file, offline, it shows what it shows."""
    code = "zh-CN" if lang == "zh" else "en"
    return (f'<!doctype html>\n<html lang="{code}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def _is_default_scale(scale: float, d_k: int) -> bool:
    """Whether scale is 1/√d_k (to 1e-12), the one scale the walkthrough computes and explains."""
    return abs(scale * math.sqrt(d_k) - 1) <= 1e-12


_untrusted = {
    "zh": "这里是逐步讲解，它需要运行自己的脚本：请信任这个笔记本（File ▸ Trust Notebook），或重新运行这个单元格。",
    "en": "The step-by-step walkthrough shows here once its script may run: trust this notebook "
    "(File ▸ Trust Notebook) or run this cell again.",
}


class Walkthrough:
    """A walkthrough to display: Jupyter calls _repr_html_(); save(path) writes it as one HTML
    file that opens offline; repr() says what it shows in a few lines."""

    def __init__(self, attributes: dict, scene: Optional[dict], output: Any = None) -> None:
        # output: the core's output for your own q, k and v (None for a built-in scene)
        self.attributes, self.scene, self.output = attributes, scene, output

    def __repr__(self) -> str:
        a = self.attributes
        where = f"lang {a['lang']}, step {a['step'] or 1}"
        if self.scene is None:
            return f"<Walkthrough of the scene {a['scene']!r} ({where}): display it in a notebook, or save() it>"
        inputs = self.scene["inputs"]
        shapes = ", ".join(f"{name.upper()} {len(m)}×{len(m[0])}" for name, m in inputs.items())
        mask = self.scene.get("mask")
        lines = [f"<Walkthrough {self.scene['title']!r} ({where}): {shapes}"
                 + (f", mask {mask!r}" if isinstance(mask, str) else ", a mask" if mask else "")]
        lines.append("output (the core's, to 4 decimals):")
        lines += ["  " + "  ".join(f"{x:.4f}" for x in row) for row in self.output]
        return "\n".join(lines) + ">"

    def to_html(self) -> str:
        """The walkthrough as one HTML document with its script and WASM core in it: opened from
        a file, offline, it shows what the notebook shows."""
        title = self.scene["title"] if self.scene else f"attention-by-hand: {self.attributes['scene']}"
        return _document(title, self.attributes["lang"], self._repr_html_())

    def save(self, path: "str | pathlib.Path") -> pathlib.Path:
        """Writes to_html() to path (UTF-8) and returns it: a file to send, opened offline."""
        target = pathlib.Path(path)
        target.write_text(self.to_html(), encoding="utf-8")
        return target

    def _repr_html_(self) -> str:
        attrs = " ".join(
            name if value is True else f'{name}="{html.escape(str(value))}"'
            for name, value in self.attributes.items()
            if value is not None and value is not False
        )
        inline = ""
        if self.scene is not None:
            text = json.dumps(self.scene, ensure_ascii=False).replace("</", "<\\/")
            inline = f'<script type="application/json">{text}</script>'
        # Shown only where the script may not run (an untrusted notebook): the element, once
        # defined, draws in its shadow root and hides its children.
        fallback = f"<p>{html.escape(_untrusted[self.attributes['lang']])}</p>"
        element = f"<attention-walkthrough {attrs}>{inline}{fallback}</attention-walkthrough>"
        return f"{_inline_script('attention-walkthrough')}\n{element}"


def show(
    scene: Optional[str] = None,
    *,
    q: Any = None,
    k: Any = None,
    v: Any = None,
    tokens: Optional[Sequence[str]] = None,
    queries: Optional[Sequence[str]] = None,
    keys: Optional[Sequence[str]] = None,
    values: Optional[Sequence[str]] = None,
    mask: Any = None,
    scale: Optional[float] = None,
    title: Optional[str] = None,
    lang: str = "zh",
    step: Optional[int] = None,
    controls: bool = True,
) -> Walkthrough:
    """A walkthrough: one of the page's scenes ("classroom", "apple", "age", "dictionary", "book",
    "cup"),
    or your own q, k and v (at most 16×16), with labels for the queries, keys and value columns
    (or tokens, one per row of a self-attention's q, k and v). lang "zh" or "en"; step from 1.
    scale: only 1/√d_k, the one the walkthrough computes and explains at every step; for another,
    a ValueError says how to show it (q multiplied by scale·√d_k)."""
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be 'zh' or 'en', not {lang!r}")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int) or step < 1):
        raise ValueError(f"step must be a whole number from 1, not {step!r}")
    attributes = {"lang": lang, "step": step, "controls": controls}
    if scene is not None:
        if scene not in SCENES:
            raise ValueError(f"scene must be one of {', '.join(SCENES)}, not {scene!r}")
        if q is not None or k is not None or v is not None:
            raise ValueError("give a scene or q, k and v, not both")
        if scale is not None:
            raise ValueError(f"scale is for your own q, k and v; the scene {scene!r} has its own")
        return Walkthrough({"scene": scene, **attributes}, None)
    if q is None or k is None or v is None:
        raise ValueError("give a scene, or q, k and v")
    from . import _matrix, _number, attention

    # Checked here, with the core's own messages, rather than in the output (in English there)
    matrices = {"Q": _matrix("Q", q), "K": _matrix("K", k), "V": _matrix("V", v)}
    for name, m in matrices.items():
        if max(m.shape) > MAX_SIDE:
            raise ValueError(f"{name} is {m.shape[0]}×{m.shape[1]}; a walkthrough to work by hand "
                             f"has at most {MAX_SIDE} rows and {MAX_SIDE} columns")
    if scale is not None:
        d_k = matrices["Q"].shape[1]
        given = _number("scale", scale)
        if not _is_default_scale(given, d_k):
            raise ValueError(
                f"scale is {given!r}, but the walkthrough scales by 1/√d_k = 1/√{d_k} = {1 / math.sqrt(d_k)!r} "
                f"and says so at every step, so it cannot show another: leave scale out for 1/√d_k; "
                f"attention(q, k, v, scale={given!r}) computes yours, and show(q=q * {given * math.sqrt(d_k)!r}, …) "
                f"shows the same weights (q·kᵀ·scale = (q·scale·√d_k)·kᵀ/√d_k)")
    trace = attention(*matrices.values(), mask=mask, scale=scale)
    custom: dict = {
        "title": title or ("你的注意力" if lang == "zh" else "Your attention"),
        "inputs": {name.lower(): m.tolist() for name, m in matrices.items()},
    }
    # a string is one text, not its characters: labels come as a list, one a row (or column)
    for name, labels, one in (("tokens", tokens, "row"), ("queries", queries, "row of Q"),
                              ("keys", keys, "row of K"), ("values", values, "column of V")):
        if isinstance(labels, str):
            raise ValueError(f"{name} must be a list of labels, one a {one}, not the string {labels!r}: "
                             f"write list({labels!r}) for one label a character")
    if tokens is not None:
        if queries is not None or keys is not None:
            raise ValueError("give tokens (self-attention) or queries and keys, not both")
        queries = keys = list(tokens)
    wanted = {"queries": ("rows of Q", len(matrices["Q"])), "keys": ("rows of K", len(matrices["K"])),
              "values": ("columns of V", matrices["V"].shape[1])}
    for name, labels in (("queries", queries), ("keys", keys), ("values", values)):
        if labels is not None:
            what, n = wanted[name]
            given = "tokens" if tokens is not None and name != "values" else name
            if len(labels) != n:
                raise ValueError(f"{given} has {len(labels)} label{'' if len(labels) == 1 else 's'} but there are {n} {what}")
            custom[name] = [str(label) for label in labels]
    if mask is not None:
        from . import _array

        custom["mask"] = mask if isinstance(mask, str) else _array("mask", mask).astype(bool).tolist()
    return Walkthrough(attributes, custom, trace.output.tolist())
