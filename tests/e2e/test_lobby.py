"""The lobby in a browser: its lists come in pages ("more"), and a table's creator stops a
table of bots from the "mine" list."""

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from tests.server.serverproc import Server

BOTS_4 = [{"kind": "bot", "bot": "random"}] * 4
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]


def test_the_lobby_pages_and_the_creator_stops_a_table_of_bots(
    browser: Browser, tmp_path: Path
) -> None:
    # Many tables from one address in a moment, and bots that take their time.
    env = {
        "STICHWERK_LOGIN_RATE": "1000",
        "STICHWERK_WRITE_RATE": "1000",
        "STICHWERK_BOT_DELAY": "5",
    }
    server = Server(tmp_path, env=env)
    server.start()
    try:
        page = browser.new_page()
        page.goto(server.url + "/")
        origin = {"origin": server.url}

        def post(path: str, body: dict[str, Any]) -> Any:
            r = page.request.post(server.url + path, data=body, headers=origin)
            assert r.status == 200, r.text()
            return r.json()

        post("/api/register", {"username": "lobbyist", "password": "a long password"})
        for _ in range(55):
            post("/api/tables", {"game": "cego", "seats": TWO_PEOPLE, "creator_seat": None})
        body = {"game": "cego", "seats": BOTS_4, "creator_seat": None, "series_length": 10}
        bots = post("/api/tables", body)["table"]["id"]
        page.reload()
        expect(page.locator("#tables-open > li")).to_have_count(50)
        page.click("#more-open")
        expect(page.locator("#tables-open > li")).to_have_count(55)
        expect(page.locator("#more-open")).to_be_hidden()

        stop = page.locator(f'#tables-mine [data-stop="{bots}"]')
        expect(stop).to_have_count(1)
        page.on("dialog", lambda dialog: dialog.accept())
        stop.click()
        expect(stop).to_have_count(0)
        table = page.request.get(f"{server.url}/api/tables/{bots}").json()["table"]
        assert table["status"] == "stopped"
        expect(page.locator("#tables-mine > li").first).to_contain_text("stopped")
    finally:
        server.stop()
