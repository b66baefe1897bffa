"""Stream the ``answer`` field of a JSON form while the model is still writing it.

>>> s = JsonFieldStream("answer")
>>> [s.feed(p) for p in ['{"answer": "EPOLL', 'ET is \\\\"edge', '\\\\" [1]", "x": 1}']]
['EPOLL', 'ET is "edge', '" [1]']
"""

from __future__ import annotations

import json
import re


class JsonFieldStream:
    """Feed raw JSON text pieces; get back the newly decoded characters of one string field."""

    def __init__(self, field: str) -> None:
        self._start = re.compile(r'"' + re.escape(field) + r'"\s*:\s*"')
        self._buffer = ""
        self._pos: int | None = None   # index in buffer of the first undecoded char of the value
        self.done = False

    def feed(self, piece: str) -> str:
        self._buffer += piece
        if self.done:
            return ""
        if self._pos is None:
            m = self._start.search(self._buffer)
            if m is None:
                return ""
            self._pos = m.end()
        out = []
        i = self._pos
        buf = self._buffer
        while i < len(buf):
            ch = buf[i]
            if ch == '"':
                self.done = True
                i += 1
                break
            if ch == "\\":
                if i + 1 >= len(buf):
                    break
                if buf[i + 1] == "u":
                    if i + 6 > len(buf):
                        break
                    out.append(json.loads(f'"{buf[i:i + 6]}"'))
                    i += 6
                    continue
                out.append(json.loads(f'"{buf[i:i + 2]}"'))
                i += 2
                continue
            out.append(ch)
            i += 1
        self._pos = i
        return "".join(out)
