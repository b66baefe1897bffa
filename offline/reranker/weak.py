"""Weakly supervised query → passage sets mined from documentation trees (``strata reranker weak-set``).

Two kinds of pseudo-queries, each with exactly one relevant corpus document, written as a BEIR
directory (``corpus.jsonl.gz``, ``queries.jsonl``, ``qrels/train.tsv``, ``weak.json``) that
``strata reranker train --weak-set DIR`` ingests, mines with Strata's own retriever (hard
negatives) and mixes into training:

- **heading → section body**: every section of the *heading* files becomes a document holding its
  own body only (heading removed, no title), as ``bench/headings_set.py`` builds the LLVM set; a
  heading that is unique in the sample, has ≥ 2 words (or looks like an identifier) and whose body
  has ≥ ``min_words`` words is a query;
- **inverse cloze task** (Lee et al., 2019): every prose paragraph of the *ICT* files becomes a
  document; in a paragraph of ≥ 3 sentences one sentence (seeded) is the query and is removed
  from its paragraph, so the pair never matches on the sentence's own words.

Files are sampled per tree in ``sha1(seed, path)`` order; half of them (by hash) feed headings, the
other half ICT, so no text is both a heading-query document and an ICT document. Evaluation
corpora must never be used here (``llvm-14-doc`` builds the LLVM headings set; business reports
and SciFact are BEIR sets): :func:`build_weak_set` refuses trees whose name or path names them.

>>> _ict_split("Alpha beta gamma delta epsilon zeta. Eta theta iota kappa lambda mu. Nu xi omicron pi rho.", 1, 3)
('Eta theta iota kappa lambda mu.', 'Alpha beta gamma delta epsilon zeta. Nu xi omicron pi rho.')
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = ["EVALUATION_CORPORA", "KNOWN_TREES", "DocTree", "build_weak_set", "known_tree"]

SEED = "strata-weak-v1"
#: Corpora the held-out figures are measured on: never a weak-supervision source.
EVALUATION_CORPORA = ("llvm-14-doc", "llvm", "business-reports", "scifact", "samples")
#: Debian documentation packages with their tree (under the unpacked package root), glob and licence.
KNOWN_TREES: dict[str, tuple[str, str, str]] = {
    "python3.11-doc": ("usr/share/doc/python3.11/html/_sources", "**/*.rst.txt", "PSF-2.0 (Python documentation)"),
    "postgresql-doc-15": ("usr/share/doc/postgresql-doc-15/html", "*.html", "PostgreSQL Licence"),
    "linux-doc-6.1": ("usr/share/doc/linux-doc-6.1/Documentation", "**/*.rst.gz", "GPL-2.0"),
}
_WORD = re.compile(r"\w+")
_IDENTIFIER = re.compile(r"[._:/-]|[a-z][A-Z]|\d")
_ALPHA = re.compile(r"^[A-Za-z][a-z'-]*[.,;:]?$")
_MARKUP = re.compile(r"^\s*(\.\.|\||\+[-=]|[-=~^*#]{4,}|>>>|\$ )")


@dataclass(frozen=True)
class DocTree:
    """One documentation tree: a name (the Debian package), its folder, a file glob and its licence."""

    name: str
    root: Path
    pattern: str
    licence: str


def known_tree(name: str, unpacked: Path) -> DocTree:
    """The :data:`KNOWN_TREES` entry ``name`` under a folder where its package was unpacked
    (``dpkg-deb -x NAME_*.deb unpacked``)."""
    sub, pattern, licence = KNOWN_TREES[name]
    return DocTree(name, Path(unpacked) / sub, pattern, licence)


def _key(text: str, seed: str) -> str:
    return hashlib.sha1(f"{seed}\x1f{text}".encode()).hexdigest()


def _clean_heading(title: str) -> str:
    return " ".join(title.replace("``", "").replace("'", " ").replace('"', " ").split())


def _prose(paragraph: str) -> bool:
    """A paragraph of running text: no markup lines, and ≥ 60 % plain words."""
    lines = paragraph.strip().splitlines()
    if not lines or any(_MARKUP.match(line) for line in lines):
        return False
    tokens = paragraph.split()
    return len(tokens) >= 12 and sum(bool(_ALPHA.match(t)) for t in tokens) >= 0.6 * len(tokens)


def _ict_split(paragraph: str, pick: int, min_sentences: int) -> tuple[str, str] | None:
    """``(sentence, rest of the paragraph)`` with the ``pick``-th usable sentence removed (``None``
    when the paragraph has fewer than ``min_sentences`` sentences or no usable one)."""
    from pipelines.chunk.sentences import split_sentences

    text = " ".join(paragraph.split())
    spans = split_sentences(text)
    if len(spans) < min_sentences:
        return None
    usable = [i for i, (a, b) in enumerate(spans) if 6 <= len(_WORD.findall(text[a:b])) <= 45]
    if not usable:
        return None
    i = usable[pick % len(usable)]
    a, b = spans[i]
    rest = " ".join(text[x:y] for j, (x, y) in enumerate(spans) if j != i)
    return text[a:b], rest


def _sections(tree: DocTree, path: Path) -> list[tuple[int, str, str]]:
    """``(ordinal, heading, body)`` of every section with a body (``level > 0``)."""
    from pipelines.parse import ParseError, parse_bytes

    rel = str(path.relative_to(tree.root))
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
        rel = rel.removesuffix(".gz")
    try:
        doc = parse_bytes(raw, path=rel, doc_id=rel)
    except ParseError:
        return []
    return [(s.ordinal, _clean_heading(s.title), s.text) for s in doc.sections if s.level > 0 and s.text.strip()]


def _check_sources(trees: Sequence[DocTree]) -> None:
    for t in trees:
        named = f"{t.name} {t.root}".lower()
        bad = [c for c in EVALUATION_CORPORA if c in named]
        if bad:
            raise ValueError(f"{t.name} ({t.root}) looks like an evaluation corpus ({bad}): never train on those")


def build_weak_set(trees: Sequence[DocTree], out: Path, *, files: int = 120, heading_queries: int = 400,
                   ict_queries: int = 400, min_words: int = 30, seed: str = SEED) -> dict[str, Any]:
    """Write the weak BEIR set of ``trees`` to ``out`` (first ``files`` files of each tree in hash
    order; at most ``heading_queries`` + ``ict_queries`` queries, picked in hash order); returns the
    statistics also stored in ``out/weak.json``."""
    _check_sources(trees)
    corpus: dict[str, str] = {}
    headings: list[tuple[str, str, str]] = []  # (query key, heading, doc id)
    ict: list[tuple[str, str, str]] = []       # (query key, sentence, doc id)
    per_tree: dict[str, dict[str, Any]] = {}
    for tree in trees:
        paths = sorted((p for p in tree.root.glob(tree.pattern) if p.is_file()),
                       key=lambda p: _key(str(p.relative_to(tree.root)), seed))[:files]
        stats = {"licence": tree.licence, "root": str(tree.root), "pattern": tree.pattern, "files": len(paths),
                 "heading_files": 0, "ict_files": 0}
        tree_sections: list[tuple[str, str, str]] = []
        for path in sorted(paths):
            rel = str(path.relative_to(tree.root)).removesuffix(".gz")
            stem = f"{tree.name}/{rel}"
            if int(_key("role\x1f" + rel, seed)[:8], 16) % 2 == 0:
                stats["heading_files"] += 1
                for ordinal, heading, body in _sections(tree, path):
                    flat = " ".join(body.split())
                    doc_id = f"{stem}#{ordinal}"
                    corpus[doc_id] = flat
                    tree_sections.append((doc_id, heading, flat))
            else:
                stats["ict_files"] += 1
                for ordinal, _heading, body in _sections(tree, path):
                    for n, para in enumerate(p for p in re.split(r"\n\s*\n", body) if p.strip()):
                        if not _prose(para):
                            continue
                        doc_id = f"{stem}#{ordinal}.p{n}"
                        key = _key(doc_id, seed)
                        split = _ict_split(para, int(key[:8], 16), 3)
                        if split is not None and len(_WORD.findall(split[1])) >= min_words:
                            corpus[doc_id] = split[1]
                            ict.append((key, split[0], doc_id))
                        else:
                            corpus[doc_id] = " ".join(para.split())
        counts = Counter(h.lower() for _d, h, _b in tree_sections)
        for doc_id, heading, body in tree_sections:
            words = _WORD.findall(heading)
            if (counts[heading.lower()] == 1 and len(heading) <= 120 and len(_WORD.findall(body)) >= min_words
                    and (len(words) >= 2 or bool(words and _IDENTIFIER.search(heading)))):
                headings.append((_key(doc_id, seed), heading, doc_id))
        per_tree[tree.name] = stats
    chosen = ([("h", *q) for q in sorted(headings)[:heading_queries]] +
              [("i", *q) for q in sorted(ict)[:ict_queries]])
    queries = {f"{kind}{key[:10]}": (text, doc) for kind, key, text, doc in chosen}
    for tree in trees:
        prefix = f"{tree.name}/"
        per_tree[tree.name].update(
            docs=sum(d.startswith(prefix) for d in corpus),
            heading_queries=sum(q.startswith("h") and d.startswith(prefix) for q, (_t, d) in queries.items()),
            ict_queries=sum(q.startswith("i") and d.startswith(prefix) for q, (_t, d) in queries.items()))
    out = Path(out)
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "corpus.jsonl.gz", "wt", encoding="utf-8") as fh:
        for doc_id in sorted(corpus):
            fh.write(json.dumps({"_id": doc_id, "title": "", "text": corpus[doc_id]}) + "\n")
    (out / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n"
                                               for q, (t, _d) in sorted(queries.items())))
    (out / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t1\n" for q, (_t, d) in sorted(queries.items())))
    record = {"seed": seed, "files_per_tree": files, "min_words": min_words,
              "docs": len(corpus), "words": sum(len(t.split()) for t in corpus.values()),
              "heading_queries": sum(q.startswith("h") for q in queries),
              "ict_queries": sum(q.startswith("i") for q in queries),
              "eligible": {"heading": len(headings), "ict": len(ict)},
              "trees": per_tree, "sources": [asdict(t) | {"root": str(t.root)} for t in trees]}
    (out / "weak.json").write_text(json.dumps(record, indent=2) + "\n")
    return record
