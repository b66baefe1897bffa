"""Answer-evaluation harness: metric functions against hand-computed values, the QA loader, the runner."""

from __future__ import annotations

import doctest
import json

import pytest

import offline.eval.answer_metrics as answer_metrics
import offline.eval.answers as answers
import offline.eval.evidence as evidence
import offline.eval.qa_format as qa_format
from offline.eval.answer_metrics import (
    citation_is_evidence,
    contains,
    exact_match,
    normalize_answer,
    percentile,
    section_matches,
    token_f1,
)
from offline.eval.answers import SimpleAnswer, SimpleCitation, evaluate_answers, render_markdown, write_report
from offline.eval.evidence import evidence_recall, locate
from offline.eval.qa_format import Evidence, QAExample, QAFormatError, load_qa, parse_qa_lines


def test_docstring_examples():
    for mod in (answer_metrics, answers, evidence, qa_format):
        result = doctest.testmod(mod)
        assert result.attempted > 0 and result.failed == 0, mod.__name__


# -- normalisation and answer metrics ------------------------------------------------------------------
def test_squad_normalisation():
    assert normalize_answer("  The Block-Range  INdexes. ") == "blockrange indexes"
    assert normalize_answer("An apple, a pear and THE fig") == "apple pear and fig"
    assert normalize_answer("theory") == "theory"  # articles only as whole words
    assert normalize_answer("2.5.7") == "257"


def test_exact_match_by_hand():
    assert exact_match("Block Range INdexes.", ["Block Range Index", "block range indexes"]) == 1.0
    assert exact_match("Block Range Index structure", ["Block Range Index"]) == 0.0
    assert exact_match("", ["x"]) == 0.0


def test_token_f1_by_hand():
    # "the futex integer is four bytes long" → futex integer is four bytes long (6 tokens); gold: four bytes
    # overlap 2 → P = 2/6, R = 2/2 → F1 = 2·(1/3)·1 / (1/3 + 1) = 0.5
    assert token_f1("the futex integer is four bytes long", ["four bytes"]) == pytest.approx(0.5)
    # bags of tokens: x x y vs x y y → overlap min(2,1) + min(1,2) = 2 → P = R = 2/3
    assert token_f1("x x y", ["x y y"]) == pytest.approx(2 / 3)
    # the best gold counts: vs "four" → P 1/6, R 1 → 2/7; vs "four bytes" → 0.5
    assert token_f1("the futex integer is four bytes long", ["four", "four bytes"]) == pytest.approx(0.5)
    assert token_f1("nothing shared", ["four bytes"]) == 0.0
    assert token_f1("", ["four"]) == 0.0


def test_contains_whole_tokens():
    assert contains("It was merged in Linux 2.5.7, later changed.", ["2.5.7"]) == 1.0
    assert contains("Linux 2.5.70", ["2.5.7"]) == 0.0
    assert contains("set data=writeback", ["data=writeback"]) == 1.0
    assert contains("EPOLLETX", ["EPOLLET"]) == 0.0


def test_percentile_by_hand():
    values = [40, 10, 30, 20]
    assert percentile(values, 50) == 25.0             # sorted 10 20 30 40; rank 1.5
    assert percentile(values, 95) == pytest.approx(38.5)  # rank 2.85 → 30 + 0.85·10
    assert percentile([7], 95) == 7.0
    assert percentile(values, 0) == 10 and percentile(values, 100) == 40


# -- citations and evidence -----------------------------------------------------------------------------
EVIDENCE = (Evidence("man7/futex.7.gz", "VERSIONS", "merged in Linux 2.5.7"),)


def test_section_paths_match_as_suffixes():
    assert section_matches(["DESCRIPTION", "Semantics"], "DESCRIPTION > Semantics")
    assert section_matches("DESCRIPTION > Semantics", "semantics")
    assert not section_matches(["DESCRIPTION"], "DESCRIPTION > Semantics")
    assert not section_matches(["DESCRIPTION", "Semantics"], "")


