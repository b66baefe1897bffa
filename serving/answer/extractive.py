"""The extractive answerer: quote the best evidence sentences of the context pack, or refuse.

No LLM. Every prose sentence of the pack's passages (best passages first, up to
``answer.extractive.max_candidates``) is scored by the shipped cross-encoder on (question,
``section path`` + sentence) and ranked by (weights in ``answer.extractive``, chosen on dev data)::

    score = 0.5 · minmax(cross-encoder) + 0.3 · minmax(passage score) + 1.0 · coverage(path + sentence)
            + 0.25 · coverage(sentence) + 0.25 · [holds the kind of value asked for]

The best sentence is quoted with its ``[n]``; up to ``max_sentences`` more follow when they reach
``relative_cutoff`` of its score, and one from another passage only if its own words hold a word of the
question other than the company's name (a header that names the company and the fiscal year is no reason to quote a
signature line, nor is "the accounts of Meridian Ledger Systems, Inc." an answer about its shares) and, when a
value is asked, it states the best sentence's value (:func:`serving.answer.verify.same_value`: "$401.9 million"
and a table's "401,900" in thousands agree; the quarter's "$112.6 million" does not). Cover pages, contents lines, legal notices and navigation are never
candidates (:mod:`serving.answer.boilerplate`). Whether the question is answerable at all is decided by
:class:`Answerability` — a logistic model over features of the quotable sentences (how much of the
question a top sentence covers, whether it holds the kind of value asked for, and whether it states
the question's *focus* — what is asked about the subject: "born", "wife", "die" — :func:`focus`) with a
threshold, fitted on QA sets of several kinds by ``bench/answer_calibrate.py`` and stored with the
cross-encoder as ``answerability.json``. Below the threshold it refuses. A short answer span (a flag, number, name …) is picked from the quoted
sentences where one can be found (:mod:`serving.answer.span`).

>>> sentences_of("EPOLLET asks for edge-triggered mode. The default is level-triggered.")
[(0, 37, 'EPOLLET asks for edge-triggered mode.'), (38, 69, 'The default is level-triggered.')]
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cluster.config import ExtractiveConfig, StrataConfig
from pipelines.chunk.sentences import split_sentences
from pipelines.parse.rst import clean_inline
from serving.analysis.decompose import decompose, question_end
from serving.analysis.period_codes import spell_period_codes
from serving.answer.anchors import (acronyms, anchors, counted_noun, document_years, elsewhere, is_question,
                                    missing_anchors, names_acronym, names_counted, names_places, subject_names)
from serving.answer.boilerplate import asks_about_audit, is_audit_wording, is_boilerplate, is_reference_section
from serving.answer.periods import conflicts, own_periods, periods, stated_period_words
from serving.answer.span import (answer_span, asks_measure, defined_term, defines, expected_type, financial_nouns,
                                 focus_words, holds_value, measures_agree, mentions, named_measure_words)
from serving.answer.tables import TableRow, row_value, stated_figure, table_rows
from serving.answer.verify import content_words, normalize, same_value
from serving.rerank.combine import minmax
from serving.rerank.text import header_of

__all__ = ["ANSWERABILITY_FILE", "Answerability", "ExtractiveAnswer", "ExtractiveAnswerer", "ScoredSentence", "asked",
           "coverage", "focus", "focus_words", "load_answerability", "resolve_answerability", "sentences_of"]

ANSWERABILITY_FILE = "answerability.json"
Score = Callable[[str, list[str]], Awaitable[list[float]]]
FEATURES = ("coverage", "value_coverage", "value_missing", "focus", "value_focus", "short_gap",
            "question_words")  # what the stored model may weigh
# Kinds of value whose presence a sentence can be checked for reliably (names are too varied to tell).
CHECKED_VALUES = frozenset({"number", "version", "year", "expansion", "person", "organization", "default", "date",
                            "place"})


@dataclass(frozen=True)
class Answerability:
    """A calibrated decision: ``bias + Σ weights[f] · features[f] ≥ threshold`` → answerable.

    Features of a question's ranked sentences (:meth:`ExtractiveAnswerer.features`): ``cross_encoder``
    — the best sentence's logit; ``coverage`` — the best share of the question's content words that a
    top sentence (with its section path) contains; for a question that asks for a checkable value (a
    number, version, year, date, place, expansion, a person, a default: :data:`CHECKED_VALUES`)
    ``value_coverage`` is the best coverage among the top sentences that hold such a value and
    ``value_missing`` is 1 when none does; for other questions they are ``coverage`` and 0. ``focus`` —
    the best share of the question's focus words (:func:`focus_words`: its words without the names of
    its subject) that a top sentence states; ``value_focus`` — the same among the sentences holding the
    asked-for value; ``short_gap`` — ``1 - value_focus`` for a question with at most two focus words
    (where one missing word is the whole question), else 0; ``question_words`` — the question's content
    words ÷ 10, at most 1 (long questions are covered less by their answers). The cross-encoder logit
    does not tell answerable from unanswerable questions (the reranker scores topical relevance, and
    unanswerable questions are on topic), so the stored model weighs the others (:data:`FEATURES`).
    The uncalibrated default answers when half the question is covered.

    >>> Answerability().decide({"cross_encoder": 0.4, "coverage": 0.5, "value_missing": 1})
    (0.0, True)
    """

    weights: dict[str, float] = field(default_factory=lambda: {"coverage": 1.0})
    bias: float = -0.5
    threshold: float = 0.0

    def decide(self, features: dict[str, float]) -> tuple[float, bool]:
        z = self.bias + sum(w * features.get(name, 0.0) for name, w in self.weights.items())
        return z, z >= self.threshold

    @classmethod
    def from_json(cls, data: dict) -> "Answerability":
        return cls(weights={k: float(v) for k, v in data["weights"].items()}, bias=float(data["bias"]),
                   threshold=float(data["threshold"]))


@dataclass(frozen=True)
class ScoredSentence:
    n: int                 # 1-based passage number
    start: int             # character offsets within the passage text
    end: int
    text: str
    header: str
    cross_encoder: float   # raw logit of (question, header + sentence)
    score: float           # blended score (ranking within one question)
    coverage: float = 0.0  # share of the question's content words in header + sentence
    holds: bool = False    # holds the kind of value the question asks for
    row: TableRow | None = None  # a table row quoted as ``label — header: figure; …`` (:mod:`serving.answer.tables`)


@dataclass
class ExtractiveAnswer:
    """The quoted sentences (best first), the answer text with ``[n]`` markers, the short span."""

    answerable: bool
    score: float | None
    threshold: float
    features: dict[str, float] = field(default_factory=dict)
    sentences: list[ScoredSentence] = field(default_factory=list)
    answer: str = ""
    answer_value: str | None = None
    scored: int = 0
    missing_anchors: list[str] = field(default_factory=list)  # why an answerable-looking question was refused
    unquotable: bool = False  # no sentence could be quoted (each asks, counts something else or lacks an anchor)
    note: str | None = None  # several questions in one: which of them the passages do not answer

    @property
    def cited(self) -> list[int]:
        return list(dict.fromkeys(s.n for s in self.sentences))


#: A plain word of any script (accents and Arabic vowel marks are stripped first: :func:`normalize`).
_WORD = re.compile(r"^[(\"“'«]?[^\W\d_](?:[^\W\d_]|['’-])*[,.;:!?)\"”'»،؛؟]*$")


def normalize_marks(text: str) -> str:
    """``text`` without combining marks (accents, Arabic short vowels), its case kept."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFKD", text)
                                               if not unicodedata.combining(c) and c != "\u0640"))


