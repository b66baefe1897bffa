"""The forms the writer and the verifier LLMs fill in (parsed by :func:`serving.llm.forms.parse_form`).

>>> sorted(WriterForm.model_json_schema()["properties"])
['answer', 'answer_value', 'cited_ids', 'explanation', 'is_blank']
"""

from __future__ import annotations

from pydantic import BaseModel, Field


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
