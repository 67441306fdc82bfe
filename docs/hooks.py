"""MkDocs hooks: the notebooks of ``notebooks/`` as tutorial pages.

The notebooks live outside ``docs/`` (people open them in Jupyter from ``notebooks/``).
At build time this hook adds every ``notebooks/*.ipynb`` that exists to the site's files
as ``notebooks/<name>.ipynb`` (read in place, nothing is copied) and lists it under
"Tutorials" in the nav, next to ``docs/notebooks/index.md``. A notebook that is added or
removed needs no change here or in ``mkdocs.yml``. mkdocs-jupyter renders them without
running them (``execute: false``).

Order in the nav: the notebooks named in ``ORDER`` first, in that order, then any other
notebook by file name. The page title is the notebook's first ``#`` heading.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = "notebooks"  # URL folder, the same name as in the repository
NAV_SECTION = "Tutorials"
ORDER = ("walkthrough", "rules", "play", "what_if", "balance")
SEARCH_MODULE = ROOT / "musici" / "strategies" / "search.py"


def notebooks() -> list[Path]:
    """The notebooks to publish, in nav order (checkpoints and hidden files left out)."""
    found = [p for p in NOTEBOOKS.glob("*.ipynb")
             if not p.name.startswith((".", "_")) and p.stem != "index"]  # index.md is ours
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(found, key=lambda p: (rank.get(p.stem, len(ORDER)), p.name))


def on_config(config):
    """Fill the "Tutorials" section of the nav with the notebooks that exist now."""
    pages = [f"{TUTORIALS}/{p.name}" for p in notebooks()]
    for i, item in enumerate(config.nav or []):
        if isinstance(item, dict) and NAV_SECTION in item:
            section = item[NAV_SECTION]
            section = section if isinstance(section, list) else [section]
            config.nav[i] = {NAV_SECTION: section + pages}
    if NOTEBOOKS.is_dir():
        config.watch.append(str(NOTEBOOKS))  # `mkdocs serve` reloads on notebook edits
    return config


# Runs before mkdocs-jupyter's on_files (priority 0), which turns .ipynb files into pages.
@event_priority(50)
def on_files(files: Files, config) -> Files:
    # A plain File rooted at the repository (not File.generated): mkdocs-jupyter's wrapper
    # recomputes abs_src_path from src_dir and src_uri, so both must point at the notebook.
    for path in notebooks():
        files.append(File(f"{TUTORIALS}/{path.name}", src_dir=str(ROOT), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """List the notebooks on the tutorials index; document the search bot if it is there."""
    if page.file.src_uri == f"{TUTORIALS}/index.md":
        items = [f"- [{_title(p)}]({p.name})" for p in notebooks()]
        markdown += "\n" + ("\n".join(items) if items else
                            "*No notebook is in `notebooks/` in this build.*") + "\n"
    elif page.file.src_uri == "api/strategies.md" and SEARCH_MODULE.is_file():
        markdown += "\n::: musici.strategies.search\n"
    return markdown


# Links as written for Jupyter in notebooks/: to a docs page (../docs/rules.md#anchor)
# or to another notebook (play.ipynb, ./play.ipynb#anchor).
_LINK = re.compile(r'href="(\.\./docs/[^"#]+\.md|(?:\./)?[^"#/:]+\.ipynb)(#[^"]*)?"')


def on_page_content(html: str, page, config, files) -> str:
    """In a notebook page, point links to docs pages and other notebooks at the site's pages."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html

    def to_site(match: re.Match) -> str:
        link = match.group(1)
        path = link[len("../docs/"):] if link.startswith("../") else f"{TUTORIALS}/{link.removeprefix('./')}"
        target = files.get_file_from_path(path)
        if target is None:
            return match.group(0)
        return f'href="{target.url_relative_to(page.file)}{match.group(2) or ""}"'

    return _LINK.sub(to_site, html)


def _title(path: Path) -> str:
    """The notebook's first level-1 heading, else its file name."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        cells = []
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        for line in (source if isinstance(source, str) else "".join(source)).splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return path.stem.replace("_", " ").capitalize()
