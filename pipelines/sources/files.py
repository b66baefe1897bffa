"""Walk a corpus directory (or take one file), yielding candidate files and skipped ones.

Skips are reported, never raised: broken symlinks, unreadable or special files, files over
the size cap. Order is deterministic (sorted), so runs are reproducible.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp()); _ = (root / "a.md").write_text("# A")
>>> [f.relpath for f in discover(root, include=["*.md"], exclude=[], max_bytes=100) if isinstance(f, SourceFile)]
['a.md']
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to ingest. ``doc_id`` is stable for (source, relpath)."""

    doc_id: str
    source: str
    path: str
    relpath: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class SkippedFile:
    path: str
    reason: str
    detail: str = ""


def make_doc_id(source: str, relpath: str) -> str:
    """Stable document id: sha1 of the source label and the path relative to the source root."""
    return hashlib.sha1(f"{source}\x1f{relpath}".encode()).hexdigest()[:16]


def _matches(name: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(name, p) for p in patterns)


def discover(root: Path, *, include: list[str], exclude: list[str], max_bytes: int,
             source: str | None = None) -> Iterator[SourceFile | SkippedFile]:
    """Yield :class:`SourceFile` for every ingestable file under ``root`` (a dir or a file)."""
    root = Path(root).expanduser()
    if not root.exists():
        raise FileNotFoundError(f"corpus path does not exist: {root}")
    root = root.resolve()
    label = source or str(root)
    if root.is_file():
        yield from _one(root, root.name, label, include=None, exclude=exclude, max_bytes=max_bytes)
        return
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=None):
        dirnames[:] = sorted(d for d in dirnames if not _matches(d, exclude))
        for name in sorted(filenames):
            full = Path(dirpath) / name
            yield from _one(full, full.relative_to(root).as_posix(), label, include=include, exclude=exclude,
                            max_bytes=max_bytes)


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return kind
    return "a special file"


def _one(path: Path, relpath: str, source: str, *, include: list[str] | None, exclude: list[str],
         max_bytes: int) -> Iterator[SourceFile | SkippedFile]:
    name = path.name
    if _matches(name, exclude) or (include is not None and not _matches(name, include)):
        return
    try:
        st = path.stat()
    except FileNotFoundError:
        yield SkippedFile(str(path), "broken_symlink" if path.is_symlink() else "missing", "target does not exist")
        return
    except OSError as exc:
        yield SkippedFile(str(path), "unreadable", exc.strerror or str(exc))
        return
    if not stat.S_ISREG(st.st_mode):  # never opened: a FIFO would block the read, a device never end
        yield SkippedFile(str(path), "not_a_file", f"{_kind(st.st_mode)}, not a regular file (never opened)")
        return
    if st.st_size > max_bytes:
        yield SkippedFile(str(path), "too_large", f"{st.st_size} bytes > ingest.max_file_bytes {max_bytes}")
        return
    if not os.access(path, os.R_OK):
        yield SkippedFile(str(path), "unreadable", "permission denied")
        return
    yield SourceFile(make_doc_id(source, relpath), source, str(path), relpath, st.st_size, st.st_mtime_ns)
