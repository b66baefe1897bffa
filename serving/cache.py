"""Small thread-safe LRU caches for query embeddings and responses, with hit/miss counts.

Query embeddings are keyed by the embedder's fingerprint and the text (they do not depend on the
index; an index built by another embedder is refused). Responses are keyed by the index version
and the canonical request, so a new ingest invalidates them: the version is part of the key.

>>> c = LruCache(2); c.put(("v1", "q"), 1); c.get(("v1", "q")), c.get(("v2", "q"))
(1, None)
>>> c.hits, c.misses
(1, 1)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class LruCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        if self.capacity <= 0:
            self.misses += 1
            return None
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
            return None

    def put(self, key: Hashable, value: Any) -> None:
        if self.capacity <= 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.capacity:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)
