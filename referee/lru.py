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

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value of `key`, or `make()` stored under it."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        value = make()  # outside the lock: two threads may both render, harmlessly
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return value
