"""Packaging: environment.yml matches pyproject.toml; a built wheel and sdist install and run."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTRAS_IN_CONDA = ("dask", "test", "lab")  # the extras environment.yml also provides
CONDA_NAMES = {"dask[distributed]": "dask"}  # PyPI requirement -> conda-forge package


def _requirement(text: str) -> tuple[str, str]:
    text = text.split("#")[0].strip()
    match = re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)\s*(.*)", text)
    assert match, text
    name, version = match.groups()
    return CONDA_NAMES.get(name.lower(), name.lower()), version.replace(" ", "")


def pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in EXTRAS_IN_CONDA:
        lines += project["optional-dependencies"][extra]
    return dict(_requirement(line) for line in lines)


def conda_requirements() -> tuple[dict[str, str], list[str]]:
    conda, pip = {}, []
    in_pip = in_deps = False
    for raw in (ROOT / "environment.yml").read_text().splitlines():
        line = raw.split("#")[0].rstrip()
        if not raw.startswith(" "):
            in_deps = line.strip() == "dependencies:"
        if not in_deps or not line.strip().startswith("- "):
            continue
        item = line.strip()[2:].strip()
        if item == "pip:":
            in_pip = True
            continue
        if in_pip and raw.startswith("      "):
            pip.append(item)
        elif item not in ("pip",) and not item.startswith("python"):
            in_pip = False
            name, version = _requirement(item)
            conda[name] = version
    return conda, pip


def test_environment_yml_names_the_same_dependencies_as_pyproject() -> None:
    conda, pip = conda_requirements()
    assert conda == pyproject_requirements()
    assert pip == ["-e ."], "pip installs only the project itself"


def test_license_is_an_spdx_string() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    requires = pyproject["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools>=(\d+)", r) and int(r.split(">=")[1]) >= 77
               for r in requires)


@pytest.mark.slow
def test_built_wheel_and_sdist_install_run_and_pass_twine(tmp_path: Path) -> None:
    for tool in ("build", "twine"):
        pytest.importorskip(tool, reason=f"needs {tool}: pip install -e '.[packaging]'")
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    assert "project.license` as a TOML table is deprecated" not in built.stdout + built.stderr
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels),
                            *map(str, sdists)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    for artifact in (wheels[0], sdists[0]):
        env = tmp_path / f"venv-{artifact.suffix}"
        venv.create(env, with_pip=True)
        py = env / "bin" / "python"
        done = subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(artifact)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        play = subprocess.run([str(env / "bin" / "musici"), "play", "--brief", "--seed", "3"],
                              capture_output=True, text=True, cwd=tmp_path)
        assert play.returncode == 0, play.stderr
        assert "Final standings" in play.stdout
