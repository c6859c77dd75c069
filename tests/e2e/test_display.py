"""What the table shows of a deal, in words and cards: crafted deals from docs/examples.

Each test opens tables against bots, stops the server, plants an example record's opening
moves as the tables' deals (tests/e2e/plant.py) and starts the server again: the tables recover
exactly there, and the page is checked for what a person should see.
"""

import random
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server
from tests.e2e.driver import (
    attr,
    create_table,
    drive,
    next_deal,
    take_turn,
    wait_for_change,
    wait_for_my_turn,
)
from tests.e2e.plant import EXAMPLES, example, plant, rotate, table_id


def plant_tables(server: Server, plants: list[tuple[str, dict[str, Any], int]]) -> None:
    """Stop the server, make each table's deal the record's first moves, start it again."""
    server.stop()
    for url, record, count in plants:
        plant(server.workdir / "e2e.db", table_id(url), record, count)
    server.start()


def open_table(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#table-app[data-version]")


def card(page: Page, scope: str, code: str) -> Any:
    return page.locator(f'{scope} .card[data-card="{code}"]')


def test_laid_out_cards_lie_beside_the_declarer(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    # A Zwei-Leere deal whose declarer is the bot at seat 1; the person at seat 0 is to play
    # in trick 1, after the declarer led the first laid-out Leere.
    bot_declarer = create_table(page, server.url, "cego", profile="schwarzwald")
    # A Halbe of the person at seat 0, who has laid out and kept and must now press.
    own = create_table(page, server.url, "cego", profile="schwarzwald")
    plant_tables(
        server,
        [
            (bot_declarer, rotate(example("cego", "zwei-leere"), 1), 24),
            (own, example("cego", "halbe"), 16),
        ],
    )
    open_table(page, bot_declarer)
    # The other laid-out Leere lies beside the declarer's seat, marked: it never wins.
    beside = card(page, "#laid-out-1", "C8")
    expect(beside).to_be_visible()
    expect(beside.locator(".card-badge.never-wins")).to_be_visible()
    assert page.locator(".seat[data-seat='1'] #laid-out-1").count() == 1
    expect(card(page, "#trick", "C7").locator(".card-badge.never-wins")).to_be_visible()
    # The panel says it in words.
    expect(page.locator("#info-contract")).to_contain_text("Zwei Leere")
    expect(page.locator("#info-declarer")).to_have_text("Computer 2")
    expect(page.locator("#game-line")).to_have_text("Zwei Leere – Computer 2")
    assert page.locator("#my-blind").count() == 0, "only the declarer sees his blind"
    # Played to the end: a result card with a headline, not a dump of the result.
    drive([page], random.Random(11))
    headline = page.locator("#result-headline")
    won_or_lost = re.compile(r"^Zwei Leere (won|lost) by Computer 2 – \d+ (from|to) each")
    expect(headline).to_have_text(won_or_lost)
    expect(page.locator("#settlement tbody tr")).to_have_count(4)
    expect(page.locator("#result")).not_to_contain_text("true")
    expect(page.locator("#dealt .dealt-hand")).to_have_count(5)  # four hands and the blind
    page.click("a[hreflang=de]")
    page.wait_for_selector("#table-app[data-version]")
    expect(page.locator("#result-headline")).to_have_text(
        re.compile(r"^Zwei Leere (gewonnen|verloren) von Computer 2 – \d+ (von|an) jede[mn]")
    )

    # The declarer's own table: his laid-out card beside his seat, his blind in a section of
    # its own, and the press to make.
    open_table(page, own)
    expect(card(page, "#laid-out-0", "H3").locator(".card-badge.never-wins")).to_be_visible()
    blind = page.locator("#my-blind")
    expect(blind).to_have_attribute("open", "")
    expect(blind.locator(".card")).to_have_count(10 + 9)  # picked up, laid away
    expect(page.locator("#info-contract")).to_contain_text("Halbe · Wert 2")
    take_turn(page, random.Random(12))  # the press
    expect(page.locator("#game-info h2")).to_have_text("Im Spiel")


def finish_with_seat_0(page: Page, record: dict[str, Any]) -> None:
    """Make the record's last action (seat 0's) by clicking it."""
    last = record["actions"][-1]
    version = attr(page, "version")
    page.click(f'#hand button.card[data-card="{last["card"]}"]')
    wait_for_change(page, version)


def test_doppelkopf_result_card_and_armut(browser: Browser, server: Server) -> None:
    context = browser.new_context(locale="de-DE", extra_http_headers={"accept-language": "de"})
    page = context.new_page()
    normal = rotate(example("doppelkopf", "wielandstrasse-normal"), 0)
    last_seat = normal["actions"][-1]["seat"]
    normal = rotate(normal, -last_seat)  # the person makes the last move
    result_url = create_table(page, server.url, "doppelkopf", profile="wielandstrasse")
    # The Armut of seat 1 (rotated to the person's seat 0), taken by seat 2, cards returned.
    armut = rotate(example("doppelkopf", "wielandstrasse-armut"), 3)
    armut_url = create_table(page, server.url, "doppelkopf", profile="wielandstrasse")
    plant_tables(
        server,
        [(result_url, normal, len(normal["actions"]) - 1), (armut_url, armut, 7)],
    )
    open_table(page, result_url)
    finish_with_seat_0(page, normal)
    expect(page.locator("#result-headline")).to_have_text("Kontra gewinnt mit 109 Augen: 8 Punkte")
    expect(page.locator("#result-augen")).to_have_text("Re 131 · Kontra 109")
    items = page.locator("#result-items tbody tr")
    expect(items).to_have_count(7)
    expect(items.first).to_contain_text("Gewonnen")
    expect(page.locator("#result-items")).to_contain_text("Keine 90 angesagt (Re)")
    expect(page.locator("#result-items tfoot")).to_contain_text("8")
    points = page.locator("#settlement td.points")
    expect(points).to_have_count(4)
    assert page.locator("#settlement td.points.plus").count() == 2
    # The language switch changes the result's words.
    page.click("a[hreflang=en]")
    page.wait_for_selector("#table-app[data-version]")
    expect(page.locator("#result-headline")).to_have_text("Kontra wins with 109 Augen: 8 points")
    expect(page.locator("#result-items")).to_contain_text("keine 90 announced (Re)")
    expect(page.locator("#result-items")).to_contain_text("Fuchs caught")

    # The Armut: the two seats involved see the cards that moved, nobody else does.
    open_table(page, armut_url)
    expect(page.locator("#info-armut")).to_contain_text("passes 3 cards")
    expect(page.locator("#armut-passed .card")).to_have_count(3)
    expect(page.locator("#armut-returned .card")).to_have_count(3)
    spectator = browser.new_page()
    open_table(spectator, armut_url)
    expect(spectator.locator("#info-armut")).to_be_visible()
    assert spectator.locator("#armut-passed, #armut-returned, #hand").count() == 0
    spectator.close()
    context.close()


RENDER_RESULTS = """async (deals) => {
  const common = await import("/static/js/common.js");
  await common.loadTexts();
  const panels = await import("/static/js/panels.js");
  const ctx = { name: (seat) => `Seat${seat}`, me: 0 };
  return deals.map((deal) => {
    const view = { game: deal.game, result: deal.result, history: deal.actions };
    const card = panels.resultCard(view, ctx);
    const headline = card.querySelector("#result-headline");
    const title = headline ? headline.textContent : "";
    return { name: deal.name, headline: title, text: card.textContent };
  });
}"""


def test_every_example_result_reads_well(browser: Browser, server: Server) -> None:
    """The result card of every example deal of both games, in both languages: a headline, and
    no raw values (undefined, NaN, null, true/false, engine keys) anywhere."""
    deals = [
        {**example(game, path.stem), "name": f"{game}/{path.stem}"}
        for game in ("cego", "doppelkopf")
        for path in sorted((EXAMPLES / game).glob("*.json"))
    ]
    raw = re.compile(r"undefined|NaN|null|\btrue\b|\bfalse\b|\[object|_|\bscore\b")
    for lang in ("de", "en"):
        context = browser.new_context(extra_http_headers={"accept-language": lang})
        page = context.new_page()
        page.goto(server.url + "/")
        for shown in page.evaluate(RENDER_RESULTS, deals):
            assert shown["headline"], f"{lang} {shown['name']}: no headline"
            assert not raw.search(shown["text"]), f"{lang} {shown['name']}: {shown['text']}"
        context.close()


def test_a_changed_setting_is_explained_and_shown_at_the_table(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page()
    meaning = "What the Drescher loser pays every other seat."
    german = "Was der Verlierer im Drescher jedem anderen zahlt."

    def lobby_meaning() -> Any:
        page.goto(server.url + "/")
        page.wait_for_selector("#lobby-app .account")
        if page.locator("#guest").count():
            page.click("#guest")
        page.select_option("#game", "cego")
        page.select_option("#profile", "titisee")
        page.click("#create-table details summary")
        setting = page.locator('label.setting:has([data-setting="drescher_value"])')
        return setting.locator(".setting-doc")

    expect(lobby_meaning()).to_have_text(meaning)
    url = create_table(
        page, server.url, "cego", profile="titisee", settings={"drescher_value": "60"}
    )
    open_table(page, url)
    row = page.locator('#rules tr[data-setting="drescher_value"]')
    expect(row.locator("td.changed")).to_have_text("60")
    expect(row.locator("td").first).to_have_attribute("title", meaning)
    # Switched to German, the table and the lobby explain the setting in German.
    page.click("a[hreflang=de]")
    page.wait_for_selector("#table-app[data-version]")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(row.locator("td").first).to_have_attribute("title", german)
    expect(lobby_meaning()).to_have_text(german)
    page.close()


def test_closing_rounds_are_offered_shown_and_played(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby-app .account")
    page.click("#guest")
    page.select_option("#game", "cego")
    # Schwarzwald plays no Drescher or Pflichträuber: nothing to add.
    page.select_option("#profile", "schwarzwald")
    box = page.locator("#closing-rounds")
    expect(box.locator("#closing-none")).to_be_visible()
    assert box.locator("[data-add-round]").count() == 0
    # Titisee has both by agreement.
    page.select_option("#profile", "titisee")
    expect(box.locator("[data-add-round]")).to_have_count(2)
    box.locator('[data-add-round="drescher"]').click()
    box.locator('[data-add-round="pflichtraeuber"]').click()
    expect(box.locator("#closing-list li")).to_have_text(
        ["Drescher round ✕", "Pflichträuber round ✕"]
    )
    # Switching a deal type's setting off takes it off the list and out of the offer.
    page.click("#create-table details summary")
    page.uncheck('[data-setting="pflichtraeuber"]')
    expect(box.locator("#closing-list li")).to_have_count(1)
    expect(box.locator("[data-add-round]")).to_have_count(1)
    page.check('[data-setting="pflichtraeuber"]')
    expect(box.locator("[data-add-round]")).to_have_count(2)

    # A table for two people: while it waits, everyone sees the closing rounds.
    url = create_table(
        page,
        server.url,
        "cego",
        profile="titisee",
        humans=(0, 1),
        closing=("drescher", "pflichtraeuber"),
    )
    text = "Closing rounds: Drescher, Pflichträuber – everyone deals once in each (8 more deals)."
    expect(page.locator("#waiting-closing")).to_have_text(text)
    expect(page.locator("#closing")).to_have_text(text)
    other = browser.new_context(extra_http_headers={"accept-language": "de"}).new_page()
    open_table(other, url)
    expect(other.locator("#waiting-closing")).to_have_text(
        "Schlussrunden: Drescher, Pflichträuber – in jeder gibt jeder einmal (8 Spiele mehr)."
    )
    other.goto(server.url + "/")
    expect(other.locator("#tables-open .closing-note")).to_contain_text(
        "Schlussrunden: Drescher, Pflichträuber"
    )
    other.close()

    # Four computers and one Pflichträuber round, watched: the panel says what the deal is.
    # (A table of bots only needs an account: the guest's page signs up for one first.)
    signed = page.request.post(
        server.url + "/api/register",
        data={"username": "watcher1", "password": "a long password"},
        headers={"origin": server.url},
    )
    assert signed.status == 200, signed.text()
    create_table(
        page,
        server.url,
        "cego",
        profile="titisee",
        humans=(),
        closing=("pflichtraeuber",),
        watch=True,
    )
    kind = page.locator("#info-deal-type")
    expect(kind).to_contain_text("Pflichträuber – Vorhand must play Räuber", timeout=60_000)
    expect(page.locator("#game-line")).to_contain_text("Pflichträuber – Computer")
    page.wait_for_function(
        "() => document.getElementById('table-app').dataset.phase === 'finished'", timeout=90_000
    )
    labels = page.locator("#sheet tbody tr:not(.total) td:nth-child(2)")
    expect(labels).to_have_count(5)
    assert labels.all_text_contents()[1:] == ["Pflichträuber"] * 4
    expect(page.locator("summary", has_text="Score sheet")).to_contain_text("(5/5)")
    expect(page.locator("#result .subline")).to_contain_text("Pflichträuber")
    page.close()


def test_the_creator_adds_a_closing_round_at_the_table(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    create_table(page, server.url, "cego", profile="titisee", series=1)
    # Edited while the bots wait for this seat, so that no bot's move re-renders the editor
    # under the click.
    wait_for_my_turn(page)
    # Only the one who opened the table is offered the change.
    page.click("#rules-panel summary")
    editor = page.locator("#closing-editor")
    expect(editor.locator("[data-add-round]")).to_have_count(2)
    editor.locator('[data-add-round="drescher"]').click()
    # The table's actor answers within 10 s or the page says why (a toast): wait as long.
    expect(editor.locator("#closing-edit-list li")).to_have_text(
        ["Drescher round ✕"], timeout=15_000
    )
    expect(page.locator("#closing")).to_have_text(
        "Closing rounds: Drescher – everyone deals once in each (4 more deals)."
    )
    expect(page.locator("summary", has_text="Score sheet")).to_contain_text("/5)")
    # A round not yet begun can be taken off again, and put back.
    editor.locator(".remove-round").click()
    expect(editor.locator("#closing-edit-list li")).to_have_count(0)
    expect(page.locator("summary", has_text="Score sheet")).to_contain_text("/1)")
    editor.locator('[data-add-round="drescher"]').click()
    expect(editor.locator("#closing-edit-list li")).to_have_count(1)
    # The ordinary deal ends; the next one is the Drescher round's first.
    drive([page], random.Random(7))
    next_deal(page, "the series ended before the Drescher round")
    expect(page.locator("#info-deal-type")).to_contain_text("Drescher", timeout=30_000)
    # A spectator (another browser) sees the rounds but no editor.
    watcher = browser.new_context().new_page()
    open_table(watcher, page.url)
    watcher.click("#rules-panel summary")
    expect(watcher.locator("#closing")).to_contain_text("Drescher")
    watcher.wait_for_load_state("networkidle")  # the table's details and the rules have come
    assert watcher.locator("#closing-editor").count() == 0
    watcher.close()
    page.close()
