"""The HTTP routes (FastAPI). Handlers delegate to ``request.app.state.service``
(a :class:`~serving.services.search.SearchService`); errors map to clear 4xx/5xx JSON bodies.

>>> paths = build_fastapi_app().openapi()["paths"]; sorted(p for p in paths if p.startswith("/v1"))[:3]
['/v1/answer', '/v1/context', '/v1/documents']
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException

from ray.exceptions import ActorUnavailableError, RayActorError
from ray.serve.exceptions import DeploymentUnavailableError, ReplicaUnavailableError

from cluster.redact import hide_paths, hide_paths_in
from cluster.telemetry.metrics import query_metrics
from cluster.telemetry.tracing import TraceContextMiddleware
from cluster.tenants import DEFAULT_TENANT
from serving.api.auth import install_security
from serving.api.documents import router as documents_router
from serving.api.tenancy import SECURED, request_tenant
from serving.index.handle import IndexNotReady
from serving.llm.openai_server import LLMServerError
from serving.protocol import (
    AnswerRequest,
    AnswerResponse,
    ContextRequest,
    ContextResponse,
    DocumentDetail,
    DocumentList,
    ErrorResponse,
    LimitError,
    OverloadedError,
    SearchRequest,
    SearchResponse,
    SectionDetail,
    check_answer_limits,
)
from serving.retrieval.filters import UnknownFilterTarget
from serving.services.search import NotFound, SearchService

router = APIRouter()
ERRORS = {400: {"model": ErrorResponse}, 404: {"model": ErrorResponse}, 422: {"model": ErrorResponse},
          503: {"model": ErrorResponse}, 504: {"model": ErrorResponse}}
REPLICA_LOST = (RayActorError, ActorUnavailableError, DeploymentUnavailableError, ReplicaUnavailableError)
ANSWER_ERRORS = {**ERRORS, 429: {"model": ErrorResponse, "description": "too many answers in flight (Retry-After)"}}


def _service(request: Request) -> SearchService:
    service = getattr(request.app.state, "service", None)
    if service is None:
        raise IndexNotReady("the query service is starting")
    return service


async def _timed(request: Request, coro):
    limit = _service(request).cfg.serve.request_timeout_s
    try:
        return await asyncio.wait_for(coro, timeout=limit)
    except TimeoutError:  # → 504, saying which limit
        raise TimeoutError(f"the request took longer than serve.request_timeout_s ({limit:g} s)") from None


@router.post("/v1/search", response_model=SearchResponse, responses=ERRORS, tags=["query"],
             dependencies=SECURED)
async def search(body: SearchRequest, request: Request) -> SearchResponse:
    """Ranked chunks with per-stage scores, the route taken and per-stage timings."""
    return await _timed(request, _service(request).search(body, tenant=request_tenant(request)))


@router.post("/v1/context", response_model=ContextResponse, responses=ERRORS, tags=["query"],
             dependencies=SECURED)
async def context(body: ContextRequest, request: Request) -> ContextResponse:
    """An expanded, deduplicated, budgeted context pack (passages say why they are there)."""
    return await _timed(request, _service(request).context(body, tenant=request_tenant(request)))


def _answers(request: Request):
    answers = getattr(request.app.state, "answers", None)
    if answers is None:
        raise LimitError("answers are disabled on this deployment (answer.enabled=false)")
    return answers


def _sse(kind: str, data: dict) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.post("/v1/answer", response_model=AnswerResponse, responses=ANSWER_ERRORS, tags=["answer"],
             dependencies=SECURED)
async def answer(body: AnswerRequest, request: Request):
    """A cited, verified answer from the corpus, or a refusal when the corpus does not support one.

    With ``"stream": true`` the reply is ``text/event-stream``: ``token`` events (``{"text"}``, the
    answer as it is written; a ``retry`` event means the text so far was discarded and a widened
    attempt follows), then one ``final`` event (the whole :class:`AnswerResponse`) or ``error``."""
    answers = _answers(request)
    if not body.stream:
        return await answers.answer(body, tenant=request_tenant(request))
    check_answer_limits(body, answers.cfg)
    answers.acquire()  # a 429 is still a real HTTP status here; the answer starts now and owns the slot
    stream = answers.events(body, tenant=request_tenant(request), acquired=True)

    async def events():
        async for kind, data in stream:
            yield _sse(kind, data)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/v1/documents", response_model=DocumentList, responses=ERRORS, tags=["navigate"],
             dependencies=SECURED)
async def documents(request: Request, offset: int = Query(0, ge=0), limit: int = Query(100, ge=1, le=1000),
                    source: str | None = Query(None, max_length=1024)) -> DocumentList:
    """Ingested documents, ordered by path (paged)."""
    return await _service(request).documents(offset=offset, limit=limit, source=source, tenant=request_tenant(request))


@router.get("/v1/documents/{doc_id}", response_model=DocumentDetail, responses=ERRORS, tags=["navigate"],
             dependencies=SECURED)
async def document(doc_id: str, request: Request) -> DocumentDetail:
    """One document with its section tree."""
    return await _service(request).document(doc_id, tenant=request_tenant(request))


@router.get("/v1/sections/{section_id}", response_model=SectionDetail, responses=ERRORS, tags=["navigate"],
             dependencies=SECURED)
async def section(section_id: str, request: Request) -> SectionDetail:
    """A section with its ancestors, parent, children, siblings, text and chunk ids."""
    return await _service(request).section(section_id, tenant=request_tenant(request))


@router.get("/healthz", tags=["ops"])
async def healthz() -> dict[str, str]:
    """Liveness: the HTTP process answers."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"model": ErrorResponse}}, tags=["ops"])
