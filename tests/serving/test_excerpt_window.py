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

# bench/data/answers-filings-paraphrase.jsonl (fp-nw10k-capex-2023, fp-lksh-rd-spend-fy2024): the statements are
# hits ranked below top_k 8
CASES = [("What was Northwind Precision Instruments' capex in 2023?", "Capital expenditures | (27,615) | (24,208)"),
         ("How much did Lakeshore Therapeutics spend on R&D in full-year 2024?",
          "Research and development | 71,318 | 63,902 | 272,455")]


@pytest.mark.parametrize("question, row", CASES, ids=["capex", "r-and-d"])
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
