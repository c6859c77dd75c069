"""``stichwerk play cego``: a game of Cego in the terminal, one person against computer seats.

The screen shows the person's hand, the bidding as it happens, the trick on the table, each
deal's result and the running score sheet, in English or German (``--lang``; the locale
decides otherwise). Input is a number from the list of legal actions or the action itself
(``gut``, ``HK``, ``keep T22 T21``); ``q`` ends the game. It reads standard input line by line,
so it can be driven by a pipe.
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
from stichwerk.cego.profiles import DEFAULT_PROFILE, get_profile
from stichwerk.cego.record import new_deal
from stichwerk.cego.state import CegoState
from stichwerk.cli.common import Words, fail, pick_language
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


WORDS: dict[str, dict[str, str]] = {
    "en": {
        "intro": "Cego, {profile} rules, {seats} seats, seed {seed}. Type q to quit.",
        "legend": (
            "Cards: T1 to T22 are the trumps (T22 Gstieß, T21 Mund, T1 Geiß); C, S, H, D are"
            " clubs, spades, hearts, diamonds, with K king, Q queen, R knight, J jack and numbers"
            " for the low cards (Leere)."
        ),
        "auction_you": "Auction: you hold {level}",
        "auction_other": "Auction: {name} holds {level}",
        "contract_you": "You play {contract} ({explain}), value {value}",
        "contract_other": "{name} plays {contract} ({explain}), value {value}",
        "contract_all": "Everyone plays {contract}: {explain}",
        "laid_out": "Laid out: ",
        "won": "Result: {contract} won by {name}",
        "lost": "Result: {contract} lost by {name}",
        "won_you": "Result: you won the {contract}",
        "lost_you": "Result: you lost the {contract}",
        "lost_by": "Result: {contract}, lost by {names}",
        "split": "Result: {contract}, one game won and one lost",
        "points": "Card points: declarer {declarer}, defenders {defenders}",
        "points_each": "Card points: {list}",
        "faecher": "Fächer {faecher}, written {written}",
        "deal_col": "Deal",
        "phase.solo": "Solo round",
        "phase.gegensolo": "Gegensolo",
        "phase.special": "Piccolo and Bettel round",
        "phase.auction": "Auction",
        "phase.raeuber": "Räuber or play?",
        "phase.exchange": "The blind",
        "phase.play": "Your card",
        "act.fort": "fort (pass)",
        "act.gut": "gut (pass)",
        "act.selbst": "selbst (hold)",
        "act.spielen": "spielen (play the game)",
        "act.raeuber": "raeuber (Räuber: everyone for himself)",
        "act.aufdecken": "aufdecken (show the hands)",
        "act.gegensolo": "gegensolo (answer the Solo)",
        "act.keep": "keep",
        "act.press": "press",
        "act.lay-out": "lay-out",
        "act.withdraw": "withdraw",
        "hint.keep": "Keep the cards you name; the rest go to the blind.",
        "hint.press": "Press one card: it counts for you.",
        "explain.solo": "own hand, the blind untouched",
        "explain.ulti": "win the last trick with the Geiß",
        "explain.soli-ulti": "Solo and Ulti at once",
        "explain.piccolo": "exactly one trick",
        "explain.bettel": "no trick",
        "explain.cego": "keep two cards, take the blind, press one",
        "explain.halbe": "lay out one Leere, keep one card, take the blind",
        "explain.eine": "keep one card, take the blind",
        "explain.leere": "lay out one Leere, take the blind",
        "explain.zwei-leere": "lay out two Leere of one suit",
        "explain.zwei-verschiedene": "lay out two Leere of different suits",
        "explain.geiss": "lay out the Geiß and lead it",
        "explain.raeuber": "the most card points lose",
        "explain.drescher": "whoever takes the last trick loses",
        "explain.pflichtraeuber": "Vorhand's compulsory Räuber: the most card points lose",
    },
    "de": {
        "intro": "Cego, Regeln {profile}, {seats} Plätze, Startwert {seed}. Mit q beenden.",
        "legend": (
            "Karten: T1 bis T22 sind die Trümpfe (T22 Gstieß, T21 Mund, T1 Geiß); C, S, H, D sind"
            " Kreuz, Pik, Herz, Karo, mit K König, Q Dame, R Reiter, J Bube und Zahlen für die"
            " Leeren."
        ),
        "auction_you": "Steigern: du hältst {level}",
        "auction_other": "Steigern: {name} hält {level}",
        "contract_you": "Du spielst {contract} ({explain}), Wert {value}",
        "contract_other": "{name} spielt {contract} ({explain}), Wert {value}",
        "contract_all": "Alle spielen {contract}: {explain}",
        "laid_out": "Aufgelegt: ",
        "won": "Ergebnis: {name} gewinnt {contract}",
        "lost": "Ergebnis: {name} verliert {contract}",
        "won_you": "Ergebnis: Du gewinnst {contract}",
        "lost_you": "Ergebnis: Du verlierst {contract}",
        "lost_by": "Ergebnis: {contract}, es verlieren {names}",
        "split": "Ergebnis: {contract}, ein Spiel gewonnen und eines verloren",
        "points": "Kartenpunkte: Spieler {declarer}, Gegenspieler {defenders}",
        "points_each": "Kartenpunkte: {list}",
        "faecher": "Fächer {faecher}, geschrieben {written}",
        "deal_col": "Spiel",
        "phase.solo": "Solo-Runde",
        "phase.gegensolo": "Gegensolo",
        "phase.special": "Piccolo- und Bettel-Runde",
        "phase.auction": "Steigern",
        "phase.raeuber": "Räuber oder spielen?",
        "phase.exchange": "Der Blinde",
        "phase.play": "Deine Karte",
        "act.fort": "fort (passen)",
        "act.gut": "gut (aussteigen)",
        "act.selbst": "selbst (halten)",
        "act.spielen": "spielen",
        "act.raeuber": "raeuber (Räuber: jeder für sich)",
        "act.aufdecken": "aufdecken (Karten zeigen)",
        "act.gegensolo": "gegensolo (auf das Solo antworten)",
        "act.keep": "keep (behalten)",
        "act.press": "press (drücken)",
        "act.lay-out": "lay-out (auflegen)",
        "act.withdraw": "withdraw (zurücknehmen)",
        "hint.keep": "Behalte die genannten Karten; die übrigen kommen in den Blinden.",
        "hint.press": "Drücke eine Karte: sie zählt für dich.",
        "explain.solo": "das eigene Blatt, der Blinde bleibt liegen",
        "explain.ulti": "den letzten Stich mit der Geiß machen",
        "explain.soli-ulti": "Solo und Ulti zugleich",
        "explain.piccolo": "genau einen Stich machen",
        "explain.bettel": "keinen Stich machen",
        "explain.cego": "zwei Karten behalten, den Blinden nehmen, eine drücken",
        "explain.halbe": "eine Leere auflegen, eine Karte behalten, den Blinden nehmen",
        "explain.eine": "eine Karte behalten, den Blinden nehmen",
        "explain.leere": "eine Leere auflegen, den Blinden nehmen",
        "explain.zwei-leere": "zwei Leere einer Farbe auflegen",
        "explain.zwei-verschiedene": "zwei Leere verschiedener Farben auflegen",
        "explain.geiss": "die Geiß auflegen und ausspielen",
        "explain.raeuber": "die meisten Kartenpunkte verlieren",
        "explain.drescher": "wer den letzten Stich macht, verliert",
        "explain.pflichtraeuber": "Räuber der Vorhand, Pflicht: die meisten Kartenpunkte verlieren",
    },
}
"""The Cego terminal game's own words (the shared ones are in ``cli.common``)."""

