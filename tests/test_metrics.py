"""Ingest and answer metrics reach Prometheus through Ray's metrics agent (real scrapes of the endpoint).

Every check is a DELTA across this test's own work: the session's Ray endpoint also carries what earlier
tests recorded (the driver's counters add up over every ingest of the session), so a test reads the values
first, waits until they are settled (Ray exports every few seconds), does its work, and requires the exact
increase. Gauges are compared with the index itself.
"""

from __future__ import annotations

import re
import time
import urllib.request

from support import METRICS_PORT, make_config

_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([-+0-9.eE]+|NaN|[+-]Inf)$')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def scrape() -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=5) as response:
        return response.read().decode()


def samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    """(labels, value) of every sample of metric ``name`` (exact name, e.g. ``…_total`` or ``…_count``)."""
    out = []
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m and m.group(1) == name:
            out.append((dict(_LABEL.findall(m.group(2) or "")), float(m.group(3))))
    return out


def total(text: str, name: str, **labels: str) -> float:
    """The sum of ``name`` over the series whose labels include ``labels``."""
    return sum(v for tags, v in samples(text, name) if all(tags.get(k) == want for k, want in labels.items()))


def settled(keys: dict[str, tuple[str, dict]], quiet_s: float = 12.0, timeout_s: float = 60.0) -> dict[str, float]:
    """The values of ``keys`` (key → (metric, labels)) once two scrapes ``quiet_s`` apart agree, i.e. once
    Ray exported whatever earlier tests recorded (its export interval is a few seconds)."""
    def read():
        text = scrape()
        return {key: total(text, name, **labels) for key, (name, labels) in keys.items()}

    deadline = time.monotonic() + timeout_s
    last = read()
    while True:
        time.sleep(quiet_s)
        now = read()
        if now == last or time.monotonic() > deadline:
            return now
        last = now


def wait_for(keys: dict[str, tuple[str, dict]], expected: dict[str, float], timeout_s: float = 60.0) -> dict[str, float]:
    """Scrape until every key reaches its expected value (or the timeout); returns the last values."""
    deadline = time.monotonic() + timeout_s
    while True:
        text = scrape()
        now = {key: total(text, name, **labels) for key, (name, labels) in keys.items()}
        if all(now[k] >= v for k, v in expected.items()) or time.monotonic() > deadline:
            return now
        time.sleep(2)


def test_ingest_metrics_are_exported(ray_session, installed_models, corpus_copy, tmp_path):
    """A fresh ingest (with two bad files) moves the counters by exactly its report, and the LanceDB gauges
    equal the index's own stats."""
    from cluster.models.registry import resolve_embedder
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS
    from pipelines.ingest import run_ingest

    (corpus_copy / "blob.txt").write_bytes(b"\x00\x01binary" * 64)
    (corpus_copy / "broken.rst.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\xff" * 40)
    keys = {
        "chunks": ("ray_strata_ingest_chunks_total", {}),
        "sections": ("ray_strata_ingest_sections_total", {}),
        "tokens": ("ray_strata_ingest_tokens_total", {}),
        "ok": ("ray_strata_ingest_documents_total", {"status": "ok"}),
        "failed_docs": ("ray_strata_ingest_documents_total", {"status": "failed"}),
        "binary": ("ray_strata_ingest_failures_total", {"reason": "binary"}),
        "malformed": ("ray_strata_ingest_failures_total", {"reason": "malformed"}),
        "writes": ("ray_strata_ingest_stage_seconds_count", {"stage": "write"}),
        "commits": ("ray_strata_writer_batch_rows_count", {}),
    }
    before = settled(keys)
    cfg = make_config(tmp_path / "idx")
    report = run_ingest(cfg, corpus_copy, source="metrics")
    assert report.failures_by_reason() == {"binary": 1, "malformed": 1}, report.summary()
    delta = {"chunks": report.chunks, "sections": report.sections, "tokens": report.tokens, "ok": report.new,
             "failed_docs": 2, "binary": 1, "malformed": 1, "writes": report.commits, "commits": report.commits}
    after = wait_for(keys, {k: before[k] + d for k, d in delta.items()})
    assert {k: after[k] - before[k] for k in delta} == delta

    text = ""
    deadline = time.monotonic() + 60
    store = LanceStore.open(cfg.storage, dim=resolve_embedder(cfg.models).manifest.dim)
    stats = store.stats(CHUNKS)
    gauges = {"ray_strata_lance_rows": stats.rows, "ray_strata_lance_fragments": stats.fragments,
              "ray_strata_lance_unindexed_rows": stats.unindexed_rows}
    while time.monotonic() < deadline:
        text = scrape()
        if all(total(text, name, table="chunks") == value for name, value in gauges.items()):
            break
        time.sleep(2)
    assert {name: total(text, name, table="chunks") for name in gauges} == gauges
    assert stats.rows == report.chunks and stats.unindexed_rows == stats.rows  # flat below ivf_min_rows
    for stage in ("parse_chunk", "embed", "write"):  # recorded in the parse tasks and embedding actors too
        assert samples(text, "ray_strata_ingest_stage_seconds_count") and \
            total(text, "ray_strata_ingest_stage_seconds_count", stage=stage) > 0, stage


