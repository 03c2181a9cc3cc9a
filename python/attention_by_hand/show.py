"""show(): the walkthrough in a notebook. The object it returns displays as the page's
<attention-walkthrough> element, with the element's script and its WASM core inlined in the
output: nothing is fetched, so it works offline, in JupyterLab, classic Notebook and VS Code, and
in HTML exported with nbconvert. Every number it shows is the WASM core's, the same core as
this package's.

The script is about 240 KB (110 KB gzipped) and is written into each output that shows a
walkthrough; several on one page register the element once and share one WASM instance."""

from __future__ import annotations

import html
import json
import pathlib
from typing import Any, Optional, Sequence

SCENES = ("classroom", "age", "dictionary", "book", "cup")

_here = pathlib.Path(__file__).resolve().parent
# The element's script: beside this file in an installed package, in web/generated/ in the tree.
_scripts = (_here / "attention-walkthrough.js", _here.parents[1] / "web/generated/attention-walkthrough.js")


def _script() -> str:
    for path in _scripts:
        if path.exists():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError("the walkthrough's script is not built: run make bundle")


def _rows(name: str, m: Any) -> list:
    from . import _matrix

    return _matrix(name, m).tolist()


class Walkthrough:
    """A walkthrough to display: Jupyter calls _repr_html_()."""

    def __init__(self, attributes: dict, scene: Optional[dict]) -> None:
        self.attributes, self.scene = attributes, scene

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
        guard = "if (!customElements.get('attention-walkthrough')) {\n" + _script() + "\n}"
        return f"<script>{guard}</script>\n<attention-walkthrough {attrs}>{inline}</attention-walkthrough>"


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
    title: Optional[str] = None,
    lang: str = "zh",
    step: Optional[int] = None,
    controls: bool = True,
) -> Walkthrough:
    """A walkthrough: one of the page's scenes ("classroom", "age", "dictionary", "book", "cup"),
    or your own q, k and v (at most 16×16), with labels for the queries, keys and value columns
    (or tokens, one per row of a self-attention's q, k and v). lang "zh" or "en"; step from 1."""
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
        return Walkthrough({"scene": scene, **attributes}, None)
    if q is None or k is None or v is None:
        raise ValueError("give a scene, or q, k and v")
    custom: dict = {
        "title": title or ("你的注意力" if lang == "zh" else "Your attention"),
        "inputs": {"q": _rows("Q", q), "k": _rows("K", k), "v": _rows("V", v)},
    }
    if tokens is not None:
        queries = keys = list(tokens)
    for name, labels in (("queries", queries), ("keys", keys), ("values", values)):
        if labels is not None:
            custom[name] = [str(label) for label in labels]
    if mask is not None:
        from . import _array

        custom["mask"] = mask if isinstance(mask, str) else _array("mask", mask).astype(bool).tolist()
    return Walkthrough(attributes, custom)