def is_prose(sentence: str) -> bool:
    """A sentence a person could quote as an answer: at least 4 plain words making up at least half of
    its tokens, not an interactive-session or code line.

    >>> is_prose("The EPOLLET flag requests edge-triggered notification."), is_prose(">>> raise ConnectionError")
    (True, False)
    >>> is_prose("ConnectionError"), is_prose("x = f(a, b) + g(c) # d"), is_prose("He died on 1996-10-05.")
    (False, False, True)
    >>> is_prose("دُفن حمزة وابن أخته عبد الله بن جحش في قبر واحد."), is_prose("Kurt Gödel est né à Brünn en 1906.")
    (True, True)
    """
    if ">>>" in sentence or sentence.lstrip().startswith(("...", "$ ", "# ")):
        return False
    tokens = normalize_marks(sentence).split()
    words = sum(1 for t in tokens if _WORD.match(t))
    first = tokens[0][:1] if tokens else ""
    starts = first.isupper() or (first.isalpha() and not first.islower())  # a capital, or a script without case
    if words == 3 and len(tokens) >= 4 and starts and sentence.rstrip().endswith("."):
        return True  # a short statement: "He died on 1996-10-05."
    return words >= 4 and words >= 0.5 * len(tokens)


#: A line that holds only a page number (arabic or roman), as a PDF's page break or a contents entry leaves it.
_PAGE_LINE = re.compile(r"\s*(?:\d{1,4}|[ivxlc]{1,5})[ \t]*\n")
#: A signature line ("/s/ Hollister & Vance LLP") that a filing's signer leaves above the next sentence: the signer.
_SIGNATURE_LINE = re.compile(r"\s*/s/\s*([^\n]*?)\s*\n")
#: A bullet written as a table cell of its own ("• | Net product revenue was …"), as HTML filings lay out lists.
_BULLET_CELL = re.compile(r"\s*[•●◦▪‣·\-–*][ \t]*\|[ \t]*(?=\S)")


