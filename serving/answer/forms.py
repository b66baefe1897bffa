"""The structured forms the LLMs fill in (pydantic → JSON schema for vLLM's structured output).

>>> sorted(WriterForm.model_json_schema()["properties"])
['answer', 'answer_value', 'cited_ids', 'explanation', 'is_blank']
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationError

Intent = Literal["factual", "procedural", "definition", "comparison", "troubleshooting", "overview", "other"]
Complexity = Literal["simple", "multi_part", "broad"]
Route = Literal["lexical", "hybrid", "hybrid+awareness"]


class WriterForm(BaseModel):
    """An answer under verification: its text with ``[n]`` markers (attributed after generation, or quoted
    by the extractive answerer), the short value, the cited passage numbers."""

    answer: str = Field(description="1-3 sentences, each ending with its passage number like [2]")
    answer_value: str = Field(max_length=200, description="the short answer: a name, number, flag or phrase")
    cited_ids: list[int] = Field(max_length=10, description="the passage numbers cited")
    explanation: str = Field(max_length=400, description="one short sentence: where the answer comes from")
    is_blank: bool = Field(description="true when the passages do not contain the answer")


class JudgeForm(BaseModel):
    """The verifier LLM's judgment of a written answer."""

    supported: bool = Field(description="every statement of the answer follows from the cited passages")
    reason: str = Field(max_length=300)


class AnalysisForm(BaseModel):
    """One LLM call analysing a question: intent, complexity, rephrasings, HyDE passage, route."""

    intent: Intent
    complexity: Complexity
    rephrasings: list[Annotated[str, StringConstraints(max_length=160)]] = Field(
        max_length=2, description="other ways to ask the same question")
    keywords: list[Annotated[str, StringConstraints(max_length=40)]] = Field(
        max_length=6, description="expansions: terms a relevant passage would contain")
    hypothetical_passage: str = Field(max_length=400, description="a short passage that would answer the question")
    route: Route


class FormError(ValueError):
    """The model's output is not a valid form."""


def schema_of(form: type[BaseModel]) -> dict:
    """The JSON schema vLLM constrains generation to."""
    return form.model_json_schema()


def parse_form(form: type[BaseModel], text: str):
    """Parse a model's JSON output into ``form`` (raises :class:`FormError` with the reason)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormError(f"not valid JSON ({exc.msg} at {exc.pos}): {text[:200]!r}") from exc
    try:
        return form.model_validate(data)
    except ValidationError as exc:
        raise FormError(f"does not match {form.__name__}: {exc.errors()[:3]}") from exc
