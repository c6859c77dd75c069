"""What the phone runs: ``stichwerk.sheet.log`` (the server rebuilds its lists with the same
``replay``), shipped as a zip of the pure packages that needs the standard library alone."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from stichwerk.server.sheets import pure_zip
from stichwerk.sheet import read_settings
from stichwerk.sheet.log import phone, replay

SETTINGS = read_settings({"game": "doppelkopf", "profile": "wielandstrasse",
                          "names": ["Anna", "Bernd", "Clara", "Dieter"]}).to_json()  # fmt: skip
NORMAL = {"game_type": "normal", "re": [0, 2], "re_augen": 130}


def test_the_phone_scores_its_waiting_entries_on_the_server_log() -> None:
    log = [{"op": "add", "entry": "a", "key": "k1", "summary": NORMAL}]
    pending = [
        {"op": "add", "entry": "b", "key": "k2", "summary": {**NORMAL, "re_augen": 100}},
        {"op": "add", "entry": "c", "key": "k3", "summary": {**NORMAL, "re_augen": 300}},
        {"op": "correct", "entry": "a", "base": 3, "key": "k4", "summary": NORMAL},
        {"op": "add", "entry": "a", "key": "k1", "summary": NORMAL},  # sent before: not doubled
    ]
    wanted = {"summary": {**NORMAL, "re": [1, 3]}}
    call = {"settings": SETTINGS, "log": log, "pending": pending, "preview": wanted}
    answer = json.loads(phone(json.dumps(call)))
    outcomes = answer["pending"]
    assert [o["ok"] for o in outcomes] == [True, False, False, True]
    assert "'re_augen'" in outcomes[1]["error"] and not outcomes[1]["conflict"]
    assert outcomes[2]["conflict"] and "another phone" in outcomes[2]["error"]
    sheet = answer["sheet"]
    assert [r["id"] for r in sheet["rows"]] == ["a", "b"]
    assert sheet["totals"] == [1, 2, 1, 2]
    assert answer["preview"]["row"]["settlement"] == [0, 1, 0, 1]
    # The same log replayed as the server does gives the same sheet.
    assert replay(SETTINGS, [*log, pending[0]]).to_json() == sheet
    bad = json.loads(phone(json.dumps({"settings": SETTINGS, "preview": {"summary": {}}})))
    assert "game_type" in bad["preview"]["error"]


def test_the_zip_for_the_phone_needs_the_standard_library_alone(tmp_path: Path) -> None:
    data, digest = pure_zip()
    assert pure_zip() == (data, digest)  # built once, the same bytes for the same code
    path = tmp_path / "stichwerk.zip"
    path.write_bytes(data)
    names = zipfile.ZipFile(path).namelist()
    assert "stichwerk/sheet/log.py" in names and "stichwerk/cego/api.py" in names
    assert not any(
        n.startswith(("stichwerk/server", "stichwerk/storage", "stichwerk/bots")) for n in names
    )
    # An isolated interpreter without site-packages (-I -S), the zip alone on its path.
    request = json.dumps(
        {"settings": SETTINGS, "pending": [{"op": "add", "key": "k", "summary": NORMAL}]}
    )
    script = "import sys; sys.path.insert(0, sys.argv[1]); from stichwerk.sheet.log import phone;"
    script += " print(phone(sys.argv[2]))"
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script, str(path), request],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sheet"]["totals"] == [1, 0, 1, 0]
