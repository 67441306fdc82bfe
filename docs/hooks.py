"""MkDocs hooks: the notebooks as tutorial pages with their outputs, the rulebook and its
Chinese source as pages, and the pictures of the rules page.

The notebooks live outside ``docs/`` (people open them in Jupyter from ``notebooks/``) and
are committed without outputs. At build time this hook **executes** every
``notebooks/*.ipynb`` (nbclient, a fresh "python3" kernel) into a cache folder outside the
repository's tracked files (``.cache/docs-notebooks/``, keyed by the notebook and the
package's sources), turns plotly figures into static HTML, and hands that executed copy to
mkdocs-jupyter as ``notebooks/<name>.ipynb``, listed under "Tutorials" in the nav. A
notebook that is added or removed needs no change here or in ``mkdocs.yml``. A tutorial
page without a single picture fails the build, as does a cell that raises.

Everything is served from the site itself: plotly.js is copied from the installed plotly
package to ``assets/plotly.min.js`` (no CDN), MathJax is not loaded (no notebook uses
maths), and ``musici/data/RULES.md`` and ``i-musici-rules-zh.txt`` become the pages
``source/RULES.md`` and ``source/i-musici-rules-zh.md`` (plus the raw ``.txt``), read from
the package data at build time, never a second committed copy.

Order in the nav: the notebooks named in ``ORDER`` first, in that order, then any other
notebook by file name. The page title is the notebook's first ``#`` heading.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = "notebooks"  # URL folder, the same name as in the repository
NAV_SECTION = "Tutorials"
ORDER = ("walkthrough", "rules", "play", "what_if", "balance")
SEARCH_MODULE = ROOT / "musici" / "strategies" / "search.py"
DATA = ROOT / "musici" / "data"
SOURCE = "source"  # URL folder of the rulebook and the Chinese source
PLOTLY_JS = "assets/plotly.min.js"
CACHE = ROOT / ".cache" / "docs-notebooks"
CELL_TIMEOUT = 900  # seconds per cell when executing a notebook for the site
RATING_MAP = "<!-- musici: rating map -->"  # replaced on the rules page by the heat map
LIVE_ONLY = ("<p class='musici-live-only'><i>An interactive widget: it needs a running "
             "kernel (open this notebook in JupyterLab or Voila).</i></p>")
# Notebook pages use the whole window (their figures are drawn for about 900 px): no width
# limit, the page's table of contents only on very wide screens, wide outputs scroll.
WIDE_PAGE = ("<style>.md-grid{max-width:none}.jp-OutputArea-output{overflow-x:auto}"
             "@media (max-width:1800px){.md-sidebar--secondary{display:none !important}}</style>\n")
_PICTURE = re.compile(r'class="plotly-graph-div"|<img\b|<svg\b')
_REMOTE_SCRIPT = re.compile(r'<script[^>]*\bsrc="https?://[^"]*"[^>]*>\s*</script>')


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
    # A plain File rooted at the executed copy's folder (not File.generated): mkdocs-jupyter's
    # wrapper recomputes abs_src_path from src_dir and src_uri, so both must point at it.
    for path in notebooks():
        files.append(File(f"{TUTORIALS}/{path.name}", src_dir=str(executed(path)),
                          dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls))
    import plotly.offline

    generated = {
        PLOTLY_JS: plotly.offline.get_plotlyjs(),
        f"{SOURCE}/RULES.md": rulebook_page(),
        f"{SOURCE}/i-musici-rules-zh.md": source_page(),
        f"{SOURCE}/i-musici-rules-zh.txt": (DATA / "i-musici-rules-zh.txt").read_text("utf-8"),
    }
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files


# ---------------------------------------------------------------------------- executing
def _cache_key(path: Path) -> str:
    """The notebook, the package's sources and this hook: any change runs it again."""
    digest = hashlib.sha256(path.read_bytes())
    for source in sorted((ROOT / "musici").rglob("*")):
        if source.is_file() and source.suffix in (".py", ".json", ".md", ".txt"):
            digest.update(source.relative_to(ROOT).as_posix().encode())
            digest.update(source.read_bytes())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:20]


def executed(path: Path) -> Path:
    """Run ``path`` (cached) and return the folder that holds ``notebooks/<name>.ipynb``
    executed, with static outputs."""
    import nbclient
    import nbformat

    root = CACHE / f"{path.stem}-{_cache_key(path)}"
    out = root / TUTORIALS / path.name
    if out.is_file():
        return root
    for stale in CACHE.glob(f"{path.stem}-*"):  # earlier runs of this notebook
        if stale.is_dir() and re.fullmatch(rf"{re.escape(path.stem)}-[0-9a-f]{{20}}", stale.name):
            shutil.rmtree(stale, ignore_errors=True)
    nb = nbformat.read(path, as_version=4)
    # figures as plotly's JSON mime type only (no inline plotly.js); the kernel inherits it
    os.environ["PLOTLY_RENDERER"] = "plotly_mimetype"
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:
        client.execute()
    except Exception as exc:  # a tutorial that fails to run must not be published silently
        raise PluginError(f"notebook {path.name} failed while building the docs: "
                          f"{type(exc).__name__}: {str(exc)[-1500:]}") from exc
    static_outputs(nb)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    nbformat.write(nb, tmp)
    tmp.replace(out)
    return root


