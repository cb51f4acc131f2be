"""The compiled build: mypyc over the hot modules, from the same source as the pure build.

pyproject.toml holds everything else; this file only adds extension modules. `pip install .`
and the wheel compile the modules of COMPILED with mypyc when a C compiler is there, and fall
back to the pure-Python package otherwise (one line on standard error, never a failed
install). `BGRID_PURE_PYTHON=1` forces the pure build; an editable install is always pure, so
edits take effect. The pure-Python modules are the reference: a compiled module is the same
file turned into C, and `bgrid --version` says which build runs.

The checkout keeps `rules/`, `verifier/`, ... at the top; installed they are `bgrid.rules`, ...
(pyproject's `package-dir`). mypyc names a module after its place on disk, so it reads a copy
of the package laid out as installed, under build/.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
import sysconfig
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

REPO = Path(__file__).resolve().parent
TREE = Path("build", "mypyc-tree")  # relative: mypyc writes relative names into the C it makes


def _build_kind():  # bgrid/build_kind.py names what is compiled; it imports nothing of the package
    spec = importlib.util.spec_from_file_location("build_kind", REPO / "bgrid" / "build_kind.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_KIND = _build_kind()
COMPILED, INTERPRETED = _KIND.COMPILED_PACKAGES, _KIND.INTERPRETED
# The setup commands that build modules (a wheel, a plain install); the editable install's is
# editable_wheel.
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def say(message: str) -> None:
    print(f"bgrid: {message}", file=sys.stderr)


def package_dirs() -> dict[str, str]:
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["package-dir"]


def lay_out(tree: Path) -> list[str]:
    """Copy the package's modules into `tree` under their installed names; return the paths of
    the modules to compile."""
    shutil.rmtree(tree, ignore_errors=True)
    compiled = []
    for name, folder in package_dirs().items():
        target = tree.joinpath(*name.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted((REPO / folder).glob("*.py")):
            shutil.copyfile(source, target / source.name)
            module = f"{name}.{source.stem}"
            if name in COMPILED and module not in INTERPRETED:
                compiled.append((target / source.name).as_posix())
    (tree / "mypy.ini").write_text(
        "[mypy]\n"
        # The build environment has mypy but not the runtime dependencies: their names are Any.
        "ignore_missing_imports = True\n"
        "check_untyped_defs = True\n")
    return compiled


def build_kind() -> str | None:
    """Why the build is pure Python, or None to compile."""
    if os.environ.get("BGRID_PURE_PYTHON", "") not in ("", "0"):
        return "BGRID_PURE_PYTHON is set"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    return None


# A class marked mypyc_attr(acyclic=True) has no cycle-collector header, yet mypyc frees it
# under CPython's trashcan, which parks an object met 50 deallocations deep by writing into
# that header: into the object before it in memory (a crash after 15 long solves in one
# process; msgspec dropped the trashcan for its gc=False structs for the same reason). Such an
# object is freed at once instead, as CPython's own types without the header are.
TRASHCAN = re.compile(r"^(?P<indent>[ \t]*)CPy_TRASHCAN_BEGIN\(self, \w+\)\n(?P<body>.*?)"
                      r"^[ \t]*CPy_TRASHCAN_END\(self\)\n", re.MULTILINE | re.DOTALL)


def free_uncollected_at_once(c_source: str) -> str:
    """`c_source` with every trashcan-guarded deallocation skipping the trashcan for an object
    the cycle collector does not know; ValueError when mypyc's code is not the shape expected."""
    def guard(match: re.Match) -> str:
        indent, body = match["indent"], match["body"]
        return (f"{indent}if (!PyObject_IS_GC((PyObject *)self)) {{\n{body}"
                f"{indent}}} else {{\n{match[0]}{indent}}}\n")

    patched, count = TRASHCAN.subn(guard, c_source)
    if count != c_source.count("CPy_TRASHCAN_BEGIN("):
        raise ValueError("a deallocation of mypyc's C is not the shape setup.py guards")
    return patched


def guard_trashcans(extensions: list) -> None:
    for path in {Path(s) for extension in extensions for s in extension.sources}:
        if path.suffix == ".c":  # mypyc's runtime library is listed too, and is left alone
            source = path.read_text()
            if (guarded := free_uncollected_at_once(source)) != source:
                path.write_text(guarded)


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: a half-compiled package would not import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # CompileError, LinkError, a missing Python.h, ...
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            say(f"compiling failed ({exc}); installing the pure-Python build")


def drop_old_extensions() -> None:
    """pip builds in the checkout, and build/ keeps what an earlier build compiled: without
    this, a module made interpreted since (or every module, in a pure build) would be packed
    with its old extension file beside its source."""
    for old in Path("build").glob(f"lib*/**/*{sysconfig.get_config_var('EXT_SUFFIX')}"):
        old.unlink()


def extensions() -> list:
    if not BUILDS.intersection(sys.argv):  # metadata, an sdist: nothing to compile
        return []
    drop_old_extensions()
    reason = build_kind()
    if reason is not None:
        say(f"{reason}; installing the pure-Python build")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed; installing the pure-Python build")
        return []
    paths = lay_out(TREE)
    cwd = os.getcwd()
    try:
        modules = mypycify(["--config-file", str(TREE / "mypy.ini"), *paths],
                           group_name="bgrid", target_dir=str(Path("build", "mypyc")))
    except SystemExit as exc:  # mypyc reports a type error by exiting
        say(f"mypyc refused the source ({exc}); installing the pure-Python build")
        return []
    finally:
        os.chdir(cwd)
    try:
        guard_trashcans(modules)
    except ValueError as exc:  # another mypyc: its acyclic classes would not be safe
        say(f"{exc}; installing the pure-Python build")
        return []
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
