"""The text a cross-encoder reads for one chunk: its heading path, then the chunk text.

Chunks are stored without their header (document title › section path), but passages that never
name their document rely on it — the embedder reads it too. Training and serving both build the
passage with :func:`passage_text`, so the model sees the same input in both.

>>> passage_text({"title": "Venv", "section_path": "Venv > Creating", "text": "Run python -m venv."})
'Venv > Creating\\nRun python -m venv.'
>>> passage_text({"title": "", "section_path": "", "text": "plain"})
'plain'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["header_of", "passage_text"]


def header_of(title: str | None, section_path: str | None) -> str:
    """``title > section > subsection`` with the title not repeated when the path starts with it.

    >>> header_of("Cats", "Cats"), header_of("Cats", "Diet > Fish"), header_of(None, "A")
    ('Cats', 'Cats > Diet > Fish', 'A')
    """
    parts = [" ".join((title or "").split())]
    for part in (section_path or "").split(" > "):
        part = " ".join(part.split())
        if part and part != parts[-1]:
            parts.append(part)
    return " > ".join(p for p in parts if p)


def passage_text(row: Mapping[str, Any]) -> str:
    """The cross-encoder input for a chunk row (``title``, ``section_path``, ``text``)."""
    header = header_of(row.get("title"), row.get("section_path"))
    text = row.get("text") or ""
    return f"{header}\n{text}" if header else text
