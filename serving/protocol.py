"""Request and response schemas of Strata's HTTP API (pydantic; they are also the OpenAPI docs).

Limits that depend on configuration (query length, ``top_k``, filter sizes) are checked by
:func:`check_limits`, so a request that is well-formed but too large gets a 422 naming the limit.
Request models are strict: ``"top_k": "5"`` or ``true``, ``"rerank": "yes"`` get a 422 naming the field
instead of being coerced (a number where a number is asked for; an integer is a number, too).

>>> SearchRequest(query="what is a virtual environment", top_k=5).mode
'auto'
>>> from pydantic import ValidationError
>>> try:
...     SearchRequest.model_validate({"query": "venv", "top_k": "5"})
... except ValidationError as exc:
...     print(exc.errors()[0]["loc"], exc.errors()[0]["msg"])
('top_k',) Input should be a valid integer
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cluster.config import StrataConfig

Mode = Literal["auto", "bm25", "vector", "hybrid", "hybrid+awareness"]
Fusion = Literal["adaptive", "linear", "dbsf", "rrf"]
ExpansionMode = Literal["window", "heading", "section"]


class Filters(BaseModel):
    """Restrict retrieval to documents, sources or a section subtree (all given filters must hold)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    doc_ids: list[str] | None = Field(None, description="only these documents")
    sources: list[str] | None = Field(None, description="only documents ingested with these source labels")
    section_id: str | None = Field(None, description="only this section and its subsections")

    @field_validator("doc_ids", "sources")
    @classmethod
    def _non_empty_ids(cls, values: list[str] | None) -> list[str] | None:
        if values is not None:
            if not values:
                raise ValueError("must not be an empty list (omit the filter instead)")
            if any(not v or len(v) > 1024 for v in values):
                raise ValueError("values must be non-empty strings of at most 1024 characters")
        return values

    def is_empty(self) -> bool:
        return not (self.doc_ids or self.sources or self.section_id)


class SearchRequest(BaseModel):
    """``POST /v1/search``: ranked chunks."""

    model_config = ConfigDict(extra="forbid", strict=True)

    query: str = Field(..., min_length=1, description="the question or keywords")
    top_k: int = Field(10, ge=1, description="hits to return")
    mode: Mode = Field("auto", description="auto: the router picks; or force a method mix")
    fusion: Fusion | None = Field(None, description="override retrieval.fusion")
    bm25_weight: float | None = Field(None, ge=0, le=1, description="override the BM25 share in fusion")
    candidates: int | None = Field(None, ge=1, description="candidates per retriever before fusion")
    multi_query: bool | None = Field(None, description="override retrieval.multi_query")
    hyde: bool | None = Field(None, description="override retrieval.hyde")
    rerank: bool | None = Field(None, description="use the cross-encoder (must be configured)")
    filters: Filters = Field(default_factory=Filters)
    use_cache: bool = True

    @field_validator("query")
    @classmethod
    def _query_has_text(cls, query: str) -> str:
        if not query.strip():
            raise ValueError("query is blank")
        return query


class ContextRequest(SearchRequest):
    """``POST /v1/context``: an expanded, deduplicated, budgeted context pack for an LLM."""

    budget_tokens: int | None = Field(None, ge=16, description="token budget of the pack (default: awareness.budget_tokens)")
    expansion: ExpansionMode | None = Field(None, description="override awareness.mode")
    window: int | None = Field(None, ge=0, le=20, description="override awareness.window")
    awareness: bool | None = Field(None, description="section tier + expansion on/off (default: the route decides)")
    top_k: int = Field(8, ge=1, description="direct hits seeding the pack")
    fill: bool | None = Field(None, description="with awareness, the room left goes to the hits ranked below top_k "
                                                "(default: awareness.fill_with_hits)")


class Reason(BaseModel):
    """Why a passage is in the result."""

    kind: Literal["direct", "neighbour", "section", "parent", "sibling", "section_tier", "excerpt"] = Field(
        ..., description="excerpt: the best sentence window of a hit the pack does not hold whole")
    of: str | None = Field(None, description="the chunk (direct hit) or section it expands")
    target: str | None = Field(None, description="the sub-question it answers (multi-target queries)")
    score: float | None = None


