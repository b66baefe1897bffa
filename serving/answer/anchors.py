"""The question's anchors: the words that name *which* thing it asks about — proper names (Japan, Tesla,
PostgreSQL), acronyms (UK, GDP), identifiers (``O_NONBLOCK``, ``epoll_wait``) and figures (2024, 2.5.7).

An answer whose evidence does not mention every anchor answers another question: "What was Japan's
unemployment rate in August?" is not answered by "China's youth unemployment rate rose to 18.9% in
August", however on topic. The extractive answerer quotes only a sentence whose passage (its own text
and its title › section path) names every anchor, and refuses when none does, saying which anchor the
passages lack. The rule needs no training data, so it holds on corpora nobody calibrated on (the
answerability model was fitted on one corpus of manual pages).

>>> anchors("What was Japan's unemployment rate in August?")
['japan']
>>> anchors("In which Linux version was initial futex support merged?")
['linux']
>>> anchors("What does O_NONBLOCK do for epoll_wait in 2.6.8?")
['o_nonblock', 'epoll_wait', '2.6.8']
>>> anchors("How much did the Dow Jones gain in 2024?"), anchors("What is UK GDP growth?")
(['dow', 'jones', '2024'], ['uk', 'gdp'])
>>> missing_anchors("What was Japan's unemployment rate?", "China's unemployment rate rose to 5.3%.")
['japan']
>>> missing_anchors("What was Brazil's unemployment rate?", "In Brazil, unemployment fell to 5.6% in July.")
[]
>>> anchors("Where was Kurt Gödel born?"), missing_anchors("When did Gödel die?", "Kurt Godel died in 1978.")
(['kurt', 'godel'], [])
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from serving.analysis.period_codes import code_year
from serving.answer.verify import content_words, normalize, unglue

__all__ = ["acronyms", "anchors", "counted_noun", "elsewhere", "is_question", "missing_anchors", "names_acronym",
           "names_counted", "names_places", "spells", "subject_names"]

_TOKEN = re.compile(r"[^\W_][\w.:+/-]*[\w+]|[^\W_]")  # any script: Gödel, Zürich, Москва
#: Capitalised words that start or shape a question rather than name a thing.
_QUESTION_WORDS = frozenset("""
what which who whom whose when where why how is are was were do does did can could should would will shall
may might must has have had in on at for of to from by with the a an and or if as per according name list
give tell explain describe compare
""".split())
#: Months and weekdays are dates, not things: a sentence that states the figure for "August" often says
#: "last month" or gives the date in a table, and the question's topic words carry the rest.
_CALENDAR = frozenset("""
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
""".split())
_FIGURE = re.compile(r"^\d+(?:[.,]\d+)*$")
#: Currency codes name the unit a figure is asked in ("net sales (in USD thousands)"), not what it is about.
_CURRENCY_CODES = frozenset("usd eur gbp jpy cny rmb chf cad aud inr krw hkd sgd sek nok dkk brl mxn zar".split())


def _normal(token: str) -> str:
    token = token.strip(".:/-")
    for suffix in ("'s", "’s"):
        if token.endswith(suffix):
            token = token[: -len(suffix)]
    return normalize(token)


def _shouted(text: str) -> bool:
    """A question typed in capitals ("HOW DO I COMPRESS A FILE?"): its case says nothing about names."""
    letters = [c for c in text if c.isalpha() and c.lower() != c.upper()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def anchors(question: str) -> list[str]:
    """The question's anchors, lower-cased, in order (see the module docstring). A question typed in capitals
    keeps only its identifiers and figures: every word of it looks like an acronym.

    >>> anchors("HOW DO I COMPRESS A FILE WITH BZIP2 IN 2024?"), anchors("IS THE UK GDP UP?")
    (['bzip2', '2024'], [])

    A period code is its year or nothing, and a currency code is a unit:

    >>> anchors("What was Globex's FY24 net sales (in USD thousands)?"), anchors("What was the Q1 2025 tax rate?")
    (['globex', '2024'], ['2025'])
    >>> anchors("What were Globex's SG&A expenses?"), missing_anchors("What were SG&A expenses?", "SG&A | 219,066")
    (['sg&a', 'globex'], [])
    """
    return list(_anchors(question))


@lru_cache(maxsize=512)
def _anchors(question: str) -> tuple[str, ...]:
    """:func:`anchors`, once per question (the answer path asks for each candidate sentence)."""
    out: list[str] = []
    text = unglue(unicodedata.normalize("NFC", question).replace("’", "'"))
    cased = not _shouted(text)
    if cased:  # "SG&A", "PP&E", "R&D": one acronym, not its letters
        out += list(dict.fromkeys(m.group(0).lower() for m in _AMPERSAND_ACRONYM.finditer(text)))
        text = _AMPERSAND_ACRONYM.sub(" ", text)
    for i, match in enumerate(_TOKEN.finditer(text)):
        token = match.group(0)
        word = _normal(token)
        if not word or word in out or word in _CALENDAR:
            continue
        year = code_year(token.strip(".:/-"))  # a period code: its year, or nothing (a quarter is left to periods)
        if year is not None:
            if year and year not in out:
                out.append(year)
            continue
        if word in _CURRENCY_CODES:
            continue
        identifier = bool(re.search(r"[_.:/+]|\d", token)) and not _FIGURE.match(token)
        acronym = cased and len(token) >= 2 and token.isupper() and token.isalpha()
        proper = cased and token[0].isupper() and i > 0 and word not in _QUESTION_WORDS and len(word) >= 2
        figure = bool(_FIGURE.match(token)) and (len(token) >= 3 or "." in token)
        if identifier or acronym or proper or figure:
            out.append(word)
    return tuple(out)


def missing_anchors(question: str, evidence: str, document: str = "", subject: str = "") -> list[str]:
    """The anchors of ``question`` that ``evidence`` (a sentence with its passage and header) does not
    contain as a word (case-insensitive; a possessive counts). The name of the document's subject may be found in
    ``document`` instead (the rest of the evidence's document that the context holds): a long document names its
    subject on its cover and says "the Borrower" or "we" on page 40. A name is the subject when a word of it is in
    ``subject`` (the document's path and title), and so may a year that names the document ("the 2025 credit
    agreement"); other figures and identifiers always need the evidence.

    >>> q = "What share of the commitments does Ohio Valley Bank hold under Northwind Precision's credit agreement?"
    >>> cover, path = "among NORTHWIND PRECISION, INC., as the Borrower", "northwind_credit_agreement.pdf"
    >>> missing_anchors(q, "Ohio Valley Bank | 17.5%"), missing_anchors(q, "Ohio Valley Bank | 17.5%", cover, path)
    (['northwind', 'precision'], [])
    >>> missing_anchors("What was Lakeshore's VELORA revenue?", "Product revenue | 104,812",
    ...                 "Lakeshore's VELORA sales rose.", "lakeshore_8k.htm Lakeshore Therapeutics 8-K")
    ['velora']
    """
    missing = [a for a in anchors(question) if a not in _words(evidence)]
    if missing:  # an acronym the evidence spells out: "SG&A" is "selling, general and administrative"
        spelled = acronyms(question)
        missing = [a for a in missing if not (a in spelled and spells(a, evidence))]
    if missing and document and subject:
        named = set(subject_names(question, document, subject)) | _document_years(question, document)
        missing = [a for a in missing if a not in named]
    return missing


#: A year that names a document ("the March 2025 credit agreement", "its 2024 annual report"), not a period asked about.
_DOCUMENT_YEAR = re.compile(r"\b((?:19|20)\d\d)\s+(?:amended and restated\s+)?(?:credit agreement|agreement|indenture|"
                            r"annual report|proxy statement|prospectus|form 10-k|form 10-q|10-k|10-q|8-k|filing)\b",
                            re.IGNORECASE)


def document_years(question: str) -> set[int]:
    """The years of ``question`` that name a document rather than a period asked about.

    >>> document_years("What ratio does the 2025 credit agreement permit?"), document_years("What were sales in 2025?")
    ({2025}, set())
    """
    return {int(year) for year in _DOCUMENT_YEAR.findall(question)}


def _document_years(question: str, document: str) -> set[str]:
    """The years of ``question`` that name a document and that ``document`` (its passages in the context) states: its
    cover says "Dated as of March 14, 2025", its page 40 does not.

    >>> _document_years("Who is the agent under the March 2025 credit agreement?", "Dated as of March 14, 2025")
    {'2025'}
    >>> _document_years("What were sales in 2025?", "Dated as of March 14, 2025")
    set()
    """
    return {str(year) for year in document_years(question) if str(year) in _words(document)}


def subject_names(question: str, document: str, subject: str) -> list[str]:
    """The words of the question's names that name the document's subject (a word of the name is in ``subject``,
    the document's path and title: its first word, or most of its words) and that ``document`` (its passages in the
    context) states. A segment's name sharing one word with the company's is not the company.

    >>> subject_names("What does Northwind Precision owe Ohio Valley Bank?", "NORTHWIND PRECISION, INC., as the Borrower",
    ...               "northwind_credit_agreement.pdf Credit Agreement")
    ['northwind', 'precision']
    >>> subject_names("What were Life Science Instruments' sales?", "Life Science Instruments | 371,767",
    ...               "northwind_10k.pdf NORTHWIND PRECISION INSTRUMENTS, INC.")
    []
    """
    if not (document and subject):
        return []
    named, about = _words(document), set(re.findall(r"[^\W\d_]+", normalize(subject)))
    return [a for group in _names(question) if group[0] in about or 2 * len(about & set(group)) > len(group)
            for a in group if a in named]


def _names(question: str) -> list[list[str]]:
    """The question's names: runs of adjacent capitalised anchors ("Northwind Precision Instruments")."""
    text = unglue(unicodedata.normalize("NFC", question).replace("’", "'"))
    marks = set(anchors(question))
    groups: list[list[str]] = [[]]
    for match in _TOKEN.finditer(text):
        word = _normal(match.group(0))
        if word in marks and word.isalpha():
            groups[-1].append(word)
            if text[match.end():match.end() + 1] != "'":
                continue  # a possessive ends a name: "Lakeshore Therapeutics' VELORA" names two things
        if groups[-1]:
            groups.append([])
    return [g for g in groups if g]


#: An acronym joined by "&" ("SG&A", "PP&E", "R&D", "M&A").
_AMPERSAND_ACRONYM = re.compile(r"(?<![\w&])[A-Z]{1,3}(?:&[A-Z]{1,3})+(?![\w&])")
_SKIPPED_IN_ACRONYMS = frozenset("and of the for to a an in on at by with &".split())


def acronyms(question: str, *, joined_only: bool = False) -> set[str]:
    """The question's acronyms, lower-cased: words of two to six capitals, and those joined by "&" (only those with
    ``joined_only``: "SG&A", "R&D", "PP&E" name a measure, where "UK" or "GDP" may name the subject).

    >>> sorted(acronyms("What was UK R&D spend?")), acronyms("What was UK R&D spend?", joined_only=True)
    (['r&d', 'uk'], {'r&d'})
    """
    return set(_acronyms(question, joined_only))


@lru_cache(maxsize=512)
def _acronyms(question: str, joined_only: bool) -> frozenset[str]:
    """:func:`acronyms`, once per question (the answer path asks for each candidate sentence)."""
    found = {m.group(0).lower() for m in _AMPERSAND_ACRONYM.finditer(question)}
    if _shouted(question) or joined_only:
        return frozenset(found)
    return frozenset(found | {w.lower() for w in re.findall(r"(?<![\w&])[A-Z]{2,6}(?![\w&])", question)})


def names_acronym(acronym: str, text: str) -> bool:
    """Whether ``text`` writes ``acronym`` (lower-cased) or spells it out (:func:`spells`).

    >>> names_acronym("r&d", "R&D Expenses: $71.3 million"), names_acronym("r&d", "Revenue was $112.6 million")
    (True, False)
    """
    return acronym in _words(text) or spells(acronym, text)


def spells(acronym: str, text: str) -> bool:
    """Whether ``text`` has consecutive words whose initials spell ``acronym`` (its letters; "and", "of" and the
    like may be left out, as acronyms leave them out).

    >>> spells("sg&a", "Selling, general and administrative expenses rose."), spells("eps", "earnings per share")
    (True, True)
    >>> spells("roe", "return on equity"), spells("r&d", "research laboratories and development"), spells("ttl", "a tall")
    (True, False, False)
    """
    letters = re.sub(r"[^a-z]", "", acronym.lower())
    if not 2 <= len(letters) <= 6:
        return False
    words = [w.lower() for w in re.findall(r"[^\W\d_][\w'’-]*", text)]
    for kept in (words, [w for w in words if w not in _SKIPPED_IN_ACRONYMS]):
        initials = "".join(w[0] for w in kept)
        start = initials.find(letters)
        while start >= 0:
            if all(kept[start + i][0] == letters[i] for i in range(len(letters))):
                return True
            start = initials.find(letters, start + 1)
    return False


def _words(text: str) -> set[str]:
    text = unglue(unicodedata.normalize("NFC", text).replace("’", "'"))
    return ({_normal(t) for t in _TOKEN.findall(text)} | set(re.findall(r"\w+", normalize(text)))
            | {m.group(0).lower() for m in _AMPERSAND_ACRONYM.finditer(text)})


_HOW_MANY = re.compile(r"\bhow many\s+((?:[\w/&-]+\s+){0,3}?[\w/&-]+?)(?=\s+(?:are|is|was|were|do|does|did|can|could|"
                       r"will|would|should|has|have|had|in|of|on|for|per|at|that|which|there)\b|[?,.]|$)", re.IGNORECASE)


#: "How large, in square feet, is …?": the unit a figure must be stated in (a scale, "in thousands", is no unit).
_IN_UNIT = re.compile(r"\bin ((?:square |cubic )?(?:feet|foot|meters|metres|miles|kilometers|kilometres)|acres|"
                      r"hectares|pounds|kilograms|tons|tonnes|gallons|liters|litres|barrels|hours|days|weeks|months|years|"
                      r"employees|shares|units)\b", re.IGNORECASE)


#: An analyst's words for the number of employees.
_HEADCOUNT = re.compile(r"\bhead[- ]?counts?\b|\bworkforce\b|\bsize of (?:its|the|their) (?:work ?force|staff)\b", re.IGNORECASE)


def counted_noun(question: str) -> str | None:
    """What a "how many …" question counts (its last word, the head of the noun phrase), or the unit a question
    asks its figure in ("in square feet"), or None.

    >>> counted_noun("How many IT employees does a typical insurer have?"), counted_noun("How many bits long is it?")
    ('employees', 'bits')
    >>> counted_noun("How many new-energy vehicles did China export in 2025?"), counted_noun("What is it?") is None
    ('vehicles', True)
    >>> counted_noun("How large, in square feet, is the plant?"), counted_noun("What were sales, in thousands?")
    ('square feet', None)

    A headcount or workforce counts employees ("we employed approximately 2,840 people"):

    >>> counted_noun("What was Northwind's headcount at the end of FY2024?")
    'employees'
    """
    if _HEADCOUNT.search(question):
        return "employees"
    match = _HOW_MANY.search(question)
    if not match:
        unit = _IN_UNIT.search(question)
        return unit.group(1).lower() if unit else None
    words = [w.lower() for w in match.group(1).split()]
    while words and words[-1] in _MEASURE_WORDS:  # "how many bits long": bits
        words.pop()
    if not words or words[-1] in ("times", "more", "less", "fewer"):
        return None  # "how many times": often "twice", "once"
    return words[-1]


_MEASURE_WORDS = frozenset("long old tall wide high deep large big small ago apart away".split())


#: Other spellings of a unit's words: "a 95,000 square foot plant", "95,000 sq. ft."
_UNIT_FORMS = {"feet": ("foot", "ft"), "square": ("sq",), "meters": ("meter", "m2", "m²"),
               "metres": ("metre", "m2", "m²"), "miles": ("mile",), "acres": ("acre",), "hours": ("hour", "hrs"),
               "days": ("day",), "years": ("year",)}


def names_counted(noun: str, sentence: str) -> bool:
    """Whether ``sentence`` names every word of what is counted or the unit asked for (``counted_noun``), a word
    matching its stem or, for a unit, another spelling of it.

    >>> names_counted("square feet", "a 95,000 square foot plant"), names_counted("square feet", "95,000 sq. ft.")
    (True, True)
    >>> names_counted("employees", "We employed 2,840 employees."), names_counted("square feet", "eleven countries")
    (True, False)
    """
    text = normalize(sentence)
    words = set(re.findall(r"\w+", text))
    return all(w in text or any(f in words for f in _UNIT_FORMS.get(w, ())) for w in content_words(noun))


#: A place or site a sentence is about: "in Eindhoven", "at Dayton, Ohio", "in North America".
_AT_PLACE = re.compile(r"\b(?:in|at|near)\s+((?:[A-Z][a-z][\w'’.-]*)(?:\s+[A-Z][a-z][\w'’.-]*)*)")


#: Capitalised words after "in" that name a part of a document or a period, not a place ("in Item 7", "in Fiscal 2024").
_NOT_PLACES = frozenset("""
item items note notes part section sections exhibit exhibits schedule article table figure chapter appendix fiscal
year quarter form
""".split())


def _places(text: str) -> set[str]:
    """The places ``text`` names with "in", "at" or "near".

    >>> sorted(_places("Revenue in Japan and at Dayton, Ohio, as shown in Item 7 for Fiscal 2024 in March"))
    ['dayton', 'japan']
    """
    out = set()
    for name in _AT_PLACE.findall(text):
        words = [w for w in (_normal(t) for t in name.split())
                 if w not in _CALENDAR and w not in _QUESTION_WORDS and w not in _NOT_PLACES]
        if words:
            out.add(" ".join(words))
    return out


def elsewhere(question: str, sentence: str) -> bool:
    """Whether ``sentence`` is about another place than the one ``question`` names with "in"/"at": it names a place
    so, and none of the question's places anywhere. A figure for Dayton does not answer for Eindhoven.

    >>> q = "How large, in square feet, is the manufacturing facility in Eindhoven?"
    >>> elsewhere(q, "Our headquarters are located in Dayton, Ohio, in a building of 410,000 square feet.")
    True
    >>> elsewhere(q, "We own a 90,000 square foot plant in Eindhoven."), elsewhere(q, "It has 9 floors.")
    (False, False)
    >>> elsewhere("What was revenue in March?", "Revenue in Europe was $4 million.")  # a month is no place
    False
    """
    asked = _places(question)
    if not asked:
        return False
    stated = _places(sentence)
    words = _words(sentence)
    return bool(stated) and not any(all(w in words for w in place.split()) for place in asked)


def names_places(question: str, text: str) -> bool:
    """Whether ``text`` names every place the question names with "in"/"at" (True when it names none). A figure
    for the whole company, stated without a place, does not answer for its revenue in Japan.

    >>> q = "How much VELORA revenue did Lakeshore generate in Japan in the fourth quarter?"
    >>> names_places(q, "VELORA revenue was $104.8 million in the fourth quarter."), names_places(q, "Japan | 12.1")
    (False, True)
    """
    words = _words(text)
    return all(all(w in words for w in place.split()) for place in _places(question))


def is_question(sentence: str) -> bool:
    """A sentence that asks rather than states (a heading, a link title, a FAQ entry): never an answer.

    >>> is_question("When do Gen Z's earnings diverge by gender?"), is_question("It rose 2% (was it?).")
    (True, False)
    """
    return sentence.rstrip(" \t\"'”’)]").endswith("?")
