"""A griffe extension for the API reference: Sphinx roles in docstrings become links.

musici's docstrings are prose with a few Sphinx cross-reference roles
(``:func:`make_strategy```, ``:class:`~musici.views.PlayerView```). Markdown has no roles,
so this turns each into a code span wrapped in an *optional* mkdocs-autorefs reference: a
link where the target is documented on the site, plain code (and no warning) where it is
not. The name is resolved in the docstring's own scope, as Sphinx would, so imported names
link to where they are defined. Only the rendered docs change, never the source.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|obj|exc|const):`(~?)([\w.]+)(?:\(\))?`")


class RstRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = ROLE.sub(lambda m, o=obj: _link(o, m), obj.docstring.value)


def _walk(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _link(obj: griffe.Object, match: re.Match) -> str:
    short, name = match.groups()
    shown = name.rsplit(".", 1)[-1] if short else name
    path = _resolve(obj, name)
    if path is None:
        return f"`{shown}`"
    return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'


def _resolve(obj: griffe.Object, name: str) -> str | None:
    """The canonical path of ``name`` seen from ``obj``, or None."""
    head, _, rest = name.partition(".")
    candidates = [name]
    try:
        base = obj.resolve(head)
        candidates.insert(0, f"{base}.{rest}" if rest else base)
    except (griffe.NameResolutionError, AttributeError):
        pass
    collection = obj.modules_collection
    for path in candidates:
        try:
            target = collection.get_member(path)
            return target.final_target.path if target.is_alias else target.path
        except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
    return None
