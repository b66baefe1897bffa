"""Storage shared by ingestion (writes) and serving (reads): LanceDB tables and the tantivy BM25 index."""
