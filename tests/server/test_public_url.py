"""Reachable links (issue 32): every QR code, share link and printout is made of the server's
public address (``STICHWERK_PUBLIC_URL``, else the LAN address found at start), not of the
address the director's browser used; ``/api/address`` tells a page opened on a loopback
address what to warn about; the start-up line names the address phones should use."""

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server import public
from stichwerk.server.app import create_app
from stichwerk.server.config import SettingError, Settings
from stichwerk.server.sheets import qr_svg
from tests.server.helpers import ORIGIN, make_settings
from tests.server.serverproc import Server
from tests.server.tournament_helpers import NAMES

PUBLIC = "http://192.168.1.5:8765"
LOOPBACK_HOST = {"host": "127.0.0.1:8765"}
DOKO = {
    "game": "doppelkopf",
    "profile": "wielandstrasse",
    "names": ["Anna", "Bernd", "Clara", "Dieter"],
}


@pytest.fixture
def configured(tmp_path: Path) -> Iterator[TestClient]:
    """An app told its public address, opened (by TestClient) as ``testserver``."""
    settings = make_settings(f"sqlite:///{tmp_path}/p.db", public_url=PUBLIC)
    with TestClient(create_app(settings)) as client:
        yield client


def _sheet(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/sheets", json=DOKO, headers=ORIGIN)
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def _tournament(client: TestClient) -> dict[str, Any]:
    create = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "pub"}
    r = client.post("/api/tournaments", json=create, headers=ORIGIN)
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    director = state["links"]["director"]
    for body in ({"op": "add_players", "names": NAMES[:9]}, {"op": "draw"}):
        r = client.post(f"/api{director}/changes", json=body, headers=ORIGIN)
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def _svg_title(svg: str) -> str:
    found = re.search(r"<title>([^<]*)</title>", svg)
    assert found, svg[:200]
    return found.group(1)


def test_the_setting_is_read_as_an_origin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STICHWERK_PUBLIC_URL", raising=False)
    assert Settings.from_env().public_url is None
    monkeypatch.setenv("STICHWERK_PUBLIC_URL", " https://Karten.example:8443/lobby/ ")
    assert Settings.from_env().public_url == "https://karten.example:8443"
    monkeypatch.setenv("STICHWERK_PUBLIC_URL", "http://[FD00::2]:80")
    assert Settings.from_env().public_url == "http://[fd00::2]"
    for bad in ("karten.example", "ftp://karten.example", "http://karten.example:99999"):
        monkeypatch.setenv("STICHWERK_PUBLIC_URL", bad)
        with pytest.raises(SettingError, match="STICHWERK_PUBLIC_URL") as caught:
            Settings.from_env()
        assert "\n" not in str(caught.value)


def test_a_sheets_qr_codes_carry_the_public_address(configured: TestClient) -> None:
    links = _sheet(configured)["links"]
    scorer = links["scorer"].removeprefix("/s/")
    for which in ("follower", "scorer"):
        svg = configured.get(f"/api/sheets/{scorer}/qr/{which}.svg").text
        expected = PUBLIC + links[which]
        # The QR's encoded text is its title, and the whole code is segno's of that address.
        assert _svg_title(svg) == expected
        assert svg == qr_svg(expected)
        assert "testserver" not in svg


def test_a_tournaments_printouts_carry_the_public_address(configured: TestClient) -> None:
    state = _tournament(configured)
    director = state["links"]["director"]
    live = PUBLIC + state["links"]["public"]
    tables = state["rounds"][0]["tables"]
    sheets = configured.get(f"{director}/print/sheets").text
    assert "testserver" not in sheets
    for table in tables:
        scorer = PUBLIC + table["scorer"]
        assert f'<p class="url">{scorer}</p>' in sheets
        assert qr_svg(scorer, scale=3) in sheets
    for what in ("seating", "sheets", "results"):
        page = configured.get(f"{director}/print/{what}").text
        assert live in page and "testserver" not in page, what
    # The English printout says the same in English.
    english = configured.get(f"{director}/print/seating", headers={"accept-language": "en"}).text
    assert f"Live online: {live}" in english