def test_citation_precision_by_hand():
    cites = [
        # evidence by section, then by text
        SimpleCitation("man7/futex.7.gz", ["VERSIONS"], "Current semantics are available from Linux 2.5.40 onward."),
        SimpleCitation("man7/futex.7.gz", ["DESCRIPTION"], "Initial futex support was merged in\nLinux 2.5.7 but"),
        SimpleCitation("man7/epoll.7.gz", ["VERSIONS"], "merged in Linux 2.5.7"),  # wrong document
        SimpleCitation("man7/futex.7.gz", ["NOTES"], "bare futexes are not intended"),  # wrong place
    ]
    assert [citation_is_evidence(c, EVIDENCE) for c in cites] == [True, True, False, False]
    qa = [QAExample("q", "When?", ("2.5.7",), True, EVIDENCE)]
    report = evaluate_answers(qa, lambda ex: SimpleAnswer("Linux 2.5.7 [1][2][3][4]", "2.5.7", False, cites))
    assert report.metrics["citation_precision"] == 0.5 and report.metrics["evidence_cited_rate"] == 1.0
    assert report.results[0].n_evidence_citations == 2


def test_evidence_recall_and_locate():
    pieces = [Evidence("man7/futex.7.gz", "VERSIONS", "merged in Linux 2.5.7"),
              Evidence("man7/epoll.7.gz", "VERSIONS", "introduced in Linux kernel 2.5.44"),
              Evidence("man7/epoll.7.gz", "DESCRIPTION > Level-triggered and edge-triggered")]
    pack = [{"path": "man7/futex.7.gz", "section_path": "VERSIONS", "text": "support was MERGED in  Linux 2.5.7"},
            {"path": "man7/epoll.7.gz", "section_path": "DESCRIPTION > Level-triggered and edge-triggered",
             "text": "EPOLLET"}]
    assert evidence_recall(pieces, pack) == pytest.approx(2 / 3)  # futex text + the section-only piece
    assert evidence_recall([], pack) == 0.0
    wrong_section = {"path": "man7/futex.7.gz", "section_path": "NOTES", "text": "merged in Linux 2.5.7"}
    assert locate(pieces[0], [wrong_section, pack[0]]) == [pack[0]]


# -- the runner ---------------------------------------------------------------------------------------------
def _clock(*times):
    it = iter(times)
    return lambda: next(it)


def test_runner_aggregates_by_hand():
    qa = [
        QAExample("a1", "When was futex merged?", ("2.5.7", "Linux 2.5.7"), True, EVIDENCE),
        QAExample("a2", "How long is the futex integer?", ("four bytes",), True, EVIDENCE),
        QAExample("u1", "Who wrote futex(7)?", (), False),
        QAExample("u2", "Default inotify watches?", (), False),
    ]
    good = SimpleCitation("man7/futex.7.gz", ["VERSIONS"], "merged in Linux 2.5.7")
    bad = SimpleCitation("man7/epoll.7.gz", ["NOTES"], "whatever")
    replies = {
        "a1": SimpleAnswer("Initial support was merged in Linux 2.5.7 [1] [2].", "2.5.7", False, [good, bad],
                           {"total": 9.0}),
        "a2": SimpleAnswer("", None, True),
        "u1": SimpleAnswer("", None, True),
        "u2": SimpleAnswer("8192 [1]", "8192", False, [bad]),
    }
    report = evaluate_answers(qa, lambda ex: replies[ex.id], clock=_clock(0, .010, 1, 1.020, 2, 2.030, 3, 3.040))
    m = report.metrics
    assert (m["n_questions"], m["n_answerable"], m["n_unanswerable"], m["n_answered"]) == (4, 2, 2, 1)
    assert m["exact_match"] == 0.5 and m["exact_match_answered"] == 1.0  # a1 right, a2 refused
    assert m["contains"] == 0.5 and m["token_f1"] == 0.5
    assert m["answer_rate"] == 0.5 and m["refusal_accuracy"] == 0.5
    assert m["citation_precision"] == 0.5 and m["citation_precision_micro"] == 0.5
    assert m["uncited_answers"] == 0
    assert m["latency_ms_p50"] == pytest.approx(25.0) and m["latency_ms_p95"] == pytest.approx(38.5)
    assert report.results[0].server_ms == 9.0


def test_prediction_falls_back_to_answer_text_without_markers():
    qa = [QAExample("q", "Which flag?", ("EPOLLET",), True)]
    report = evaluate_answers(qa, lambda ex: SimpleAnswer("EPOLLET [1]", None, False))
    assert report.metrics["exact_match"] == 1.0
    assert report.metrics["citation_precision"] is None  # no evidence, no citations
    assert report.metrics["uncited_answers"] == 1


