"""``stichwerk play doppelkopf``: Doppelkopf in the terminal, one person against computer seats.

The deals form a list (:class:`~stichwerk.core.series.Series`): the deal rotates, a redeal is
dealt again by the same dealer, Pflicht-Soli are tracked (the person is told when he owes one or
is vorgeführt), and the score sheet shows every row and the totals. The screen shows the hand in
trump order, what is said, the trick on the table and each deal's scoring items, in English or
German (``--lang``; the locale decides otherwise). Input is a number from the list of legal
actions or the action itself (``gesund``, ``solo damen``, ``re``, ``CQ``, ``Kreuz Dame``,
``return CA C10``); ``q`` ends the game. It reads standard input line by line, so it can be
driven by a pipe.
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
from stichwerk.cli.common import Words, fail, pick_language
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


WORDS: dict[str, dict[str, str]] = {
    "en": {
        "intro": "Doppelkopf, {profile} rules, {seats} seats, seed {seed}. Type q to quit.",
        "legend": (
            "Cards: C, S, H, D are clubs (Kreuz), spades (Pik), hearts (Herz), diamonds (Karo);"
            " A ace, 10, K king, Q queen (Dame), J jack (Bube), 9. Trumps are underlined."
        ),
        "owe": "You still owe {n} Pflicht-Solo.",
        "forced_you": "You are vorgeführt: you must play your Pflicht-Solo now.",
        "forced_other": "{name} is vorgeführt and must play a Pflicht-Solo now.",
        "game": "Game: {game}",
        "game_you": "Game: {game}, played by you",
        "game_other": "Game: {game}, played by {name}",
        "party": "You play {party}.",
        "result": "{game}: Re ({re}) {re_augen} Augen, Kontra ({kontra}) {kontra_augen} Augen",
        "forfeit": "{name} left the game (Verwerfen).",
        "wins": "{party} wins; game value {value} ({items})",
        "nobody": "Neither side wins; game value {value} ({items})",
        "redeal": "Redeal ({why}): the deal does not count.",
        "count": " ({n} cards)",
        "returned": ", {n} of them trumps",
        "complete": "The list is complete.",
        "penalties": "Pflicht-Soli not played: {list}",
        "final": "Final: {list}",
        "game_col": "Game",
        "redeal_row": "redeal",
        "phase.reservations": "Any reservation?",
        "phase.declarations": "Your reservation",
        "phase.armut": "Take the Armut?",
        "phase.armut-return": "Cards to give back",
        "phase.play": "Your card",
        "act.gesund": "gesund (no reservation)",
        "act.vorbehalt": "vorbehalt (a reservation)",
        "act.hochzeit": "hochzeit (marriage)",
        "act.armut": "armut (poverty)",
        "act.schmeissen": "schmeissen (throw the hand in)",
        "act.neu-geben": "neu-geben (ask for a redeal)",
        "act.take": "take (the Armut)",
        "act.decline": "decline",
        "type.normal": "Normal game",
        "type.hochzeit": "Hochzeit (marriage)",
        "type.armut": "Armut (poverty)",
        "type.solo-damen": "Damen-Solo (queens are the only trumps)",
        "type.solo-buben": "Buben-Solo (jacks are the only trumps)",
        "type.solo-kreuz": "Kreuz-Solo (clubs are trumps)",
        "type.solo-pik": "Pik-Solo (spades are trumps)",
        "type.solo-herz": "Herz-Solo (hearts are trumps)",
        "type.solo-trumpf": "Trumpf-Solo (diamonds are trumps)",
        "type.solo-fleischlos": "Fleischloser (no trumps)",
        "type.solo-still": "Stilles Solo (both Kreuz-Damen, unannounced)",
    },
    "de": {
        "intro": "Doppelkopf, Regeln {profile}, {seats} Plätze, Startwert {seed}. Mit q beenden.",
        "legend": (
            "Karten: C, S, H, D sind Kreuz, Pik, Herz, Karo; A Ass, 10, K König, Q Dame, J Bube,"
            " 9. Trümpfe sind unterstrichen."
        ),
        "owe": "Du schuldest noch {n} Pflicht-Solo.",
        "forced_you": "Du wirst vorgeführt: Du musst jetzt dein Pflicht-Solo spielen.",
        "forced_other": "{name} wird vorgeführt und muss jetzt ein Pflicht-Solo spielen.",
        "game": "Spiel: {game}",
        "game_you": "Spiel: {game}, du spielst es",
        "game_other": "Spiel: {game}, gespielt von {name}",
        "party": "Du spielst {party}.",
        "result": "{game}: Re ({re}) {re_augen} Augen, Kontra ({kontra}) {kontra_augen} Augen",
        "forfeit": "{name} hat das Spiel verworfen.",
        "wins": "{party} gewinnt; Spielwert {value} ({items})",
        "nobody": "Keine Partei gewinnt; Spielwert {value} ({items})",
        "redeal": "Neu geben ({why}): das Spiel zählt nicht.",
        "count": " ({n} Karten)",
        "returned": ", davon {n} Trumpf",
        "complete": "Die Liste ist voll.",
        "penalties": "Nicht gespielte Pflicht-Soli: {list}",
        "final": "Endstand: {list}",
        "game_col": "Spiel",
        "redeal_row": "neu",
        "phase.reservations": "Vorbehalt?",
        "phase.declarations": "Dein Vorbehalt",
        "phase.armut": "Armut mitnehmen?",
        "phase.armut-return": "Karten zurückgeben",
        "phase.play": "Deine Karte",
        "act.gesund": "gesund (kein Vorbehalt)",
        "act.vorbehalt": "vorbehalt",
        "act.hochzeit": "hochzeit",
        "act.armut": "armut",
        "act.schmeissen": "schmeissen (Karten hinwerfen)",
        "act.neu-geben": "neu-geben",
        "act.take": "take (mitnehmen)",
        "act.decline": "decline (ablehnen)",
        "type.normal": "Normalspiel",
        "type.hochzeit": "Hochzeit",
        "type.armut": "Armut",
        "type.solo-damen": "Damensolo",
        "type.solo-buben": "Bubensolo",
        "type.solo-kreuz": "Kreuz-Solo",
        "type.solo-pik": "Pik-Solo",
        "type.solo-herz": "Herz-Solo",
        "type.solo-trumpf": "Trumpfsolo",
        "type.solo-fleischlos": "Fleischloser",
        "type.solo-still": "Stilles Solo",
    },
}
"""The Doppelkopf terminal game's own words (the shared ones are in ``cli.common``)."""


