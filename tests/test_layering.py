"""The layering of the whole package, read from its source with ``ast`` (nothing is imported).

A newcomer must be able to tell from a module's package what it may use. So every package of
``src/stichwerk`` sits on a layer (:data:`LAYERS`, lowest first; ``docs/architecture.md`` draws
the same map) and the imports must keep to it:

- no import circle between modules, counting every import: at module level, inside a function,
  under ``TYPE_CHECKING`` and ``importlib.import_module("literal")`` (a circle dodged by an
  import inside a function is still a circle);
- no import upward: a package imports only packages on lower layers (and itself); packages on
  one layer are independent of each other;
- no import of another module's private name (``from x import _y``, or ``x._y`` on an imported
  module);
- no import inside a function unless it is a lazy import of something heavy or optional, each
  with its reason (:data:`LAZY`);
- every module opens with a docstring (its one job).

A registry that names its plug-ins by string (``games``, ``bots.base``, ``cli.main``) is no
import: the plug-in imports the registry, never the reverse.

Work under way removes the violations listed in the ``KNOWN_*`` tables (each says whose area
it is in). The tests fail on any violation not listed there, and on a listed one that is gone,
so the lists only shrink.
"""

import ast
import fnmatch
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "stichwerk"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("native",),  # the loader of the mypyc-compiled engine (the package's __init__ installs it)
    ("", "core", "pools"),  # the package root (its version); what both games share; process pools
    ("cego", "doppelkopf"),  # the rules engines, independent of each other
    ("games",),  # the registry: every consumer finds an engine by its name
    ("bots",),  # computer players: a seat's view in, an action out
    ("arena", "analysis", "rating", "sheet", "tournament"),  # bot matches, post-game analysis,
    # ratings' maths, score sheets, tournament days: pure work, no database, no web
    ("research", "tournament_tables"),  # PettingZoo, Gymnasium, OpenSpiel, batch simulation
    # (uses the arena); a tournament's tables joined to their game and score sheet
    ("storage", "web"),  # rows, transactions and the event log; the browser's files and texts
    ("server",),  # the web app
    ("cli",),  # the stichwerk command
)
"""Every package of ``src/stichwerk`` (``""`` is the package's own ``__init__``), lowest first."""

# --- Lazy imports with a reason: (importing module pattern, imported module prefix) -> why.
LAZY: dict[tuple[str, str], str] = {
    ("stichwerk.*", "numpy"): "only the compiled kernels' paths need numpy; a bot on its Python"
    " path and `stichwerk --help` do not load it",
    ("stichwerk.bots.*", "stichwerk.bots.*.compiled"): "numba kernels: compiled or loaded from"
    " the cache on first use, and only once `bots.warm` has them ready",
    ("stichwerk.bots.*", "stichwerk.bots.*.playout"): "numba kernels (as above)",
    ("stichwerk.bots.*", "stichwerk.bots.*.sampler"): "numba kernels (as above)",
    ("stichwerk.bots.*", "stichwerk.cego.kernel"): "numba kernels (as above)",
    ("stichwerk.bots.*", "stichwerk.doppelkopf.kernel"): "numba kernels (as above)",
    ("stichwerk.arena", "ray"): "Ray is the research extra's, asked for by --ray only",
    ("stichwerk.research", "stichwerk.research.aec"): "PettingZoo is the research extra's:"
    " `stichwerk.research.env` imports it when called",
    ("stichwerk.native.__main__", "mypyc"): "the build tools, only when building",
    ("stichwerk.native.__main__", "setuptools"): "the build tools, only when building",
    ("stichwerk.bots.warm", "fcntl"): "POSIX only: without it (Windows) warm-ups may overlap",
    ("stichwerk.cli.serve", "stichwerk.server.__main__"): "the web app's imports (FastAPI,"
    " SQLAlchemy) only when it is served, not for `stichwerk serve --help`",
    ("stichwerk.cli.simulate", "stichwerk.research.simulate"): "the research extra: a missing"
    " pyarrow is one line, not a traceback",
}

