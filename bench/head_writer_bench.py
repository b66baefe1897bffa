"""The ``workers`` writer's head side measured on a machine with many cores, with pylance and tantivy
alone: how many chunks a second one head node commits while GPU nodes embed.

    python bench/head_writer_bench.py --units 16 --shards 16          # 16 x 65,536 chunks
    python bench/head_writer_bench.py --corpus corpus.jsonl.gz --out head.json

``bench/sink_bench.py`` measures the writer through :class:`pipelines.sink.writer.IndexSink` and Ray
on this 2-core box and projects a bigger head from per-chunk CPU. This bench runs where Ray and
LanceDB are not installed (the lent GPU machine: 16 cores, torch, no Ray), so it makes the same
library calls as the pipeline's three parts without them, each part in its own processes:

* **fragment writers** (the worker side, :mod:`pipelines.sink.fragments`): ``--writers`` processes
  each take a unit of ``--unit-chunks`` chunks (the GPU default ``ingest.writer_batch_rows``),
  flattened by :mod:`pipelines.sink.flatten` from :func:`sink_bench.build_batches` records, and write
  its ``chunks``, ``sections``, ``embed_cache`` and ``documents`` rows as uncommitted Lance fragments
  (``lance.fragment.write_fragments``), render its BM25 documents (:func:`pipelines.sink.flatten.
  bm25_documents`) and route them to shards (:func:`cluster.store.bm25.shards_of`);
* **the driver** (:class:`IndexSink`'s commit in ``workers`` mode, in this process): per unit, sends
  each BM25 shard its row numbers, commits one Lance ``Append`` per table (``documents`` last), then
  waits for every shard's commit;
* **BM25 shard writers** (:class:`pipelines.sink.bm25_shards.Bm25ShardWriter`): one process per
  shard, a :class:`cluster.store.bm25.Bm25Index` with one indexing thread, reading the unit's
  documents from shared memory (``/dev/shm`` Arrow files, as Ray's object store) and taking its rows.

Each unit's rows are the base unit's with every id prefixed by the unit number (same texts and
vectors, new documents). Not measured here: the driver's journal and bookkeeping, which
``sink_bench`` times at a few µs a chunk. Prints (and ``--out`` writes) JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

DIM = 384
ORDER = ("chunks", "sections", "embed_cache", "documents")  # the driver's commit order: documents last
ID_COLUMNS = ("doc_id", "chunk_id", "section_id", "parent_id", "text_hash")
RESULTS = REPO / "bench" / "results" / "head_writer.jsonl"
SHM = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())


def schemas() -> dict[str, pa.Schema]:
    from cluster.store.embed_cache import cache_schema
    from cluster.store.schema import DOCUMENTS_SCHEMA, chunks_schema, sections_schema

    return {"chunks": chunks_schema(DIM), "sections": sections_schema(DIM), "embed_cache": cache_schema(DIM),
            "documents": DOCUMENTS_SCHEMA}


def base_unit(unit_chunks: int, doc_chunks: int, corpus: str | None) -> dict[str, pa.Table]:
    """The four tables' rows of one unit, as a fragment-writing worker flattens them."""
    import sink_bench
    from cluster.store.embed_cache import cache_rows
    from pipelines.sink.flatten import document_meta, documents_table, flatten_chunks, flatten_sections

    if corpus:
        sink_bench.DATA = Path(corpus)
    batches, _ = sink_bench.build_batches(unit_chunks, doc_chunks=doc_chunks)
    docs = pa.concat_tables(batches).combine_chunks()
    cache = cache_rows("bench", pc.list_flatten(docs.column("new_cache_keys")),
                       pc.list_flatten(docs.column("new_cache_vectors")), DIM)
    return {"chunks": flatten_chunks(docs, DIM), "sections": flatten_sections(docs, DIM), "embed_cache": cache,
            "documents": documents_table(document_meta(docs))}


def relabel(rows: pa.Table, unit: int) -> pa.Table:
    """``rows`` as new documents: every id column prefixed with the unit number."""
    prefix = f"u{unit:05d}-"
    for name in ID_COLUMNS:
        if name in rows.column_names:
            column = rows.column(name)
            rows = rows.set_column(rows.column_names.index(name), name,
                                   pc.binary_join_element_wise(prefix, column, "").cast(column.type))
    return rows


_BASE: dict[str, pa.Table] = {}