def static_outputs(nb: Any) -> Any:
    """Outputs a page without a kernel can show: plotly figures as HTML (plotly.js comes
    from the site), widgets by their own static HTML where they have one, else a note;
    saved widget state dropped."""
    import plotly.io as pio

    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is None:
                continue
            figure = data.pop("application/vnd.plotly.v1+json", None)
            if figure is not None:  # a wide figure scrolls rather than being cut off
                data["text/html"] = ("<div style='overflow-x:auto'>" + pio.to_html(
                    figure, include_plotlyjs=False, full_html=False,
                    config={"responsive": True}) + "</div>")
            if data.pop("application/vnd.jupyter.widget-view+json", None) is not None \
                    and "text/html" not in data:
                data["text/html"] = LIVE_ONLY
    return nb


# ---------------------------------------------------------------------------- generated pages
def rulebook_page() -> str:
    text = (DATA / "RULES.md").read_text(encoding="utf-8")
    note = ("!!! note \"The authoritative rulebook\"\n    This is `musici/data/RULES.md`, bundled "
            "with the package: every rule id the engine cites is defined here. "
            "[The rules page](../rules.md) says the same in plainer words; the designer's "
            "Chinese original is [here](i-musici-rules-zh.md).\n\n")
    first, _, rest = text.partition("\n")
    return f"{first}\n\n{note}{rest}" if first.startswith("# ") else note + text


def source_page() -> str:
    text = (DATA / "i-musici-rules-zh.txt").read_text(encoding="utf-8")
    return ("# The designer's Chinese source\n\n"
            "The 2008 Chinese draft of I Musici that [the rulebook](RULES.md) renders in "
            "English, bundled as `musici/data/i-musici-rules-zh.txt` "
            "([plain text](i-musici-rules-zh.txt)).\n\n"
            f"<pre class='musici-source' style='white-space:pre-wrap'>{html_lib.escape(text)}"
            "</pre>\n")


def rating_map_html() -> str:
    from musici import standard_cardset
    from musici.analysis.rating_map import rating_heatmap

    fig = rating_heatmap(standard_cardset(), "S04")
    fig.update_layout(width=None, autosize=True)  # the page's column decides
    body = fig.to_html(include_plotlyjs=False, full_html=False, config={"responsive": True})
    return "<div class='musici-figure'>" + " ".join(body.split("\n")) + "</div>"


def on_page_markdown(markdown: str, page, config, files) -> str:
    """List the notebooks on the tutorials index; document the search bot if it is there."""
    if page.file.src_uri == f"{TUTORIALS}/index.md":
        items = [f"- [{_title(p)}]({p.name})" for p in notebooks()]
        markdown += "\n" + ("\n".join(items) if items else
                            "*No notebook is in `notebooks/` in this build.*") + "\n"
    elif page.file.src_uri == "api/strategies.md" and SEARCH_MODULE.is_file():
        markdown += "\n::: musici.strategies.search\n"
    elif page.file.src_uri == "rules.md":
        if RATING_MAP not in markdown:
            raise PluginError(f"docs/rules.md lost its {RATING_MAP!r} marker for the rating map")
        markdown = markdown.replace(RATING_MAP, "\n" + rating_map_html() + "\n")
    return markdown


# Links as written for Jupyter in notebooks/: to a docs page (../docs/rules.md#anchor)
# or to another notebook (play.ipynb, ./play.ipynb#anchor).
_LINK = re.compile(r'href="(\.\./docs/[^"#]+\.md|(?:\./)?[^"#/:]+\.ipynb)(#[^"]*)?"')


def on_page_content(html: str, page, config, files) -> str:
    """Load the site's plotly.js where a page has figures; in a notebook page drop scripts
    from other hosts (MathJax), fail on a page without pictures, and point links to docs
    pages and other notebooks at the site's pages."""
    if "plotly-graph-div" in html:
        script = files.get_file_from_path(PLOTLY_JS)
        html = f'<script src="{script.url_relative_to(page.file)}"></script>\n' + html
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    html = WIDE_PAGE + _REMOTE_SCRIPT.sub("", html)
    if not _PICTURE.search(html):
        raise PluginError(f"tutorial {page.file.src_uri} shows no picture (no figure or image "
                          "in its executed outputs): the docs must show what the notebook draws")

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
