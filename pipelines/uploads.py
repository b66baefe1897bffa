"""Documents sent over HTTP (``POST /v1/documents``): validated, staged in the index's storage and
ingested by :func:`pipelines.ingest.run_ingest` as background jobs; ``DELETE`` through
:func:`pipelines.delete.delete_documents`.

* **Validation first, nothing half-written**: every file of a request is checked before any is
  staged — a base name of at most 255 UTF-8 bytes (the filesystem's limit) that ``ingest.include``/
  ``exclude`` accept, at most ``ingest.max_file_bytes``, and :func:`pipelines.parse.parse_bytes` must
  parse it to some text to index (the same detection and errors as an ingest: ``empty`` — headings
  only included —, ``binary``, ``undecodable``, ``too_large``, ``malformed``; ``timeout`` after
  ``ingest.parse_timeout_s``: a PDF is parsed in a child process, so one that hangs or crashes the
  parser costs the request a 422, never the ingress). One bad file rejects the
  request. Staging is all-or-nothing too: when writing one file fails, the files of the request staged
  so far are put back as they were and the job folder is removed.
* **Staging**: ``<data_dir>/uploads/<tenant>/<source>/<name>`` (replaced atomically; identical bytes
  are left alone). A job ingests hard links of just its files from ``<data_dir>/uploads/.jobs/<id>/``,
  so the document id is the one ``strata ingest`` gives ``<name>`` under source ``<source>``, and a
  re-upload of the same name and bytes is reported ``unchanged``.
* **No server paths** in what a client reads: job records show ``<data_dir>`` and file names, never
  absolute paths (:func:`cluster.redact.hide_paths`).
* **Jobs**: one at a time per process (a replica), in a background thread; each holds the process's
  writer lock and the index's single-writer lock (tantivy's, taken by the ingest itself; a CLI ingest
  holding it makes the job wait up to ``lock_wait_s``). Records live in ``<data_dir>/ingests/<id>.json``,
  so any replica on the shared storage answers ``GET /v1/ingests/{id}``.

>>> safe_name("../../etc/passwd"), safe_name("notes.md")
('passwd', 'notes.md')
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import fnmatch
import json
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cluster.config import StrataConfig
from cluster.redact import hide_paths, hide_paths_in, public_source
from cluster.tenants import tenant_config, validate_tenant
from pipelines.chunk.chunker import has_text
from pipelines.parse import ParseError, ParserCrash
from pipelines.parse.isolated import parse_with_limit
from pipelines.sources.files import make_doc_id

DEFAULT_SOURCE = "uploads"
_SOURCE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_LOCKED = "another process is writing the BM25 index"
#: The longest file name most filesystems take (one path component, in bytes).
NAME_MAX_BYTES = 255


class UploadRejected(ValueError):
    """A request the client must fix: ``status`` (4xx), a message, and per-file ``problems``."""

    def __init__(self, status: int, message: str, problems: list[dict] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.problems = problems or []


class WriterBusy(RuntimeError):
    """The index is being written (an ingest job here, or another writer): retry later (HTTP 409)."""


class DocumentNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Upload:
    name: str
    data: bytes


def base_name(name: str | None) -> str:
    """An uploaded file's name with its folders dropped (checked by :func:`name_problem`)."""
    return (name or "").replace("\\", "/").rsplit("/", 1)[-1].strip()


def name_problem(base: str) -> str | None:
    """Why ``base`` cannot be a staged file's name, or None. Measured in UTF-8 bytes: a filesystem
    takes 255 bytes per name, and a name of 203 characters can be 403 bytes.

    >>> name_problem("notes.md") is None, name_problem("é" * 200 + ".md")
    (True, '403 bytes in UTF-8; the limit is 255 bytes')
    """
    if not base or base in (".", "..") or any(ord(c) < 32 or c == "\x7f" for c in base):
        return "give each file a plain name such as notes.md"
    try:
        size = len(base.encode("utf-8"))
    except UnicodeEncodeError:
        return "not valid Unicode"
    if size > NAME_MAX_BYTES:
        return f"{size} bytes in UTF-8; the limit is {NAME_MAX_BYTES} bytes"
    return None


