"""A statement longer than a chunk: the chunker never ends a chunk inside one of its rows, and a context passage
that starts inside it begins with the table's caption and column heads, so its rows say which year a figure is
of, for a reader, an LLM and the extractive answerer alike (which reads no row without its header).

The statement is an HTML filing exhibit of 48 rows (four chunks); "Net loss" is its 44th row, far from its head.
"""

from __future__ import annotations

import asyncio

import pytest

from cluster.config import load_config
from pipelines.chunk.rows import cells, is_row, starts_in_table, table_head
from serving.answer.extractive import Answerability, ExtractiveAnswerer
from serving.answer.tables import row_value, table_rows
from support import make_config

CAPTION = ["HARBOUR LIGHT BIOSCIENCES, INC.", "CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands, except per share data)"]
HEADER = ["Year Ended December 31,", "2024", "2023", "2022"]
LABELS = [f"{kind} expense, program {k}" for k in range(1, 44) for kind in ("Research",)][:43]
ROWS = [[label, f"{1000 + 7 * i:,}", f"{2000 + 5 * i:,}", f"{3000 + 3 * i:,}"] for i, label in enumerate(LABELS)]
ROWS += [["Net loss", "$ (70,193)", "$ (113,067)", "$ (98,551)"],
         ["Net loss per share, basic and diluted", "$ (0.95)", "$ (1.60)", "$ (1.41)"],
         ["Weighted-average shares outstanding", "73,640", "70,618", "69,002"],
         ["Comprehensive loss", "$ (69,870)", "$ (112,904)", "$ (98,120)"],
         ["Dividends declared", "-", "-", "-"]]
QUESTION = "What was Harbour Light Biosciences' net loss for the year ended December 31, 2024?"


def _html() -> bytes:
    def row(values: list[str]) -> str:
        return "<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>"

    body = "".join(f"<p><b>{line}</b></p>" for line in CAPTION)
    table = "<table>" + row(HEADER) + "".join(row(r) for r in ROWS) + "</table>"
    prose = "<p>Harbour Light Biosciences develops antibody therapies. Its results for 2024 follow.</p>"
    return f"<html><body><h1>Exhibit 99.1</h1>{prose}{body}{table}<p>Investor contact: ir@example.com</p></body></html>".encode()


def test_rows_are_whole_in_every_chunk_and_a_table_head_is_read_from_above(installed_models):
    from cluster.models.registry import resolve_embedder
    from cluster.models.tokenizer import load_tokenizer
    from pipelines.chunk import chunk_document
    from pipelines.parse import parse_bytes

    doc = parse_bytes(_html(), path="hlb-ex99.htm", doc_id="hlb")
    chunks = chunk_document(doc, load_tokenizer(resolve_embedder(load_config().models)))
    table_chunks = [c for c in chunks if any(is_row(line) for line in c.text.split("\n"))]
    assert len(table_chunks) >= 3, [c.text[:80] for c in chunks]
    for c in table_chunks:  # every row line is a whole row: its label and its three figures
        for line in c.text.split("\n"):
            if is_row(line):
                assert len(cells(line)) == 4, (c.ordinal, line)
    continuing = [c for c in table_chunks if starts_in_table(c.text)]
    assert continuing, "no chunk starts inside the statement"
    head = table_head(table_chunks[0].text)
    assert head.split("\n")[-1].startswith("Year Ended December 31,") and "STATEMENTS OF OPERATIONS" in head, head
    assert table_head("Prose only, no table.") == "" and table_head("Net loss | (1) | (2)") == ""


@pytest.fixture(scope="module")
def statement_index(tmp_path_factory, ray_session, installed_models):
    from pipelines.ingest import run_ingest

    root = tmp_path_factory.mktemp("statement")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "hlb-ex99.htm").write_bytes(_html())
    cfg = make_config(root / "index")
    report = run_ingest(cfg, corpus, source="filings")
    assert not report.failed and report.new == 1
    return cfg


def _net_loss_chunk(cfg):
    from cluster.store.schema import CHUNKS
    from serving.index.view import IndexView

    rows = IndexView.open(cfg).store.table(CHUNKS).to_arrow().to_pylist()
    holding = [r for r in rows if "Net loss | " in r["text"] and starts_in_table(r["text"])]
    assert holding, "the Net loss row is not in a chunk that starts inside the table"
    return min(holding, key=lambda r: r["ordinal"])


