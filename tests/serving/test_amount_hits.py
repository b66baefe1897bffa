"""A question that asks for an amount of a financial measure keeps its statement rows in a small awareness pack.

The figure is in the row that retrieval finds by the measure's name; in a 1,000-token pack the expansion units
(sections, outline) took the room of that hit, and the pack without awareness held the figure while the pack with
it did not (``awareness.amount_hits_first``, on by default). Over the six held-out filings of
``bench/filings_heldout`` (the ``filing_index`` fixture), with the product defaults."""

from __future__ import annotations

import pytest

from support import make_config

# (question, a text of the passage that holds its figure, the figure): bench/data/answers-filings-analyst. (COGS in
# fiscal 2024 was a second case until a sibling section's hit was quoted by its "Cost of sales" row, stop 82: its
# pack holds the figure with the rule off too.)
CASES = [("What was Northwind Precision Instruments' cash from operations in FY24 (in USD millions)?",
          "Net cash provided by operating activities", "118,300")]


def _holds(index, question: str, label: str, figure: str, **awareness) -> bool:
    from serving.protocol import ContextRequest
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(make_config(index, awareness=awareness))
    pack = pipeline.context(ContextRequest(query=question, budget_tokens=1000, use_cache=False))
    assert pack.used_tokens <= 1000 and any(r.kind != "direct" for p in pack.passages for r in p.reasons)
    return any(label in p.text and figure in p.text for p in pack.passages)


@pytest.mark.parametrize("question, label, figure", CASES, ids=["operating-cash"])
def test_an_amounts_statement_row_keeps_its_place_in_a_small_aware_pack(filing_index, question, label, figure):
    assert _holds(filing_index, question, label, figure), "the default 1k aware pack lost the figure's row"
    assert not _holds(filing_index, question, label, figure, amount_hits_first=False), \
        "the case must be hard: without the rule the expansion takes the row's room"


def test_a_question_asking_no_amount_is_expanded_as_before(filing_index):
    """The rule is for amounts only: a question asking a name still gets the expansion's units ahead of its lower
    hits, so its pack is the same with the rule on or off."""
    from serving.protocol import ContextRequest
    from serving.services.local import SearchPipeline

    question = "Which bank serves as administrative agent under Northwind Precision Instruments' credit agreement?"
    packs = [SearchPipeline(make_config(filing_index, awareness={"amount_hits_first": on})).context(
        ContextRequest(query=question, budget_tokens=1000, use_cache=False)) for on in (True, False)]
    assert [p.chunk_ids for p in packs[0].passages] == [p.chunk_ids for p in packs[1].passages]


def test_a_question_asking_an_amount_by_its_acronym_finds_the_statements_row(filing_index, monkeypatch):
    """"D&A" is the cash-flow statement's "Depreciation and amortization" row: the search service tells the analyser
    the question asks an amount, so its rephrasings spell the acronym out (the question itself is searched as typed).
    Searched as typed only, the statement was not among the first 60 hits, and no pack held the figure."""
    import serving.analysis.analyzer as analyzer
    from serving.protocol import ContextRequest
    from serving.services.local import SearchPipeline

    question, row = "How much D&A did Northwind Precision Instruments record in 2024?", "Depreciation and amortization"

    def pack_holds() -> bool:
        pack = SearchPipeline(make_config(filing_index)).context(
            ContextRequest(query=question, budget_tokens=2000, use_cache=False))
        return any(row in p.text and "38,405" in p.text for p in pack.passages)

    assert pack_holds(), "the 2k pack lacks the statement's row"
    spell = analyzer.spell_measure_names
    monkeypatch.setattr(analyzer, "spell_measure_names", lambda text, acronyms=False: spell(text))
    assert not pack_holds(), "the case must be hard: with the acronym searched as typed the row is not found"
