"""Evidence recall of context packs (the awareness benchmark's scoring), checked by hand."""

from __future__ import annotations

import doctest
import json

import pytest
from support import REPO

import offline.eval.context_recall as context_recall
from offline.eval.context_recall import load_questions, parse_question, score_pack, summarize_runs
from offline.eval.qa_format import QAFormatError

QUESTIONS = REPO / "bench" / "data" / "awareness-questions.jsonl"


def test_docstring_examples():
    result = doctest.testmod(context_recall)
    assert result.attempted > 0 and result.failed == 0


def _q(kind="same-document", evidence=None):
    evidence = evidence if evidence is not None else [
        {"document": "man7/epoll.7.gz", "section": "VERSIONS", "text": "introduced in Linux kernel 2.5.44"},
        {"document": "man7/epoll.7.gz", "section": "/proc interfaces", "text": "roughly 90 bytes on a 32-bit kernel"}]
    return json.dumps({"id": "q", "kind": kind, "question": "When and how much?", "evidence": evidence})


def test_score_pack_by_hand():
    q = parse_question(_q())
    version = {"path": "man7/epoll.7.gz", "section_path": "VERSIONS",
               "text": "The epoll API was introduced in Linux kernel 2.5.44. Support was added in glibc 2.3.2."}
    cost = {"path": "man7/epoll.7.gz", "section_path": "DESCRIPTION > /proc interfaces",
            "text": "Each registered file descriptor costs roughly 90 bytes on a 32-bit\nkernel"}
    elsewhere = {"path": "man7/inotify.7.gz", "section_path": "VERSIONS", "text": "roughly 90 bytes on a 32-bit kernel"}
    assert score_pack(q, [version]) == (0.5, False)
    assert score_pack(q, [elsewhere]) == (0.0, False)  # the right text in another document does not count
    assert score_pack(q, [cost, version]) == (1.0, True)
    assert score_pack(q, []) == (0.0, False)


def test_summarize_by_hand():
    rows = [
        {"config": "plain", "budget": 500, "recall": 0.5, "all_found": False, "used_tokens": 400},
        {"config": "plain", "budget": 500, "recall": 0.0, "all_found": False, "used_tokens": 500},
        {"config": "awareness", "budget": 500, "recall": 1.0, "all_found": True, "used_tokens": 450},
        {"config": "awareness", "budget": 500, "recall": 0.5, "all_found": False, "used_tokens": 490},
    ]
    summary = summarize_runs(rows)
    assert summary[("plain", 500)] == {"questions": 2, "recall": 0.25, "all_found": 0.0, "used_tokens": 450.0}
    assert summary[("awareness", 500)] == {"questions": 2, "recall": 0.75, "all_found": 0.5, "used_tokens": 470.0}


@pytest.mark.parametrize("line, message", [
    ("nope", "not valid JSON"),
    (_q(kind="two-documents"), "does not fit the evidence documents"),
    (_q(kind="same-documents"), "kind must be one of"),
    (_q(evidence=[{"document": "a", "text": "x"}]), "at least two evidence pieces"),
    (_q(evidence=[{"document": "a", "text": "x"}, {"document": "a", "section": "S"}]), "each with a text"),
    (json.dumps({"id": "q", "kind": "same-document", "question": "?"}), "exactly the keys"),
])
def test_malformed_questions(line, message):
    with pytest.raises(QAFormatError, match=message):
        parse_question(line, where="f:1")


def test_benchmark_question_file():
    questions = load_questions(QUESTIONS)
    kinds = [q.kind for q in questions]
    assert 20 <= len(questions) <= 40
    assert kinds.count("same-document") >= 8 and kinds.count("two-documents") >= 8
    assert len({q.question for q in questions}) == len(questions)
    for q in questions:  # same-document pieces are in different sections
        if q.kind == "same-document":
            assert len({p.section for p in q.evidence}) == len(q.evidence), q.id
