"""The answer QA sets (bench/data/answers-dev.jsonl for calibration, answers-test.jsonl held out) against
the real sample-corpus index: every evidence piece is where it says (document, section, text) and a gold
answer is literally in it."""

from __future__ import annotations

import pytest
from support import REPO

from cluster.store.schema import CHUNKS
from offline.eval.answer_metrics import normalize_text
from offline.eval.evidence import locate
from offline.eval.qa_format import load_qa

QA_SETS = [REPO / "bench" / "data" / "answers-dev.jsonl", REPO / "bench" / "data" / "answers-test.jsonl"]
#: How-to and yes/no questions as users type them (never fitted on; see docs/evaluation.md).
HOWTO_SETS = [REPO / "bench" / "data" / "answers-howto-tune.jsonl", REPO / "bench" / "data" / "answers-howto-test.jsonl"]


@pytest.mark.parametrize("path", QA_SETS, ids=lambda p: p.stem)
def test_qa_set_shape(path):
    examples = load_qa(path)
    answerable = [e for e in examples if e.answerable]
    assert len(examples) >= 45 and len(answerable) >= 25 and len(examples) - len(answerable) >= 20
    assert all(e.evidence for e in answerable), "every answerable question names its evidence"


def test_dev_and_test_sets_do_not_overlap():
    sets = [load_qa(p) for p in QA_SETS + HOWTO_SETS]
    for i, one in enumerate(sets):
        for other in sets[i + 1:]:
            assert not {e.id for e in one} & {e.id for e in other}
            assert not {normalize_text(e.question) for e in one} & {normalize_text(e.question) for e in other}


@pytest.mark.parametrize("path", HOWTO_SETS, ids=lambda p: p.stem)
def test_howto_set_shape(path):
    examples = load_qa(path)
    answerable = [e for e in examples if e.answerable]
    assert len(answerable) >= 12 and len(examples) - len(answerable) >= 12
    assert all(e.evidence for e in answerable), "every answerable question names its evidence"


@pytest.mark.parametrize("path", QA_SETS + HOWTO_SETS, ids=lambda p: p.stem)
def test_qa_set_evidence_is_in_the_sample_index(sample_index, path):
    from serving.index.view import IndexView

    cfg, _ = sample_index
    view = IndexView.open(cfg)
    chunks = view.store.table(CHUNKS).to_arrow().select(["path", "section_path", "text"]).to_pylist()
    for example in load_qa(path):
        for piece in example.evidence:
            holders = locate(piece, chunks)
            assert holders, f"{example.id}: evidence {piece} not found in the index"
            if set(example.answers) & {"Yes", "No"}:
                continue  # a yes/no verdict is read, not found, in the passage
            assert any(normalize_text(g) in normalize_text(c["text"]) for g in example.answers for c in holders), \
                f"{example.id}: no gold answer in the evidence passage"