def write_unit(args: tuple) -> dict:
    """One fragment writer's unit: fragments of the four tables, the BM25 documents and their shards."""
    from lance.fragment import write_fragments

    from cluster.store.bm25 import shards_of
    from pipelines.sink.flatten import bm25_documents

    unit, base_dir, uris, shard_counts = args
    if not _BASE:
        for name in ORDER:
            _BASE[name] = pa.ipc.open_file(pa.memory_map(str(Path(base_dir) / f"{name}.arrow"))).read_all()
    target = schemas()
    started, cpu = time.perf_counter(), time.process_time()
    fragments, chunks = {}, None
    for name in ORDER:
        rows = relabel(_BASE[name], unit)
        chunks = rows if name == "chunks" else chunks
        fragments[name] = [json.dumps(f.to_json()) for f in write_fragments(rows, uris[name], schema=target[name])]
    lance_s = time.perf_counter() - started
    documents = pa.array(bm25_documents(chunks), pa.string())
    routed = {f"shard_{n}": shards_of(chunks.column("doc_id"), n) for n in shard_counts}
    path = SHM / f"bm25-{os.getpid()}-{unit}.arrow"
    table = pa.table({"bm25": documents, **routed})
    with pa.ipc.new_file(str(path), table.schema) as sink:
        sink.write_table(table)
    return {"unit": unit, "fragments": fragments, "bm25": str(path), "chunks": chunks.num_rows,
            "seconds": time.perf_counter() - started, "lance_s": lance_s, "cpu_s": time.process_time() - cpu}


def shard_main(path: str, conn, threads: int) -> None:
    """One BM25 shard writer: ``("add", arrow_path, rows)``, ``("commit",)``, ``("close",)``."""
    from cluster.store.bm25 import Bm25Index

    index = Bm25Index(Path(path), create=True)
    index.open_writer(threads=threads)
    conn.send("ready")
    while True:
        message = conn.recv()
        if message[0] == "add":
            documents = pa.ipc.open_file(pa.memory_map(message[1])).read_all().column("bm25")
            index.add_json(documents.take(message[2]).to_pylist())
        elif message[0] == "commit":
            index.commit()
            conn.send(("committed", time.process_time()))
        else:
            index.close_writer()
            conn.send(("closed", time.process_time()))
            return


class Shards:
    """The shard writer processes of one BM25 index (``shards`` directories under ``path``)."""

    def __init__(self, context, path: Path, shards: int, threads: int = 1) -> None:
        self.shards = shards
        self.conns, self.procs = [], []
        for shard in range(shards):
            ours, theirs = context.Pipe()
            proc = context.Process(target=shard_main, args=(str(path / f"shard-{shard:02d}"), theirs, threads))
            proc.start()
            self.conns.append(ours)
            self.procs.append(proc)
        for conn in self.conns:
            assert conn.recv() == "ready"

    def add(self, arrow_path: str, shard_numbers: pa.Array) -> None:
        for shard, conn in enumerate(self.conns):
            mine = pc.indices_nonzero(pc.equal(shard_numbers, shard))
            if len(mine):
                conn.send(("add", arrow_path, mine))

    def commit(self) -> float:
        for conn in self.conns:
            conn.send(("commit",))
        return sum(conn.recv()[1] for conn in self.conns)

    def close(self) -> float:
        for conn in self.conns:
            conn.send(("close",))
        cpu = sum(conn.recv()[1] for conn in self.conns)
        for proc in self.procs:
            proc.join()
        return cpu


def head_run(context, work: Path, units: list[dict], shards: int, lance: bool) -> dict:
    """The driver over written units: BM25 to the shards, the Lance Appends (``lance``), shard commits."""
    import lance as lance_module
    from lance.fragment import FragmentMetadata

    from cluster.store.bm25 import Bm25Index

    datasets = {name: lance_module.dataset(str(work / f"{name}.lance")) for name in ORDER} if lance else {}
    bm25_path = work / f"bm25-{shards}-{'full' if lance else 'alone'}"
    pool = Shards(context, bm25_path, shards)
    started, cpu = time.perf_counter(), time.process_time()
    lance_s = wait_s = 0.0
    for unit in units:
        table = pa.ipc.open_file(pa.memory_map(unit["bm25"])).read_all()
        pool.add(unit["bm25"], table.column(f"shard_{shards}").combine_chunks())
        t = time.perf_counter()
        for name in ORDER if lance else ():
            metadata = [FragmentMetadata.from_json(f) for f in unit["fragments"][name]]
            dataset = datasets[name]
            datasets[name] = lance_module.LanceDataset.commit(dataset, lance_module.LanceOperation.Append(metadata),
                                                              read_version=dataset.version)
        lance_s += time.perf_counter() - t
        t = time.perf_counter()
        pool.commit()
        wait_s += time.perf_counter() - t
    elapsed = time.perf_counter() - started
    driver_cpu = time.process_time() - cpu
    shard_cpu = pool.close()
    chunks = sum(u["chunks"] for u in units)
    out = {"shards": shards, "lance": lance, "chunks": chunks, "seconds": round(elapsed, 3),
           "chunks_per_s": round(chunks / elapsed), "driver_lance_s": round(lance_s, 3),
           "driver_waits_for_bm25_s": round(wait_s, 3), "driver_cpu_us_per_chunk": round(driver_cpu / chunks * 1e6, 2),
           "shards_cpu_us_per_chunk": round(shard_cpu / chunks * 1e6, 2)}
    # What was committed, to check against what was written (``check``).
    out["bm25_docs"] = sum(Bm25Index(bm25_path / f"shard-{s:02d}").num_docs() for s in range(shards))
    if lance:
        out["rows"] = {name: datasets[name].count_rows() for name in ORDER}
    return out