def sentences_of(text: str, max_chars: int = 600) -> list[tuple[int, int, str]]:
    """``(start, end, sentence)`` of ``text``: prose sentences only (:func:`is_prose`), long ones cut, without a
    page number left on a line of its own before them, nor a bullet laid out as a cell of its own ("• | …"); a
    signature line before a sentence ("/s/ Hollister & Vance LLP") names who says it ("Hollister & Vance LLP — …").

    >>> sentences_of("4.5. Further Reading . . . 34\\n34\\nbzip2 compresses files using the Burrows-Wheeler algorithm.")[0][2]
    'bzip2 compresses files using the Burrows-Wheeler algorithm.'
    >>> [s for _, _, s in sentences_of("Our audits provide a basis.\\n\\n/s/ Hollister & Vance LLP\\n"
    ...                                 "We have served as the Company's auditor since 2009.\\n\\n"
    ...                                 "• | Japan approval: In December 2024, the Ministry approved VELORA.")]
    ['Our audits provide a basis.', "Hollister & Vance LLP — We have served as the Company's auditor since 2009.", 'Japan approval: In December 2024, the Ministry approved VELORA.']
    """
    out = []
    for start, end in split_sentences(text):
        signer = ""
        while (lead := _PAGE_LINE.match(text, start, end) or _SIGNATURE_LINE.match(text, start, end)
               or _BULLET_CELL.match(text, start, end)) is not None:
            if lead.re is _SIGNATURE_LINE:
                signer = lead.group(1)
            start = lead.end()
        piece = text[start:end]
        stripped = piece.strip()
        if not is_prose(stripped):
            continue
        lead = len(piece) - len(piece.lstrip())
        s = start + lead
        said = f"{signer} — {stripped}" if signer else stripped
        out.append((s, s + len(stripped), _cut(" ".join(said.split()), max_chars)))
    return out


def plain(sentence: str) -> str:
    """``sentence`` as a reader sees it, without reStructuredText's inline markup (roles, ``literals``, `refs`_)
    that documentation sources keep in their text.

    >>> plain("To implement a queue, use :class:`collections.deque` or ``list.pop(0)``.")
    'To implement a queue, use collections.deque or list.pop(0).'
    """
    return clean_inline(sentence) if "`" in sentence else sentence


def _cut(sentence: str, max_chars: int) -> str:
    """``sentence`` cut at a word boundary to at most ``max_chars`` (then ending in " …")."""
    return sentence if len(sentence) <= max_chars else sentence[:max_chars].rsplit(" ", 1)[0] + " …"


def load_answerability(model_dir: Path | None) -> Answerability | None:
    """The calibration stored with the cross-encoder (``answerability.json``), or None."""
    if model_dir is None:
        return None
    path = Path(model_dir) / ANSWERABILITY_FILE
    if not path.is_file():
        return None
    return Answerability.from_json(json.loads(path.read_text()))


def resolve_answerability(cfg: StrataConfig) -> Answerability:
    """The calibration stored with the configured cross-encoder (else the uncalibrated default), with
    ``answer.extractive.threshold`` replacing its threshold when set."""
    from cluster.models.registry import resolve_reranker_dir

    try:
        stored = load_answerability(resolve_reranker_dir(cfg))
    except FileNotFoundError:
        stored = None
    model = stored or Answerability()
    if cfg.answer.extractive.threshold is not None:
        model = Answerability(weights=model.weights, bias=model.bias, threshold=cfg.answer.extractive.threshold)
    return model


def asked(question: str) -> str:
    """The question without the instructions after it: what the reader is told to do ("Give a response relying
    on the cash flow statement.", "Answer in one word.") is no part of what the passages must state. Its period codes
    are spelled out as filings write them (:func:`serving.analysis.period_codes.spell_period_codes`).

    >>> asked("What was the FY2018 capital expenditure for 3M? Give a response relying on the cash flow statement.")
    'What was the fiscal 2018 capital expenditure for 3M?'
    >>> asked("I run PostgreSQL 15. How do I set the WAL level?")
    'I run PostgreSQL 15. How do I set the WAL level?'

    So is the unit it is to be answered in, which a table states in its caption if at all:

    >>> asked("What is the FY2024 net sales amount (in USD thousands) for Globex?")
    'What is the fiscal 2024 net sales amount for Globex?'
    """
    question = spell_period_codes(_UNIT_ASKED.sub("", question))
    end = question_end(question)  # the Latin or the Arabic question mark that ends a question
    if end < 0 or not question[end:].strip():
        return question
    return question[:end]


#: "(in USD thousands)", "(in millions)", "(USD billions)", "(in %)", "(as a percentage)": how to state the answer.
_UNIT_ASKED = re.compile(r"\s*\((?:(?:in|as|expressed in|amounts? in|reported in)\s+)?(?:an?\s+)?(?:(?:US\$|USD|US dollars|"
                         r"dollars|EUR|euros?|GBP|\$|€|£)\s*)?(?:thousands|millions|billions|percent(?:age)?|%|"
                         r"basis points|US\$|USD|US dollars|dollars|EUR|euros?|GBP)(?:\s+of\s+\w+)?\s*\)", re.IGNORECASE)


_MAX_QUESTIONS = 8  # retrieval searches the first awareness.max_targets; each of these is answered or named (CPU per message stays bounded)


