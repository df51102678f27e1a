"""AgentInput: every request, from any interface, becomes one of these.

Five sources (PRODUCT.md §2): ``chat`` (a typed message), ``comment`` (highlighted text plus a
comment), ``entity`` (a clicked term), ``follow_up`` (a suggested question), ``entry`` (a topic
picked on the start page). Validation errors name the field; the API turns them into 422s with
the one error shape, the CLI into a message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

import annotated_types
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, model_validator
from pydantic.config import JsonDict

from knowzero.config import Settings

DEFAULT_MAX_MESSAGE_CHARS: int = Settings.model_fields["max_message_chars"].default

Source = Literal["chat", "comment", "entity", "follow_up", "entry"]


def _integral(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def integral(ge: int = -(2**53), le: int = 2**53) -> Any:
    """:data:`Integral` with other bounds (``integral(ge=0)``)."""
    return Annotated[int, annotated_types.Ge(ge), annotated_types.Le(le), BeforeValidator(_integral)]


Integral = Annotated[int, annotated_types.Ge(-(2**53)), annotated_types.Le(2**53), BeforeValidator(_integral)]
"""An integer as JSON means it, for strict models: ``26.0`` is 26 (JSON Schema says so); ``true`` and
``"26"`` are not integers (lax pydantic took them); beyond ±2⁵³ is refused (a checkpoint cannot
store every such number, and JSON clients cannot represent them)."""
ResumeValue = Annotated[str, Field(max_length=8000)] | bool | Integral | float | None
"""What a resume payload carries (``{"approved": true}``, ``{"human_reply": "…"}``): flat values."""


class CommentInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    selected_text: str = Field(min_length=1, max_length=5000)
    comment: str = Field(min_length=1, max_length=2000)
    document_id: str | None = None
    section_id: str | None = None
    position: dict[str, Integral] | None = None


_VISIBLE = {"type": "string", "pattern": r"\S"}
_NO_RESUME = {"resume": {"type": "null"}}
# The rules of ``AgentInput._check`` in JSON Schema, so the OpenAPI document says what a turn needs
# (a client or a fuzzer reading it sends what is accepted).
_NEEDS = {"anyOf": [
    {"required": ["resume", "thread_id"], "properties": {"resume": {"type": "object"}, "thread_id": {"type": "string"}}},
    {"properties": {"source": {"enum": ["chat", "follow_up"]}, "message": _VISIBLE, **_NO_RESUME}, "required": ["message"]},
    {"properties": {"source": {"const": "comment"}, "comment": {"type": "object"}, **_NO_RESUME},
     "required": ["source", "comment"]},
    {"properties": {"source": {"const": "entity"}, "entity": _VISIBLE, **_NO_RESUME}, "required": ["source", "entity"]},
    {"properties": {"source": {"const": "entry"}, "topic": _VISIBLE, **_NO_RESUME}, "required": ["source", "topic"]},
    {"properties": {"source": {"const": "entry"}, "message": _VISIBLE, **_NO_RESUME}, "required": ["source", "message"]},
]}


class AgentInput(BaseModel):
    """One turn's input. ``{"source": "chat", "message": "你好"}`` alone is valid."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=cast(JsonDict, _NEEDS))

    source: Source = "chat"
    message: str = ""
    thread_id: str | None = Field(default=None, max_length=100, pattern=r"^[A-Za-z0-9_\-:.]+$")
    session_id: str | None = None
    user_id: str | None = None
    comment: CommentInput | None = None
    entity: str | None = Field(default=None, max_length=200)
    source_document_id: str | None = None
    intent_hint: str | None = None
    topic: str | None = Field(default=None, max_length=200)
    current_document_id: str | None = None
    recent_document_ids: list[str] = Field(default_factory=list, max_length=50)
    user_level: Literal["beginner", "intermediate", "advanced"] | None = None
    learned_topics: list[str] = Field(default_factory=list, max_length=500)
    goal: str | None = Field(default=None, max_length=500)
    collections: list[str] = Field(default_factory=list, max_length=20)
    resume: dict[str, ResumeValue] | None = Field(default=None, max_length=20)
    stream: bool = True

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> AgentInput:
        limit = int((info.context or {}).get("max_message_chars", DEFAULT_MAX_MESSAGE_CHARS))
        if len(self.message) > limit:
            raise ValueError(f"message: longer than {limit} characters")
        if self.resume is not None:
            return self
        if self.source == "chat" and not self.message.strip():
            raise ValueError("message: must not be empty for a chat input")
        if self.source == "comment" and self.comment is None:
            raise ValueError("comment: a comment input needs selected_text and comment")
        if self.source == "entity" and not (self.entity or "").strip():
            raise ValueError("entity: an entity input needs the entity name")
        if self.source == "follow_up" and not self.message.strip():
            raise ValueError("message: a follow_up input needs the question text")
        if self.source == "entry" and not ((self.topic or "").strip() or self.message.strip()):
            raise ValueError("topic: an entry input needs a topic")
        return self

    @classmethod
    def at_edge(cls, body: Any, settings: Settings) -> AgentInput:
        """Validate a request body once, where it enters (API, CLI), with this process's limits.
        Raises pydantic's ValidationError naming the field."""
        return cls.model_validate(body, context={"max_message_chars": settings.max_message_chars})

    def text(self) -> str:
        """The text to classify/answer for this input."""
        if self.source == "comment" and self.comment is not None:
            return self.comment.comment
        if self.source == "entity":
            return self.entity or ""
        if self.source == "entry":
            return (self.topic or self.message).strip()
        return self.message.strip()