async def readyz(request: Request):
    """Readiness: every stage (embedder, retriever, reranker, expander, LLM) answers and at least one
    tenant's index can be served; ``tenants`` gives each tenant's status (``ready``, ``no index``,
    ``unavailable``). 503 while no tenant has an index, with the same per-tenant status in ``detail``."""
    service = _service(request)
    stages = await asyncio.wait_for(service.ready(), timeout=10)
    tenants = await asyncio.wait_for(asyncio.to_thread(service.tenants), timeout=10)
    answers = getattr(request.app.state, "answers", None)
    if answers is None:
        stages["answers"] = "off"
    elif answers.llm is None:
        stages["answers"] = answers.kind
    else:
        stages["answers"] = "llm"
        stages["llm"] = await asyncio.wait_for(answers.llm.ready(), timeout=10)
    if not any(t["status"] == "ready" for t in tenants.values()):
        return _error(503, "not ready: no index at any tenant yet: run `strata ingest PATH` (`--tenant T` for a "
                           "named tenant) first", {"tenants": tenants, **stages}, request)
    default = tenants.get(DEFAULT_TENANT, {})
    version = {"index_version": default["index_version"]} if "index_version" in default else {}
    return hide_paths_in({"status": "ready", **version, **stages, "tenants": tenants}, _roots(request))


def _roots(request: Request | None) -> dict:
    """What error messages show instead of server paths (:func:`cluster.redact.hide_paths`)."""
    service = getattr(request.app.state, "service", None) if request is not None else None
    cfg = getattr(service, "cfg", None)
    return {"<data_dir>": cfg.storage.data_dir, "<models_home>": cfg.models.home} if cfg is not None else {}


def _error(status: int, message: str, detail: object | None = None, request: Request | None = None,
           headers: dict[str, str] | None = None) -> JSONResponse:
    """The API's error body, ``{"error", "detail"}``, with no absolute server path in it."""
    metrics = query_metrics()
    if metrics is not None:
        metrics.errors.inc(tags={"status": str(status) if status < 500 else ("internal" if status == 500 else str(status))})
    roots = _roots(request)
    return JSONResponse(status_code=status, headers=headers,
                        content={"error": hide_paths(message, roots), "detail": hide_paths_in(detail, roots)})