def _pack(cfg, chunk: dict, budget: int, top_k: int = 1):
    from serving.expansion.awareness import AwarenessExpander, ExpansionSettings
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(cfg)
    view = pipeline.stages.index.get("default")
    candidate = Candidate(chunk_id=chunk["chunk_id"], doc_id=chunk["doc_id"], score=1.0, target=QUESTION)
    settings = ExpansionSettings.from_config(cfg, budget_tokens=budget, top_k=top_k, awareness=False, window=0)
    return AwarenessExpander(view).expand([candidate], [], {}, {QUESTION: QUESTION}, settings)


def test_a_passage_that_starts_inside_the_table_begins_with_its_head(statement_index):
    chunk = _net_loss_chunk(statement_index)
    result = _pack(statement_index, chunk, budget=600)
    [passage] = result.passages
    lines = passage.text.split("\n")
    assert lines[:3] == CAPTION and lines[3].startswith("Year Ended December 31, | 2024"), passage.text[:300]
    assert passage.text.endswith(chunk["text"]) and passage.start == chunk["start"]
    assert result.used_tokens > chunk["n_tokens"]  # the head is counted in the budget
    net_loss = next(r for r in table_rows(passage.text) if r.label == "Net loss")
    assert row_value(QUESTION, net_loss) == "$ (70,193)"
    assert table_rows(chunk["text"]) == [], "the chunk alone has no header: its rows were unreadable"


def test_the_extractive_answer_quotes_the_row_of_the_asked_year(statement_index):
    chunk = _net_loss_chunk(statement_index)
    [passage] = _pack(statement_index, chunk, budget=600).passages

    async def score(question, texts):  # ranking only; what is under test is that the row can be read at all
        return [1.0 if t.startswith("Net loss —") else 0.0 for t in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9), score)
    answer = asyncio.run(answerer.answer(QUESTION, [(passage.text, "hlb-ex99.htm › Exhibit 99.1", 1.0)]))
    assert answer.answerable and answer.answer_value == "$70.2 million", answer  # the cell in its caption's scale; the label names the loss
    headless = asyncio.run(answerer.answer(QUESTION, [(chunk["text"], "hlb-ex99.htm › Exhibit 99.1", 1.0)]))
    assert headless.answer_value not in ("$70.2 million", "$ (70,193)")


def test_a_passage_holding_the_chunk_above_does_not_repeat_the_head(statement_index):
    from serving.expansion.awareness import AwarenessExpander, ExpansionSettings
    from serving.index.view import IndexView
    from serving.retrieval.hybrid import Candidate

    chunk = _net_loss_chunk(statement_index)
    view = IndexView.open(statement_index)
    above = view.chunks_at([(chunk["doc_id"], chunk["ordinal"] - 1)])[(chunk["doc_id"], chunk["ordinal"] - 1)]
    alone = _pack(statement_index, above, budget=2000)  # the chunk above starts inside the table too: one head
    head_tokens = alone.used_tokens - above["n_tokens"]
    assert 0 < head_tokens < 80
    exact = above["n_tokens"] + head_tokens + chunk["n_tokens"]  # room for both chunks and one head, not two
    for order in ((above, chunk), (chunk, above)):  # either chunk seated first
        candidates = [Candidate(chunk_id=c["chunk_id"], doc_id=c["doc_id"], score=1.0 - i / 10, target=QUESTION)
                      for i, c in enumerate(order)]
        settings = ExpansionSettings.from_config(statement_index, budget_tokens=exact, top_k=2, awareness=False, window=0)
        result = AwarenessExpander(view).expand(candidates, [], {}, {QUESTION: QUESTION}, settings)
        [passage] = result.passages
        assert set(passage.chunk_ids) == {above["chunk_id"], chunk["chunk_id"]}
        assert passage.text.split("\n")[:3] == CAPTION and passage.text.count("STATEMENTS OF OPERATIONS") == 1
        assert result.used_tokens <= above["n_tokens"] + chunk["n_tokens"] + head_tokens, "a dropped head still counted"


def test_a_chunk_inside_the_table_is_found_by_the_words_of_its_head(statement_index):
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    chunk = _net_loss_chunk(statement_index)
    assert "except" not in chunk["text"].lower()  # only the caption "(In thousands, except per share data)" says it
    hits = SearchPipeline(statement_index).search(SearchRequest(query="except", mode="bm25", top_k=20, use_cache=False)).hits
    assert chunk["chunk_id"] in {h.chunk_id for h in hits}, [h.text[:60] for h in hits]


