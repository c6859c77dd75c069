"""The table actor: one asyncio task per table owns its game state and is its only writer.

Everything that can change a table (a person's action, a bot's decision, someone connecting or
leaving, a timer) becomes a command in the actor's inbox and is handled one at a time, so there
are no locks and the order of events is the order of the log. For an action the actor

1. checks it against a clone of the state (the engine's ``apply`` names the rule it breaks),
2. appends the canonical action to the event log and waits until it is committed,
3. only then adopts the new state and sends every connection a frame built from
   ``state.view(seat)`` of that connection's seat (``None`` for spectators).

So a refused action changes nothing, an acknowledged one is on disk, and what a seat sees is
exactly what the engine's view gives that seat — the actor never serialises the state itself.
Someone connecting or leaving changes only who is present: the newcomer gets the state, everyone
else a small ``presence`` frame (seats' connections, stand-in bots, how many watch), at most one
a second per table, so a churning audience cannot flood the players with state frames.
A human seat whose person has been away longer than the table's time limit is played by the
table's stand-in bot until the person returns, as long as somebody (a player or a spectator) is
at the table: a table nobody attends waits at a person's turn instead of playing itself out,
and its actor, with nothing to do, is released by the hub and recovered from the log when
someone comes back. A table stopped by its creator or the operator plays no more.

A seat held by a *bot account* is played by a program over the bot websocket: the bot
protocol's side of the table (what it is sent, which answer is taken, a lost turn) is
``server/table_bots.py``; the frames a browser gets are built by ``server/table_frames.py``
from what the actor holds. An answer that is late (past ``bot_time_limit``), garbled or illegal
loses that turn to the seat's stand-in bot; the table never waits longer.
"""

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from stichwerk.bots.external import chosen_action
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction, StichwerkError
from stichwerk.core.state import GameState
from stichwerk.games import get_game
from stichwerk.server import table_frames as frames
from stichwerk.server.bots import BotRunner
from stichwerk.server.events import DealEvents, DealFinished
from stichwerk.server.protocol import Act, error_frame, frame
from stichwerk.server.series import TableSeries
from stichwerk.server.table_bots import BotTurns, hello
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.repo import DealInfo, NewEvent, Repo, TableInfo, new_public_id

log = logging.getLogger("stichwerk.table")

MAX_OUTBOX = 200
"""Frames queued for one connection before it is dropped as too slow (it can reconnect)."""
DEFAULT_STAND_IN = "random"
ACTIONS_PER_DEAL = 1000
"""Versions are ``deal number * 1000 + actions``: the same state has the same version after a
restart, so a client's stale action is still recognised as stale."""
PRESENCE_EVERY = 1.0
"""Seconds between two presence frames of a table (changes in between are sent together)."""

_conn_ids = itertools.count(1)


class Conn:
    """One websocket connection as the actor sees it: who it is and an outbox.

    The actor only ever puts frames into the outbox; a writer task per connection sends them, so
    a slow client never holds up a table. ``None`` in the outbox asks the writer to close.
    """

    def __init__(
        self,
        user_id: int | None,
        username: str | None,
        seat: int | None,
        session: str | None = None,
    ) -> None:
        self.id = next(_conn_ids)
        self.user_id = user_id
        self.session = session
        """The id of the login this connection came with (checked on every message)."""
        self.username = username
        self.seat = seat
        self.bot = False
        """A bot account's connection: it speaks the bot protocol, not the browser's."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000

    def send(self, text: str) -> None:
        """Queue a frame; drop the connection if it has fallen too far behind."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.close(1013)
            return
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Ask the writer to close the socket after what is queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.outbox.put_nowait(None)


@dataclass
class Join:
    conn: Conn


@dataclass
class Leave:
    conn: Conn


@dataclass
class ActCommand:
    conn: Conn
    message: Act


@dataclass
class NextCommand:
    conn: Conn


@dataclass
class SyncCommand:
    conn: Conn


@dataclass
class Refresh:
    """The table's row changed (someone took a seat)."""


