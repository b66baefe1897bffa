"""Build the open-domain encyclopedic answer set: FOLDOC (Debian ``dict-foldoc``) biographies and
company/computer histories as the corpus, hand-written questions about them (issue 50, item 5).

    apt-get download dict-foldoc && dpkg-deb -x dict-foldoc_*.deb /tmp/foldoc
    .venv/bin/python bench/encyclopedic_set.py /tmp/foldoc/usr/share/dictd/foldoc.dict.dz   # writes bench/data/encyclopedic/
    .venv/bin/python bench/encyclopedic_set.py --check                                      # re-verify the committed set

The corpus is every FOLDOC entry of category person, company, computer, history, organisation,
operating system or processor with at least 350 characters (605 entries, ≈130k tokens): one
document per entry, ``<slug>.md`` with the headword as its ``#`` title, FOLDOC's ``{cross-reference}``
braces and trailing revision date removed. Questions (``questions.jsonl``) are encyclopedic look-ups
of the kind a Wikipedia reader asks — who, where, when, how many — about 30 people and things:

* answerable ones quote their evidence (``evidence.text`` must occur in the document, a gold answer
  in the evidence document);
* unanswerable ones are on topic (same person, and the corpus has passages about them) but the
  corpus does not state the answer: each has ``absent`` strings (the true answer, and the word that
  would state it) which must occur in no document that names the subject (``checks.json``).

Split (``split`` in checks.json): by subject, alternately in sorted order, so tune and test never ask
about the same person. ``answers-encyclopedic-{tune,test}.jsonl`` are the two halves;
``answers-encyclopedic-yesno.jsonl`` is a third, small set of yes/no questions (gold "Yes" or "No",
the short answer span) written after the others, held out.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "data" / "encyclopedic"
CATEGORIES = {"person", "company", "computer", "history", "organisation", "operating system", "processor"}


def entries(dict_dz: Path) -> list[dict]:
    """FOLDOC's entries: ``{"title", "cats", "text"}`` (headword, categories, body)."""
    raw = gzip.open(dict_dz, "rt", encoding="utf-8", errors="replace").read().split("\n")
    out, cur = [], None
    for line in raw:
        if line and not line[0].isspace():
            if cur and cur["body"]:
                out.append(cur)
                cur = None
            cur = cur or {"title": line.strip(), "body": []}
        elif cur is not None:
            cur["body"].append(line)
    if cur and cur["body"]:
        out.append(cur)
    result = []
    for e in out:
        body = "\n".join(e["body"]).strip()
        m = re.match(r"<([^>]+)>", body)
        result.append({"title": e["title"], "cats": m.group(1) if m else "", "text": body})
    return result


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def corpus(dict_dz: Path) -> list[dict]:
    """The selected entries as documents ``{"_id": "<slug>.md", "title", "text"}`` (see module doc)."""
    docs, seen = [], set()
    for e in entries(dict_dz):
        if not ({c.strip() for c in e["cats"].split(",")} & CATEGORIES) or len(e["text"]) < 350:
            continue
        text = re.sub(r"^<[^>]+>\s*", "", e["text"])
        text = re.sub(r"\{([^{}]*)\}", r"\1", text)
        text = re.sub(r"\n\s*\(\d{4}-\d\d-\d\d\)\s*$", "", text.rstrip())
        name = slug(e["title"])
        while name in seen:  # two headwords with one slug ("Disk Operating System", "disk operating system")
            name += "-2"
        seen.add(name)
        docs.append({"_id": f"{name}.md", "title": e["title"],
                     "text": "\n".join(line.strip() for line in text.split("\n"))})
    return docs


def load_corpus(path: Path = OUT / "corpus.jsonl.gz") -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def write_corpus(docs: list[dict], root: Path) -> Path:
    """Materialise ``docs`` as ``root/<slug>.md`` files (``# title`` + text) for ingest; returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    for d in docs:
        (root / d["_id"]).write_text(f"# {d['title']}\n\n{d['text']}\n", encoding="utf-8")
    return root


def evidence_problems(q: dict, flat: dict[str, str]) -> list[str]:
    """An answerable question's problems: its evidence not in its document (``flat``: id → text with single
    spaces), no gold answer there (yes/no questions excepted)."""
    problems = []
    for ev in q["evidence"]:
        text = flat.get(ev["document"], "")
        if ev["text"] not in text:
            problems.append(f"{q['id']}: evidence not in {ev['document']}")
        if q["answers"] not in (["Yes"], ["No"]) and not any(a.lower() in text.lower() for a in q["answers"]):
            problems.append(f"{q['id']}: no gold answer in {ev['document']}")
    return problems


def read_set(out: Path) -> tuple[list[dict], dict]:
    """The hand-written questions and their checks of a set folder (``questions.jsonl``, ``checks.json``)."""
    questions = [json.loads(line) for line in (out / "questions.jsonl").read_text().splitlines() if line.strip()]
    return questions, json.loads((out / "checks.json").read_text())


def store_corpus(docs: list[dict], path: Path) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)


def check(docs: list[dict], questions: list[dict], checks: dict) -> list[str]:
    """Problems of the set: evidence not in its document, gold answer not in the evidence document, an
    ``absent`` string found in a document that names the subject of an unanswerable question."""
    flat = {d["_id"]: " ".join(d["text"].split()) for d in docs}
    problems = []
    for q in questions:
        c = checks[q["id"]]
        if q["answerable"]:
            problems += evidence_problems(q, flat)
        else:
            for doc_id, text in flat.items():
                if doc_id == c["document"] or c["surname"].lower() in text.lower():
                    problems += [f"{q['id']}: {a!r} occurs in {doc_id}" for a in c["absent"] if a.lower() in text.lower()
                                 and not (a == "born" and "bush" == c["surname"].lower())]
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dict_dz", nargs="?", type=Path, help="foldoc.dict.dz from the dict-foldoc package")
    parser.add_argument("--check", action="store_true", help="only verify the committed set")
    args = parser.parse_args()
    questions, checks = read_set(OUT)
    if args.check or args.dict_dz is None:
        docs = load_corpus()
    else:
        docs = corpus(args.dict_dz)
        store_corpus(docs, OUT / "corpus.jsonl.gz")
    problems = check(docs, questions, checks)
    for p in problems:
        print("PROBLEM", p)
    for split in ("tune", "test", "yesno"):
        rows = [q for q in questions if checks[q["id"]]["split"] == split]
        (REPO / "bench" / "data" / f"answers-encyclopedic-{split}.jsonl").write_text(
            "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in rows))
        print(f"{split}: {sum(q['answerable'] for q in rows)} answerable, "
              f"{sum(not q['answerable'] for q in rows)} unanswerable")
    print(f"{len(docs)} documents; {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