def test_a_window_of_rows_quoted_from_inside_the_table_carries_its_head(statement_index):
    from serving.expansion.awareness import AwarenessExpander, excerpt_piece
    from serving.expansion.packing import pack
    from serving.index.view import IndexView

    chunk = dict(_net_loss_chunk(statement_index))
    AwarenessExpander(IndexView.open(statement_index))._attach_heads([chunk])
    piece = excerpt_piece(chunk, "net loss", 32, {"kind": "sibling"}, 1.0, 0)
    assert piece.excerpt and piece.text.startswith("Net loss | "), piece.text
    assert piece.head.split("\n")[:3] == CAPTION and piece.head_tokens > 0
    [passage] = pack([piece])
    net_loss = next(r for r in table_rows(passage.text) if r.label == "Net loss")
    assert row_value(QUESTION, net_loss) == "$ (70,193)"


def test_a_label_over_a_group_of_rows_is_no_head_of_the_table():
    """A 10-Q's statement in HTML names each group of rows on a row of its own ("Operating expenses: | | |",
    "Earnings per share: | | |"). Read as a header row, it was taken for the table's head: a chunk starting at the
    earnings-per-share rows started nowhere inside a table and got no years, and one further down got
    "Operating expenses:" for a head; so "diluted EPS for the three months ended September 30, 2024" was refused."""
    head = ("(in thousands, except per share data)\n\nThree Months Ended | | Nine Months Ended\n"
            "September 30, | | September 30,\n2025 | | 2024 | | 2025 | | 2024")
    first = head + "\nNet sales | | $ | 412,806 | | | $ | 389,415 | | | $ | 1,118,342 | | | $ | 1,076,905 |"
    middle = ("Operating expenses: | | | | | | | | |\nResearch and development | | | 9,842 | | | | 9,115 | | | | 29,034 | "
              "| | | 27,211 |")
    eps = "Earnings per share: | | | | | | | | |\nDiluted | | $ | 1.26 | | | $ | 1.10 | | | $ | 2.33 | | | $ | 2.20 |"
    assert starts_in_table(middle) and starts_in_table(eps)
    assert table_head(middle) == ""  # the group's label heads nothing
    from pipelines.chunk.rows import head_above
    assert head_above([middle, first]).endswith("2025 | | 2024 | | 2025 | | 2024"), head_above([middle, first])


async def _length_scores(question, texts):  # ranking only; what is under test is which cell the row gives
    return [float(len(t)) / 100 for t in texts]


def test_a_record_table_answers_by_its_column_and_the_year_of_its_row():
    """A proxy's Summary Compensation Table: columns are measures, a person's later rows start with the year."""
    table = ("Name and Principal Position | Year | Salary ($) | Bonus ($)(1) | Stock Awards ($) | Total ($)\n"
             "Maya Lindgren, Chief Executive Officer | 2025 | 900,000 | — | 3,840,033 | 6,879,820\n"
             "2024 | 880,000 | — | 3,500,000 | 6,500,000\n"
             "Natalie K. Osterhout, Chief Financial Officer | 2025 | 560,000 | — | 1,440,071 | 2,882,983\n"
             "2024 | 540,000 | — | 1,280,017 | 2,570,851")
    rows = table_rows(table)
    assert [r.label for r in rows] == ["Maya Lindgren, Chief Executive Officer"] * 2 + \
        ["Natalie K. Osterhout, Chief Financial Officer"] * 2
    osterhout_2024 = rows[3]
    assert row_value("What was Natalie Osterhout's salary in 2024?", osterhout_2024) == "540,000"
    assert row_value("What was Natalie Osterhout's total compensation in 2024?", osterhout_2024) == "2,570,851"
    assert row_value("What was Natalie Osterhout's salary in 2025?", osterhout_2024) is None
    answerer = ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9),
                                  _length_scores)
    answer = asyncio.run(answerer.answer("What was the salary of the Chief Financial Officer in 2024?",
                                         [(table, "Proxy Statement › Summary Compensation Table", 0.9)]))
    assert answer.answerable and answer.answer_value == "540,000", answer


def test_a_row_of_empty_cells_or_a_lone_currency_sign_is_skipped():
    """Found by fuzzing: EDGAR layouts leave rows like "$ | " (a currency cell and empty ones); the table reader
    indexed the first of no cells, and a run of separator lines alone after a table the first of no rows; the answer
    failed with an IndexError."""
    rows = table_rows("Year | 2024\n$ | \n | | \nNet sales | $ | 5")
    assert [(r.label, r.cells) for r in rows] == [("Net sales", ("$5",))]
    assert table_rows("Year | 2024\nNet sales | 5\n\n| \n") == table_rows("Year | 2024\nNet sales | 5")  # separators only
