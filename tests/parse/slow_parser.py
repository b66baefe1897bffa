"""A parse function for the parse-timeout tests (run by :class:`pipelines.parse.isolated.IsolatedParser`
in its child process): a file whose bytes hold ``SLEEP`` hangs, one holding ``CRASH`` kills its process
with SIGSEGV (as a library's crash would), anything else is parsed as usual."""

from __future__ import annotations

import os
import signal
import time

from pipelines.parse import parse_bytes


def parse(raw: bytes, *, path: str, doc_id: str, max_bytes: int):
    if b"SLEEP" in raw:
        time.sleep(3600)
    if b"CRASH" in raw:
        os.kill(os.getpid(), signal.SIGSEGV)
    return parse_bytes(raw, path=path, doc_id=doc_id, max_bytes=max_bytes)
