"""Parsing with a time limit per file (``ingest.parse_timeout_s``): a file that hangs its parser is given
up with reason ``timeout`` and the rest of the parse task's batch goes on.

* **Binary formats (PDF)** run in a child process, :class:`IsolatedParser`: PDFium is C code that no
  thread or signal can stop, so a file that hangs it is stopped by killing the child. One child per
  worker process, started on the first PDF (~0.1 s: Python and the parsers, not Ray, torch or the
  tokenizers) and reused for every PDF after it, across parse tasks too; a killed child is replaced
  for the next PDF. The bytes go over a pipe and the :class:`~pipelines.parse.document.ParsedDocument`
  comes back (pickled): ~1-3 ms a PDF, against 3-5 ms a page of parsing. A child that dies (a
  segfault in the library) costs that file only: reason ``parser_error``.
* **Text formats** (pure Python) are parsed in the task's process under a timer (``SIGALRM``), which
  interrupts Python code, ``re`` included; so is the chunking of every file, with what is left of its
  time. Where the task does not run on its process's main thread (signals are delivered there only),
  the timer is off and only PDFs have a limit.

>>> parser = IsolatedParser()
>>> parser.parse(b"# T\\n\\nSome text.\\n", path="a.md", doc_id="d", max_bytes=1000, timeout_s=30).title
'T'
>>> parser.close()
"""

from __future__ import annotations

import atexit
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from pipelines.parse import ParsedDocument, ParseError, ParserCrash, parse_bytes
from pipelines.parse.decode import GZIP_MAGIC, gunzip_head
from pipelines.parse.detect import detect_binary

_LENGTH = struct.Struct("!Q")
_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding the ``pipelines`` package


class ParseTimeout(ParseError):
    """A file's parser (or chunker) ran past ``ingest.parse_timeout_s``: reason ``timeout``."""

    def __init__(self, timeout_s: float, what: str = "parsing") -> None:
        super().__init__("timeout", f"{what} took longer than ingest.parse_timeout_s = {timeout_s:g} s: given up")


class ParserDied(RuntimeError):
    """The child process parsing a file died (killed by a signal, out of memory, a library's crash)."""


def binary_format(raw: bytes) -> str | None:
    """The binary format (``pdf``) of a file's bytes, also inside gzip; None for text.

    >>> binary_format(b"%PDF-1.7 ..."), binary_format(b"# Title")
    ('pdf', None)
    """
    fmt = detect_binary(raw[:2048])
    if fmt is None and raw.startswith(GZIP_MAGIC):
        try:
            fmt = detect_binary(gunzip_head(raw, 2048))
        except Exception:  # a broken gzip stream: parse_bytes gives the verdict
            return None
    return fmt


