"""Benchmarks: dataset loaders, pure metrics and runners behind ``knowzero eval``."""
