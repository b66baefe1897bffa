"""Awareness on a long plain-text manual: the expansion must bring in evidence that the plain pack of the
same budget lacks (issue 50, item 4).

The slice is three chapters of the Debian Policy Manual 4.6.2.0 (``tests/data/longdoc``: ``policy-ch6.txt``, chapter 6
"Package maintainer scripts", and ``policy-ch9-10.txt``, chapters 9 "The Operating System" and 10 "Files": lines
4124-4646 and 6198-7967 of ``/usr/share/doc/debian-policy/policy.txt.gz`` in the ``debian-policy`` package; GPL-2+),
~24k tokens of plain text with numbered, underlined headings. The question words its topic unlike the section that answers it ("9.12. Signaling that a reboot is
required"): ranked hits alone fill 1,000 tokens without it, the section tier finds the section. Both packs
run through ``POST /v1/context``'s code on the product defaults.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from offline.eval.evidence import piece_found
from offline.eval.qa_format import Evidence
from serving.protocol import ContextRequest
from support import make_config

SLICE = Path(__file__).resolve().parent.parent / "data" / "longdoc"
QUESTION = "How does an upgrade record which packages want the machine restarted?"
EVIDENCE = Evidence("policy-ch9-10.txt", None, "conventional to add the name of the package(s) requiring the reboot")


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory, ray_session, installed_models):
    from pipelines.ingest import run_ingest
    from serving.services.local import SearchPipeline

    cfg = make_config(tmp_path_factory.mktemp("longdoc-index"))
    report = run_ingest(cfg, SLICE, source="longdoc")
    assert report.new == 2 and not report.failed
    return cfg, SearchPipeline(cfg)


def _pack(pipeline, awareness: bool, budget: int = 1000):
    return pipeline[1].context(ContextRequest(query=QUESTION, top_k=60, budget_tokens=budget, awareness=awareness,
                                           use_cache=False))


def test_the_slice_has_its_headings(pipeline):
    from cluster.store.schema import SECTIONS
    from serving.index.view import IndexView

    sections = IndexView.open(pipeline[0]).store.table(SECTIONS).to_arrow().column("title").to_pylist()
    assert "9.12. Signaling that a reboot is required" in sections
    assert len(sections) >= 35


def test_awareness_adds_the_evidence_the_plain_pack_lacks(pipeline):
    plain, aware = _pack(pipeline, awareness=False), _pack(pipeline, awareness=True)
    assert plain.used_tokens <= 1000 and aware.used_tokens <= 1000
    assert not piece_found(EVIDENCE, plain.passages), [p.section_path for p in plain.passages]
    assert piece_found(EVIDENCE, aware.passages), [(p.section_path, [r.kind for r in p.reasons]) for p in aware.passages]
    holder = next(p for p in aware.passages if EVIDENCE.text in " ".join(p.text.split()))
    assert holder.section_path.endswith("9.12. Signaling that a reboot is required")
    assert {r.kind for r in holder.reasons} & {"section_tier", "neighbour", "parent", "sibling", "excerpt"}


def test_excerpts_quote_exact_sentence_windows_of_hits_the_pack_does_not_hold(pipeline):
    """awareness.excerpt_tokens (64 by default): lower-ranked hits come in as their best sentence window, each a
    verbatim slice of its chunk at the passage's offsets (document offsets, as chunks have), within the budget."""
    from serving.services.local import SearchPipeline

    # parents on, as when this scenario was written: with the parent leads taking turns the pack quotes an excerpt
    settings = pipeline[0].awareness.model_copy(update={"excerpt_tokens": 64, "parents": True})
    cfg = pipeline[0].model_copy(update={"awareness": settings})
    pack = SearchPipeline(cfg).context(ContextRequest(query=QUESTION, top_k=60, budget_tokens=2000, awareness=True,
                                                      use_cache=False))
    excerpts = [p for p in pack.passages if [r.kind for r in p.reasons] == ["excerpt"]]
    assert excerpts and pack.used_tokens <= 2000
    from serving.index.view import IndexView

    chunks = IndexView.open(cfg).chunks_by_id(c for p in excerpts for c in p.chunk_ids)
    for p in excerpts:
        chunk = chunks[p.chunk_ids[0]]
        assert chunk["start"] <= p.start < p.end <= chunk["end"]
        assert chunk["text"][p.start - chunk["start"]:p.end - chunk["start"]] == p.text
        assert p.text != chunk["text"] or chunk["n_tokens"] <= 64  # a chunk that fits the window comes whole
        assert p.n_tokens <= 64 + 8
    assert any(p.text != chunks[p.chunk_ids[0]]["text"] for p in excerpts)


def test_excerpts_join_a_default_2k_pack_and_never_a_1k_one(pipeline):
    """On the defaults (``top_k`` 8) a 2,000-token pack quotes hits it cannot hold whole by their best sentences; a
    1,000-token pack, below ``awareness.excerpt_min_budget``, keeps its turns for the section tier, neighbours and
    outline."""
    def kinds(budget: int) -> list[str]:
        pack = pipeline[1].context(ContextRequest(query=QUESTION, budget_tokens=budget, awareness=True, use_cache=False))
        assert pack.used_tokens <= budget
        return [r.kind for p in pack.passages for r in p.reasons]

    assert pipeline[0].awareness.excerpt_min_budget == 2000
    assert "excerpt" in kinds(2000)
    assert "excerpt" not in kinds(1000)
