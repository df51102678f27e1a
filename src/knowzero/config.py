"""Settings: one place for every knob (env ``KNOWZERO_*`` and ``.env``).

Does not read files other than ``.env`` and does not create directories: callers ask for
``settings.data_path()`` etc. when they need them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from limits import parse_many
from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Domain = Literal["technical", "hr", "product", "policy", "general"]
DOMAINS: tuple[str, ...] = ("technical", "hr", "product", "policy", "general")

DEFAULT_FUSION_WEIGHTS: dict[str, dict[str, float]] = {
    # Weight per retriever for weighted reciprocal rank fusion, per domain. SQL fires only when the
    # question names a table value or column (exact evidence), so it outweighs the text retrievers.
    "technical": {"keyword": 1.2, "dense": 0.8, "sql": 2.0},
    "hr": {"keyword": 1.0, "dense": 1.0, "sql": 1.0},
    "product": {"keyword": 1.0, "dense": 0.7, "sql": 3.0},
    "policy": {"keyword": 1.0, "dense": 1.0, "sql": 1.0},
    "general": {"keyword": 1.0, "dense": 1.0, "sql": 2.0},
}


def llm_url_allowed(url: str, *, production: bool) -> bool:
    """The rule for an OpenAI-compatible base URL, whether it comes from the environment or from the
    Settings page: in production a remote model is reached over https; plain http only on loopback
    (``127.*``, ``localhost``, ``[::1]``). Outside production any http(s) URL passes."""
    if not production or url.startswith("https://"):
        return True
    return url.startswith(("http://127.", "http://localhost", "http://[::1]"))


class Settings(BaseSettings):
    """Validated settings. Environment variables are ``KNOWZERO_<FIELD>`` (case-insensitive)."""

    model_config = SettingsConfigDict(env_prefix="KNOWZERO_", env_file=".env", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    data_dir: Path = Field(default=Path(".knowzero"), description="Indexes, SQLite files, uploads.")
    database_url: str = Field(default="", description="App tables + checkpoints; SQLite file in data_dir when empty.")
    redis_url: str = Field(default="", description="Optional: locks and cache shared by several workers.")

    llm_provider: Literal["none", "openai", "local"] = "none"
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    llm_timeout_s: float = Field(default=30.0, gt=0, description="Total seconds one model call may take.")
    llm_cooldown_s: float = Field(default=30.0, ge=0, description="After a model call times out, answer offline "
                                  "for this long before trying the model again.")
    llm_local_model_path: str = Field(default="", description="GGUF file; empty = the bundled pandas-sns parts.")

    # knowledge
    top_k: int = 5
    context_budget_chars: int = 3000
    max_rewrites: int = 3
    fusion_weights: dict[str, dict[str, float]] = Field(default_factory=lambda: dict(DEFAULT_FUSION_WEIGHTS))
    chunk_chars: int = 500
    chunk_overlap: int = 80
    user_dict: str = Field(default="", description="Extra jieba user dictionary file (one term per line).")
    embed_batch: int = Field(default=8, ge=1, le=256, description="Chunks per embedding job batch.")
    embed_lease_s: float = Field(default=120.0, gt=0,
                                 description="SQLite: how long a worker's claim on an embedding batch lasts before others retry it.")
    embed_stalled_s: float = Field(default=30.0, ge=1,
                                   description="PostgreSQL: an embedding worker silent (no heartbeat) this long is presumed "
                                               "dead and its batch goes back to the queue.")
    embed_in_server: bool = Field(default=True, description="The API server embeds queued chunks in a background thread.")

    # routing / graph
    route_threshold: float = 0.6
    max_message_chars: int = 4000
    history_trim_messages: int = 12
    react_max_steps: int = 6
    react_time_limit_s: float = 20.0

    # service
    refund_agent_approval_above: float = 500.0
    demo_keys: bool = Field(default=False, description="Fixed demo API keys demo-<user> (demos and tests only).")

    # abuse limits (anonymous callers; see api/ratelimit.py)
    anon_rate_limit: str = Field(default="20/minute;200/hour",
                                 description="Turns/searches/generations per anonymous identity; empty = off.")
    anon_ip_rate_limit: str = Field(default="120/minute",
                                    description="The same routes per client address for all anonymous callers; empty = off.")

    anon_write_rate_limit: str = Field(default="60/minute;600/hour",
                                       description="Other anonymous writes (rename, delete, feedback, marking read) per "
                                                   "anonymous identity; empty = off.")
    max_body_bytes: int = Field(default=256 * 1024, ge=1024,
                                description="Largest request body of every route but uploads, in bytes (413 above).")
    max_upload_request_bytes: int = Field(default=100 * 1024 * 1024, ge=1024,
                                          description="Largest upload request (all its files together), in bytes.")

    host: str = "127.0.0.1"
    port: int = 8000
    url: str = Field(default="", description="The running server `knowzero ask` sends questions to (e.g. "
                                             "http://127.0.0.1:18200); empty: the one `knowzero serve` recorded in "
                                             "data_dir, else host:port.")

    @field_validator("fusion_weights")
    @classmethod
    def _weights_positive(cls, v: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        for domain, weights in v.items():
            for name, w in weights.items():
                if w < 0:
                    raise ValueError(f"fusion weight {domain}.{name} must be >= 0")
        return v

    @field_validator("anon_rate_limit", "anon_ip_rate_limit", "anon_write_rate_limit")
    @classmethod
    def _rate_limit_syntax(cls, v: str) -> str:
        if v.strip():
            parse_many(v)  # ValueError: e.g. "20/minute;200/hour"
        return v

    @model_validator(mode="after")
    def _check_llm(self) -> Settings:
        if self.llm_provider == "openai" and not (self.llm_base_url and self.llm_model):
            raise ValueError("llm_provider=openai needs KNOWZERO_LLM_BASE_URL and KNOWZERO_LLM_MODEL")
        if self.top_k < 1 or self.top_k > 50:
            raise ValueError("top_k must be between 1 and 50")
        if self.env == "production" and self.demo_keys:
            raise ValueError("KNOWZERO_DEMO_KEYS must not be set in production (anyone could sign in)")
        if self.llm_provider == "openai" and not self.llm_url_allowed(self.llm_base_url):
            raise ValueError("in production, a remote LLM must be reached over https")
        return self

    def llm_url_allowed(self, url: str) -> bool:
        """Whether this server may reach a model at ``url`` (:func:`llm_url_allowed`): the rule bites in
        production on a server that listens beyond loopback."""
        return llm_url_allowed(url, production=self.env == "production" and self.host not in ("127.0.0.1", "localhost", "::1"))

    def data_path(self) -> Path:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return self.data_dir

    @property
    def db_url(self) -> str:
        """SQLAlchemy URL of the app database."""
        if self.database_url:
            url = self.database_url
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url[len("postgresql://"):]
            return url
        return f"sqlite:///{(self.data_path() / 'knowzero.db').resolve()}"

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith(("postgresql://", "postgresql+psycopg://", "postgres://"))


