"""Work units: the files of an ingest grouped into Ray Data blocks of about equal embedding work,
largest files first.

One block is one parse task and one embedding-actor call. Sizing blocks by text (not by a file
count) and handing out the largest files first keeps every embedding actor busy to the end: the
last blocks are small files, so no actor is left with a long call while the others idle (on the
1.1M-token Debian corpus: 297.5 s, against 307.8 s with 16 files per call in directory order).
Text size is the file's size, or for ``.gz`` files the uncompressed size from the gzip trailer.

>>> items = [{"path": "a", "size": 10}, {"path": "b", "size": 50}, {"path": "c", "size": 30}]
>>> [[i["path"] for i in unit] for unit in work_units(items, unit_bytes=40)]
[['b'], ['c', 'a']]
"""

from __future__ import annotations

import os
import struct

BYTES_PER_TOKEN = 4  # of English text, for sizing units only (the chunker counts real tokens)


def text_bytes(path: str, size: int) -> int:
    """The text size of a file of ``size`` bytes: for gzip files, the uncompressed size its trailer
    records (modulo 4 GiB, as gzip stores it); ``size`` when the file cannot be read.

    >>> text_bytes("/nonexistent.gz", 7)
    7
    """
    if not path.endswith(".gz") or size < 18:
        return size
    try:
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return struct.unpack("<I", fh.read(4))[0]
    except OSError:
        return size


def work_units(items: list[dict], unit_bytes: int) -> list[list[dict]]:
    """``items`` (dicts with ``path`` and ``size``) largest text first, grouped into units of at
    least ``unit_bytes`` of text each (a larger file is a unit alone; the last unit may be smaller)."""
    sized = sorted(((text_bytes(item["path"], item["size"]), item) for item in items),
                   key=lambda pair: pair[0], reverse=True)
    units: list[list[dict]] = []
    current: list[dict] = []
    filled = 0
    for size, item in sized:
        current.append(item)
        filled += size
        if filled >= unit_bytes:
            units.append(current)
            current, filled = [], 0
    if current:
        units.append(current)
    return units
