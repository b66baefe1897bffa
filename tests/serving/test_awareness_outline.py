"""The awareness outline: short lead summaries of the hit's sibling sections, the ones closest to the
question first, never of a section the pack already quotes.

A report of eight parts (``## Part k``) spreads one topic (electrifying the container cranes) over
parts 1, 5 and 8; the parts between are about other things. With the section tier left out, only
the outline can bring parts 5 and 8 into a pack seeded by the one hit in part 1; the nearest
siblings by position (parts 2–4) would not.
"""

from __future__ import annotations

import pytest

from serving.expansion.awareness import AwarenessExpander, ExpansionSettings, lead_of
from support import index_files

TOPIC = {
    1: "The port began electrifying its container cranes this year. Diesel generators on the ship-to-shore "
       "cranes are being replaced by connections to the harbour grid, starting with berth four.",
    5: "Crane electrification continued at berths five and six, where the rubber-tyred gantry cranes were "
       "converted to cable reels fed by the grid. Fuel use of the yard cranes fell by a third.",
    8: "Next year the last diesel container cranes will be electrified, and regenerative braking on the "
       "cranes will feed energy back into the harbour grid.",
}
OTHER = {
    2: "The staff canteen was renovated and now serves breakfast from six in the morning. Menus change weekly.",
    3: "Visitor parking moved to the north gate. Permits are issued at the security office on weekdays.",
    4: "The IT department replaced the office laptops and introduced a new ticketing system for support.",
    6: "The annual charity run raised money for the local hospital. Over two hundred employees took part.",
    7: "Training courses on first aid were offered to all shift supervisors during the spring months.",
}
QUESTION = "How is the port electrifying its container cranes?"


@pytest.fixture(scope="module")
def report_index(tmp_path_factory, ray_session, installed_models):
    parts = {**TOPIC, **OTHER}
    body = ["# Harbour operations review", ""]
    for k in sorted(parts):
        body += [f"## Part {k}", "", parts[k], ""]
    return index_files(tmp_path_factory.mktemp("outline"), {"harbour-review.md": "\n".join(body)}, "reports")


def _pack(cfg, settings: ExpansionSettings):
    from serving.protocol import SearchRequest
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(cfg)
    hit = pipeline.search(SearchRequest(query=QUESTION, top_k=1, use_cache=False)).hits[0]
    assert hit.section_path.endswith("Part 1"), hit.section_path
    vector = pipeline.stages.encoder.encode([QUESTION], tenant="default")[0]
    candidate = Candidate(chunk_id=hit.chunk_id, doc_id=hit.doc_id, score=hit.score, target=QUESTION)
    view = pipeline.stages.index.get("default")
    return AwarenessExpander(view).expand([candidate], [], {QUESTION: vector}, {QUESTION: QUESTION}, settings)


def _part(section_path: str) -> int:
    return int(section_path.rsplit("Part ", 1)[1])


def test_outline_brings_in_the_relevant_siblings_first(report_index):
    settings = ExpansionSettings.from_config(report_index, budget_tokens=400, top_k=1, max_siblings=2)
    result = _pack(report_index, settings)
    siblings = [p for p in result.passages if p.reasons[0]["kind"] == "sibling"]
    assert sorted(_part(p.meta["section_path"]) for p in siblings) == [5, 8], [
        (p.meta["section_path"], p.text) for p in result.passages]
    quoted = {p.section_id for p in result.passages if p.chunk_ids}
    assert all(p.section_id not in quoted for p in siblings), "a summary of a section the pack quotes"
    for p in siblings:  # short leads: the summary budget plus the "[path] " label
        assert p.n_tokens <= settings.summary_tokens + len(p.meta["section_path"]) // 4 + 2, p.text
    assert result.used_tokens <= 400


def test_outline_without_the_question_vector_takes_the_nearest_siblings(report_index):
    from serving.protocol import SearchRequest
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(report_index)
    hit = pipeline.search(SearchRequest(query=QUESTION, top_k=1, use_cache=False)).hits[0]
    settings = ExpansionSettings.from_config(report_index, budget_tokens=400, top_k=1, max_siblings=2)
    result = AwarenessExpander(pipeline.stages.index.get("default")).expand(
        [Candidate(chunk_id=hit.chunk_id, doc_id=hit.doc_id, score=hit.score)], [], {}, {}, settings)
    siblings = sorted(_part(p.meta["section_path"]) for p in result.passages if p.reasons[0]["kind"] == "sibling")
    assert siblings == [2, 3]


