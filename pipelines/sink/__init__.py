"""The single writer: flattens embedded rows into LanceDB and tantivy."""