def questions_in(question: str) -> list[str]:
    """The questions of a message that asks several, each with its own question mark ("What is epoll? When was
    it added?": :func:`serving.analysis.decompose.decompose`), each answered on its own; anything else is one
    question. Retrieval also splits "What is X, and how do I Y?", but the answer does not: "Which statement does
    nothing and is used where one is required?" reads the same way and is one question.

    >>> questions_in("What is epoll? When was it added to Linux?")
    ['What is epoll?', 'When was it added to Linux?']
    >>> questions_in("How does epoll differ from select?"), questions_in("What is epoll?? Answer briefly.")
    (['How does epoll differ from select?'], ['What is epoll??'])
    >>> questions_in("Which statement does nothing and is used where a statement is required?")
    ['Which statement does nothing and is used where a statement is required?']
    >>> len(questions_in("What is A? What is B? What is C? What is D? What is E?"))
    5
    """
    text = asked(question)
    plan = decompose(text, max_targets=_MAX_QUESTIONS)
    several = plan.kind == "multi_question" and len(plan.targets) > 1
    return plan.targets if several and all(t.endswith(("?", "؟")) for t in plan.targets) else [text]


def focus(question: str, sentence: str) -> float:
    """Share of :func:`focus_words` that ``sentence`` contains (1.0 when the question has none): a sentence
    that names the subject but not what is asked about it ("born", "wife", "retire") does not answer.

    >>> focus("In which city was Ken Thompson born?", "Ken spent one week each on the kernel.")
    0.0
    >>> focus("When did Seymour Cray die?", "He died on 1996-10-05.")
    1.0
    """
    wanted = focus_words(question)
    if not wanted:
        return 1.0
    words = set(content_words(spell_period_codes(sentence)))  # a table's "Q3 2019" is the question's "third quarter"
    words |= named_measure_words(question, sentence)  # "Capital expenditures" states the question's "capex"
    words |= stated_period_words(question, sentence)  # a row's "2025: (31,740)" states "the first nine months of 2025"
    return sum(1 for w in wanted if mentions(w, words)) / len(wanted)


_NOT_COVERED = frozenset({"fiscal", "amount"})


def coverage(question: str, text: str) -> float:
    """Share of the question's distinct content words that ``text`` contains.

    >>> coverage("Which flag requests edge-triggered mode?", "EPOLLET requests edge-triggered behaviour")
    0.6

    Two words say what kind of answer is asked, not what it is about: "fiscal" (the kind of year, as "Year Ended"
    says; "fiscal 2024" is how :func:`asked` spells "FY2024") and "amount" ("the FY2024 capex amount"):

    >>> coverage("What is the fiscal 2024 capex amount?", "R&D expense was $41.7 million in fiscal 2024.")
    0.5

    A measure is covered under any of its names (:func:`serving.answer.span.named_measure_words`):

    >>> coverage("What is the fiscal 2024 capex amount?", "Capital expenditures were $18.6 million in fiscal 2024.")
    1.0
    """
    wanted = set(content_words(question)) - _NOT_COVERED
    if not wanted:
        return 0.0
    stated = set(content_words(spell_period_codes(text))) | named_measure_words(question, text)
    stated |= stated_period_words(question, text)  # a row's "2025: (31,740)" states "the first nine months of 2025"
    return len(wanted & stated) / len(wanted)


def says_what_is_asked(question: str, sentence: str, subject: str = "") -> bool:
    """Whether ``sentence`` holds a content word of the question other than those naming ``subject`` (the words of
    the question that name its document's subject, :func:`serving.answer.anchors.subject_names`): a sentence that
    only names the company ("The consolidated financial statements include the accounts of Meridian Ledger
    Systems, Inc.") says nothing about what is asked of it.

    >>> q = "Did Meridian Ledger Systems repurchase any of its own shares?"
    >>> says_what_is_asked(q, "The statements include the accounts of Meridian Ledger Systems, Inc.", "meridian ledger systems")
    False
    >>> says_what_is_asked(q, "In August 2023 the Board authorized a program to repurchase shares.", "meridian ledger systems")
    True
    """
    wanted = set(content_words(question)) - _NOT_COVERED - set(content_words(subject))
    return bool(wanted & set(content_words(spell_period_codes(sentence))))


