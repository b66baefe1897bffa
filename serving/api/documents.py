"""Writing documents over HTTP (the ``admin`` scope): ``POST /v1/documents`` (multipart upload →
an ingest job), ``GET /v1/ingests/{id}`` (the job's status and report), ``DELETE /v1/documents/{id}``.
The work is :mod:`pipelines.uploads`; this module maps it to HTTP.

>>> sorted(r.path for r in router.routes)
['/v1/documents', '/v1/documents/{doc_id}', '/v1/ingests/{ingest_id}']
"""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from cluster.redact import hide_paths, hide_paths_in
from pipelines.uploads import DocumentNotFound, IngestJobs, Upload, UploadRejected, WriterBusy, base_name
from serving.api.auth import BodyTimeout, BodyTooLarge, error_response
from serving.api.tenancy import SECURED, request_tenant
from serving.index.handle import IndexNotReady
from serving.protocol import ErrorResponse

router = APIRouter(dependencies=SECURED)  # every route here is under /v1
ERRORS = {s: {"model": ErrorResponse} for s in (400, 401, 403, 404, 409, 413, 415, 422, 503)}


class UploadedFile(BaseModel):
    name: str
    bytes: int
    doc_id: str = Field(description="the document id (the one `strata ingest` gives this name under this source)")
    status: Literal["ingested", "failed"] | None = None
    error: str | None = None


class IngestJob(BaseModel):
    """An upload's ingest: ``queued`` → ``running`` → ``done`` or ``failed`` (with the reason)."""

    id: str
    tenant: str
    source: str
    status: Literal["queued", "running", "done", "failed"]
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    error: str | None = None
    files: list[UploadedFile]
    report: dict | None = Field(None, description="the ingest report (new, updated, unchanged, chunks, …), "
                                                  "as `strata ingest --report` writes it")


class DeletedDocument(BaseModel):
    doc_id: str
    deleted: bool
    path: str
    source: str


def _jobs(request: Request) -> IngestJobs:
    state = request.app.state
    jobs = getattr(state, "ingest_jobs", None)
    if jobs is None:
        service = getattr(state, "service", None)
        if service is None:
            raise IndexNotReady("the query service is starting")
        jobs = state.ingest_jobs = IngestJobs(service.cfg)
    return jobs


def _roots(request: Request) -> dict:
    """What error messages show instead of server paths (:func:`cluster.redact.hide_paths`)."""
    service = getattr(request.app.state, "service", None)
    cfg = getattr(service, "cfg", None)
    return {"<data_dir>": cfg.storage.data_dir, "<models_home>": cfg.models.home} if cfg is not None else {}


def _refused(request: Request, status: int, message: str, detail: object | None = None,
             headers: dict | None = None) -> JSONResponse:
    roots = _roots(request)
    return error_response(status, hide_paths(message, roots), headers, hide_paths_in(detail, roots))


@router.post("/v1/documents", status_code=202, response_model=IngestJob, responses=ERRORS, tags=["documents"])
async def upload_documents(request: Request, source: str | None = Query(None, max_length=100),
                           wait: bool = Query(False, description="answer when the ingest ends (200), or after "
                                                                 "serve.request_timeout_s with the job so far (202)")):
    """Upload files (``multipart/form-data``, any field name) to ingest: 202 with the job; poll
    ``GET /v1/ingests/{id}``. Every file is checked first (name, type, size, parse); a bad one rejects
    the whole request with 4xx and nothing is written. Same name and bytes again: ``unchanged``."""
    jobs = _jobs(request)
    if not request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
        return _refused(request, 415, "send the files as multipart/form-data (e.g. curl -F file=@notes.md)")
    cfg = jobs.cfg
    try:
        form = await request.form(max_files=cfg.serve.max_upload_files, max_fields=16)
    except (BodyTooLarge, BodyTimeout):  # answered 413 / 408 by their own handlers
        raise
    except HTTPException as exc:
        if str(exc.detail).startswith("Too many files"):  # starlette stops reading at the limit
            limit = cfg.serve.max_upload_files
            return _refused(request, 413, f"more than {limit} files in one upload; the limit is {limit} "
                                          "(serve.max_upload_files)")
        if str(exc.detail).startswith("Too many fields"):
            return _refused(request, 413, "more than 16 form fields besides the files in one upload")
        return _refused(request, 400, f"malformed multipart body: {exc.detail}")
    try:
        uploads = []
        for _, value in form.multi_items():
            if isinstance(value, UploadFile):
                if value.size is not None and value.size > cfg.ingest.max_file_bytes:  # not read into memory
                    message = f"{value.size} bytes > {cfg.ingest.max_file_bytes} (ingest.max_file_bytes)"
                    raise UploadRejected(413, f"upload rejected, nothing was ingested: {value.filename}: too_large "
                                              f"({message})",
                                         [{"file": value.filename, "reason": "too_large", "message": message}])
                uploads.append(Upload(base_name(value.filename), await value.read()))
        record = await asyncio.to_thread(jobs.submit, request_tenant(request), source, uploads)
    except UploadRejected as exc:
        return _refused(request, exc.status, str(exc), exc.problems or None)
    finally:
        await form.close()
    headers = {"Location": f"/v1/ingests/{record['id']}"}
    if wait:
        await asyncio.to_thread(jobs.wait, record["id"], cfg.serve.request_timeout_s)
        record = jobs.get(record["id"], record["tenant"]) or record
        if record["status"] in ("done", "failed"):
            return JSONResponse(status_code=200, content=record, headers=headers)
    return JSONResponse(status_code=202, content=record, headers=headers)


@router.get("/v1/ingests/{ingest_id}", response_model=IngestJob, responses=ERRORS, tags=["documents"])
async def ingest_status(ingest_id: str, request: Request):
    """An upload's ingest job: status, per-file outcome and the ingest report."""
    record = await asyncio.to_thread(_jobs(request).get, ingest_id, request_tenant(request))
    if record is None:
        return _refused(request, 404, f"no ingest {ingest_id!r}")
    return record


@router.delete("/v1/documents/{doc_id}", response_model=DeletedDocument, responses=ERRORS, tags=["documents"])
async def delete_document(doc_id: str, request: Request):
    """Delete a document from LanceDB and the BM25 index (and its staged upload). 409 while the index
    is being written by another ingest."""
    try:
        return await asyncio.to_thread(_jobs(request).delete, doc_id, request_tenant(request))
    except DocumentNotFound as exc:
        return _refused(request, 404, str(exc))
    except WriterBusy as exc:
        return _refused(request, 409, str(exc), headers={"Retry-After": "5"})
    except UploadRejected as exc:
        return _refused(request, exc.status, str(exc))
