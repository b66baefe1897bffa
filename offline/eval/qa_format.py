"""QA sets for answer evaluation: one JSON object per line (JSONL), loaded with clear errors.

Each line is a question with its gold answers::

    {"id": "futex-size",
     "question": "How many bytes long is the futex integer on all platforms?",
     "answers": ["four bytes", "four", "4 bytes"],
     "answerable": true,
     "evidence": [{"document": "man7/futex.7.gz", "section": "DESCRIPTION",
                   "text": "This integer is four bytes long on all platforms"}]}

* ``id`` — unique string; ``question`` — non-empty string;
* ``answers`` — gold answer strings (any one counts); required and non-empty when
  ``answerable`` is true, empty (or omitted) when it is false;
* ``answerable`` — false for questions the corpus does not answer (the system should refuse);
* ``evidence`` (optional) — where the answer is: ``document`` is the document's path as ingested
  (relative to the ingested root, e.g. ``man7/epoll.7.gz`` when ``samples/corpus`` is ingested),
  ``section`` a section title or title path (``"DESCRIPTION > Semantics"``, root → leaf; optional)
  and ``text`` a short string the right passage contains (optional, but a piece needs ``section``
  or ``text``). A citation is correct when it points into the document and its section matches
  or its passage contains the text (:func:`offline.eval.answer_metrics.citation_is_evidence`).

Blank lines and lines starting with ``#`` are skipped.

>>> ex = parse_qa_line('{"id": "q1", "question": "Who?", "answers": ["Ann"], "answerable": true}')
>>> ex.id, ex.answers, ex.answerable, ex.evidence
('q1', ('Ann',), True, ())
>>> parse_qa_line('{"id": "q2", "question": "Who?", "answerable": true}', where="dev.jsonl:7")
Traceback (most recent call last):
...
offline.eval.qa_format.QAFormatError: dev.jsonl:7: an answerable question needs a non-empty "answers" list
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["Evidence", "QAExample", "QAFormatError", "load_qa", "parse_evidence", "parse_qa_line",
           "parse_qa_lines"]

_KEYS = {"id", "question", "answers", "answerable", "evidence"}
_EVIDENCE_KEYS = {"document", "section", "text"}


class QAFormatError(ValueError):
    """A malformed QA line; the message starts with ``file:line``."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a gold answer is: a document (path as ingested), a section title/path, a text snippet."""

    document: str
    section: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class QAExample:
    id: str
    question: str
    answers: tuple[str, ...]
    answerable: bool
    evidence: tuple[Evidence, ...] = ()

    def to_json(self) -> dict:
        """The JSONL form (round-trips through :func:`parse_qa_line`)."""
        out = {"id": self.id, "question": self.question, "answers": list(self.answers), "answerable": self.answerable}
        if self.evidence:
            out["evidence"] = [{k: v for k, v in asdict(e).items() if v is not None} for e in self.evidence]
        return out


def _fail(where: str, message: str) -> QAFormatError:
    return QAFormatError(f"{where}: {message}")


def _string(obj: dict, key: str, where: str, *, required: bool = True) -> str | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f'"{key}" must be a non-empty string, got {value!r}')
    return value


def parse_evidence(items: object, where: str = "<evidence>") -> tuple[Evidence, ...]:
    """Parse an ``evidence`` list (``None`` → no evidence).

    >>> parse_evidence([{"document": "man7/glob.7.gz", "text": "/etc/glob"}])
    (Evidence(document='man7/glob.7.gz', section=None, text='/etc/glob'),)
    """
    if items is None:
        return ()
    if not isinstance(items, list):
        raise _fail(where, f'"evidence" must be a list of objects, got {type(items).__name__}')
    out = []
    for i, item in enumerate(items):
        at = f"{where} evidence[{i}]"
        if not isinstance(item, dict):
            raise _fail(at, f"must be an object, got {item!r}")
        unknown = set(item) - _EVIDENCE_KEYS
        if unknown:
            raise _fail(at, f"unknown keys {sorted(unknown)} (allowed: {sorted(_EVIDENCE_KEYS)})")
        piece = Evidence(_string(item, "document", at), _string(item, "section", at, required=False),
                         _string(item, "text", at, required=False))
        if piece.section is None and piece.text is None:
            raise _fail(at, 'needs "section" or "text" (or both)')
        out.append(piece)
    return tuple(out)


def parse_qa_line(line: str, *, where: str = "<line>") -> QAExample:
    """Parse one JSONL line into a :class:`QAExample` (raises :class:`QAFormatError`)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _fail(where, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise _fail(where, f"expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - _KEYS
    if unknown:
        raise _fail(where, f"unknown keys {sorted(unknown)} (allowed: {sorted(_KEYS)})")
    qid = _string(obj, "id", where)
    question = _string(obj, "question", where)
    answerable = obj.get("answerable")
    if not isinstance(answerable, bool):
        raise _fail(where, f'"answerable" must be true or false, got {answerable!r}')
    answers = obj.get("answers", [])
    if not isinstance(answers, list) or not all(isinstance(a, str) and a.strip() for a in answers):
        raise _fail(where, f'"answers" must be a list of non-empty strings, got {answers!r}')
    if answerable and not answers:
        raise _fail(where, 'an answerable question needs a non-empty "answers" list')
    if not answerable and answers:
        raise _fail(where, 'an unanswerable question must have no gold "answers"')
    return QAExample(qid, question, tuple(answers), answerable, parse_evidence(obj.get("evidence"), where))


def parse_qa_lines(lines: Iterable[str], *, source: str = "<qa>") -> list[QAExample]:
    """Parse JSONL lines (blank and ``#`` lines skipped); ids must be unique."""
    examples: list[QAExample] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{source}:{number}"
        example = parse_qa_line(line, where=where)
        if example.id in seen:
            raise _fail(where, f"duplicate id {example.id!r} (first on line {seen[example.id]})")
        seen[example.id] = number
        examples.append(example)
    return examples


def load_qa(path: str | Path) -> list[QAExample]:
    """Load a QA set from a JSONL file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qa.jsonl"
    >>> _ = p.write_text('{"id": "a", "question": "Q?", "answerable": false}\\n\\n')
    >>> [(e.id, e.answerable) for e in load_qa(p)]
    [('a', False)]
    """
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        return parse_qa_lines(fh, source=str(path))