@dataclass
class Stopped:
    """The table was stopped (its row says so already): no bot moves any more; ``done`` is
    set once the actor has taken it in."""

    done: asyncio.Future[None] | None = None


@dataclass
class EditClosing:
    """The table's creator puts new closing rounds in place of those still to come; ``done``
    gets the stored table, or the ``StichwerkError`` that says why not."""

    rounds: tuple[str, ...]
    done: asyncio.Future[TableInfo]


@dataclass
class BotAnswer:
    """A bot account's message about a decision: an ``action`` answering request ``rid``, or
    ``why`` its message was not one (garbage costs the pending turn)."""

    conn: Conn
    rid: int | None
    action: dict[str, Any] | None
    why: str | None = None


@dataclass
class BotTimeout:
    """A bot account's time for request ``rid`` is over."""

    version: int
    rid: int


@dataclass
class BotMove:
    version: int
    seat: int
    action: Action | None
    error: str | None = None


@dataclass
class Wake:
    """A timer ran out: check away seats and the pause between deals."""


@dataclass
class NewDeal:
    """Internal: deal the next deal of the series, if it is still due."""


@dataclass
class PresenceDue:
    """Internal: the pause between presence frames is over; send what changed."""


Command = (
    Join
    | Leave
    | ActCommand
    | NextCommand
    | SyncCommand
    | Refresh
    | Stopped
    | EditClosing
    | BotMove
    | BotAnswer
    | BotTimeout
    | Wake
    | NewDeal
    | PresenceDue
)


@dataclass(frozen=True)
class ActorContext:
    """What every actor shares."""

    repo: Repo
    writer: EventWriter
    bots: BotRunner
    bot_delay: float
    on_idle: Callable[[str], None]
    deal_events: DealEvents = field(default_factory=DealEvents)
    """Told of every deal whose result is stored (the ratings, the tournaments listen)."""
    bot_time_limit: float = 5.0
    """Seconds a bot account has for a decision before its stand-in plays the turn."""
    deal_seed: str | None = None
    """``Settings.deal_seed``: ``None`` shuffles every deal from the secure random source."""


