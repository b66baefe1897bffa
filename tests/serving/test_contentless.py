"""A chunk that is only its header ("None." under a filing's Item 3, "Page" over its contents) does not crowd
the hits of a question that names the company: every chunk of a filing carries the company in its header
(its cover's title), so such a chunk matched on the header alone. With ``retrieval.contentless_factor = 1``
(off) they come back. The filings are the six of ``bench/filings_heldout`` (written without reading the
parser): several companies, so a company's name is a rare word that lifts every chunk of its filings."""

from __future__ import annotations

import re

from support import make_config

QUESTIONS = ["What was Calder Scientific's backlog at fiscal year end?",
             "What are Northwind Precision Instruments' inventories?",
             "Northwind Precision Instruments legal proceedings",
             "How much did Harborline Foods pay in dividends in the quarter?"]


def _contentless_in_top(index, factor: float, k: int = 10) -> int:
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(make_config(index, retrieval={"contentless_factor": factor}))
    hits = [h for q in QUESTIONS for h in pipeline.search(SearchRequest(query=q, top_k=k, use_cache=False)).hits]
    assert len(hits) == k * len(QUESTIONS)
    return sum(len(re.findall(r"\w+", h.text)) < 4 for h in hits)


def test_header_only_chunks_rank_below_the_ones_that_say_something(filing_index):
    off = _contentless_in_top(filing_index, 1.0)
    on = _contentless_in_top(filing_index, 0.5)  # the default
    assert off >= 8 and on <= 2, (off, on)


NAVIGATION_QUESTIONS = ["Northwind Precision Instruments executive compensation",
                        "Calder Scientific directors, executive officers and corporate governance",
                        "Which bank is the administrative agent of the Northwind credit agreement?",
                        "Harborline Foods legal proceedings and risk factors"]


def _navigation_in_top(index, factor: float, k: int = 10) -> int:
    from serving.protocol import SearchRequest
    from serving.retrieval.contentless import is_contents, is_pointer
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(make_config(index, retrieval={"contentless_factor": factor}))
    hits = [h for q in NAVIGATION_QUESTIONS
            for h in pipeline.search(SearchRequest(query=q, top_k=k, use_cache=False)).hits]
    assert len(hits) == k * len(NAVIGATION_QUESTIONS)
    return sum(is_contents(h.text) or is_pointer(h.text) for h in hits)


def test_contents_pages_and_pointers_rank_below_what_they_point_to(filing_index):
    # A contents page names every item, and a 10-K's Part III items only point to the proxy statement: both
    # share the words of a question about the item and hold none of its answer.
    off = _navigation_in_top(filing_index, 1.0)
    on = _navigation_in_top(filing_index, 0.5)  # the default
    assert off >= 6 and on <= off // 2, (off, on)


def test_an_aware_pack_spends_no_expansion_room_on_contents_or_pointers(filing_index):
    # The expansion's excerpts, section tier and sibling hits once quoted "Item 10 … incorporated by reference to our
    # Proxy Statement" four times over and a contents page's "TABLE OF CONTENTS": room a 2k pack needs.
    from serving.protocol import ContextRequest
    from serving.retrieval.contentless import is_contents, is_pointer
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(make_config(filing_index))
    expanded, navigation = 0, []
    for question in QUESTIONS + NAVIGATION_QUESTIONS + ["When does Northwind's revolving credit facility mature?"]:
        pack = pipeline.context(ContextRequest(query=question, budget_tokens=2000, use_cache=False))
        for passage in pack.passages:
            if any(r.kind == "direct" for r in passage.reasons):
                continue  # a hit: where retrieval ranks it is the test above's business
            expanded += 1
            if is_contents(passage.text) or is_pointer(passage.text):
                navigation.append((question, [r.kind for r in passage.reasons], passage.text[:80]))
    assert expanded >= 40 and not navigation, (expanded, navigation)
