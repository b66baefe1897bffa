"""Where evidence is: match :class:`~offline.eval.qa_format.Evidence` pieces against passages or chunks.

A passage/chunk is anything with ``path``, ``section_path`` (``"A > B"`` or a list) and ``text``
(``serving.protocol.Passage``, chunk rows of the index as dicts). A piece is **found** in a
passage when the passage is in the piece's document and contains its text (case and whitespace
ignored); a piece without text is found when the passage is in its section.

>>> from offline.eval.qa_format import Evidence
>>> piece = Evidence("man7/futex.7.gz", "VERSIONS", "merged in Linux 2.5.7")
>>> pack = [{"path": "man7/futex.7.gz", "section_path": "VERSIONS",
...          "text": "Initial futex support was merged in\\nLinux 2.5.7 but"}]
>>> piece_found(piece, pack), evidence_recall([piece, Evidence("man7/epoll.7.gz", text="EPOLLET")], pack)
(True, 0.5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from offline.eval.answer_metrics import document_matches, normalize_text, section_matches
from offline.eval.qa_format import Evidence

__all__ = ["evidence_recall", "locate", "piece_found", "piece_in"]


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def piece_in(piece: Evidence, item: Any, *, require_section: bool = False) -> bool:
    """Is ``piece`` in this passage/chunk (document, then text; section too when ``require_section``)?"""
    if not document_matches(_get(item, "path") or "", piece.document):
        return False
    in_section = piece.section is not None and section_matches(_get(item, "section_path") or "", piece.section)
    if piece.text is None:
        return in_section
    if require_section and piece.section is not None and not in_section:
        return False
    return normalize_text(piece.text) in normalize_text(_get(item, "text") or "")


def piece_found(piece: Evidence, passages: Iterable[Any]) -> bool:
    """Is the piece in any of the passages?"""
    return any(piece_in(piece, p) for p in passages)


def evidence_recall(pieces: Sequence[Evidence], passages: Iterable[Any]) -> float:
    """Share of the pieces found in the passages (0.0 for no pieces)."""
    passages = list(passages)
    return sum(piece_found(p, passages) for p in pieces) / len(pieces) if pieces else 0.0


def locate(piece: Evidence, chunks: Iterable[Any]) -> list[Any]:
    """The chunks that hold the piece in its section (to check a QA set against an index)."""
    return [c for c in chunks if piece_in(piece, c, require_section=True)]
