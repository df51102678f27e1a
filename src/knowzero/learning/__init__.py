"""Learning: documents, versions, comment anchors, entity pages, paths (see service.py)."""
