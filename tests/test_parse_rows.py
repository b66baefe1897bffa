"""What the parse tasks hand the embedder: a section's summary costs no embedding of its own when it
has a lead chunk or a single subsection to share it from."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster.config import load_config
from pipelines.records import chunk_input, summary_input
from pipelines.stages.parse_chunk import chunking_setup, process_file


@pytest.fixture(scope="module")
def parse():
    cfg = load_config()
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())

    def run(path: Path, text: str) -> dict:
        path.write_text(text)
        item = {"doc_id": "d", "source": "s", "path": str(path), "relpath": path.name, "size": 1, "mtime_ns": 0}
        row = process_file(item, tokenizer=tokenizer, config=config, max_file_bytes=10**6)
        assert row["status"] == "ok", row
        return row

    return run


def _embed_inputs(row: dict) -> tuple[list[str], set[str]]:
    chunks = [chunk_input(c) for c in row["chunks"]]
    return chunks, set(chunks) | {summary_input(s) for s in row["sections"]}


def test_a_titled_abstract_embeds_its_chunks_and_nothing_else(parse, tmp_path):
    # The shape of a BEIR document written as Markdown (SciFact's 5,183 abstracts): "# title", text.
    title = "Cats purr when content: a survey of domestic felines."
    row = parse(tmp_path / "cats.md", f"# {title}\n\n" + "Cats purr at about 25 Hz in most studies. " * 60)
    assert len(row["chunks"]) >= 2
    chunks, inputs = _embed_inputs(row)
    assert inputs == set(chunks)  # the document's and its section's summaries are its lead chunk
    root, top = row["sections"]
    assert root["summary"] == top["summary"] == row["chunks"][0]["text"]


def test_one_child_chains_share_the_lead_and_several_children_list_their_titles(parse, tmp_path):
    row = parse(tmp_path / "guide.md", "# Guide\n\n## Install\n\n### Linux\n\nRun apt install strata.\n\n"
                                       "### macOS\n\nRun brew install strata.\n")
    by_title = {s["title"]: s for s in row["sections"] if s["level"] > 0}
    # Guide (no text, one subsection) shares Install's summary; Install (two) lists its subsections.
    assert by_title["Install"]["summary"] == "Subsections: Linux; macOS"
    assert by_title["Guide"]["summary"] == by_title["Install"]["summary"]
    assert summary_input(by_title["Guide"]) == summary_input(by_title["Install"])
    assert summary_input(by_title["Install"]) == "Guide > Guide > Install\nSubsections: Linux; macOS"
    _, inputs = _embed_inputs(row)
    assert len(inputs) == 3  # two chunks and one summary text for the document, Guide and Install