class SearchHit(BaseModel):
    rank: int
    chunk_id: str
    doc_id: str
    source: str
    path: str
    title: str
    section_id: str
    section_path: str
    ordinal: int
    start: int
    end: int
    n_tokens: int
    text: str
    first_page: int | None = Field(None, description="first page (1-based) of a paged document (PDF); null if unknown")
    last_page: int | None = Field(None, description="last page (1-based) of a paged document (PDF); null if unknown")
    score: float = Field(..., description="the final ranking score")
    scores: dict[str, float] = Field(default_factory=dict, description="per-stage scores (bm25, dense, fused, rerank)")
    ranks: dict[str, int] = Field(default_factory=dict, description="per-stage ranks (1-based)")
    target: str | None = None


class SectionMatch(BaseModel):
    section_id: str
    doc_id: str
    title: str
    path: str
    score: float
    target: str | None = None


class RouteInfo(BaseModel):
    """What the query analyser and router decided, and why."""

    route: Literal["lexical", "hybrid", "hybrid+awareness", "bm25", "vector"]
    reasons: list[str]
    targets: list[str]
    variants: list[str]
    identifiers: list[str]
    hyde: str | None = Field(None, description="how the HyDE vector was made, if used")
    fusion: Fusion
    bm25_weight: float = Field(description="BM25's share in fusion (adaptive fusion: of the first target, as judged)")
    fusion_note: str | None = Field(None, description="how adaptive fusion set the share, or why it kept the prior")
    rerank: bool
    rerank_note: str | None = None


class SearchResponse(BaseModel):
    query: str
    index_version: str
    route: RouteInfo
    hits: list[SearchHit]
    sections: list[SectionMatch] = Field(default_factory=list)
    candidates: dict[str, int] = Field(default_factory=dict, description="candidates seen per stage")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    cached: bool = False


class Passage(BaseModel):
    """A contiguous span of one document (overlapping chunks merged) with the reasons it was chosen."""

    passage_id: str
    doc_id: str
    source: str
    path: str
    title: str
    section_id: str
    section_path: str
    start: int
    end: int
    n_tokens: int
    chunk_ids: list[str]
    text: str
    first_page: int | None = Field(None, description="first page (1-based) of a paged document (PDF); null if unknown")
    last_page: int | None = Field(None, description="last page (1-based) of a paged document (PDF); null if unknown")
    score: float
    reasons: list[Reason]


class ContextResponse(BaseModel):
    query: str
    index_version: str
    route: RouteInfo
    budget_tokens: int
    used_tokens: int
    passages: list[Passage]
    dropped: int = Field(0, description="candidate passages left out by the budget")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    cached: bool = False


class DocumentInfo(BaseModel):
    doc_id: str
    source: str
    path: str
    title: str
    format: str
    n_sections: int
    n_chunks: int
    n_tokens: int
    ingested_at: str | None = None


class DocumentList(BaseModel):
    index_version: str
    total: int
    offset: int
    limit: int
    documents: list[DocumentInfo]


class SectionNode(BaseModel):
    section_id: str
    doc_id: str
    parent_id: str | None
    level: int
    ordinal: int
    title: str
    path: list[str]
    start: int
    end: int
    n_tokens: int
    n_chunks: int
    summary: str
    children: list["SectionNode"] = Field(default_factory=list)


class DocumentDetail(DocumentInfo):
    sections: list[SectionNode] = Field(description="the section tree (roots; children nested)")


class SectionDetail(BaseModel):
    section: SectionNode
    parent: SectionNode | None
    ancestors: list[SectionNode]
    children: list[SectionNode]
    siblings: list[SectionNode]
    text: str
    chunk_ids: list[str]



