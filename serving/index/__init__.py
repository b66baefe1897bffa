"""The read side of the index: :class:`~serving.index.view.IndexView` (LanceDB tables + BM25 at one
version) and :class:`~serving.index.handle.IndexHandle` (opened lazily by a replica)."""
