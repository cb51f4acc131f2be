"""Imports run one way (docs/architecture.md): the faces (the command line, the web) import
the library, the library imports the game model, and the game model imports nothing outside
itself; no command module imports another, no face another face's modules, and no package
takes a private name of another."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LIBRARY = ("players", "challenges", "generator", "log", "verifier", "league", "safeio")
SHARED_IO = "safeio"  # the I/O helpers every other package uses: they may lean on the game model only
CLI_FOLDER = "bgrid"


def imports(folder: str):
    """(file, imported module as installed under bgrid., imported names) for every import."""
    package = "bgrid" if folder == CLI_FOLDER else f"bgrid.{folder}"
    for path in sorted((REPO / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                if module == "bgrid":  # `from .. import templates`: the names are modules
                    for alias in node.names:
                        yield path.name, f"bgrid.{alias.name}", []
                    continue
                yield path.name, module, [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.name, alias.name, []


def top(module: str) -> str:
    """The folder an installed module lives in: ``bgrid.rules.cards`` -> ``rules``; a CLI
    module (``bgrid.cmd_verify``) -> ``bgrid``."""
    parts = module.split(".")
    if parts[0] != "bgrid" or len(parts) == 1:
        return parts[0]
    return parts[1] if parts[1] in LIBRARY + ("rules", "templates") else CLI_FOLDER


def test_the_game_model_imports_nothing_outside_itself():
    outside = [(f, m) for f, m, _ in imports("rules") if m.startswith("bgrid") and top(m) != "rules"]
    assert not outside


def test_the_shared_io_helpers_import_only_the_game_model():
    outside = [(f, m) for f, m, _ in imports(SHARED_IO)
               if m.startswith("bgrid") and top(m) not in (SHARED_IO, "rules")]
    assert not outside


def test_the_log_format_imports_only_the_game_model_and_the_challenge_codes():
    outside = [(f, m) for f, m, _ in imports("log")
               if m.startswith("bgrid") and top(m) not in ("log", "rules", "challenges")]
    assert not outside


@pytest.mark.parametrize("folder", LIBRARY)
def test_the_library_never_imports_the_command_line(folder):
    assert not [(f, m) for f, m, _ in imports(folder) if m.startswith("bgrid") and top(m) == CLI_FOLDER]


def test_no_command_module_imports_another():
    found = [(f, m) for f, m, _ in imports(CLI_FOLDER)
             if f.startswith("cmd_") and m.split(".")[-1].startswith("cmd_")]
    assert not found


@pytest.mark.parametrize("folder", ("rules", CLI_FOLDER, "web", "companion") + LIBRARY)
def test_no_private_name_crosses_a_package(folder):
    found = [(f, m, n) for f, m, names in imports(folder) for n in names
             if m.startswith("bgrid") and folder_of(m) != folder
             and n.startswith("_") and not n.startswith("__")]
    assert not found


FOLDERS = ("rules", CLI_FOLDER, "web", "companion") + LIBRARY


def runtime_imports(folder: str):
    """(file, imported module as installed) for every import run when the module runs: those
    under ``if TYPE_CHECKING:`` are left out (a type named for the checker only)."""
    package = "bgrid" if folder == CLI_FOLDER else f"bgrid.{folder}"
    for path in sorted((REPO / folder).glob("*.py")):
        stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                stack.extend(node.orelse)
                continue
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                names = [a.name for a in node.names] if module == "bgrid" else [None]
                for name in names:  # `from .. import templates`: the names are modules
                    yield path.name, f"bgrid.{name}" if name else module
            stack.extend(ast.iter_child_nodes(node))


def folder_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FOLDERS + ("templates",) else top(module)


def test_no_two_packages_import_each_other_at_run_time():
    graph = {f: {folder_of(m) for _, m in runtime_imports(f) if m.startswith("bgrid")} - {f}
             for f in FOLDERS}
    cycles = []

    def walk(folder: str, path: tuple[str, ...]) -> None:
        for nxt in sorted(graph.get(folder, ())):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + (nxt,))
            elif nxt in graph:
                walk(nxt, path + (nxt,))

    for folder in FOLDERS:
        walk(folder, (folder,))
    assert not cycles
    # the log format sits on the game model and the challenge codes, below everything else
    assert graph["challenges"] <= {"rules"} and graph["log"] <= {"rules", "challenges"}


FACES = (CLI_FOLDER, "web")


def test_the_command_line_starts_the_web_face_only_through_its_package():
    # `bgrid serve` runs the server as `flask run` does: it takes bgrid.web's entry points
    # (its __all__), never a module inside the web face; no other command touches it
    import bgrid.web

    reached = [(f, m, names) for f, m, names in imports(CLI_FOLDER) if folder_of(m) == "web"]
    assert reached and {(f, m) for f, m, _ in reached} == {("cmd_serve.py", "bgrid.web")}
    assert {n for _, _, names in reached for n in names} <= set(bgrid.web.__all__)


def test_the_web_face_imports_no_command():
    assert not [(f, m) for f, m, _ in imports("web") if m.startswith("bgrid") and folder_of(m) == CLI_FOLDER]


@pytest.mark.parametrize("folder", ("rules", "companion") + LIBRARY)
def test_no_library_package_imports_a_face(folder):
    # the companion core is library: bgrid play and the web's /play pages are its faces
    assert not [(f, m) for f, m, _ in imports(folder) if m.startswith("bgrid") and folder_of(m) in FACES]


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f != "log"])
def test_the_log_formats_keyword_lists_and_parser_stay_inside_log(folder):
    # the faces and the referee come in by the reader's doors (parse_log, read_header,
    # read_statement), not by re-deciding what a body line is
    found = [(f, m, n) for f, m, names in imports(folder) for n in names
             if m.startswith("bgrid.log") and n in ("BODY_KEYWORDS", "HEADER_KEYS", "_Parser")]
    assert not found


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_cycle_inside_a_package(folder):
    # web/: the blueprints once took failure and limiter from app.py, which registers them
    package = "bgrid" if folder == CLI_FOLDER else f"bgrid.{folder}"
    graph: dict[str, set[str]] = {}
    for file, module in runtime_imports(folder):
        name = f"{package}.{file.removesuffix('.py')}"
        if module.rsplit(".", 1)[0] == package and module != name:
            graph.setdefault(name, set()).add(module)
    cycles = []

    def walk(module: str, path: tuple[str, ...]) -> None:
        for nxt in sorted(graph.get(module, ())):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + (nxt,))
            elif len(path) < 12:
                walk(nxt, path + (nxt,))

    for module in sorted(graph):
        walk(module, (module,))
    assert not cycles
