"""Run mypy on the `bgrid` package as it is installed, and report the checkout's paths.

The checkout keeps the game model, generator, verifier, ... as top-level folders that become
`bgrid.rules`, `bgrid.generator`, ... only through pyproject's `package-dir`, which mypy does
not read; an editable install is an import hook that mypy cannot follow either. So mypy reads
a temporary tree of links laid out as installed (built from `package-dir`, so a new subpackage
is checked without editing this script), and its messages are turned back into the paths of
the files in the checkout.

Usage: python .ci/typecheck.py [mypy options]   (exit status: mypy's)
"""

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def package_dirs() -> dict[str, str]:
    """pyproject's `package-dir`: installed package name -> folder of the checkout."""
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["package-dir"]


def lay_out(tree: Path, dirs: dict[str, str]) -> dict[str, str]:
    """Link the checkout's folders into `tree` under their installed names.

    Returns the path prefixes to rewrite, as mypy prints them (relative to `tree`) -> the
    checkout's path. A package whose folder holds other packages (the CLI's `bgrid/` holds
    none on disk, but gets `rules/`, ... linked in) is a real folder of linked files.
    """
    rewrites = {}
    for name in sorted(dirs, key=lambda n: n.count(".")):
        installed = Path(*name.split("."))
        source = REPO / dirs[name]
        has_children = any(other.startswith(name + ".") for other in dirs)
        if has_children:
            (tree / installed).mkdir(parents=True)
            for entry in source.iterdir():
                if entry.is_file():
                    (tree / installed / entry.name).symlink_to(entry)
        else:
            (tree / installed).symlink_to(source, target_is_directory=True)
        if installed.as_posix() != dirs[name]:
            rewrites[installed.as_posix() + "/"] = dirs[name] + "/"
    return rewrites


def main() -> int:
    dirs = package_dirs()
    top = min(dirs, key=lambda n: n.count("."))
    with tempfile.TemporaryDirectory(prefix="bgrid-typecheck-") as tmp:
        tree = Path(tmp)
        rewrites = lay_out(tree, dirs)
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
             "--cache-dir", os.devnull, "-p", top, *sys.argv[1:]],
            cwd=tree, capture_output=True, text=True,
        )
    for line in (run.stdout + run.stderr).splitlines():
        for installed, checkout in rewrites.items():
            if line.startswith(installed):
                line = checkout + line[len(installed):]
                break
        print(line)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
