"""Helpers shared by the tests (paths, config factory)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples" / "corpus"
SHARED_DATA = REPO.parent / "shared" / "data"
#: How far (nDCG@10) the shipped default may fall below the better of BM25 and dense on a real slice.
DEFAULT_RETRIEVAL_MARGIN = 0.005
METRICS_PORT = int(os.environ.get("STRATA_TEST_METRICS_PORT", "18080"))


def free_port() -> int:
    """A free loopback port for a server a test starts: :func:`bench.serve_bench.free_port`, outside the kernel's
    ephemeral range that a starting Ray cluster draws its connections from."""
    from bench.serve_bench import free_port as pick

    return pick()


def make_config(data_dir: Path, **overrides):
    """A config writing to ``data_dir`` with the progress bar off and the cross-encoder off (the tests that
    need it turn it on); ``overrides`` per section (:func:`cluster.config.scripted_config`)."""
    from cluster.config import scripted_config

    return scripted_config(data_dir, **overrides)


def index_files(root: Path, files: dict[str, str], source: str, **overrides):
    """A config over ``root / "index"`` with ``files`` (name → text) written under ``root / "corpus"`` and ingested
    once (every file new, none failed); ``overrides`` as :func:`make_config`'s."""
    from pipelines.ingest import run_ingest

    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in files.items():
        (corpus / name).write_text(text)
    cfg = make_config(root / "index", **overrides)
    report = run_ingest(cfg, corpus, source=source)
    assert not report.failed and report.new == len(files), report
    return cfg


def search(cfg, query: str, *, k: int = 5, mode: str = "hybrid"):
    """Hits of the in-process query pipeline (the same code path as ``POST /v1/search``)."""
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    return SearchPipeline(cfg).search(SearchRequest(query=query, top_k=k, mode=mode, use_cache=False)).hits


def sse_events(response) -> list[tuple[str, dict]]:
    """``(event, data)`` pairs of a Server-Sent-Events ``requests`` response (``/v1/answer`` streams)."""
    import json

    events, kind = [], None
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            events.append((kind, json.loads(line[6:])))
    return events


def scrape_metrics() -> str:
    """The Prometheus text of the session's Ray metrics agent."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=5) as r:
        return r.read().decode()


def metric_total(text: str, name: str, **labels: str) -> float:
    """The sum of every sample of ``name`` (exact metric name, e.g. a histogram's ``…_count``) whose labels
    include ``labels`` — a counter's total over replicas, so a test can measure what it added itself.

    >>> metric_total('a_total{x="1",y="2"} 3.0\\na_total{x="2"} 4\\nab_total{x="1"} 9', "a_total", x="1")
    3.0
    """
    import re

    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        head, _, value = line.rpartition(" ")
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', head))
        if all(found.get(k) == v for k, v in labels.items()):
            total += float(value)
    return total


def wait_for_deltas(before: str, wanted: dict[str, tuple[str, dict[str, str], float]], timeout_s: float = 60):
    """Scrape until every ``wanted[key] = (metric, labels, at least)`` grew by at least that much since the
    ``before`` scrape; returns ``{key: growth}`` of the last scrape (the caller asserts)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        text = scrape_metrics()
        grown = {key: metric_total(text, name, **labels) - metric_total(before, name, **labels)
                 for key, (name, labels, _) in wanted.items()}
        if all(grown[key] >= least for key, (_, _, least) in wanted.items()) or time.monotonic() > deadline:
            return grown
        time.sleep(2)


def answer_tally(pipe, examples, *, short: str = "contains") -> dict:
    """Ask ``pipe`` (an AnswerPipeline) every example of an answer set and count what an answer test
    asserts on: answerable ones answered right (``right``), answered at all (``answered``), cited from
    their evidence document (``cited``), with a short span holding the answer (``short``: the span
    ``contains`` it, or ``equal`` to it); unanswerable ones ``refused``; the misses in ``wrong``."""
    from offline.eval.answer_metrics import normalize_text
    from serving.protocol import AnswerRequest

    tally = {"right": 0, "answered": 0, "cited": 0, "short": 0, "refused": 0, "wrong": [],
             "answerable": sum(e.answerable for e in examples)}
    tally["unanswerable"] = len(examples) - tally["answerable"]
    for e in examples:
        response = pipe.answer(AnswerRequest(question=e.question, use_cache=False))
        if e.answerable:
            text = normalize_text(response.answer)
            good = not response.refused and any(normalize_text(g) in text for g in e.answers)
            tally["right"] += good
            value = normalize_text(response.answer_value or "")  # the short span, not the sentence
            tally["short"] += bool(value) and any(
                (normalize_text(g) in value) if short == "contains" else (normalize_text(g) == value) for g in e.answers)
            if not response.refused:
                tally["answered"] += 1
                tally["cited"] += any(c.path == e.evidence[0].document for c in response.citations)
            if not good:
                tally["wrong"].append((e.id, response.answer[:120] or response.refusal_reason))
        else:
            tally["refused"] += response.refused
            if not response.refused:
                tally["wrong"].append((e.id, response.answer[:120]))
    return tally


def embedder_variant(target: Path, **manifest_updates) -> Path:
    """A model directory at ``target``: the installed default embedder's files linked, not copied, with its
    manifest changed by ``manifest_updates`` (prefixes, ``multilingual`` …); point ``models.embedder_dir`` at it."""
    from cluster.config import load_config
    from cluster.models.manifest import read_manifest
    from cluster.models.registry import resolve_embedder

    source = resolve_embedder(load_config().models).path
    target.mkdir(parents=True, exist_ok=True)
    for f in source.iterdir():
        if f.is_file() and f.name != "strata-model.json":
            (target / f.name).symlink_to(f)
    read_manifest(source).model_copy(update=manifest_updates).write(target)
    return target
