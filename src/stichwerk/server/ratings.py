"""Ratings in the web app: taken in as deals finish, leaderboards and rating histories.

The numbers come from ``stichwerk.storage.ratings`` (the rows, the deals in a fixed order)
and ``stichwerk.rating`` (the maths, openskill). A worker thread takes finished deals in off
the event loop: table actors only ring its bell (``notify``) when a deal ends, and the server
rings it once at start to catch up with deals finished while it was down.

What a rating shows, to anyone (anonymous included): the players of a game and profile with
their mu, sigma, conservative rating (mu - 3 sigma) and number of rated deals; and a player's
rating after each of their rated deals, as numbers only: no deal, table, time or fellow player,
so a private table's deals show nowhere (``docs/web.md``, threat model).

``python -m stichwerk.server.ratings rebuild`` recomputes every rating from scratch.
"""

import argparse
import logging
import sys
import threading

from stichwerk.core.errors import UnknownDealKind, one_line
from stichwerk.storage.db import Database
from stichwerk.storage.ratings import RatingStore

log = logging.getLogger("stichwerk.ratings")


class RatingService:
    """Takes finished deals in on a thread of its own; ``notify`` after a deal has finished."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store
        self._cond = threading.Condition()
        self._asked = 0
        """Bells rung so far."""
        self._done = 0
        """The bell number the last finished update began after."""
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="ratings", daemon=True)
        self._thread.start()
        self.notify()

    def notify(self) -> int:
        """A deal has finished (or the server started): take new deals in soon. Returns the
        bell's number (``wait_idle`` waits for it)."""
        with self._cond:
            self._asked += 1
            self._cond.notify_all()
            return self._asked

    def ring(self) -> None:
        """``notify`` for callers that want nothing back (a table actor)."""
        self.notify()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until every deal finished before the call has been taken in."""
        bell = self.notify()
        with self._cond:
            return self._cond.wait_for(lambda: self._done >= bell, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stop or self._asked > self._done)
                if self._stop:
                    return
                bell = self._asked
            try:
                taken = self.store.update()
            except UnknownDealKind as exc:
                # A deal the engine cannot say the sides of: one line, and the ratings wait
                # for an engine that knows it (taking it in unrated would skew every number).
                log.error("ratings stopped at a deal: %s", one_line(str(exc)))
            except Exception:
                log.exception("could not take finished deals into the ratings (tried again later)")
            else:
                if taken:
                    log.info("ratings: took in %d deal(s)", taken)
            with self._cond:
                self._done = bell
                self._cond.notify_all()

    def close(self) -> None:
        """Stop the thread after the update under way."""
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=30)


def main(argv: list[str] | None = None) -> None:
    """``python -m stichwerk.server.ratings rebuild``: recompute every rating from the deals."""
    parser = argparse.ArgumentParser(prog="python -m stichwerk.server.ratings", description=__doc__)
    parser.add_argument("command", choices=["rebuild", "update"])
    parser.add_argument("--database", help="database URL (default: STICHWERK_DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        db = Database(args.database)
        db.migrate()
        store = RatingStore(db)
        taken = store.rebuild() if args.command == "rebuild" else store.update()
    except Exception as exc:
        print(f"stichwerk.server.ratings: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"ratings: took in {taken} deal(s)")
    db.dispose()


if __name__ == "__main__":
    main()