def test_lead_keeps_whole_sentences_within_the_budget():
    assert lead_of(TOPIC[1], 32) == "The port began electrifying its container cranes this year."
    assert lead_of(TOPIC[1], 80) == " ".join(TOPIC[1].split())
    assert lead_of("short", 32) == "short"
    cut = lead_of("word " * 100, 10)
    assert cut.endswith("…") and len(cut) <= 41


def test_a_sibling_that_retrieval_found_is_quoted_from_what_it_found(report_index):
    """A sibling section with a retrieved chunk (past the pack's hits) is quoted as that chunk's best window,
    which carries its offsets and chunk id, instead of a lead written from the section's opening."""
    from serving.protocol import SearchRequest
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    pipeline = SearchPipeline(report_index)
    first = pipeline.search(SearchRequest(query=QUESTION, top_k=1, use_cache=False)).hits[0]
    found = pipeline.search(SearchRequest(query="rubber-tyred gantry cranes converted to cable reels", top_k=1,
                                          use_cache=False)).hits[0]
    assert first.section_path.endswith("Part 1") and found.section_path.endswith("Part 5")
    candidates = [Candidate(chunk_id=h.chunk_id, doc_id=h.doc_id, score=h.score, target=QUESTION) for h in (first, found)]
    vector = pipeline.stages.encoder.encode([QUESTION], tenant="default")[0]
    view = pipeline.stages.index.get("default")
    for on in (True, False):
        settings = ExpansionSettings.from_config(report_index, budget_tokens=400, top_k=1, max_siblings=2,
                                                 sibling_hits=on, fill_with_hits=False)  # not Part 5's chunk whole
        result = AwarenessExpander(view).expand(candidates, [], {QUESTION: vector}, {QUESTION: QUESTION}, settings)
        part5 = [p for p in result.passages if p.reasons[0]["kind"] == "sibling" and p.section_id == found.section_id]
        assert len(part5) == 1, [(p.meta.get("section_path"), p.reasons) for p in result.passages]
        if on:
            assert part5[0].chunk_ids == [found.chunk_id] and part5[0].n_tokens <= settings.summary_tokens, part5[0]
        else:
            assert part5[0].chunk_ids == [] and part5[0].text.startswith("["), part5[0]


def test_a_sibling_without_text_is_not_summarised_by_its_title(tmp_path, ray_session, installed_models):
    """A section with no text and no subsections (a heading only, such as a statement title over a table the
    parser could not read) has its title as its summary: "[… > Part 2] Part 2" tells nothing the path does
    not, so the outline skips it and takes the next sibling."""
    from serving.protocol import SearchRequest
    from serving.retrieval.hybrid import Candidate
    from serving.services.local import SearchPipeline

    cfg = index_files(tmp_path, {"review.md": f"# Harbour operations review\n\n## Part 1\n\n{TOPIC[1]}\n\n## Part 2\n\n"
                                              f"## Part 3\n\n{OTHER[3]}\n\n## Part 4\n\n{OTHER[4]}\n"}, "reports")
    pipeline = SearchPipeline(cfg)
    hit = pipeline.search(SearchRequest(query=QUESTION, top_k=1, use_cache=False)).hits[0]
    assert hit.section_path.endswith("Part 1")
    settings = ExpansionSettings.from_config(cfg, budget_tokens=400, top_k=1, max_siblings=2)
    result = AwarenessExpander(pipeline.stages.index.get("default")).expand(
        [Candidate(chunk_id=hit.chunk_id, doc_id=hit.doc_id, score=hit.score)], [], {}, {}, settings)
    siblings = sorted(_part(p.meta["section_path"]) for p in result.passages if p.reasons[0]["kind"] == "sibling")
    assert siblings == [3, 4], [(p.meta["section_path"], p.text) for p in result.passages]
