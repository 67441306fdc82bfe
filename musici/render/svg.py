"""SVG building blocks: the string type with ``_repr_svg_``, elements, text that fits.

Standard library only. Elements are built with :mod:`xml.etree.ElementTree`, so every text
and attribute is escaped. Text is fitted without font metrics: widths are estimated from
DejaVu Sans (the widest common sans-serif), so the real text is at most as wide as planned.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "'Liberation Sans', Arial, Helvetica, 'DejaVu Sans', sans-serif"


class Svg(str):
    """An SVG document as a string; notebooks display it (``_repr_svg_``)."""

    def _repr_svg_(self) -> str:
        return str(self)


def el(parent: ET.Element | None, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
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


# Advance widths of DejaVu Sans in em (the widest common sans-serif): an upper bound.
_NARROW = set("iljI.,:;'!|")
_SEMI = set("ftr()[]- \"/")
_WIDE = set("mwMW@%")
_UPPER_NARROW = set("EFJLPSTZ")


def char_width(ch: str, bold: bool = False) -> float:
    if ch in _NARROW:
        w = 0.32
    elif ch in _SEMI:
        w = 0.42
    elif ch in _WIDE:
        w = 0.98
    elif ch.isupper() and ch not in _UPPER_NARROW:
        w = 0.78
    elif ch.isupper():
        w = 0.68
    else:
        w = 0.64
    return w * (1.1 if bold else 1.0)


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
