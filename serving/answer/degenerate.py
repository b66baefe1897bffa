"""Degenerate writer output: loops, repeated n-grams and sentences, list items repeating one stem,
runaway low-variety text, empty or punctuation-only answers.

Small models fall into loops (``The answer to the question is: The answer to the question is: …``);
such output is dropped at once (retrying the same model on it only loops again). The writer's stream
goes through a :class:`DegenerationGuard`, which stops generation as soon as a loop appears;
:func:`degeneration` checks a whole text the same way.

>>> degeneration("EPOLLET requests edge-triggered notification [1].") is None
True
>>> degeneration("The answer to the question is: " * 4)
"the words 'the answer to the question' repeat 3 times within 80 words"
>>> guard = DegenerationGuard()
>>> [guard.feed(piece) for piece in ["Use --force. ", "Use --force to ", "overwrite files."]]
[None, None, None]
>>> guard.finish() is None
True

The checks (every threshold is a module constant):

* the same 5-word sequence 3 times within 80 words (overlapping counts: ``a b a b a b a b a b`` loops);
* the same word 6 times in a row;
* word sequences of 10+ words that occur twice covering 60% of a text of 20+ words;
* the same sentence or line twice (3+ words) or three times (any);
* 3 list items (``1.`` / ``2)`` / bullets), or 3 sentences, starting with the same 4 words;
* 80 consecutive words of which under 30% are distinct (prose has about 60–70%);
* a run of 40 identical non-space characters; an empty answer; only punctuation.

The word checks run on every completed word, the sentence, line and list-item checks when a sentence
or line ends; both keep running counts, so feeding a stream costs about as much as checking its
whole text once (about 2 ms per 250 words).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from pipelines.chunk.sentences import split_sentences

__all__ = ["DegenerationGuard", "degeneration"]

NGRAM = 5                 # a loop: the same NGRAM words ...
NGRAM_REPEATS = 3         # ... this many times ...
NGRAM_WINDOW = 80         # ... within this many words
WORD_RUN = 6              # the same word this many times in a row
LONG_NGRAM = 10           # repeated sequences of this many words ...
LONG_SHARE = 0.6          # ... covering this share of the words ...
LONG_MIN_WORDS = 20       # ... of a text of at least this many words
SENTENCE_MIN_WORDS = 3    # a sentence/line of this many words may not repeat; shorter ones not 3 times
ITEM_STEM = 4             # list items or sentences starting with the same ITEM_STEM words ...
ITEM_REPEATS = 3          # ... this many times
RUNAWAY_WORDS = 80        # in a text of this many words, any run of this many words ...
MIN_DISTINCT = 0.3        # ... needs this share of distinct words
CHAR_RUN = 40             # the same non-space character this many times in a row

_PUNCT = ".,;:!?()[]{}<>\"'`“”‘’«»…*|"
_CLOSERS = ")]}\"'`”’»*"
_ENDS = ".!?…"
_LEAD = re.compile(r"^\s*(?:[-*+•‣▪◦]|\(?\d{1,3}[.)])\s+")
_ITEM = re.compile(r"(?m:^)[ \t]*(?:[-*+•‣▪◦]|\(?\d{1,3}[.)])[ \t]+|(?<=\s)\(?\d{1,3}[.)][ \t]+")


def _norm(token: str) -> str:
    """A token as a word: lower-cased, surrounding punctuation stripped ('' without a letter or digit:
    bullets, dashes, lone symbols)."""
    word = token.strip(_PUNCT).lower()
    return word if any(c.isalnum() for c in word) else ""


def _words(text: str) -> list[str]:
    return [w for w in (_norm(t) for t in text.split()) if w]


def _quote(words: tuple[str, ...] | list[str] | str, limit: int = 60) -> str:
    text = words if isinstance(words, str) else " ".join(words)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


class DegenerationGuard:
    """Checks a generation while it streams: :meth:`feed` each text delta; a non-None result is why
    the text degenerated (stop generating); :meth:`finish` runs the end-of-text checks.

    Once a reason is found, every later call returns it.

    >>> guard = DegenerationGuard()
    >>> reasons = [guard.feed(piece) for piece in ["1. If an exception occurs, stop. ",
    ...     "2. If an exception occurs, log it. ", "3. If an exception occurs, raise. ", "4. If"]]
    >>> reasons[:2], reasons[2]
    ([None, None], "3 list items start with 'if an exception occurs'")
    >>> guard.feed(" anything") == reasons[2] and guard.reason == reasons[2]
    True
    >>> DegenerationGuard().finish()
    'empty answer'
    """

    def __init__(self) -> None:
        self.reason: str | None = None
        self._parts: list[str] = []
        self._pending = ""            # the last token, not yet followed by whitespace
        self._words: list[str] = []
        self._recent: Counter[str] = Counter()  # the last RUNAWAY_WORDS words
        self._run = 0
        self._grams: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
        self._long: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
        self._covered: set[int] = set()
        self._char = ""
        self._char_run = 0
        self._nonspace = 0
        self._alnum = False
        self._checked_words = -1      # word count at the last sentence check
        # sentence, line and list-item state: what lies before these offsets is counted
        self._sentence_at = 0         # start of the first sentence not yet counted
        self._line_at = 0             # start of the first line not yet counted
        self._item_at = -1            # start of the text of the open list item (-1: none)
        self._item_counted = False    # the open item's stem is counted
        self._marker_scan = 0         # list markers ending before this offset were seen
        self._sentence_keys: Counter[str] = Counter()
        self._line_keys: Counter[str] = Counter()
        self._stems: dict[str, Counter[tuple[str, ...]]] = {"list items": Counter(), "sentences": Counter()}

    @property
    def text(self) -> str:
        """Everything fed so far."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def feed(self, delta: str) -> str | None:
        """Add the next piece of generated text; returns the reason when the text has degenerated."""
        if self.reason is not None or not delta:
            return self.reason
        self._parts.append(delta)
        for ch in delta:
            if ch.isspace():
                self._char_run = 0
                continue
            self._nonspace += 1
            self._alnum = self._alnum or ch.isalnum()
            self._char_run = self._char_run + 1 if ch == self._char else 1
            self._char = ch
            if self._char_run >= CHAR_RUN:
                return self._stop(f"{self._char_run} {ch!r} characters in a row")
        chunk = self._pending + delta
        tokens = chunk.split()
        self._pending = tokens.pop() if tokens and not chunk[-1].isspace() else ""
        boundary = "\n" in delta
        for token in tokens:
            if self._add(token) is not None:
                return self.reason
            boundary = boundary or token.rstrip(_CLOSERS)[-1:] in _ENDS
        if not self._words and not self._alnum and self._nonspace >= CHAR_RUN:
            return self._stop("only punctuation")
        if boundary and len(self._words) != self._checked_words:
            self._checked_words = len(self._words)
            self._structure(self.text[: len(self.text) - len(self._pending)], final=False)
        return self.reason

    def finish(self) -> str | None:
        """The end of the text: count its last word, check its last sentence, and flag an empty or
        punctuation-only answer."""
        if self.reason is not None:
            return self.reason
        if self._pending:
            token, self._pending = self._pending, ""
            if self._add(token) is not None:
                return self.reason
        if not self.text.strip():
            return self._stop("empty answer")
        if not self._words:
            return self._stop("only punctuation")
        self._structure(self.text, final=True)
        return self.reason

    # -- checks ---------------------------------------------------------------------------------------------
    def _stop(self, reason: str) -> str:
        self.reason = reason
        return reason

    def _add(self, token: str) -> str | None:
        """Count one completed token; the word checks."""
        word = _norm(token)
        if not word:
            return None
        words = self._words
        self._run = self._run + 1 if words and words[-1] == word else 1
        words.append(word)
        i = len(words) - 1
        self._recent[word] += 1
        if i >= RUNAWAY_WORDS:
            old = words[i - RUNAWAY_WORDS]
            self._recent[old] -= 1
            if not self._recent[old]:
                del self._recent[old]
        if self._run >= WORD_RUN:
            return self._stop(f"the word {_quote(word)} repeats {self._run} times in a row")
        if i >= NGRAM - 1:
            gram = tuple(words[i - NGRAM + 1: i + 1])
            seen = self._grams[gram]
            seen.append(i)
            recent = 0
            for p in reversed(seen):
                if p <= i - NGRAM_WINDOW:
                    break
                recent += 1
            if recent >= NGRAM_REPEATS:
                return self._stop(f"the words {_quote(gram)} repeat {recent} times within {NGRAM_WINDOW} words")
        if i >= LONG_NGRAM - 1:
            seen = self._long[tuple(words[i - LONG_NGRAM + 1: i + 1])]
            seen.append(i)
            if len(seen) >= 2:
                for end in seen if len(seen) == 2 else seen[-1:]:
                    self._covered.update(range(end - LONG_NGRAM + 1, end + 1))
        n = len(words)
        if n >= LONG_MIN_WORDS and self._covered and len(self._covered) >= LONG_SHARE * n:
            return self._stop(f"repeated word sequences make up {len(self._covered) / n:.0%} of the text")
        if n >= RUNAWAY_WORDS and len(self._recent) < MIN_DISTINCT * RUNAWAY_WORDS:
            return self._stop(f"only {len(self._recent)} distinct words among {RUNAWAY_WORDS} in a row")
        return None

    def _structure(self, text: str, *, final: bool) -> str | None:
        """The sentence, line and list-item checks, counting only what ``text`` (all complete words)
        adds since the last call; the last sentence and line count once they end (or at the ``final`` end)."""
        spans = split_sentences(text[self._sentence_at:])
        base = self._sentence_at
        if not final and spans:
            self._sentence_at = base + spans[-1][0]
            spans = spans[:-1]
        elif final:
            self._sentence_at = len(text)
        for a, b in spans:
            sentence = _LEAD.sub("", text[base + a: base + b])
            if self._count("sentence", self._sentence_keys, sentence) or self._stem("sentences", sentence):
                return self.reason
        lines = text[self._line_at:].split("\n")
        if not final:
            lines = lines[:-1]
        self._line_at += sum(len(line) + 1 for line in lines)
        for line in lines:
            if self._count("line", self._line_keys, _LEAD.sub("", line)):
                return self.reason
        for m in _ITEM.finditer(text, max(0, self._marker_scan - 8)):
            if m.end() <= self._marker_scan:
                continue  # seen at the last check
            if self._item_at >= 0 and not self._item_counted and self._stem("list items", text[self._item_at: m.start()]):
                return self.reason
            self._item_at, self._item_counted = m.end(), False
        self._marker_scan = len(text)
        if self._item_at >= 0 and not self._item_counted and (final or len(_words(text[self._item_at:])) >= ITEM_STEM):
            self._item_counted = True  # its first ITEM_STEM words are complete: its stem is known
            if self._stem("list items", text[self._item_at:]):
                return self.reason
        return None

    def _count(self, kind: str, counts: Counter[str], piece: str) -> bool:
        """Count a sentence or line; True (and the reason set) when it repeats."""
        key = " ".join(_words(piece))
        if not key:
            return False
        counts[key] += 1
        n = counts[key]
        if n >= 3 or (n >= 2 and len(key.split()) >= SENTENCE_MIN_WORDS):
            self._stop(f"the {kind} {_quote(key)} repeats {n} times")
            return True
        return False

    def _stem(self, kind: str, piece: str) -> bool:
        """Count the first ITEM_STEM words of a list item or sentence; True when ITEM_REPEATS share them."""
        words = _words(piece)
        if len(words) < ITEM_STEM:
            return False
        stems = self._stems[kind]
        stem = tuple(words[:ITEM_STEM])
        stems[stem] += 1
        if stems[stem] >= ITEM_REPEATS:
            self._stop(f"{stems[stem]} {kind} start with {_quote(stem)}")
            return True
        return False


def degeneration(text: str) -> str | None:
    """Why ``text`` is degenerate (a loop, repeats, runaway low variety, empty…), or None when it is fine.

    >>> degeneration("Pass --force to overwrite files; without --force, tar refuses.") is None
    True
    >>> degeneration("It lists files. It lists files.")
    "the sentence 'it lists files' repeats 2 times"
    >>> degeneration(" ... ")
    'only punctuation'
    """
    guard = DegenerationGuard()
    return guard.feed(text) or guard.finish()
