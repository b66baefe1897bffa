"""The Jargon File answer set (``bench/jargon_set.py``): a second open-domain kind, written by hand without
running the answerer, held out from calibration. Its evidence must be in its entries, its unanswerable
questions' answers must be absent from every entry naming their subject, and its tune and test halves must
never ask about the same entry (so a feature read off the tune half cannot have seen the test half)."""

from __future__ import annotations

import json
import sys

from support import REPO

from offline.eval.qa_format import load_qa

DATA = REPO / "bench" / "data"


def test_the_set_is_verified_and_its_splits_share_no_entry():
    sys.path.insert(0, str(REPO / "bench"))
    from jargon_set import check, load_corpus

    checks = json.loads((DATA / "jargon" / "checks.json").read_text())
    questions = [json.loads(line) for line in (DATA / "jargon" / "questions.jsonl").read_text().splitlines() if line]
    assert check(load_corpus(), questions, checks) == []
    tune, test = load_qa(DATA / "answers-jargon-tune.jsonl"), load_qa(DATA / "answers-jargon-test.jsonl")
    assert {e.id for e in tune} | {e.id for e in test} == {q["id"] for q in questions}
    assert not {checks[e.id]["document"] for e in tune} & {checks[e.id]["document"] for e in test}
    for split in (tune, test):
        assert sum(e.answerable for e in split) >= 14 and sum(not e.answerable for e in split) >= 14
