"""`strata eval retrieval` and `strata eval answers` on real-world data: empty and binary corpus
documents and over-long queries/questions. The run finishes, the metrics are over the evaluated
queries, and the report (report.json, report.md, the command's output) says what was left out and why."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import offline.eval.left_out as left_out_mod
from offline.eval.left_out import truncate_at_word

LIMIT = 2000  # retrieval.max_query_chars, the default
GOOD = {
    "cats": ("Cats", "Cats purr when they are content, and sometimes when they are stressed or hurt."),
    "dogs": ("Dogs", "Dogs bark at strangers and wag their tails when they are happy to see someone."),
    "birds": ("Birds", "Birds sing at dawn to mark their territory and to attract mates in the spring."),
}
#: the long query: 2,100 characters of words (an abstract pasted as a query), about cats
LONG_QUERY = ("why do cats purr when they are content or stressed " * 60)[:2100]


def test_docstring_examples():
    assert doctest.testmod(left_out_mod).failed == 0


def test_truncation_keeps_whole_words_within_the_limit():
    cut = truncate_at_word(LONG_QUERY, LIMIT)
    assert len(LONG_QUERY) == 2100 and len(cut) <= LIMIT
    assert LONG_QUERY.startswith(cut) and LONG_QUERY[len(cut)].isspace()  # ends where a word ends


def write_beir(root: Path) -> None:
    """3 real documents, 2 empty ones (one blank, one whitespace), 1 binary one; 5 judged queries: two
    plain, one of 2,100 characters, one judged only on the empty and binary documents, one with no text."""
    docs = [{"_id": d, "title": t, "text": x} for d, (t, x) in GOOD.items()]
    docs += [{"_id": "empty-1", "title": "", "text": ""}, {"_id": "empty-2", "title": "", "text": "  \n "},
             {"_id": "binary-1", "title": "", "text": "\x00\x01\x02PK\x03\x04\x00\x00" * 40}]
    queries = [{"_id": "q-cats", "text": "do cats purr"}, {"_id": "q-dogs", "text": "why do dogs bark"},
               {"_id": "q-long", "text": LONG_QUERY}, {"_id": "q-orphan", "text": "what is in the empty files"},
               {"_id": "q-blank", "text": ""}]
    qrels = [("q-cats", "cats"), ("q-dogs", "dogs"), ("q-long", "cats"), ("q-orphan", "empty-1"),
             ("q-orphan", "binary-1"), ("q-blank", "birds")]
    root.mkdir(parents=True)
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n"
                                             + "".join(f"{q}\t{d}\t1\n" for q, d in qrels))


@pytest.fixture(scope="module")
def retrieval_run(tmp_path_factory, ray_session):
    from click.testing import CliRunner

    from cli.main import main

    base = tmp_path_factory.mktemp("eval-left-out")
    write_beir(base / "messy")
    args = ["--data-dir", str(base / "index"), "eval", "retrieval", str(base / "messy"), "--configs", "bm25",
            "--top-k-sweep", "", "--out", str(base / "out")]
    result = CliRunner().invoke(main, args)
    return base, result


def test_eval_retrieval_finishes_and_reports_what_it_left_out(retrieval_run):
    base, result = retrieval_run
    assert result.exit_code == 0, result.output + repr(result.exception)
    report = json.loads((base / "out" / "report.json").read_text())
    bm25 = report["results"][0]
    assert bm25["name"] == "bm25" and bm25["status"] == "ok"
    # the metrics are over the evaluated queries: the two plain ones and the truncated one
    assert sorted(bm25["per_query"]) == ["q-cats", "q-dogs", "q-long"] and bm25["counts"]["queries"] == 3
    assert bm25["metrics"]["ndcg@10"] == pytest.approx(1.0) and bm25["metrics"]["recall@100"] == pytest.approx(1.0)
    ds = report["dataset"]
    assert ds["queries"] == 3 and ds["queries_selected"] == 5
    left = ds["left_out"]
    assert left["counts"] == {
        "corpus_docs": 6, "documents_indexed": 3, "documents_left_out": 3, "queries_selected": 5,
        "queries_evaluated": 3, "queries_truncated": 1, "queries_skipped_empty": 1,
        "queries_judged_documents_left_out": 1, "queries_some_judged_documents_left_out": 0}
    docs = {d["id"]: d for d in left["documents"]}
    assert set(docs) == {"empty-1", "empty-2", "binary-1"}
    assert docs["empty-1"]["reason"] == docs["empty-2"]["reason"] == "empty"
    assert docs["binary-1"]["reason"] == "binary" and "NUL" in docs["binary-1"]["detail"]
    assert docs["binary-1"]["file"] == "binary-1.md"
    (long_q,) = left["queries_truncated"]
    assert long_q["id"] == "q-long" and long_q["chars"] == 2100 and 1900 < long_q["kept_chars"] <= LIMIT
    assert "the limit is 2000" in long_q["reason"] and "word boundary" in long_q["reason"]
    (orphan,) = left["queries_judged_documents_left_out"]
    assert orphan["id"] == "q-orphan" and sorted(orphan["judged"]) == ["binary-1", "empty-1"]
    assert "empty-1: empty" in orphan["reason"] and "binary-1: binary" in orphan["reason"]
    assert [q["id"] for q in left["queries_skipped_empty"]] == ["q-blank"]

    md = (base / "out" / "report.md").read_text()
    assert "3 of 5 selected judged queries evaluated" in md and "## Left out" in md
    assert "| `empty-1` | `empty-1.md` | empty |" in md and "| `binary-1` | `binary-1.md` | binary |" in md
    assert f"| `q-long` | 2100 | {long_q['kept_chars']} |" in md
    assert "| `q-orphan` | all 2 judged documents left out" in md and "| `q-blank` | empty" in md

    out = result.output
    assert "left out: 3 of 6 corpus documents (binary 1, empty 2)" in out
    assert "1 truncated to the 2000-character limit at a word boundary: q-long (2100 →" in out
    assert "1 not evaluated (all their judged documents were left out): q-orphan" in out
    assert "bm25: ndcg@10=1.0000" in out


def test_eval_retrieval_no_ingest_reports_the_same_documents(retrieval_run):
    """Without the ingest, the documents missing from the index are still found and named."""
    from click.testing import CliRunner

    from cli.main import main

    base, first = retrieval_run
    assert first.exit_code == 0, first.output
    result = CliRunner().invoke(main, ["--data-dir", str(base / "index"), "eval", "retrieval", str(base / "messy"),
                                       "--configs", "bm25", "--top-k-sweep", "", "--no-ingest",
                                       "--out", str(base / "again")])
    assert result.exit_code == 0, result.output + repr(result.exception)
    left = json.loads((base / "again" / "report.json").read_text())["dataset"]["left_out"]
    assert {d["id"]: d["reason"] for d in left["documents"]} == \
        {"empty-1": "not_indexed", "empty-2": "not_indexed", "binary-1": "not_indexed"}
    assert left["counts"]["queries_evaluated"] == 3 and left["counts"]["queries_judged_documents_left_out"] == 1


def test_eval_answers_truncates_an_over_long_question_and_says_so(ray_session, installed_models, tmp_path):
    """`eval answers` over an index ingested (`strata ingest`) from a corpus with empty and binary files:
    a 2,100-character question is asked truncated, scored, and named in the report and the output,
    instead of failing on the limit."""
    from click.testing import CliRunner

    from cli.main import main

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, (title, text) in GOOD.items():
        (corpus / f"{name}.md").write_text(f"# {title}\n\n{text}\n")
    (corpus / "empty.md").write_text("")
    (corpus / "blank.txt").write_text("  \n")
    (corpus / "binary.md").write_bytes(b"\x00\x01\x02PK\x03\x04\x00\x00" * 40)
    data_dir = str(tmp_path / "index")
    ingested = CliRunner().invoke(main, ["--data-dir", data_dir, "ingest", str(corpus)])
    assert ingested.exit_code == 3, ingested.output + repr(ingested.exception)  # the bad files: reported, status 3
    qa = tmp_path / "qa.jsonl"
    rows = [{"id": "cats", "question": "Why do cats purr?", "answers": ["content"], "answerable": True},
            {"id": "long", "question": LONG_QUESTION, "answers": ["content"], "answerable": True}]
    qa.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["--data-dir", data_dir, "eval", "answers", str(qa), "--out", str(out)])
    assert result.exit_code == 0, result.output + repr(result.exception)
    report = json.loads((out / "answers-report.json").read_text())
    m = report["metrics"]
    assert (m["n_questions"], m["n_errors"], m.get("n_truncated")) == (2, 0, 1), result.output
    rows = {r["id"]: r for r in report["results"]}
    assert rows["cats"]["truncated"] is None and rows["cats"]["error"] is None
    long = rows["long"]
    assert long["error"] is None and long["question"] == LONG_QUESTION  # the report keeps the question as given
    assert long["truncated"].startswith("question is 2100 characters; the limit is 2000: truncated at a word boundary")
    md = (out / "answers-report.md").read_text()
    assert "| questions truncated to the limit | 1 |" in md and "- long: question is 2100 characters" in md
    assert "| long | yes | answered (truncated) |" in md or "| long | yes | refused (truncated) |" in md
    assert "1 over the 2000-character limit, asked truncated at a word boundary: long" in result.output
    assert "1 question(s) over the question limit, asked truncated" in result.output


LONG_QUESTION = ("Why do cats purr when they are content, and what else makes them purr? " * 40)[:2100]
