"""Outside bots: a program that speaks the Stichwerk bot protocol on stdin and stdout.

Like a chess engine speaking UCI, any program can play a seat: it reads one JSON object per
line and answers with one (``docs/bot-protocol.md``). :class:`ExternalBot` starts the program,
greets it with the game and its seat (it answers ``ready`` within the start-up limit), and
then, for each decision, sends exactly what that seat may see (the ``view`` every bot gets)
and waits for an action within the time limit.

A program that answers late, answers garbage, answers an action its seat may not take, or
dies, loses that turn (or the rest of the deal, if it died) to a *fallback* bot, with one log
line saying why; the table never waits longer than the time limit and never breaks. Its late
answers are recognised by the request id and dropped.

The name ``cmd:PROGRAM ARGS`` makes such a bot anywhere a bot name is taken (the arena's
``--bots 'cmd:python mybot.py',heuristic``); ``shlex`` splits the command line.
"""

import json
import logging
import math
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping
from typing import IO, Any

from stichwerk.bots.base import Bot, View, legal_of, make_bot
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError, one_line

log = logging.getLogger("stichwerk.bots.external")

PROTOCOL = 1
PREFIX = "cmd:"
LINE_LIMIT = 1 << 20
"""Longest line read from a bot (1 MiB): anything longer is garbage."""


def _pump(stream: IO[str], lines: "queue.Queue[str | None]") -> None:
    """Move the program's output lines to a queue (``None`` once it closes its output)."""
    try:
        while True:
            line = stream.readline(LINE_LIMIT + 1)
            if not line:
                break
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


