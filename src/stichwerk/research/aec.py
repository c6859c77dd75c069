"""The PettingZoo AEC environment: every seat an agent, one deal an episode.

Agents are ``seat_0`` .. ``seat_{n-1}``. Each observation is a dict of ``observation`` (the
seat's view encoded by :mod:`stichwerk.research.observation`) and ``action_mask`` (1 for every
index of :mod:`stichwerk.research.actions` the seat may take now; all 0 when it is not its turn).
The rewards are the deal's settlement, given when the deal ends (``reward="relative"``: each
seat's settlement less the mean of the seats dealt in, as the arena scores; it matters where only
the winners write points, as in Doppelkopf ``wielandstrasse``). Deal ``k`` after
``reset(seed=S)`` is shuffled from the seed ``"S-k"`` and dealt by seat ``k mod n`` unless a
fixed ``dealer`` is given, so a seed replays the same deals, bit for bit. At a 5-table the dealer
sits out: that agent never acts but still gets its settlement.
"""

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from stichwerk.core.errors import StichwerkError
from stichwerk.research.extra import missing_extra
from stichwerk.research.observation import encoder_for
from stichwerk.research.table import Table, check_reward, check_table

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:
    raise missing_extra(exc, "stichwerk.research.aec") from None

ObsDict = dict[str, np.ndarray[Any, Any]]


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class StichwerkEnv(AECEnv):  # type: ignore[misc]
    """A Cego or Doppelkopf table for PettingZoo (use :func:`stichwerk.research.env`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "stichwerk_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "cego",
        *,
        profile: str | None = None,
        players: int | None = None,
        seed: int | str | None = None,
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "settlement",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.reward_mode = check_reward(reward)
        self.profile, self.n_seats = check_table(game, profile, players)
        if dealer is not None and not 0 <= dealer < self.n_seats:
            raise StichwerkError(f"dealer must be a seat from 0 to {self.n_seats - 1}")
        if render_mode not in (None, "ansi"):
            raise StichwerkError(f"unknown render mode {render_mode!r} (known: ansi)")
        self.game = game
        self.options = dict(options or {})
        self.fixed_dealer = dealer
        self.render_mode = render_mode
        self.encoder = encoder_for(game, self.n_seats)
        n_actions = self.encoder.space.size
        self.possible_agents = [agent_name(s) for s in range(self.n_seats)]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(n_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seed: str = "0" if seed is None else str(seed)
        self._deal_no = 0
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the next deal (the first of ``seed``'s series when a seed is given).

        ``options`` may hold ``dealer`` (a seat) for this deal; other keys are ignored."""
        if seed is not None:
            self._seed = str(seed)
            self._deal_no = 0
        dealer = self.fixed_dealer
        if options and "dealer" in options:
            dealer = options["dealer"]
            if not isinstance(dealer, int) or not 0 <= dealer < self.n_seats:
                raise StichwerkError(f"dealer must be a seat from 0 to {self.n_seats - 1}")
        if dealer is None:
            dealer = self._deal_no % self.n_seats
        self.table = Table.deal(
            self.game,
            profile=self.profile,
            seats=self.n_seats,
            dealer=dealer,
            seed=f"{self._seed}-{self._deal_no}",
            options=self.options,
        )
        self._deal_no += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        to_act = self.table.to_act
        assert to_act is not None
        self.agent_selection = agent_name(to_act)

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation: built from its own view only."""
        table = self._table()
        seat = self._seat(agent)
        mask = np.zeros(self.encoder.space.size, dtype=np.int8)
        pending: tuple[int, ...] = ()
        if seat == table.to_act:
            mask[table.legal()] = 1
            pending = table.pending
        return {"observation": self.encoder.encode(table.view(seat), pending), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action`` (an index of the action table)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise StichwerkError(f"{agent} must act: None is only for agents whose deal is over")
        table = self._table()
        table.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        if table.is_over:
            rewards = table.rewards(self.reward_mode)
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = rewards[seat]
                self.terminations[name] = True
        else:
            to_act = table.to_act
            assert to_act is not None
            self.agent_selection = agent_name(to_act)
        self._accumulate_rewards()

    def _table(self) -> Table:
        if self.table is None:
            raise StichwerkError("call reset() before using the environment")
        return self.table

    def render(self) -> str | None:
        """The seat to act's view as text: phase, trick, hand and the legal actions."""
        if self.render_mode is None:
            return None
        table = self._table()
        seat = table.to_act
        view = table.view(seat)
        space = self.encoder.space
        lines = [
            f"{self.game} {self.profile}: deal {self._deal_no - 1}, phase {view['phase']}",
            f"trick: {' '.join(t['card'] for t in view['trick']) or '-'}",
        ]
        if seat is not None:
            lines.append(f"seat {seat} holds: {' '.join(view['hand'] or [])}")
            legal = ", ".join(f"{i} {space.describe(i)}" for i in table.legal())
            lines.append(f"legal: {legal}")
        else:
            lines.append(f"settlement: {table.settlement()}")
        return "\n".join(lines)

    def close(self) -> None:
        self.table = None


def env(
    game: str = "cego",
    *,
    profile: str | None = None,
    players: int | None = None,
    seed: int | str | None = None,
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
    reward: str = "settlement",
    render_mode: str | None = None,
) -> AECEnv:
    """A PettingZoo AEC environment of ``game`` (wrapped to enforce the call order)."""
    raw = StichwerkEnv(
        game,
        profile=profile,
        players=players,
        seed=seed,
        dealer=dealer,
        options=options,
        reward=reward,
        render_mode=render_mode,
    )
    return wrappers.OrderEnforcingWrapper(raw)
