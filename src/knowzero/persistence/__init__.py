"""Storage chosen by URL: SQLite file (default) or PostgreSQL; checkpointer and store factories."""