def check(result: dict, written: dict[str, int]) -> None:
    """Every run committed exactly the rows the fragment writers wrote, and BM25 every chunk."""
    for run in result["head"] + result["bm25_alone"]:
        assert run["bm25_docs"] == written["chunks"], (run, written)
        assert run.get("rows", written) == written, (run, written)


def run_shape(context, work: Path, args, doc_chunks: int) -> dict:
    import lance

    started = time.perf_counter()
    base = base_unit(args.unit_chunks, doc_chunks, args.corpus)
    base_dir = work / "base"
    base_dir.mkdir(parents=True)
    for name, rows in base.items():
        with pa.ipc.new_file(str(base_dir / f"{name}.arrow"), rows.schema) as sink:
            sink.write_table(rows)
    build_s = time.perf_counter() - started
    uris = {}
    for name, schema in schemas().items():
        uris[name] = str(work / f"{name}.lance")
        lance.write_dataset(schema.empty_table(), uris[name], schema=schema)
    shard_counts = sorted(set(args.shards) | set(args.bm25_alone))
    jobs = [(unit, str(base_dir), uris, shard_counts) for unit in range(args.units)]
    started = time.perf_counter()
    with context.Pool(args.writers) as pool:
        units = sorted(pool.imap_unordered(write_unit, jobs), key=lambda u: u["unit"])
    write_s = time.perf_counter() - started
    chunks = sum(u["chunks"] for u in units)
    result = {"doc_chunks": doc_chunks, "chunks_per_document": round(chunks / (base["documents"].num_rows * args.units), 2),
              "units": args.units, "unit_chunks": base["chunks"].num_rows, "build_s": round(build_s, 1),
              "fragment_writers": {"processes": args.writers, "seconds": round(write_s, 2),
                                   "chunks_per_s": round(chunks / write_s),
                                   "chunks_per_s_per_process": round(chunks / sum(u["seconds"] for u in units)),
                                   "lance_share": round(sum(u["lance_s"] for u in units) / sum(u["seconds"] for u in units), 3)},
              "head": [], "bm25_alone": []}
    print(json.dumps(result["fragment_writers"]), flush=True)
    for shards in args.shards:
        result["head"].append(head_run(context, work, units, shards, lance=True))
        print(json.dumps(result["head"][-1]), flush=True)
    for shards in args.bm25_alone:
        result["bm25_alone"].append(head_run(context, work, units, shards, lance=False))
        print(json.dumps(result["bm25_alone"][-1]), flush=True)
    for unit in units:
        Path(unit["bm25"]).unlink(missing_ok=True)
    check(result, {name: base[name].num_rows * args.units for name in ORDER})
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=16)
    parser.add_argument("--unit-chunks", type=int, default=65_536)
    parser.add_argument("--writers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    parser.add_argument("--shards", type=int, nargs="+", default=[16])
    parser.add_argument("--bm25-alone", type=int, nargs="*", default=[8, 16, 24])
    parser.add_argument("--doc-chunks", type=int, nargs="+", default=[0, 32],
                        help="document shapes: 0 = SciFact abstracts (~2.5 chunks), 32 = manual-page-like")
    parser.add_argument("--corpus", default=None, help="SciFact corpus.jsonl.gz (default: ../shared/data/scifact)")
    parser.add_argument("--work", default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--no-record", action="store_true", help=f"do not append to {RESULTS.relative_to(REPO)}")
    args = parser.parse_args()
    context = mp.get_context("spawn")
    work = Path(args.work or tempfile.mkdtemp(prefix="head-writer-"))
    result = {"cpus": os.cpu_count(), "shapes": []}
    for doc_chunks in args.doc_chunks:
        result["shapes"].append(run_shape(context, work / f"shape-{doc_chunks}", args, doc_chunks))
        if args.out:
            Path(args.out).write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    if not args.no_record:
        record(result, args)


def record(result: dict, args) -> None:
    """Append the run, with its command line and the machine's CPU, to the results file."""
    import platform

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    result.update({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpu": cpu, "argv": sys.argv[1:]})
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with open(RESULTS, "a") as fh:
        fh.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
