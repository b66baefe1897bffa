"""Figures asked for that only a table states (serving/answer/tables.py): a filing's statement rows become
answer candidates under their header row, and the figure of the asked year is the short answer.

End to end on the product defaults: an HTML annual report (prose, then an income statement and a cash-flow
statement) and a PDF quarterly report (a statement whose header row has no label cell) are ingested and asked
through the answer path. Before table rows were candidates, no row could be
quoted (a row is no prose sentence), so these questions were refused or answered with the prose sentence
that only names the figure."""

from __future__ import annotations

import sys

import pytest
from support import REPO, make_config

from serving.answer.tables import TableRow, row_value, table_rows

REPORT = """<html><head><title>ACME Corporation Annual Report on Form 10-K, fiscal year 2018</title></head><body>
<h1>ACME Corporation Form 10-K</h1>
<h2>Item 1. Business</h2>
<p>ACME Corporation designs and sells anvils, rockets and roller skates to customers in the desert regions of
North America. The company was incorporated in Delaware and has two segments, Industrial and Consumer.</p>
<h2>Item 7. Management's Discussion and Analysis</h2>
<p>Net sales grew in both segments, driven by strong demand for rocket-powered roller skates. Operating
margins narrowed because steel prices rose during the year.</p>
<h2>Item 8. Financial Statements and Supplementary Data</h2>
<p>Consolidated Statement of Income (in millions of dollars)</p>
<table><tr><th>Year ended December 31</th><th>2018</th><th>2017</th><th>2016</th></tr>
<tr><td>Net sales</td><td>$32,765</td><td>$31,657</td><td>$30,109</td></tr>
<tr><td>Cost of sales</td><td>16,682</td><td>16,055</td><td>15,118</td></tr>
<tr><td>Research and development expense</td><td>1,821</td><td>1,850</td><td>1,764</td></tr>
<tr><td>Operating income</td><td>7,207</td><td>8,233</td><td>7,820</td></tr></table>
<p>Consolidated Statement of Cash Flows (in millions of dollars)</p>
<table><tr><th>Year ended December 31</th><th>2018</th><th>2017</th><th>2016</th></tr>
<tr><td>Net cash provided by operating activities</td><td>6,439</td><td>6,240</td><td>6,662</td></tr>
<tr><td>Purchases of property, plant and equipment</td><td>(1,577)</td><td>(1,373)</td><td>(1,420)</td></tr>
<tr><td>Dividends paid</td><td>(3,193)</td><td>(2,803)</td><td>(2,678)</td></tr></table>
</body></html>
"""


def test_rows_under_their_header_and_the_asked_period():
    pdf = "2018 | 2017\nNet sales | $32,765 | $31,657\nGross margin | 48.3% | 47.9%"  # a PDF header has no label cell
    rows = table_rows(pdf)
    assert [r.sentence() for r in rows] == ["Net sales — 2018: $32,765; 2017: $31,657",
                                            "Gross margin — 2018: 48.3%; 2017: 47.9%"]
    assert pdf[rows[1].start:rows[1].end] == "Gross margin | 48.3% | 47.9%"
    markdown = "| Segment | FY2019 | FY2018 |\n|---|---|---|\n| Industrial | 1,200 | 1,100 |"
    assert row_value("What did Industrial sell in fiscal 2018?", table_rows(markdown)[0]) == "1,100"
    assert row_value("What were net sales in 2015?", rows[0]) is None  # a period the table does not hold
    assert row_value("What were net sales?", rows[0]) == "$32,765"  # no period asked: the first (latest) column
    row = TableRow(0, 0, "Operating income", ("7,207", "8,233"), ("Q3 2018", "Q3 2017"))
    assert row_value("What was operating income in the third quarter, Q3 2017?", row) == "8,233"


def test_a_quarterly_reports_two_header_rows_and_its_spans():
    """A 10-Q's statement heads its columns with two rows (an HTML colspan over the years), sets "$" and ")" in cells
    of their own, and holds each year twice: the quarter's figure and the nine months'."""
    table = ("| Three Months Ended September 30, | | Nine Months Ended September 30, |\n| 2025 | 2024 | 2025 | 2024\n"
             "Operating revenues | $ | 1,200 | $ | 1,100 | $ | 3,500 | $ | 3,300\n"
             "Net loss | | (4,102 | ) | | 210 | | (9,000 | ) | | 700")
    revenues, loss = table_rows(table)
    assert row_value("What were operating revenues for the third quarter of 2025?", revenues) == "$1,200"
    assert row_value("What were operating revenues in Q3 2024?", revenues) == "$1,100"
    assert row_value("What were operating revenues for the nine months ended September 30, 2025?", revenues) == "$3,500"
    assert row_value("What was the net loss in the first nine months of 2024?", loss) == "700"
    assert row_value("What was the net loss for the third quarter of 2025?", loss) == "(4,102)"


