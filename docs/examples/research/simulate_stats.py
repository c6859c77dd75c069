"""Statistics from a ``stichwerk simulate`` file, read with polars.

    python docs/examples/research/simulate_stats.py deals.parquet

Cego: how often each contract is won, by the number of trumps the declarer was dealt.
Doppelkopf: how often each game type comes up, and how often Re wins it.
"""

import sys

import polars as pl


def cego_table(deals: pl.DataFrame) -> pl.DataFrame:
    """Contract x trumps dealt to the declarer: deals, declarer wins and the win rate."""
    games = deals.filter(pl.col("declarer").is_not_null())
    trumps = (
        pl.col("hands")
        .list.get(pl.col("declarer").cast(pl.Int64))
        .list.eval(pl.element().str.starts_with("T"))
        .list.sum()
        .alias("trumps")
    )
    return (
        games.with_columns(trumps, (pl.col("winner") == "declarer").alias("won"))
        .group_by("contract", "trumps")
        .agg(pl.len().alias("deals"), pl.col("won").sum().alias("won"))
        .with_columns((pl.col("won") / pl.col("deals")).round(3).alias("win_rate"))
        .sort("contract", "trumps")
    )


def doppelkopf_table(deals: pl.DataFrame) -> pl.DataFrame:
    """Game type: deals, share of all deals and how often Re won."""
    total = deals.height
    return (
        deals.group_by("contract")
        .agg(pl.len().alias("deals"), (pl.col("winner") == "re").sum().alias("re_won"))
        .with_columns(
            (pl.col("deals") / total).round(3).alias("share"),
            (pl.col("re_won") / pl.col("deals")).round(3).alias("re_win_rate"),
        )
        .sort("deals", "contract", descending=[True, False])
    )


def main(path: str) -> None:
    deals = pl.read_parquet(path)
    pl.Config.set_tbl_rows(100)
    for game, part in deals.group_by("game", maintain_order=True):
        name = str(game[0])
        print(f"{name}: {part.height} deals")
        print(cego_table(part) if name == "cego" else doppelkopf_table(part))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: simulate_stats.py FILE.parquet")
    main(sys.argv[1])
