"""Bundled models, loaded once per process."""
