"""Ingest: files parsed (in a worker process), chunked, tables kept, embeddings queued."""
