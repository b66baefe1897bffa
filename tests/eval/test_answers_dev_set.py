"""The answer dev set (bench/data/answers-dev.jsonl) against the real sample-corpus index: every
evidence piece is where it says (document, section, text) and a gold answer is literally in it."""

from __future__ import annotations

from support import REPO

from cluster.store.schema import CHUNKS
from serving.eval.answer_metrics import normalize_text
from serving.eval.evidence import locate
from serving.eval.qa_format import load_qa

DEV_SET = REPO / "bench" / "data" / "answers-dev.jsonl"


def test_dev_set_shape():
    examples = load_qa(DEV_SET)
    answerable = [e for e in examples if e.answerable]
    assert 25 <= len(examples) <= 35 and len(examples) - len(answerable) >= 8
    assert all(e.evidence for e in answerable), "every answerable question names its evidence"


def test_dev_set_evidence_is_in_the_sample_index(sample_index):
    from serving.index_view import IndexView

    cfg, _ = sample_index
    view = IndexView.open(cfg)
    chunks = view.store.table(CHUNKS).to_arrow().select(["path", "section_path", "text"]).to_pylist()
    for example in load_qa(DEV_SET):
        for piece in example.evidence:
            holders = locate(piece, chunks)
            assert holders, f"{example.id}: evidence {piece} not found in the index"
            assert any(normalize_text(g) in normalize_text(c["text"]) for g in example.answers for c in holders), \
                f"{example.id}: no gold answer in the evidence passage"
