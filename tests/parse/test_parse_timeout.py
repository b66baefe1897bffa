"""A file that hangs its parser is given up after ``ingest.parse_timeout_s`` with reason ``timeout``, and
the rest of the parse task's batch goes on: PDFs in the worker's parser process (killed at the limit,
replaced for the next PDF; one that crashes it costs that file only), other formats under a timer."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pyarrow as pa
import pytest
from pdfgen import Text, make_pdf

from pipelines.parse import ParseError, ParserCrash
from pipelines.parse.isolated import IsolatedParser

HERE = Path(__file__).parent


def _pdf(word: str) -> bytes:
    return make_pdf([[Text(72, 700 - 14 * k, 10, f"{word} line {k} of a page of plain body text.") for k in range(8)]])


@pytest.fixture()
def slow_parser(monkeypatch):
    """An :class:`IsolatedParser` whose child runs :mod:`slow_parser` (this folder on its path)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH")) if p))
    parser = IsolatedParser("slow_parser:parse")
    yield parser
    parser.close()


def test_a_hanging_pdf_times_out_and_the_next_one_parses(slow_parser):
    good = _pdf("Harbour")
    assert "Harbour line 3" in slow_parser.parse(good, path="a.pdf", doc_id="a", max_bytes=10**6, timeout_s=30).text
    started = time.monotonic()
    with pytest.raises(ParseError) as err:
        slow_parser.parse(_pdf("SLEEP"), path="hang.pdf", doc_id="h", max_bytes=10**6, timeout_s=1.5)
    assert err.value.reason == "timeout" and "parse_timeout_s = 1.5 s" in err.value.detail
    assert 1.5 <= time.monotonic() - started < 10
    doc = slow_parser.parse(_pdf("Lighthouse"), path="b.pdf", doc_id="b", max_bytes=10**6, timeout_s=30)
    assert "Lighthouse line 7" in doc.text and doc.page_starts == [0]
    assert slow_parser.started == 2  # the hung child was killed and replaced


def test_a_pdf_that_kills_the_parser_costs_that_file_only(slow_parser):
    with pytest.raises(ParserCrash) as err:
        slow_parser.parse(_pdf("CRASH"), path="crash.pdf", doc_id="c", max_bytes=10**6, timeout_s=30)
    assert err.value.reason == "parser_error" and "SIGSEGV" in err.value.detail
    assert "Harbour" in slow_parser.parse(_pdf("Harbour"), path="a.pdf", doc_id="a", max_bytes=10**6, timeout_s=30).text
    with pytest.raises(ParseError) as err:  # the child's verdicts come back as they are
        slow_parser.parse(b"%PDF-1.4 truncated", path="cut.pdf", doc_id="x", max_bytes=10**6, timeout_s=30)
    assert err.value.reason == "corrupt"


def test_the_parse_task_gives_up_on_a_hanging_file_and_the_batch_goes_on(tmp_path, slow_parser, monkeypatch):
    from cluster.config import load_config
    from pipelines.parse import isolated
    from pipelines.stages import parse_chunk

    real_parse = isolated.parse_bytes

    def hanging_text(raw, *, path, doc_id, max_bytes):  # a text parser stuck in a loop
        if path.endswith("loop.md"):
            while True:
                pass
        return real_parse(raw, path=path, doc_id=doc_id, max_bytes=max_bytes)

    monkeypatch.setattr(isolated, "shared_parser", lambda: slow_parser)
    monkeypatch.setattr(isolated, "parse_bytes", hanging_text)
    files = {"hang.pdf": _pdf("SLEEP"), "good.pdf": _pdf("Harbour"), "loop.md": b"# Loop\n\nNever parsed.\n",
             "notes.md": b"# Notes\n\nA plain note about rivers and deltas.\n"}
    items = []
    for i, (name, raw) in enumerate(files.items()):
        (tmp_path / name).write_bytes(raw)
        items.append({"doc_id": f"d{i}", "source": "s", "path": str(tmp_path / name), "relpath": name,
                      "size": len(raw), "mtime_ns": 0, "known_hash": None})
    cfg = load_config()
    started = time.monotonic()
    rows = parse_chunk.parse_chunk_batch(
        pa.table({"files": [items[:2], items[2:]]}), models_json=cfg.models.model_dump_json(),
        chunking_json=cfg.chunking.model_dump_json(), max_file_bytes=10**6, parse_timeout_s=1.5).to_pylist()
    assert time.monotonic() - started < 20
    by_path = {r["path"]: r for r in rows}
    assert [by_path[n]["status"] for n in files] == ["failed", "ok", "failed", "ok"]
    assert by_path["hang.pdf"]["reason"] == by_path["loop.md"]["reason"] == "timeout"
    assert by_path["good.pdf"]["chunks"][0]["first_page"] == 1
    assert "rivers" in by_path["notes.md"]["chunks"][0]["text"]


def test_no_timeout_parses_in_process():
    from cluster.config import IngestConfig, load_config
    from pipelines.stages.parse_chunk import chunking_setup, parse_and_chunk

    assert IngestConfig().parse_timeout_s == 120
    cfg = load_config()
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    doc, chunks = parse_and_chunk(_pdf("Harbour"), path="a.pdf", doc_id="a", max_bytes=10**6, tokenizer=tokenizer,
                                  config=config, timeout_s=0)
    assert doc.format == "pdf" and chunks[0].first_page == 1


def test_an_upload_that_hangs_the_parser_is_refused(tmp_path, slow_parser, monkeypatch):
    """``POST /v1/documents`` parses every file before staging any (in the ingress): a PDF that hangs or
    crashes the parser gets a 422 with its reason, and the ingress goes on."""
    from support import make_config

    from pipelines.parse import isolated
    from pipelines.uploads import Upload, UploadRejected, validate_uploads

    monkeypatch.setattr(isolated, "shared_parser", lambda: slow_parser)
    cfg = make_config(tmp_path / "idx", ingest={"parse_timeout_s": 1.5})
    with pytest.raises(UploadRejected) as err:
        validate_uploads(cfg, [Upload("hang.pdf", _pdf("SLEEP")), Upload("crash.pdf", _pdf("CRASH")),
                               Upload("good.pdf", _pdf("Harbour"))])
    assert err.value.status == 422
    assert [(p["file"], p["reason"]) for p in err.value.problems] == [("hang.pdf", "timeout"),
                                                                      ("crash.pdf", "parser_error")]
    validate_uploads(cfg, [Upload("good.pdf", _pdf("Harbour"))])