class TableActor:
    """Owns one table: its series, the deal in progress and the connections watching it."""

    def __init__(self, info: TableInfo, ctx: ActorContext) -> None:
        self.info = info
        self.ctx = ctx
        self.series = TableSeries(
            info.game,
            info.profile,
            info.options,
            info.seats,
            info.series_length,
            info.closing_rounds,
            info.first_dealer,
            info.list_rules,
        )
        self.state: GameState | None = None
        self.deal_id: int | None = None
        self.deal_public_id: str | None = None
        """The deal's id in frames (random); ``deal_id`` never leaves the server."""
        self.deal_number = -1
        self.deal_dealer = 0
        self.deal_finished_at: float | None = None
        self.version = 0
        self.seated: dict[int, set[Conn]] = {s: set() for s in range(info.seats)}
        self.spectators: set[Conn] = set()
        now = time.monotonic()
        self.away_since: dict[int, float] = {
            s.seat: now for s in info.seat_list if s.kind == "human"
        }
        self.ready: set[int] = set()
        self._bot_pending: int | None = None
        self._turns = BotTurns(ctx.bot_time_limit)
        """The bot accounts' open request and lost turns (the bot protocol)."""
        self._deal_pending = False
        self._inbox: asyncio.Queue[Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._bot_tasks: set[asyncio.Task[None]] = set()
        self._presence_sent = ""
        self._presence_at = -PRESENCE_EVERY
        self._presence_pending = False
        self.booted = asyncio.Event()
        self.failed = False
        """Recovery failed: the table cannot be served (the log says why)."""
        self.released = False
        """The hub let go of this actor (idle): a connection that still reaches it is closed
        with 1012 and comes back to a new actor recovered from the log."""
        self.last_used = time.monotonic()
        """When the hub last handed the actor out (a connection on its way is not idle)."""

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the actor's task (it first recovers the table from the database)."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.info.id}")

    async def stop(self) -> None:
        """Stop handling commands and close every connection."""
        for timer in self._timers:
            timer.cancel()
        for task in list(self._bot_tasks):
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for conn in [*self.spectators, *itertools.chain(*self.seated.values())]:
            conn.close(1012)
        self.ctx.bots.release(f"{self.info.id}:")

    def post(self, command: Command) -> None:
        """Put a command into the inbox (from any task on the loop)."""
        if self.released:
            # Nobody reads this inbox any more: a newcomer tries again and meets a new actor.
            if isinstance(command, Join):
                command.conn.close(1012)
            elif isinstance(command, Stopped) and command.done and not command.done.done():
                command.done.set_result(None)
            elif isinstance(command, EditClosing) and not command.done.done():
                command.done.set_exception(StichwerkError("the table was put away; try again"))
            return
        self._inbox.put_nowait(command)

    def idle(self) -> bool:
        """Whether the actor has nothing to do and nobody to serve: no connection, no command
        waiting, no bot thinking, and no move the server would make by itself (the table waits
        for people, is over or stopped, or waits at a person's turn with nobody there)."""
        if not self.booted.is_set() or self.failed or self.connections:
            return False
        if not self._inbox.empty() or self._bot_tasks or self._deal_pending or self._turns.asked:
            return False
        if self.info.status != "playing":
            return True
        state = self.state
        if state is None or state.is_over:
            return self.series.is_over
        seat = state.to_act
        return seat is None or (
            not self.bot_controls(seat) and self._turns.fallback_for != self.version
        )

    @property
    def connections(self) -> int:
        """Open connections, seated or watching."""
        return len(self.spectators) + sum(len(c) for c in self.seated.values())

    async def _run(self) -> None:
        try:
            await self._recover()
        except Exception:
            log.exception("table %s: recovery failed", self.info.id)
            self.failed = True
            return
        finally:
            self.booted.set()
        self._schedule()
        while True:
            command = await self._inbox.get()
            try:
                await self._handle(command)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: command %s failed", self.info.id, type(command).__name__)
                conn = getattr(command, "conn", None)
                if isinstance(conn, Conn):
                    conn.send(error_frame("internal", "the server could not do that; try again"))
            self._schedule()

    async def _recover(self) -> None:
        """Rebuild the series and the deal in progress from the log (after a restart, too).

        Every stored action is replayed through the engine; a deal whose last action was
        stored but whose result was not (a crash in between) is finished now.
        """
        deals = await asyncio.to_thread(
            self.ctx.repo.deals_of_table, self.info.id, with_events=True
        )
        for index, deal in enumerate(deals):
            last = index == len(deals) - 1
            if deal.status == "finished" and deal.result is not None:
                self.series.add(deal.number, deal.result)
                if last:
                    # Show the end of the last deal until the next one starts.
                    self._replay(deal)
                    self.deal_finished_at = time.monotonic()
                continue
            self._replay(deal)
            if self.state is not None and self.state.is_over:
                await self._finish_deal(self.state)

    def _replay(self, deal: DealInfo) -> None:
        module = get_game(self.info.game)
        state = module.deal_from_record({**deal.record, "actions": []})
        for raw in deal.actions:
            state.apply(Action.from_json(raw))
        self.state = state
        self.deal_id = deal.id
        self.deal_public_id = deal.public_id
        self.deal_number = deal.number
        self.deal_dealer = int(deal.record.get("dealer", 0))
        self.version = self.deal_number * ACTIONS_PER_DEAL + len(deal.actions) + 1

    # -- commands -----------------------------------------------------------------------------

    async def _handle(self, command: Command) -> None:
        match command:
            case Join(conn):
                await self._join(conn)
            case Leave(conn):
                self._leave(conn)
            case ActCommand(conn, message):
                await self._act(conn, message)
            case NextCommand(conn):
                self._next(conn)
            case SyncCommand(conn):
                conn.send(frames.state_frame(self, conn.seat))
            case Refresh():
                await self._refresh()
            case Stopped(done):
                self._stopped()
                if done is not None and not done.done():
                    done.set_result(None)
            case EditClosing(rounds, done):
                try:
                    changed = await self._edit_closing(rounds)
                except Exception as exc:
                    if not done.done():  # the request may have given up waiting
                        done.set_exception(exc)
                else:
                    if not done.done():
                        done.set_result(changed)
            case BotMove(version, seat, action, error):
                await self._bot_move(version, seat, action, error)
            case BotAnswer(conn, rid, action, why):
                await self._bot_answer(conn, rid, action, why)
            case BotTimeout(version, rid):
                asked = self._turns.asked
                if asked is not None and asked.version == version and asked.rid == rid:
                    self._turns.lose_turn(
                        self.info, self._bot_name, f"no answer within {self.ctx.bot_time_limit:g} s"
                    )
            case Wake():
                # An away seat's time ran out: its stand-in bot takes over (who plays it is
                # presence; the bot's move brings the state).
                self._presence_changed()
            case PresenceDue():
                self._presence_pending = False
                self._presence_changed()
            case NewDeal():
                self._deal_pending = False
                if self._deal_due():
                    await self._new_deal()
                    self._broadcast()

    async def _join(self, conn: Conn) -> None:
        if conn.bot and conn.seat is not None:
            olds = [c for c in self.seated[conn.seat] if c.bot]
            self.seated[conn.seat].add(conn)
            self.away_since.pop(conn.seat, None)
            for old in olds:
                # A bot's new connection takes the seat over (the old one may be half dead).
                old.send(frame("error", message="another connection of this bot took the seat"))
                old.close(4002)
                self._leave(old)
            if self.state is not None and not self.state.is_over:
                conn.send(self._hello(conn.seat))
            self._presence_changed()
            return
        if conn.seat is None:
            self.spectators.add(conn)
        else:
            self.seated[conn.seat].add(conn)
            self.away_since.pop(conn.seat, None)
        conn.send(frames.welcome(self.info, conn.seat, conn.username))
        conn.send(frames.state_frame(self, conn.seat))
        self._presence_changed()

    def _leave(self, conn: Conn) -> None:
        if self._turns.asked is not None and self._turns.asked.conn is conn:
            self._turns.asked = None  # the seat is away now: its stand-in plays after the limit
        self.spectators.discard(conn)
        if conn.seat is not None:
            self.seated[conn.seat].discard(conn)
            if not self.seated[conn.seat] and self._is_human(conn.seat):
                self.away_since[conn.seat] = time.monotonic()
                self._wake_in(self.info.time_limit)
        self._presence_changed()
        if self.connections == 0:
            self.ctx.on_idle(self.info.id)

    async def _act(self, conn: Conn, message: Act) -> None:
        if conn.seat is None:
            conn.send(error_frame("spectator", "spectators cannot play"))
            return
        state = self.state
        if state is None or state.is_over:
            conn.send(error_frame("no-deal", "no deal is in progress"))
            return
        if message.version != self.version:
            conn.send(error_frame("stale", "the table has moved on; here is the current state"))
            conn.send(frames.state_frame(self, conn.seat))
            return
        body = message.action
        action = Action(conn.seat, body.act, body.card, tuple(body.cards), body.type)
        await self._commit(action, by_bot=False, conn=conn)

    async def _commit(self, action: Action, *, by_bot: bool, conn: Conn | None) -> bool:
        """Verify, log, then apply and broadcast. Returns whether the action was taken."""
        state = self.state
        assert state is not None and self.deal_id is not None
        if self.info.status != "playing":
            if conn is not None:
                conn.send(error_frame("stopped", "the table was stopped; it plays no more"))
            return False
        trial = state.clone()
        try:
            canonical = trial.apply(action)
        except IllegalAction as exc:
            if conn is not None:
                conn.send(error_frame("illegal", str(exc)))
            return False
        except StichwerkError as exc:
            if conn is not None:
                conn.send(error_frame("invalid", str(exc)))
            return False
        seq = self.version - self.deal_number * ACTIONS_PER_DEAL - 1
        try:
            await self.ctx.writer.append(
                NewEvent(self.deal_id, seq, canonical.seat, canonical.to_json(), by_bot)
            )
        except Exception:
            log.exception("table %s: could not store an action", self.info.id)
            if conn is not None:
                conn.send(error_frame("storage", "the action could not be saved; try again"))
            return False
        self.state = trial
        self.version += 1
        if trial.is_over:
            await self._finish_deal(trial)
        self._broadcast()
        return True

    async def _finish_deal(self, state: GameState) -> None:
        result = state.result() or {}
        counts = self.series.add(self.deal_number, result)
        assert self.deal_id is not None
        await asyncio.to_thread(self.ctx.repo.finish_deal, self.deal_id, result, counts)
        self.ctx.bots.release(f"{self.info.id}:{self.deal_number}:")
        self.deal_finished_at = time.monotonic()
        self.ready.clear()
        over = self.series.is_over
        if over:
            await self._close_table()
        else:
            self._wake_in(self.info.time_limit)
        # Stored (and the table too, if its list is over): now the listeners may read it.
        self.ctx.deal_events.publish(DealFinished(self.info, self.deal_number, over))

    async def _close_table(self) -> None:
        """The list is over: the table is finished, in the database and here."""
        await asyncio.to_thread(self.ctx.repo.set_table_status, self.info.id, "finished")
        self.info = _with_status(self.info, "finished")
        for conn in self._bot_conns():
            conn.send(frame("bye"))
            conn.close(1000)

    def _stopped(self) -> None:
        """The table was stopped: bots stop thinking, bot accounts are sent away, everyone
        gets the last state (status ``stopped``)."""
        self.info = _with_status(self.info, "stopped")
        for task in list(self._bot_tasks):
            task.cancel()
        self._bot_pending = None
        self._turns.asked = None
        self.ctx.bots.release(f"{self.info.id}:")
        for conn in self._bot_conns():
            conn.send(frame("bye"))
            conn.close(1000)
        self._broadcast()

    def _next(self, conn: Conn) -> None:
        if conn.seat is None or self.state is None or not self.state.is_over:
            conn.send(error_frame("no-next", "there is no finished deal to move on from"))
            return
        self.ready.add(conn.seat)
        self._broadcast()

    async def _refresh(self) -> None:
        info = await asyncio.to_thread(self.ctx.repo.table, self.info.id)
        if info is None:
            return
        self.info = info
        for conn in list(self.spectators):
            seat = info.seat_of(conn.user_id) if conn.user_id is not None else None
            if seat is not None:
                self.spectators.discard(conn)
                conn.seat = seat
                self.seated[seat].add(conn)
                self.away_since.pop(seat, None)
                conn.send(frames.welcome(self.info, conn.seat, conn.username))
        if info.status == "open" and not info.free_seats:
            await asyncio.to_thread(self.ctx.repo.set_table_status, info.id, "playing")
            self.info = _with_status(info, "playing")
            await self._new_deal()
        self._broadcast()

    async def _edit_closing(self, rounds: tuple[str, ...]) -> TableInfo:
        if self.info.status == "finished":
            raise StichwerkError("the list is over: no round can be added")
        dealing = self.state is not None and not self.state.is_over
        before = self.info.closing_rounds
        self.series.change_closing(rounds, dealing=dealing)
        try:
            info = await asyncio.to_thread(self.ctx.repo.set_closing_rounds, self.info.id, rounds)
        except Exception:
            # Not stored: back to the list as it was (its begun rounds are these rounds too).
            self.series.change_closing(before, dealing=dealing)
            raise
        self.info = _with_status(info, self.info.status)
        if self.series.is_over and not dealing and self.info.status == "playing":
            # The rounds still to come were taken off: the list ends with the last deal.
            await self._close_table()
        self._broadcast()
        return self.info

    async def _bot_move(
        self, version: int, seat: int, action: Action | None, error: str | None
    ) -> None:
        self._bot_pending = None
        state = self.state
        if version != self.version or state is None or state.is_over or state.to_act != seat:
            return
        if self.info.status != "playing":
            return
        if not self.bot_controls(seat) and self._turns.fallback_for != version:
            return
        if action is None or not await self._commit(action, by_bot=True, conn=None):
            log.error("table %s: bot for seat %d failed (%s)", self.info.id, seat, error)
            legal = state.legal_actions(seat)
            if legal:
                await self._commit(legal[0], by_bot=True, conn=None)

    # -- deals --------------------------------------------------------------------------------

    def _deal_seed(self) -> int | str:
        """A secure random seed, or the test's fixed one with the deal's number."""
        if self.ctx.deal_seed is None:
            return secrets.randbits(63)
        return f"{self.ctx.deal_seed}:{self.deal_number + 1}"

    async def _new_deal(self) -> None:
        args = self.series.deal_args()
        module = get_game(self.info.game)
        state = module.new_deal(
            profile=self.info.profile,
            options=self.info.options,
            seed=self._deal_seed(),
            **args,
        )
        record = {k: v for k, v in state.to_record().items() if k not in ("actions", "result")}
        number = self.deal_number + 1
        public_id = new_public_id()
        deal_id = await asyncio.to_thread(
            self.ctx.repo.create_deal, self.info.id, number, record, public_id
        )
        self.state = state
        self.deal_id = deal_id
        self.deal_public_id = public_id
        self.deal_number = number
        self.deal_dealer = int(args["dealer"])
        self.deal_finished_at = None
        self.ready.clear()
        self.version = number * ACTIONS_PER_DEAL + 1
        for conn in self._bot_conns():
            if conn.seat is not None:
                conn.send(self._hello(conn.seat))

    def _deal_due(self) -> bool:
        """Whether the next deal should start: the table plays, no deal is running, the series
        goes on, and every person present is ready (or the pause has lasted the time limit)."""
        if self.info.status != "playing" or self.series.is_over:
            return False
        if self.state is not None and not self.state.is_over:
            return False
        finished = self.deal_finished_at
        if finished is not None and time.monotonic() - finished >= self.info.time_limit:
            return True
        present = {
            s
            for s, conns in self.seated.items()
            if conns and self._is_human(s) and not self.info.seat_list[s].bot_account
        }
        return present <= self.ready

    # -- who plays a seat ---------------------------------------------------------------------

    def _is_human(self, seat: int) -> bool:
        return self.info.seat_list[seat].kind == "human"

    def bot_controls(self, seat: int) -> bool:
        """Bot seats, and human seats whose person has been away past the time limit while
        somebody attends the table (nobody there: the table waits for its people)."""
        if not self._is_human(seat):
            return True
        since = self.away_since.get(seat)
        return (
            since is not None
            and time.monotonic() - since >= self.info.time_limit
            and self._attended()
        )

    def _attended(self) -> bool:
        """Whether a person's browser is connected, at a seat or watching (a bot account's
        program is not a person)."""
        return bool(self.spectators) or any(
            not c.bot for conns in self.seated.values() for c in conns
        )

    def _bot_name(self, seat: int) -> str:
        return self.info.seat_list[seat].bot or DEFAULT_STAND_IN

    def _schedule(self) -> None:
        """After every command: start the next deal or a bot's turn, or set a timer."""
        if self.info.status != "playing":
            return
        state = self.state
        if state is None or state.is_over:
            if self.series.is_over:
                return
            if self._deal_due() and not self._deal_pending:
                self._deal_pending = True
                self.post(NewDeal())
            return
        seat = state.to_act
        if seat is None or self._bot_pending == self.version:
            return
        account = self._bot_conn(seat)
        if account is not None and self._turns.fallback_for != self.version:
            asked = self._turns.asked
            if asked is None or asked.version != self.version:
                self._ask(account, seat, state)
            return
        if self.bot_controls(seat) or self._turns.fallback_for == self.version:
            self._bot_pending = self.version
            task = asyncio.create_task(self._bot_turn(self.version, seat, state.view(seat)))
            self._bot_tasks.add(task)
            task.add_done_callback(self._bot_tasks.discard)
        elif seat in self.away_since and self._attended():
            # (Nobody there: no timer; whoever comes next brings the table back to life.)
            left = self.info.time_limit - (time.monotonic() - self.away_since[seat])
            self._wake_in(max(left, 0.0) + 0.05)

    async def _bot_turn(self, version: int, seat: int, view: dict[str, Any]) -> None:
        if self.ctx.bot_delay > 0:
            await asyncio.sleep(self.ctx.bot_delay)
        # The table's random id seeds its bots (a fixed ``deal_seed`` instead, for tests).
        seed = f"{self.ctx.deal_seed or self.info.id}:{self.deal_number}:{seat}:{version}"
        key = f"{self.info.id}:{self.deal_number}:{seat}"
        try:
            action = await self.ctx.bots.decide(
                self._bot_name(seat), self.info.game, seed, view, key=key
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.post(BotMove(version, seat, None, str(exc)))
            return
        self.post(BotMove(version, seat, action))

    # -- bot accounts (the bot websocket) -----------------------------------------------------

    def _bot_conns(self) -> list[Conn]:
        return [c for conns in self.seated.values() for c in conns if c.bot and not c.closed]

    def _bot_conn(self, seat: int) -> Conn | None:
        """The connected program of a bot account's seat, if any."""
        for conn in self.seated.get(seat, ()):
            if conn.bot and not conn.closed:
                return conn
        return None

    def _hello(self, seat: int) -> str:
        return hello(self.info, seat, self.deal_number, self.ctx.bot_time_limit)

    def _ask(self, conn: Conn, seat: int, state: GameState) -> None:
        """Send a bot account its seat's view and start its clock."""
        rid = self._turns.ask(conn, seat, self.version, state.view(seat))
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._timers = [t for t in self._timers if not t.cancelled() and t.when() > now]
        self._timers.append(
            loop.call_later(self.ctx.bot_time_limit, self.post, BotTimeout(self.version, rid))
        )

    async def _bot_answer(
        self, conn: Conn, rid: int | None, answer: dict[str, Any] | None, why: str | None
    ) -> None:
        state = self.state
        playing = state is not None and not state.is_over
        asked = self._turns.answered(conn, rid, why, self.version, playing)
        if asked is None or state is None:
            return
        if why is None and answer is not None:
            chosen, why = chosen_action(answer, asked.seat, state.legal_actions(asked.seat))
            if chosen is not None:
                self._turns.asked = None
                if await self._commit(chosen, by_bot=True, conn=None):
                    return
                self._turns.asked = asked
                why = "its action could not be taken"
        self._turns.lose_turn(self.info, self._bot_name, why or "its answer is no action")

    def _wake_in(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        self._timers = [t for t in self._timers if not t.cancelled()]
        self._timers.append(loop.call_later(seconds, self.post, Wake()))

    # -- sending frames ------------------------------------------------------------------------

    def _presence_changed(self) -> None:
        """Send a presence frame to every connection if presence changed, at most one per
        ``PRESENCE_EVERY`` seconds (a change within the pause goes out when it ends)."""
        if self._presence_pending:
            return
        text = frames.presence(self)
        if text == self._presence_sent:
            return
        wait = self._presence_at + PRESENCE_EVERY - time.monotonic()
        if wait > 0:
            self._presence_pending = True
            loop = asyncio.get_running_loop()
            self._timers = [t for t in self._timers if not t.cancelled()]
            self._timers.append(loop.call_later(wait, self.post, PresenceDue()))
            return
        self._presence_sent = text
        self._presence_at = time.monotonic()
        for conn in [*self.spectators, *itertools.chain(*self.seated.values())]:
            if not conn.bot:
                conn.send(text)

    def _broadcast(self) -> None:
        # Every state frame carries who is present, so presence is news only against it.
        self._presence_sent = frames.presence(self)
        common = frames.common_part(self)
        for seat, conns in self.seated.items():
            people = [c for c in conns if not c.bot]
            if people:
                text = frames.state_frame(self, seat, common)
                for conn in people:
                    conn.send(text)
        if self.spectators:
            text = frames.state_frame(self, None, common)
            for conn in self.spectators:
                conn.send(text)


def _with_status(info: TableInfo, status: str) -> TableInfo:
    return replace(info, status=status)