class ExtractiveAnswerer:
    """Scores sentences with ``score`` (the cross-encoder stage: ``await score(question, texts)``) and
    decides answerability with ``model`` (:func:`resolve_answerability`)."""

    def __init__(self, settings: ExtractiveConfig, model: Answerability, score: Score) -> None:
        self.settings = settings
        self.model = model
        self.score = score

    def candidates(self, passages: Sequence[tuple[str, str, float]], question: str = "") -> list[tuple]:
        """``(n, start, end, sentence, header, passage score, table row or None)`` of the best passages' prose
        sentences and table rows (:func:`serving.answer.tables.table_rows`), within ``max_candidates``
        (passages taken best first; ``passages`` = (text, header, score), 1-based n); an auditor's report and
        a signature block's standard wording only when ``question`` is about them."""
        audit = asks_about_audit(question)
        order = sorted(range(len(passages)), key=lambda i: -passages[i][2])
        out = []
        for i in order:
            text, header, score = passages[i][:3]
            if is_reference_section(header):  # "See Also": a list of titles, never an answer
                continue
            rows = table_rows(text)
            found = [(row.start, row.end, _cut(row.sentence(), self.settings.max_sentence_chars), row) for row in rows]
            found += [(start, end, plain(sentence), None) for start, end, sentence in
                      sentences_of(text, self.settings.max_sentence_chars)
                      if not any(start < r.end and r.start < end for r in rows)]  # a row is quoted as a row only
            for start, end, sentence, row in sorted(found, key=lambda f: f[0]):
                if is_boilerplate(sentence):  # a cover page, contents line, legal notice or menu is never evidence
                    continue
                if not audit and is_audit_wording(sentence):  # "We have audited … as of December 31, 2024"
                    continue
                out.append((i + 1, start, end, sentence, header, score, row))
                if len(out) >= self.settings.max_candidates:
                    return out
        return out

    def features(self, question: str, scored: list[ScoredSentence]) -> dict[str, float]:
        """The answerability features of the ranked sentences (see :class:`Answerability`)."""
        top = scored[: self.settings.feature_sentences]
        best = max(s.coverage for s in top)
        focused = max(focus(question, f"{s.header} {s.text}") for s in top)
        value, missing, value_focus = best, 0.0, focused
        if expected_type(question) in CHECKED_VALUES:
            holding = [s for s in top if s.holds]
            value, missing = max((s.coverage for s in holding), default=0.0), 0.0 if holding else 1.0
            value_focus = max((focus(question, f"{s.header} {s.text}") for s in holding), default=0.0)
        short = len(focus_words(question)) <= 2
        return {"cross_encoder": max(s.cross_encoder for s in scored), "coverage": best,
                "value_coverage": value, "value_missing": missing, "focus": focused, "value_focus": value_focus,
                "short_gap": (1.0 - value_focus) if short else 0.0,
                "question_words": min(len(set(content_words(question))) / 10, 1.0)}

    def eligible(self, question: str, scored: list[ScoredSentence], passages: Sequence[tuple],
                 documents: dict[str, str] | None = None) -> tuple[list[ScoredSentence], list[str]]:
        """The sentences that may be quoted, best first, and the anchors the best one lacked when anchors
        ruled every sentence out: not a question (a heading or link title asks, never answers); for "how
        many X", one that names X; with ``require_anchors``, one whose passage (with its header, document
        path and title) names every anchor of the question, or for the name of its document's subject, another passage
        of its document does (:mod:`serving.answer.anchors`); and none that names
        other periods than the question asks about, none of its own (:func:`serving.answer.periods.conflicts`); for
        a question that asks for an amount or a share, one that states one."""
        eligible = [s for s in scored if not is_question(s.text)]
        kind = expected_type(question)
        wanted = periods(question) if kind in ("quantity", "number") else None
        if wanted:  # "revenue in the third quarter of 2024" is not answered by the fourth quarter's figure
            eligible = [s for s in eligible if not conflicts(wanted, own_periods(s.text))]
        if wanted and wanted.dates:  # a sentence that names no day speaks of its document's period (its cover's day)
            eligible = [s for s in eligible if not _other_period_document(wanted, s, passages)]
        asked_years = (wanted if wanted is not None else periods(question)).years - document_years(question)
        if asked_years:  # nor does one that names no period at all (its report's year), whatever is asked
            eligible = [s for s in eligible if not _other_year_document(asked_years, s, passages)]
        if kind == "quantity":  # an amount is asked: a sentence without one does not answer
            eligible = [s for s in eligible if s.holds]
        if kind in _AGREEING:  # a figure for Dayton does not answer for Eindhoven
            eligible = [s for s in eligible if not elsewhere(question, s.text)]
        if kind in ("quantity", "number"):  # nor does one for the whole company, unless its document is about the place
            eligible = [s for s in eligible
                        if names_places(question, f"{s.header} {_where(passages[s.n - 1])} {s.text}")]
        if kind in ("quantity", "number"):  # "R&D spend" is answered by a sentence about R&D, not by one beside it
            for acronym in acronyms(question, joined_only=True):
                eligible = [s for s in eligible if names_acronym(acronym, f"{s.header} {s.text}")]
        noun = counted_noun(question)
        if noun is not None:
            eligible = [s for s in eligible if names_counted(noun, s.text)]
        if _ASKS_OUTLOOK.search(question):  # "2025 net sales guidance" is not answered by the net sales reported
            eligible = [s for s in eligible if _STATES_OUTLOOK.search(f"{s.header} {s.text}")]
        if not (self.settings.require_anchors and anchors(question)):
            return eligible, []

        documents = _documents(passages) if documents is None else documents

        def lacks(s: ScoredSentence) -> list[str]:
            passage = passages[s.n - 1]
            where = _where(passage)
            return missing_anchors(question, f"{s.header} {where} {passage[0]}", documents[where], where)

        anchored = [s for s in eligible if not lacks(s)]
        return anchored, (lacks(eligible[0]) if eligible and not anchored else [])

    async def answer(self, question: str, passages: Sequence[tuple]) -> ExtractiveAnswer:
        """Quote the best sentences of ``passages`` ((text, header, score[, where]) each, numbered from 1;
        ``where``: the document's path and title, which count for the question's anchors). A message that asks
        several questions (:func:`questions_in`) gets each answered on its own, the answers joined, and a note
        naming the ones the passages do not answer; it is refused only when none is answered."""
        parts = questions_in(question)
        if len(parts) == 1:
            return await self._answer_one(parts[0], passages, question)
        return _joined(parts, [await self._answer_one(part, passages, question) for part in parts])

    async def _answer_one(self, question: str, passages: Sequence[tuple], message: str = "") -> ExtractiveAnswer:
        """``message``: the whole message, with the unit it asks the answer in ("(in USD thousands)")."""
        found = self.candidates(passages, question)
        if not found:
            return ExtractiveAnswer(answerable=False, score=None, threshold=self.model.threshold)
        inputs = [f"{f[4]}\n{f[3]}" if f[4] else f[3] for f in found]
        logits = await self.score(question, inputs)
        st = self.settings
        kind = expected_type(question)
        checked = kind is not None
        documents = _documents(passages)  # a document's subject is named once for all its passages (its cover)
        subjects = {where: " ".join(subject_names(question, text, where)) for where, text in documents.items()}
        measured = asks_measure(question)  # "top line", "net sales": a measure asked
        ranked = []
        for f, c, ce, ps in zip(found, logits, minmax(logits), minmax([f[5] for f in found])):
            covered = coverage(question, f"{f[4]} {subjects[_where(passages[f[0] - 1])]} {f[3]}")
            row = f[6]
            holds = checked and (holds_value(question, f[3]) if row is None else row_value(question, row) is not None)
            if holds and measured and row is None and not (financial_nouns(f[3]) or financial_nouns(f[4])):
                holds = False  # "restructuring charges of $2.2 million" is no revenue, nor is its section ("Restructuring")
            score = (st.cross_encoder_weight * ce + st.passage_weight * ps + st.coverage_weight * covered
                     + st.sentence_coverage_weight * coverage(question, f[3]) + (st.value_weight if holds else 0.0))
            ranked.append(ScoredSentence(n=f[0], start=f[1], end=f[2], text=f[3], header=f[4], cross_encoder=float(c),
                                         score=score, coverage=covered, holds=holds, row=row))
        scored = sorted(ranked, key=lambda s: -s.score)
        eligible, missing = self.eligible(question, scored, passages, documents)
        # Answerability is judged on the sentences that could be quoted: a heading that asks, a count of
        # something else, a sentence about another country cannot make a question answerable.
        features = self.features(question, eligible or scored)
        z, answerable = self.model.decide(features)
        result = ExtractiveAnswer(answerable=answerable and bool(eligible), score=round(z, 4),
                                  threshold=self.model.threshold, features={k: round(v, 4) for k, v in features.items()},
                                  scored=len(scored), missing_anchors=missing if not eligible else [],
                                  unquotable=not eligible)
        if not result.answerable:
            return result
        if kind in ("quantity", "number"):  # "international revenue": not the "Total revenue" row beside "International"
            eligible = _without_unnamed_rows(question, eligible, scored)
            if not eligible:  # the row the question names does not hold the figure: no other row answers for it
                result.answerable, result.unquotable = False, True
                return result
        scored = eligible
        if kind in CHECKED_VALUES:  # a sentence that states the kind of value asked leads
            scored = [s for s in eligible if s.holds] + [s for s in eligible if not s.holds]
        scored = _named_rows_first(question, scored)
        term = defined_term(question)  # "How does the agreement define X?": the sentence that defines X leads
        defining = [s for s in scored if defines(term, s.text)] if term is not None else []
        if defining:
            scored = defining + [s for s in scored if not any(s is d for d in defining)]
        best = scored[0]
        value = _value(question, best) if kind in _AGREEING else None
        chosen = [best]
        # a definition is quoted alone: the sentences beside it define other terms, other passages only use it
        for s in [] if defining else scored[1:]:
            if len(chosen) >= self.settings.max_sentences:
                break
            subject = subjects[_where(passages[s.n - 1])]
            if s.score >= self.settings.relative_cutoff * best.score and s.text not in {c.text for c in chosen} \
                    and (s.n == best.n or says_what_is_asked(question, s.text, subject)
                         and (value is None or same_value(value, _value(question, s) or ""))):
                chosen.append(s)  # another passage's must say what is asked, and state the same figure as the best
        result.sentences = chosen
        result.answer = " ".join(_quote(s) for s in chosen)
        figure = row_value(question, best.row) if best.row is not None else None
        figure = stated_figure(message or question, best.row, figure) if figure else None  # 882,114 in thousands: $882.1 million
        result.answer_value = figure or answer_span(question, [s.text for s in chosen])
        return result


