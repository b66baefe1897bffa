"""Answer sentences and their ``[n]`` citation markers.

>>> [(s.text, s.cited) for s in cited_sentences("EPOLLET asks for edge-triggered mode [1]. See also [2, 3].")]
[('EPOLLET asks for edge-triggered mode.', [1]), ('See also.', [2, 3])]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipelines.chunk.sentences import split_sentences

MARKER = re.compile(r"\s*\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]")


@dataclass(frozen=True)
class CitedSentence:
    text: str            # the sentence without its markers
    cited: list[int]     # passage numbers cited in it, in order, without repeats


def strip_markers(text: str) -> str:
    return MARKER.sub("", text).strip()


def cited_sentences(answer: str) -> list[CitedSentence]:
    """Split ``answer`` into sentences; a marker right after a sentence's full stop belongs to it."""
    answer = re.sub(r"([.!?])(\s*\[\d[\d,;\s]*\])", r"\2\1", answer.strip())  # "x. [1]" → "x [1]."
    out = []
    for start, end in split_sentences(answer):
        raw = answer[start:end].strip()
        cited = list(dict.fromkeys(int(n) for m in MARKER.finditer(raw) for n in re.split(r"[,;]", m.group(1))))
        text = strip_markers(raw)
        if text.strip(" .!?"):
            out.append(CitedSentence(text, cited))
        elif cited and out:  # a lone marker: it belongs to the sentence before
            out[-1] = CitedSentence(out[-1].text, list(dict.fromkeys(out[-1].cited + cited)))
    return out


def all_cited(answer: str) -> list[int]:
    """Every passage number cited anywhere in ``answer``."""
    return list(dict.fromkeys(int(n) for m in MARKER.finditer(answer) for n in re.split(r"[,;]", m.group(1))))
