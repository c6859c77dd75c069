"""The command line names a tournament as the web page does (issue 32, "one truth in both
places"): by its whole id, a unique start of it, the director's or public link, or the link's
token; ``list`` shows whole ids at any terminal width; ``standings`` has the page's columns
(Vorrunde points, penalty, total)."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.storage import repo

runner = CliRunner()
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"]


def run(db: str, *args: str, stdin: str | None = None, width: int = 80) -> str:
    out = runner.invoke(
        app, ["tournament", *args, "--db", db], input=stdin, env={"COLUMNS": str(width)}
    )
    assert out.exit_code == 0, (args, out.stdout, out.stderr)
    return out.stdout


@pytest.fixture
def made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, dict[str, str]]:
    monkeypatch.setenv("STICHWERK_BACKUP_DIR", "off")
    db = f"sqlite:///{tmp_path}/ids.db"
    out = run(db, "new", "--name", "Frühjahrsturnier", "--series", "Club", "--seed", "ids")
    links = {
        line.split(":", 1)[0]: line.split(":", 1)[1].strip()
        for line in out.splitlines()
        if line.startswith(("director:", "public:"))
    }
    tid = json.loads(run(db, "list", "--json"))[0]["id"]
    return db, tid, links


def test_every_form_of_the_id_names_the_tournament(made: tuple[str, str, dict[str, str]]) -> None:
    db, tid, links = made
    director = links["director"]
    forms = [
        tid,
        tid[:6],
        director,
        director.rsplit("/", 1)[1],
        f"http://192.0.2.7:8000{director}",
        f"http://192.0.2.7:8000{links['public']}/",
    ]
    for form in forms:
        shown = json.loads(run(db, "show", form))
        assert shown["tournament"]["id"] == tid, form
    out = runner.invoke(app, ["tournament", "show", "zzzzzzzz", "--db", db])
    assert out.exit_code == 2 and "no tournament 'zzzzzzzz'" in out.stderr


def test_an_ambiguous_start_is_refused_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STICHWERK_BACKUP_DIR", "off")
    db = f"sqlite:///{tmp_path}/two.db"
    ids = iter(["Club2025aaaa", "Club2025bbbb"])
    real = repo.secrets.token_urlsafe
    monkeypatch.setattr(repo.secrets, "token_urlsafe", lambda n: next(ids) if n == 9 else real(n))
    run(db, "new", "--name", "Frühjahr", "--series", "Club", "--seed", "a")
    run(db, "new", "--name", "Herbst", "--series", "Club", "--seed", "b")
    out = runner.invoke(app, ["tournament", "show", "Club2025", "--db", db])
    assert out.exit_code == 2 and len(out.stderr.splitlines()) == 1
    assert "starts 2 tournaments' ids: give more of the id" in out.stderr
    assert json.loads(run(db, "show", "Club2025b"))["tournament"]["name"] == "Herbst"


def test_list_shows_whole_ids_in_an_80_column_terminal(
    made: tuple[str, str, dict[str, str]],
) -> None:
    db, tid, _ = made
    assert tid in run(db, "list", width=80)
    assert tid in run(db, "list", width=60)


def test_standings_have_the_web_pages_columns(made: tuple[str, str, dict[str, str]]) -> None:
    """18 is the total of 33 points and a penalty of -15 (no Pflicht-Solo played), as the web
    page shows it (33 / -15 / 18); the CLI once printed "points 18 | penalty -15"."""
    db, tid, _ = made
    run(db, "add", tid, "--file", "-", stdin="\n".join(NAMES))
    for rnd in ("1", "2", "3"):
        run(db, "draw", tid)
        for table in ("1", "2"):
            run(db, "enter", tid, rnd, table, "--points", "11,10,5,0", "--won", "4,3,2,0")
    rows = json.loads(run(db, "standings", tid, "--json"))["standings"]
    text = run(db, "standings", tid, width=120)
    header = next(line for line in text.splitlines() if "player" in line)
    columns = [c.strip() for c in header.strip("┃ ").split("┃")]
    assert columns == [
        "place", "player", "Vorrunde points", "penalty", "total", "games won", "rounds"
    ]  # fmt: skip
    assert any(r["penalty"] for r in rows) and all(
        r["preliminary_total"] == r["preliminary"] + r["penalty"] for r in rows
    )
    for r in rows:
        line = next(x for x in text.splitlines() if f"│ {r['name']} " in x)
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        penalty = str(r["penalty"]) if r["penalty"] else ""
        assert cells[2:5] == [str(r["preliminary"]), penalty, str(r["preliminary_total"])]