#: A question about what a company expects, and the words of a sentence that states an expectation.
_ASKS_OUTLOOK = re.compile(r"\b(?:guidance|outlook|forecasts?)\b", re.IGNORECASE)
_STATES_OUTLOOK = re.compile(r"\b(?:guidance|guid(?:e[sd]?|ing)|outlook|forecast\w*|expect\w*|anticipat\w*|project(?:s|ed|ions?)|"
                             r"estimate[sd]?|plan(?:s|ned)? to|target(?:s|ed)?)\b", re.IGNORECASE)


def _named_rows_first(question: str, scored: list[ScoredSentence]) -> list[ScoredSentence]:
    """``scored`` with the table rows whose label the question names whole moved ahead of the other rows of their
    passage: "audit fees" asks for the "Audit Fees" row, not "Audit-Related Fees"; "revenue of the Payments segment"
    for the "Payments" row, not "Total revenue" ("provision for income taxes" still asks for its own row, not
    "Income before income taxes").

    >>> from serving.answer.tables import table_rows
    >>> rows = table_rows("Fees | 2024 ($)\\nAudit Fees | 2,418,000\\nAudit-Related Fees | 118,000")
    >>> s = [ScoredSentence(1, 0, 0, r.label, "", 0.0, 0.0, row=r) for r in reversed(rows)]
    >>> [x.text for x in _named_rows_first("What were the 2024 audit fees?", s)]
    ['Audit Fees', 'Audit-Related Fees']
    """
    asked = set(content_words(question))
    named = {id(s) for s in scored if s.row is not None and (label := set(content_words(s.row.label))) and label <= asked}
    out = list(scored)
    for n in {s.n for s in scored if id(s) in named}:
        slots = [i for i, s in enumerate(out) if s.row is not None and s.n == n]
        rows = [out[i] for i in slots]
        for i, row in zip(slots, [r for r in rows if id(r) in named] + [r for r in rows if id(r) not in named]):
            out[i] = row
    return out