def test_without_a_public_address_links_follow_the_request(client: TestClient) -> None:
    """A server made in code (no public address): the address the request came in on."""
    links = _sheet(client)["links"]
    svg = client.get(f"/api/sheets/{links['scorer'].removeprefix('/s/')}/qr/follower.svg").text
    assert _svg_title(svg) == "http://testserver" + links["follower"]
    assert client.get("/api/address").json() == {
        "public": "http://testserver",
        "loopback": False,
        "reachable": True,
    }


def test_a_page_opened_on_loopback_learns_the_address_to_use(
    configured: TestClient, tmp_path: Path
) -> None:
    assert configured.get("/api/address", headers=LOOPBACK_HOST).json() == {
        "public": PUBLIC,
        "loopback": True,
        "reachable": True,
    }
    for host in ("localhost:8765", "[::1]:8765", "LOCALHOST."):
        assert configured.get("/api/address", headers={"host": host}).json()["loopback"], host
    assert not configured.get("/api/address").json()["loopback"]
    # A server that only this computer reaches: nothing phones could use.
    settings = make_settings(f"sqlite:///{tmp_path}/l.db", public_url="http://127.0.0.1:8000")
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/address", headers=LOOPBACK_HOST).json() == {
            "public": "http://127.0.0.1:8000",
            "loopback": True,
            "reachable": False,
        }


def test_the_public_address_found_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(public, "lan_addresses", lambda: ["192.168.1.5", "10.0.0.7"])
    assert public.public_url("0.0.0.0", 8000, None) == "http://192.168.1.5:8000"
    assert public.public_url("::", 80, None) == "http://192.168.1.5"
    assert public.public_url("0.0.0.0", 8000, "https://karten.example") == "https://karten.example"
    assert public.public_url("127.0.0.1", 8000, None) == "http://127.0.0.1:8000"
    assert public.public_url("fd00::2", 8000, None) == "http://[fd00::2]:8000"
    lines = public.startup_lines("0.0.0.0", 8000, "http://192.168.1.5:8000")
    assert lines[0] == "Stichwerk: open http://127.0.0.1:8000 in your browser"
    assert "phones and other computers use http://192.168.1.5:8000" in lines[1]
    alone = public.startup_lines("127.0.0.1", 8000, "http://127.0.0.1:8000")
    assert "only this computer" in alone[1] and "LISTEN=0.0.0.0" in alone[1]
    monkeypatch.setattr(public, "lan_addresses", list)
    assert public.public_url("0.0.0.0", 8000, None) == "http://127.0.0.1:8000"
    # On every interface of a machine in no network yet: not "start it on every interface".
    offline = public.startup_lines("0.0.0.0", 8000, "http://127.0.0.1:8000")
    assert "no address in a network" in offline[1] and "LISTEN" not in offline[1]


def test_the_lan_addresses_are_reachable_ones() -> None:
    """Whatever this machine has: never a loopback, link-local or unspecified address."""
    for address in public.lan_addresses():
        assert not public.is_loopback(address)
        assert not address.startswith(("169.254.", "0.")), address


def test_the_started_server_names_and_uses_the_public_address(tmp_path: Path) -> None:
    server = Server(tmp_path, env={"STICHWERK_PUBLIC_URL": "http://karten.example:9000/"})
    server.start()
    try:
        request = urllib.request.Request(server.url + "/api/address")
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.read().decode() == (
                '{"public":"http://karten.example:9000","loopback":true,"reachable":true}'
            )
    finally:
        server.stop()
    log = server.log.read_text()
    assert f"Stichwerk: open http://127.0.0.1:{server.port} in your browser" in log
    assert "phones and other computers use http://karten.example:9000" in log
