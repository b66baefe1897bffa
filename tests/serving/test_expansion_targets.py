"""The expander's budget policy for multi-target packs, on the real sample index: every target's best
hit gets a seat before the rest of the first pass, and the section tier takes the chunk the retriever
ranked best in a section."""

from __future__ import annotations

import pytest

from cluster.store.schema import CHUNKS
from serving.expansion.awareness import AwarenessExpander, ExpansionSettings
from serving.protocol import ContextRequest, SearchRequest
from serving.retrieval.hybrid import Candidate


@pytest.fixture(scope="module")
def view(sample_index):
    from serving.index.view import IndexView

    cfg, _ = sample_index
    return IndexView.open(cfg)


def _big_chunks(view, path_prefix: str, n: int) -> list[dict]:
    rows = view.store.table(CHUNKS).to_arrow().select(["chunk_id", "doc_id", "path", "n_tokens", "ordinal"]).to_pylist()
    rows = [r for r in rows if r["path"].startswith(path_prefix) and r["n_tokens"] >= 150]
    return sorted(rows, key=lambda r: r["ordinal"])[:n]


def test_every_target_gets_its_best_hit_first(view):
    epoll = _big_chunks(view, "man7/epoll", 3)
    errors = _big_chunks(view, "python-tutorial/errors", 1)
    # target A's hits outrank target B's best; 60% of the budget fits only one hit
    candidates = [Candidate(c["chunk_id"], c["doc_id"], 1.0 - i / 10, target="A") for i, c in enumerate(epoll)]
    candidates.insert(2, Candidate(errors[0]["chunk_id"], errors[0]["doc_id"], 0.5, target="B"))
    budget = epoll[0]["n_tokens"] + errors[0]["n_tokens"] + 10
    settings = ExpansionSettings(budget_tokens=budget, top_k=8, mode="window", window=1, awareness=True,
                                 parents=False, siblings=False)
    result = AwarenessExpander(view).expand(candidates, [], {}, {}, settings)
    direct_targets = {r["target"] for p in result.passages for r in p.reasons if r["kind"] == "direct"}
    assert direct_targets == {"A", "B"}, [(p.doc_id, p.reasons) for p in result.passages]
    assert result.used_tokens <= budget


def test_section_tier_takes_the_retrievers_best_chunk_of_a_section(sample_index):
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    pipeline = SearchPipeline(cfg)
    question = "What does the EPOLLET flag do, and in which Linux version was inotify merged?"
    hits = pipeline.search(SearchRequest(query=question, top_k=60, use_cache=False)).hits
    pack = pipeline.context(ContextRequest(query=question, top_k=60, budget_tokens=2000, awareness=True,
                                           use_cache=False))
    assert len(pack.route.targets) == 2
    checked = 0
    for passage in pack.passages:
        for reason in passage.reasons:
            if reason.kind != "section_tier":
                continue
            ranked = [h for h in hits if h.section_id == reason.of]
            if ranked:  # the section's best-ranked retrieved chunk, not another one of the section
                assert ranked[0].chunk_id in passage.chunk_ids, (reason.of, [h.rank for h in ranked])
                checked += 1
    assert checked, "no section-tier passage from a retrieved section to check"
