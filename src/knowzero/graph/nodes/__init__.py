"""One module per agent; nodes are ``async def verb_noun(state, runtime) -> dict`` returning only changed keys."""