def _without_unnamed_rows(question: str, eligible: list[ScoredSentence],
                          scored: Sequence[ScoredSentence]) -> list[ScoredSentence]:
    """``eligible`` without the table rows the question does not name while another row of the same measure that it
    names whole is in the context (``scored``): for "international revenue in fiscal 2022" the row "International"
    answers (or, without a 2022 column, nothing does), never "Total revenue". A row whose label holds the named one's
    words stays ("Net loss per share" beside "Net loss"). The named rows are read once, not once per row.

    >>> from serving.answer.tables import table_rows
    >>> rows = table_rows("Revenue | 2024 | 2023\\nUnited States | $ 503 | $ 436\\nInternational | 82 | 65\\nTotal revenue | $ 585 | $ 501")
    >>> scored = [ScoredSentence(1, 0, 0, r.label, "", 0.0, 0.0, row=r) for r in rows]
    >>> [x.text for x in _without_unnamed_rows("What was international revenue in 2024?", scored, scored)]
    ['International']
    >>> [x.text for x in _without_unnamed_rows("What was total revenue in 2024?", scored, scored)]
    ['Total revenue']

    A question that names two rows by their names asks for the cell where they cross ("How much revenue did the
    Paddle segment earn in Europe?"), which a row of segments or of regions does not hold; a sentence may:

    >>> rows += table_rows("Net sales | 2024\\nPaddle | 73,191\\nCycling | 141,210\\nTotal net sales | 214,401")
    >>> scored = [ScoredSentence(1, 0, 0, r.label, "", 0.0, 0.0, row=r) for r in rows]
    >>> _without_unnamed_rows("What revenue did the Paddle segment earn in United States in 2024?", scored, scored)
    []
    """
    asked = set(content_words(question))
    named = []  # (label words, measures) of each row the question names whole
    for other in scored:
        if other.row is not None and (label := set(content_words(other.row.label))) and label <= asked:
            if measures := financial_nouns(other.row.measure) | financial_nouns(other.row.label):
                named.append((label, measures))
    if not named:
        return eligible
    named_by_name = {frozenset(label) for label, _ in named if label <= _anchor_words(question)}
    if len(named_by_name) > 1:  # "Paddle segment revenue … in Europe": a cell of two rows' crossing, which no row is
        eligible = [s for s in eligible if s.row is None or all(label <= set(content_words(s.row.label))
                                                                for label in named_by_name)]
    kept = []
    for s in eligible:
        if s.row is not None and not (own := set(content_words(s.row.label))) <= asked:
            mine = financial_nouns(s.row.measure) | financial_nouns(s.row.label)
            if mine and any(not label <= own and measures_agree(mine, theirs) for label, theirs in named):
                continue
        kept.append(s)
    return kept


def _anchor_words(question: str) -> set[str]:
    """The content words of the question's anchors (:func:`serving.answer.anchors.anchors`): the names it gives."""
    return {w for a in anchors(question) for w in content_words(a)}


def _other_period_document(wanted, s: "ScoredSentence", passages: Sequence[tuple]) -> bool:
    """Whether ``s`` names no day while the question does (the quarter ended June 30, 2025) and the document it is
    from reports on a period that ends in another month (its title: "Form 10-Q, quarterly period ended September 30,
    2025"): its "third quarter" and "nine months" are that period's, and a table row's days are in its head.

    >>> from serving.answer.periods import periods
    >>> q = periods("What were net sales for the quarter ended June 30, 2025?")
    >>> s = ScoredSentence(1, 0, 0, "Net sales rose 6.0% to $412.8 million in the third quarter.", "", 0.0, 0.0)
    >>> where = ("text", "header", 0.9, "hlbd.htm HALBERD, INC., Form 10-Q, quarterly period ended September 30, 2025")
    >>> _other_period_document(q, s, [where]), _other_period_document(periods("… as of September 30, 2025?"), s, [where])
    (True, False)
    """
    if s.row is not None or own_periods(s.text).dates:
        return False
    reported = periods(_where(passages[s.n - 1])).dates
    return bool(reported) and not {month for _, month in wanted.dates} & {month for _, month in reported}


