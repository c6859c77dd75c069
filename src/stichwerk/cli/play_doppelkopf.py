"""``stichwerk play doppelkopf``: Doppelkopf in the terminal, one person against computer seats.

The deals form a list (:class:`~stichwerk.core.series.Series`): the deal rotates, a redeal is
dealt again by the same dealer, Pflicht-Soli are tracked (the person is told when he owes one or
is vorgeführt), and the score sheet shows every row and the totals. The screen shows the hand in
trump order, what is said, the trick on the table and each deal's scoring items. Input is a
number from the list of legal actions or the action itself (``gesund``, ``solo damen``,
``re``, ``CQ``, ``Kreuz Dame``, ``return CA C10``); ``q`` ends the game. It reads standard input
line by line, so it can be driven by a pipe.
"""

import json
import secrets
from dataclasses import replace
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from stichwerk.bots.base import Bot
from stichwerk.bots.doppelkopf.heuristic import DoppelkopfHeuristicBot
from stichwerk.cli.common import fail
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import Series
from stichwerk.doppelkopf.api import series_outcome, series_rules
from stichwerk.doppelkopf.cards import CODE_INDEX, CODES, parse_code
from stichwerk.doppelkopf.profiles import PROFILES, get_profile
from stichwerk.doppelkopf.record import new_deal
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, order_for, sort_key

_SUIT_STYLE = {"C": "bold", "S": "bold green", "H": "bold red", "D": "bold yellow"}


