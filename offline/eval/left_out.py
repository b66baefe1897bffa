"""What an evaluation leaves out, and why: corpus documents that are not in the index (empty,
binary, unreadable …), queries over the query limit (truncated at a word boundary and still
evaluated), queries with no text, and queries none of whose judged documents are in the index
(not evaluated: they measure the data, not the retrieval). The metrics are computed over the
evaluated queries; the report states every count and lists each item with its reason.

>>> truncate_at_word("the quick brown fox", 12)
'the quick'
>>> plan = plan_queries({"q1": "cats", "q2": "dogs " * 10, "q3": " ", "q4": "birds"},
...                     {"q1": {"d1": 1}, "q2": {"d1": 1}, "q3": {"d1": 1}, "q4": {"e1": 1, "d1": 0}},
...                     limit=16, left_out_docs={"e1": {"reason": "empty"}})
>>> list(plan.queries), plan.queries["q2"]
(['q1', 'q2'], 'dogs dogs dogs')
>>> plan.counts()
{'queries_selected': 4, 'queries_evaluated': 2, 'queries_truncated': 1, 'queries_skipped_empty': 1, 'queries_judged_documents_left_out': 1, 'queries_some_judged_documents_left_out': 0}
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["QueryPlan", "describe_left_out", "documents_left_out", "failure_reasons", "plan_queries",
           "truncate_at_word", "truncation_note"]

_LAST_SPACE = re.compile(r"\s\S*\Z")


def truncate_at_word(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters: at the last whitespace before the cut when the cut
    would split a word (a single word longer than ``limit`` is cut inside), outer whitespace removed.

    >>> truncate_at_word("alpha beta gamma", 10), truncate_at_word("alpha beta gamma", 11)
    ('alpha beta', 'alpha beta')
    >>> truncate_at_word("x" * 30, 8), truncate_at_word("short", 8), truncate_at_word("  a b   ", 3)
    ('xxxxxxxx', 'short', 'a b')
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    if not text[limit].isspace():
        m = _LAST_SPACE.search(head)
        if m and head[:m.start()].strip():
            head = head[:m.start()]
    return head.rstrip()


def truncation_note(chars: int, kept: int, limit: int, what: str = "query") -> str:
    """The reason recorded for a truncated query or question.

    >>> truncation_note(2100, 1996, 2000)
    'query is 2100 characters; the limit is 2000: truncated at a word boundary to 1996 characters'
    """
    return f"{what} is {chars} characters; the limit is {limit}: truncated at a word boundary to {kept} characters"


def failure_reasons(failed: Iterable[Sequence[str]], corpus_dir: str | Path) -> dict[str, tuple[str, str]]:
    """``{relative path: (reason, detail)}`` of an ingest report's failed files (``(path, reason, detail)``;
    discovery names a file by its full path, the parse stage by its path relative to ``corpus_dir``).

    >>> failure_reasons([("/c/e1.md", "empty", "no content"), ("b1.md", "binary", "NUL bytes")], "/c")
    {'e1.md': ('empty', 'no content'), 'b1.md': ('binary', 'NUL bytes')}
    """
    roots = {Path(corpus_dir), Path(corpus_dir).resolve()}
    out: dict[str, tuple[str, str]] = {}
    for path, reason, *detail in failed:
        rel = str(path)
        if os.path.isabs(rel):
            for root in roots:
                try:
                    rel = Path(path).relative_to(root).as_posix()
                    break
                except ValueError:
                    continue
        out[rel] = (str(reason or "failed"), str(detail[0] if detail else "") or "")
    return out


def documents_left_out(path_to_id: Mapping[str, str], indexed_paths: Iterable[str],
                       failures: Mapping[str, tuple[str, str]] | None = None, *,
                       ingested: bool = True) -> dict[str, dict[str, str]]:
    """``{corpus id: {"id", "file", "reason", "detail"}}`` of the corpus documents whose file is not in
    the index, with the ingest's reason when it gave one (``not_indexed`` otherwise).

    >>> documents_left_out({"d1.md": "d1", "e1.md": "e1", "x.md": "x"}, ["d1.md"], {"e1.md": ("empty", "no content")})
    {'e1': {'id': 'e1', 'file': 'e1.md', 'reason': 'empty', 'detail': 'no content'}, 'x': {'id': 'x', 'file': 'x.md', 'reason': 'not_indexed', 'detail': 'not in the index after the ingest'}}
    """
    present = set(indexed_paths)
    failures = failures or {}
    absent = ("not in the index after the ingest" if ingested
              else "not in the index (evaluated with --no-ingest; ingest the corpus to see why)")
    out: dict[str, dict[str, str]] = {}
    for rel, corpus_id in path_to_id.items():
        if rel in present:
            continue
        reason, detail = failures.get(rel, ("not_indexed", absent))
        out[corpus_id] = {"id": corpus_id, "file": rel, "reason": reason, "detail": detail}
    return out


@dataclass
class QueryPlan:
    """The queries an evaluation runs (``queries``: id → the text asked, ``qrels``: their judgments) and
    what it left out: ``truncated`` (evaluated, shortened), ``skipped_empty`` and ``judged_left_out``
    (not evaluated), ``partly_left_out`` (evaluated; some of their judged documents are not indexed)."""

    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    selected: int
    limit: int
    truncated: list[dict[str, Any]] = field(default_factory=list)
    skipped_empty: list[dict[str, Any]] = field(default_factory=list)
    judged_left_out: list[dict[str, Any]] = field(default_factory=list)
    partly_left_out: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {"queries_selected": self.selected, "queries_evaluated": len(self.queries),
                "queries_truncated": len(self.truncated), "queries_skipped_empty": len(self.skipped_empty),
                "queries_judged_documents_left_out": len(self.judged_left_out),
                "queries_some_judged_documents_left_out": len(self.partly_left_out)}


def plan_queries(texts: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]], *, limit: int,
                 left_out_docs: Mapping[str, Any] | None = None) -> QueryPlan:
    """Decide, per selected query (``texts`` order), whether and how it is evaluated: a blank one is
    skipped; one whose judged (relevant) documents were all left out is not evaluated (counted
    apart); one over ``limit`` characters is truncated at a word boundary and evaluated. Judgments
    stay as given (a left-out document of a partly affected query still counts in its ideal ranking)."""
    left = left_out_docs or {}
    plan = QueryPlan({}, {}, selected=len(texts), limit=limit)
    for qid, text in texts.items():
        if not text.strip():
            plan.skipped_empty.append({"id": qid, "reason": "empty: the query has no text"})
            continue
        relevant = [d for d, rel in qrels[qid].items() if rel > 0]
        gone = [d for d in relevant if d in left]
        if relevant and len(gone) == len(relevant):
            named = [f"{d}: {left[d]['reason']}" if isinstance(left[d], Mapping) else d for d in gone]
            plan.judged_left_out.append({
                "id": qid, "judged": gone,
                "reason": f"all {len(gone)} judged document{'s' * (len(gone) != 1)} left out of the index "
                          f"({_some(named)})"})
            continue
        if gone:
            plan.partly_left_out.append({"id": qid, "judged": len(relevant), "left_out": gone})
        if len(text) > limit:
            asked = truncate_at_word(text, limit)
            plan.truncated.append({"id": qid, "chars": len(text), "kept_chars": len(asked),
                                   "reason": truncation_note(len(text), len(asked), limit)})
            text = asked
        plan.queries[qid] = text
        plan.qrels[qid] = dict(qrels[qid])
    return plan


def _some(items: Sequence[str], n: int = 5) -> str:
    return ", ".join(items[:n]) + (f", … ({len(items) - n} more)" if len(items) > n else "")


def describe_left_out(left_out: Mapping[str, Any], corpus_docs: int | None = None) -> list[str]:
    """Plain lines for the command's output: what was left out and why (the report lists every item).

    >>> describe_left_out({"documents": [{"id": "e1", "reason": "empty"}], "counts": {"queries_selected": 2,
    ...     "queries_evaluated": 2, "queries_truncated": 1}, "queries_truncated": [{"id": "q2", "chars": 2100,
    ...     "kept_chars": 1996}], "query_limit": 2000}, corpus_docs=3)
    ['left out: 1 of 3 corpus documents (empty 1): e1 (empty)', 'queries: 2 selected, 2 evaluated; 1 truncated to the 2000-character limit at a word boundary: q2 (2100 → 1996 characters)']
    """
    lines = []
    docs = list(left_out.get("documents", []))
    if docs:
        by_reason = Counter(d["reason"] for d in docs)
        of = f" of {corpus_docs}" if corpus_docs is not None else ""
        lines.append(f"left out: {len(docs)}{of} corpus documents ("
                     + ", ".join(f"{k} {v}" for k, v in sorted(by_reason.items())) + "): "
                     + _some([f"{d['id']} ({d['reason']})" for d in docs]))
    c = left_out.get("counts", {})
    parts = [f"queries: {c.get('queries_selected', 0)} selected, {c.get('queries_evaluated', 0)} evaluated"]
    if left_out.get("queries_truncated"):
        parts.append(f"{len(left_out['queries_truncated'])} truncated to the {left_out.get('query_limit')}-character "
                     "limit at a word boundary: " + _some([f"{q['id']} ({q['chars']} → {q['kept_chars']} characters)"
                                                             for q in left_out["queries_truncated"]]))
    if left_out.get("queries_skipped_empty"):
        parts.append(f"{len(left_out['queries_skipped_empty'])} skipped (no text): "
                     + _some([q["id"] for q in left_out["queries_skipped_empty"]]))
    if left_out.get("queries_judged_documents_left_out"):
        items = left_out["queries_judged_documents_left_out"]
        parts.append(f"{len(items)} not evaluated (all their judged documents were left out): "
                     + _some([q["id"] for q in items]))
    if c.get("queries_some_judged_documents_left_out"):
        parts.append(f"{c['queries_some_judged_documents_left_out']} evaluated with some judged documents left out")
    lines.append("; ".join(parts))
    return lines
