"""The bundled OCR engine: RapidOCR on onnxruntime (PyPI ``rapidocr-onnxruntime`` 1.4.4, Apache-2.0).

Its wheel ships PaddleOCR's PP-OCRv4 text detection and recognition models (Chinese and English, one
model) and the text-angle classifier, so nothing is downloaded (``rapidocr`` 3.x fetches its models
at first use: not offline, not used). :func:`ocr` loads the engine once per process, on first use
(the parse workers: ``knowledge/ingest/parse_worker.py``), with one onnxruntime thread.

This module reads pixels and returns text lines with their boxes; it does not know pages, PDFs or
layout (``knowledge/ingest/pdfparse.py`` lays the lines out like a text page's). The recogniser is trained on
mostly Chinese text and sometimes drops the spaces of an English line ("Employeeswholivemorethan50km"):
:func:`respace` splits such runs back into words with ``wordninja`` (MIT, English Wikipedia unigram
frequencies shipped in the package).

    lines = ocr().read(pil_image)   # [OcrLine(left, top, right, bottom, text, score), ...] in pixels
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MIN_SCORE = 0.5
"""Recognised lines scoring lower are dropped (noise, stamps, photos read as text)."""

_lock = threading.Lock()
_RUN = re.compile(r"[A-Za-z0-9]{6,}")
_O_FOR_ZERO = re.compile(r"(?<=\d)[oO](?=\d)|(?<=\d)[oO](?=[oO]?\d)|(?<=\d[,.])[oO0]{3}(?![A-Za-z0-9])")


def respace(text: str) -> str:
    """An OCR line's glued English words split again, and an ``o`` read between digits made ``0``: a run of
    6+ letters and digits (at least 4 letters, no capital after its first character: codes like XH1001AB
    stay whole; a capitalised run of up to 12 letters is a name, "Wrenfield", and stays whole too) is split
    where ``wordninja`` reads it as several English words.

    >>> respace("Employeeswholivemorethan50kmfromthe office, fouryears orwhen 1,5o0eurosper 2,ooo XH1001AB 最多报销120元")
    'Employees who live more than 50 km from the office, four years or when 1,500 euros per 2,000 XH1001AB 最多报销120元'
    >>> respace("founded by Tobias Wrenfield in Kelmouth")
    'founded by Tobias Wrenfield in Kelmouth'
    """
    import wordninja

    def split(m: re.Match[str]) -> str:
        run = m.group(0)
        if sum(ch.isalpha() for ch in run) < 4 or any(ch.isupper() for ch in run[1:]):
            return run
        if run[0].isupper() and len(run) <= 12:
            return run  # a name read whole ("Wrenfield", "Kelmouth"), not glued words
        words = wordninja.split(run)
        return " ".join(words) if len(words) > 1 and "".join(words) == run else run

    return _RUN.sub(split, _O_FOR_ZERO.sub(lambda m: "0" * len(m.group(0)), text))


@dataclass(frozen=True)
class OcrLine:
    """One recognised line: its box in image pixels (y grows downwards), its text, its confidence 0-1."""

    left: float
    top: float
    right: float
    bottom: float
    text: str
    score: float


class OcrEngine:
    """RapidOCR with the bundled PP-OCRv4 models (see module doc). Not thread-safe per call: serialised."""

    def __init__(self) -> None:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        import logging

        from rapidocr_onnxruntime import RapidOCR

        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        # No text-angle classifier: it turned upright lines of clean scans upside down (read as empty text) on
        # our test pages, and scans are upright; a wider unclip keeps the spaces between English words.
        self._engine: Any = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1, use_cls=False,
                                     det_unclip_ratio=2.0)

    def read(self, image: Any) -> list[OcrLine]:
        """The text lines of a Pillow image (any mode), top to bottom as the engine returns them."""
        import numpy as np

        pixels = np.asarray(image.convert("RGB"))
        with _lock:
            result, _ = self._engine(pixels)
        out: list[OcrLine] = []
        for box, text, score in result or []:
            xs, ys = [float(p[0]) for p in box], [float(p[1]) for p in box]
            if float(score) >= MIN_SCORE and str(text).strip():
                out.append(OcrLine(min(xs), min(ys), max(xs), max(ys), respace(str(text)), float(score)))
        return out


@lru_cache(maxsize=1)
def ocr() -> OcrEngine:
    """The process's OCR engine (loaded on first use: ~0.7 s)."""
    return OcrEngine()
