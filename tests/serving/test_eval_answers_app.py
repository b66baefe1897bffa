"""``strata eval answers`` end to end: dev-set questions through the real answer path (the Serve app
with the product defaults, the ``app`` fixture), scored and written as a report."""

from __future__ import annotations

import json

import pytest
from support import REPO

from offline.eval.qa_format import load_qa

DEV_SET = REPO / "bench" / "data" / "answers-dev.jsonl"
pytestmark = pytest.mark.timeout(900)


def test_eval_answers_cli_against_the_app(app, tmp_path):
    from click.testing import CliRunner

    from cli.main import main

    url, _ = app
    examples = load_qa(DEV_SET)
    chosen = [e for e in examples if e.id in ("epoll-edge-flag", "glob-posix2-year")]
    qa = tmp_path / "qa.jsonl"
    qa.write_text("".join(json.dumps(e.to_json()) + "\n" for e in chosen))
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["eval", "answers", str(qa), "--url", url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "refusal accuracy" in result.output and "[2/2]" in result.output
    report = json.loads((out / "answers-report.json").read_text())
    m = report["metrics"]
    assert (m["n_questions"], m["n_answerable"], m["n_unanswerable"], m["n_errors"]) == (2, 1, 1, 0)
    assert m["latency_ms_p50"] > 0 and report["meta"]["url"] == url
    for row in report["results"]:
        assert row["verdict"] in ("pass", "fail", "blank", "refused")
        if not row["refused"]:  # an answer the service let through carries its citations
            assert row["n_citations"] >= 1 and row["answer"]
    rows = {r["id"]: r for r in report["results"]}
    answered = rows["epoll-edge-flag"]  # answered, scored against the gold answer, citations checked
    assert not answered["refused"] and answered["n_citations"] >= 1 and answered["citation_precision"] is not None
    assert answered["contains"] == 1.0
    assert all(r["refused"] for r in report["results"] if not r["answerable"])
    assert "| epoll-edge-flag | yes |" in (out / "answers-report.md").read_text()
