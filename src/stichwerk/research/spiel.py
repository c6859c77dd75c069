"""Cego and Doppelkopf as OpenSpiel Python games: ``stichwerk_cego`` and ``stichwerk_doppelkopf``.

Importing this module registers both (``pyspiel.register_game``), so
``pyspiel.load_game("stichwerk_cego(profile=titisee,players=5)")`` works, as do OpenSpiel's
serialization, its tests and its bots. Parameters: ``profile`` (default: the game's first),
``players`` (seats at the table; 0: the profile's usual number) and ``dealer`` (-1: the last
seat, so that seat 0 is Vorhand).

- **Chance nodes** deal the cards one by one: first every hand, from Vorhand round the table,
  then (Cego) the blind. A chance outcome is a card index of the action table's card columns;
  Doppelkopf's two copies of a card are one outcome with twice the probability.
- **Decisions** use the indices of :mod:`stichwerk.research.actions` (multi-card actions one card
  at a time) and go through the validated engine.
- **Information state**: the string is the seat's whole view (JSON, sorted keys: every action
  as the seat saw it) plus its half-made choice, so it has perfect recall; the tensor is the
  observation tensor of :mod:`stichwerk.research.observation`. The observation string is the
  view without its history.
- **Returns**: the deal's settlement. Cego is zero-sum; Doppelkopf is general-sum (where only the
  winners write points, the losers' row is 0).
- ``resample_from_infostate`` deals the cards a seat has not seen anew, consistent with all it
  saw (:mod:`stichwerk.research.worlds`), so OpenSpiel's IS-MCTS bot can play.
"""

import json
import random
from typing import Any

import numpy as np

from stichwerk.cego.cards import REMOVED_FOR_THREE
from stichwerk.cego.profiles import get_profile as get_cego_profile
from stichwerk.cego.state import blind_size, hand_size
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.profiles import get_profile as get_doko_profile
from stichwerk.games import get_game
from stichwerk.research.actions import space_for
from stichwerk.research.extra import missing_extra
from stichwerk.research.observation import Encoder, encoder_for
from stichwerk.research.table import Table, check_table
from stichwerk.research.worlds import resample

try:
    import pyspiel
except ImportError as exc:
    raise missing_extra(exc, "stichwerk.research.spiel") from None

SHORT_NAMES = {"cego": "stichwerk_cego", "doppelkopf": "stichwerk_doppelkopf"}
MAX_GAME_LENGTH = {"cego": 250, "doppelkopf": 160}
"""Upper bounds on the decisions of one deal (bids, exchange picks, announcements, cards)."""


def utility_bound(game: str, profile: str, seats: int) -> float:
    """A bound on any seat's settlement in one deal (OpenSpiel wants the range up front).

    Cego: the largest amount one seat can owe another (a Berg at the top value after a
    Gegensolo and doubled as a Solo, a fixed game, Räuber, Drescher, Jungfrau), times the other
    seats, times the seats again for Aufdecken with several Schinder. Doppelkopf: a generous
    bound of the game value (every item, doubled by Re and Kontra, times the solo factor) times
    the other seats.
    """
    others = seats - 1
    if game == "cego":
        r = get_cego_profile(profile)
        top = len(r.ladder) + r.gegensolo_raise
        per_pair = max(
            top * max(r.berg, 8 * r.fach + r.round_to) * r.solo_win_factor,
            r.solo_value * max(r.berg, 8 * r.fach + r.round_to) * r.solo_win_factor + r.ulti_value,
            r.ulti_value,
            r.piccolo_value,
            r.bettel_value,
            r.raeuber_value * r.raeuber_announcer_factor + r.jungfrau,
            r.drescher_value,
        )
        return float(per_pair * others * seats)
    p = get_doko_profile(profile)
    return float(64 * 4 * max(1, p.solo_factor) * others)


def _game_type(game: str) -> pyspiel.GameType:
    module = get_game(game)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game],
        long_name=f"Stichwerk {module.name.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if game == "cego"
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=3 if game == "cego" else 4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"profile": module.profiles[0], "players": 0, "dealer": -1},
    )


