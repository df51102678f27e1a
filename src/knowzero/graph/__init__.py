"""The one LangGraph graph: state, wiring (builder.py only), routers and one module per agent."""
