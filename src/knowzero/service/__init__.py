"""Customer service: tool registry, demo commerce store, slot filling, triage, handoff."""
