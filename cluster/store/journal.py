"""The ingest journal: which documents a writer batch is about to touch.

Written (atomically) before a batch modifies any store and removed after the batch's
``documents`` rows commit. If a process dies in between, the next ingest deletes those
documents from every store first, then ingests them again: no duplicates, no gaps.

>>> import tempfile, pathlib
>>> j = IngestJournal(pathlib.Path(tempfile.mkdtemp()) / "journal.json")
>>> j.begin(["a", "b"]); j.pending()
['a', 'b']
>>> j.commit(); j.pending()
[]
"""

from __future__ import annotations

import json
import os
from pathlib import Path


class IngestJournal:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def begin(self, doc_ids: list[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as fh:
            fh.write(json.dumps({"doc_ids": list(dict.fromkeys(doc_ids))}))  # one C-encoded string, not a write per id
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def pending(self) -> list[str]:
        if not self.path.is_file():
            return []
        try:
            return list(json.loads(self.path.read_text())["doc_ids"])
        except (ValueError, KeyError) as exc:
            raise RuntimeError(f"ingest journal {self.path} is corrupt ({exc}); run `strata ingest --repair`") from exc

    def commit(self) -> None:
        self.path.unlink(missing_ok=True)
