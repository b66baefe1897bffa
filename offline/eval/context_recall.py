"""Evidence recall of context packs (``/v1/context``) on multi-evidence questions.

A question file is JSONL, one question per line, each with at least two evidence pieces::

    {"id": "logging-levels-vs-handlers", "kind": "same-document",
     "question": "What is the default logging level, and which handler writes to sys.stderr?",
     "evidence": [{"document": "python-howto/logging.rst.txt", "section": "When to use logging",
                   "text": "The default level is ``WARNING``"},
                  {"document": "python-howto/logging.rst.txt", "section": "Useful Handlers",
                   "text": "StreamHandler instances send messages to streams"}]}

``kind`` is ``same-document`` (two distant sections of one document) or ``two-documents``;
evidence pieces use the fields of :class:`offline.eval.qa_format.Evidence` and each needs a
``text`` (the string that must appear in the pack). A pack's **evidence recall** is the share of
pieces whose text appears in a passage of the piece's document; **all found** is 1 when every
piece does.

>>> q = parse_question('{"id": "q", "kind": "two-documents", "question": "?", "evidence": ['
...                    '{"document": "a.md", "text": "alpha"}, {"document": "b.md", "text": "beta"}]}')
>>> score_pack(q, [{"path": "a.md", "section_path": "", "text": "… alpha …"}])
(0.5, False)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from offline.eval.evidence import evidence_recall, piece_found
from offline.eval.qa_format import Evidence, QAFormatError, parse_evidence

__all__ = ["KINDS", "EvidenceQuestion", "load_questions", "parse_question", "score_pack", "summarize_runs"]

KINDS = ("same-document", "two-documents")
_KEYS = {"id", "kind", "question", "evidence"}


@dataclass(frozen=True, slots=True)
class EvidenceQuestion:
    id: str
    kind: str
    question: str
    evidence: tuple[Evidence, ...]


def parse_question(line: str, *, where: str = "<line>") -> EvidenceQuestion:
    """Parse one line (raises :class:`~offline.eval.qa_format.QAFormatError` naming ``where``)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise QAFormatError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict) or set(obj) - _KEYS or not _KEYS <= set(obj):
        raise QAFormatError(f"{where}: expected an object with exactly the keys {sorted(_KEYS)}")
    if obj["kind"] not in KINDS:
        raise QAFormatError(f"{where}: kind must be one of {KINDS}, got {obj['kind']!r}")
    for key in ("id", "question"):
        if not isinstance(obj[key], str) or not obj[key].strip():
            raise QAFormatError(f"{where}: {key!r} must be a non-empty string")
    pieces = parse_evidence(obj["evidence"], where)
    if len(pieces) < 2 or any(p.text is None for p in pieces):
        raise QAFormatError(f"{where}: needs at least two evidence pieces, each with a text")
    documents = {p.document for p in pieces}
    if (obj["kind"] == "same-document") != (len(documents) == 1):
        raise QAFormatError(f"{where}: kind {obj['kind']!r} does not fit the evidence documents {sorted(documents)}")
    return EvidenceQuestion(obj["id"], obj["kind"], obj["question"], pieces)


def load_questions(path: str | Path) -> list[EvidenceQuestion]:
    """Load a question file (blank and ``#`` lines skipped; ids unique)."""
    path = Path(path)
    out: list[EvidenceQuestion] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        question = parse_question(line, where=f"{path}:{number}")
        if question.id in seen:
            raise QAFormatError(f"{path}:{number}: duplicate id {question.id!r}")
        seen.add(question.id)
        out.append(question)
    return out


def score_pack(question: EvidenceQuestion, passages: Iterable[Any]) -> tuple[float, bool]:
    """(evidence recall, all pieces found) of one context pack."""
    passages = list(passages)
    recall = evidence_recall(question.evidence, passages)
    return recall, all(piece_found(p, passages) for p in question.evidence)


def summarize_runs(rows: Sequence[dict[str, Any]]) -> dict[tuple[str, int], dict[str, float]]:
    """Mean recall, all-found rate and used tokens per (configuration, budget).

    ``rows`` have ``config``, ``budget``, ``recall``, ``all_found`` and ``used_tokens``.

    >>> rows = [{"config": "plain", "budget": 500, "recall": 0.5, "all_found": False, "used_tokens": 480},
    ...         {"config": "plain", "budget": 500, "recall": 1.0, "all_found": True, "used_tokens": 500}]
    >>> summarize_runs(rows)[("plain", 500)]
    {'questions': 2, 'recall': 0.75, 'all_found': 0.5, 'used_tokens': 490.0}
    """
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["config"], row["budget"]), []).append(row)
    return {key: {"questions": len(g), "recall": sum(r["recall"] for r in g) / len(g),
                  "all_found": sum(bool(r["all_found"]) for r in g) / len(g),
                  "used_tokens": sum(r["used_tokens"] for r in g) / len(g)}
            for key, g in groups.items()}
