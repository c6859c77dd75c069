"""The search's roll-outs on the compiled kernel: the bot's knowledge packed into kernel rows.

The search bot reads a seat's view into :class:`~stichwerk.bots.cego.knowledge.Knowledge` as
before; this module packs that knowledge into a :mod:`stichwerk.cego.kernel` row and a knowledge
row once per decision and lets the compiled sampler (:mod:`~stichwerk.bots.cego.sampler`) sample
the worlds, play every candidate card in each, finish the deal with the roll-out policy
(:mod:`~stichwerk.bots.cego.playout`) and score it, many worlds per call. It needs numba and
numpy (dependencies of the package); :func:`available` says whether they are there, and
the search falls back to the pure-Python path (``world.py``) when they are not.
"""

import importlib
import random
from types import ModuleType
from typing import Any

from stichwerk.bots.cego.knowledge import Knowledge
from stichwerk.bots.cego.world import trump_lean
from stichwerk.bots.kernelcache import cached
from stichwerk.cego.contracts import EXCHANGES

_KERNEL: list[ModuleType | None] = []


def kernel() -> ModuleType | None:
    """The compiled kernel module, or ``None`` when numba or numpy is missing (checked once)."""
    if not _KERNEL:
        try:
            _KERNEL.append(importlib.import_module("stichwerk.cego.kernel"))
        except ImportError:
            _KERNEL.append(None)
    return _KERNEL[0]


def available() -> bool:
    """Whether the search can roll out on the compiled kernel."""
    return kernel() is not None


def ready() -> bool:
    """Whether the search may roll out on the compiled kernel without waiting on numba's
    compiler: the kernels are in numba's cache (``stichwerk.bots.warm``, which the web server
    starts in the background). A search built without ``compiled=...`` asks this, so its first
    decision never waits a minute on the compiler: it searches in Python until then."""
    return cached() and available()


def playout() -> ModuleType:
    """The compiled roll-out policy and play-outs (:mod:`stichwerk.bots.cego.playout`); call
    only when :func:`available`."""
    return importlib.import_module("stichwerk.bots.cego.playout")


def sampler() -> ModuleType:
    """The compiled world sampler (:mod:`stichwerk.bots.cego.sampler`); call only when
    :func:`available`."""
    return importlib.import_module("stichwerk.bots.cego.sampler")


class Packed:
    """One decision's knowledge in the kernel's rows."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        import numpy as np

        K = kernel()
        assert K is not None and k.contract is not None
        self.K = K
        self.W = sampler()
        self.k = k
        row = K.empty_row()
        row[K.SEATS] = k.seats
        K.set_order(row, list(k.order))
        row[K.HAND + k.seat] = k.hand
        for s in range(k.seats):
            row[K.PILE + s] = k.piles[s]
            row[K.WON + s] = k.tricks_won[s]
        for i, (s, card) in enumerate(k.trick):
            row[K.TSEAT + i] = s
            row[K.TCARD + i] = card
        row[K.TLEN] = len(k.trick)
        row[K.PLAYED] = k.played
        row[K.TO_ACT] = k.seat if k.to_act is None else k.to_act
        row[K.TRICK_NO] = k.trick_no
        row[K.DECLARER] = -1 if k.declarer is None else k.declarer
        row[K.NEVER] = k.never_wins
        row[K.LAID_OUT] = k.laid_out & ~k.played
        row[K.FORCED] = k.forced_leads
        row[K.REGELN] = k.contract == "raeuber" and k.profile.raeuber_nach_regeln
        row[K.CONTRACT] = K.CONTRACT_CODES[k.contract]
        row[K.VALUE] = k.value or 1
        row[K.ANNOUNCER] = -1 if k.announcer is None else k.announcer
        row[K.DECIDED_STOP] = k.profile.stop_when_decided
        self.base = row
        self.rules = K.rules_row(k.profile)
        lean_seat, leans = trump_lean(k)
        kn = knowledge_row(k, lean_seat)
        self.kn = kn
        self.leans = np.array(leans, dtype=np.float64)
        self.rs = np.array([rng.getrandbits(64)], dtype=np.uint64)

    def search(self, cards: list[int], worlds: int, totals: Any) -> int:
        """Add ``worlds`` worlds' settlements per card to ``totals``; return the roll-outs."""
        import numpy as np

        done: int = self.W.search_worlds(
            self.base, self.kn, self.leans, self.rules, self.k.removed,
            np.array(cards, dtype=np.int64), worlds, self.rs, totals,
        )  # fmt: skip
        return done

    def sample_many(self, worlds: int) -> int:
        """Sample ``worlds`` worlds and drop them (for the throughput benchmark)."""
        found: int = self.W.sample_many(self.base, self.kn, self.leans, worlds, self.rs)
        return found


def knowledge_row(k: Knowledge, lean_seat: int) -> Any:
    """What the seat knows as the compiled sampler reads it (``K_*``): the unseen cards, each
    other seat's cards to deal, known cards, the Geiß it must hold and its voids, the cards
    outside every hand; ``lean_seat`` the seat the sampling leans on (-1: none)."""
    import numpy as np

    W = sampler()

    kn = np.zeros(W.K_FIELDS, dtype=np.int64)
    kn[W.K_SEAT] = k.seat
    unseen = k.unseen()
    kn[W.K_UNSEEN] = unseen
    others = [s for s in k.order if s != k.seat]
    kn[W.K_N_OTHERS] = len(others)
    kn[W.K_LEAN_SLOT] = others.index(lean_seat) if lean_seat in others else -1
    need_total = 0
    for i, s in enumerate(others):
        known = k.known_in_hand(s)
        need = k.hand_sizes[s] - known.bit_count()
        need_total += need
        kn[W.K_OTHER + i] = s
        kn[W.K_NEED + i] = need
        kn[W.K_KNOWN + i] = known
        kn[W.K_MUST + i] = k.must_hold[s]
        kn[W.K_VOIDS + i] = k.voids[s]
    kn[W.K_HIDDEN_NEED] = unseen.bit_count() - need_total
    mine = k.declarer == k.seat and k.contract in EXCHANGES
    kn[W.K_OUT_KNOWN] = k.my_legage if mine else -1
    return kn
