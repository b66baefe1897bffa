"""Structured output: a pydantic form → the JSON schema vLLM constrains generation to, and the
model's JSON parsed back into the form (a :class:`FormError` with the reason when it does not fit).

>>> from pydantic import BaseModel
>>> class Yes(BaseModel):
...     ok: bool
>>> parse_form(Yes, '{"ok": true}').ok
True
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ValidationError


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
