"""The server as a tree: its modules' imports, read from their source (``ast``), and the
services' seams (the one container routes read, the finished-deal event).

- no import circle among ``stichwerk.server``'s modules;
- nothing imports ``server.app`` but the entry point (``server/__main__.py``);
- a router imports no other router, and only ``app`` imports the routers;
- no import inside a function (the server has no heavy import to put off) and no private name
  of another server module;
- every router ``create_app`` includes is one of ``app.routers`` (which the published schema in
  ``test_fuzz.py`` is built from).
"""

import ast
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.templating import Jinja2Templates
from fastapi.testclient import TestClient

import stichwerk.server
from stichwerk.games import get_game
from stichwerk.server import tournaments
from stichwerk.server.app import create_app, routers
from stichwerk.server.deps import Services
from stichwerk.server.events import DealEvents, DealFinished
from stichwerk.web import TEMPLATES
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES

CREATE = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "place": "Hirschen"}

SERVER = Path(stichwerk.server.__file__).parent
ENTRY_POINTS = {"stichwerk.server.__main__"}


def _name(path: Path) -> str:
    parts = path.relative_to(SERVER.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[tuple[str, tuple[str, ...], bool]]:
    """Each import of a server module: (module, names taken, inside a function?)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            functions.update(id(n) for n in ast.walk(node) if n is not node)
    for node in ast.walk(tree):
        inside = id(node) in functions
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), inside
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = tuple(a.name for a in node.names)
            package = node.module
            # ``from stichwerk.server.routers import accounts`` imports the submodules.
            subs = [f"{package}.{n}" for n in names if (SERVER.parent.parent / Path(
                *f"{package}.{n}".split("."))).with_suffix(".py").exists()]  # fmt: skip
            if subs:
                for sub in subs:
                    yield sub, (), inside
            else:
                yield package, names, inside


def _graph() -> dict[str, list[tuple[str, tuple[str, ...], bool]]]:
    graph = {}
    for path in sorted(SERVER.rglob("*.py")):
        graph[_name(path)] = [
            found for found in _imports(path) if found[0].startswith("stichwerk.server")
        ]
    return graph


def test_the_checks_see_the_server() -> None:
    graph = _graph()
    assert "stichwerk.server.routers.tables" in graph
    assert ("stichwerk.server.deps", (), False) in graph[
        "stichwerk.server.routers.accounts"
    ] or any(
        target == "stichwerk.server.deps"
        for target, _, _ in graph["stichwerk.server.routers.accounts"]
    )


def test_no_import_circle_in_the_server() -> None:
    edges_of = _graph()
    graph = {m: {t for t, _, _ in edges if t in edges_of} for m, edges in edges_of.items()}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            circle = [*path[path.index(module) :], module]
            raise AssertionError("import circle: " + " -> ".join(circle))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_only_the_entry_point_imports_the_app_and_only_the_app_the_routers() -> None:
    for module, edges in _graph().items():
        for target, _, _ in edges:
            if target == "stichwerk.server.app":
                assert module in ENTRY_POINTS, f"{module} imports the app"
            if target.startswith("stichwerk.server.routers.") and target != module:
                assert module == "stichwerk.server.app", f"{module} imports {target}"


def test_no_import_in_a_function_and_no_private_name_across_the_server() -> None:
    for module, edges in _graph().items():
        for target, names, inside in edges:
            assert not inside, f"{module} imports {target} inside a function"
            private = [n for n in names if n.startswith("_")]
            assert not private, f"{module} imports {private} from {target}"


def _routes(routes: list[Any]) -> set[tuple[str, str]]:
    """Every HTTP and websocket route under ``routes`` (an included router's too)."""
    found: set[tuple[str, str]] = set()
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            found |= _routes(inner.routes)
        elif isinstance(route, APIRoute | APIWebSocketRoute):
            found.add((type(route).__name__, route.path))
    return found


def test_create_app_includes_exactly_the_routers_the_schema_is_built_from(
    tmp_path: Path,
) -> None:
    listed: list[Any] = []
    for router in routers(Jinja2Templates(directory=str(TEMPLATES))):
        listed += router.routes
    app = create_app(make_settings(f"sqlite:///{tmp_path}/t.db"))
    assert _routes(app.routes) == _routes(listed)
    assert ("APIWebSocketRoute", "/ws/tables/{table_id}") in _routes(listed)
    assert isinstance(app.state.services, Services)


def test_a_finished_deal_reaches_every_listener_past_a_failing_one(tmp_path: Path) -> None:
    events = DealEvents()
    heard: list[DealFinished] = []

    def broken(_event: DealFinished) -> None:
        raise RuntimeError("a listener that fails")

    events.subscribe(broken)
    events.subscribe(heard.append)
    repo = create_app(make_settings(f"sqlite:///{tmp_path}/t.db")).state.services.repo
    owner = repo.create_user("Sepp", None, True)
    table = repo.create_table(
        game="doppelkopf",
        profile=get_game("doppelkopf").profiles[0],
        options={},
        seats=[("bot", "random")] * 4,
        series_length=1,
        time_limit=60,
        public=True,
        created_by=owner.id,
        creator_seat=None,
    )
    event = DealFinished(table, 0, over=True)
    events.publish(event)
    assert heard == [event]


def test_an_online_table_s_results_come_in_when_its_actor_says_so_not_by_polling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hub's look for changes from elsewhere waits an hour: only the actor's event is left.
    monkeypatch.setattr(tournaments, "POLL_SECONDS", 3600.0)
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/t.db"))) as client:
        r = client.post("/api/tournaments", json=CREATE, headers=ORIGIN)
        assert r.status_code == 200, r.text
        director = r.json()["links"]["director"].rsplit("/", 1)[1]
        path = f"/api/tournaments/{director}"
        for change in (
            {"op": "add_players", "names": NAMES[:8]},
            {"op": "draw"},
            {"op": "online", "round": 1, "table": 1, "bots": [0, 1, 2, 3]},
        ):
            r = client.post(f"{path}/changes", json=change, headers=ORIGIN)
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 120
        table = r.json()["rounds"][0]["tables"][0]
        while table["results"] is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the bots play on the client's event loop meanwhile
            table = client.get(path).json()["rounds"][0]["tables"][0]
        assert table["source"] == "online" and table["results"] is not None
        web = client.app.state.services.repo.deals_of_table(table["web_table"][3:])  # type: ignore[attr-defined]
        assert sum(1 for d in web if d.status == "finished" and d.counts) == 8
