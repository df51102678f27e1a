"""KnowZero: an offline-first knowledge assistant (learning, cited answers, customer service)."""

import os

# One BLAS/OpenMP thread with passive waiting, set before anything imports numpy: on a 2-core
# machine two spinning threads per model crawl (measured: classifier build 50 s vs 11 s).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"