class FailingThenGoodWriter:
    """A scripted generative writer: two drafts the verifier rejects, then a supported one."""

    def __init__(self, good: str) -> None:
        self.calls = 0
        self.good = good

    def model(self, role):
        return "scripted-writer"

    async def stream(self, role, messages, *, max_tokens, temperature=0.0, schema=None):
        from serving.llm.engine import GenerationEvent

        self.calls += 1
        text = "Something unrelated about the weather." if self.calls <= 2 else self.good
        yield GenerationEvent(delta=text)
        yield GenerationEvent(delta="", done=True, text=text, prompt_tokens=120, completion_tokens=9, ttft_s=0.01)

    async def count_tokens(self, role, messages) -> int:
        return sum(len(m["content"].split()) for m in messages)

    async def ready(self) -> str:
        return "ok"


def test_answer_metrics_of_the_generative_path(ray_session, sample_index):
    """Retries, verifications, tokens, time to first token and answer seconds, recorded by the answer
    service (here in the driver, with a scripted writer: the real vLLM one takes minutes on CPU)."""
    from serving.protocol import AnswerRequest
    from serving.services.answer import AnswerService
    from serving.services.local import SearchPipeline

    cfg = sample_index[0].model_copy(deep=True)
    cfg.answer.writer.kind = "llm"
    cfg.answer.llm_judge = "off"
    keys = {
        "retries": ("ray_strata_answer_retries_total", {}),
        "fail": ("ray_strata_answer_verifications_total", {"result": "fail"}),
        "writer_in": ("ray_strata_answer_tokens_total", {"role": "writer", "direction": "in"}),
        "writer_out": ("ray_strata_answer_tokens_total", {"role": "writer", "direction": "out"}),
        "ttft": ("ray_strata_answer_ttft_seconds_count", {}),
        "seconds": ("ray_strata_answer_seconds_count", {}),
        "requests": ("ray_strata_answer_requests_total", {}),
    }
    before = settled(keys)
    search = SearchPipeline(cfg)
    writer = FailingThenGoodWriter("The EPOLLET flag requests edge-triggered notification for the file descriptor.")
    try:
        response = search._loop.run_until_complete(AnswerService(cfg, search.service, writer).answer(AnswerRequest(
            question="Which flag requests edge-triggered notification in epoll?", llm_analysis=False,
            use_cache=False), tenant=search.tenant))
    finally:
        search.close()
    assert [a.verdict for a in response.attempts][:2] == ["fail", "fail"], response.attempts
    outcome = "refused" if response.refused else "answered"
    delta = {"retries": 2, "fail": 2, "writer_in": 360, "writer_out": 27, "ttft": 1, "seconds": 1, "requests": 1}
    if response.attempts[-1].expansion == "extractive":  # the third draft failed too: no out-tokens of a 4th
        delta["fail"] = sum(a.verdict == "fail" for a in response.attempts)
    after = wait_for(keys, {k: before[k] + d for k, d in delta.items()})
    assert {k: after[k] - before[k] for k in delta} == delta, (response.attempts, after, before)
    text = scrape()
    assert total(text, "ray_strata_answer_seconds_count", outcome=outcome) >= 1
    assert {tags.get("expansion") for tags, _ in samples(text, "ray_strata_answer_retries_total")} >= {"heading", "window"}