class ExternalBot:
    """A seat played by an outside program; see the module docstring."""

    def __init__(
        self,
        command: str,
        game: str,
        seed: int | str = 0,
        *,
        time_limit: float = 5.0,
        startup_limit: float = 10.0,
        fallback: str = "heuristic",
        profile: str | None = None,
    ) -> None:
        argv = shlex.split(command)
        if not argv:
            raise StichwerkError("a cmd: bot needs a program to run")
        if not (0 < time_limit <= 600) or math.isnan(time_limit):
            raise StichwerkError("a bot's time limit must be from 0 to 600 seconds")
        self.name = f"{PREFIX}{command}"
        self.command = argv
        self.game = game
        self.time_limit = time_limit
        self.startup_limit = startup_limit
        self._fallback: Bot = make_bot(fallback, game, seed)
        self._fallback_name = fallback
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0
        self._seat: int | None = None
        self._dead = False
        self._profile = profile
        self.program_name: str | None = None
        """The name the program gave itself in its ``ready``."""
        self.faults: list[str] = []
        """Every turn the program lost, with why (for tests and reports)."""

    # ------------------------------------------------------------------ the program

    def _start(self, view: View) -> None:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as exc:
            self._die(f"cannot start {self.command[0]!r}: {exc.strerror or exc}")
            return
        self._proc = proc
        weakref.finalize(self, _stop, proc)
        assert proc.stdout is not None
        threading.Thread(target=_pump, args=(proc.stdout, self._lines), daemon=True).start()
        self._seat = int(view["seat"])
        hello = self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "game": view["game"],
                "profile": view.get("profile", self._profile),
                "options": view.get("options", {}),
                "seat": self._seat,
                "seats": view.get("seats"),
                "time_limit": self.time_limit,
            },
            starting=True,
        )
        if not hello:
            # Its input closed before the hello: the program has ended already (whether it
            # ended before or after the hello was written is a race; the report is the same).
            self._die("it ended before saying ready")
            return
        deadline = time.monotonic() + self.startup_limit
        while not self._dead:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0))
            except queue.Empty:
                self._die(f"it did not say ready within {self.startup_limit:g} s")
                return
            if line is None:
                self._die("it ended before saying ready")
                return
            try:
                message = json.loads(line, parse_constant=_refuse_constant)
            except (json.JSONDecodeError, ValueError, RecursionError):
                continue
            if isinstance(message, dict) and message.get("type") == "ready":
                name = message.get("name")
                if isinstance(name, str) and name.isprintable():
                    self.program_name = name[:60]
                return

    def _send(self, message: Mapping[str, Any], *, starting: bool = False) -> bool:
        """Write one message; ``False`` if the program's input is closed (then, unless
        ``starting``, which reports it its own way, the program has lost its place)."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            if not starting:
                self._die("its input is closed (the program ended)")
            return False
        return True

    def _die(self, why: str) -> None:
        if not self._dead:
            self._dead = True
            log.warning("%s: %s; %s plays for it", self._who(), why, self._fallback_name)
            self.faults.append(why)
        self.close()

    def _who(self) -> str:
        seat = "" if self._seat is None else f" (seat {self._seat})"
        return f"bot {one_line(self.name)!r}{seat}"

    def close(self) -> None:
        """Say goodbye and end the program (it has a moment to leave by itself)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.write(json.dumps({"type": "bye"}) + "\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass
        _stop(proc)

    # ------------------------------------------------------------------ a decision

    def act(self, view: View) -> Action:
        legal = legal_of(view)
        if not legal:
            raise StichwerkError("the bot's seat has no legal action")
        if not self._dead and self._proc is None:
            self._start(view)
        if self._dead:
            return self._fallback.act(view)
        self._next_id += 1
        rid = self._next_id
        if not self._send({"type": "act", "id": rid, "view": dict(view)}):
            return self._fallback.act(view)
        answer, why = self._await(rid)
        if self._dead:
            return self._fallback.act(view)  # the log line said why already
        if answer is not None:
            chosen, why = chosen_action(answer, int(view["seat"]), legal)
            if chosen is not None:
                return chosen
        assert why is not None
        fallback = self._fallback.act(view)
        log.warning(
            "%s lost a turn: %s; %s played %s",
            self._who(),
            why,
            self._fallback_name,
            str(fallback).split(": ", 1)[-1],
        )
        self.faults.append(why)
        self._send({"type": "error", "id": rid, "message": why})
        return fallback

    def _await(self, rid: int) -> tuple[dict[str, Any] | None, str | None]:
        """The program's answer to request ``rid``, or why there is none."""
        deadline = time.monotonic() + self.time_limit
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, f"no answer within {self.time_limit:g} s"
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._die("it ended")
                return None, "it ended"
            if len(line) > LINE_LIMIT:
                return None, "its answer is longer than 1 MiB"
            try:
                message = json.loads(line, parse_constant=_refuse_constant)
            except (json.JSONDecodeError, ValueError, RecursionError):
                return None, "its answer is not JSON"
            if not isinstance(message, dict) or message.get("type") != "action":
                if isinstance(message, dict) and message.get("type") == "log":
                    log.info("%s says: %s", self._who(), one_line(str(message.get("message"))))
                    continue  # a note for the log: not an answer
                return None, "its answer is not an action message"
            if message.get("id") != rid:
                continue  # a late answer to an earlier request
            action = message.get("action")
            if not isinstance(action, dict):
                return None, "its answer has no action object"
            return action, None


def chosen_action(
    answer: Mapping[str, Any], seat: int, legal: list[Action]
) -> tuple[Action | None, str | None]:
    """The legal action a bot's ``action`` object names, or why it names none. Card codes
    may be in any case and a set of cards in any order; the seat is the bot's own.

    Shared by the stdin protocol and the web app's bot websocket (``server/botsockets.py``).
    """
    try:
        action = Action.from_json({**answer, "seat": seat})
    except (StichwerkError, TypeError, ValueError, KeyError) as exc:
        return None, f"its answer is no action ({one_line(str(exc))})"
    offered = {_key(a): a for a in legal}
    chosen = offered.get(_key(action))
    if chosen is not None:
        return chosen, None
    return None, f"its seat may not {one_line(str(action).split(': ', 1)[-1])} now"


def _key(action: Action) -> tuple[str, str | None, tuple[str, ...], str | None]:
    """An action compared as the table reads it: card codes in any case, a set of cards in
    any order."""
    card = action.card.upper() if action.card is not None else None
    return action.act, card, tuple(sorted(c.upper() for c in action.cards)), action.type


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _stop(proc: "subprocess.Popen[str]") -> None:
    """End a bot program: close its input, then terminate, then kill."""
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def make_external(command: str, game: str, seed: int | str = 0, **params: Any) -> Bot:
    """A bot running ``command`` (the part after ``cmd:``)."""
    return ExternalBot(command, game, seed, **params)
