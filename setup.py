"""Build musici: the engine and the bots' hot parts compiled with mypyc where a C compiler
works, pure Python otherwise (the metadata is in pyproject.toml).

- ``MUSICI_PURE_BUILD=1`` (or no mypyc, or a failing compiler such as ``CC=false``) builds
  pure Python; the build says which it made in ``musici/_build_info.json`` and
  ``musici --version`` prints it.
- The compiled modules are :data:`musici.build.COMPILED`; their source hashes are recorded so
  an edited ``.py`` is never shadowed by a stale compiled module (see musici/build.py).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
import traceback
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "musici")

_spec = importlib.util.spec_from_file_location("_musici_build", os.path.join(PACKAGE, "build.py"))
assert _spec is not None and _spec.loader is not None
build_info = importlib.util.module_from_spec(_spec)
sys.modules["_musici_build"] = build_info  # dataclasses look their module up
_spec.loader.exec_module(build_info)


def _say(message: str) -> None:
    print(f"musici build: {message}", file=sys.stderr, flush=True)


def _write(package_dir: str, record: dict[str, Any]) -> None:
    # temp + fsync + rename: a build killed mid-write leaves the old record, never half a one
    # that `import musici` would then read
    os.makedirs(package_dir, exist_ok=True)
    path = os.path.join(package_dir, build_info.INFO_FILE)
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temp, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=1, sort_keys=True)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(temp)


def _remove_inplace_extensions() -> None:
    # A build in place must not leave an older build's extensions beside the sources: a
    # module no longer compiled (or a pure build) would still load its old extension.
    for folder, _dirs, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith((".so", ".pyd")):
                os.remove(os.path.join(folder, name))


def _mypyc_extensions() -> tuple[list[Any], str]:
    """The compiled modules' extensions, or none and why not."""
    if os.environ.get("MUSICI_PURE_BUILD", "") not in ("", "0"):
        return [], "MUSICI_PURE_BUILD=1"
    try:
        import mypy.version
        from mypyc.build import mypycify
    except ImportError:
        return [], "mypyc is not installed"
    paths = [os.path.relpath(build_info.source_path(PACKAGE, m), HERE) for m in build_info.COMPILED]
    cwd = os.getcwd()
    said = io.StringIO()
    try:
        os.chdir(HERE)
        with contextlib.redirect_stdout(said):  # mypy's messages: kept for the reason
            # One group named inside the package, so an editable install finds its library.
            extensions = mypycify(["--ignore-missing-imports", *paths], opt_level="3",
                                  debug_level="0", group_name="musici._native")
    except (Exception, SystemExit) as exc:  # a type error or a mypyc bug: build pure, not fail
        traceback.print_exc()
        print(said.getvalue(), file=sys.stderr)
        first = next((line for line in said.getvalue().splitlines() if ": error:" in line),
                     f"{type(exc).__name__}: {exc}")
        return [], f"mypyc could not compile ({first[:300]})"
    finally:
        os.chdir(cwd)
    return extensions, f"mypyc {mypy.version.__version__}"


class BuildExt(build_ext):
    """Compile, and fall back to pure Python when the C compiler fails."""

    compiler_name = ""
    pure_reason = ""
    in_place = False

    def _target(self) -> str:
        return PACKAGE if self.in_place else os.path.join(self.build_lib, "musici")

    def run(self) -> None:
        # setuptools' run turns inplace off while it builds and, if the build fails, leaves
        # it off: remember it (an editable install builds in place).
        self.in_place = bool(self.inplace)
        if self.in_place:
            _remove_inplace_extensions()
        if not self.extensions:
            _write(self._target(), build_info.pure_record(self.pure_reason))
            return
        try:
            super().run()
        except Exception as exc:  # CompileError, LinkError, a missing compiler (CC=false)
            said = " ".join(str(exc).split())
            if len(said) > 120:  # a compiler's whole command line: its start and its end
                said = f"{said[:50]} ... {said[-50:]}"
            reason = f"no working C compiler ({type(exc).__name__}: {said})"
            _say(f"building pure Python: {reason}")
            self.extensions = []
            if self.in_place:
                _remove_inplace_extensions()  # whatever the failed build left
            _write(self._target(), build_info.pure_record(reason))
            return
        _write(self._target(), build_info.record(PACKAGE, self.compiler_name))
        _say(f"compiled {len(build_info.COMPILED)} modules with {self.compiler_name}")

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), os.path.join(self._target(), build_info.INFO_FILE)]


# pip runs setup.py for metadata too (egg_info, dist_info): mypyc (a minute of type checking)
# only for a command that builds.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop", "bdist"}
if not BUILDS.intersection(sys.argv[1:]):
    setup()
else:
    extensions, why = _mypyc_extensions()
    if extensions:
        BuildExt.compiler_name = why
    else:
        BuildExt.pure_reason = why
        _say(f"building pure Python: {why}")
        _remove_inplace_extensions()  # setuptools runs no build_ext without extensions
        _write(PACKAGE, build_info.pure_record(why))  # the sdist's and a plain build's record
    setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
