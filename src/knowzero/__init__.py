"""KnowZero: an offline-first knowledge assistant (learning, cited answers, customer service)."""

__version__ = "0.1.0"
