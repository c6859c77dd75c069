"""A real server process killed (``kill -9``) while deals are being entered loses no entry it
acknowledged, stores none twice, and a change sent again after the restart is not doubled."""

import threading
from pathlib import Path

import httpx

from tests.e2e.conftest import Server

SETTINGS = {"game": "doppelkopf", "profile": "wielandstrasse", "games": None,
            "names": ["Anna", "Bernd", "Clara", "Dieter"]}  # fmt: skip
ORIGIN = {"origin": "http://127.0.0.1"}


def _change(n: int) -> dict[str, object]:
    summary = {"game_type": "normal", "re": [n % 4, (n + 1) % 4], "re_augen": 100 + n % 40}
    return {"op": "add", "summary": summary, "key": f"key-{n}", "entry": f"deal-{n}"}


def test_a_server_killed_mid_entry_keeps_every_acknowledged_entry(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.start()
    try:
        made = httpx.post(f"{server.url}/api/sheets", json=SETTINGS).json()
        token = made["links"]["scorer"][3:]
        acknowledged: list[int] = []
        sent: list[int] = []
        enough = threading.Event()
        stop = threading.Event()

        def enter() -> None:
            with httpx.Client(base_url=server.url, timeout=10) as client:
                n = 0
                while not stop.is_set():
                    sent.append(n)
                    try:
                        r = client.post(f"/api/sheets/{token}/changes", json=_change(n))
                    except httpx.HTTPError:
                        return  # the server is gone
                    assert r.status_code == 200, r.text
                    acknowledged.append(n)
                    if len(acknowledged) == 40:
                        enough.set()
                    n += 1

        writer = threading.Thread(target=enter)
        writer.start()
        assert enough.wait(60), "the server did not take 40 entries"
        server.kill()  # mid-entry: the writer is sending the next one
        stop.set()
        writer.join(30)
        server.start()
        with httpx.Client(base_url=server.url, timeout=10) as client:
            log = client.get(f"/api/sheets/{token}/changes").json()["changes"]
            keys = [c["change"]["key"] for c in log]
            assert len(keys) == len(set(keys)), "an entry was stored twice"
            assert [c["seq"] for c in log] == list(range(1, len(log) + 1))
            stored = [int(k.removeprefix("key-")) for k in keys]
            assert stored[: len(acknowledged)] == acknowledged  # every acknowledged entry, in order
            assert set(stored) <= set(sent)  # at most the one in flight besides
            # The phone never heard back about the last one it sent: it sends it again.
            last = sent[-1]
            again = client.post(f"/api/sheets/{token}/changes", json=_change(last)).json()
            assert again["applied"]["duplicate"] is (last in stored)
            sheet = client.get(f"/api/sheets/{token}").json()["sheet"]
            assert [r["id"] for r in sheet["rows"]] == [
                f"deal-{n}" for n in sorted({*stored, last})
            ]
    finally:
        server.stop()
