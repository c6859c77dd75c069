"""The search's roll-outs on the compiled kernel: the bot's knowledge packed into kernel rows.

The search bot reads a seat's view into :class:`~stichwerk.bots.doppelkopf.knowledge.Knowledge`
as before; this module packs that knowledge into rows once per decision (the tricks so far as a
:mod:`stichwerk.doppelkopf.kernel` row, what must or cannot be where, the soft weights) and lets
the compiled sampler (:mod:`~stichwerk.bots.doppelkopf.sampler`) sample the worlds, play every
candidate card in each, finish the deal with the roll-out policy
(:mod:`~stichwerk.bots.doppelkopf.playout`) and score it, many worlds per call. It needs numba
and numpy (dependencies of the package); :func:`available` says whether they are there,
and the search falls back to the pure-Python path (``world.py``) when they are not.
"""

import importlib
import random
from types import ModuleType
from typing import Any

from stichwerk.bots.doppelkopf.knowledge import LEVEL_ACTS, Knowledge
from stichwerk.bots.doppelkopf.policy import STYLE, tables
from stichwerk.bots.kernelcache import cached
from stichwerk.doppelkopf.profiles import Profile
from stichwerk.doppelkopf.trumps import SCHEMES, order_for

_KERNEL: list[ModuleType | None] = []


def kernel() -> ModuleType | None:
    """The compiled kernel module, or ``None`` when numba or numpy is missing (checked once)."""
    if not _KERNEL:
        try:
            _KERNEL.append(importlib.import_module("stichwerk.doppelkopf.kernel"))
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
    """The compiled roll-out policy and play-outs (:mod:`stichwerk.bots.doppelkopf.playout`); call
    only when :func:`available`."""
    return importlib.import_module("stichwerk.bots.doppelkopf.playout")


def sampler() -> ModuleType:
    """The compiled world sampler (:mod:`stichwerk.bots.doppelkopf.sampler`); call only when
    :func:`available`."""
    return importlib.import_module("stichwerk.bots.doppelkopf.sampler")


_POLICY: dict[tuple[Profile, int], Any] = {}


def policy_tables(profile: Profile, style: int | None = None) -> Any:
    """The roll-out policy's numbers (``policy.tables``) for every card order of ``profile``
    and both fox rules, and its ``style`` (default ``policy.STYLE``), as the kernel's
    :class:`~stichwerk.bots.doppelkopf.playout.PolicyTables`."""
    if style is None:
        style = STYLE
    hit = _POLICY.get((profile, style))
    if hit is not None:
        return hit
    import numpy as np

    assert available()
    P = playout()
    n = 4 * len(SCHEMES) * 2
    ints = np.zeros((n, P.POLICY_INT_WIDTH), dtype=np.int64)
    floats = np.zeros((n, P.POLICY_FLOAT_WIDTH), dtype=np.float64)
    for s, scheme in enumerate(SCHEMES):
        for sau in (0, 1):
            for supersau in (0, 1):
                order = order_for(scheme, profile, sau=bool(sau), supersau=bool(supersau))
                for fox in (0, 1):
                    t = tables(order, profile.with_nines, bool(fox))
                    i = (s * 4 + sau * 2 + supersau) * 2 + fox
                    ints[i, P.T_ABOVE : P.T_ABOVE + 24] = t.above
                    ints[i, P.T_ABOVE_LAST : P.T_ABOVE_LAST + 24] = t.above_last
                    ints[i, P.T_KEY : P.T_KEY + 24] = t.key
                    ints[i, P.T_TRUMPS] = t.trumps
                    ints[i, P.T_SUITS : P.T_SUITS + 5] = t.suits
                    ints[i, P.T_DECK] = t.deck
                    floats[i, P.T_THROW : P.T_THROW + 24] = t.throw
                    floats[i, P.T_WIN : P.T_WIN + 24] = t.win
                    floats[i, P.T_SMEAR : P.T_SMEAR + 24] = t.smear
    ints[:, P.T_STYLE] = style
    hit = _POLICY[profile, style] = P.PolicyTables(ints, floats)
    return hit


