"""A corpus of ugly files: each is skipped with a reason, the good ones are ingested, nothing crashes."""

from __future__ import annotations

import gzip
import os
import random
import socket
import stat

import pytest

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
    rnd = random.Random(1)  # printable high bytes no charset reads with confidence (no control bytes: not binary)
    (root / "undecodable.txt").write_bytes(bytes(rnd.randrange(128, 256) for _ in range(4096)))
    (root / "loop.md").symlink_to(root / "loop.md")  # unreadable even for root: ELOOP
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
        "dangling.md": "broken_symlink", "undecodable.txt": "undecodable", "loop.md": "unreadable",
    }
    details = {os.path.basename(path): detail for path, _, detail in report.failed}
    assert details["undecodable.txt"] == "not utf-8 and no confident charset guess"
    assert details["loop.md"] == "Too many levels of symbolic links"
    assert report.new == 4  # good.md, latin1.txt, utf16.txt, dir.md/inner.md
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert sorted(p for *_, p in snap["documents"].values()) == ["dir.md/inner.md", "good.md", "latin1.txt",
                                                                   "utf16.txt"]
    from support import search

    hits = search(cfg, "crème brûlée", k=1, mode="bm25")
    assert hits and hits[0].path == "latin1.txt" and "Café" in hits[0].text
    assert "binary" in report.summary() and "dangling.md" in report.summary()


def test_special_files_are_skipped_never_opened(tmp_path, ray_session, installed_models):
    """A FIFO without a writer would block a read forever, a device never ends: they are skipped at
    discovery with the kind named, and the run finishes (the timeout below would catch a block)."""
    corpus = tmp_path / "special"
    corpus.mkdir()
    (corpus / "good.md").write_text(GOOD)
    os.mkfifo(corpus / "pipe.md")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(corpus / "sock.md"))
    (corpus / "null.md").symlink_to("/dev/null")  # a character device, without needing mknod
    try:
        report = run_ingest(make_config(tmp_path / "idx"), corpus, source="special")
    finally:
        sock.close()
    failed = {os.path.basename(path): (reason, detail) for path, reason, detail in report.failed}
    assert failed == {
        "pipe.md": ("not_a_file", "a FIFO (named pipe), not a regular file (never opened)"),
        "sock.md": ("not_a_file", "a socket, not a regular file (never opened)"),
        "null.md": ("not_a_file", "a character device, not a regular file (never opened)"),
    }
    assert report.new == 1
    assert "pipe.md: not_a_file (a FIFO (named pipe)" in report.summary()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod-000 file; the symlink loop in "
                                              "test_bad_input_is_skipped_with_reasons covers 'unreadable' as root")
def test_a_file_without_read_permission_is_unreadable(tmp_path, ray_session, installed_models):
    corpus = tmp_path / "perm"
    corpus.mkdir()
    (corpus / "good.md").write_text(GOOD)
    secret = corpus / "secret.md"
    secret.write_text("# Secret\n\nNobody may read this.\n")
    secret.chmod(0)
    try:
        report = run_ingest(make_config(tmp_path / "idx"), corpus, source="perm")
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert [(os.path.basename(p), r, d) for p, r, d in report.failed] == [("secret.md", "unreadable", "permission denied")]
    assert report.new == 1


def test_a_document_that_turns_bad_keeps_its_last_good_version(tmp_path, ray_session, installed_models):
    """Good files are ingested, then overwritten with bad bytes (binary; undecodable) and re-ingested: the
    index still answers with the old good text, and the report says why and that the old version is kept."""
    from support import search

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text(GOOD)
    (corpus / "b.txt").write_text("Marmalade recipes: boil the oranges for two hours before adding sugar.\n")
    cfg = make_config(tmp_path / "idx")
    assert run_ingest(cfg, corpus).new == 2
    before = snapshot(cfg)
    (corpus / "a.md").write_bytes(b"\x00\x01\x02" * 100)
    rnd = random.Random(1)
    (corpus / "b.txt").write_bytes(bytes(rnd.randrange(128, 256) for _ in range(4096)))
    report = run_ingest(cfg, corpus)
    failed = {os.path.basename(p): (r, d) for p, r, d in report.failed}
    assert failed == {
        "a.md": ("binary", "NUL bytes in the first 8 KiB; the index keeps its last good version"),
        "b.txt": ("undecodable", "not utf-8 and no confident charset guess; the index keeps its last good version"),
    }
    assert report.new == report.updated == 0 and "the index keeps its last good version" in report.summary()
    snap = snapshot(cfg)
    assert snap["documents"] == before["documents"]  # same content hashes: nothing was replaced or deleted
    assert_consistent(snap)
    hits = search(cfg, "quick brown fox lazy dog", k=1, mode="bm25")
    assert hits and hits[0].path == "a.md" and "The quick brown fox jumps over the lazy dog." in hits[0].text
    hits = search(cfg, "marmalade oranges", k=1, mode="bm25")
    assert hits and hits[0].path == "b.txt" and "boil the oranges for two hours" in hits[0].text
