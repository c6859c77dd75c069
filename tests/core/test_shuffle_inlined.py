"""The inlined shuffle draws exactly what ``SplitMix64.below`` would (seeds keep their deals)."""

from stichwerk.core.rng import SplitMix64, shuffled


def reference(items: list[int], seed: int | str) -> list[int]:
    out = list(items)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_inlined_shuffle_matches_the_generator() -> None:
    for seed in [*range(200), "Stammtisch", "t1-0", 2**70]:
        for n in (2, 40, 48, 54, 200):
            assert shuffled(list(range(n)), seed) == reference(list(range(n)), seed)
