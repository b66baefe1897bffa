"""The verifier's deterministic checks: citations point at given passages, cited passages support
the sentences citing them (lexical overlap + embedding similarity), enough sentences carry a
citation, the short answer value appears in a cited passage (a figure also at another scale: "$882.1 million" is
a table's 882,114 in thousands, :func:`same_value`), the length is sane. The LLM judgment
is added by the answer service (:mod:`serving.services.answer`) and combined in :func:`final_verdict`.

>>> content_words("The EPOLLET flag requests edge-triggered notification.")
['epollet', 'flag', 'request', 'edge', 'trigger', 'notification']

Support of a sentence by a passage (:func:`support_scores`, shared with the citation attributor
:mod:`serving.answer.attribution`) = ``w·lexical + (1-w)·max(semantic, 0)``: ``lexical`` is the share of
the sentence's content words the passage contains, ``semantic`` the best embedding similarity of the
sentence to a 3-sentence window of the passage. A sentence without content words ("It is so.") has
support 0: it can never be supported, whatever it cites.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cluster.config import AnswerConfig
from serving.answer.citations import cited_sentences
from serving.answer.forms import WriterForm
from serving.protocol import LLMJudgment, SentenceCheck, Verification

Embed = Callable[[list[str]], Awaitable[list[np.ndarray]]]

#: A word in any script (``\\w`` is Unicode-aware: Arabic, Cyrillic, accented Latin …); identifiers keep their dots.
_WORD = re.compile(r"\w[\w.:/+-]*\w|[^\W_]")
#: A figure joined to its unit by a hyphen: "32-bit", "4-byte", "10-minute".
_MEASURE = re.compile(r"^\d+(?:[.,]\d+)?-([^\W\d_]{2,})$")
STOPWORDS = frozenset("""
a an the and or but if then else of to in on at by for with from into onto over under as is are was were be been
being it its this that these those there here which who whom whose what when where why how can could should would
may might must will shall do does did done has have had having not no nor so than too very just also only such
own same other any each few more most some all both i you he she we they me him her us them my your our their
about above after again against below between during before through until up down out off once further
whats hows wheres whos whens whys dont doesnt didnt isnt arent wasnt werent couldnt wouldnt shouldnt hasnt havent
hadnt doesn don didn isn aren wasn weren couldn wouldn shouldn hasn haven hadn im ive youre theyre
""".split()) | frozenset(  # Arabic question and function words (as :func:`normalize` writes them)
    "ما ماذا بماذا لماذا من هو هي هم متى اين كيف لم هل كم بكم اي في على عن الى مع او و ثم ان انه انها كان كانت "
    "يكون تكون الذي التي اللتي الذين هذا هذه ذلك تلك هناك قد لا لن بين عند منذ حتى كل بعض غير تم".replace("ى", "ي").split())


_ARABIC = re.compile(r"[\u0600-\u06FF]")


@lru_cache(maxsize=1)
def _arabic_stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("arabic")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """English: a few inflections off (``requests`` → ``request``); Arabic: Snowball's Arabic stemmer, which
    takes the clitics off too (``بالمدينة``, ``المدينة`` → ``مدين``), so a question's word meets its
    passage's whatever article or preposition is attached.

    A conjunction before the article (``والمدينة``, ``فالمدينة``), which the Snowball stemmer keeps, comes
    off first.

    >>> _stem("triggered"), _stem("بالمدينة") == _stem("مدينة"), _stem("والولايات") == _stem("الولايات")
    ('trigger', True, True)
    """
    if _ARABIC.search(word):
        if word[:1] in ("و", "ف") and word[1:3] == "ال" and len(word) >= 6:
            word = word[1:]
        return _arabic_stemmer().stemWord(word)
    for suffix, keep in (("ings", 4), ("ing", 4), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[: -len(suffix)]
    return word


#: Arabic letters written for one another: alif maqsura for ya (فى / في, على / علي), the Persian forms of kaf and ya.
_ARABIC_VARIANTS = str.maketrans({"\u0649": "\u064a", "\u06a9": "\u0643", "\u06cc": "\u064a"})


_DIGIT_LETTER = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def unglue(text: str) -> str:
    """``text`` with a space between a figure and a letter of a script without case (Arabic, Hebrew, CJK …)
    written against it, a typing slip those scripts make often ("1953الى"); Latin identifiers keep theirs.

    >>> unglue("من 1953الى 1964"), unglue("x86 and 2.10h in Q3")
    ('من 1953 الى 1964', 'x86 and 2.10h in Q3')
    """
    if text.isascii():
        return text

    def cut(match: re.Match) -> str:
        at = match.start()
        letter = text[at] if text[at - 1].isdigit() else text[at - 1]
        return " " if letter.lower() == letter.upper() else ""

    return _DIGIT_LETTER.sub(cut, text)


def normalize(text: str) -> str:
    """``text`` case-folded without its combining marks (accents, Arabic short vowels and hamza seats,
    the tatweel), so that words of any script compare as their readers would.

    >>> normalize("Gödel's café"), normalize("أَهَمِّيَّة") == normalize("اهمية")
    ("godel's cafe", True)
    """
    if text.isascii():
        return text.casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", unglue(text)) if not unicodedata.combining(c) and c != "\u0640")
    return text.translate(_ARABIC_VARIANTS).casefold()


def content_words(text: str) -> list[str]:
    """Case-folded, lightly stemmed content words of any script (:func:`normalize`); identifiers like
    ``EPOLL_CTL_ADD`` stay whole.

    >>> content_words("ما هي أهمية مكة المكرمة؟"), content_words("Où est né Kurt Gödel ?")
    (['اهم', 'مكة', 'مكرم'], ['ou', 'est', 'ne', 'kurt', 'godel'])
    >>> content_words("a 32-bit hash code")
    ['32-bit', 'bit', 'hash', 'code']
    >>> content_words("What's Gödel's theorem? Why doesn't it hold?"), content_words("whats the default")
    (['godel', 'theorem', 'hold'], ['default'])
    """
    words = []
    for token in _WORD.findall(_CLITIC.sub("", normalize(text))):
        parts = [token] if re.search(r"[_./:+]|\d", token) else token.split("-")
        unit = _MEASURE.match(token)
        if unit:  # "32-bit", "64-byte", "10-minute": the figure and its unit ("how many bits")
            parts = [token, unit.group(1)]
        for part in parts:
            low = part.strip(".:/+-")
            if low and low not in STOPWORDS:
                word = _stem(low) if not re.search(r"[_./:+]|\d", low) else low
                if word in STOPWORDS and _ARABIC.search(word):
                    continue  # a function word with a pronoun on it: غيره, عليه
                words.append(word)
    return words


#: An English clitic after a word: the possessive and the contracted verbs ("Gödel's", "what's", "doesn't" → "doesn").
_CLITIC = re.compile(r"(?<=[^\W_])['’](?:s|t|d|ll|re|ve|m)\b")


def lexical_support(sentence: str, passage: str) -> float:
    """Share of the sentence's distinct content words that the passage contains; 0.0 for a sentence
    without content words (it states nothing a passage could support).

    >>> lexical_support("EPOLLET requests edge-triggered mode.", "EPOLLET requests edge-triggered notification.")
    0.8
    >>> lexical_support("It is so.", "EPOLLET requests edge-triggered notification.")
    0.0
    """
    words = set(content_words(sentence))
    if not words:
        return 0.0
    vocabulary = set(content_words(passage))
    return len(words & vocabulary) / len(words)


def combine_support(sentence: str, lexical: float, semantic: float, lexical_weight: float) -> float:
    """Support = ``w·lexical + (1-w)·max(semantic, 0)``; 0.0 when ``sentence`` has no content words.

    >>> combine_support("EPOLLET is edge-triggered.", 1.0, 0.6, 0.5)
    0.8
    >>> combine_support("It is so.", 0.0, 0.9, 0.5)
    0.0
    """
    if not content_words(sentence):
        return 0.0
    return lexical_weight * lexical + (1 - lexical_weight) * max(semantic, 0.0)


@dataclass(frozen=True)
class Support:
    """How well one passage supports one sentence (see :func:`combine_support`)."""

    lexical: float
    semantic: float
    support: float


async def support_scores(sentences: Sequence[str], passages: Sequence[str], embed: Embed, *, lexical_weight: float,
                         candidates: Sequence[Iterable[int]] | None = None) -> list[dict[int, Support]]:
    """The support of each sentence by each of its candidate passages (1-based numbers).

    ``candidates[i]`` lists the passage numbers to score sentence ``i`` against (numbers outside
    ``1..len(passages)`` are skipped); None scores every sentence against every passage. The sentences
    and the 3-sentence :func:`windows` of the passages needed are embedded in ONE ``embed`` call (none
    when nothing is to be scored); ``embed`` returns unit-norm vectors.

    >>> import asyncio, numpy as np
    >>> async def embed(texts):  # a stand-in: every text gets the same vector
    ...     return [np.array([1.0, 0.0]) for _ in texts]
    >>> rows = asyncio.run(support_scores(["EPOLLET is edge-triggered by default.", "It is so."],
    ...                                   ["EPOLLET requests edge-triggered notification."], embed, lexical_weight=0.5))
    >>> s = rows[0][1]
    >>> round(s.lexical, 4), round(s.semantic, 4), round(s.support, 4)
    (0.75, 1.0, 0.875)
    >>> rows[1][1].support  # no content words: never supported
    0.0
    """
    n_passages = len(passages)
    wanted = [sorted({n for n in (range(1, n_passages + 1) if candidates is None else candidates[i])
                      if 1 <= n <= n_passages}) for i in range(len(sentences))]
    needed = sorted({n for row in wanted for n in row})
    if not needed:
        return [{} for _ in sentences]
    scored = [i for i, row in enumerate(wanted) if row]
    passage_windows = {n: windows(passages[n - 1]) if passages[n - 1].strip() else [] for n in needed}
    texts = [sentences[i] for i in scored] + [w for n in needed for w in passage_windows[n]]
    vectors = await embed(texts)
    sentence_vecs = {i: vectors[k] for k, i in enumerate(scored)}
    window_vecs: dict[int, np.ndarray] = {}
    offset = len(scored)
    for n in needed:
        k = len(passage_windows[n])
        window_vecs[n] = np.stack(vectors[offset: offset + k]) if k else np.zeros((0, 1))
        offset += k
    out: list[dict[int, Support]] = []
    for i, sentence in enumerate(sentences):
        row: dict[int, Support] = {}
        for n in wanted[i]:
            lexical = lexical_support(sentence, passages[n - 1])
            semantic = float(np.max(window_vecs[n] @ sentence_vecs[i])) if len(window_vecs[n]) else 0.0
            support = combine_support(sentence, lexical, semantic, lexical_weight)
            row[n] = Support(lexical, semantic, support)
        out.append(row)
    return out


def windows(text: str, size: int = 3) -> list[str]:
    """Overlapping windows of ``size`` sentences (what one sentence of an answer paraphrases)."""
    from pipelines.chunk.sentences import split_sentences

    spans = [text[s:e].strip() for s, e in split_sentences(text)] or [text]
    if len(spans) <= size:
        return [" ".join(spans)]
    return [" ".join(spans[i: i + size]) for i in range(0, len(spans) - size + 1, max(1, size - 1))]


_FIGURE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def same_value(a: str, b: str) -> bool:
    """Whether two short answers state the same value: the same figure at any scale of a thousand
    ("$118.3 million", "118,300" in a table in thousands: the shorter one rounded), else the same words.

    >>> same_value("$118.3 million", "$ 118,300"), same_value("882,114", "$882.1 million")
    (True, True)
    >>> same_value("$ (70,193)", "$70.2 million"), same_value("$401.9 million", "$376.2 million")
    (True, False)
    >>> same_value("EPOLLET", "epollet"), same_value("March 14, 2030", "2030"), same_value("12", "twelve")
    (True, False, False)
    """
    fa, fb = _FIGURE.search(a), _FIGURE.search(b)
    if fa and fb:
        x, y = (float(m.group(0).replace(",", "")) for m in (fa, fb))
        if x == y:
            return _words(a) == _words(b) or not (re.search(r"[A-Za-z]", a) and re.search(r"[A-Za-z]", b))
        places = lambda m: len(m.group(0).split(".")[1]) if "." in m.group(0) else 0  # noqa: E731
        for scale in (1e3, 1e6, 1e9):
            for small, big, m in ((x, y, fa), (y, x, fb)):
                if small and abs(small * scale - big) <= 0.5 * scale * 10 ** -places(m) * (1 + 1e-9):
                    return True
        return False
    if fa or fb:
        return False
    return _words(a) == _words(b)


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


#: A figure with the scale it is stated in: "882.1 million", "($9.8 million)".
_SCALED = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?\s*(?:thousand|million|billion)\b", re.IGNORECASE)


def value_in_passages(value: str, passages: Sequence[str]) -> bool:
    """The short answer value (all of its content words, or its literal text) occurs in a passage. A bare
    "Yes" or "No" is a judgment of the answer's sentences, not a quoted value: their support is checked,
    so it counts as present.

    >>> value_in_passages("1996-10-05", ["He died on 1996-10-05."]), value_in_passages("Yes", ["It became part of IBM."])
    (True, True)
    >>> value_in_passages("1997", ["He died on 1996-10-05."])
    False

    A figure stated at another scale is the same figure: a table "(in thousands)" holds "$882.1 million" as 882,114.

    >>> value_in_passages("$882.1 million", ["(In thousands) | 2024\\nCash | 882,114"]), value_in_passages("$882.1 million", ["Cash | 796,430"])
    (True, False)
    """
    value = value.strip()
    if not value:
        return False
    if value.lower().rstrip(".") in ("yes", "no"):
        return True
    words = set(content_words(value))
    scaled = _SCALED.search(value)  # "$882.1 million" from a table's "882,114" in thousands
    for passage in passages:
        if value.lower() in passage.lower():
            return True
        if words and words <= set(content_words(passage)):
            return True
        if scaled and any(same_value(scaled.group(0), f.group(0)) for f in _FIGURE.finditer(passage)):
            return True
    return False


async def check_answer(form: WriterForm, passages: Sequence[str], embed: Embed, settings: AnswerConfig) -> Verification:
    """Run the deterministic checks of ``form`` against the numbered ``passages`` (1-based)."""
    if form.is_blank or not form.answer.strip():
        return Verification(verdict="blank", reasons=["the writer found no answer in the passages"])
    reasons: list[str] = []
    sentences = cited_sentences(form.answer)
    cited_anywhere = [n for s in sentences for n in s.cited]
    invalid = sorted({n for n in cited_anywhere + list(form.cited_ids) if not 1 <= n <= len(passages)})
    if invalid:
        reasons.append(f"citation(s) {invalid} point at no provided passage (1–{len(passages)})")
    length_ok = len(form.answer) <= settings.max_answer_chars
    if not length_ok:
        reasons.append(f"answer is {len(form.answer)} characters; the limit is {settings.max_answer_chars}")

    # Lexical overlap + embedding similarity of each sentence to the passages it cites (one embed call).
    scores = await support_scores([s.text for s in sentences], passages, embed,
                                  lexical_weight=settings.lexical_weight, candidates=[s.cited for s in sentences])
    checks: list[SentenceCheck] = []
    for sentence, row in zip(sentences, scores):
        # the best lexical overlap and the best similarity among the cited passages, combined
        lexical = max((s.lexical for s in row.values()), default=0.0)
        semantic = max((s.semantic for s in row.values()), default=0.0)
        support = combine_support(sentence.text, lexical, semantic, settings.lexical_weight)
        checks.append(SentenceCheck(text=sentence.text, cited=sentence.cited, lexical=round(lexical, 4),
                                    semantic=round(semantic, 4), support=round(support, 4),
                                    supported=bool(row) and support >= settings.min_support))
    n = max(len(checks), 1)
    coverage = sum(1 for c in checks if c.cited) / n
    supported_share = sum(1 for c in checks if c.supported) / n
    mean_support = sum(c.support for c in checks) / n
    if coverage < settings.min_citation_coverage:
        reasons.append(f"only {coverage:.0%} of the sentences cite a passage (need {settings.min_citation_coverage:.0%})")
    if supported_share < settings.min_supported_share:
        weak = [c.text[:80] for c in checks if not c.supported][:3]
        reasons.append(f"only {supported_share:.0%} of the sentences are supported by their citations "
                       f"(need {settings.min_supported_share:.0%}); unsupported: {weak}")
    cited_texts = [passages[n - 1] for n in dict.fromkeys(cited_anywhere + list(form.cited_ids)) if 1 <= n <= len(passages)]
    value_supported = value_in_passages(form.answer_value, cited_texts) if form.answer_value.strip() else None
    if value_supported is False:
        reasons.append(f"the answer value {form.answer_value[:80]!r} appears in no cited passage")
    return Verification(
        verdict="fail" if reasons else "pass", reasons=reasons, citations_valid=not invalid,
        invalid_citations=invalid, citation_coverage=round(coverage, 4), supported_share=round(supported_share, 4),
        mean_support=round(mean_support, 4), value_supported=value_supported, length_ok=length_ok, sentences=checks)


def final_verdict(verification: Verification, judgment: LLMJudgment) -> Verification:
    """Add the LLM judgment; in ``required`` mode a negative judgment fails the answer."""
    out = verification.model_copy(update={"llm": judgment})
    if judgment.mode == "required" and verification.verdict == "pass" and judgment.supported is False:
        out.verdict = "fail"
        out.reasons = [*out.reasons, f"the verifier model judged the answer unsupported: {judgment.reason[:200]}"]
    return out
