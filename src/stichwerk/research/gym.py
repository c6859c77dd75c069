"""A Gymnasium single-agent environment: one seat learns, the project's bots hold the others.

Observations and actions are those of the PettingZoo environment (``observation`` and
``action_mask`` in a dict; the mask is also in ``info``). After the learner's action the bots
(``stichwerk.bots``: ``random``, ``heuristic``, ``search``) play until it is the learner's turn
again or the deal is over; the reward is the learner's settlement, given at the end (or, with
``reward="relative"``, its settlement less the mean of the seats dealt in). A deal in
which the learner never acts (it deals and sits out at a 5-table, or another seat's claim ends
the deal at once) teaches nothing and is skipped: ``info["skipped"]`` counts such deals.
"""

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from stichwerk.bots.base import Bot, make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.errors import StichwerkError
from stichwerk.research.extra import missing_extra
from stichwerk.research.observation import encoder_for
from stichwerk.research.table import Table, check_reward, check_table

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:
    raise missing_extra(exc, "stichwerk.research.gym") from None

Obs = dict[str, Any]
"""``observation`` (float32 vector) and ``action_mask`` (int8 vector)."""


class SeatEnv(gymnasium.Env[Obs, Any]):
    """Seat ``seat`` against bots; deal ``k`` after ``reset(seed=S)`` is shuffled from ``"S-k"``."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's own field)

    def __init__(
        self,
        game: str = "cego",
        *,
        profile: str | None = None,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        seed: int | str | None = None,
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        bot_params: Mapping[str, Mapping[str, Any]] | None = None,
        reward: str = "settlement",
    ) -> None:
        self.game = game
        self.reward_mode = check_reward(reward)
        self.profile, self.n_seats = check_table(game, profile, players)
        if not 0 <= seat < self.n_seats:
            raise StichwerkError(f"seat must be from 0 to {self.n_seats - 1}")
        if dealer is not None and not 0 <= dealer < self.n_seats:
            raise StichwerkError(f"dealer must be a seat from 0 to {self.n_seats - 1}")
        names = [opponents] * self.n_seats if isinstance(opponents, str) else list(opponents)
        if not isinstance(opponents, str):
            if len(names) != self.n_seats - 1:
                raise StichwerkError(f"name {self.n_seats - 1} opponents, one per other seat")
            names.insert(seat, "")
        self.seat = seat
        self.opponents = names
        self.bot_params = {k: dict(v) for k, v in (bot_params or {}).items()}
        for s, name in enumerate(names):
            if s != seat:
                make_bot(name, game, 0, **self.bot_params.get(name, {}))
        if any(name.startswith("search") for name in names):
            ensure_kernels()  # the learner meets the search on its kernels, from the first deal
        self.options = dict(options or {})
        self.fixed_dealer = dealer
        self.encoder = encoder_for(game, self.n_seats)
        n_actions = self.encoder.space.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(n_actions)
        self._seed = "0" if seed is None else str(seed)
        self._deal_no = 0
        self.table: Table | None = None
        self._bots: list[Bot | None] = []

    def _deal(self) -> Table:
        k = self._deal_no
        self._deal_no += 1
        dealer = self.fixed_dealer if self.fixed_dealer is not None else k % self.n_seats
        seed = f"{self._seed}-{k}"
        self._bots = [
            None
            if s == self.seat
            else make_bot(name, self.game, f"{seed}-{s}", **self.bot_params.get(name, {}))
            for s, name in enumerate(self.opponents)
        ]
        return Table.deal(
            self.game,
            profile=self.profile,
            seats=self.n_seats,
            dealer=dealer,
            seed=seed,
            options=self.options,
        )

    def _bots_play(self, table: Table) -> None:
        while not table.is_over and table.to_act != self.seat:
            seat = table.to_act
            assert seat is not None
            bot = self._bots[seat]
            assert bot is not None
            table.apply(bot.act(table.view(seat)))

    def _observe(self, table: Table) -> tuple[Obs, dict[str, Any]]:
        mask = np.zeros(self.encoder.space.size, dtype=np.int8)
        pending: tuple[int, ...] = ()
        if table.to_act == self.seat:
            mask[table.legal()] = 1
            pending = table.pending
        obs = {
            "observation": self.encoder.encode(table.view(self.seat), pending),
            "action_mask": mask,
        }
        return obs, {"action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """The next deal, played by the bots up to the learner's first turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed = str(seed)
            self._deal_no = 0
        skipped = 0
        while True:
            table = self._deal()
            self._bots_play(table)
            if not table.is_over:
                break
            skipped += 1
            if skipped > 100 * self.n_seats:
                raise StichwerkError("the learner's seat never gets to act at this table")
        self.table = table
        obs, info = self._observe(table)
        info["skipped"] = skipped
        return obs, info

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner takes ``action``; the bots answer until its next turn or the end."""
        table = self.table
        if table is None or table.is_over:
            raise StichwerkError("call reset() first: the deal is over")
        table.step(int(action))
        self._bots_play(table)
        obs, info = self._observe(table)
        reward = table.rewards(self.reward_mode)[self.seat] if table.is_over else 0.0
        return obs, reward, table.is_over, False, info