# -- /v1/answer --------------------------------------------------------------------------------------
class AnswerRequest(BaseModel):
    """``POST /v1/answer``: a question answered from the corpus with checked citations, or refused."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(..., min_length=1, description="the question")
    top_k: int | None = Field(None, ge=1, description="direct hits seeding the context (default: answer.top_k)")
    budget_tokens: int | None = Field(None, ge=64, description="context budget of the first attempt")
    max_retries: int | None = Field(None, ge=0, le=5, description="override answer.max_retries")
    filters: Filters = Field(default_factory=Filters)
    llm_analysis: bool | None = Field(None, description="override answer.llm_analysis")
    stream: bool = Field(False, description="Server-Sent Events: token events, then a final event")
    use_cache: bool = True

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("question is blank")
        return value


def pages_label(first_page: int | None, last_page: int | None) -> str:
    """``p. 12``, ``pp. 12–13``, or ``""`` when the pages are unknown.

    >>> pages_label(12, 12), pages_label(12, 13), pages_label(None, None), pages_label(3, None)
    ('p. 12', 'pp. 12–13', '', 'p. 3')
    """
    if first_page is None:
        return ""
    if last_page is None or last_page == first_page:
        return f"p. {first_page}"
    return f"pp. {first_page}–{last_page}"


def citation_label(path: str, section: str, first_page: int | None = None, last_page: int | None = None) -> str:
    """``path § section, p. 12`` (parts left out when empty).

    >>> citation_label("reports/acme.pdf", "2 Risks > 2.1 Markets", 12, 13)
    'reports/acme.pdf § 2 Risks > 2.1 Markets, pp. 12–13'
    >>> citation_label("notes.md", "Install"), citation_label("scan.pdf", "", 4, 4)
    ('notes.md § Install', 'scan.pdf, p. 4')
    """
    label = " § ".join(x for x in (path, section) if x)
    pages = pages_label(first_page, last_page)
    return ", ".join(x for x in (label, pages) if x)


class Citation(BaseModel):
    """A passage the answer cites as ``[n]``."""

    n: int
    passage_id: str
    chunk_id: str = Field(description="the first chunk of the passage")
    document_id: str
    path: str
    title: str
    section_id: str
    section_path: list[str] = Field(description="section titles, root → leaf")
    start: int = Field(description="character offsets of the passage in the document")
    end: int
    first_page: int | None = Field(None, description="first page (1-based) of a paged document (PDF); null if unknown")
    last_page: int | None = Field(None, description="last page (1-based) of a paged document (PDF); null if unknown")
    label: str = Field("", description="how to cite it: ``path § section, p. 12`` (``pp. 12–13``; no pages when unknown)")
    snippet: str = Field(description="the passage text (its first 1000 characters, or, for an extractive "
                                     "answer, from just before its first quoted sentence to just after its last)")
    quotes: list[str] = Field(default_factory=list, description="the passage's sentences an extractive answer quotes, "
                                                                "verbatim (whitespace normalised)")


class SentenceCheck(BaseModel):
    text: str
    cited: list[int]
    lexical: float = Field(description="share of the sentence's content words found in its cited passages")
    semantic: float = Field(description="best embedding similarity to a window of its cited passages")
    support: float
    supported: bool


class LLMJudgment(BaseModel):
    supported: bool | None = None
    reason: str = ""
    mode: Literal["off", "advisory", "required"] = "off"


class Verification(BaseModel):
    """The verifier's verdict: deterministic checks plus the verifier LLM's judgment."""

    verdict: Literal["pass", "fail", "blank", "refused"]
    reasons: list[str] = Field(default_factory=list, description="why it failed (empty when it passed)")
    citations_valid: bool = True
    invalid_citations: list[int] = Field(default_factory=list)
    citation_coverage: float = Field(0.0, description="share of answer sentences carrying a citation")
    supported_share: float = Field(0.0, description="share of answer sentences supported by their citations")
    mean_support: float = 0.0
    value_supported: bool | None = Field(None, description="the short answer value appears in a cited passage")
    length_ok: bool = True
    llm: LLMJudgment = Field(default_factory=LLMJudgment)
    sentences: list[SentenceCheck] = Field(default_factory=list)


class AttemptInfo(BaseModel):
    attempt: int
    expansion: str = Field(description="route default, or the widened expansion mode")
    budget_tokens: int
    passages: int
    trimmed: int = Field(0, description="passages dropped to fit the prompt budget")
    prompt_tokens: int = 0
    verdict: str
    reasons: list[str] = Field(default_factory=list)


class AnalysisInfo(BaseModel):
    source: Literal["llm", "rules"]
    intent: str | None = None
    complexity: str | None = None
    rephrasings: list[str] = Field(default_factory=list)
    hyde: bool = False
    route: str | None = Field(None, description="the LLM's route recommendation (used unless forced)")
    note: str | None = Field(None, description="why the rule-based analyser was used")


class ExtractiveInfo(BaseModel):
    """How the extractive answerer decided (``answer.writer.kind = "extractive"``, or the fallback)."""

    score: float | None = Field(None, description="the answerability score (calibrated logit)")
    threshold: float = Field(description="answerability threshold (calibrated, stored with the cross-encoder)")
    features: dict[str, float] = Field(default_factory=dict, description="the answerability features: cross_encoder "
                                       "(best sentence logit), coverage (of the question by a top sentence), "
                                       "value_coverage / value_missing (sentences holding the asked-for value), "
                                       "focus / value_focus (what is asked about the subject), short_gap, "
                                       "question_words")
    answerable: bool
    sentences_scored: int = 0
    note: str | None = Field(None, description="why the extractive answerer ran as a fallback")


class AnswerResponse(BaseModel):
    question: str
    index_version: str
    answer: str = Field(description="the answer with [n] citation markers; empty when refused")
    answer_value: str | None = Field(None, description="the short answer (a name, number, flag, phrase)")
    explanation: str | None = None
    refused: bool
    refusal_reason: str | None = None
    writer: Literal["extractive", "llm"] = Field(description="who wrote the answer: the extractive answerer "
                                                             "(quoted sentences) or the LLM")
    extractive: ExtractiveInfo | None = None
    citations: list[Citation] = Field(default_factory=list)
    verification: Verification
    attempts: list[AttemptInfo] = Field(default_factory=list)
    route: RouteInfo | None = None
    analysis: AnalysisInfo
    models: dict[str, str] = Field(default_factory=dict, description="role → model")
    usage: dict[str, int] = Field(default_factory=dict, description="prompt_tokens, completion_tokens")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    cached: bool = False


class OverloadedError(RuntimeError):
    """Too many answers in flight (HTTP 429 with Retry-After)."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ErrorResponse(BaseModel):
    error: str
    detail: object | None = None


