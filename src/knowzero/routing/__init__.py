"""Fast tiered intent routing (PRODUCT.md §3): rules → fuzzy → semantic → LLM, cached.

    from knowzero.routing import IntentClassifier, classify_source
    clf = IntentClassifier.from_package_data()        # built once by the dependency container
    result = clf.classify("帮我查订单，然后生成邮件")   # IntentResult(intent="mixed", method="rule", ...)
    result = classify_source("entity", has_entity_page=False)       # IntentResult(intent="new_topic", method="source")

One module per tier (``rules``, ``fuzzy``, ``semantic``, ``llm``), the chain in ``classifier``,
the result type in ``types``, trainable numpy pieces in ``head``, intents/examples/keywords/rules
in ``data/intents.json``. Importing this package loads no model: the USE encoder loads when a
semantic tier is built (``IntentClassifier.from_package_data()``).
"""

import os

# As models.embeddings: one BLAS thread. Tiny per-message matrix products crawl when two
# OpenBLAS threads spin on a busy 2-core machine. Only effective if numpy is not loaded yet.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from knowzero.routing.classifier import (  # noqa: E402
    IntentClassifier,
    RoutingData,
    classify_source,
    load_routing_data,
)
from knowzero.routing.fuzzy import FuzzyTier  # noqa: E402
from knowzero.routing.llm import LLMTier  # noqa: E402
from knowzero.routing.rules import CompoundRule, RuleTier  # noqa: E402
from knowzero.routing.semantic import SemanticFit, SemanticTier  # noqa: E402
from knowzero.routing.types import (  # noqa: E402
    METHODS,
    PRODUCT_INTENTS,
    SERVICE_INTENTS,
    IntentResult,
    Method,
    ProductIntent,
)

__all__ = [
    "METHODS",
    "PRODUCT_INTENTS",
    "CompoundRule",
    "FuzzyTier",
    "IntentClassifier",
    "IntentResult",
    "LLMTier",
    "Method",
    "ProductIntent",
    "RoutingData",
    "RuleTier",
    "SERVICE_INTENTS",
    "SemanticFit",
    "SemanticTier",
    "classify_source",
    "load_routing_data",
]
