"""``stichwerk play cego``: a game of Cego in the terminal, one person against computer seats.

The screen shows the person's hand, the bidding as it happens, the trick on the table, each
deal's result and the running score sheet. Input is a number from the list of legal actions or
the action itself (``gut``, ``HK``, ``keep T22 T21``); ``q`` ends the game. It reads standard
input line by line, so it can be driven by a pipe.
"""

import json
import secrets
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from stichwerk.bots.base import Bot
from stichwerk.bots.cego.heuristic import CegoHeuristicBot
from stichwerk.cego import cards as C
from stichwerk.cego.profiles import DEFAULT_PROFILE, rules_for
from stichwerk.cego.record import new_deal
from stichwerk.cego.state import CegoState
from stichwerk.cli.common import fail
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

_SUIT_STYLE = {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red", "T": "bold cyan"}


def card_text(code: str) -> Text:
    """A card code, coloured by suit."""
    return Text(code, style=_SUIT_STYLE.get(code[0], ""))


def cards_text(codes: list[str]) -> Text:
    """Several cards in one line."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(code))
    return out


def describe(action: Action) -> str:
    """An action as the terminal shows it."""
    if action.act == "play":
        return f"play {action.card}"
    if action.cards:
        return f"{action.act} {' '.join(action.cards)}"
    return action.act


def parse_input(text: str, legal: list[Action]) -> Action | None:
    """The legal action the person meant by ``text``, or ``None``."""
    text = text.strip()
    if text.isdigit():
        index = int(text) - 1
        return legal[index] if 0 <= index < len(legal) else None
    words = text.replace(",", " ").split()
    if not words:
        return None
    try:
        codes = [C.CODES[C.parse(w)] for w in words[1:]]
        single = C.CODES[C.parse(text)] if len(words) <= 2 else None
    except StichwerkError:
        codes, single = [], None
    for action in legal:
        if action.act == "play" and single is not None and action.card == single:
            return action
        if action.act == words[0].lower():
            if action.act == "play" and codes and action.card == codes[0]:
                return action
            if action.cards and sorted(action.cards) == sorted(codes):
                return action
            if not action.cards and action.card is None and len(words) == 1:
                return action
    return None


class TerminalGame:
    """The loop of deals at one table: the person's seat, the bots, the score sheet."""

    def __init__(
        self,
        *,
        profile: str,
        players: int,
        seed: str,
        seat: int,
        console: Console,
        options: dict[str, Any],
    ) -> None:
        self.profile = profile
        self.players = players
        self.seed = seed
        self.seat = seat
        self.console = console
        self.options = options
        self.bots: dict[int, Bot] = {
            s: CegoHeuristicBot(f"{seed}-{s}") for s in range(players) if s != seat
        }
        self.sheet: list[list[int]] = []
        self.records: list[dict[str, Any]] = []

    def name(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Seat {seat}"

    def run(self, deals: int) -> None:
        """Play ``deals`` deals (0: until the person quits)."""
        number = 0
        while deals == 0 or number < deals:
            dealer = (self.players - 1 + number) % self.players
            state = new_deal(
                profile=self.profile,
                options=self.options,
                players=self.players,
                dealer=dealer,
                seed=f"{self.seed}-{number}",
            )
            if not self.play_deal(state, number + 1):
                return
            number += 1

    def play_deal(self, state: CegoState, number: int) -> bool:
        """One deal; False when the person quits."""
        c = self.console
        c.rule(f"Deal {number} — {self.name(state.dealer)} deal(s)")
        if state.seats == 5 and state.dealer == self.seat:
            c.print("You deal and sit out this one.")
        else:
            c.print(Text("Your hand: ").append_text(cards_text(state.view(self.seat)["hand"])))
        tricks_shown = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if seat == self.seat:
                action = self.ask(state)
                if action is None:
                    return False
            else:
                action = self.bots[seat].act(state.view(seat))
            before_phase = state.phase
            state.apply(action)
            if action.act != "play":
                shown = state.view(self.seat)["history"][-1]
                what = shown["act"] + (" " + " ".join(shown["cards"]) if shown.get("cards") else "")
                if "count" in shown:
                    what += f" ({shown['count']} card{'s' if shown['count'] > 1 else ''})"
                c.print(f"{self.name(seat)}: {what}")
            if before_phase != "play" and state.phase == "play":
                view = state.view(self.seat)
                c.print(
                    f"[bold]Contract:[/] {view['contract']}"
                    + (f" by {self.name(view['declarer'])}" if view["declarer"] is not None else "")
                    + (f", value {view['value']}" if view["value"] else "")
                )
                if view["laid_out"]:
                    c.print(Text("Laid out: ").append_text(cards_text(view["laid_out"])))
            if state.trick_no > tricks_shown and state.last_trick is not None:
                tricks_shown = state.trick_no
                trick, winner = state.last_trick
                line = Text(f"Trick {tricks_shown}: ")
                for s, card in trick:
                    line.append(f"{self.name(s)} ").append_text(card_text(C.CODES[card]))
                    line.append("  ")
                line.append(f"→ {self.name(winner)}", style="bold")
                c.print(line)
        self.show_result(state)
        return True

    def ask(self, state: CegoState) -> Action | None:
        c = self.console
        view = state.view(self.seat)
        legal = state.legal_actions(self.seat)
        c.print(Text("Your hand: ").append_text(cards_text(view["hand"])))
        if view["trick"]:
            line = Text("On the table: ")
            for t in view["trick"]:
                line.append(f"{self.name(t['seat'])} ").append_text(card_text(t["card"]))
                line.append("  ")
            c.print(line)
        if view.get("auction"):
            a = view["auction"]
            c.print(f"Auction: {self.name(a['holder'])} holds {a['level']}")
        if len(legal) <= 12 or legal[0].act == "play":
            c.print("  ".join(f"[{i + 1}] {describe(a)}" for i, a in enumerate(legal)))
        else:
            c.print(f"{len(legal)} choices, e.g. {describe(legal[0])}; type the action.")
        while True:
            try:
                text = input(f"{view['phase']}> ")
            except EOFError:
                c.print("Goodbye.")
                return None
            if text.strip().lower() in ("q", "quit", "exit"):
                c.print("Goodbye.")
                return None
            action = parse_input(text, legal)
            if action is not None:
                return action
            c.print(f"Not possible now: {text.strip()!r}. Choose a number from the list.")

    def show_result(self, state: CegoState) -> None:
        c = self.console
        result = state.result()
        assert result is not None
        self.records.append(state.to_record())
        score = result["score"]
        declarer = result["declarer"]
        if "losers" in score:
            outcome = "lost by " + ", ".join(self.name(s) for s in score["losers"])
        elif score["winner"] == "declarer":
            outcome = f"won by {self.name(declarer)}"
        elif score["winner"] == "defenders":
            outcome = f"lost by {self.name(declarer)}"
        else:
            outcome = "split: one game won, one lost"
        c.print(f"[bold]Result:[/] {result['contract']} {outcome}")
        points = result["card_points"]
        if "declarer" in points:
            c.print(f"Card points: declarer {points['declarer']}, defenders {points['defenders']}")
        else:
            c.print(
                "Card points: "
                + ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(points["seats"]))
            )
        if score.get("faecher"):
            c.print(f"Fächer {score['faecher']}, written {score['written']}")
        self.sheet.append(list(score["settlement"]))
        table = Table(title="Score sheet")
        table.add_column("Deal")
        for s in range(state.seats):
            table.add_column(self.name(s), justify="right")
        totals = [0] * state.seats
        for i, row in enumerate(self.sheet):
            totals = [t + v for t, v in zip(totals, row, strict=True)]
            table.add_row(str(i + 1), *(f"{v:+d}" for v in row))
        table.add_row("Total", *(f"{t:+d}" for t in totals), style="bold")
        c.print(table)


def play_cego(
    profile: Annotated[str, typer.Option(help="Rule profile: schwarzwald, titisee or zego.")] = (
        DEFAULT_PROFILE
    ),
    players: Annotated[
        int | None, typer.Option(help="Seats at the table: 3, 4, or 5 (the dealer sits out).")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for the deals (printed if not given).")] = (
        None
    ),
    deals: Annotated[int, typer.Option(help="How many deals (0: until you quit).")] = 0,
    seat: Annotated[int, typer.Option(help="Your seat (0 is Vorhand in the first deal).")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A setting override, NAME=JSON.")
    ] = None,
    save: Annotated[
        str | None, typer.Option(help="Write the records of the deals to FILE.")
    ] = None,
) -> None:
    """Play Cego in the terminal against computer seats."""
    options: dict[str, Any] = {}
    for item in option or []:
        name, _, raw = item.partition("=")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    try:
        rules = rules_for(profile, options)
    except StichwerkError as exc:
        fail(str(exc))
    seats = players or rules.players
    if seats not in rules.allowed_players:
        fail(f"a table of {seats} is not allowed under {profile} rules")
    if not 0 <= seat < seats:
        fail(f"--seat must be from 0 to {seats - 1}")
    seed = seed or secrets.token_hex(4)
    console = Console(highlight=False)
    console.print(f"Cego, {profile} rules, {seats} seats, seed {seed}. Type q to quit.")
    game = TerminalGame(
        profile=profile, players=seats, seed=seed, seat=seat, console=console, options=options
    )
    game.run(deals)
    if save:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump(game.records, handle, ensure_ascii=False, indent=1)
