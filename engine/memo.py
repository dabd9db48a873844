"""`ByIdentity`: values derived from immutable objects, kept per object."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """``make(key)`` computed once per `key` object (not per equal value: no hashing of
    large immutable objects), for the `size` keys asked for last. Each key is held with
    its value, so its id is not reused while it is kept."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def get(self, key: K, make: Callable[[K], V]) -> V:
        known = self._items.get(id(key))
        if known is not None and known[0] is key:
            return known[1]
        value = make(key)
        self._items[id(key)] = key, value
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
