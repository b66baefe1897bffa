"""A corpus of ugly files: each is skipped with a reason, the good ones are ingested, nothing crashes."""

from __future__ import annotations

import gzip
import os

from support import make_config
from index_probe import assert_consistent, snapshot
from pipelines.ingest import run_ingest

GOOD = "# Valid notes\n\nThe quick brown fox jumps over the lazy dog. It was a sunny day.\n"


def build_bad_corpus(root):
    root.mkdir()
    (root / "good.md").write_text(GOOD)
    (root / "latin1.txt").write_bytes("Caf\xe9 cr\xe8me br\xfbl\xe9e is a dessert served cold.\n".encode("latin-1"))
    (root / "utf16.txt").write_bytes("Notes in UTF-16 with a byte order mark.\n".encode("utf-16"))
    (root / "empty.md").write_text("")
    (root / "blank.txt").write_text("   \n\n\t\n")
    (root / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(2048))
    (root / "elf.md").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    (root / "huge.txt").write_text("word " * 40_000)  # 200 kB > the 100 kB cap below
    (root / "corrupt.rst.gz").write_bytes(gzip.compress(b"Title\n=====\n\nbody text\n")[:-12])
    (root / "bomb.txt.gz").write_bytes(gzip.compress(b"a" * 5_000_000))  # 5 MB decompressed > cap
    (root / "dangling.md").symlink_to(root / "does-not-exist.md")
    (root / "dir.md").mkdir()
    (root / "dir.md" / "inner.md").write_text("# Inner\n\nA nested document about rivers and lakes.\n")
    return root


def test_bad_input_is_skipped_with_reasons(tmp_path, ray_session, installed_models):
    corpus = build_bad_corpus(tmp_path / "bad")
    cfg = make_config(tmp_path / "idx", ingest={"max_file_bytes": 100_000})
    report = run_ingest(cfg, corpus, source="bad")
    reasons = {os.path.basename(path): reason for path, reason, _ in report.failed}
    assert reasons == {
        "empty.md": "empty", "blank.txt": "empty", "binary.txt": "binary", "elf.md": "binary",
        "huge.txt": "too_large", "corrupt.rst.gz": "malformed", "bomb.txt.gz": "too_large",
        "dangling.md": "broken_symlink",
    }
    assert report.new == 4  # good.md, latin1.txt, utf16.txt, dir.md/inner.md
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert sorted(p for *_, p in snap["documents"].values()) == ["dir.md/inner.md", "good.md", "latin1.txt",
                                                                   "utf16.txt"]
    from support import search

    hits = search(cfg, "crème brûlée", k=1, mode="bm25")
    assert hits and hits[0].path == "latin1.txt" and "Café" in hits[0].text
    assert "binary" in report.summary() and "dangling.md" in report.summary()


def test_a_document_that_turns_bad_keeps_its_last_good_version(tmp_path, ray_session, installed_models):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text(GOOD)
    cfg = make_config(tmp_path / "idx")
    run_ingest(cfg, corpus)
    (corpus / "a.md").write_bytes(b"\x00\x01\x02" * 100)
    report = run_ingest(cfg, corpus)
    assert [r for _, r, _ in report.failed] == ["binary"]
    snap = snapshot(cfg)
    assert len(snap["documents"]) == 1
    assert_consistent(snap)