def cards_text(codes: list[str], trumps: set[str] | None = None) -> Text:
    """Cards in one line, coloured by suit; trumps underlined."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        style = _SUIT_STYLE.get(code[0], "")
        if trumps and code in trumps:
            style += " underline"
        out.append(code, style=style)
    return out


def describe(action: Action) -> str:
    """An action as the terminal shows it."""
    if action.act == "play":
        return f"{action.card}"
    if action.act == "solo":
        return f"solo {action.type}"
    if action.cards:
        return f"{action.act} {' '.join(action.cards)}"
    return action.act


def parse_input(text: str, legal: list[Action]) -> Action | None:
    """The legal action the person meant by ``text``, or ``None``."""
    text = text.strip()
    if text.isdigit():
        index = int(text) - 1
        return legal[index] if 0 <= index < len(legal) else None
    words = text.lower().replace(",", " ").split()
    if not words:
        return None
    if words[0] == "play":
        words = words[1:]
        text = " ".join(words)
    for action in legal:
        if action.act == "solo" and words[0] == "solo" and words[1:] == [action.type]:
            return action
        if action.cards and words[0] == action.act:
            try:
                wanted = sorted(CODES[parse_code(w)] for w in words[1:])
            except StichwerkError:
                return None
            if wanted == sorted(action.cards):
                return action
        plain = not action.cards and action.card is None and action.type is None
        if plain and " ".join(words) == action.act:
            return action
    try:
        code = CODES[parse_code(text)]
    except StichwerkError:
        return None
    return next((a for a in legal if a.act == "play" and a.card == code), None)


class TerminalGame:
    """A list of deals at one table: the person's seat, the bots, the score sheet."""

    def __init__(
        self,
        *,
        profile: str,
        options: dict[str, Any],
        players: int,
        seed: str,
        seat: int,
        console: Console,
        deals: int,
    ) -> None:
        self.profile = profile
        self.options = options
        self.seed = seed
        self.seat = seat
        self.console = console
        rules = series_rules(profile, options, players)
        if deals:
            # A short game of a few deals owes no Pflicht-Soli; 0 plays the profile's whole list.
            rules = replace(rules, games=deals, duty_solos=0)
        self.series = Series(rules, first_dealer=players - 1)
        self.bots: dict[int, Bot] = {
            s: DoppelkopfHeuristicBot(f"{seed}-{s}") for s in range(players) if s != seat
        }
        self.records: list[dict[str, Any]] = []
        self.number = 0

    def name(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Seat {seat}"

    def run(self) -> None:
        """Play until the list is complete or the person quits."""
        while not self.series.is_over:
            args = self.series.deal_args()
            state = new_deal(
                profile=self.profile,
                options=self.options,
                seed=f"{self.seed}-{self.number}",
                **args,
            )
            self.number += 1
            if not self.play_deal(state):
                return
            result = state.result()
            assert result is not None
            self.series.record(series_outcome(result))
            self.show_sheet()
        c = self.console
        c.print("[bold]The list is complete.[/]")
        penalties = self.series.penalties()
        if any(penalties):
            c.print("Pflicht-Soli not played: " + ", ".join(
                f"{self.name(s)} {p}" for s, p in enumerate(penalties) if p))  # fmt: skip
        c.print("Final: " + ", ".join(
            f"{self.name(s)} {t:+}" for s, t in enumerate(self.series.final_totals())))  # fmt: skip

    def trump_codes(self, state: DokoState) -> tuple[set[str], list[int]]:
        view = state.view(self.seat)
        gt = view["game_type"] if state.phase in ("play", "done") else "normal"
        order = order_for(SCHEME_OF_GAME[gt], state.profile, sau=view["sau"] is not None)
        trumps = {CODES[c] for c in order.trumps_high_to_low}
        return trumps, sort_key(order)

    def hand_text(self, state: DokoState) -> Text:
        trumps, key = self.trump_codes(state)
        hand = sorted(state.view(self.seat)["hand"] or [], key=lambda c: key[CODE_INDEX[c]])
        return Text("Your hand: ").append_text(cards_text(hand, trumps))

    def play_deal(self, state: DokoState) -> bool:
        """One deal; False when the person quits."""
        c = self.console
        c.rule(f"Deal {self.number} — {self.name(state.dealer)} deal(s)")
        owed = self.series.owed[self.seat] if self.series.rules.duty_solos else 0
        if owed:
            c.print(f"You still owe {owed} Pflicht-Solo.")
        forced = self.series.forced_seat()
        if forced is not None:
            who = "You are" if forced == self.seat else f"{self.name(forced)} is"
            c.print(f"{who} vorgeführt and must play a Pflicht-Solo.")
        sitting = state.seats == 5 and state.dealer == self.seat
        if sitting:
            c.print("You deal and sit out this one.")
        else:
            c.print(self.hand_text(state))
        tricks_shown = 0
        announced_phase = False
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if seat == self.seat:
                action = self.ask(state)
                if action is None:
                    return False
            else:
                action = self.bots[seat].act(state.view(seat))
            state.apply(action)
            if action.act != "play":
                shown = state.view(self.seat)["history"][-1]
                hidden = ("count", "returned_trumps")
                what = describe(Action.from_json({k: v for k, v in shown.items()
                                                  if k not in hidden}))  # fmt: skip
                if "count" in shown:
                    what += f" ({shown['count']} cards)"
                if "returned_trumps" in shown:
                    what += f", {shown['returned_trumps']} trump(s) among them"
                c.print(f"{self.name(seat)}: {what}")
            if state.phase == "play" and not announced_phase:
                announced_phase = True
                view = state.view(self.seat)
                who = f" by {self.name(view['soloist'])}" if view["soloist"] is not None else ""
                c.print(f"[bold]Game:[/] {view['game_type']}{who}")
                if not sitting:
                    c.print(self.hand_text(state))
            tricks = state.internals()["tricks"]
            if len(tricks) > tricks_shown:
                tricks_shown = len(tricks)
                seats, ids, winner = tricks[-1]
                line = Text(f"Trick {tricks_shown}: ")
                for s, i in zip(seats, ids, strict=True):
                    line.append(f"{self.name(s)} ").append_text(cards_text([CODES[i >> 1]]))
                    line.append("  ")
                line.append(f"→ {self.name(winner)}", style="bold")
                c.print(line)
        self.show_result(state)
        return True

    def ask(self, state: DokoState) -> Action | None:
        c = self.console
        view = state.view(self.seat)
        _, key = self.trump_codes(state)
        legal = sorted(
            state.legal_actions(self.seat),
            key=lambda a: (a.act != "play", key[CODE_INDEX[a.card]] if a.card else 0),
        )
        c.print(self.hand_text(state))
        if view["trick"]:
            line = Text("On the table: ")
            for t in view["trick"]:
                line.append(f"{self.name(t['seat'])} ").append_text(cards_text([t["card"]]))
                line.append("  ")
            c.print(line)
        if len(legal) <= 30:
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

    def show_result(self, state: DokoState) -> None:
        c = self.console
        result = state.result()
        assert result is not None
        self.records.append(state.to_record())
        if "redeal" in result:
            c.print(f"[bold]Redeal[/] ({result['redeal']}); it does not count.")
            return
        score = result["score"]
        augen = result["augen"]
        if augen is not None:
            c.print(f"{result['game_type']}: Re {result['re']} {augen['re']} Augen, "
                    f"Kontra {result['kontra']} {augen['kontra']} Augen")  # fmt: skip
        if "forfeit" in result:
            c.print(f"{self.name(result['forfeit'])} left the table (Verwerfen).")
        winner = score["winner"] or "nobody"
        items = ", ".join(f"{i['name']} {i['points']:+}" for i in score["items"])
        c.print(f"[bold]Winner:[/] {winner}; value {score['value']} ({items})")

    def show_sheet(self) -> None:
        table = Table(title="Score sheet")
        table.add_column("Game")
        seats = self.series.rules.seats
        for s in range(seats):
            table.add_column(self.name(s), justify="right")
        for row in self.series.entries:
            label = str(row.number) if row.number is not None else "redeal"
            table.add_row(label, *(f"{v:+}" for v in row.written))
        table.add_row("Total", *(f"{t:+}" for t in self.series.totals), style="bold")
        self.console.print(table)


def play_doppelkopf(
    profile: Annotated[
        str, typer.Option(help="Rule profile: wielandstrasse (default) or ddv.")
    ] = "wielandstrasse",
    players: Annotated[
        int, typer.Option(help="Seats at the table: 4, or 5 (the dealer sits out).")
    ] = 4,
    seed: Annotated[str | None, typer.Option(help="Seed for the deals (printed if not given).")] = (
        None
    ),
    deals: Annotated[
        int,
        typer.Option(help="Games to play (0: the profile's whole list, with Pflicht-Soli)."),
    ] = 1,
    seat: Annotated[int, typer.Option(help="Your seat (0 is Vorhand in the first deal).")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A setting override, NAME=JSON.")
    ] = None,
    save: Annotated[
        str | None, typer.Option(help="Write the records of the deals to FILE.")
    ] = None,
) -> None:
    """Play Doppelkopf in the terminal against computer seats."""
    options: dict[str, Any] = {}
    for item in option or []:
        name, _, raw = item.partition("=")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    if profile not in PROFILES:
        fail(f"unknown doppelkopf profile {profile!r} (known: {', '.join(PROFILES)})")
    try:
        get_profile(profile, options)
    except StichwerkError as exc:
        fail(str(exc))
    if players not in (4, 5):
        fail("--players must be 4, or 5 (the dealer sits out)")
    if not 0 <= seat < players:
        fail(f"--seat must be from 0 to {players - 1}")
    if deals < 0:
        fail("--deals must be 0 or more")
    seed = seed or secrets.token_hex(4)
    console = Console(highlight=False)
    console.print(f"Doppelkopf, {profile} rules, {players} seats, seed {seed}. Type q to quit.")
    game = TerminalGame(profile=profile, options=options, players=players, seed=seed, seat=seat,
                        console=console, deals=deals)  # fmt: skip
    game.run()
    if save:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump(game.records, handle, ensure_ascii=False, indent=1)
