"""Extractive section summaries (lead-based), chosen so they cost no extra embedding.

A section with body text is summarised by its lead passage: its first chunk (whole leading
sentences within the chunk budget, the classic lead-N extractive summary). Its embedding input is
that chunk's (the same header and text), so the embedder deduplicates it and the summary vector is
free. A section with no body text of its own and a single subsection (a document whose text all
sits under one top heading, as most Markdown and HTML pages do) is summarised by that subsection's
summary: again free. Any other section without body text is summarised by the titles of its
subsections, under the section's header. The embedder sees ``with_header(header, summary)``
(:func:`pipelines.chunk.chunk.with_header`).

>>> section_summary(title="Install", header="Guide > Install", lead=None, child_titles=["Linux", "macOS"])
('Subsections: Linux; macOS', 'Guide > Install')
>>> section_summary(title="Install", header="Guide > Install", lead=("Run it.", "Guide"), child_titles=[])
('Run it.', 'Guide')
>>> section_summary(title="Guide", header="Guide", lead=None, child_titles=["Guide"],
...                 only_child=("Run it.", "Guide"))
('Run it.', 'Guide')
"""

from __future__ import annotations


def section_summary(*, title: str, header: str, lead: tuple[str, str] | None,
                    child_titles: list[str], only_child: tuple[str, str] | None = None) -> tuple[str, str]:
    """Return ``(summary, its header)``; ``lead`` is the first chunk's ``(text, header)`` if any,
    ``only_child`` the ``(summary, header)`` of the section's one subsection if it has exactly one."""
    if lead is not None:
        return lead
    if only_child is not None and len(child_titles) == 1:
        return only_child
    return ("Subsections: " + "; ".join(child_titles)) if child_titles else title, header
