"""BEIR-format data sets: load them, write the corpus as Markdown files for Strata, split queries.

A BEIR directory holds ``corpus.jsonl`` (or ``corpus.jsonl.gz``) with ``{"_id", "title", "text"}``
rows, ``queries.jsonl`` with ``{"_id", "text"}`` rows and ``qrels/<split>.tsv`` with
``query-id  corpus-id  score`` rows (with or without that header line).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "corpus.jsonl").write_text('{"_id": "d1", "title": "Cats", "text": "Cats purr."}\\n')
>>> _ = (root / "queries.jsonl").write_text('{"_id": "q1", "text": "do cats purr"}\\n')
>>> (root / "qrels").mkdir(); _ = (root / "qrels" / "test.tsv").write_text("query-id\\tcorpus-id\\tscore\\nq1\\td1\\t1\\n")
>>> ds = load_beir(root)
>>> ds.corpus["d1"].title, ds.queries["q1"], ds.qrels["q1"]
('Cats', 'do cats purr', {'d1': 1})
>>> paths = write_corpus_files(ds.corpus, root / "files")
>>> paths, (root / "files" / "d1.md").read_text()
({'d1.md': 'd1'}, '# Cats\\n\\nCats purr.\\n')

Strata hits carry ``path`` = the file's path relative to the ingested root (posix separators,
``pipelines.sources.files``), so ``paths[hit.path]`` is the BEIR corpus id.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BeirDataset", "CorpusDoc", "corpus_file_name", "corpus_paths", "load_beir", "load_corpus", "load_qrels",
           "load_queries", "read_id_list", "safe_file_stem", "split_queries", "write_corpus_files", "write_id_list"]


@dataclass(frozen=True, slots=True)
class CorpusDoc:
    doc_id: str
    title: str
    text: str


@dataclass
class BeirDataset:
    """A loaded BEIR data set: ``corpus`` by id, ``queries`` (id → text), ``qrels`` (qid → {doc id: rel})."""

    corpus: dict[str, CorpusDoc]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    split: str = "test"
    root: Path | None = field(default=None, compare=False)


def _jsonl(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not a JSON line ({exc.msg})") from None


def _find(root: Path, name: str) -> Path:
    for candidate in (root / name, root / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"neither {name} nor {name}.gz in {root}")


def load_corpus(root: str | Path) -> dict[str, CorpusDoc]:
    """``corpus.jsonl[.gz]`` → ``{_id: CorpusDoc}`` (missing title/text read as empty)."""
    out: dict[str, CorpusDoc] = {}
    for row in _jsonl(_find(Path(root), "corpus.jsonl")):
        doc_id = str(row["_id"])
        out[doc_id] = CorpusDoc(doc_id, str(row.get("title") or ""), str(row.get("text") or ""))
    return out


def load_queries(root: str | Path) -> dict[str, str]:
    """``queries.jsonl[.gz]`` → ``{_id: text}``."""
    return {str(row["_id"]): str(row.get("text") or "") for row in _jsonl(_find(Path(root), "queries.jsonl"))}


def load_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """A qrels TSV (``query-id corpus-id score``, tab-separated) → ``{qid: {doc_id: score}}``.

    Published sets come with and without the header line: a first row whose score is not a number
    is a header; TREC's four columns (``qid 0 docid score``) are read too.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.tsv").write_text("query-id\\tcorpus-id\\tscore\\nq1\\td1\\t1\\n")
    >>> _ = (d / "b.tsv").write_text("q1\\td1\\t1\\nq1\\td2\\t2\\n")
    >>> _ = (d / "c.tsv").write_text("q1\\t0\\td1\\t1\\n")
    >>> load_qrels(d / "a.tsv"), load_qrels(d / "b.tsv"), load_qrels(d / "c.tsv")
    ({'q1': {'d1': 1}}, {'q1': {'d1': 1, 'd2': 2}}, {'q1': {'d1': 1}})
    """
    out: dict[str, dict[str, int]] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for n, row in enumerate(csv.reader(fh, delimiter="\t"), start=1):
            cells = [cell.strip() for cell in row]
            if not any(cells):
                continue
            if len(cells) == 4:  # TREC: query-id, iteration, corpus-id, score
                cells = [cells[0], cells[2], cells[3]]
            if len(cells) != 3:
                raise ValueError(f"{path}:{n}: expected 3 tab-separated columns (query-id corpus-id score), "
                                 f"got {row!r}")
            try:
                score = int(float(cells[2]))
            except ValueError:
                if n == 1:
                    continue  # the header line
                raise ValueError(f"{path}:{n}: the score {cells[2]!r} is not a number") from None
            out.setdefault(cells[0], {})[cells[1]] = score
    return out


def load_beir(root: str | Path, split: str | None = None) -> BeirDataset:
    """Load a BEIR directory; ``split`` names ``qrels/<split>.tsv`` (default: the only one, else ``test``)."""
    root = Path(root)
    if split is None:
        available = sorted(p.stem for p in (root / "qrels").glob("*.tsv"))
        if not available:
            raise FileNotFoundError(f"no qrels/*.tsv in {root}")
        split = available[0] if len(available) == 1 else ("test" if "test" in available else available[0])
    qrels = load_qrels(root / "qrels" / f"{split}.tsv")
    return BeirDataset(load_corpus(root), load_queries(root), qrels, split=split, root=root)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_file_stem(doc_id: str) -> str:
    """A file-name stem for a corpus id: the id itself when it is plain, else a cleaned form plus
    a short hash (so distinct ids never collide and no id escapes the output directory).

    >>> safe_file_stem("4983"), safe_file_stem("a/b c")
    ('4983', 'a_b_c-9f597a63')
    """
    if doc_id and not _UNSAFE.search(doc_id) and not doc_id.startswith(".") and len(doc_id) <= 120:
        return doc_id
    cleaned = _UNSAFE.sub("_", doc_id).lstrip(".")[:80] or "doc"
    return f"{cleaned}-{hashlib.sha1(doc_id.encode()).hexdigest()[:8]}"


def _one_line(s: str) -> str:
    return " ".join(s.split())


def markdown_for(doc: CorpusDoc) -> str:
    """``# <title>\\n\\n<text>\\n`` (title on one line; no heading when the title is empty).

    >>> markdown_for(CorpusDoc("1", "A\\nB", "Body."))
    '# A B\\n\\nBody.\\n'
    """
    title, text = _one_line(doc.title), doc.text.strip()
    return f"# {title}\n\n{text}\n" if title else f"{text}\n"


def corpus_file_name(doc_id: str) -> str:
    """The file (relative path) :func:`write_corpus_files` writes a corpus document to.

    >>> corpus_file_name("4983"), corpus_file_name("a/b c")
    ('4983.md', 'a_b_c-9f597a63.md')
    """
    return f"{safe_file_stem(doc_id)}.md"


def corpus_paths(doc_ids: Iterable[str]) -> dict[str, str]:
    """``{relative path: corpus id}`` of :func:`write_corpus_files` without writing anything.

    >>> corpus_paths(["d1", "d2"])
    {'d1.md': 'd1', 'd2.md': 'd2'}
    """
    mapping: dict[str, str] = {}
    for doc_id in doc_ids:
        rel = corpus_file_name(doc_id)
        if rel in mapping:
            raise ValueError(f"corpus ids {mapping[rel]!r} and {doc_id!r} map to the same file {rel}")
        mapping[rel] = doc_id
    return mapping


def write_corpus_files(corpus: Mapping[str, CorpusDoc], out_dir: str | Path) -> dict[str, str]:
    """Write each document to ``<out_dir>/<safe id>.md``; return ``{relative path: corpus id}``.

    Files whose content is already right are left untouched (same mtime), so a re-ingest of the
    directory skips them as unchanged. Files are never deleted.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    mapping = corpus_paths(corpus)
    for rel, doc_id in mapping.items():
        doc = corpus[doc_id]
        target = out / rel
        content = markdown_for(doc).encode("utf-8")
        try:
            if target.read_bytes() == content:
                continue
        except FileNotFoundError:
            pass
        tmp = target.with_name(f".{rel}.tmp")
        tmp.write_bytes(content)
        tmp.replace(target)
    return mapping