class StichwerkGame(pyspiel.Game):  # type: ignore[misc]
    """One game of the registry as an OpenSpiel game (subclassed per game below)."""

    game_name = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> "StichwerkGame":
        # OpenSpiel clones a Python state by deep copy of its attributes; the game it points to
        # never changes, so every copy shares it (a copy of the game cost most of each clone).
        return self

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game_name
        params = dict(params or {})
        profile, seats = check_table(game, str(params.get("profile", "")) or None,
                                     int(params.get("players", 0)) or None)  # fmt: skip
        dealer = int(params.get("dealer", -1))
        if dealer == -1:
            dealer = seats - 1
        if not 0 <= dealer < seats:
            raise StichwerkError(f"dealer must be a seat from 0 to {seats - 1}, or -1")
        space = space_for(game)
        bound = utility_bound(game, profile, seats)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=len(space.cards),
            num_players=seats,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if game == "cego" else None,
            max_game_length=MAX_GAME_LENGTH[game],
        )
        super().__init__(
            _game_type(game), info, {"profile": profile, "players": seats, "dealer": dealer}
        )
        self.profile = profile
        self.seats = seats
        self.dealer = dealer
        self.space = space
        self.encoder: Encoder = encoder_for(game, seats)
        self.deal_order = self._deal_order()

    def _deal_order(self) -> list[tuple[int, int]]:
        """(seat, cards) per packet in dealing order; seat -1 is the blind."""
        seats, dealer = self.seats, self.dealer
        order = [(dealer + i) % seats for i in range(1, seats + 1)]
        if seats == 5:
            order.remove(dealer)
        if self.game_name == "cego":
            n = len(order)
            return [(s, hand_size(n)) for s in order] + [(-1, blind_size(n))]
        per_hand = 12 if get_doko_profile(self.profile).with_nines else 10
        return [(s, per_hand) for s in order]

    def deck(self) -> list[int]:
        """The card indices of the deck, a Doppelkopf code twice."""
        if self.game_name == "cego":
            removed = REMOVED_FOR_THREE if len(self.deal_order) == 4 else 0
            return [c for c in range(54) if not removed >> c & 1]
        total = sum(n for _, n in self.deal_order)
        codes = [c for c in range(24) for _ in range(2)]
        if total == 40:  # without nines
            codes = [c for c in codes if c % 6 != 5]
        return codes

    def new_initial_state(self) -> "StichwerkState":
        return StichwerkState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> "Observer":
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return Observer(self, perfect_recall=perfect_recall)


class CegoGame(StichwerkGame):
    game_name = "cego"


class DoppelkopfGame(StichwerkGame):
    game_name = "doppelkopf"


