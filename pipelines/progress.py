"""Ingest progress on the terminal: documents, chunks, tokens/s and ETA (tqdm).

>>> p = IngestProgress(total=2, enabled=False); p.update(docs=1, chunks=3, tokens=40); p.close()
"""

from __future__ import annotations

import time

from tqdm import tqdm


class IngestProgress:
    def __init__(self, total: int, *, enabled: bool = True) -> None:
        self.started = time.perf_counter()
        self.chunks = 0
        self.tokens = 0
        self.bar = tqdm(total=total, unit="doc", desc="ingest", disable=not enabled, dynamic_ncols=True)

    def update(self, *, docs: int, chunks: int, tokens: int) -> None:
        self.chunks += chunks
        self.tokens += tokens
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        self.bar.set_postfix(chunks=self.chunks, tokens=self.tokens, tok_s=f"{self.tokens / elapsed:,.0f}", refresh=False)
        self.bar.update(docs)

    def close(self) -> None:
        self.bar.close()
