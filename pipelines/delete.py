"""Delete documents from every store of an index (LanceDB tables and the BM25 index).

>>> # delete_documents(store, bm25, ["3f2a…"])
"""

from __future__ import annotations

from cluster.store.bm25 import Bm25Index, ShardedBm25
from cluster.store.lance_store import LanceStore


def delete_documents(store: LanceStore, bm25: Bm25Index | ShardedBm25, doc_ids: list[str]) -> int:
    """Remove ``doc_ids`` from tantivy, then from LanceDB; returns how many documents existed.
    Takes the BM25 writer lock if this process does not hold it already."""
    opened = not bm25.writing
    if opened:
        bm25.open_writer()
    try:
        bm25.delete_documents(doc_ids)
        bm25.commit()
        return store.delete_documents(doc_ids)
    finally:
        if opened:
            bm25.close_writer()