CONTRACT_NAMES = {
    "solo": "Solo", "ulti": "Ulti", "soli-ulti": "Soli-Ulti", "piccolo": "Piccolo",
    "bettel": "Bettel", "cego": "Cego", "halbe": "Halbe", "eine": "Eine", "leere": "Leere",
    "zwei-leere": "Zwei Leere", "zwei-verschiedene": "Zwei Verschiedene", "geiss": "Geiß",
    "raeuber": "Räuber", "drescher": "Drescher", "pflichtraeuber": "Pflichträuber",
}  # fmt: skip
"""The contracts' own names, the same in both languages."""


def contract_name(code: str) -> str:
    """``zwei-leere`` → ``Zwei Leere``."""
    return CONTRACT_NAMES.get(code, code)


def describe(action: Action, words: Words | None = None) -> str:
    """An action as the terminal shows it: what to type (a card alone plays it), with a gloss
    where the word alone would puzzle a newcomer."""
    if action.act == "play":
        return str(action.card)
    if action.cards:
        return f"{action.act} {' '.join(action.cards)}"
    return action.act if words is None else words.get(f"act.{action.act}", action.act)


def parse_input(text: str, legal: list[Action]) -> Action | None:
    """The legal action the person meant by ``text``, or ``None``."""
    text = text.strip()
    if text.isdecimal():
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
        lang: str = "en",
    ) -> None:
        self.words = Words(lang, WORDS)
        self._last_line = ""
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
        return self.words.seat(seat, self.seat)

    def say(self, text: str | Text) -> None:
        """Print a line (remembered, so the hand is not shown twice in a row)."""
        self.console.print(text)
        self._last_line = str(text)

    def show_hand(self, hand: list[str]) -> None:
        """The person's hand, unless the line just printed shows it already."""
        line = Text(self.words("hand")).append_text(cards_text(hand))
        if str(line) != self._last_line:
            self.say(line)

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
        w = self.words
        if state.dealer == self.seat:
            self.console.rule(w("deal_you", n=number))
        else:
            self.console.rule(w("deal_other", n=number, name=self.name(state.dealer)))
        self._last_line = ""
        if state.seats == 5 and state.dealer == self.seat:
            self.say(w("sit_out"))
        else:
            self.show_hand(state.view(self.seat)["hand"])
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
                what = describe(
                    Action.from_json({k: v for k, v in shown.items() if k != "count"}), w
                )
                if "count" in shown:
                    what += f" ({shown['count']})"
                self.say(f"{self.name(seat)}: {what}")
            if before_phase != "play" and state.phase == "play":
                self.show_contract(state)
            if state.trick_no > tricks_shown and state.last_trick is not None:
                tricks_shown = state.trick_no
                trick, winner = state.last_trick
                line = Text(w("trick", n=tricks_shown))
                for s, card in trick:
                    line.append(f"{self.name(s)} ").append_text(card_text(C.CODES[card]))
                    line.append("  ")
                line.append(f"→ {self.name(winner)}", style="bold")
                self.say(line)
        self.show_result(state)
        return True

    def show_contract(self, state: CegoState) -> None:
        """The game about to be played: who plays what, and what that means."""
        w = self.words
        view = state.view(self.seat)
        contract = view["contract"]
        explain = w.get(f"explain.{contract}", "")
        if view["declarer"] is None:
            self.say(w("contract_all", contract=contract_name(contract), explain=explain))
        else:
            key = "contract_you" if view["declarer"] == self.seat else "contract_other"
            self.say(
                w(
                    key,
                    name=self.name(view["declarer"]),
                    contract=contract_name(contract),
                    explain=explain,
                    value=view["value"],
                )
            )
        if view["laid_out"]:
            self.say(Text(w("laid_out")).append_text(cards_text(view["laid_out"])))

    def ask(self, state: CegoState) -> Action | None:
        w = self.words
        view = state.view(self.seat)
        legal = state.legal_actions(self.seat)
        self.show_hand(view["hand"])
        if view["trick"]:
            line = Text(w("on_table"))
            for t in view["trick"]:
                line.append(f"{self.name(t['seat'])} ").append_text(card_text(t["card"]))
                line.append("  ")
            self.say(line)
        if view.get("auction"):
            holder = view["auction"]["holder"]
            level = contract_name(view["auction"]["level"])
            if holder == self.seat:
                self.say(w("auction_you", level=level))
            else:
                self.say(w("auction_other", name=self.name(holder), level=level))
        if len(legal) <= 12 or legal[0].act == "play":
            self.say("  ".join(f"[{i + 1}] {describe(a, w)}" for i, a in enumerate(legal)))
            hint = w.get(f"hint.{legal[0].act}", "")
            if hint and all(a.act == legal[0].act for a in legal):
                self.say(hint)
        else:
            example = f"{legal[0].act} {' '.join(legal[0].cards)}".strip()
            self.say(w("many", n=len(legal), example=example))
            hint = w.get(f"hint.{legal[0].act}", "")
            if hint:
                self.say(hint)
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

    def show_result(self, state: CegoState) -> None:
        w = self.words
        result = state.result()
        assert result is not None
        self.records.append(state.to_record())
        score = result["score"]
        declarer = result["declarer"]
        contract = contract_name(result["contract"])
        if "losers" in score:
            self.say(w("lost_by", contract=contract, names=self.seats_text(score["losers"])))
        elif score["winner"] in ("declarer", "defenders"):
            key = "won" if score["winner"] == "declarer" else "lost"
            key += "_you" if declarer == self.seat else ""
            self.say(w(key, contract=contract, name=self.name(declarer)))
        else:
            self.say(w("split", contract=contract))
        points = result["card_points"]
        if "declarer" in points:
            self.say(w("points", declarer=points["declarer"], defenders=points["defenders"]))
        else:
            each = ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(points["seats"]))
            self.say(w("points_each", list=each))
        if score.get("faecher"):
            self.say(w("faecher", faecher=score["faecher"], written=score["written"]))
        self.sheet.append(list(score["settlement"]))
        table = Table(title=w("sheet"))
        table.add_column(w("deal_col"))
        for s in range(state.seats):
            table.add_column(self.name(s), justify="right")
        totals = [0] * state.seats
        for i, row in enumerate(self.sheet):
            totals = [t + v for t, v in zip(totals, row, strict=True)]
            table.add_row(str(i + 1), *(f"{v:+d}" for v in row))
        table.add_row(w("total"), *(f"{t:+d}" for t in totals), style="bold")
        self.console.print(table)

    def seats_text(self, seats: list[int]) -> str:
        return self.words.seats(seats, self.seat)


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
    lang: Annotated[
        str | None, typer.Option(help="en or de (default: the locale's language, else en).")
    ] = None,
) -> None:
    """Play Cego in the terminal against computer seats."""
    language = pick_language(lang)
    options: dict[str, Any] = {}
    for item in option or []:
        name, _, raw = item.partition("=")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    try:
        rules = get_profile(profile, options)
    except StichwerkError as exc:
        fail(str(exc))
    seats = players or rules.players
    if seats not in rules.allowed_players:
        fail(f"a table of {seats} is not allowed under {profile} rules")
    if not 0 <= seat < seats:
        fail(f"--seat must be from 0 to {seats - 1}")
    seed = seed or secrets.token_hex(4)
    console = Console(highlight=False)
    words = Words(language, WORDS)
    console.print(words("intro", profile=profile, seats=seats, seed=seed))
    console.print(words("legend"))
    console.print(words("choose"))
    game = TerminalGame(
        profile=profile,
        players=seats,
        seed=seed,
        seat=seat,
        console=console,
        options=options,
        lang=language,
    )
    game.run(deals)
    if save:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump(game.records, handle, ensure_ascii=False, indent=1)
