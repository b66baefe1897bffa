"""The extractive answerer on questions of a kind it was never calibrated on: web-published business
reports (``../shared/data/business-reports``; the answerability model was fitted on manual pages), with
on-topic unanswerable questions that ask about another country, year or count than the reports state
(``bench/data/answers-reports.jsonl``). The index holds the reports these questions come from; it is
built with the product defaults. Answers and refusals are asserted, not only shapes: before the
anchors rule (serving/answer/anchors.py) it refused 2 of these 19 unanswerable questions."""

from __future__ import annotations

import gzip
import json

import pytest
from support import REPO, SHARED_DATA, answer_tally, make_config

from offline.eval.qa_format import load_qa

QA = REPO / "bench" / "data" / "answers-reports.jsonl"


@pytest.fixture(scope="module")
def reports_pipeline(tmp_path_factory, ray_session, installed_models):
    from pipelines.ingest import run_ingest
    from serving.services.local import AnswerPipeline

    source = SHARED_DATA / "business-reports" / "corpus.jsonl.gz"
    if not source.is_file():
        pytest.skip(f"business-reports not available at {source}")
    examples = load_qa(QA)
    reports = {e.evidence[0].document.split("_chunk_")[0] for e in examples if e.answerable}
    root = tmp_path_factory.mktemp("reports")
    corpus = root / "corpus"
    corpus.mkdir()
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            if doc["_id"].split("_chunk_")[0] in reports:
                (corpus / f"{doc['_id']}.md").write_text(f"# {doc['title']}\n\n{doc['text']}\n", encoding="utf-8")
    cfg = make_config(root / "index")
    report = run_ingest(cfg, corpus, source="business-reports")
    assert report.failed == []
    pipe = AnswerPipeline(cfg)
    yield pipe, examples
    pipe.close()


def test_refuses_what_the_reports_do_not_say_and_answers_what_they_do(reports_pipeline):
    pipe, examples = reports_pipeline
    t = answer_tally(pipe, examples, short="equal")
    assert t["refused"] >= 0.75 * t["unanswerable"], (t["refused"], t["unanswerable"], t["wrong"])
    assert t["right"] >= 0.8 * t["answerable"], (t["right"], t["answerable"], t["wrong"])
    assert t["cited"] >= 0.9 * t["answered"], (t["cited"], t["answered"], t["wrong"])
    assert t["short"] >= 0.6 * t["answerable"], (t["short"], t["answerable"])


def test_a_refusal_names_the_anchor_the_passages_lack(reports_pipeline):
    from serving.protocol import AnswerRequest

    pipe, _ = reports_pipeline
    response = pipe.answer(AnswerRequest(question="What was UK GDP growth in the second quarter?", use_cache=False))
    assert response.refused and "do not mention uk" in response.refusal_reason, response
