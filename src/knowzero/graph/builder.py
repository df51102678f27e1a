"""The only module that wires nodes. Builders return uncompiled graphs; callers compile them
with the checkpointer and store they want (``compile_graph`` does it for the app).

Main graph:
    normalize → classify → decide_path ─┬─ knowledge (subgraph: route_domain → retrieve (⟲ inside) → read → check → queue_review)
                                        ├─ service    (triage, slots, safe tools) ─┬─ confirm_action ─┬─ approve_action
                                        │                                         ├─ await_human    └─ (finish)
                                        ├─ learning   (documents, comments, entities, follow-ups, plans)
                                        ├─ chitchat | clarify
                                        └─ react      (bounded, monitored loop)
                                     → finish
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from knowzero.graph.context import Deps
from knowzero.graph.nodes.chitchat import reply_chitchat
from knowzero.graph.nodes.clarify import ask_clarification
from knowzero.graph.nodes.finish import finish_turn
from knowzero.graph.nodes.intent import classify_intent, normalize_input
from knowzero.graph.nodes.knowledge import (
    check_answer,
    queue_review,
    read_answer,
    reread,
    retrieve_passages,
    route_domain,
)
from knowzero.graph.nodes.learning import run_learning
from knowzero.graph.nodes.paths import decide_path
from knowzero.graph.nodes.react import run_react
from knowzero.graph.nodes.service import approve_action, await_human, confirm_action, run_service
from knowzero.graph.routes import (
    route_after_check,
    route_after_confirm,
    route_after_domain,
    route_after_path,
    route_after_service,
)
from knowzero.graph.state import InputState, KnowledgeOutput, OutputState, State
from knowzero.graph.trace import traced


def build_knowledge_graph() -> StateGraph[State, Deps, State, KnowledgeOutput]:
    """Router → retriever (rewrites ≤ 3 inside ``pipeline.gather_until_good``) → reader → fact checker → review queue (steps of knowledge/answer/pipeline.py)."""
    g = StateGraph(State, context_schema=Deps, input_schema=State, output_schema=KnowledgeOutput)
    g.add_node("route_domain", traced("route_domain", route_domain))
    g.add_node("retrieve", traced("retrieve", retrieve_passages))
    g.add_node("read", traced("read", read_answer))
    g.add_node("check", traced("check", check_answer))
    g.add_node("queue_review", traced("queue_review", queue_review))
    g.add_node("reread", traced("reread", reread))
    g.add_edge(START, "route_domain")
    g.add_conditional_edges("route_domain", route_after_domain)
    g.add_edge("retrieve", "read")
    g.add_edge("read", "check")
    g.add_conditional_edges("check", route_after_check)
    g.add_edge("reread", "route_domain")
    g.add_edge("queue_review", END)
    return g


def build_graph() -> StateGraph[State, Deps, InputState, OutputState]:
    """The whole assistant (see module doc)."""
    g = StateGraph(State, context_schema=Deps, input_schema=InputState, output_schema=OutputState)
    g.add_node("normalize", traced("normalize", normalize_input))
    g.add_node("classify", traced("classify", classify_intent))
    g.add_node("decide_path", traced("decide_path", decide_path))
    g.add_node("knowledge", build_knowledge_graph().compile())
    g.add_node("service", traced("service", run_service))
    g.add_node("confirm_action", traced("confirm_action", confirm_action))
    g.add_node("approve_action", traced("approve_action", approve_action))
    g.add_node("await_human", traced("await_human", await_human))
    g.add_node("learning", traced("learning", run_learning))
    g.add_node("chitchat", traced("chitchat", reply_chitchat))
    g.add_node("clarify", traced("clarify", ask_clarification))
    g.add_node("react", traced("react", run_react))
    g.add_node("finish", traced("finish", finish_turn))
    g.add_edge(START, "normalize")
    g.add_edge("normalize", "classify")
    g.add_edge("classify", "decide_path")
    g.add_conditional_edges("decide_path", route_after_path)
    for name in ("knowledge", "learning", "chitchat", "clarify", "react", "approve_action", "await_human"):
        g.add_edge(name, "finish")
    g.add_conditional_edges("service", route_after_service)
    g.add_conditional_edges("confirm_action", route_after_confirm)
    g.add_edge("finish", END)
    return g
