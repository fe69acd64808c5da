"""Helpers shared by the hardware tests."""

from __future__ import annotations

import queue


def sent_words(trace, data_level=False):
    """Decode the lines' history: the DS level sampled at each rising SHCP edge, one word per
    rising STCP edge. Returns the words in the order they were latched, each as the outputs
    (index 0 = first chip's Q0): the last bit clocked in sits at Q0."""
    words, bits, data = [], [], data_level
    for line, level in trace:
        if line == "data":
            data = level
        elif line == "clock" and level:
            bits.append(data)
        elif line == "latch" and level:
            words.append(tuple(reversed(bits)))
            bits = []
    return words


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out
