"""``bench/head_writer_bench.py`` commits exactly what its fragment writers wrote: every table's rows
and every chunk in the BM25 shards (its figures are only worth something if that holds). Small
units, one writer process, two shards; no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_head_writer_bench_commits_every_written_row(tmp_path: Path):
    out = tmp_path / "head.json"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "head_writer_bench.py"), "--units", "3", "--unit-chunks", "300",
         "--writers", "1", "--shards", "2", "--bm25-alone", "3", "--doc-chunks", "0", "32",
         "--work", str(tmp_path / "work"), "--out", str(out), "--no-record"],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert [shape["doc_chunks"] for shape in result["shapes"]] == [0, 32]
    for shape in result["shapes"]:
        (head,), (alone,) = shape["head"], shape["bm25_alone"]
        chunks = head["chunks"]
        assert chunks >= 3 * 300 and alone["chunks"] == chunks
        assert head["rows"]["chunks"] == head["rows"]["embed_cache"] == head["bm25_docs"] == alone["bm25_docs"] == chunks
        assert head["rows"]["documents"] == head["rows"]["sections"] > 0  # one section a bench document
        assert (head["shards"], alone["shards"]) == (2, 3)
        assert head["chunks_per_s"] > 0 and shape["fragment_writers"]["chunks_per_s"] > 0