class StichwerkState(pyspiel.State):  # type: ignore[misc]
    """A deal: chance nodes while the cards are dealt, then the engine through a :class:`Table`."""

    def __init__(self, game: StichwerkGame) -> None:
        super().__init__(game)
        self.g = game
        self.deck = game.deck()
        self.dealt: list[list[int]] = [[] for _ in game.deal_order]
        self.table: Table | None = None

    # -- dealing

    def _packet(self) -> int:
        for k, (_, size) in enumerate(self.g.deal_order):
            if len(self.dealt[k]) < size:
                return k
        return -1

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts: dict[int, int] = {}
        for c in self.deck:
            counts[c] = counts.get(c, 0) + 1
        total = len(self.deck)
        return [(c, n / total) for c, n in sorted(counts.items())]

    def _deal_card(self, card: int) -> None:
        k = self._packet()
        self.deck.remove(card)
        self.dealt[k].append(card)
        if self._packet() < 0:
            self.table = Table(get_game(self.g.game_name).deal_from_record(self._record()))

    def _record(self) -> dict[str, Any]:
        codes = self.g.space.cards
        hands: list[list[str]] = [[] for _ in range(self.g.seats)]
        record: dict[str, Any] = {
            "game": self.g.game_name,
            "profile": self.g.profile,
            "options": {},
            "dealer": self.g.dealer,
            "actions": [],
        }
        for (seat, _), cards in zip(self.g.deal_order, self.dealt, strict=True):
            names = [codes[c] for c in cards]
            if seat < 0:
                record["blind"] = names
            else:
                hands[seat] = names
        record["hands"] = hands
        players = len([s for s, _ in self.g.deal_order if s >= 0])
        record["players"] = players
        if self.g.seats != players:
            record["seats"] = self.g.seats
        return record

    # -- the OpenSpiel state interface

    def current_player(self) -> int:
        table = self.table
        if table is None:
            return int(pyspiel.PlayerId.CHANCE)
        if table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = table.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        table = self.table
        if table is None or table.is_over or player != table.to_act:
            return []
        return table.legal()

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self._deal_card(int(action))
            return
        self.table.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.g.space.cards[action]}"
        return self.g.space.describe(action)

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.is_over

    def returns(self) -> list[float]:
        if self.table is None:
            return [0.0] * self.g.seats
        return self.table.settlement()

    def __str__(self) -> str:
        if self.table is None:
            return json.dumps({"dealing": self.dealt})
        record = self.table.state.to_record()
        return json.dumps({"record": record, "pending": list(self.table.pending)}, sort_keys=True)

    # -- views of one seat

    def seat_view(self, player: int) -> dict[str, Any] | None:
        """The seat's engine view, or ``None`` while the cards are being dealt."""
        return None if self.table is None else self.table.view(player)

    def pending_of(self, player: int) -> tuple[int, ...]:
        table = self.table
        if table is None or table.to_act != player:
            return ()
        return table.pending

    def own_cards_so_far(self, player: int) -> list[int]:
        for (seat, _), cards in zip(self.g.deal_order, self.dealt, strict=True):
            if seat == player:
                return list(cards)
        return []

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "Any":
        """A state the seat cannot tell from this one: the unseen cards dealt anew."""
        if self.table is None:
            raise StichwerkError("a deal is resampled once the cards are dealt")
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        record = resample(self.table.state, player_id, rng)
        clone = self.g.new_initial_state()
        codes = {c: i for i, c in enumerate(self.g.space.cards)}
        for (seat, _), _cards in zip(self.g.deal_order, self.dealt, strict=True):
            names = record["blind"] if seat < 0 else record["hands"][seat]
            for name in names:
                clone.apply_action(codes[name])
        assert clone.table is not None
        for raw in record["actions"]:
            for index in self.g.space.encode(Action.from_json(raw)):
                clone.apply_action(index)
        for index in self.table.pending:
            clone.apply_action(index)
        return clone


class Observer:
    """OpenSpiel's observer: tensors and strings of one seat, from its view only."""

    def __init__(self, game: StichwerkGame, *, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {
            f.name: self.tensor[f.start : f.start + f.size].reshape(f.shape)
            for f in game.encoder.fields
        }

    def set_from(self, state: StichwerkState, player: int) -> None:
        view = state.seat_view(player)
        if view is None:
            self.tensor.fill(0.0)
            hand = self.dict["hand"]
            for c in state.own_cards_so_far(player):
                hand[c] += 1.0 if self.game.game_name == "cego" else 0.5
            return
        self.tensor[:] = self.game.encoder.encode(view, state.pending_of(player))

    def string_from(self, state: StichwerkState, player: int) -> str:
        view = state.seat_view(player)
        if view is None:
            codes = self.game.space.cards
            return "dealing; seat holds " + " ".join(
                codes[c] for c in sorted(state.own_cards_so_far(player))
            )
        if not self.perfect_recall:
            view = {k: v for k, v in view.items() if k != "history"}
        pending = [self.game.space.describe(i) for i in state.pending_of(player)]
        return json.dumps({"view": view, "picked": pending}, sort_keys=True)


def _register() -> None:
    for game, cls in (("cego", CegoGame), ("doppelkopf", DoppelkopfGame)):
        if SHORT_NAMES[game] not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game), cls)


_register()


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of ``game`` (``cego`` or ``doppelkopf``) with ``params``."""
    if game not in SHORT_NAMES:
        raise StichwerkError(f"unknown game {game!r} (known: cego, doppelkopf)")
    return pyspiel.load_game(SHORT_NAMES[game], params)
