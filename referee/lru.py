"""A small thread-safe least-recently-used cache, for what is a pure function of a
game's version: its standings, its pages, its record, its sheets.

A game's `version` changes with every write, so a key that holds it can never serve
a stale value; entries of old versions simply age out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    """Least-recently-used cache of at most `size` entries."""

    #: Seconds a thread waits for another one making the same value.
    WAIT = 30.0

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        #: Keys being made, and the event their waiters wait on.
        self._making: dict[Hashable, threading.Event] = {}
        self.hits = 0
        self.misses = 0

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value of `key`, or `make()` stored under it.

        One thread makes a missing value; the others asking for it meanwhile wait
        for it instead of making it too (issue 19: the four phones of a table, told
        of a new deal at the same moment, rendered the same page four times).
        """
        with self._lock:
            if self._counted(key):
                return self._data[key]
            making = self._making.get(key)
            mine = making is None
            if mine:
                making = self._making[key] = threading.Event()
        assert making is not None
        if not mine:
            making.wait(self.WAIT)
            with self._lock:
                if key in self._data:
                    return self._data[key]
            # The maker failed or is slow: make it here.
            return make()
        try:
            value = make()
            self.put(key, value)
            return value
        finally:
            with self._lock:
                del self._making[key]
            making.set()

    def peek(self, key: Hashable) -> V | None:
        """The cached value of `key` (made most recent), or None."""
        with self._lock:
            return self._data[key] if self._counted(key) else None

    def held(self, key: Hashable) -> V | None:
        """The cached value of `key`, or None, looked at from outside the requests
        (neither counted nor made more recent)."""
        with self._lock:
            return self._data.get(key)

    def _counted(self, key: Hashable) -> bool:
        """Whether `key` is cached (then made most recent); a hit or a miss counted.
        The lock is held."""
        if key in self._data:
            self._data.move_to_end(key)
            self.hits += 1
            return True
        self.misses += 1
        return False

    def put(self, key: Hashable, value: V) -> None:
        """Store `value` under `key`, dropping the least recent beyond the size."""
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._data.clear()
