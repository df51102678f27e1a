"""The four knowledge agents: router, retriever, reader, fact checker."""
