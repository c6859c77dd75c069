"""The engine's announcement menus against the oracle written from the texts (``oracle.py``).

Random deals of every game type (Hochzeit with each Klärungsstich and without partner, Armut,
every solo, the Stilles Solo, 5-tables) with random announcements along the way, both profiles:
at every point each seat's offered announcements equal the oracle's, every announcement is
accepted or refused as the oracle says, and an Absage that only TSR 6's reply rule forbids is
refused with that rule. ``announcement_run.py`` has the driver and a longer run.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .announcement_run import drive
from .oracle import ABSAGEN, first_illegal, menu

BATCH = 10  # deals per example: 100 examples x 10 = 1,000 deals per profile


@pytest.mark.parametrize("profile", ["ddv", "wielandstrasse"])
@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_engine_menus_equal_the_oracle(profile: str, seed: int) -> None:
    for k in range(BATCH):
        drive(profile, seed + k)


@pytest.mark.parametrize("profile", ["ddv", "wielandstrasse"])
def test_the_run_meets_every_case(profile: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(300):
        seen += drive(profile, seed)
    games = ["normal", "hochzeit", "solo-still", "solo-trumpf"]
    games += [f"solo-{t}" for t in ("damen", "buben", "kreuz", "pik", "herz", "fleischlos")]
    if profile == "wielandstrasse":
        games.append("armut")
    for game in games:
        assert seen[f"game-{game}"] >= 5, game
    for k in ("1", "2", "3", "3-solo"):
        assert seen[f"klaerungsstich-{k}"] >= 1, k
    assert seen["late-replies"] >= 10
    if profile == "ddv":
        assert seen["refused-by-tsr6"] >= 100
    else:
        assert seen["refused-by-tsr6"] == 0


# --- the oracle itself, on the positions of issue 14 (cards: what the seat holds)


def test_oracle_reads_the_four_positions() -> None:
    # 1. Kontra said in time (11 cards); Re's seat with 10 cards may only reply.
    assert menu("ddv", party="re", cards=10, said=[("kontra", "kontra", 11)],
                klaerungsstich=0) == {"re"}  # fmt: skip
    # 2. Re said schwarz with 11 cards; Kontra with 10 may reply Kontra and nothing else.
    said = [("re", "schwarz", 11)]
    assert menu("ddv", party="kontra", cards=10, said=said, klaerungsstich=0) == {"kontra"}
    assert menu("wielandstrasse", party="kontra", cards=10, said=said, klaerungsstich=0) == {
        "kontra", *ABSAGEN}  # fmt: skip
    # 3. and 4. After a late reply the partner, with 10 cards, makes no Absage.
    said = [("kontra", "schwarz", 12), ("re", "re", 10)]
    assert menu("ddv", party="re", cards=10, said=said, klaerungsstich=0) == set()
    said = [("re", "keine-30", 12), ("kontra", "kontra", 10)]
    assert menu("ddv", party="kontra", cards=10, said=said, klaerungsstich=0) == set()
    assert menu("wielandstrasse", party="kontra", cards=10, said=said, klaerungsstich=0) == set(
        ABSAGEN)  # fmt: skip


def test_oracle_shifts_the_ansage_test_in_a_hochzeit() -> None:
    # Klärungsstich trick 2: a reply with 10 cards was in time as an Ansage (10 = 11 - 1).
    said = [("re", "re", 10), ("kontra", "kontra", 10)]
    assert "keine-90" in menu("ddv", party="kontra", cards=10, said=said, klaerungsstich=2)
    said = [("re", "re", 10), ("kontra", "kontra", 9)]
    assert menu("ddv", party="kontra", cards=10, said=said, klaerungsstich=2) == set()
    assert first_illegal("ddv", [*said, ("kontra", "keine-90", 10)], 2) == 2
    assert first_illegal("wielandstrasse", [*said, ("kontra", "keine-90", 10)], 2) is None
    assert menu("ddv", party="re", cards=11, said=[], klaerungsstich=None) == set()
