"""Build the open-domain Jargon File answer set: the long entries of The Jargon File 4.4.7 (Debian
``dict-jargon``, public domain) as the corpus, hand-written questions about them.

    apt-get download dict-jargon && dpkg-deb -x dict-jargon_*.deb /tmp/jargon
    .venv/bin/python bench/jargon_set.py /tmp/jargon/usr/share/dictd/jargon.dict.dz   # writes bench/data/jargon/corpus.jsonl.gz
    .venv/bin/python bench/jargon_set.py --check                                      # re-verify the committed set

The corpus is every entry whose body (without the headword, pronunciation and part-of-speech lines) has at least
400 characters — the ones that carry history and etymology: who coined a term, where, when —
capped at ``MAX_CHARS`` of text (longest first, the questions' documents always kept). One document
per entry, ``<slug>.md`` with the headword as its title, ``{cross-reference}`` braces removed and
indentation stripped. Entries are cut out of the ``.dict.dz`` by the dictd ``.index`` next to it
(some entries quote verbatim text whose lines start in column 0, so headword lines cannot be told
apart by indentation alone).

Questions (``questions.jsonl``) are encyclopedic look-ups — who, when, where, how many, what does
X mean, yes/no — about terms, programs, machines and places:

* answerable ones quote their evidence (``evidence.text`` must occur in the document, a gold answer
  in the evidence document, except "Yes"/"No");
* unanswerable ones are on topic (the corpus has an entry for the subject) but the corpus does not
  state the answer: each ``absent`` string of ``checks.json`` must occur in no document that names
  the subject (``subject``, case-insensitive) nor in the subject's own document.

Split (:func:`splits`): by entry, alternately in sorted order, into ``bench/data/answers-jargon-tune.jsonl`` and
``bench/data/answers-jargon-test.jsonl`` (held out).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import encyclopedic_set  # noqa: E402  (the FOLDOC set's corpus and check helpers)

OUT = REPO / "bench" / "data" / "jargon"
MIN_BODY = 400
MAX_CHARS = 1_500_000
POS = r"(n|pl|adj|adv|v|vt|vi|interj|excl|obs|prov|pref|suff|infix|prep|conj|abbrev|imp)\.?|//"
HEADER = re.compile(rf"( /.*|[\s,]*(({POS})[\s,]*)*)")  # " /pron/, n.", "n.", "imp.", "" before the body
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64(s: str) -> int:
    """A dictd index number (base64 digits, most significant first)."""
    n = 0
    for c in s:
        n = n * 64 + B64.index(c)
    return n


def entries(dict_dz: Path) -> list[dict]:
    """The Jargon File's entries ``{"title", "text"}`` (headword as printed, body without the
    headword, pronunciation and part-of-speech lines), cut out by the ``.index`` beside ``dict_dz``."""
    raw = gzip.open(dict_dz).read()
    index = dict_dz.with_name(dict_dz.name.removesuffix(".dict.dz") + ".index")
    spans = set()
    for line in index.read_text(encoding="utf-8").splitlines():
        head, off, size = line.split("\t")
        if not head.startswith("00-database"):
            spans.add((b64(off), b64(size)))
    out = []
    for off, size in sorted(spans):
        lines = raw[off:off + size].decode("utf-8", errors="replace").split("\n")
        body = lines[1:]
        while body and HEADER.fullmatch(body[0]):
            body.pop(0)
        out.append({"title": lines[0].strip(), "text": "\n".join(body).strip()})
    return out


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "entry"


def clean(text: str) -> str:
    text = re.sub(r"\{\s*([^{}]*?)\s*\}", r"\1", text)
    return "\n".join(line.strip() for line in text.split("\n"))


def corpus(dict_dz: Path, keep: frozenset[str] | set[str] = frozenset()) -> list[dict]:
    """The selected entries as documents ``{"_id": "<slug>.md", "title", "text"}`` (see module doc);
    ``keep``: document ids kept even past ``MAX_CHARS``."""
    docs, seen = [], set()
    for e in entries(dict_dz):
        text = clean(e["text"])
        name = slug(e["title"])
        while name in seen:
            name += "-2"
        seen.add(name)
        if len(text) >= MIN_BODY:
            docs.append({"_id": f"{name}.md", "title": e["title"], "text": text})
    chosen, total = set(), 0
    for d in sorted(docs, key=lambda d: (d["_id"] not in keep, -len(d["text"]))):
        if d["_id"] in keep or total + len(d["text"]) <= MAX_CHARS:
            chosen.add(d["_id"])
            total += len(d["text"])
    return [d for d in docs if d["_id"] in chosen]


def load_corpus(path: Path = OUT / "corpus.jsonl.gz") -> list[dict]:
    return encyclopedic_set.load_corpus(path)


def check(docs: list[dict], questions: list[dict], checks: dict) -> list[str]:
    """Problems of the set: evidence not in its document, gold answer not in the evidence document, an
    ``absent`` string found in a document that names the subject of an unanswerable question."""
    flat = {d["_id"]: " ".join(d["text"].split()) for d in docs}
    problems = []
    for q in questions:
        c = checks.get(q["id"])
        if c is None or c["document"] not in flat:
            problems.append(f"{q['id']}: no checks entry or its document is not in the corpus")
            continue
        if q["answerable"]:
            problems += encyclopedic_set.evidence_problems(q, flat)
        else:
            subjects = [s.lower() for s in c["subject"]]
            for doc_id, text in flat.items():
                low = text.lower()
                if doc_id == c["document"] or any(s in low for s in subjects):
                    problems += [f"{q['id']}: {a!r} occurs in {doc_id}" for a in c["absent"] if a.lower() in low]
    return problems


def splits(questions: list[dict], checks: dict) -> dict[str, list[dict]]:
    """``tune`` and ``test``: by the entry asked about, alternately in sorted order, so the two halves never ask
    about the same entry.

    >>> qs = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    >>> {k: [q["id"] for q in v] for k, v in splits(qs, {"a": {"document": "x.md"}, "b": {"document": "y.md"},
    ...                                                   "c": {"document": "x.md"}}).items()}
    {'tune': ['a', 'c'], 'test': ['b']}
    """
    order = sorted({checks[q["id"]]["document"] for q in questions})
    half = {doc: ("tune", "test")[i % 2] for i, doc in enumerate(order)}
    return {split: [q for q in questions if half[checks[q["id"]]["document"]] == split] for split in ("tune", "test")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dict_dz", nargs="?", type=Path, help="jargon.dict.dz from the dict-jargon package")
    parser.add_argument("--check", action="store_true", help="only verify the committed set")
    args = parser.parse_args()
    questions, checks = encyclopedic_set.read_set(OUT)
    if args.check or args.dict_dz is None:
        docs = load_corpus()
    else:
        docs = corpus(args.dict_dz, {c["document"] for c in checks.values()})
        encyclopedic_set.store_corpus(docs, OUT / "corpus.jsonl.gz")
    problems = check(docs, questions, checks)
    for p in problems:
        print("PROBLEM", p)
    for split, rows in splits(questions, checks).items():
        (REPO / "bench" / "data" / f"answers-jargon-{split}.jsonl").write_text(
            "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in rows))
        print(f"{split}: {sum(q['answerable'] for q in rows)} answerable, {sum(not q['answerable'] for q in rows)} unanswerable")
    print(f"{len(docs)} documents, {sum(len(d['text']) for d in docs)} characters; {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