# -- the child -----------------------------------------------------------------------------------------
def _write(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read_exact(stream, n: int) -> bytes | None:
    data = stream.read(n)
    return data if data is not None and len(data) == n else None


def _serve(target: str) -> None:
    """The child's loop: read ``(raw, path, doc_id, max_bytes)``, reply ``("ok", doc)``, ``("error",
    reason, detail)`` or ``("crash", detail)``; exit at the end of its input (the parent closed it or died).
    ``target``: the parse function, ``module:name``."""
    import importlib

    module, _, name = target.partition(":")
    parse = getattr(importlib.import_module(module), name)
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the replies
    requests = sys.stdin.buffer
    while (head := _read_exact(requests, _LENGTH.size)) is not None:
        body = _read_exact(requests, _LENGTH.unpack(head)[0])
        if body is None:
            return
        raw, path, doc_id, max_bytes = pickle.loads(body)
        try:
            reply = ("ok", parse(raw, path=path, doc_id=doc_id, max_bytes=max_bytes))
        except ParseError as exc:
            reply = ("error", exc.reason, exc.detail or str(exc))
        except ParserCrash as exc:
            reply = ("crash", exc.detail)
        except Exception as exc:  # noqa: BLE001 - reported per file, never fatal to the child
            reply = ("crash", f"parser crash: {type(exc).__name__}: {exc}")
        _write(replies, reply)


# -- the parent --------------------------------------------------------------------------------------------
class IsolatedParser:
    """:func:`pipelines.parse.parse_bytes` in a child process, with a time limit per file (see the module
    docstring). Not for concurrent use (a parse task calls it one file at a time). ``target``: the parse
    function the child runs (``module:name``, importable there: the repository and ``PYTHONPATH``)."""

    def __init__(self, target: str = "pipelines.parse:parse_bytes") -> None:
        self.target = target
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self.started = 0  # children started (the first, and one after each kill or death)

    def _child(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
            self._proc = subprocess.Popen([sys.executable, "-m", "pipelines.parse.isolated", self.target], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, cwd=_ROOT, env=env, bufsize=0)
            self.started += 1
        return self._proc

    def parse(self, raw: bytes, *, path: str, doc_id: str, max_bytes: int, timeout_s: float) -> ParsedDocument:
        """The parsed document, or :class:`ParseError` (``timeout`` after ``timeout_s`` seconds: the child is
        killed) or :class:`ParserCrash` (a bug, or the child died)."""
        with self._lock:
            proc = self._child()
            deadline = time.monotonic() + timeout_s  # the child's start is not the file's time
            try:
                _write(proc.stdin, (raw, path, doc_id, max_bytes))
                reply = self._reply(proc, deadline)
            except BrokenPipeError:
                reply = None
            except BaseException:  # interrupted (KeyboardInterrupt, the task cancelled): no half-read pipe
                self._kill()
                raise
            if reply is None:
                if proc.poll() is None and time.monotonic() >= deadline:
                    self._kill()
                    raise ParseTimeout(timeout_s)
                code = self._kill()
                cause = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
                raise ParserCrash(ParserDied(f"the parser process died ({cause})"), fmt=binary_format(raw))
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "error":
            raise ParseError(reply[1], reply[2])
        raise ParserCrash(ParserDied(reply[1]), fmt=binary_format(raw))

    @staticmethod
    def _reply(proc: subprocess.Popen, deadline: float):
        """The child's reply, or None when the deadline passed or the child's output ended."""
        fd = proc.stdout.fileno()

        def read(n: int) -> bytes | None:
            buf = bytearray()
            while len(buf) < n:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    return None
                chunk = os.read(fd, min(n - len(buf), 1 << 20))
                if not chunk:
                    return None
                buf += chunk
            return bytes(buf)

        head = read(_LENGTH.size)
        body = read(_LENGTH.unpack(head)[0]) if head is not None else None
        return pickle.loads(body) if body is not None else None

    def _kill(self) -> int | None:
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.kill()
        code = proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        return code

    def close(self) -> None:
        """End the child: its input closed, it exits (killed if it does not within a second)."""
        proc = self._proc
        if proc is None:
            return
        try:
            proc.stdin.close()
            proc.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()


_shared: IsolatedParser | None = None


def shared_parser() -> IsolatedParser:
    """This process's :class:`IsolatedParser` (a Ray worker process reuses it for every parse task)."""
    global _shared
    if _shared is None:
        _shared = IsolatedParser()
        atexit.register(_shared.close)
    return _shared


def parse_with_limit(raw: bytes, *, path: str, doc_id: str, max_bytes: int, timeout_s: float) -> ParsedDocument:
    """:func:`pipelines.parse.parse_bytes` given up after ``timeout_s`` seconds (:class:`ParseTimeout`): a
    binary format in this process's :func:`shared_parser`, text under :func:`time_limit`; ``timeout_s``
    ≤ 0: no limit, in this process."""
    if timeout_s > 0 and len(raw) <= max_bytes and binary_format(raw) is not None:
        return shared_parser().parse(raw, path=path, doc_id=doc_id, max_bytes=max_bytes, timeout_s=timeout_s)
    with time_limit(timeout_s):
        return parse_bytes(raw, path=path, doc_id=doc_id, max_bytes=max_bytes)


# -- the in-process timer --------------------------------------------------------------------------------------
@contextmanager
def time_limit(timeout_s: float | None, what: str = "parsing"):
    """Raise :class:`ParseTimeout` in the block after ``timeout_s`` seconds (``SIGALRM``; only on the main
    thread, elsewhere and for None or ≤ 0 a no-op). The previous handler and timer are restored."""
    if (not timeout_s or timeout_s <= 0 or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def expired(signum, frame):
        raise ParseTimeout(timeout_s, what)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


if __name__ == "__main__":
    _serve(sys.argv[1])
