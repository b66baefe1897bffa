"""Extractive section summaries (lead-based), chosen so they cost no extra embedding.

A section with body text is summarised by its lead passage: its first chunk (whole leading
sentences within the chunk budget, the classic lead-N extractive summary). Its embedding input is
that chunk's, so the embedder deduplicates it and the summary vector is free. A section with no
body text of its own is summarised by the titles of its subsections.

>>> section_summary(title="Install", header="Guide > Install", lead=None, child_titles=["Linux", "macOS"])
('Subsections: Linux; macOS', 'Guide > Install\\nSubsections: Linux; macOS')
"""

from __future__ import annotations


def section_summary(*, title: str, header: str, lead: tuple[str, str] | None,
                    child_titles: list[str]) -> tuple[str, str]:
    """Return ``(summary, embed_text)``; ``lead`` is the first chunk's ``(text, embed_text)`` if any."""
    if lead is not None:
        return lead
    summary = ("Subsections: " + "; ".join(child_titles)) if child_titles else title
    return summary, (f"{header}\n{summary}" if header else summary)