def test_rows_after_a_blank_line_continue_under_the_tables_period_columns():
    """A statement split by a blank line: the rows below it stand under the period columns of the header above,
    not under its label cell ("Year ended December 31" is no column)."""
    rows = table_rows("Year ended December 31 | 2018 | 2017\nNet sales | 10 | 9\n\nCost of sales | 5 | 4")
    assert [r.sentence() for r in rows] == ["Net sales — 2018: 10; 2017: 9", "Cost of sales — 2018: 5; 2017: 4"]
    assert row_value("What was the cost of sales in 2017?", rows[1]) == "4"


def test_no_candidates_from_contents_option_lists_or_headerless_tables():
    assert table_rows("Contents | Page\nItem 7. Management's Discussion | 45\nItem 8. Financial Statements | 60") == []
    assert table_rows("Option | Meaning\n-f | force the removal\n-r | recurse") == []  # no figures
    assert table_rows("Net sales | $32,765 | $31,657\nCost of sales | 16,682 | 16,055") == []  # no header row


def globex_pdf() -> bytes:
    """A PDF quarterly report whose statement header has no label cell (as PDF tables set it)."""
    sys.path.insert(0, str(REPO / "tests" / "parse"))
    from pdfgen import Text, make_pdf

    items = [Text(72, 740, 14, "Globex Corporation Quarterly Report", True),
             Text(72, 712, 10, "Globex sells hammocks and garden furniture through its own stores in Europe."),
             Text(72, 690, 10, "Condensed Statement of Income (in thousands of euros)")]
    items += [Text(330, 670, 10, "Q3 2019", True), Text(430, 670, 10, "Q3 2018", True)]
    for r, (label, a, b) in enumerate((("Revenue", "4,512", "4,020"), ("Gross profit", "1,930", "1,702"),
                                       ("Operating expenses", "1,288", "1,310"))):
        items += [Text(72, 656 - 14 * r, 10, label), Text(330, 656 - 14 * r, 10, a), Text(430, 656 - 14 * r, 10, b)]
    return make_pdf([items], title="Globex quarterly report")


@pytest.fixture(scope="module")
def report_pipeline(tmp_path_factory, ray_session, installed_models):
    from pipelines.ingest import run_ingest
    from serving.services.local import AnswerPipeline

    root = tmp_path_factory.mktemp("filing")
    (root / "corpus").mkdir()
    (root / "corpus" / "acme-10-k.html").write_text(REPORT, encoding="utf-8")
    (root / "corpus" / "globex-q3.pdf").write_bytes(globex_pdf())
    cfg = make_config(root / "index")
    assert run_ingest(cfg, root / "corpus", source="filings").failed == []
    pipe = AnswerPipeline(cfg)
    yield pipe
    pipe.close()


@pytest.mark.parametrize("question, figure, value", [  # the cell the row quotes; the short answer in its table's scale
    ("What were ACME's net sales in 2017?", "$31,657", "$31,657 million"),
    ("How much did ACME spend on research and development in 2016?", "1,764", "$1,764 million"),
    ("What was ACME's operating income in 2018?", "7,207", "$7,207 million"),
    ("What were ACME's purchases of property, plant and equipment in 2018?", "(1,577)", "$1,577 million"),
    ("How much did ACME pay in dividends in 2017?", "(2,803)", "$2,803 million"),
    ("What were ACME's net sales in 2017? Give a response to the question by relying on the details shown in the "
     "income statement.", "$31,657", "$31,657 million"),  # an instruction after the question is no part of what must be stated
    ("What was Globex's gross profit in Q3 2018?", "1,702", "€1.7 million"),
    ("What was Globex's revenue in Q3 2019?", "4,512", "€4.5 million"),
    ("What was Globex's revenue in Q3 2019 (in thousands of euros)?", "4,512", "€4,512 thousand"),
])
def test_a_figure_only_a_table_states_is_answered_with_its_row(report_pipeline, question, figure, value):
    from serving.protocol import AnswerRequest

    response = report_pipeline.answer(AnswerRequest(question=question, use_cache=False))
    assert not response.refused, response.refusal_reason
    assert response.answer_value == value, (response.answer, response.answer_value)
    document, unit = ("acme-10-k.html", "in millions of dollars") if "ACME" in question else (
        "globex-q3.pdf", "in thousands of euros")
    assert figure in response.answer and response.citations and response.citations[0].path.endswith(document)
    assert unit in response.answer, response.answer  # the scale the statement's caption states


def test_a_period_the_statements_do_not_hold_is_refused(report_pipeline):
    from serving.protocol import AnswerRequest

    for question in ("What were ACME's net sales in 2014?", "What was Globex's revenue in Q3 2016?"):
        response = report_pipeline.answer(AnswerRequest(question=question, use_cache=False))
        assert response.refused, (question, response.answer)