#: The period a filing's title says it reports on: "Form 10-K, fiscal year ended June 30, 2024".
_REPORTED = re.compile(r"\b(?:fiscal year|quarterly period|transition period|year|period) ended\s+[^,]{0,20},?\s*(?:19|20)\d\d\b",
                       re.IGNORECASE)


def _other_year_document(years: set[int], s: "ScoredSentence", passages: Sequence[tuple]) -> bool:
    """Whether ``s`` and its section name no period at all while its document's title reports on a year other than
    ``years`` (the years the question asks about, not those naming a document: "the 2025 credit agreement"). In a
    "Form 10-K, fiscal year ended December 31, 2024", "The weighted-average grant-date fair value of restricted stock
    units granted during the year was $68.42" is 2024's, not 2023's. A document whose title names no reporting period
    (a proxy statement, an 8-K dated when it was filed) is not read so.

    >>> import dataclasses
    >>> title = "NORTHWIND, INC., Form 10-K, fiscal year ended December 31, 2024"
    >>> s = ScoredSentence(1, 0, 0, "The fair value of units granted during the year was $68.42 per share.",
    ...                    f"{title} › Note 9", 0.0, 0.0)
    >>> tenk = ("text", "header", 0.9, f"nw.pdf {title}")
    >>> eightk = ("text", "header", 0.9, "lksh.htm LAKESHORE, INC., Form 8-K, February 26, 2025")
    >>> q = {2023}
    >>> _other_year_document(q, s, [tenk]), _other_year_document({2024}, s, [tenk])
    (True, False)
    >>> _other_year_document(q, s, [eightk])
    False
    >>> _other_year_document(q, dataclasses.replace(s, header=f"{title} › Fiscal 2023 Compared with Fiscal 2022"), [tenk])
    False
    """
    reported = _REPORTED.search(_where(passages[s.n - 1]))
    if reported is None or s.row is not None or own_periods(s.text):
        return False
    if periods(s.header.replace(reported.group(0), "")):  # its section's ("Fiscal 2023 Compared with Fiscal 2022")
        return False
    return not years & periods(reported.group(0)).years


def _where(passage: tuple) -> str:
    """A passage's document: its path and title (empty when the caller gave none)."""
    return " ".join(str(x) for x in passage[3:])


def _documents(passages: Sequence[tuple]) -> dict[str, str]:
    """The text of each document's passages in the context, by :func:`_where`."""
    out: dict[str, list[str]] = {}
    for passage in passages:
        out.setdefault(_where(passage), []).append(passage[0])
    return {where: " ".join(texts) for where, texts in out.items()}


#: Kinds of short answer where a sentence of another passage than the best one's is quoted only if it states the same
#: value: quoted beside "$118.3 million", one that states another figure (or none) answers another question.
_AGREEING = CHECKED_VALUES | {"quantity", "yes/no"}


def _value(question: str, s: ScoredSentence) -> str | None:
    """The short answer ``s`` gives on its own (a table row's cell for the asked period, else the sentence's span)."""
    return row_value(question, s.row) if s.row is not None else answer_span(question, [s.text])


def _joined(parts: list[str], answers: list[ExtractiveAnswer]) -> ExtractiveAnswer:
    """One answer to several questions: the answered ones' quotes in question order (a sentence quoted once),
    the short answer when only one is answered, the best answered one's score and features, and a note naming
    the questions left unanswered. None answered: the refusal of the one that came closest."""
    answered = [a for a in answers if a.answerable]
    if not answered:
        return max(answers, key=lambda a: -1e9 if a.score is None else a.score)
    sentences: list[ScoredSentence] = []
    for a in answered:
        sentences += [s for s in a.sentences if s.text not in {t.text for t in sentences}]
    best = max(answered, key=lambda a: a.score or 0.0)
    unanswered = [q for q, a in zip(parts, answers) if not a.answerable]
    return ExtractiveAnswer(
        answerable=True, score=best.score, threshold=best.threshold, features=best.features, sentences=sentences,
        answer=" ".join(_quote(s) for s in sentences),
        answer_value=answered[0].answer_value if len(answered) == 1 else None,
        scored=max(a.scored for a in answers),
        note=(f"answered {len(answered)} of {len(parts)} questions; the passages do not answer: "
              + " | ".join(unanswered)) if unanswered else None)


def _quote(s: ScoredSentence) -> str:
    """The sentence verbatim with its citation before the final full stop: ``text [n].``"""
    text = s.text.rstrip()
    if text.endswith((".", "!", "?")):
        return f"{text[:-1].rstrip()} [{s.n}]{text[-1]}"
    return f"{text} [{s.n}]."


def header_for(path: str, section_path: str, title: str = "") -> str:
    """The header a sentence is scored with (as the cross-encoder was trained: title › section path)."""
    return header_of(title or path, section_path)