def _bucket(query_id: str, seed: str) -> float:
    digest = hashlib.sha1(f"{seed}\x1f{query_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_queries(query_ids: Iterable[str], held_out_fraction: float = 0.2,
                  seed: str = "strata-heldout-v1") -> tuple[list[str], list[str]]:
    """Deterministic ``(train, held_out)`` split by ``sha1(seed, query id)``: a query's side never
    depends on the other ids, their order or the Python version. Both lists are sorted.

    >>> train, held = split_queries([str(i) for i in range(1000)], 0.2)
    >>> len(held), sorted(set(train) & set(held))
    (208, [])
    >>> split_queries(["7", "3"], 0.0)
    (['3', '7'], [])
    """
    if not 0.0 <= held_out_fraction <= 1.0:
        raise ValueError("held_out_fraction must be within [0, 1]")
    train: list[str] = []
    held: list[str] = []
    for qid in sorted(set(query_ids)):
        (held if _bucket(qid, seed) < held_out_fraction else train).append(qid)
    return train, held


def write_id_list(ids: Iterable[str], path: str | Path, header: str = "") -> None:
    """One id a line (``#`` lines are comments), e.g. the pinned held-out query ids."""
    lines = [f"# {h}" for h in header.splitlines()] + list(ids)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_id_list(path: str | Path) -> list[str]:
    """The ids of a :func:`write_id_list` file, in file order."""
    return [ln.strip() for ln in Path(path).read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]
