"""Each game is one package (`referee/games/<key>/`), and shared code asks it.

Two checks of the house's shape (issue 39): no line outside the games' packages
names a game's vocabulary (its key, its name, its codes, the words of its rules),
and the app's modules import each other without a cycle and without an import
hidden inside a function to dodge one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from referee.games import GAMES, PACKAGES

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "referee"

#: Each game's words, besides those its package declares (its key and the codes of
#: its words, below): what its rules call things, in both languages.
RULE_WORDS = {
    "boulmous": ("boulmous", "boîtes?", "boites?", "bowers?"),
    "bombu": (
        "bombu",
        "manches?",
        "capots?",
        "r[ée]ussite",
        "salade?",
        "salad",
        "no[-_ ](tricks|hearts|queens|bombu)",
        "contracts?[_ ]left",
    ),
    "pitch": ("pitch", "moons?", "lune", "jokers?", "off[-_ ]?jack", "point[_ ]cards?", "bidder"),
    "tarot": (
        "tarot",
        "bouts?",
        "poign[ée]es?",
        "chelems?",
        "petit[-_ ]au[-_ ]bout",
        "garde[-_ ]sans",
        "garde[-_ ]contre",
        "called[-_ ]king",
    ),
    "pad": ("pad", "carnet", "score[-_ ]pad", "zero_sum", "somme nulle"),
}


def vocabulary(key: str) -> list[str]:
    """The patterns that name game `key`: its key, its rule words, and every code of
    its words that reads as a code (with a "_" or a "-")."""
    words = GAMES[key].words
    codes = {
        code
        for table in (words.messages, words.fields, words.values, words.steps, words.marks)
        for code in table
        if "_" in code or "-" in code
    }
    return [re.escape(key), *RULE_WORDS.get(key, ()), *map(re.escape, sorted(codes))]


def shared_files() -> Iterator[Path]:
    """The app's files outside the games' packages: its code, templates, scripts
    and styles (its docs and translations speak of the games by right)."""
    games = PACKAGE / "games"
    for path in sorted(
        [
            *PACKAGE.rglob("*.py"),
            *(ROOT / "templates").rglob("*.html"),
            *(ROOT / "static").rglob("*.js"),
            *(ROOT / "static").rglob("*.css"),
        ]
    ):
        # The registry (`referee/games/__init__.py`) names each package, once.
        inside = games in path.parents and path.parent != games
        if not inside and "__pycache__" not in path.parts and path.parent != games:
            yield path


def test_no_shared_line_names_a_game() -> None:
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(p for key in GAMES for p in vocabulary(key)) + r")(?![\w-])",
        re.IGNORECASE,
    )
    files = list(shared_files())
    assert len(files) > 60  # the walk found the app
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_the_check_sees_a_game_word() -> None:
    """The check above is not blind: it finds what it looks for."""
    pattern = re.compile("|".join(vocabulary("bombu")), re.IGNORECASE)
    assert pattern.search("Manche 2 of 4")
    assert pattern.search('if kind == "capot":')
    assert pattern.search("contracts_left")
    assert not pattern.search("the next dealer")


def test_the_registry_names_each_package_once() -> None:
    assert sorted(PACKAGES) == sorted(set(PACKAGES))
    assert set(PACKAGES) <= set(GAMES)
    for key in PACKAGES:
        assert (PACKAGE / "games" / key / "rules.py").is_file()
        assert (PACKAGE / "games" / key / "home.py").is_file()


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> tuple[set[str], list[str]]:
    """The app's modules `path` imports at its top level, and the imports of app
    modules it makes inside a function (as "line: module"). `from package import
    module` imports that module (its package's `__init__` runs first, as it does for
    any submodule: not an edge of the graph)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    hidden: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:  # relative: from the module's package
            package = module_of(path).split(".")
            base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
        return [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
            for alias in node.names
        ]

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found = [n for n in names(node) if n == "referee" or n.startswith("referee.")]
            if node.col_offset == 0:
                top.update(found)
            elif found:
                hidden.append(f"{node.lineno}: {found[-1]}")
    return top, hidden


def test_no_import_cycle_and_none_hidden_in_a_function() -> None:
    modules = {module_of(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    hidden: list[str] = []
    for name, path in modules.items():
        top, inside = imports_of(path, set(modules))
        graph[name] = {m for m in top if m in modules and m != name}
        # The command line alone imports as late as it can, for its start time: a
        # `referee score` loads neither Flask nor the database (not a dodged cycle:
        # the graph below holds what it imports at its top).
        if name != "referee.cli":
            hidden += [f"{name}:{line}" for line in inside]
    assert hidden == []
    # Depth-first search for a cycle, reporting its path.
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert len(graph) > 60
    assert cycles == []
