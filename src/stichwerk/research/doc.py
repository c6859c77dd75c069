"""The action and observation tables of ``docs/research.md``, made from the encoders themselves
(a test checks that the docs hold them as printed here)."""

from stichwerk.research.actions import space_for
from stichwerk.research.observation import encoder_for


def action_table(game: str) -> str:
    """Markdown: index (or range) and what it chooses."""
    space = space_for(game)
    lines = ["| index | action |", "|---|---|"]
    for first, last, what in space.blocks():
        if first == last:
            lines.append(f"| {first} | `{what}` |")
        else:
            act = what.split(" ")[0]
            lines.append(f"| {first}–{last} | `{act}` the card of column i: index {first} + i |")
    lines.append("")
    lines.append("Card columns i = 0, 1, ...: " + " ".join(space.cards) + ".")
    return "\n".join(lines)


def observation_table(game: str) -> str:
    """Markdown: each field, its shape (``n``: seats at the table) and meaning."""
    small, large = encoder_for(game, 4), encoder_for(game, 5)
    lines = ["| field | shape | meaning |", "|---|---|---|"]
    for a, b in zip(small.fields, large.fields, strict=True):
        dims = []
        for x, y in zip(a.shape, b.shape, strict=True):
            dims.append("n" if (x, y) == (4, 5) else "n+1" if (x, y) == (5, 6) else str(x))
        lines.append(f"| `{a.name}` | {' × '.join(dims)} | {a.doc} |")
    lines.append(f"| total | {small.size} at 4 seats, {large.size} at 5 | |")
    return "\n".join(lines)
