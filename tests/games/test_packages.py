"""Each game is one package (`referee/games/<key>/`), and shared code asks it.

Two checks of the house's shape (issue 39): no line outside the games' packages
names a game's vocabulary (its key, its name, its codes, the words of its rules),
and the app's modules import each other without a cycle (a module importing a
package it is in is one) and without an import hidden inside a function to dodge
one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
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
    "belote": (
        "belote",
        "rebelote",
        "coinch[ée]?",
        "surcoinch[ée]?",
        "contr[ée]e",
        "dix[-_ ]de[-_ ]der",
        "dedans",
        "litiges?",
        "tierces?",
        "cinquante",
        "carr[ée]s?",
        "g[ée]n[ée]rale",
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


def naming(keys: Iterable[str]) -> re.Pattern[str]:
    """A line that names one of these games: one of their words, whole. A hyphen
    does not join words (a style's class, `mark-<code>` or `blank-<key>`, names its
    game); a letter, a digit or an underscore does ("padding" is no game's)."""
    words = "|".join(p for key in keys for p in vocabulary(key))
    return re.compile(rf"(?<!\w)({words})(?!\w)", re.IGNORECASE)


def test_no_shared_line_names_a_game() -> None:
    pattern = naming(GAMES)
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
    pattern = naming(["bombu"])
    assert pattern.search("Manche 2 of 4")
    assert pattern.search('if kind == "capot":')
    assert pattern.search("contracts_left")
    assert pattern.search(".blank-bombu td { height: 3.6mm; }")
    assert pattern.search(".mark-capot, .mark-win { color: var(--accent); }")
    assert not pattern.search("the next dealer")
    assert not pattern.search(".mark-win { border-color: var(--accent); }")
    every = naming(GAMES)
    assert every.search(".mark-boite, .mark-set, .mark-moon-failed, .mark-boulmous-failed {")
    assert every.search('<div class="score-pad">')
    assert not every.search("td { padding: 6px 4px; }")


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
    name` reads the package's `__init__` (the module it takes `name` from, even
    when `name` is a submodule, which it then imports too); `import
    package.module` imports the module alone (its packages' `__init__` run first,
    as they do for any submodule: not edges of the graph)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    hidden: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:  # relative: from the module's package, or its parents'
            package = module_of(path).split(".")
            if path.name != "__init__.py":
                package = package[:-1]
            base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
        submodules = [f"{base}.{alias.name}" for alias in node.names]
        return [base, *(name for name in submodules if name in modules)]

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found = [n for n in names(node) if n == "referee" or n.startswith("referee.")]
            if node.col_offset == 0:
                top.update(found)
            elif found:
                hidden.append(f"{node.lineno}: {found[-1]}")
    return top, hidden


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of the import graph, each as its path. A module that imports a
    package it is in is one: that package's `__init__` runs before the module, and
    may be running still (it imports the module, or something that does)."""
    cycles = [
        [name, package, name]
        for name in sorted(graph)
        for package in sorted(graph[name])
        if name.startswith(package + ".")
    ]
    # Depth-first search for the others, reporting their path.
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
    return cycles


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
    assert len(graph) > 60
    assert cycles_of(graph) == []


def test_the_cycle_check_sees_an_import_of_ones_own_package() -> None:
    """The check above is not blind: `from package import module` reads the
    package, and a module reading a package it is in is a cycle, even one whose
    package's `__init__` imports nothing."""
    modules = {module_of(p) for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}
    top, _hidden = imports_of(PACKAGE / "web" / "__init__.py", modules)
    assert {"referee.api", "referee.api.problems", "referee.web.tables"} <= top
    looped = {"referee.web": {"referee.web.tables"}, "referee.web.tables": {"referee.web"}}
    assert ["referee.web.tables", "referee.web", "referee.web.tables"] in cycles_of(looped)
    empty = {"referee.services": set(), "referee.services.tables": {"referee.services"}}
    assert cycles_of(empty) == [
        ["referee.services.tables", "referee.services", "referee.services.tables"]
    ]
    assert (
        cycles_of(
            {"referee.services.tables": {"referee.services.games"}, "referee.services.games": set()}
        )
        == []
    )