class LimitError(ValueError):
    """A request over a configured limit (answered with HTTP 422)."""


def check_limits(request: SearchRequest, cfg: StrataConfig) -> None:
    """Raise :class:`LimitError` naming the limit a request exceeds."""
    limits = cfg.retrieval
    if len(request.query) > limits.max_query_chars:
        raise LimitError(f"query is {len(request.query)} characters; the limit is {limits.max_query_chars}")
    if request.top_k > limits.max_top_k:
        raise LimitError(f"top_k is {request.top_k}; the limit is {limits.max_top_k}")
    if request.candidates is not None and request.candidates > 2000:
        raise LimitError("candidates is limited to 2000")
    for name in ("doc_ids", "sources"):
        values = getattr(request.filters, name)
        if values and len(values) > limits.max_filter_values:
            raise LimitError(f"filters.{name} has {len(values)} values; the limit is {limits.max_filter_values}")
    if request.rerank and not (cfg.rerank.enabled or cfg.answer.enabled):
        raise LimitError("rerank requested but no cross-encoder is deployed (rerank.enabled = false and "
                         "answer.enabled = false; turn either on)")
    if isinstance(request, ContextRequest) and request.budget_tokens is not None \
            and request.budget_tokens > 200_000:
        raise LimitError("budget_tokens is limited to 200000")


def check_answer_limits(request: AnswerRequest, cfg: StrataConfig) -> None:
    """Raise :class:`LimitError` for an answer request over a configured limit."""
    if len(request.question) > cfg.retrieval.max_query_chars:
        raise LimitError(f"question is {len(request.question)} characters; the limit is {cfg.retrieval.max_query_chars}")
    if request.top_k is not None and request.top_k > cfg.retrieval.max_top_k:
        raise LimitError(f"top_k is {request.top_k}; the limit is {cfg.retrieval.max_top_k}")
    if request.budget_tokens is not None and request.budget_tokens > 50_000:
        raise LimitError("budget_tokens is limited to 50000 for answers")
    for name in ("doc_ids", "sources"):
        values = getattr(request.filters, name)
        if values and len(values) > cfg.retrieval.max_filter_values:
            raise LimitError(f"filters.{name} has {len(values)} values; the limit is {cfg.retrieval.max_filter_values}")
    if not cfg.answer.enabled:
        raise LimitError("answers are disabled (answer.enabled=false)")
