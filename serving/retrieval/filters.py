"""Request filters (documents, sources, section subtree) translated for LanceDB and tantivy.

>>> ResolvedFilters(doc_ids=["d1"], section_facet="/d1/s2").lance_where()
"doc_id IN ('d1') AND (section_facet = '/d1/s2' OR section_facet LIKE '/d1/s2/%')"
"""

from __future__ import annotations

from dataclasses import dataclass

from cluster.store.lance_store import sql_in
from serving.index.view import IndexView
from serving.protocol import Filters


class UnknownFilterTarget(LookupError):
    """A filter names a section that does not exist (answered with 404)."""


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


@dataclass(frozen=True)
class ResolvedFilters:
    """Filters with sources resolved to document ids and the section turned into its facet."""

    doc_ids: list[str] | None = None
    section_facet: str | None = None
    section_id: str | None = None
    empty: bool = False  # the filters match nothing (e.g. an unknown source)

    def lance_where(self) -> str | None:
        parts = []
        if self.doc_ids is not None:
            parts.append(sql_in("doc_id", self.doc_ids))
        if self.section_facet:
            f = self.section_facet
            parts.append(f"(section_facet = {_quote(f)} OR section_facet LIKE {_quote(f + '/%')})")
        return " AND ".join(parts) or None

    def sections_where(self) -> str | None:
        return sql_in("doc_id", self.doc_ids) if self.doc_ids is not None else None


def resolve_filters(filters: Filters, view: IndexView) -> ResolvedFilters:
    """Resolve ``filters`` against the index (sources → doc ids, section → facet)."""
    if filters.is_empty():
        return ResolvedFilters()
    doc_ids: set[str] | None = set(filters.doc_ids) if filters.doc_ids else None
    if filters.sources:
        by_source = set(view.doc_ids_of_sources(filters.sources))
        doc_ids = by_source if doc_ids is None else doc_ids & by_source
    facet = None
    if filters.section_id:
        facet = view.section_facet(filters.section_id)
        if facet is None:
            raise UnknownFilterTarget(f"filters.section_id: no section {filters.section_id!r}")
        section_doc = facet.split("/")[1]
        doc_ids = {section_doc} if doc_ids is None else doc_ids & {section_doc}
    ids = sorted(doc_ids) if doc_ids is not None else None
    return ResolvedFilters(doc_ids=ids, section_facet=facet, section_id=filters.section_id,
                           empty=ids is not None and not ids)
