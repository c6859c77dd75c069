"""One truth in both places (issue 32), in Debian's chromium: the director's page shows the
tournament's id and a command for it, copied by a button reached by the keyboard (the text
selected where the browser refuses the clipboard); the command, run through the CLI on the
server's database, names the same tournament. German and English, laptop and phone widths."""

import json
import re
import shlex

import pytest
from playwright.sync_api import Browser, expect
from typer.testing import CliRunner

from stichwerk.cli.main import app
from tests.e2e.test_tournament_log import post
from tests.server.serverproc import Server
from tests.server.tournament_helpers import NAMES

COPIED = {"de": ("Kopiert.", "Markiert:"), "en": ("Copied.", "Selected:")}
WORDS = {"de": ("Turnier-ID", "Befehl kopieren"), "en": ("Tournament id", "Copy command")}


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_page_shows_the_id_and_a_command_that_names_the_tournament(
    browser: Browser, server: Server, lang: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )
    page = context.new_page()
    page.goto(server.url + "/tournaments/new")
    create = {"name": "Frühjahr", "series": f"Club {lang}", "date": "2025-03-08", "seed": "cli"}
    made = post(page, "/api/tournaments", create)
    director = made["links"]["director"]
    post(page, f"/api{director}/changes", {"op": "add_players", "names": NAMES[:8]})
    tid = made["tournament"]["id"]
    page.goto(server.url + director)
    shown = page.locator("#t-id")
    expect(shown).to_have_text(tid)
    label, button_text = WORDS[lang]
    expect(page.locator("#t-cli")).to_contain_text(label)
    button = page.get_by_role("button", name=button_text)
    expect(button).to_have_id("cli-copy")
    command = page.locator("#cli-command").inner_text()
    # The page fits a phone's width: the command wraps inside it.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    button.focus()
    page.keyboard.press("Enter")
    done, selected = COPIED[lang]
    expect(page.locator("#toast")).to_have_class(re.compile(r"\bshow\b"))
    toast = page.locator("#toast").inner_text()
    assert toast.startswith((done, selected)), toast
    assert page.evaluate("String(window.getSelection())") == command
    # The command as shown, on the server's database, names this tournament.
    monkeypatch.setenv("STICHWERK_BACKUP_DIR", "off")
    words = shlex.split(command)
    assert words[:3] == ["stichwerk", "tournament", "standings"], words
    db = f"sqlite:///{server.db}"
    out = CliRunner().invoke(app, [*words[1:], "--db", db], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.stderr
    assert "Frühjahr" in out.stdout and NAMES[0] in out.stdout, out.stdout
    again = CliRunner().invoke(app, ["tournament", "show", words[3], "--db", db])
    assert json.loads(again.stdout)["tournament"]["id"] == tid
    context.close()
