"""Token buckets: per websocket connection, and per client address for logins."""

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one.

    >>> bucket = TokenBucket(rate=1.0, burst=2.0, now=lambda: 0.0)
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    """

    __slots__ = ("_now", "_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: Callable[[], float] | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now or time.monotonic
        self._tokens = burst
        self._stamp: float = self._now()

    def take(self) -> bool:
        """Take a token if there is one."""
        now: float = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class KeyedLimiter:
    """One bucket per key (a client address), forgetting the oldest keys past ``max_keys``."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> bool:
        """Whether ``key`` may go ahead now."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst)
            self._buckets[key] = bucket
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()
