"""SVG building blocks: the string type with ``_repr_svg_``, elements, text that fits.

Standard library only. Elements are built with :mod:`xml.etree.ElementTree`, so every text
and attribute is escaped. Text is fitted without reading fonts: widths come from Helvetica's metrics, which
Arial and Liberation Sans share (the fonts asked for first), with a small margin.
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "'Liberation Sans', Arial, Helvetica, 'DejaVu Sans', sans-serif"


class Svg(str):
    """An SVG document as a string; notebooks display it (``_repr_svg_``)."""

    def _repr_svg_(self) -> str:
        return str(self)


def el(parent: ET.Element | None, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """A child element; ``font_size`` becomes ``font-size``, ``class_`` becomes ``class``."""
    names = {k: (k[:-1] if k.endswith("_") else k).replace("_", "-") for k in attrs}
    clean = {names[k]: _num(v) for k, v in attrs.items() if v is not None}
    node = ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)
    if text is not None:
        node.text = text
    return node


def _num(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def root(width: float, height: float, title: str, *, class_: str, **attrs: object) -> ET.Element:
    """An ``<svg>`` element with its accessible ``<title>`` as first child."""
    node = el(None, "svg", xmlns=SVG_NS, viewBox=f"0 0 {_num(width)} {_num(height)}",
              width=width, height=height, role="img", class_=class_, **attrs)
    el(node, "title", title)
    return node


def to_svg(node: ET.Element) -> Svg:
    return Svg(ET.tostring(node, encoding="unicode"))


def nest(parent: ET.Element, child: ET.Element, x: float, y: float, width: float) -> ET.Element:
    """Place a whole drawing (an ``<svg>`` element) inside another, scaled to ``width``."""
    w, h = (float(v) for v in child.get("viewBox", "0 0 1 1").split()[2:])
    child.set("x", _num(float(x)))
    child.set("y", _num(float(y)))
    child.set("width", _num(float(width)))
    child.set("height", _num(width * h / w))
    child.attrib.pop("xmlns", None)
    parent.append(child)
    return child


# Advance widths (1/1000 em) of Helvetica, which Arial and Liberation Sans share: the fonts
# FONT asks for first. Other characters take the width of their base letter (é as e).
_REGULAR = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz",
    (278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
     *[556] * 10, 278, 278, 584, 584, 584, 556, 1015,
     667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778,
     722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333,
     556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556,
     333, 500, 278, 556, 500, 722, 500, 500, 500), strict=True))
_BOLD = {**_REGULAR, **dict(zip(
    "!\"'()-/:;?abcdefghijklmnopqrstuvwxyzACJKLR",
    (333, 474, 238, 333, 333, 333, 278, 333, 333, 611,
     556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611,
     389, 556, 333, 611, 556, 778, 556, 556, 500, 722, 722, 556, 722, 611, 722),
    strict=True))}
_SAFETY = 1.05  # hinting and rounding: plan a little wider than the metrics say
_WIDTHS: dict[tuple[str, bool], float] = {}


def char_width(ch: str, bold: bool = False) -> float:
    """Advance width of ``ch`` in em (an estimate, a little generous)."""
    key = (ch, bold)
    width = _WIDTHS.get(key)
    if width is None:
        table = _BOLD if bold else _REGULAR
        base = unicodedata.normalize("NFD", ch)[:1]
        units = table.get(ch) or table.get(base) or (1000 if unicodedata.east_asian_width(ch)
                                                      in "WF" else 611)
        width = _WIDTHS[key] = units / 1000 * _SAFETY
    return width


def text_width(text: str, size: float, bold: bool = False) -> float:
    return sum(char_width(c, bold) for c in text) * size


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap; a word longer than the line is cut into pieces."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size, bold) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        while text_width(word, size, bold) > width:  # a very long word: break it
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def fit(text: str, width: float, max_lines: int, sizes: Sequence[float],
        bold: bool = False) -> tuple[float, list[str]]:
    """The largest size (of ``sizes``, largest first) at which ``text`` wraps into
    ``max_lines``; at the smallest size the last line is cut with an ellipsis."""
    for size in sizes:
        lines = wrap(text, size, width, bold)
        if len(lines) <= max_lines:
            return size, lines
    size = sizes[-1]
    lines = wrap(text, size, width, bold)[:max_lines]
    last = lines[-1] + "…"
    while len(last) > 1 and text_width(last, size, bold) > width:
        last = last[:-2].rstrip() + "…"
    lines[-1] = last
    return size, lines


def text_block(parent: ET.Element, lines: Sequence[str], x: float, y: float, size: float,
               *, line_height: float = 1.18, anchor: str = "middle", **attrs: object) -> float:
    """Lines of text, the first baseline at ``y``; returns the y below the block."""
    node = el(parent, "text", x=x, y=y, font_size=size, text_anchor=anchor,
              font_family=FONT, **attrs)
    for i, line in enumerate(lines):
        el(node, "tspan", line, x=x, dy=0 if i == 0 else size * line_height)
    return y + size * line_height * (len(lines) - 1) + size * 0.3