def _root_cause(exc: BaseException) -> BaseException:
    """Ray wraps errors raised in a replica; the original is kept as ``cause``."""
    return getattr(exc, "cause", None) or exc


def _body_error(exc: HTTPException) -> str:
    """FastAPI's 400 for a JSON body it could not read, said plainly."""
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return "the request body is not valid UTF-8 JSON"
    if isinstance(cause, RecursionError):
        return "the request body's JSON nests too deeply"
    return "the request body could not be read as JSON"


def install_error_handlers(app: FastAPI) -> None:
    """Every error answers in the API's shape, ``{"error", "detail"}``: FastAPI's validation errors,
    Starlette's HTTP errors (a body that cannot be parsed, an unknown route or method), the services'
    errors and anything unexpected (500)."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"field": ".".join(str(p) for p in e["loc"] if p != "body"), "message": e["msg"]} for e in exc.errors()]
        summary = "; ".join(f"{p['field'] or 'body'}: {p['message']}" for p in problems)
        return _error(422, f"invalid request: {summary}", problems, request)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        message = str(exc.detail)
        if exc.status_code == 400 and message == "There was an error parsing the body":
            message = _body_error(exc)
        return _error(exc.status_code, message, None, request, getattr(exc, "headers", None))

    def handler(status: int, prefix: str = ""):
        async def handle(request: Request, exc: Exception) -> JSONResponse:
            cause = _root_cause(exc)
            return _error(status, prefix + str(cause), None, request)
        return handle

    app.add_exception_handler(LimitError, handler(422))
    app.add_exception_handler(NotFound, handler(404))
    app.add_exception_handler(UnknownFilterTarget, handler(404))
    app.add_exception_handler(IndexNotReady, handler(503, "not ready: "))
    app.add_exception_handler(LLMServerError, handler(503))  # the OpenAI-compatible LLM server (answer.*.kind = "openai")

    @app.exception_handler(OverloadedError)
    async def _overloaded(request: Request, exc: OverloadedError) -> JSONResponse:
        return _error(429, str(exc), None, request, {"Retry-After": str(exc.retry_after_s)})

    async def _replica_lost(request: Request, exc: Exception) -> JSONResponse:
        # a stage's replica died or cannot be reached; Serve replaces it: retry, not an internal error
        return _error(503, f"a replica was lost and is restarting; retry shortly ({type(exc).__name__})", None,
                      request, {"Retry-After": "1"})

    for kind in REPLICA_LOST:
        app.add_exception_handler(kind, _replica_lost)

    @app.exception_handler(asyncio.TimeoutError)
    async def _timeout(request: Request, exc: Exception) -> JSONResponse:
        return _error(504, str(exc) or "the request took longer than serve.request_timeout_s", None, request)

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> JSONResponse:
        cause = _root_cause(exc)
        for kind, status in ((LimitError, 422), (NotFound, 404), (UnknownFilterTarget, 404), (IndexNotReady, 503)):
            if isinstance(cause, kind):
                return _error(status, str(cause), None, request)
        if isinstance(cause, OverloadedError):
            return await _overloaded(request, cause)
        if isinstance(cause, REPLICA_LOST):
            return await _replica_lost(request, cause)
        return _error(500, f"internal error: {type(cause).__name__}: {cause}", None, request)


def build_fastapi_app() -> FastAPI:
    """The FastAPI app with every route and error handler (the service is attached later)."""
    app = FastAPI(title="Strata query API", version="1", description=(
        "Hybrid retrieval (BM25 + dense, fused), optional cross-encoder rerank and hierarchical awareness "
        "expansion over a Strata index; cited, verified answers from vLLM writer and verifier models."))
    app.include_router(router)
    app.include_router(documents_router)
    install_error_handlers(app)
    install_security(app)  # API keys, per-key limits, body size (serving/api/auth.py)
    app.add_middleware(TraceContextMiddleware)  # outermost: a caller's traceparent parents the request's spans
    return app