def describe(action: Action, words: Words | None = None) -> str:
    """An action as the terminal shows it: what to type (a card alone plays it), with a gloss
    where the word alone would puzzle a newcomer."""
    if action.act == "play":
        return f"{action.card}"
    if action.act == "solo":
        return f"solo {action.type}"
    if action.cards:
        return f"{action.act} {' '.join(action.cards)}"
    return action.act if words is None else words.get(f"act.{action.act}", action.act)


def parse_input(text: str, legal: list[Action]) -> Action | None:
    """The legal action the person meant by ``text``, or ``None``."""
    text = text.strip()
    if text.isdecimal():
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
        lang: str = "en",
    ) -> None:
        self.words = Words(lang, WORDS)
        self._last_line = ""
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
        return self.words.seat(seat, self.seat)

    def say(self, text: str | Text) -> None:
        """Print a line (remembered, so the hand is not shown twice in a row)."""
        self.console.print(text)
        self._last_line = str(text)

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
        w = self.words
        self.say(Text(w("complete"), style="bold"))
        penalties = self.series.penalties()
        if any(penalties):
            owed = ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(penalties) if p)
            self.say(w("penalties", list=owed))
        totals = self.series.final_totals()
        self.say(w("final", list=", ".join(f"{self.name(s)} {t:+}" for s, t in enumerate(totals))))

    def trump_codes(self, state: DokoState) -> tuple[set[str], list[int]]:
        view = state.view(self.seat)
        gt = view["game_type"] if state.phase in ("play", "done") else "normal"
        order = order_for(SCHEME_OF_GAME[gt], state.profile, sau=view["sau"] is not None)
        trumps = {CODES[c] for c in order.trumps_high_to_low}
        return trumps, sort_key(order)

    def hand_text(self, state: DokoState) -> Text:
        trumps, key = self.trump_codes(state)
        hand = sorted(state.view(self.seat)["hand"] or [], key=lambda c: key[CODE_INDEX[c]])
        return Text(self.words("hand")).append_text(cards_text(hand, trumps))

    def show_hand(self, state: DokoState) -> None:
        """The person's hand in trump order, unless the line just printed shows it already."""
        line = self.hand_text(state)
        if str(line) != self._last_line:
            self.say(line)

    def play_deal(self, state: DokoState) -> bool:
        """One deal; False when the person quits."""
        w = self.words
        if state.dealer == self.seat:
            self.console.rule(w("deal_you", n=self.number))
        else:
            self.console.rule(w("deal_other", n=self.number, name=self.name(state.dealer)))
        self._last_line = ""
        owed = self.series.owed[self.seat] if self.series.rules.duty_solos else 0
        if owed:
            self.say(w("owe", n=owed))
        forced = self.series.forced_seat()
        if forced is not None:
            if forced == self.seat:
                self.say(w("forced_you"))
            else:
                self.say(w("forced_other", name=self.name(forced)))
        sitting = state.seats == 5 and state.dealer == self.seat
        if sitting:
            self.say(w("sit_out"))
        else:
            self.show_hand(state)
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
                what = describe(
                    Action.from_json({k: v for k, v in shown.items() if k not in hidden}), w
                )
                if "count" in shown:
                    what += w("count", n=shown["count"])
                if "returned_trumps" in shown:
                    what += w("returned", n=shown["returned_trumps"])
                self.say(f"{self.name(seat)}: {what}")
            if state.phase == "play" and not announced_phase:
                announced_phase = True
                self.show_game(state, sitting)
            tricks = state.snapshot().tricks
            if len(tricks) > tricks_shown:
                tricks_shown = len(tricks)
                seats, ids, winner = tricks[-1]
                line = Text(w("trick", n=tricks_shown))
                for s, i in zip(seats, ids, strict=True):
                    line.append(f"{self.name(s)} ").append_text(cards_text([CODES[i >> 1]]))
                    line.append("  ")
                line.append(f"→ {self.name(winner)}", style="bold")
                self.say(line)
        self.show_result(state)
        return True

    def game_name(self, game_type: str) -> str:
        return self.words.get(f"type.{game_type}", game_type)

    def show_game(self, state: DokoState, sitting: bool) -> None:
        """The game as play begins: its type, who plays it, and the person's side if known."""
        w = self.words
        view = state.view(self.seat)
        game = self.game_name(view["game_type"])
        soloist = view["soloist"]
        if soloist is None:
            self.say(Text(w("game", game=game), style="bold"))
        elif soloist == self.seat:
            self.say(Text(w("game_you", game=game), style="bold"))
        else:
            self.say(Text(w("game_other", game=game, name=self.name(soloist)), style="bold"))
        if view.get("my_party") and not sitting:
            self.say(w("party", party=str(view["my_party"]).capitalize()))
        if not sitting:
            self.say(self.hand_text(state))  # in the game's trump order now

    def ask(self, state: DokoState) -> Action | None:
        w = self.words
        view = state.view(self.seat)
        _, key = self.trump_codes(state)
        legal = sorted(
            state.legal_actions(self.seat),
            key=lambda a: (a.act != "play", key[CODE_INDEX[a.card]] if a.card else 0),
        )
        self.show_hand(state)
        if view["trick"]:
            line = Text(w("on_table"))
            for t in view["trick"]:
                line.append(f"{self.name(t['seat'])} ").append_text(cards_text([t["card"]]))
                line.append("  ")
            self.say(line)
        if len(legal) <= 30:
            self.say("  ".join(f"[{i + 1}] {describe(a, w)}" for i, a in enumerate(legal)))
        else:
            self.say(w("many", n=len(legal), example=describe(legal[0])))
        prompt = w.get(f"phase.{view['phase']}", view["phase"])
        while True:
            try:
                text = input(f"{prompt}> ")
            except EOFError:
                self.say(w("goodbye"))
                return None
            if text.strip().lower() in ("q", "quit", "exit"):
                self.say(w("goodbye"))
                return None
            action = parse_input(text, legal)
            if action is not None:
                self._last_line = ""
                return action
            self.say(w("not_possible", text=repr(text.strip())))

    def show_result(self, state: DokoState) -> None:
        w = self.words
        result = state.result()
        assert result is not None
        self.records.append(state.to_record())
        if "redeal" in result:
            self.say(w("redeal", why=result["redeal"]))
            return
        score = result["score"]
        augen = result["augen"]
        if augen is not None:
            self.say(
                w(
                    "result",
                    game=self.game_name(result["game_type"]),
                    re=self.words.seats(result["re"], self.seat),
                    re_augen=augen["re"],
                    kontra=self.words.seats(result["kontra"], self.seat),
                    kontra_augen=augen["kontra"],
                )
            )
        if "forfeit" in result:
            self.say(w("forfeit", name=self.name(result["forfeit"])))
        items = ", ".join(f"{i['name']} {i['points']:+}" for i in score["items"])
        if score["winner"]:
            party = str(score["winner"]).capitalize()
            line = w("wins", party=party, value=score["value"], items=items)
        else:
            line = w("nobody", value=score["value"], items=items)
        self.say(Text(line, style="bold"))

    def show_sheet(self) -> None:
        w = self.words
        table = Table(title=w("sheet"))
        table.add_column(w("game_col"))
        seats = self.series.rules.seats
        for s in range(seats):
            table.add_column(self.name(s), justify="right")
        for row in self.series.entries:
            label = str(row.number) if row.number is not None else w("redeal_row")
            table.add_row(label, *(f"{v:+}" for v in row.written))
        table.add_row(w("total"), *(f"{t:+}" for t in self.series.totals), style="bold")
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
    lang: Annotated[
        str | None, typer.Option(help="en or de (default: the locale's language, else en).")
    ] = None,
) -> None:
    """Play Doppelkopf in the terminal against computer seats."""
    language = pick_language(lang)
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
    words = Words(language, WORDS)
    console.print(words("intro", profile=profile, seats=players, seed=seed))
    console.print(words("legend"))
    console.print(words("choose"))
    game = TerminalGame(profile=profile, options=options, players=players, seed=seed, seat=seat,
                        console=console, deals=deals, lang=language)  # fmt: skip
    game.run()
    if save:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump(game.records, handle, ensure_ascii=False, indent=1)
