"""The compiled kernels hold the rules only; the bots' policies and samplers live in the bots.

Tuning a bot's card choice must not mean editing a rules package: the roll-out policies, the
play-outs that use them and the world samplers are ``stichwerk.bots.<game>.playout`` and
``.sampler``, built on the kernels' rules (legal cards, play, announcements, settlement).
"""

import ast
from pathlib import Path

import pytest

pytest.importorskip("numba")

from stichwerk.bots.cego import playout as cego_playout
from stichwerk.bots.cego import rollouts as cego_rollouts
from stichwerk.bots.cego import sampler as cego_sampler
from stichwerk.bots.doppelkopf import playout as doko_playout
from stichwerk.bots.doppelkopf import rollouts as doko_rollouts
from stichwerk.bots.doppelkopf import sampler as doko_sampler
from stichwerk.cego import kernel as cego_kernel
from stichwerk.doppelkopf import kernel as doko_kernel

BOT_NAMES = (
    "choose_card", "finish", "play_out", "play_out_threaded", "random_deals", "sample_world",
    "search_worlds", "sample_many", "HEURISTIC", "PolicyTables", "warm_up",
)  # fmt: skip
RULES = ("legal", "play", "settle", "from_state", "empty_row", "deal_cards")


@pytest.mark.parametrize("kernel", [cego_kernel, doko_kernel], ids=["cego", "doppelkopf"])
def test_the_kernels_define_no_policy_no_play_out_and_no_sampler(kernel: object) -> None:
    source = Path(str(getattr(kernel, "__file__", ""))).read_text(encoding="utf-8")
    defined = {
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    assert not defined & set(BOT_NAMES), sorted(defined & set(BOT_NAMES))
    assert set(RULES) <= defined


@pytest.mark.parametrize(
    ("rollouts", "playout", "sampler"),
    [(cego_rollouts, cego_playout, cego_sampler), (doko_rollouts, doko_playout, doko_sampler)],
    ids=["cego", "doppelkopf"],
)
def test_the_bots_reach_their_compiled_policy_and_sampler(
    rollouts: object, playout: object, sampler: object
) -> None:
    assert rollouts.playout() is playout  # type: ignore[attr-defined]
    assert rollouts.sampler() is sampler  # type: ignore[attr-defined]
    for name in ("choose_card", "finish", "play_out", "random_deals", "RANDOM", "HEURISTIC"):
        assert hasattr(playout, name), name
    for name in ("sample_world", "search_worlds", "sample_many"):
        assert hasattr(sampler, name), name