def safe_name(name: str | None) -> str:
    """The base name of an uploaded file's name (folders dropped), or ``UploadRejected``."""
    base = base_name(name)
    problem = name_problem(base)
    if problem:
        raise UploadRejected(422, f"unusable file name {name!r}: {problem}",
                             [{"file": name, "reason": "bad_name", "message": problem}])
    return base


def check_source(source: str | None) -> str:
    source = source or DEFAULT_SOURCE
    if not _SOURCE.fullmatch(source):
        raise UploadRejected(422, f"source {source!r}: use 1-100 letters, digits, '.', '_' or '-'")
    return source


def validate_uploads(cfg: StrataConfig, uploads: list[Upload]) -> None:
    """Raise :class:`UploadRejected` naming every bad file (413 if one is only too large, else 415 for
    names ``ingest.include`` does not take, else 422); return when all would ingest."""
    if not uploads:
        raise UploadRejected(422, "no files: send multipart/form-data with one or more file fields "
                                  "(e.g. curl -F file=@notes.md)")
    if len(uploads) > cfg.serve.max_upload_files:
        raise UploadRejected(413, f"{len(uploads)} files; the limit is {cfg.serve.max_upload_files} "
                                  "(serve.max_upload_files)")
    problems: list[dict] = []
    seen: set[str] = set()
    limit = cfg.ingest.max_file_bytes
    for upload in uploads:
        def bad(reason: str, message: str, status: int = 422) -> None:
            problems.append({"file": upload.name, "reason": reason, "message": message, "status": status})

        problem = name_problem(upload.name)
        if problem:
            bad("bad_name", f"unusable file name: {problem}")
            continue
        if upload.name in seen:
            bad("duplicate", "the same file name twice in one upload")
            continue
        seen.add(upload.name)
        inc, exc = cfg.ingest.include, cfg.ingest.exclude
        if any(fnmatch.fnmatch(upload.name, p) for p in exc) or not any(fnmatch.fnmatch(upload.name, p) for p in inc):
            bad("unsupported", f"file type not ingested (ingest.include: {' '.join(inc)}; "
                               f"ingest.exclude: {' '.join(exc)})", 415)
            continue
        if len(upload.data) > limit:
            bad("too_large", f"{len(upload.data)} bytes > {limit} (ingest.max_file_bytes)", 413)
            continue
        try:
            doc = parse_with_limit(upload.data, path=upload.name, doc_id="upload", max_bytes=limit,
                                   timeout_s=cfg.ingest.parse_timeout_s)
        except ParseError as exc:
            bad(exc.reason, str(exc), 413 if exc.reason == "too_large" else 422)
            continue
        except ParserCrash as exc:  # a bug, not bad input; the ingest would fail this file the same way
            bad(ParserCrash.reason, str(exc))
            continue
        if not has_text(doc):  # e.g. headings only: the chunker would make no chunk, the job would fail
            bad("empty", "no text to index after parsing (headings only?)")
    if problems:
        statuses = {p["status"] for p in problems}
        status = statuses.pop() if len(statuses) == 1 else 422
        summary = "; ".join(f"{p['file']}: {p['reason']} ({p['message']})" for p in problems[:10])
        raise UploadRejected(status, f"upload rejected, nothing was ingested: {summary}",
                             [{k: v for k, v in p.items() if k != "status"} for p in problems])


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:50]}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class IngestJobs:
    """Upload jobs and document deletes of one process over the index of ``cfg``."""

    def __init__(self, cfg: StrataConfig, *, lock_wait_s: float = 120.0) -> None:
        self.cfg = cfg.model_copy(deep=True)
        self.cfg.ingest.progress = False
        data_dir = Path(cfg.storage.data_dir)
        self.uploads_dir = data_dir / "uploads"
        self.jobs_dir = data_dir / "ingests"
        self.lock_wait_s = lock_wait_s
        self.writer = threading.Lock()  # this process's writes, one at a time
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="strata-upload")
        self.futures: dict[str, concurrent.futures.Future] = {}

    # -- uploads -----------------------------------------------------------------------------------
    def submit(self, tenant: str, source: str | None, uploads: list[Upload]) -> dict:
        """Validate, stage and queue ``uploads``; returns the job record (status ``queued``). All or
        nothing: if staging fails, nothing of this request stays (staged files put back, no job folder)."""
        source = check_source(source)
        validate_tenant(tenant)
        validate_uploads(self.cfg, uploads)
        job_id = secrets.token_hex(8)
        job_dir = self.uploads_dir / ".jobs" / job_id
        record = {
            "id": job_id, "tenant": tenant, "source": source, "status": "queued", "created_at": _now(),
            "started_at": None, "finished_at": None, "error": None, "report": None,
            "files": [{"name": u.name, "bytes": len(u.data), "doc_id": make_doc_id(source, u.name)} for u in uploads],
        }
        self._stage(self.uploads_dir / tenant / source, job_dir, uploads, lambda: self._save(record))
        snapshot = json.loads(json.dumps(record))  # the job's thread updates `record` from now on
        self.futures[job_id] = self._pool.submit(self._run, record, job_dir)
        return snapshot

    @staticmethod
    def _stage(staged: Path, job_dir: Path, uploads: list[Upload], then) -> None:
        """Write ``uploads`` to ``job_dir`` (new), then publish the changed ones in ``staged``, then call
        ``then``; on any failure undo all of it: replaced files back, new ones and ``job_dir`` removed."""
        published: list[tuple[Path, Path | None]] = []  # (staged file, the file it replaced, kept aside)
        made = [d for d in (staged.parent, staged) if not d.exists()]
        try:
            job_dir.mkdir(parents=True)
            fresh = []
            for upload in uploads:  # 1. the job's files; nothing outside the job folder changes yet
                target, link = staged / upload.name, job_dir / upload.name
                try:
                    same = target.is_file() and target.read_bytes() == upload.data
                except OSError:
                    same = False
                if same:  # identical bytes: the staged file (and its mtime) is left alone
                    _link_or_copy(target, link)
                else:
                    _write_atomic(link, upload.data)
                    fresh.append(upload.name)
            staged.mkdir(parents=True, exist_ok=True)
            for name in fresh:  # 2. publish: each one an atomic rename; what it replaces is kept aside
                target = staged / name
                token = secrets.token_hex(6)
                tmp = staged / f".upload-{token}.tmp"
                _link_or_copy(job_dir / name, tmp)
                backup = None
                if target.is_file():
                    backup = staged / f".upload-{token}.previous"
                    _link_or_copy(target, backup)
                try:
                    os.replace(tmp, target)
                except BaseException:
                    for leftover in (tmp, backup):
                        if leftover is not None:
                            with contextlib.suppress(OSError):
                                leftover.unlink()
                    raise
                published.append((target, backup))
            then()
        except BaseException:
            for target, backup in reversed(published):
                with contextlib.suppress(OSError):
                    if backup is not None:
                        os.replace(backup, target)
                    else:
                        target.unlink()
            shutil.rmtree(job_dir, ignore_errors=True)
            for folder in reversed(made):  # folders this request created, if they are empty again
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise
        for _, backup in published:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()

    def _run(self, record: dict, job_dir: Path) -> dict:
        from pipelines.ingest import run_ingest

        try:
            with self.writer:
                record.update(status="running", started_at=_now())
                self._save(record)
                report = self._patiently(lambda: run_ingest(self.cfg, job_dir, source=record["source"],
                                                            tenant=record["tenant"]))
            failed = {Path(p).name: f"{reason}: {detail}" if detail else reason for p, reason, detail in report.failed}
            report = hide_paths_in(report.to_dict(), self._roots(job_dir))
            for f in record["files"]:
                f["status"] = "failed" if f["name"] in failed else "ingested"
                if f["name"] in failed:
                    f["error"] = failed[f["name"]]
            for f in record["files"]:
                if f.get("error"):
                    f["error"] = hide_paths(f["error"], self._roots(job_dir))
            record.update(status="failed" if failed else "done", report=report,
                          error=f"{len(failed)} file(s) failed" if failed else None)
        except Exception as exc:  # the record says why; the job never takes the replica down
            record.update(status="failed", error=hide_paths(f"{type(exc).__name__}: {exc}", self._roots(job_dir)))
        finally:
            shutil.rmtree(job_dir, ignore_errors=True)  # the staged files stay; only the job's links go
            record["finished_at"] = _now()
            self._save(record)
            self.futures.pop(record["id"], None)
        return record

    def _roots(self, job_dir: Path) -> dict:
        """What job records show instead of server paths: a job's files by name, the rest under <data_dir>."""
        return {"": str(job_dir) + "/", "<data_dir>": self.cfg.storage.data_dir, "<models_home>": self.cfg.models.home}

    def _patiently(self, write):
        """Run ``write``; while another process holds the single-writer lock, retry up to ``lock_wait_s``."""
        deadline = time.monotonic() + self.lock_wait_s
        while True:
            try:
                return write()
            except RuntimeError as exc:
                if _LOCKED not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(2.0)

    def _save(self, record: dict) -> None:
        _write_atomic(self.jobs_dir / f"{record['id']}.json", json.dumps(record, indent=2).encode())

    def get(self, job_id: str, tenant: str) -> dict | None:
        """The job's record, or None when there is none for this tenant."""
        if not re.fullmatch(r"[0-9a-f]{16}", job_id):
            return None
        try:
            record = json.loads((self.jobs_dir / f"{job_id}.json").read_text())
        except (FileNotFoundError, ValueError):
            return None
        return record if record.get("tenant") == tenant else None

    def wait(self, job_id: str, timeout: float | None = None) -> None:
        future = self.futures.get(job_id)
        if future is not None:
            with contextlib.suppress(concurrent.futures.TimeoutError):
                future.result(timeout=timeout)

    # -- deletes -----------------------------------------------------------------------------------
    def delete(self, doc_id: str, tenant: str, *, wait_s: float = 10.0) -> dict:
        """Delete one document (and its staged upload); :class:`DocumentNotFound` if there is none,
        :class:`WriterBusy` if the index stays locked for ``wait_s``."""
        from cluster.store.lance_store import LanceStore, sql_in
        from cluster.store.schema import DOCUMENTS
        from pipelines.delete import delete_documents
        from pipelines.ingest import open_index_for_write

        if not self.writer.acquire(timeout=wait_s):
            raise WriterBusy("an upload is being ingested on this replica; retry shortly")
        try:
            if not LanceStore.exists(tenant_config(self.cfg, tenant).storage):
                raise DocumentNotFound(f"no document {doc_id!r}")  # the tenant has no index: create nothing
            _, store, bm25 = open_index_for_write(self.cfg, tenant)
            rows = store.scan(DOCUMENTS, ["doc_id", "source", "path"], where=sql_in("doc_id", [doc_id])).to_pylist()
            if not rows:
                raise DocumentNotFound(f"no document {doc_id!r}")
            try:
                deleted = delete_documents(store, bm25, [doc_id])
            except RuntimeError as exc:
                if _LOCKED in str(exc):
                    raise WriterBusy("another ingest or delete is writing the index; retry shortly") from exc
                raise
            if not deleted:
                raise DocumentNotFound(f"no document {doc_id!r}")
            row = rows[0]
            staged = self.uploads_dir / tenant / row["source"] / row["path"]
            if _SOURCE.fullmatch(row["source"] or "") and staged.resolve().parent == (
                    self.uploads_dir / tenant / row["source"]).resolve():
                with contextlib.suppress(FileNotFoundError):
                    staged.unlink()
            return {"doc_id": doc_id, "deleted": True, "path": row["path"], "source": public_source(row["source"])}
        finally:
            self.writer.release()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=False)
