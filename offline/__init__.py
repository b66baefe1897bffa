"""Offline batch work that never runs in a Serve replica: :mod:`offline.eval` (retrieval and answer
evaluation on judged data) and :mod:`offline.reranker` (training Strata's cross-encoder). Both run
the query path in-process through :mod:`serving.services.local`."""
