"""The ratings and a table's list ask the engine, through the registry, what a deal means: a
game or contract it does not know stops with one line instead of being rated as another."""

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from stichwerk import games
from stichwerk.cego.contracts import ALL_CONTRACTS
from stichwerk.core.action import Action
from stichwerk.core.errors import RecordError, UnknownDealKind
from stichwerk.core.series import DealOutcome, SeriesRules
from stichwerk.core.state import GameModule
from stichwerk.doppelkopf.profiles import GAME_TYPES
from stichwerk.games import get_game
from stichwerk.rating import rate_deal, sides
from stichwerk.server.ratings import RatingService
from stichwerk.server.series import TableSeries
from stichwerk.sheet.settings import read_settings
from stichwerk.storage.db import Database
from stichwerk.storage.models import RatedDeal, Rating
from stichwerk.storage.ratings import RatingStore
from stichwerk.storage.repo import Repo
from tests.server import toygame

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
PLAYERS = ["u:1", "u:2", "u:3", "u:4"]


def finished(game: str, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An example record (without actions and result) and the engine's result of it."""
    record = json.loads((EXAMPLES / game / f"{name}.json").read_text(encoding="utf-8"))
    state = get_game(game).deal_from_record({**record, "actions": []})
    for raw in record["actions"]:
        state.apply(Action.from_json(raw))
    result = state.result()
    assert result is not None
    return {k: v for k, v in record.items() if k not in ("actions", "result")}, result


def _no_deal(result: Mapping[str, Any]) -> DealOutcome:
    """A list hook only the registry entry holds (the module has no ``series_outcome``)."""
    return DealOutcome(settlement=tuple(result["score"]["settlement"]), counts=False)


def _rules(profile: str, options: Mapping[str, Any] | None, seats: int) -> SeriesRules:
    return SeriesRules(seats=seats, games=3, dealer_sits=seats == 5, duty_solos=1)


GAME = replace(
    toygame.GAME,
    name="toy-list",
    series_rules=_rules,
    series_outcome=_no_deal,
    duty_solos=True,
)
"""The toy game with a list of its own, registered under ``toy-list`` by the fixture."""


@pytest.fixture
def toy_list(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(games._MODULES, "toy-list", __name__)
    monkeypatch.setitem(games._MODULES, "toy", "tests.server.toygame")
    yield "toy-list"


# -- an unknown game or contract fails loudly -------------------------------------------------


def test_a_game_the_registry_does_not_know_is_not_rated_as_every_seat_alone() -> None:
    record = {"game": "skat", "hands": [["x"]] * 3}
    result = {"score": {"settlement": [10, -20, 10]}}
    with pytest.raises(UnknownDealKind, match="unknown game 'skat'"):
        rate_deal("skat", record, result, PLAYERS[:3], {})


def test_a_cego_contract_the_engine_does_not_list_is_not_rated_as_a_declarers_game() -> None:
    record, result = finished("cego", "eine")
    assert sides(record, result) == [(0,), (1, 2, 3)]
    with pytest.raises(UnknownDealKind, match="no Cego contract 'tout'"):
        rate_deal("cego", record, {**result, "contract": "tout"}, PLAYERS, {})


def test_a_doppelkopf_game_type_the_engine_does_not_list_is_not_rated() -> None:
    record, result = finished("doppelkopf", "ddv-solo-damen")
    with pytest.raises(UnknownDealKind, match="no Doppelkopf game type 'solo-ramsch'"):
        rate_deal("doppelkopf", record, {**result, "game_type": "solo-ramsch"}, PLAYERS, {})


def test_every_contract_and_game_type_the_engines_list_has_sides() -> None:
    playing = (0, 1, 2, 3)
    for contract in ALL_CONTRACTS:
        teams = get_game("cego").deal_sides({"contract": contract, "declarer": 2}, playing)
        assert teams is not None and sorted(s for t in teams for s in t) == list(playing)
    for game_type in GAME_TYPES:
        result = {"game_type": game_type, "re": [0], "kontra": [1, 2, 3]}
        assert get_game("doppelkopf").deal_sides(result, playing) == [(0,), (1, 2, 3)]


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_every_example_deal_has_sides_its_engine_names(game: str) -> None:
    played = 0
    for path in sorted((EXAMPLES / game).glob("*.json")):
        record, result = finished(game, path.stem)
        teams = sides(record, result)
        if teams is not None:
            seats = sorted(s for team in teams for s in team)
            assert len(set(seats)) == len(seats) and len(teams) >= 2, path.name
            played += 1
    assert played >= 10


def test_a_game_entry_must_say_what_its_deals_sides_are() -> None:
    with pytest.raises(TypeError, match="deal_sides"):
        GameModule(  # type: ignore[call-arg]
            name="new",
            profiles=("plain",),
            new_deal=toygame.new_deal,
            deal_from_record=toygame.deal_from_record,
            score_summary=lambda summary: {},
            settings=lambda profile: {},
            setting_docs=lambda lang: {},
        )


def test_the_store_stops_at_an_unknown_contract_rather_than_take_it_in(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/ratings.db")
    try:
        db.migrate()
        repo = Repo(db)
        people = [repo.create_user(f"P{i}", "x", False).id for i in range(4)]
        table = repo.create_table(
            game="cego",
            profile="schwarzwald",
            options={},
            seats=[("human", "random")] * 4,
            series_length=10,
            time_limit=60,
            public=True,
            created_by=people[0],
            creator_seat=None,
            accounts=dict(enumerate(people)),
        )
        store = RatingStore(db)
        record, result = finished("cego", "eine")
        repo.finish_deal(repo.create_deal(table.id, 0, record), result, True)
        assert store.update() == 1
        deal = repo.create_deal(table.id, 1, record)
        repo.finish_deal(deal, {**result, "contract": "tout"}, True)
        with pytest.raises(UnknownDealKind, match="no Cego contract 'tout'"):
            store.update()
        with Session(db.read) as session:
            # Not taken in (not even as unrated): a fixed engine rates it on the next update.
            assert session.get(RatedDeal, deal) is None
            assert session.scalar(select(func.max(Rating.deals))) == 1
    finally:
        db.dispose()


def test_the_servers_rating_worker_says_so_in_one_line_and_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = Database(f"sqlite:///{tmp_path}/ratings.db")
    service = None
    try:
        db.migrate()
        repo = Repo(db)
        people = [repo.create_user(f"P{i}", "x", False).id for i in range(4)]
        table = repo.create_table(
            game="cego",
            profile="schwarzwald",
            options={},
            seats=[("human", "random")] * 4,
            series_length=10,
            time_limit=60,
            public=True,
            created_by=people[0],
            creator_seat=None,
            accounts=dict(enumerate(people)),
        )
        record, result = finished("cego", "eine")
        deal = repo.create_deal(table.id, 0, record)
        repo.finish_deal(deal, {**result, "contract": "tout"}, True)
        with caplog.at_level(logging.INFO, logger="stichwerk.ratings"):
            service = RatingService(RatingStore(db))
            assert service.wait_idle() and service.wait_idle()  # the worker goes on
        said = [r for r in caplog.records if r.name == "stichwerk.ratings"]
        assert said and all(r.exc_info is None for r in said)  # no traceback
        assert all("no Cego contract 'tout'" in r.getMessage() for r in said)
        assert all("\n" not in r.getMessage() for r in said)
    finally:
        if service is not None:
            service.close()
        db.dispose()


# -- a list's rules come from the registry entry ----------------------------------------------


def test_a_table_list_settles_by_the_registry_entrys_hooks(toy_list: str) -> None:
    series = TableSeries(toy_list, "plain", {}, seats=4, length=3)
    assert series.series.rules.duty_solos == 1  # the entry's series_rules
    result = {"contract": "normal", "score": {"settlement": [4, -4, 4, -4]}}
    assert series.add(0, result) is False  # the entry's series_outcome: it does not count
    assert series.to_json()["rows"][0]["counts"] is False and series.to_json()["counted"] == 0


def test_a_score_sheet_asks_the_entry_whether_the_game_has_pflicht_soli(toy_list: str) -> None:
    settings = read_settings({"game": toy_list, "seats": 4, "games": 3, "duty_solos": 1})
    assert settings.duty_solos == 1
    with pytest.raises(RecordError, match="toy has no Pflicht-Soli"):
        read_settings({"game": "toy", "seats": 4, "games": 3, "duty_solos": 1})
    with pytest.raises(RecordError, match="cego has no Pflicht-Soli"):
        read_settings({"game": "cego", "seats": 4, "games": 3, "duty_solos": 1})
