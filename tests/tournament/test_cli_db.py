"""``stichwerk tournament ...`` on a database: a whole Cego tournament (``swm``) from the command
line, the club's ranking lists and history, a backup taken over into a second database, and
bad input refused with one line and exit status 2."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.storage import repo

runner = CliRunner()
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"]


def run(db: str, *args: str, stdin: str | None = None) -> str:
    out = runner.invoke(app, ["tournament", *args, "--db", db], input=stdin)
    assert out.exit_code == 0, (args, out.stdout, out.stderr)
    return out.stdout


def refused(db: str, *args: str, message: str) -> None:
    out = runner.invoke(app, ["tournament", *args, "--db", db])
    assert out.exit_code == 2, (args, out.stdout)
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("stichwerk: ") and message in lines[0], lines


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("STICHWERK_BACKUP_DIR", str(tmp_path / "copies"))
    return f"sqlite:///{tmp_path}/cli.db"


def test_a_cego_tournament_from_the_command_line(db: str, tmp_path: Path) -> None:
    made = run(
        db,
        "new",
        "--name",
        "SWM 2025",
        "--format",
        "swm",
        "--series",
        "Cego-Club",
        "--date",
        "01.05.2025",
        "--place",
        "Titisee",
        "--seed",
        "cli",
    )
    assert "director: /tournaments/" in made
    tid = json.loads(run(db, "list", "--json"))[0]["id"]
    assert run(db, "add", tid, "--file", "-", stdin="\n".join(NAMES)).startswith("8 registered")
    refused(db, "add", tid, "anna", message="registered already (as Anna)")
    for rnd in (1, 2):
        plan = run(db, "draw", tid)
        assert f"Runde {rnd}" in plan and "/s/" in plan
        refused(db, "enter", tid, str(rnd), "1", "--points", "10,0,0,0", message="sum to zero")
        refused(db, "enter", tid, str(rnd), "1", "--points", "10,-10", message="not 2")
        refused(db, "enter", tid, str(rnd), "3", "--points", "1,2,3,4", message="no table 3")
        refused(db, "enter", tid, str(rnd), "1", "--points", "a,b,c,d", message="whole number")
        run(db, "enter", tid, str(rnd), "1", "--points", "60,-20,-20,-20", "--won", "9,4,4,5")
        run(db, "enter", tid, str(rnd), "2", "--points", "-30,10,10,10", "--won", "3,6,6,7")
    standings = json.loads(run(db, "standings", tid, "--json"))
    assert standings["next"] == {"action": "finish", "round": None, "blocked": None}
    assert len(standings["ranking"]) == 8
    assert "final ranking" in run(db, "finish", tid)
    refused(db, "draw", tid, message="the tournament is finished")
    refused(db, "withdraw", tid, "Anna", message="the tournament is finished")
    ranking = run(db, "rankings", "--series", "Cego-Club", "--csv").splitlines()
    assert ranking[0] == "place,player,points,tournaments,wins" and len(ranking) == 9
    # The club's history comes in; the five-year list counts 2021 to 2025.
    history = tmp_path / "history.csv"
    history.write_text(
        "date;player;place;participants\n09.03.2019;Anna;1;2\n09.03.2019;Otto;2;2\n"
        "01.02.2024;Otto;1;2\n01.02.2024;Bernd;2;2\n",
        encoding="utf-8",
    )
    assert "4 rows of 2 tournaments" in run(
        db, "history-import", str(history), "--series", "Cego-Club"
    )
    refused(db, "history-import", str(history), "--series", "Cego-Club", message="already")
    # The operator gives the series an owner secret (once shown); an unknown series has none.
    said = run(db, "series-secret", "--series", "Cego-Club")
    secret = said.split(": ", 1)[1].splitlines()[0]
    assert len(secret) >= 16 and secret not in run(db, "series-secret", "--series", "Cego-Club")
    refused(db, "series-secret", "--series", "Nowhere", message="no series")
    five = json.loads(run(db, "rankings", "--series", "Cego-Club", "--five", "--json"))
    assert (five["first_year"], five["last_year"], five["tournaments"]) == (2021, 2025, 2)
    assert "Otto" in {e["player"] for e in five["entries"]}
    everything = json.loads(run(db, "rankings", "--series", "Cego-Club", "--json"))
    assert everything["tournaments"] == 3
    exported = run(db, "history-export", "--series", "Cego-Club").splitlines()
    assert exported[0] == "date,tournament,player,place,participants" and len(exported) == 13
    assert [row["op"] for row in json.loads(run(db, "log", tid, "--json"))][-1] == "finish"
    # A second laptop takes the tournament over from its backup.
    backup = tmp_path / "backup.json"
    run(db, "export", tid, "--out", str(backup))
    other = f"sqlite:///{tmp_path}/other.db"
    assert "8 players, 2 round(s)" in run(other, "import", str(backup))
    refused(other, "import", str(backup), message="is here already")
    assert run(other, "import", str(backup), "--replace")
    mine, theirs = (json.loads(run(d, "show", tid)) for d in (db, other))
    assert mine["ranking"] == theirs["ranking"] and mine["rounds"] == theirs["rounds"]
    assert run(other, "rankings", "--series", "Cego-Club", "--csv").splitlines() == ranking
    # The automatic copies, one per change.
    assert len(list((tmp_path / "copies").rglob("0*.json"))) >= 10


def test_bad_input_gets_one_line_and_exit_2(db: str, tmp_path: Path) -> None:
    refused(db, "new", "--series", "Club", message="name the tournament")
    refused(db, "new", "--name", "X", message="--series NAME")
    refused(db, "new", "--name", "X", "--series", "C", "--format", "skat", message="unknown")
    refused(db, "new", "--name", "X", "--series", "C", "--date", "morgen", message="not a date")
    refused(db, "show", "nope", message="no tournament 'nope'")
    refused(db, "rankings", message="name the series")
    run(db, "new", "--name", "X", "--series", "C", "--seed", "s")
    tid = json.loads(run(db, "list", "--json"))[0]["id"]
    refused(db, "add", tid, message="name the players")
    refused(db, "draw", tid, message="register the players first")
    refused(db, "withdraw", tid, "Zed", message="no player 'Zed'")
    refused(db, "enter", tid, "1", "1", message="--points")
    refused(db, "import", str(tmp_path / "missing.json"), message="no such file")
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", encoding="utf-8")
    refused(db, "import", str(junk), message="is not JSON")
    out = runner.invoke(app, ["tournament", "list", "--db", "postgresql://nobody@127.0.0.1:1/x"])
    assert out.exit_code == 2 and out.stderr.startswith("stichwerk: cannot open the database")
    assert len(out.stderr.splitlines()) == 1


def test_a_random_id_never_looks_like_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament's id is typed on the command line: one starting with "-" would be taken
    for an option (it happened one run in 64), so such a draw is thrown away."""
    draws = iter(["-Ab3", "_x-9"])
    monkeypatch.setattr(repo.secrets, "token_urlsafe", lambda n: next(draws))
    assert repo.new_id(3) == "_x-9"
