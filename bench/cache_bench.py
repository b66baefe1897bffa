"""The embedding cache's hit rate and what it saves, each case against a first ingest, in one run.

    python bench/cache_bench.py --tokens 300000

On a copy of a real Debian documentation corpus (bench/corpora.py), every `strata ingest` with the
defaults in a fresh process (as a user runs it):

* ``first``: a new index (no cache lookups: the cache is empty);
* ``moved``: every file moved to another folder, ingested with ``--prune`` (new paths, so new
  document ids; the same texts);
* ``edited``: one word changed in the middle of 10% of the files;
* ``overlap 0`` and ``chunk 160``: a chunking change (``chunking.overlap_tokens`` 32 → 0, then
  ``chunking.chunk_tokens`` 200 → 160), which chunks every document again;
* ``crash``: a second new index, its ingest killed (SIGKILL, the whole process group) at 60% of
  the first ingest's wall time, then resumed: what the resumed run reused. (On a corpus under one
  4,096-chunk commit no document is committed before the kill; the vectors are, every 10 s.)

Each line: wall time, texts reused from the cache and texts embedded, the hit rate, and the wall
time ÷ the first ingest's. Results append to bench/results/ingest.jsonl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ingest_bench import REPO, WORK, corpus, record, timed_ingest


def _copy_corpus(src: Path, dst: Path) -> Path:
    """A writable copy of ``src`` (its files are links into the package cache)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=False)
    return dst


def _edit(root: Path, share: float = 0.1) -> int:
    """Change one word in the middle of every ``1/share``-th uncompressed file; returns how many."""
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".gz")
    edited = 0
    for path in files[::max(1, round(1 / share))]:
        data = path.read_bytes()
        at = data.find(b" the ", len(data) // 2)
        if at < 0:
            continue
        path.write_bytes(data[:at] + b" this " + data[at + 5:])
        edited += 1
    return edited


def _committed(data_dir: Path) -> dict[str, int]:
    """Rows committed in the index at ``data_dir``: chunks and embedding-cache entries."""
    from cluster.config import load_config
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS

    storage = load_config(storage={"data_dir": str(data_dir)}).storage
    cache = EmbeddingCache.open(storage, dim=384)
    return {"chunks": LanceStore.open(storage, dim=384).table(CHUNKS).count_rows(),
            "cache_entries": cache.rows() if cache else 0}


def _killed_ingest(src: Path, data_dir: Path, kill_after_s: float) -> float:
    """``strata ingest`` killed with SIGKILL (its process group: the driver and its Ray) after
    ``kill_after_s``; returns the wall seconds until the kill."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STRATA_") and k != "RAY_ADDRESS"}
    env["STRATA_STORAGE__DATA_DIR"] = str(data_dir)
    started = time.perf_counter()
    with open(data_dir.with_suffix(".killed.log"), "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli.main", "ingest", str(src), "--source", "bench",
                                 "--no-progress"], env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        proc.wait(timeout=kill_after_s)
        raise SystemExit(f"the ingest ended ({proc.returncode}) before the kill at {kill_after_s:.0f}s")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wall = time.perf_counter() - started
    time.sleep(5)  # Ray's own processes notice their driver is gone and exit
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=300_000, help="corpus size (estimated tokens)")
    args = parser.parse_args()
    work = WORK / f"cache-{args.tokens}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    src = _copy_corpus(corpus(args.tokens), work / "corpus" / "docs")
    index = work / "index"
    cases: list[dict] = []

    def run(case: str, path: Path, data_dir: Path, *, env: dict | None = None, prune: bool = False) -> dict:
        wall, _, report = timed_ingest(path, data_dir, env=env, prune=prune)
        hits, misses = report["cache_hits"], report["cache_misses"]
        row = {"case": case, "wall_s": round(wall, 1), "documents_changed": report["new"] + report["updated"],
               "chunks": report["chunks"], "texts_reused": hits, "texts_embedded": misses,
               "hit_rate": round(hits / (hits + misses), 3) if hits + misses else None}
        if cases:
            row["wall_over_first"] = round(wall / cases[0]["wall_s"], 2)
        cases.append(row)
        print(f"{case:>10}: {row}", flush=True)
        return row

    first = run("first", src, index)
    moved = work / "corpus-moved"
    (moved / "archive").parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(work / "corpus"), moved / "archive")  # every path changes
    src = moved
    run("moved", src, index, prune=True)
    edited = _edit(src)
    print(f"edited {edited} files", flush=True)
    run("edited", src, index)
    run("overlap 0", src, index, env={"STRATA_CHUNKING__OVERLAP_TOKENS": "0"})
    run("chunk 160", src, index, env={"STRATA_CHUNKING__OVERLAP_TOKENS": "0", "STRATA_CHUNKING__CHUNK_TOKENS": "160"})

    crashed = work / "index-crash"
    killed_s = _killed_ingest(src, crashed, kill_after_s=0.6 * first["wall_s"])
    committed = _committed(crashed)
    print(f"killed after {killed_s:.0f}s: committed {committed} (of {first['chunks']} chunks, "
          f"{first['texts_embedded']} texts)", flush=True)
    resumed = run("crash", src, crashed)
    resumed.update(killed_after_s=round(killed_s, 1), committed_at_kill=committed)
    record({"bench": "embed_cache", "corpus_tokens_estimate": args.tokens, "cases": cases})


if __name__ == "__main__":
    main()
