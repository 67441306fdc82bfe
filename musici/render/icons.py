"""Small icons drawn as SVG paths in a 16×16 box (no fonts, no images).

The four performer icons follow COMP.5: woodwind = authentic instrumentalists, children's
choir = authentic singers, brass = modern instrumentalists, soprano = modern singers.
Each icon carries a ``<title>`` so screen readers and hovers name it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

from musici.render.svg import el

Drawer = Callable[[ET.Element, str], None]


def _woodwind(g: ET.Element, ink: str) -> None:
    # A recorder held at a slant: tube, bell, finger holes.
    body = el(g, "g", transform="rotate(35 8 8)")
    el(body, "rect", x=6.4, y=0.5, width=3.2, height=12.5, rx=1.4, fill=ink)
    el(body, "path", d="M5.2 12.4h5.6l-0.9 3.1h-3.8z", fill=ink)
    for y in (3.6, 6.1, 8.6):
        el(body, "circle", cx=8, cy=y, r=0.75, fill="#fff")


def _choir(g: ET.Element, ink: str) -> None:
    # Two children in robes, singing.
    for cx in (4.6, 11.4):
        el(g, "circle", cx=cx, cy=5.2, r=2.3, fill=ink)
        el(g, "path", d=f"M{cx - 3.6:.1f} 15.5C{cx - 3.2:.1f} 9.4 {cx + 3.2:.1f} 9.4 "
                         f"{cx + 3.6:.1f} 15.5z", fill=ink)
        el(g, "circle", cx=cx, cy=5.9, r=0.6, fill="#fff")


def _brass(g: ET.Element, ink: str) -> None:
    # A trumpet: mouthpiece, tube with three valves, flared bell.
    el(g, "path", d="M0.8 7.2h9.4v1.8H0.8z", fill=ink)
    el(g, "path", d="M9.6 8.1L15.4 3.6v9z", fill=ink)
    el(g, "path", d="M3.2 9v3.2h6.4V9", fill="none", stroke=ink, stroke_width=1.3)
    for x in (4.1, 5.9, 7.7):
        el(g, "rect", x=x - 0.5, y=4.1, width=1.0, height=3.1, fill=ink)


def _soprano(g: ET.Element, ink: str) -> None:
    # One singer in a long gown, with a note beside her.
    el(g, "circle", cx=6, cy=3.6, r=2.5, fill=ink)
    el(g, "path", d="M1.6 15.6C2.4 8.4 9.6 8.4 10.4 15.6z", fill=ink)
    el(g, "ellipse", cx=12.6, cy=9.4, rx=1.7, ry=1.25, fill=ink, transform="rotate(-20 12.6 9.4)")
    el(g, "path", d="M14.1 9V2.4l1.6 1.2", fill="none", stroke=ink, stroke_width=1.0)


def _star(g: ET.Element, ink: str) -> None:
    el(g, "path", d="M8 0.8l2.1 4.7 5.1.5-3.8 3.4 1.1 5-4.5-2.6-4.5 2.6 1.1-5L0.8 6l5.1-.5z",
       fill=ink)


def _coin(g: ET.Element, ink: str) -> None:
    # Two stacked coins, seen from the side and from above.
    el(g, "ellipse", cx=8, cy=11.2, rx=6.8, ry=3.4, fill=ink, stroke="#8a6a00", stroke_width=0.8)
    el(g, "ellipse", cx=8, cy=7.2, rx=6.8, ry=3.4, fill=ink, stroke="#8a6a00", stroke_width=0.8)
    el(g, "ellipse", cx=8, cy=7.2, rx=3.6, ry=1.6, fill="none", stroke="#8a6a00",
       stroke_width=0.7)


def _note(g: ET.Element, ink: str) -> None:
    # Two beamed eighth notes.
    el(g, "path", d="M5.2 3.6l9-2.2v2.6l-9 2.2z", fill=ink)
    el(g, "path", d="M5.2 4.2v8.4M14.2 2v8.4", stroke=ink, stroke_width=1.2)
    el(g, "ellipse", cx=3.6, cy=12.8, rx=2.2, ry=1.6, fill=ink)
    el(g, "ellipse", cx=12.6, cy=10.6, rx=2.2, ry=1.6, fill=ink)


def _marker(g: ET.Element, ink: str) -> None:
    # A dissent marker: a dark disc with a frown.
    el(g, "circle", cx=8, cy=8, r=7.2, fill=ink)
    el(g, "circle", cx=5.6, cy=6.2, r=1.1, fill="#fff")
    el(g, "circle", cx=10.4, cy=6.2, r=1.1, fill="#fff")
    el(g, "path", d="M4.8 11.8Q8 8.6 11.2 11.8", fill="none", stroke="#fff", stroke_width=1.3)


ICONS: dict[str, tuple[Drawer, str]] = {
    "woodwind": (_woodwind, "woodwind: authentic instrumentalists"),
    "choir": (_choir, "children's choir: authentic singers"),
    "brass": (_brass, "brass: modern instrumentalists"),
    "soprano": (_soprano, "soprano: modern singers"),
    "star": (_star, "fame"),
    "coin": (_coin, "money"),
    "note": (_note, "music"),
    "marker": (_marker, "dissent marker"),
}
# (style, part) -> the performer icon of COMP.5.
PERFORMER_ICONS: dict[tuple[str, str], str] = {
    ("authentic", "instrumental"): "woodwind", ("authentic", "vocal"): "choir",
    ("modern", "instrumental"): "brass", ("modern", "vocal"): "soprano",
}


def icon(parent: ET.Element, name: str, x: float, y: float, size: float = 16,
         ink: str = "#222", title: str | None = None) -> ET.Element:
    """Draw icon ``name`` with its top-left corner at (x, y), ``size`` wide."""
    draw, default_title = ICONS[name]
    g = el(parent, "g", class_=f"icon icon-{name}",
           transform=f"translate({x:.2f} {y:.2f}) scale({size / 16:.4f})")
    el(g, "title", title or default_title)
    draw(g, ink)
    return g
