"""Fixtures: an app on a fresh database and a test client; both databases for storage tests.

PostgreSQL runs too: ``make test`` starts Debian's server (tools/test-services.sh); the URL
defaults to the role and database that script creates (``STICHWERK_TEST_PG_URL`` overrides).
"""

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk import games
from stichwerk.server.app import create_app
from tests.server.helpers import fresh_pg, make_settings


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the test double game ``toy`` (tests/server/toygame.py)."""
    monkeypatch.setitem(games._MODULES, "toy", "tests.server.toygame")  # type: ignore[index]


@pytest.fixture
def db_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/test.db"


@pytest.fixture
def client(db_url: str, toy: None) -> Iterator[TestClient]:
    app = create_app(make_settings(db_url))
    with TestClient(app) as c:
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A fresh database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/store.db"
    else:
        yield fresh_pg()
