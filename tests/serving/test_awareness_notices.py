"""A filing's notices (forward-looking statements, conference-call details) never take a pack's outline room from
the sections that say something, unless the question asks about them (:mod:`serving.retrieval.notices`).

An earnings release of five parts: the quarter's results (the hit), a conference-call notice and a
forward-looking-statements caution that repeat the release's words (results, revenue, fourth quarter, 2025), and
two parts with facts (segments, cash). The outline quotes two siblings of the hit; the notices are nearest the
question by their words, so without the rule they would be the two.
"""

from __future__ import annotations

import pytest

from serving.expansion.awareness import AwarenessExpander, ExpansionSettings
from support import index_files

PARTS = {
    "Fourth Quarter 2024 Results": "Globex reported revenue of $412.6 million for the fourth quarter of 2024, up 9% "
                                   "from the fourth quarter of 2023, and net income of $38.1 million.",
    "Conference Call and Webcast Information": "Globex will host a conference call to discuss its fourth quarter "
                                               "2024 revenue and results and its 2025 revenue outlook on February 26, "
                                               "2025. A webcast replay of the call will be available for 30 days.",
    "Segment Results": "The Industrial segment contributed $251.0 million and the Medical segment $161.6 million "
                       "of the quarter's sales; Medical grew fastest, driven by new imaging systems.",
    "Cautionary Note Regarding Forward-Looking Statements": "This release contains statements about Globex's revenue, "
                                                            "results and 2025 outlook for the fourth quarter and the "
                                                            "year; actual revenue and results may differ materially.",
    "Cash and Liquidity": "Cash and cash equivalents were $188.4 million at December 31, 2024, and the company "
                          "repaid $40.0 million of its term loan during the quarter.",
}
REVENUE = "What revenue did Globex report for the fourth quarter of 2024?"
WEBCAST = "When is Globex's conference call on its fourth quarter 2024 results, and is there a webcast replay?"


@pytest.fixture(scope="module")
def release_index(tmp_path_factory, ray_session, installed_models):
    body = ["# Globex Corporation fourth quarter 2024 earnings release", ""]
    for title, text in PARTS.items():
        body += [f"## {title}", "", text, ""]
    return index_files(tmp_path_factory.mktemp("notices"), {"globex-q4-2024-release.md": "\n".join(body)}, "filings")


def _siblings(cfg, question: str) -> list[str]:
    """The sections the outline quotes beside the results part, for ``question`` (two siblings, no section tier)."""
    from serving.protocol import SearchRequest
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(cfg)
    hits = pipeline.search(SearchRequest(query=REVENUE, top_k=10, use_cache=False)).hits
    hit = next(h for h in hits if h.section_path.endswith("Fourth Quarter 2024 Results"))
    vector = pipeline.stages.encoder.encode([question], tenant="default")[0]
    candidate = Candidate(chunk_id=hit.chunk_id, doc_id=hit.doc_id, score=hit.score, target=question)
    settings = ExpansionSettings.from_config(cfg, budget_tokens=400, top_k=1, max_siblings=2, fill_with_hits=False)
    view = pipeline.stages.index.get("default")
    result = AwarenessExpander(view).expand([candidate], [], {question: vector}, {question: question}, settings)
    return [p.meta["section_path"].rsplit(" > ", 1)[-1] for p in result.passages if p.reasons[0]["kind"] == "sibling"]


def test_the_outline_skips_the_notices(release_index):
    assert sorted(_siblings(release_index, REVENUE)) == ["Cash and Liquidity", "Segment Results"]


def test_a_question_about_the_call_gets_its_notice(release_index):
    assert "Conference Call and Webcast Information" in _siblings(release_index, WEBCAST)


def _tier(cfg, question: str) -> list[str]:
    """The section tier's matches for ``question`` (titles), at a similarity floor low enough to reach every part."""
    from serving.retrieval.filters import ResolvedFilters
    from serving.retrieval.sections import SectionTier
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(cfg)
    vector = pipeline.stages.encoder.encode([question], tenant="default")[0]
    low = cfg.model_copy(update={"awareness": cfg.awareness.model_copy(update={"section_min_similarity": -1.0})})
    tier = SectionTier(pipeline.stages.index.get("default"), low)
    return [h.title for h in tier.similar(vector, k=10, filters=ResolvedFilters(), target=question)]


def test_the_section_tier_skips_the_notices_unless_asked(release_index):
    found = _tier(release_index, REVENUE)
    assert "Segment Results" in found and "Fourth Quarter 2024 Results" in found, found
    assert not any("Conference Call" in t or "Forward-Looking" in t for t in found), found
    assert "Conference Call and Webcast Information" in _tier(release_index, WEBCAST)