class Packed:
    """One decision's knowledge in the kernel's rows, and the kernel's tables."""

    def __init__(self, k: Knowledge, rng: random.Random, style: int | None = None) -> None:
        import numpy as np

        K = kernel()
        assert K is not None and k.base is not None
        self.K = K
        self.W = sampler()
        self.k = k
        self.tables = K.tables_for(k.profile)
        self.policy = policy_tables(k.profile, style)
        self.base = K.from_fast(k.base)
        self.base[K.HAND + k.seat] = k.hand
        kn, kf = knowledge_rows(k)
        self.kn = kn
        self.kf = kf
        self.counters = np.array([k.soft_hits, k.soft_misses], dtype=np.int64)
        self.rs = np.array([rng.getrandbits(64)], dtype=np.uint64)

    def search(
        self, cards: list[int], word: int, public: list[int] | None, worlds: int
    ) -> tuple[Any, Any, int]:
        """Values (and values with ``word`` said) per world and card: ``(values, said, done)``,
        arrays of shape ``(worlds, len(cards))``."""
        import numpy as np

        t = self.tables
        pub = np.full(5, -1, dtype=np.int64)
        if public is not None:
            pub[: len(public)] = public
        values = np.zeros((worlds, len(cards)), dtype=np.float64)
        said = np.zeros((worlds, len(cards)), dtype=np.float64)
        done = self.W.search_worlds(
            self.base, self.kn, self.kf, t.profile, t.orders, t.ann, self.policy.ints,
            self.policy.floats, np.array(cards, dtype=np.int64), word, pub, public is not None,
            worlds, self.rs, self.counters, values, said,
        )  # fmt: skip
        self.k.soft_hits, self.k.soft_misses = int(self.counters[0]), int(self.counters[1])
        return values, said, int(done)

    def sample_many(self, worlds: int) -> int:
        """Sample ``worlds`` worlds and drop them (for the throughput benchmark)."""
        t = self.tables
        found: int = self.W.sample_many(
            self.base, self.kn, self.kf, t.orders, t.ann, worlds, self.rs, self.counters
        )
        return found


def knowledge_rows(k: Knowledge) -> tuple[Any, Any]:
    """What the seat knows as the compiled sampler reads it: an ``int64`` row (``D_*``: who
    may hold what, hand sizes, what must be where, the announcements) and a float row (the
    soft weights)."""
    import numpy as np

    W = sampler()

    kn = np.zeros(W.D_FIELDS, dtype=np.int64)
    kf = np.ones(W.F_FIELDS, dtype=np.float64)
    kn[W.D_SEAT] = k.seat
    kn[W.D_UNSEEN] = k.unseen
    kn[W.D_TO_ACT] = -1 if k.to_act is None else k.to_act
    kn[W.D_NORMAL_PARTIES] = k.game_type == "normal" and k.hochzeiter < 0
    trump_mask = k.card_order().trump_mask
    nh = 0
    for s in k.others:
        must = k.must[s]
        free = k.hand_sizes[s] - must.bit_count()
        n = k.exact_trumps[s]
        if n >= 0:
            need = n - (must & trump_mask).bit_count()
            if need < 0 or need > free:
                kn[W.D_IMPOSSIBLE] = 1
            for part, size in ((trump_mask, need), (~trump_mask, free - need)):
                kn[W.D_H_SEAT + nh] = s
                kn[W.D_H_ONLY + nh] = ~k.banned[s] & part
                kn[W.D_H_LOOSE + nh] = part
                kn[W.D_H_ROOM + nh] = size
                kf[W.F_WEIGHT + nh] = 1.0
                nh += 1
        else:
            if free < 0:
                kn[W.D_IMPOSSIBLE] = 1
            kn[W.D_H_SEAT + nh] = s
            kn[W.D_H_ONLY + nh] = ~k.banned[s]
            kn[W.D_H_LOOSE + nh] = -1
            kn[W.D_H_ROOM + nh] = free
            kf[W.F_WEIGHT + nh] = k.trump_weight[s]
            nh += 1
    kn[W.D_NH] = nh
    for s in range(k.seats):
        if s != k.seat:
            kn[W.D_MUST + s] = k.must[s]
        kn[W.D_PLAYED_BY + s] = k.played_by[s]
    for j, s in enumerate(k.order):
        kn[W.D_ORDER + j] = s
    pairs = k.unlikely_pairs[:12]
    kn[W.D_N_UNLIKELY] = len(pairs)
    for j, (s, code, odds) in enumerate(pairs):
        kn[W.D_UNLIKELY + 2 * j] = s
        kn[W.D_UNLIKELY + 2 * j + 1] = code
        kf[W.F_ODDS + j] = odds
    log = [(s, LEVEL_ACTS.index(act)) for s, act, _ in k.ann_log if act in LEVEL_ACTS][:16]
    kn[W.D_N_ANN] = len(log)
    for j, (s, act) in enumerate(log):
        kn[W.D_ANN_LOG + 2 * j] = s
        kn[W.D_ANN_LOG + 2 * j + 1] = act
    return kn, kf