# --- Known violations, each removed by the work named beside it (C: the server as a tree of
# --- routers; F: bots, arena, research, analysis, storage's bot accounts; G: the engines'
# --- kernels keep only the rules). Remove an entry once it is gone (the tests say so).
KNOWN_CIRCLES: dict[frozenset[str], str] = {}
"""Modules that import each other (a set may shrink while its circle lasts)."""
KNOWN_UPWARD: dict[tuple[str, str], str] = {}
"""(module, imported module) against the layers."""
KNOWN_PRIVATE: dict[tuple[str, str, str], str] = {}
"""(module, other module, private name)."""
KNOWN_IN_FUNCTION: dict[tuple[str, str], str] = {}
"""(module, imported module) imported inside a function without a reason."""


@dataclass(frozen=True)
class Import:
    """One import statement's target, as the source says it."""

    module: str
    """The importing module."""
    target: str
    """The imported module (``from pkg import sub`` names the submodule)."""
    names: tuple[str, ...]
    """The names a ``from`` import takes from ``target``."""
    line: int
    where: str
    """``module``, ``function`` (inside a def or lambda) or ``typing`` (``TYPE_CHECKING``)."""


@dataclass(frozen=True)
class Module:
    """A module of the package: its name, file and parsed source."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module


def modules(src: Path = SRC) -> dict[str, Module]:
    """Every module under ``src/stichwerk`` (the mypyc build's output left out)."""
    found: dict[str, Module] = {}
    for path in sorted((src / ROOT).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if "build" in parts:
            continue
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found[".".join(parts)] = Module(".".join(parts), path, is_package, tree)
    return found


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports(module: Module, known: set[str]) -> Iterator[Import]:
    """Every import of ``module``, with where it is made."""

    def targets(node: ast.AST) -> Iterator[tuple[str, tuple[str, ...]]]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            taken: list[str] = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    yield sub, ()
                else:
                    taken.append(alias.name)
            if taken:
                yield base, tuple(taken)
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in {"importlib.import_module", "import_module"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value, ()

    def walk(node: ast.AST, where: str) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = "function"
            elif (
                isinstance(child, ast.If)
                and where == "module"
                and "TYPE_CHECKING" in ast.unparse(child.test)
            ):
                for stmt in child.body:
                    yield from walk_one(stmt, "typing")
                for stmt in child.orelse:
                    yield from walk_one(stmt, where)
                continue
            yield from walk_one(child, inner)

    def walk_one(node: ast.AST, where: str) -> Iterator[Import]:
        for target, names in targets(node):
            yield Import(module.name, target, names, getattr(node, "lineno", 0), where)
        yield from walk(node, where)

    yield from walk(module.tree, "module")


@cache
def graph() -> tuple[dict[str, Module], tuple[Import, ...]]:
    """The package's modules and every import they make."""
    found = modules()
    known = set(found)
    return found, tuple(i for m in found.values() for i in imports(m, known))


def package_of(name: str) -> str:
    """``stichwerk.bots.cego.search`` -> ``bots``; the package root -> ``""``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(package: str) -> int:
    for index, layer in enumerate(LAYERS):
        if package in layer:
            return index
    raise AssertionError(f"package {package!r} is on no layer: add it to LAYERS")


def internal(found: dict[str, Module], target: str) -> str | None:
    """The module of the package an import reaches (the nearest existing parent), else None."""
    if target != ROOT and not target.startswith(ROOT + "."):
        return None
    while target not in found and "." in target:
        target = target.rsplit(".", 1)[0]
    return target if target in found else None


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: set[str] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def internal_edges(found: dict[str, Module], every: tuple[Import, ...]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in found}
    for imp in every:
        target = internal(found, imp.target)
        if target is not None and target != imp.module:
            edges[imp.module].add(target)
    return edges


# --- What the checks find (also used by the checker's own test below).


def found_circles(found: dict[str, Module], every: tuple[Import, ...]) -> list[frozenset[str]]:
    return circles(internal_edges(found, every))


def found_upward(found: dict[str, Module], every: tuple[Import, ...]) -> set[tuple[str, str]]:
    wrong = set()
    for imp in every:
        target = internal(found, imp.target)
        if target is None:
            continue
        mine, theirs = package_of(imp.module), package_of(target)
        if mine != theirs and layer_of(theirs) >= layer_of(mine):
            wrong.add((imp.module, target))
    return wrong


def found_private(found: dict[str, Module], every: tuple[Import, ...]) -> set[tuple[str, str, str]]:
    wrong = set()
    for imp in every:
        target = internal(found, imp.target)
        if target is None or target == imp.module:
            continue
        for name in imp.names:
            if name.startswith("_") and not name.startswith("__"):
                wrong.add((imp.module, target, name))
    for module in found.values():  # x._y on a module bound by `import` or `from pkg import x`
        bound: dict[str, str] = {}
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in found:
                        bound[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, node)
                for alias in node.names:
                    if f"{base}.{alias.name}" in found:
                        bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and bound[node.value.id] != module.name
            ):
                wrong.add((module.name, bound[node.value.id], node.attr))
    return wrong


def lazy_key(module: str, target: str) -> tuple[str, str] | None:
    """The entry of :data:`LAZY` that lets ``module`` import ``target`` inside a function."""
    for who, what in LAZY:
        if fnmatch.fnmatchcase(module, who) and (
            fnmatch.fnmatchcase(target, what) or fnmatch.fnmatchcase(target, what + ".*")
        ):
            return (who, what)
    return None


def found_in_function(found: dict[str, Module], every: tuple[Import, ...]) -> set[tuple[str, str]]:
    wrong = set()
    for imp in every:
        if imp.where != "function":
            continue
        target = internal(found, imp.target) or imp.target
        if target != imp.module and lazy_key(imp.module, target) is None:
            wrong.add((imp.module, target))
    return wrong


def _report(kind: str, new: object, gone: object) -> str:
    return (
        f"{kind}: new (fix them, do not list them): {new!r}; "
        f"listed but gone (remove them from the list): {gone!r}"
    )


# --- The tests.


def test_every_package_is_on_a_layer() -> None:
    found, _ = graph()
    packages = {package_of(name) for name in found}
    for package in packages:
        layer_of(package)
    on_layers = {p for layer in LAYERS for p in layer}
    assert on_layers <= packages, on_layers - packages  # no layer names a package that is gone
    assert len(found) > 100


def test_no_import_circle() -> None:
    found, every = graph()
    now = found_circles(found, every)
    new = [sorted(c) for c in now if not any(c <= known for known in KNOWN_CIRCLES)]
    gone = [sorted(k) for k in KNOWN_CIRCLES if not any(len(c & k) > 1 for c in now)]
    assert not new and not gone, _report("import circles", new, gone)


def test_no_import_upward() -> None:
    found, every = graph()
    now = found_upward(found, every)
    new, gone = sorted(now - set(KNOWN_UPWARD)), sorted(set(KNOWN_UPWARD) - now)
    assert not new and not gone, _report("imports against the layers", new, gone)


def test_no_private_name_of_another_module() -> None:
    found, every = graph()
    now = found_private(found, every)
    new, gone = sorted(now - set(KNOWN_PRIVATE)), sorted(set(KNOWN_PRIVATE) - now)
    assert not new and not gone, _report("private names of other modules", new, gone)


def test_imports_inside_functions_are_lazy_for_a_reason() -> None:
    found, every = graph()
    now = found_in_function(found, every)
    new, gone = sorted(now - set(KNOWN_IN_FUNCTION)), sorted(set(KNOWN_IN_FUNCTION) - now)
    assert not new and not gone, _report("imports inside functions", new, gone)
    used = {
        lazy_key(imp.module, internal(found, imp.target) or imp.target)
        for imp in every
        if imp.where == "function"
    }
    assert set(LAZY) <= used, f"reasons no import needs any more: {sorted(set(LAZY) - used)}"


def test_every_module_says_its_job() -> None:
    found, _ = graph()
    silent = [
        name for name, module in found.items() if not (ast.get_docstring(module.tree) or "").strip()
    ]
    assert not silent, f"modules without a docstring saying their one job: {silent}"


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    """The checker on a made-up package: a circle through an import inside a function, an
    import upward, a private name, an import inside a function, each found."""
    pkg = tmp_path / ROOT
    for folder in ("core", "bots"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text('"""x"""\n')
    (pkg / "__init__.py").write_text('"""x"""\n')
    (pkg / "core" / "a.py").write_text(
        '"""a"""\nfrom stichwerk.core.b import _hidden\n'
        "def f():\n    from stichwerk.bots import c\n"
    )
    (pkg / "core" / "b.py").write_text(
        '"""b"""\nimport stichwerk.core.a as a\n_hidden = 1\nx = a._inner\n'
        'def g():\n    import importlib\n    importlib.import_module("stichwerk.core.a")\n'
    )
    (pkg / "bots" / "c.py").write_text('"""c"""\n')
    found = modules(tmp_path)
    every = tuple(i for m in found.values() for i in imports(m, set(found)))
    assert found_circles(found, every) == [frozenset({"stichwerk.core.a", "stichwerk.core.b"})]
    assert found_upward(found, every) == {("stichwerk.core.a", "stichwerk.bots.c")}
    assert found_private(found, every) == {
        ("stichwerk.core.a", "stichwerk.core.b", "_hidden"),
        ("stichwerk.core.b", "stichwerk.core.a", "_inner"),
    }
    assert found_in_function(found, every) == {
        ("stichwerk.core.a", "stichwerk.bots.c"),
        ("stichwerk.core.b", "importlib"),
        ("stichwerk.core.b", "stichwerk.core.a"),
    }


def test_the_architecture_page_draws_these_layers() -> None:
    """``docs/architecture.md``'s table of layers names the same packages on the same layers."""
    page = (SRC.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn: dict[int, set[str]] = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 3 and cells[1].isdigit():
            names = {n.removesuffix("/").removesuffix(".py") for n in cells[2].split("`")[1::2]}
            drawn.setdefault(int(cells[1]), set()).update(names)
    assert drawn == {i: set(layer) - {""} for i, layer in enumerate(LAYERS)}


SERVER_TREE: dict[str, tuple[str, ...]] = {
    "stichwerk.server.app": ("stichwerk.server.__main__",),
    "stichwerk.server.routers.*": ("stichwerk.server.app",),
    "stichwerk.server.deps": ("stichwerk.server.app", "stichwerk.server.routers.*"),
    "stichwerk.server.schemas": ("stichwerk.server.app", "stichwerk.server.routers.*"),
}
"""Inside the server, who may import the top of its tree: ``app`` only assembles (only the
entry point imports it), the routers are only included by ``app``, and ``deps`` and ``schemas``
serve the routes; a service gets its collaborators in its constructor, never from these."""


def found_against_the_tree(
    found: dict[str, Module], every: tuple[Import, ...]
) -> set[tuple[str, str]]:
    wrong = set()
    for imp in every:
        target = internal(found, imp.target)
        if target is None or target == imp.module:
            continue
        for pattern, importers in SERVER_TREE.items():
            if fnmatch.fnmatchcase(target, pattern) and not any(
                fnmatch.fnmatchcase(imp.module, who) for who in importers
            ):
                wrong.add((imp.module, target))
    return wrong


def test_the_server_is_a_tree() -> None:
    found, every = graph()
    wrong = found_against_the_tree(found, every)
    assert not wrong, f"imports against the server's tree: {sorted(wrong)}"
    assert any(name.startswith("stichwerk.server.routers.") for name in found)
    # The check sees a service reaching back into the app (as the table socket once did).
    late = Import("stichwerk.server.table", "stichwerk.server.app", ("services",), 1, "function")
    assert found_against_the_tree(found, (*every, late)) == {
        ("stichwerk.server.table", "stichwerk.server.app")
    }