def test_errors_are_recorded_not_raised():
    qa = [QAExample("q1", "Q?", ("x",), True), QAExample("q2", "Q?", (), False)]

    def boom(ex):
        raise RuntimeError(f"engine down for {ex.id}")

    report = evaluate_answers(qa, boom)
    assert report.metrics["n_errors"] == 2 and report.metrics["answer_rate"] == 0.0
    assert report.metrics["refusal_accuracy"] == 0.0  # an error is not a refusal
    assert report.results[0].error == "RuntimeError: engine down for q1"


def test_verdicts_and_duck_typed_responses():
    class Verification:
        verdict = "pass"

    class Response:  # the attribute shape of serving.protocol.AnswerResponse
        answer, answer_value, refused, citations, timings_ms = "x [1]", "x", False, [], {"total": 3.0}
        verification = Verification()

    report = evaluate_answers([QAExample("q", "Q?", ("x",), True)], lambda ex: Response())
    assert report.metrics["verdicts"] == {"pass": 1} and report.results[0].verdict == "pass"


def test_writers(tmp_path):
    qa = [QAExample("q|1", "Q?", ("x",), True), QAExample("u", "U?", (), False)]
    report = evaluate_answers(qa, lambda ex: SimpleAnswer("x", "x", False) if ex.answerable else
                              SimpleAnswer("", None, True), meta={"qa": "dev.jsonl"})
    paths = write_report(report, tmp_path / "out")
    data = json.loads(paths["json"].read_text())
    assert data["metrics"]["exact_match"] == 1.0 and data["meta"] == {"qa": "dev.jsonl"}
    assert [r["id"] for r in data["results"]] == ["q|1", "u"]
    md = paths["markdown"].read_text()
    assert "| refusal accuracy (unanswerable) | 1.000 |" in md
    assert "| q\\|1 | yes | answered |" in md and "| u | no | refused |" in md
    assert md == render_markdown(report)


# -- the QA format ------------------------------------------------------------------------------------------
def _line(**obj) -> str:
    return json.dumps(obj)


@pytest.mark.parametrize("line, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    (_line(id="q", question="Q?", answers=["a"], answerable=True, extra=1), "unknown keys ['extra']"),
    (_line(id="", question="Q?", answers=["a"], answerable=True), '"id" must be a non-empty string'),
    (_line(id="q", question="Q?", answers=["a"], answerable="yes"), '"answerable" must be true or false'),
    (_line(id="q", question="Q?", answers="a", answerable=True), '"answers" must be a list'),
    (_line(id="q", question="Q?", answers=[], answerable=True), "needs a non-empty"),
    (_line(id="q", question="Q?", answers=["a"], answerable=False), "must have no gold"),
    (_line(id="q", question="Q?", answers=["a"], answerable=True, evidence={"document": "d"}), "must be a list"),
    (_line(id="q", question="Q?", answers=["a"], answerable=True, evidence=[{"document": "d"}]),
     'needs "section" or "text"'),
    (_line(id="q", question="Q?", answers=["a"], answerable=True, evidence=[{"doc": "d"}]), "unknown keys ['doc']"),
])
def test_malformed_lines_name_file_and_line(line, message):
    good = _line(id="ok", question="Q?", answers=["a"], answerable=True)
    with pytest.raises(QAFormatError) as info:
        parse_qa_lines(["# comment", good, "", line], source="dev.jsonl")
    assert str(info.value).startswith("dev.jsonl:4") and message in str(info.value)


def test_duplicate_ids_and_round_trip(tmp_path):
    line = _line(id="q", question="Q?", answers=["a"], answerable=True,
                 evidence=[{"document": "man7/glob.7.gz", "section": "NAME"}])
    with pytest.raises(QAFormatError, match="duplicate id 'q' \\(first on line 1\\)"):
        parse_qa_lines([line, line], source="x")
    path = tmp_path / "qa.jsonl"
    path.write_text(line + "\n")
    [example] = load_qa(path)
    assert example.evidence == (Evidence("man7/glob.7.gz", "NAME", None),)
    assert example.to_json() == json.loads(line)
