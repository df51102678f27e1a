"""The checks of an answer: each a pure function over the question, the claims and the evidence that returns
what it found; ``answer/policy.py`` turns the findings into the verdict."""
