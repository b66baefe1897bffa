"""A long hit outside the whole hits is quoted by the window that names what the question asks, in the
statement's words: "capex" is the cash-flow statement's "Capital expenditures" row, which the question's
rephrasings name, and "R&D" the "Research and development" row (:func:`serving.analysis.measure_names.statement_words`),
a row window counting the words of its table's head, which it is quoted under
(:meth:`serving.expansion.awareness.ExpansionSettings.window_query`). Before, the window was chosen by the
question as typed, which shares only its year with the statement, so the excerpt was the statement's opening lines.
Over the six held-out filings of ``bench/filings_heldout`` (the ``filing_index`` fixture), with the product
defaults."""

from __future__ import annotations

import pytest

from support import make_config

# bench/data/answers-filings-paraphrase.jsonl (fp-nw10k-capex-2023): the statement is the 9th hit, past top_k 8.
# (fp-lksh-rd-spend-fy2024 was a second case until an amount question's acronyms were searched spelled out, which
# made its statement a whole hit; its row window is tested on the chunk below.)
CASES = [("What was Northwind Precision Instruments' capex in 2023?", "Capital expenditures | (27,615) | (24,208)")]

#: The statement of operations chunk of Lakeshore's 8-K (bench/filings_heldout), as the index holds it.
STATEMENT = {"doc_id": "d", "section_id": "s", "ordinal": 3, "start": 0, "n_tokens": 182, "chunk_id": "c",
             "source": "", "path": "lksh_8k_2025-02-26.htm", "title": "",
             "section_path": "Exhibit 99.1 > CONSOLIDATED STATEMENTS OF OPERATIONS",
             "text": "(In thousands, except per share data)\n(Unaudited)\nThree Months Ended Dec. 31, 2024 | Three Months "
                     "Ended Dec. 31, 2023 | Year Ended Dec. 31, 2024 | Year Ended Dec. 31, 2023\n"
                     "Product revenue, net | 104,812 | 78,233 | 376,204 | 287,119\n"
                     "License and royalty revenue | 7,790 | 5,771 | 25,696 | 22,381\n"
                     "Total revenue | 112,602 | 84,004 | 401,900 | 309,500\n"
                     "Cost of sales | 6,114 | 4,920 | 21,877 | 17,044\n"
                     "Research and development | 71,318 | 63,902 | 272,455 | 241,610\n"
                     "Selling, general and administrative | 58,701 | 49,188 | 219,066 | 187,930"}


def test_a_row_window_counts_its_tables_head_and_the_measures_statement_words():
    """"R&D in full-year 2024": the head line names the year, the row names research and development; the row's
    window is quoted under the head, so it shares both and wins. Chosen by the question alone, or without the head's
    words, the window was the head line itself."""
    from serving.analysis.measure_names import statement_words
    from serving.expansion.awareness import excerpt_piece

    question = "How much did Lakeshore Therapeutics spend on R&D in full-year 2024?"
    STATEMENT["end"] = len(STATEMENT["text"])
    piece = excerpt_piece(STATEMENT, f"{question} {statement_words(question)}", 24, {"kind": "excerpt"}, 1.0, 0)
    assert piece.text.startswith("Research and development | 71,318") and "Year Ended Dec. 31, 2024" in piece.head
    alone = excerpt_piece(STATEMENT, question, 24, {"kind": "excerpt"}, 1.0, 0)
    assert "Research and development" not in alone.text


@pytest.mark.parametrize("question, row", CASES, ids=["capex"])
def test_a_long_hits_excerpt_is_its_window_in_the_statements_words(filing_index, question, row):
    from serving.protocol import ContextRequest
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(make_config(filing_index))
    plain, aware = (pipeline.context(ContextRequest(query=question, budget_tokens=2000, awareness=on, use_cache=False))
                    for on in (False, True))
    assert not any(row in p.text for p in plain.passages), "the case must be hard: the row is not a whole hit"
    excerpts = [p for p in aware.passages if any(r.kind == "excerpt" for r in p.reasons)]
    assert aware.used_tokens <= 2000 and excerpts
    assert any(row in p.text for p in excerpts), [p.text[:80] for p in excerpts]
