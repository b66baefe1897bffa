"""The short answer span of an extractive answer: the flag, number, name or term the question asks for.

Rule-based, from the question's form and the quoted sentences: candidates are identifiers
(``EPOLLET``, ``epoll_ctl(2)``, ``--force``, ``/proc/stat``), numbers with their unit, versions and
expansions of an acronym ("BRIN stands for …"); words of the question are never the answer. The
span is returned only when exactly one kind of candidate fits the question, else None (the quoted
sentences are the answer then).

>>> answer_span("Which flag requests edge-triggered notification?", ["Use the EPOLLET flag for edge-triggered mode."])
'EPOLLET'
>>> answer_span("How many bytes long is the futex integer?", ["This integer is four bytes long on all platforms."])
'four bytes'
>>> answer_span("In which Linux version was epoll introduced?", ["The epoll API was introduced in Linux kernel 2.5.44."])
'2.5.44'
>>> answer_span("Which util-linux version ships pivot_root?", ["pivot_root is in util-linux version 2.10h or higher."])
'2.10h'
>>> answer_span("Why is the sky blue?", ["Rayleigh scattering makes it so."]) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from serving.analysis.period_phrases import MONTH_NAME
from serving.answer.anchors import anchors
from serving.answer.periods import Periods, match, periods
from serving.answer.verify import content_words

__all__ = ["answer_span", "asks_measure", "asks_ratio", "defined_term", "defines", "expected_type", "focus_words",
           "holds_value", "mentions", "named_measure_words"]

_NUMBER_WORDS = ("zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|thirty|"
                 "forty|fifty|sixty|hundred|thousand|million|billion")
#: A figure and its unit: not a preposition ("342 at December 29"), not the first half of "full-time", nor the next
#: field's label ("Age: 68 Director since: 2011").
_NUMBER = re.compile(r"\b(?:\d+(?:[.,]\d+)*%?|(?:" + _NUMBER_WORDS + r")\b)(?:\s+(?!(?:of|the|and|on|in|at|to|for|by|"
                     r"from|as|or|with|a|an|is|are|was|were|than|per|each|after|before)\b)"
                     r"(?-i:(?:square |cubic )?[a-z]+)(?![\w-]))?", re.IGNORECASE)
#: A version: 2.5.44, and with a letter suffix as util-linux and OpenSSL write them (2.10h, 1.1.1k).
_PERCENT = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*\s?(?:%|percent\b|per cent\b)")
_VERSION = re.compile(r"\b\d+\.\d+(?:\.\d+)*[a-z]?\b")
_YEAR = re.compile(r"\b(?:1[89]\d\d|20\d\d)\b")
_IDENTIFIER = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*\(\d\w*\)|[A-Z][A-Z0-9]*_[A-Z0-9_]+"
                         r"|[A-Z]{2,}[A-Z0-9]*|/[\w./-]+|[a-z]+_[a-z0-9_]+|[A-Z][a-z]+[A-Z]\w*)")
_QUOTED = re.compile(r"[\"“']([^\"”']{2,60})[\"”']")

_ASKS_NUMBER = re.compile(r"\bhow (?:many|much|long|large|big|old)\b|\bwhat (?:percentage|number|size|value)\b|"
                          # "What was Northwind's headcount …?", "What is the total number of stores?": a count
                          r"\bwhat (?:was|is|were|are) (?:the )?(?:[\w.&'’-]+ ){0,5}?(?:head ?count|"
                          r"(?:total |average )?number of)\b|"
                          r"\b(?:default|maximum|minimum|max|min) (?:\w+ )?(?:value|number|size|interval|limit)\b|"
                          r"\bin (?:seconds|bytes|bits|minutes|percent|characters)\b|^\s*(?:ب)?كم\s", re.IGNORECASE)
_ASKS_VERSION = re.compile(r"\b(?:which|what) (?:[\w.+-]+ ){0,3}(?:version|release)\b", re.IGNORECASE)
_ASKS_YEAR = re.compile(r"\b(?:which|what) year\b|\bwhen\b", re.IGNORECASE)
_ASKS_NAME = re.compile(r"\b(?:which|what) (?:\w+ ){0,2}(?:flag|option|command|call|function|operation|"
                        r"exception|error|field|file|variable|macro|constant|signal|program|package|module|"
                        r"keyword|type|setting|parameter|directory|tool|statement)s?\b", re.IGNORECASE)
_ASKS_PERSON = re.compile(r"^\s*(?:who|whom)\b|\bwith whom\b|\bwhich (?:person|people|author|developer|company|"
                          r"graduate student|student|judge|president|scientist|engineer)\b", re.IGNORECASE)
#: "Which bank serves as administrative agent …?", "Which accounting firm audited …?": an organisation is asked
#: ("which company" stays a person's kind: a company is often named after its founder or in one word, "CompuServe").
_ORGANIZATIONS = (r"(?:bank|firm|lender|agent|trustee|auditor|underwriter|insurer|arranger|custodian|"
                  r"registrar|subsidiary|organi[sz]ation|institution)")
_ASKS_ORGANIZATION = re.compile(r"\bwhich (?:\w+ ){0,2}?" + _ORGANIZATIONS + r"s?\b|\bwhat (?:\w+ )?"
                                + _ORGANIZATIONS + r"\b(?= (?:is|was|are|were|serves?|served|acts?|acted|audits?|"
                                r"audited|did|does|has|had|will|would)\b)|"
                                # "Who is Northwind's auditor?", "Who serves as trustee?", "Who audits …?": a role
                                # only an organisation holds
                                r"^\s*who\s+(?:audits?\b|audited\b|(?:is|was|are|were|serves?|served|acts?|acted)\s+"
                                r"(?:as\s+)?(?:the\s+)?(?:[\w.&-]+(?:'s?|’s?)?\s+){0,5}?(?:independent\s+)?"
                                r"(?:auditor|trustee|administrative agent|collateral agent|lender|underwriter|"
                                r"transfer agent|registrar|custodian|registered public accounting firm)s?\b)",
                                re.IGNORECASE)
#: An organisation's name: capitalised words (or "&") ending in what only an organisation is called, in title case or
#: in the capitals of a cover page ("FIRST MERIDIAN BANK, N.A.", "Pemberton Ashby LLP", "Tabulating Machine Company").
_ORGANIZATION = re.compile(
    r"\b(?:(?:[A-Z][\w'’.-]*|&)\s+){0,5}?(?:[A-Z][\w'’.-]*),?\s+"
    r"(?:Bank|BANK|Trust|TRUST|LLP|LLC|L\.P\.|Inc\.|INC\.|"
    r"Incorporated|Corp\.|CORP\.|Corporation|CORPORATION|Company|COMPANY|Co\.|Group|GROUP|Partners|PARTNERS|"
    r"Securities|SECURITIES|Holdings|HOLDINGS|Ltd\.|Limited|PLC|plc|AG|GmbH|S\.A\.|B\.V\.|N\.V\.|N\.A\.)(?![\w])"
    # not the start of a longer name: the "Public Company" of the Public Company Accounting Oversight Board, the
    # "Investment Company" of the Investment Company Act
    r"(?!\s+(?:[A-Z][a-z]+\s+){0,3}(?:Board|Commission|Committee|Authority|Association|Institute|Act)\b)")
_ASKS_DEFAULT = re.compile(r"\bdefaults?\b|\bby default\b", re.IGNORECASE)
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+(?:van |de |von )?[A-Z][a-z]{2,}\b")
_ASKS_EXPANSION = re.compile(r"\bstand for\b|\bshort for\b|\bacronym\b", re.IGNORECASE)


def _question_words(question: str) -> set[str]:
    """The question's words, lower-cased, and the figure of a word that glues a unit to it ("900k": 900).

    >>> sorted(_question_words("the default 900k block size"))
    ['900', '900k', 'block', 'default', 'size', 'the']
    """
    words = {w.lower() for w in re.findall(r"[\w./-]+", question)}
    return words | {m.group(1) for w in words if (m := re.fullmatch(r"(\d+(?:[.,]\d+)*)[a-z]{1,3}", w))}


def _first_new(pattern: re.Pattern, sentences: Sequence[str], asked: set[str], *, starting: bool = False,
               near: Sequence[str] = ()) -> str | None:
    """The first match of ``pattern`` the question does not state; with ``starting``, only one stated as a starting
    point ("since 2009", "introduced in Linux 3.5"). Of several in one sentence, the one that ``near`` (the question's
    :func:`focus_words`) speak of (:func:`_nearest`)."""
    for sentence in sentences:
        found = []
        for m in pattern.finditer(sentence):
            value = m.group(0).strip(" .,;:")
            if starting and not _STARTING.search(sentence[max(0, m.start() - 30):m.start()]):
                continue
            if value and value.lower() not in asked and value.split()[0].lower().strip(",;:") not in asked:
                if not near:
                    return value
                found.append((m, value))
        if found:
            return _nearest(sentence, found, near)
    return None


#: What ends a clause: "From 1930 to 1935, he was …", "told me (ESR, 1994) that …", "in 1930; he left in 1933".
_CLAUSE_END = re.compile(r"[;:()\[\]]|,\s|\s[–—-]\s")


def _nearest(sentence: str, found: list[tuple[re.Match, str]], near: Sequence[str]) -> str:
    """Of several values found in ``sentence``, the one the question's focus words ``near`` speak of: each of those
    words in the sentence counts for the value nearest it in its clause; a value that says one itself (its unit:
    "3 workers" for "how many workers") leads; the first on a tie.

    >>> s = "In 1950 he became a professor at Caltech and in 1965 became a Nobel laureate."
    >>> _nearest(s, [(m, m.group(0)) for m in re.finditer(r"\\d{4}", s)], ["become", "professor"])
    '1950'
    >>> s = "From 1930 to 1935, he was a student where he received his doctorate in mathematics in 1934."
    >>> _nearest(s, [(m, m.group(0)) for m in re.finditer(r"\\d{4}", s)], ["receive", "doctorate", "mathematic"])
    '1934'
    """
    breaks = [m.start() for m in _CLAUSE_END.finditer(sentence)]
    clause = lambda at: sum(1 for b in breaks if b < at)  # noqa: E731
    near = tuple(near)
    said = [w for w in re.finditer(r"[^\W\d_][\w'’-]*", sentence) if _says(w.group(0), near)]
    votes = [0] * len(found)
    for w in said:
        if any(m.start() <= w.start() < m.end() for m, _ in found):
            continue  # a value's own word: counted below
        rivals = [(min(abs(w.start() - m.end()), abs(m.start() - w.end())), k) for k, (m, _) in enumerate(found)
                  if clause(m.start()) == clause(w.start())]
        if rivals:
            votes[min(rivals)[1]] += 1
    own = [sum(1 for w in said if m.start() <= w.start() < m.end()) for m, _ in found]
    return found[max(range(len(found)), key=lambda k: (own[k], votes[k], -k))][1]


@lru_cache(maxsize=16384)
def _says(word: str, near: tuple[str, ...]) -> bool:
    """Whether the sentence's ``word`` is one of the question's focus words ``near`` (:func:`mentions`)."""
    stems = set(content_words(word))
    return bool(stems) and any(mentions(n, stems) for n in near)


#: What a "how much / how long / how heavy" question measures, and the units its answer is stated in.
_UNITS = (
    (re.compile(r"\b(?:memory|ram|disk|space|storage|swap|buffer|cache)\b", re.IGNORECASE),
     r"(?:[kmgt]i?b|[kmgt]|(?:[kmgt]|kilo|mega|giga|tera)?bytes?)"),
    (re.compile(r"\bhow long\b|\b(?:duration|timeout|delay|interval)\b", re.IGNORECASE),
     r"(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|hours?|hrs?|"
     r"(?:(?:business|calendar|working|trading) )?(?:days?|weeks?|months?|years?))"),
    (re.compile(r"\bweigh(?:s|ed|t)?\b|\bhow heavy\b", re.IGNORECASE),
     r"(?:tons?|tonnes?|pounds?|lbs?|kg|kilograms?|grams?|ounces?|oz)"),
)
#: What may follow a figure and its unit when the figure is the measure itself: "3700 kbytes to decompress",
#: "2300k of memory"; a noun instead makes it an attribute of that noun ("a 4 megabyte machine").
_AFTER_MEASURE = (r"(?!\s+(?!(?:to|of|for|in|per|and|or|nor|but|so|each|every|when|while|with|without|at|on|"
                  r"is|are|was|were|be|if|than|before|after|from|until|till|since|as|by|into|over|under|between|"
                  r"during|which|that|then|because|"
                  r"ago|later|earlier|long|old|more|less|only|in all|apiece)\b)[a-z]{2,})")
#: Each measure's question and the figures stated in its units that are the measure itself.
#: A figure in digits ("30 seconds", "3700k") or in words ("three Business Days", as agreements write them).
_UNIT_FAMILIES = tuple((asks, re.compile(r"(?<![\w.])(?:\d+(?:[.,]\d+)*\s?|(?:" + _NUMBER_WORDS + r")\s)" + units
                                         + r"(?![\w-])" + _AFTER_MEASURE, re.IGNORECASE)) for asks, units in _UNITS)


def _in_units(question: str, sentences: Sequence[str], asked: set[str]) -> str | None:
    """The first figure stated in the units of what ``question`` measures (memory in bytes, time in seconds to
    years, weight in tons to grams), not one that describes something else ("a 4 megabyte machine"); None when the
    question measures none of these or no sentence states one.

    >>> q = "How much memory does bzip2 need to decompress a file?"
    >>> _in_units(q, ["To support decompression on a 4 megabyte machine, it uses about 2300 kbytes."], set())
    '2300 kbytes'
    >>> _in_units(q, ["With the default 900k block size it will require about 3700k to decompress."], set())
    '3700k'
    >>> _in_units("How long does the lock stay held?", ["The 2 threads wait up to 30 seconds."], set())
    '30 seconds'
    >>> _in_units("How many threads wait?", ["The 2 threads wait up to 30 seconds."], set()) is None
    True
    >>> _in_units("How long after a payment is due is a failure to pay a default?",
    ...           ["The Borrower fails to pay any interest within three Business Days after it becomes due."], set())
    'three Business Days'
    """
    figure = next((figure for asks, figure in _UNIT_FAMILIES if asks.search(question)), None)
    return None if figure is None else _first_new(figure, sentences, asked)


#: "Since what year …?", "Since which version …?": asks for a starting point, which an answer states as one.
_ASKS_SINCE = re.compile(r"\bsince (?:what|which|when)\b", re.IGNORECASE)
_STARTING = re.compile(r"\b(?:since|from|beginning|began|begun|starting|started|introduced|added|appeared|first)\b"
                       r"(?:\W+\w+){0,2}\W*$", re.IGNORECASE)


_ASKS_YEAR = re.compile(r"\b(?:which|what) year\b|في\s+[اأإ]ي\s+(?:عام|سنة)", re.IGNORECASE)
#: What a financial statement reports: asked with "what was …", the answer is an amount.
_FINANCIAL = (r"(?:revenues?|sales|top[- ]line|bottom[- ]line|income|loss|losses|earnings|expenses?|expenditures?|capex|"
              r"profits?|assets|liabilities|equity|book[- ]value|buybacks?|repurchase[sd]?|cogs|"
              r"b(?:uys?|uying|ought)\s+back|(?:shares|stock)\s+(?:re)?purchased|"
              r"(?:r&d|research\s+and\s+development|d&a|sg&a|selling,?\s+general\s+and\s+administrative)"
              r"(?:\s+expenses?)?|"
              r"cash|debt|borrowings|commitments?|dividends?|ebitda|backlog|inventor(?:y|ies)|fees|compensation|salary|"
              r"guidance|receivables?|payables?|goodwill|depreciation|amortization|working capital)")
_ASKS_QUANTITY = re.compile(r"\bwhat\b[^?]{0,100}?\b(?:share|percentage|proportion|rate|ratio|margin|level|amount|"
                            r"price|cost|growth|inflation|revenue|demand|return|figure|valuation|sublimit|balance)s?\b|"
                            r"\bby (?:how much|what (?:percentage|margin|factor))\b|"
                            r"\bwhat (?:was|were|is|are)\b[^?]{0,100}?\b" + _FINANCIAL + r"\b", re.IGNORECASE)
_FINANCIAL_NOUN = re.compile(r"\b" + _FINANCIAL + r"\b", re.IGNORECASE)
#: A measure with what qualifies an income: "net loss", "income before income taxes", "earnings per diluted share".
_MEASURE = re.compile(r"\b(?:(?P<cost>cost\s+of\s+(?:revenues?|sales|(?:goods|products?)\s+sold)|cogs)\b|"
                      r"(?P<capex>(?:purchases?|acquisitions?|additions?|spend(?:s|ing)?|spent|invest(?:s|ed|ments?)?)\s+"
                      r"(?:of|to|on|in)\s+(?:property(?:,?\s+plant)?,?\s+and\s+equipment|PP&E)|"
                      r"capital\s+(?:spending|expenditures?))(?!\w)|"
                      r"(?P<deferred>(?:deferred|unearned)\s+(?:revenues?|income))\b|"  # a liability, not an income
                      # a flow of the cash-flow statement, not the balance of cash
                      r"(?P<cashflow>(?:net\s+)?cash\s+(?:flows?\s+)?"
                      r"(?:(?:provided|generated)\s+(?:by|from)\s+|from\s+|used\s+(?:in|by)\s+)"
                      r"(?:\(used\s+in\)\s+)?operati(?:ng\s+activities|ons)|operating\s+cash\s+flows?)\b|"
                      r"(?:(?P<qualifier>operating|net|gross|comprehensive|pre-?tax)\s+)?(?P<noun>" + _FINANCIAL + r")\b"
                      # "inventory reserves", "receivables allowance": another measure, named by its last word
                      r"(?!\s+(?:reserves?|allowances?|write-?downs?|turnover|impairments?)\b)"
                      r"(?P<tail>\s+(?:before\s+(?:(?:provision\s+for|benefit\s+from)\s+)?income\s+tax(?:es)?|"
                      r"from\s+operations|per\s+(?:diluted\s+|basic\s+)?(?:common\s+)?share|tax(?:es)?)\b)?)", re.IGNORECASE)
#: A question that asks for a share or a change, whose answer may be a percentage.
_ASKS_RATIO = re.compile(r"%|\bper ?cent|\bshare\b|\brate\b|\bratio\b|\bmargin\b|\bproportion\b|\bgrowth\b|"
                         r"\bgr[eo]w\b|\bincrease|\bdecrease|\bdecline|\bchange|\bbasis points\b|\byield\b", re.IGNORECASE)
#: "When did/was/were …" asks for a date; "When must/does/is …" mostly for a condition ("while the reactor
#: runs", "after a fork"), which has no value to check.
_ASKS_DATE = re.compile(r"^\s*when\s+(?:did|was|were|had)\b|\b(?:on )?what (?:date|day)\b|^\s*مت[ىي]\s", re.IGNORECASE)
#: A question for a day, not a year: "On what date does the facility mature?", "Which day …?".
_ASKS_DAY = re.compile(r"\b(?:what|which) (?:exact )?(?:date|day)\b", re.IGNORECASE)
#: "Where …?", "In which city …?", and at the question's start "Which university …?", "What country …?" (not "What
#: state …?": in a manual a state is a status, "What state is the socket in after close?").
_ASKS_PLACE = re.compile(r"^\s*where\b|\b(?:in|at|from|to) (?:which|what) (?:\w+ ){0,2}?(?:city|town|village|country|state|"
                         r"county|province|region|district|neighbou?rhood|borough|university|college|institute|"
                         r"school|place)\b|^\s*(?:which|what) (?:\w+ ){0,2}?(?:city|town|village|country|county|province|"
                         r"university|college|institute|school)\b", re.IGNORECASE)
#: A yes/no question: an auxiliary first, or after a leading clause ("If I add a watch on a directory, are …").
_ASKS_YESNO = re.compile(r"^\s*(?:(?:if|when|in|on|for|after|before|once|while|with|without|using|given)\b[^,?]{0,80},\s*)?"
                         r"(?:is|are|was|were|does|do|did|can|could|has|have|had|will|would|should|must)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none|nothing|without|cannot)\b|n['’]t\b", re.IGNORECASE)
# First match wins: the more specific kinds come first.
_KINDS = (("expansion", _ASKS_EXPANSION), ("version", _ASKS_VERSION), ("number", _ASKS_NUMBER), ("year", _ASKS_YEAR),
          ("date", _ASKS_DATE), ("place", _ASKS_PLACE), ("organization", _ASKS_ORGANIZATION), ("person", _ASKS_PERSON),
          ("default", _ASKS_DEFAULT),
          ("quantity", _ASKS_QUANTITY), ("name", _ASKS_NAME), ("yes/no", _ASKS_YESNO))
#: A date: ISO (1968-12-09), "December 26, 1791", "9 December 1968", "January 1984", else a year.
_DATE = re.compile(r"\b(?:1\d{3}|20\d\d)-\d\d-\d\d\b|\b" + MONTH_NAME + r"\s+\d{1,2},\s*\d{4}\b|\b\d{1,2}\s+" + MONTH_NAME
                   + r"\s+\d{4}\b|\b" + MONTH_NAME + r"\s+\d{4}\b|\b(?:1[0-9]\d\d|20\d\d)\b(?:\s*(?:BC|CE|AD)\b)?")
#: A place or institution: capitalised words (with "of", "the", "at" between them), not at the sentence's start.
_PLACE = re.compile(r"(?<=\s)(?:the\s+)?[A-Z][\w'’.-]+(?:(?:\s+(?:of|at|de|del|the|upon|on)\s+|\s+|,\s+)[A-Z][\w'’.-]+)*")
#: A figure with what makes it a quantity: a percentage, a currency, a scale word or a range of them.
#: A figure: a share (or a range of shares: "from 4% to 7%"), else an amount with its currency and scale (or a range:
#: "$410 million to $440 million", "4 to 7%"). A share is never the start of a range of amounts: "increased 6.0% to
#: $412.8 million" states a change and a level, two figures.
_QUANTITY = re.compile(
    r"(?:(?:USD|US\$|EUR|GBP|[$€£])\s?)?\d+(?:[.,]\d+)*\s?(?:%|percent\b|per cent\b|basis points\b)"
    r"(?:\s?(?:to|-|–)\s?\d+(?:[.,]\d+)*(?:\s?(?:%|percent\b))?)?|"
    r"(?:(?:USD|US\$|EUR|GBP|[$€£])\s?)?\d+(?:[.,]\d+)*"
    r"(?:\s(?:trillion|billion|million|thousand)\b)?"
    r"(?:\s?(?:to|-|–)\s?(?:(?:USD|US\$|[$€£])\s?)?\d+(?:[.,]\d+)*(?:\s?(?:%|percent\b))?)?", re.IGNORECASE)


def _quantity(question: str, sentences: Sequence[str]) -> str | None:
    """The figure of the first sentence that has one, nearest to the question's words: a percentage, an
    amount of money, a number with a scale word, or a decimal (a bare year or a figure the question itself
    states never counts).

    >>> _quantity("What share of airlines lack a fuel efficiency solution?",
    ...           ["In 2024, 85% of airlines still lack a structured fuel efficiency solution."])
    '85%'
    >>> _quantity("What EBITDA margin did it reach, starting from 4%?", ["It went from 4% to 7% in 2023."])
    '7%'
    >>> _quantity("What were Globex's net sales in 2024?", ["Operating income was 14.8% of net sales in 2024."]) is None
    True
    >>> _quantity("What was Lakeshore's total revenue for full-year 2024?", ["Total revenue was $112.6 million for the "
    ...           "fourth quarter of 2024, compared with $84.0 million for the fourth quarter of 2023, and $401.9 million "
    ...           "for the full year 2024, compared with $309.5 million for 2023."])
    '$401.9 million'
    >>> _quantity("What was total revenue for full-year 2024?", ["Revenue for the fourth quarter of 2024 was $112.6 "
    ...           "million, and full-year revenue was $401.9 million."])
    '$401.9 million'
    >>> _quantity("By what percentage did product revenue grow?", ["Product revenue of $376.2 million, up 31% year over year"])
    '31%'
    >>> _quantity("By what percentage did total revenue grow in 2024?", ["Foreign sales were 14% of total revenue in 2024."])

    A sentence that names measures, none of them the one asked, states another measure's figure:

    >>> _quantity("What was the fiscal 2024 capital expenditure?", ["Net cash provided by operating activities was "
    ...           "$140.9 million, reflecting higher net income.", "Capital expenditures were $18.6 million."])
    '$18.6 million'

    A figure beside which the sentence names no period is not the one of the asked period that it names beside
    another figure:

    >>> _quantity("What was net income in fiscal 2023?", ["Operating income was $65.8 million, compared with $37.6 "
    ...           "million in fiscal 2023, and net income was $53.2 million.", "Net income was $25.3 million in fiscal 2023."])
    '$25.3 million'
    >>> _quantity("What was net income in fiscal 2023?", ["In fiscal 2023, revenue was $501.7 million and net income "
    ...           "was $25.3 million."])
    '$25.3 million'
    """
    stated = set(re.findall(r"\d+(?:[.,]\d+)*", question))
    terms = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", question)}
    wanted = periods(question)
    ratio = asks_ratio(question) or not _FINANCIAL_NOUN.search(question)
    percent_asked = bool(re.search(r"percent|%", question, re.I))  # "by what percentage": the percentage, not the amount
    measures = financial_nouns(question)
    change = percent_asked and _ASKS_CHANGE.search(question) is not None
    for sentence in sentences:
        named = financial_nouns(sentence) | ({"per share income"} if _PER_SHARE.search(sentence) else set())
        if measures and named and not measures_agree(measures, named):
            continue  # "Net cash provided by operating activities was $140.9 million" states no capital expenditure
        if change and not _CHANGE.search(sentence):
            continue  # "by what percentage did revenue grow": not "14% of total revenue"
        best, best_key = None, None
        found = list(_QUANTITY.finditer(sentence))
        respective = _respective_years(sentence, found) if wanted else {}  # read once per sentence
        told: dict[tuple[int, int], Periods] = {}  # each figure's stated period, read once per sentence
        for i, m in enumerate(found):
            value = m.group(0).strip(" .,;:-–")
            digits = re.findall(r"\d+(?:[.,]\d+)*", value)
            if not digits or all(d in stated for d in digits):
                continue
            if measures and not _measure_fits(measures, sentence, m.start(), m.end()):
                continue  # "Cash provided by operating activities was $118.3 million" is no operating income
            if any(d in stated for d in digits):  # "from 4% to 7%" asked "starting from 4%": the other end
                value = next(part.strip() for part in re.split(r"\s?(?:\bto\b|-|–)\s?", value)
                             if re.search(r"\d", part) and not set(re.findall(r"\d+(?:[.,]\d+)*", part)) <= stated)
                digits = re.findall(r"\d+(?:[.,]\d+)*", value)
            if re.fullmatch(r"(?:1[89]|20)\d\d", value):
                continue  # a year
            marked = bool(_MARKED.search(value)) or "." in digits[0]
            if not marked or (not ratio and re.search(r"%|percent|basis points", value, re.I)):
                continue  # an amount asked ("What were net sales?"): "14.8% of net sales" is not one
            share = bool(re.search(r"%|percent|basis points", value, re.I))
            key = (percent_asked and not share, -_period_fit(wanted, sentence, found, i, respective, told),
                   _distance_to_terms(sentence, terms, m.start()))
            if best_key is None or key < best_key:
                best, best_key = value, key
        if best is not None and best_key[1] > 0:
            continue  # the figure is another period's ("… in fiscal 2024, compared with …, and net income was $53.2 million")
        if best is not None:
            return best
    return None


#: What makes a figure an amount or a share: a currency, a scale word, a percent sign.
_MARKED = re.compile(r"%|percent|[$€£]|USD|EUR|GBP|illion|thousand|basis", re.IGNORECASE)


def _measure_fits(measures: set[str], sentence: str, start: int, end: int) -> bool:
    """Whether the figure at ``start:end`` may be of one of ``measures``: the measure the sentence names last before
    it is one of them, or none is named before it, or one of them follows it ("$95.0 million of borrowings").

    >>> s = "Cash provided by operating activities was $118.3 million, driven by higher net income."
    >>> _measure_fits({"income"}, s, s.index("$"), s.index(" million")), _measure_fits({"cash"}, s, s.index("$"), s.index(" m"))
    (False, True)
    >>> s = "Revenue grew, and we had $95.0 million of outstanding borrowings."
    >>> _measure_fits({"borrowings"}, s, s.index("$"), s.index(" million"))
    True

    Operating income is no net income, and a figure per share is earnings per share:

    >>> s = "Operating income was $54.0 million and net income $41.2 million, or $0.52 per diluted share."
    >>> [_measure_fits({"net income"}, s, s.index(f), s.index(f) + len(f)) for f in ("$54.0", "$41.2", "$0.52")]
    [False, True, False]
    >>> _measure_fits({"per share income"}, s, s.index("$0.52"), s.index("$0.52") + 5)
    True

    A measure named as the base of a share ("27.2% of net sales") is not the measure of the figures after it:

    >>> s = "SG&A expenses were $112.5 million, or 27.2% of net sales, in the quarter and $326.9 million in the nine months."
    >>> _measure_fits({"revenue"}, s, s.index("$326.9"), s.index("$326.9") + 6)
    False
    """
    if _PER_SHARE.match(sentence, end) and any(m.endswith("income") for m in measures):
        return "per share income" in measures  # "$0.52 per diluted share" is earnings per share, not net income
    before = [financial_nouns(m.group(0)) for m in _MEASURE.finditer(sentence, 0, start)
              if not _RATIO_BASE.search(sentence, 0, m.start())]  # "27.2% of net sales" measures no figure after it
    if not before or measures_agree(measures, before[-1]):
        return True
    after = _MEASURE_AFTER.match(sentence, end)
    return after is not None and measures_agree(measures, financial_nouns(_MEASURE.match(sentence, after.start(1)).group(0)))


#: What makes the measure after it the base of a share: "27.2% of net sales", "as a percentage of revenue".
_RATIO_BASE = re.compile(r"(?:%|\bpercent(?:age)?)\s+of\s+(?:(?:our|the|its|total)\s+)?$", re.IGNORECASE)
_PER_SHARE = re.compile(r"\s*per\s+(?:diluted\s+|basic\s+)?(?:common\s+)?share\b", re.IGNORECASE)
#: A measure named right after its figure: "$95.0 million of borrowings", "$2.1 million in dividends".
_MEASURE_AFTER = re.compile(r"\s*(?:million|billion|thousand)?\s*(?:of|in)\s+(?:[\w-]+\s+){0,3}?(" + _FINANCIAL + r")\b",
                            re.IGNORECASE)


#: A question that asks how much a measure changed, and the words of a sentence that states a change.
_ASKS_CHANGE = re.compile(r"\b(?:gr[eo]w(?:n|th)?|increas|decreas|declin|chang|ris(?:e|en)\b|rose\b|f[ae]ll|drop)", re.I)
_CHANGE = re.compile(r"\b(?:gr[eo]w|increas|decreas|declin|chang|ris(?:e|es|en|ing)\b|rose\b|f[ae]ll|drop|up\b|down\b|"
                     r"higher\b|lower\b|compared)", re.I)


def _respective_years(sentence: str, found: list[re.Match]) -> dict[int, str]:
    """In "$41.7 million, $38.2 million and $33.9 million in 2024, 2023 and 2022, respectively": the year of each
    figure, by its index in ``found`` (empty for any other sentence)."""
    if not re.search(r"\brespectively\b", sentence):
        return {}
    is_year = [bool(re.fullmatch(r"(?:19|20)\d\d", m.group(0).strip(" .,;:"))) for m in found]
    years = [m.group(0).strip(" .,;:") for m, y in zip(found, is_year) if y]
    figures = [i for i, y in enumerate(is_year) if not y]
    first_year = next((m.start() for m, y in zip(found, is_year) if y), -1)
    if len(figures) != len(years) or len(years) < 2 or first_year < found[figures[-1]].end():
        return {}
    return dict(zip(figures, years))


def _period_fit(wanted: Periods, sentence: str, found: list[re.Match], i: int,
                respective: dict[int, str] | None = None, told: dict[tuple[int, int], Periods] | None = None) -> int:
    """How well the period stated next to figure ``i`` of ``sentence`` (its figures ``found``) fits the asked one:
    the words up to the next figure ("$401.9 million *for the full year 2024*, …"), else those since the previous
    one ("*In 2024,* revenue was $5.1 million") (:func:`serving.answer.periods.match`); 0 when none is asked. In
    "$41.7 million, $38.2 million and $33.9 million in fiscal 2024, 2023 and 2022, respectively" the n-th figure is
    the n-th year's. A figure stated without a period is of the period the sentence states first. ``told`` keeps
    each figure's stated period across the calls for one sentence (the caller's dict).

    >>> s = "R&D expense was $41.7 million, $38.2 million and $33.9 million in 2024, 2023 and 2022, respectively."
    >>> found = list(_QUANTITY.finditer(s))
    >>> [_period_fit(periods("R&D expense in fiscal 2023?"), s, found, i) for i in range(3)]
    [-2, 2, -2]
    >>> s = "Our tax rate for the first quarter of 2025 was 23.0%, compared with 23.5% for the first quarter of 2024."
    >>> found = list(_QUANTITY.finditer(s))
    >>> [m.group(0) for m in found], [_period_fit(periods("tax rate in Q1 2025?"), s, found, i) for i in (1, 2)]
    (['2025', '23.0%', '23.5%', '2024'], [5, 1])

    The day of a date is part of the period, not a figure that ends one:

    >>> s = "Inventory reserves were $11.6 million at September 30, 2025 and $9.8 million at December 31, 2024."
    >>> found = list(_QUANTITY.finditer(s))
    >>> [_period_fit(periods("Inventory reserves at September 30, 2025?"), s, found, i) for i in (0, 3)]
    [2, -2]
    """
    if not wanted:
        return 0
    respective = _respective_years(sentence, found) if respective is None else respective
    if i in respective:
        return match(wanted, periods(respective[i]))
    dates = [(d.start(), d.end()) for d in _FULL_DATE.finditer(sentence)]  # "September 30, 2025": its 30 is no figure
    figures = [j for j, m in enumerate(found) if j == i or not (re.fullmatch(r"(?:1[89]|20)\d\d", m.group(0).strip(" .,;:"))
                                                               or any(a <= m.start() and m.end() <= b for a, b in dates))]

    told = {} if told is None else told

    def stated(at: int) -> Periods:  # the period stated next to the figure figures[at], read once per sentence
        start = found[figures[at - 1]].end() if at else 0
        end = found[figures[at + 1]].start() if at + 1 < len(figures) else len(sentence)
        if (start, end) not in told:
            k = figures[at]  # what follows a clause break ("…, and full-year revenue was") is the next figure's
            own = periods(_CLAUSE_BREAK.split(sentence[found[k].end():end])[0])
            if not own:  # "… $37.6 million in fiscal 2023, and net income was $53.2 million": 2023 is the previous figure's
                before = sentence[start:found[k].start()]
                own = periods(_CLAUSE_BREAK.split(before)[-1] if at else before)
            told[(start, end)] = own
        return told[(start, end)]

    at = figures.index(i)  # a year is part of a period, not a figure that ends one
    own = stated(at)
    if own:
        return match(wanted, own)
    # A figure stated without a period is of the period the sentence states first for a figure it compares nothing
    # with: "Operating income was $65.8 million in fiscal 2024, compared with $37.6 million in fiscal 2023, and net
    # income was $53.2 million" (2024's); and never of the period it compares with ("… $65.8 million, compared with
    # $37.6 million in fiscal 2023, and net income was $53.2 million": not 2023's).
    compared = None
    for k in range(at):
        lead = stated(k)
        if not lead:
            continue
        if not _COMPARED.search(sentence, found[figures[k - 1]].end() if k else 0, found[figures[k]].start()):
            return match(wanted, lead)
        compared = compared or lead
    return -1 if compared and match(wanted, compared) > 0 else 0


#: What introduces a figure of the period compared with: "compared with $37.6 million in fiscal 2023".
_COMPARED = re.compile(r"\b(?:compared (?:with|to)|versus|vs\.?|(?:up |down )?from)\s*$", re.IGNORECASE)
#: Where a clause ends inside a sentence: what comes before it is the previous figure's.
_CLAUSE_BREAK = re.compile(r",\s+(?:and|while|whereas|but)\b|;")


_FULL_DATE = re.compile(r"\b(?:1\d{3}|20\d\d)-\d\d-\d\d\b|\b" + MONTH_NAME + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s*(?:\d{4}\b)?|"
                        r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH_NAME + r"\b(?:,?\s*\d{4}\b)?")


def _undated(sentence: str) -> str:
    """``sentence`` with its dates blanked (same length), so that no figure of a date is taken for a count.

    >>> answer_span("How many full-time employees?", [_undated("As of December 31, 2024, we employed 2,840 full-time employees.")])
    '2,840'
    >>> _undated("As of December 31, 2024, we employed 2,840 people.")
    'As of                  , we employed 2,840 people.'

    A run of years is a table's column heads, no count either:

    >>> answer_span("How much cash did operations generate in 2024?", [_undated("Year Ended December 31, 2024 2023 2022 "
    ...             "Operating activities:")]) is None
    True

    A reference's label is no count either ("the related notes included in Item 8", "see Note 12"):

    >>> _undated("Read it with the notes included in Item 8 and Section 1.01.")
    'Read it with the notes included in        and             .'
    """
    blank = lambda m: " " * len(m.group(0))  # noqa: E731
    return _REFERENCE.sub(blank, _YEAR_RUN.sub(blank, _FULL_DATE.sub(blank, sentence)))


#: A label that refers to a part of a document: "Item 7A", "Note 12", "Section 1.01", "Exhibit 10.1", "page 8".
_REFERENCE = re.compile(r"\b(?:Item|Note|Part|Section|Article|Exhibit|Chapter|Figure|Table|Appendix|Schedule|Rule|"
                        r"Form|Page|Pages|Annex|Clause|Paragraph)\s+\d+[A-Z]?(?:[.-]\d+)*\b(?![.,]\d)", re.IGNORECASE)


#: Two or more bare years in a row ("2024 2023 2022", "2024 | 2023"): the column heads of a table.
_YEAR_RUN = re.compile(r"(?<![\w.,$])(?:19|20)\d\d(?:\s*[|;,]?\s*(?:19|20)\d\d)+(?![\w.,]\d)")


def _distance_to_terms(sentence: str, terms: set[str], at: int, end: int | None = None) -> int:
    """Characters from offset ``at`` of ``sentence`` to its nearest word whose first five letters are one of
    ``terms`` (the question's words) outside ``sentence[at:end]`` (the value itself: "Stanford University" is not
    near "university" of "Which university …?"); the sentence's length when it has none."""
    end = at if end is None else end
    positions = [w.start() for w in re.finditer(r"[A-Za-z]{3,}", sentence)
                 if w.group(0).lower()[:5] in terms and not at <= w.start() < end]
    return min((abs(p - at) for p in positions), default=len(sentence))


def _place(question: str, sentences: Sequence[str], asked: set[str]) -> str | None:
    """The place or institution of the first sentence that names one the question does not, nearest the
    question's words ("born … in Teignmouth": Teignmouth).

    >>> _place("Where was Charles Babbage born?", ["Babbage was born on December 26, 1791 in Teignmouth, Devonshire UK."],
    ...        {"where", "was", "charles", "babbage", "born?"})
    'Teignmouth, Devonshire UK'
    >>> _place("In which city is Meridian Ledger Systems headquartered?",
    ...        ["The statements include the accounts of Meridian Ledger Systems, Inc. and its subsidiaries."],
    ...        {"which", "city", "meridian", "ledger", "systems", "headquartered"}) is None
    True

    A university or college asked for is an institution's name, not any capitalised word:

    >>> _place("Which university awarded Barbara Liskov her PhD?", ["Barbara Liskov was the first US woman to be "
    ...        "awarded a PhD in computing."], {"which", "university", "awarded", "barbara", "liskov", "her", "phd"}) is None
    True
    """
    terms = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", question)}
    institution = _ASKS_INSTITUTION.search(question) is not None
    for sentence in sentences:
        best, best_distance = None, None
        for m in _PLACE.finditer(sentence):  # never the sentence's first word: the subject, not the place
            value = re.sub(r"^the\s+", "", m.group(0).strip(" .,;:"))
            words = [re.sub(r"['’]s$", "", w.lower()).strip("'’.,") for w in re.findall(r"[\w'’.-]+", value)]
            if not value or all(w in asked or w in _NOT_PLACES or w in _LEGAL_FORMS for w in words):
                continue  # nothing new: the question's own names ("Meridian Ledger Systems, Inc." for "… Meridian …")
            if re.fullmatch(MONTH_NAME + r".*", value) or value.split()[0].lower() in _NOT_PLACES:
                continue
            if re.search(r"-(?:born|based|made|owned|led|speaking)$", value):
                continue  # "a Hungarian-born mathematician" names no city
            if institution and not (_INSTITUTION.search(value) or re.search(r"\b[A-Z]{3,}\b", value)):
                continue  # "Which university …?": not "US" of "the first US woman to be awarded a PhD"
            distance = _distance_to_terms(sentence, terms, m.start(), m.end())
            if best_distance is None or distance < best_distance:
                best, best_distance = value, distance
        if best is not None:
            return best
    return None


#: "Which university …?", "At what college …?": the answer names an institution ("University College Cork", "UCLA").
_ASKS_INSTITUTION = re.compile(r"\b(?:which|what) (?:\w+ ){0,2}?(?:university|college|institute|school)\b", re.IGNORECASE)
_INSTITUTION = re.compile(r"\b(?:Universit\w*|College|Institute|School|Polytechnic\w*|Academy|Hochschule|[ÉE]cole)\b")
_NOT_PLACES = frozenset("the a an he she it they his her its their in on at of this that i we you".split())
#: A company's legal form: "Meridian Ledger Systems, Inc." names no place the question does not.
_LEGAL_FORMS = frozenset("inc inc. corp corp. co co. llc llp ltd ltd. plc lp l.p n.a ag sa gmbh".split())


def _yes_no(question: str, sentences: Sequence[str]) -> str | None:
    """"Yes" or "No" for a yes/no question from the best quoted sentence: "No" when it negates more than the
    question does. A negated verb always counts ("is not recursive", "cannot", "never presented"); a negated noun
    phrase ("no …", "without …") only when it negates what the question asks about, a word of the question within
    the three words after it ("no patent was awarded"): "has no global variables and is therefore thread-safe"
    answers "Is it thread-safe?" with "Yes".

    >>> _yes_no("Was the Atanasoff-Berry Computer awarded a patent?", ["Although no patent was awarded for it."])
    'No'
    >>> _yes_no("Did Hollerith's firm become part of IBM?", ["In 1924 his firm became part of IBM."])
    'Yes'
    >>> _yes_no("Does PostgreSQL support hash indexes?", ["PostgreSQL supports building indexes without locking out writes."])
    'Yes'
    >>> _yes_no("Are subdirectories watched too?", ["Inotify monitoring of directories is not recursive."])
    'No'
    """
    if not sentences:
        return None
    asked = set(content_words(question))
    return "No" if _negations(sentences[0], asked) > _negations(question, asked) else "Yes"


#: Negations of a noun phrase: they negate what follows them, not the sentence ("has no global variables").
_PHRASE_NEGATION = frozenset({"no", "none", "nothing", "neither", "nor", "without"})


def _negations(text: str, asked: set[str]) -> int:
    """How many negations of ``text`` negate its statement: every negated verb, and each noun-phrase negation with
    one of the ``asked`` words within the three words after it."""
    tokens = re.findall(r"[\w'’-]+", text)
    count = 0
    for at, token in enumerate(tokens):
        verbal = re.search(r"n['’]t$", token, re.IGNORECASE) is not None
        if not verbal and not _NEGATION.fullmatch(token):
            continue
        if verbal or token.lower() not in _PHRASE_NEGATION:
            count += 1
        elif any(w in asked for w in content_words(" ".join(tokens[at + 1: at + 4]))):
            count += 1
    return count


def expected_type(question: str) -> str | None:
    """The kind of value ``question`` asks for: expansion, version, number, year, date, place, person,
    default, quantity, name, yes/no — or None.

    >>> expected_type("What does BRIN stand for?"), expected_type("How many bits does it store?")
    ('expansion', 'number')
    >>> expected_type("Who wrote the futex manual page?"), expected_type("What is the default isolation level?")
    ('person', 'default')
    >>> expected_type("When did Seymour Cray die?"), expected_type("In which city was Ken Thompson born?")
    ('date', 'place')
    >>> expected_type("Did Hollerith found a company?"), expected_type("When must the valve stay shut?")
    ('yes/no', None)
    >>> expected_type("If I watch a directory, are its subdirectories watched too?")
    'yes/no'
    >>> expected_type("Why do futexes exist?") is None
    True
    >>> expected_type("متى ولد جنكيز خان؟"), expected_type("كم يبلغ عدد سكان مكة؟")  # Arabic: when, how many
    ('date', 'number')

    "How much" of what a financial statement reports asks for an amount of that measure, as "what was" does:

    >>> expected_type("How much net income did Globex report in 2024?"), expected_type("How much memory does it need?")
    ('quantity', 'number')
    >>> expected_type("How much of Globex's revenue came from Europe?")  # a share
    'number'
    >>> expected_type("What inventory balance did Globex carry at December 31, 2024?")
    'quantity'

    A filing's company name can be long; the measure still makes the question one for an amount:

    >>> expected_type("What were Lakeshore Therapeutics' selling, general and administrative expenses for full-year 2024?")
    'quantity'
    """
    kind = next((kind for kind, asks in _KINDS if asks.search(question)), None)
    if kind == "number" and _HOW_MUCH_MEASURE.search(question):
        return "quantity"
    return kind


def asks_measure(question: str) -> bool:
    """Whether ``question`` asks for an amount of a measure a financial statement reports (an amount asked,
    :func:`expected_type` "quantity", and a statement's measure named, :func:`financial_nouns`).

    >>> asks_measure("What was Northwind's cost of goods sold (COGS) in fiscal 2024?")
    True
    >>> asks_measure("What should a postinst return to tell dpkg that it worked?"), asks_measure("Who is the CFO?")
    (False, False)
    """
    return expected_type(question) == "quantity" and bool(financial_nouns(question))


_HOW_MUCH_MEASURE = re.compile(r"\bhow much\b(?!\s+of\b)[^?]{0,100}?\b" + _FINANCIAL + r"\b", re.IGNORECASE)


def holds_value(question: str, sentence: str) -> bool:
    """Whether ``sentence`` holds the kind of value ``question`` asks for (for the kinds a sentence can be
    checked for: a number, version, year, expansion, a person's name, a default).

    >>> holds_value("What is the default isolation level?", "Read Committed is the default isolation level.")
    True
    >>> holds_value("Who wrote the futex manual page?", "Futexes appeared in Linux 2.5.7.")
    False
    """
    kind = expected_type(question)
    if kind == "default":
        return bool(re.search(r"\bdefault", sentence, re.IGNORECASE))
    if kind == "person":
        return _first_new(_PERSON, [sentence], _question_words(question)) is not None
    if kind == "organization":
        return _organization([sentence], _question_words(question)) is not None
    if kind == "place":
        return _place(question, [sentence], _question_words(question)) is not None
    return answer_span(question, [sentence]) is not None


#: Words that say which kind of answer is wanted, not what is asked about ("in which *city* was … born"),
#: the particles of names ("John *von* Neumann", "*al*-Khwarizmi") and verbs that only shape a request
#: ("which option *lets* you …", "how do I *use* …"; as :func:`content_words` stems them).
_TYPE_WORDS = frozenset("""
year date day month time city town village country state county province region district neighbourhood neighborhood
borough place university college institute school name number many much person people kind type
von van der den de del della da di du al el ibn bin ben le la
use used using let make help find get give want need able way besid like tell call typical usual exact actual main
""".split()) | frozenset(  # the same in Arabic, as content_words writes them: name, kind, year, city, country, number …
    "اسم نوع عام سنة مدين دول بلد عدد تاريخ يوم شهر وقت مكان شخص".split())
#: Irregular verb forms, so that "When did X die / begin / write" finds "X died / began / wrote".
_IRREGULAR = {"began": "begin", "begun": "begin", "wrote": "write", "written": "write", "made": "make", "took": "take",
              "taken": "take", "gave": "give", "given": "give", "became": "become", "went": "go", "gone": "go",
              "grew": "grow", "grown": "grow", "led": "lead", "won": "win", "built": "build", "taught": "teach",
              "sold": "sell", "bought": "buy", "held": "hold", "left": "leave", "met": "meet", "ran": "run",
              "saw": "see", "seen": "see", "spent": "spend", "told": "tell", "thought": "think", "brought": "bring",
              "found": "find", "fell": "fall", "chose": "choose", "chosen": "choose", "drew": "draw", "drawn": "draw",
              "knew": "know", "known": "know", "came": "come", "got": "get", "paid": "pay", "said": "say",
              "sent": "send", "stood": "stand", "understood": "understand", "wore": "wear", "lost": "lose",
              "bore": "bear", "died": "die", "dies": "die", "dying": "die"}


def focus_words(question: str) -> list[str]:
    """What the question asks *about its subject*: its content words without the anchors (the names that
    say which thing: :func:`serving.answer.anchors.anchors`) and without the words naming the kind of answer.

    >>> focus_words("In which city was Ken Thompson born?"), focus_words("Who was Charles Babbage's wife?")
    (['born'], ['wife'])
    >>> focus_words("What does the abbreviation MUD stand for?")  # the acronym is the anchor; the rest names the kind
    []
    """
    return list(_focus_words(question))


@lru_cache(maxsize=1024)
def _focus_words(question: str) -> tuple[str, ...]:
    named = {w for a in anchors(question) for w in content_words(a)}
    kind_words = _TYPE_WORDS | (_EXPANSION_WORDS if expected_type(question) == "expansion" else frozenset())
    return tuple(w for w in dict.fromkeys(content_words(question))
                 if w not in named and w not in kind_words and len(w) > 1)


#: The words of a question that asks what an abbreviation stands for ("What does the abbreviation MUD stand for?"):
#: they name the kind of answer, which a glossary's "[acronym, Multi-User Dungeon]" does not repeat.
_EXPANSION_WORDS = frozenset({"stand", "stands", "abbreviation", "abbreviated", "acronym", "initialism", "short",
                              "shorthand", "mean", "means"})


def _same_word(a: str, b: str) -> bool:
    """One word, lightly inflected: a shared 5-letter prefix, or one a prefix (≥ 3 letters) of the other."""
    if a[:5] == b[:5] and min(len(a), len(b)) >= 5:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 3 and long.startswith(short)


def mentions(wanted: str, words: set[str]) -> bool:
    """Whether the content word ``wanted`` is among ``words`` (content words), lightly inflected or in an irregular
    form ("wrote" for "write", "built" for "build").

    >>> mentions("write", {"wrote", "manual"}), mentions("receive", {"receiv"}), mentions("born", {"bear"})
    (True, True, False)
    """
    forms = words | {_IRREGULAR[v] for v in words if v in _IRREGULAR}
    return any(_same_word(w, v) for w in {wanted, _IRREGULAR.get(wanted, wanted)} for v in forms)


def answer_span(question: str, sentences: Sequence[str]) -> str | None:
    """The short answer in ``sentences`` for ``question``, or None when none can be told apart."""
    asked = _question_words(question)
    kind = expected_type(question)
    if kind == "expansion":
        for sentence in sentences:
            m = re.search(r"(?:stands? for|short(?:hand)? for|(?:abbreviation|acronym) (?:for|of)|means?)\s+[\"“]?"
                          r"([A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){0,6})", sentence)
            if m:
                return m.group(1).strip(" .,;:\"”")
        return _spelled_out(question, sentences)
    since = _ASKS_SINCE.search(question) is not None  # "since 2009", not the report's 2023
    if kind == "version":
        return _first_new(_VERSION, sentences, asked, starting=since)
    if kind == "number":  # a day of a date is no count: "As of December 31, 2024, we employed 2,840 people"
        undated = [_undated(s) for s in sentences]
        if re.search(r"percent|%", question, re.I):  # "by what percentage": "up 31%", never "$376.2 million" or "2025"
            if _ASKS_CHANGE.search(question):  # "did revenue grow": a change, not "14% of total revenue"
                undated = [u for u in undated if _CHANGE.search(u)]
            return _first_new(_PERCENT, undated, asked)
        if re.search(r"\bhow many\b", question, re.IGNORECASE):  # a count: "greater than 10 percent" counts nothing
            undated = [_PERCENT.sub(" ", u) for u in undated]
        return _in_units(question, undated, asked) or _first_new(_NUMBER, undated, asked, near=focus_words(question))
    if kind == "year":
        return _first_new(_YEAR, sentences, asked, starting=since, near=focus_words(question))
    if kind == "date":  # "On what date …?" asks for a day: "maturing in 2030" does not say it
        return _first_new(_FULL_DATE if _ASKS_DAY.search(question) else _DATE, sentences, asked,
                          near=focus_words(question))
    if kind == "place":
        return _place(question, sentences, asked)
    if kind == "person":
        return _first_new(_PERSON, sentences, asked)
    if kind == "organization":
        return _organization(sentences, asked)
    if kind == "yes/no":
        return _yes_no(question, sentences)
    if kind == "name":
        return _best_name(question, sentences, asked) or _first_new(_QUOTED, sentences, asked)
    if kind == "quantity":
        return _quantity(question, sentences)
    return None


def _organization(sentences: Sequence[str], asked: set[str]) -> str | None:
    """The first organisation's name the question does not state.

    >>> _organization(["NORTHWIND, INC., as the Borrower, FIRST MERIDIAN BANK, N.A., as Agent"], {"northwind"})
    'FIRST MERIDIAN BANK'
    >>> _organization(["The audit was performed by Pemberton Ashby LLP."], {"calder"})
    'Pemberton Ashby LLP'
    >>> _organization(["On March 14, 2025, the Borrower signed."], set()) is None
    True
    >>> _organization(["We conducted our audits under the standards of the Public Company Accounting Oversight Board. "
    ...                "/s/ Pemberton Ashford LLP"], set())
    'Pemberton Ashford LLP'
    """
    return _first_new(_ORGANIZATION, sentences, asked)


def financial_nouns(text: str) -> set[str]:
    """The measures of a financial statement that ``text`` names, lower-cased.

    >>> sorted(financial_nouns("Operating income of the segment")), financial_nouns("Total net sales")
    (['operating income'], {'revenue'})

    One measure in the singular and the plural, and under the names analysts give it: a question's "total inventory"
    is the row "Inventories", its "net profit" the row "Net income".

    >>> financial_nouns("total inventory balance") == financial_nouns("Inventories"), financial_nouns("net profit")
    (True, {'net income'})
    >>> financial_nouns("its receivables") == financial_nouns("Accounts receivable, net")
    True
    >>> financial_nouns("the top line"), financial_nouns("its bottom line")
    ({'revenue'}, {'net income'})

    Income is several measures: operating, net, gross, comprehensive, before taxes and per share ("earnings per
    share"); "income taxes" are a tax, not an income.

    >>> sorted(financial_nouns("Income before income taxes; loss from operations; diluted earnings per share"))
    ['operating income', 'per share income', 'pretax income']
    >>> financial_nouns("Provision for income taxes"), financial_nouns("Net loss")
    ({'tax'}, {'net income'})

    The cost of revenue is no revenue, and capital expenditures are the purchases of property and equipment:

    >>> financial_nouns("Cost of revenue"), financial_nouns("Purchases of property, plant and equipment")
    ({'cost of revenue'}, {'expenditure'})
    >>> financial_nouns("How much did it spend on PP&E?"), financial_nouns("Deferred revenue, current portion")
    ({'expenditure'}, {'deferred revenue'})
    >>> financial_nouns("cash from operations") == financial_nouns("Net cash provided by operating activities")
    True
    >>> financial_nouns("Cash and cash equivalents"), financial_nouns("operating cash flow")
    ({'cash'}, {'operating cash flow'})

    Analysts' names: capex, COGS, D&A, R&D, SG&A, buybacks and buying back, book value; "inventory reserves" are no
    inventory.

    >>> [sorted(financial_nouns(t)) for t in ("COGS", "share buybacks", "R&D expenses", "book value", "Inventory reserves")]
    [['cost of revenue'], ['repurchase'], ['research and development'], ['equity'], []]
    >>> financial_nouns("How many shares did it buy back?") == financial_nouns("Total Number of Shares Purchased")
    True
    """
    return set(_financial_nouns(text))


#: The measures :data:`_MEASURE` names by a group of their own, and what each is called.
_NAMED_MEASURES = (("cost", "cost of revenue"), ("capex", "expenditure"), ("deferred", "deferred revenue"),
                   ("cashflow", "operating cash flow"))


@lru_cache(maxsize=1024)
def _financial_nouns(text: str) -> frozenset[str]:
    """:func:`financial_nouns`, once per text (the answer path asks for the question's with every candidate)."""
    found = set()
    for m in _MEASURE.finditer(text):
        special = next((name for group, name in _NAMED_MEASURES if m.group(group)), None)
        if special:
            found.add(special)
            continue
        noun = " ".join(m.group("noun").lower().split())
        if "&" in noun or " and " in noun:  # "R&D expenses", "Selling, general and administrative expenses": one measure
            noun = noun.removesuffix(" expenses").removesuffix(" expense")
        noun = _SINGULAR.get(noun, noun)
        tail = " ".join((m.group("tail") or "").lower().split())
        if noun != "income":
            found.add(noun)
        elif tail.startswith("tax"):
            found.add("tax")
        else:
            qualifier = ("pretax" if tail.startswith("before") else "operating" if tail == "from operations" else
                         "per share" if tail.startswith("per") else (m.group("qualifier") or "").lower().replace("-", ""))
            found.add(f"{qualifier} income".strip())
    return frozenset(found)


def named_measure_words(question: str, text: str) -> frozenset[str]:
    """The content words of the measures ``question`` names (:func:`financial_nouns`) when ``text`` names one of
    them under any of its names, else none: a statement's "Capital expenditures" row states the question's "capex",
    "Cost of sales" its "cost of goods sold (COGS)", "Repurchases of common stock" its "share buybacks".

    >>> sorted(named_measure_words("What was Northwind's capex in 2023?", "Capital expenditures | (24,208)"))
    ['capex']
    >>> sorted(named_measure_words("How much did it spend on share buybacks?", "Repurchases of common stock | (31,206)"))
    ['buyback']
    >>> named_measure_words("What was Northwind's capex in 2023?", "Net sales | $ 981,340")
    frozenset()

    A qualifier is part of an income's name only: "operating cash flow" is not stated by a cash balance.

    >>> named_measure_words("What was its operating cash flow?", "Cash and cash equivalents | 882,114")
    frozenset()
    >>> sorted(named_measure_words("What was its operating profit?", "Operating income | 144,176"))
    ['operat', 'profit']
    """
    return _named_measure_words(question, text)


@lru_cache(maxsize=16384)
def _named_measure_words(question: str, text: str) -> frozenset[str]:
    named = financial_nouns(text)
    if not named:
        return frozenset()
    words: set[str] = set()
    for m in _MEASURE.finditer(question):
        if measures_agree(financial_nouns(m.group(0)), named):
            qualifier = m.group("qualifier")  # "operating cash" is no cash balance: a qualifier counts only for an income
            noun_only = qualifier and not financial_nouns(m.group(0)) & {"operating income", "net income", "gross income",
                                                                         "comprehensive income", "pretax income"}
            words.update(content_words(m.group(0)[m.start("noun") - m.start():] if noun_only else m.group(0)))
    return frozenset(words)


def measures_agree(asked: set[str], named: set[str]) -> bool:
    """Whether a text naming the measures ``named`` may state one of ``asked`` (both from :func:`financial_nouns`):
    the same measure, or an income that one of the two leaves unqualified.

    >>> measures_agree({"net income"}, {"operating income"}), measures_agree({"income"}, {"net income", "cash"})
    (False, True)

    The cash a question asks about may be a flow ("How much cash did operations generate?"); the operating cash
    flow it asks about is no balance of cash:

    >>> measures_agree({"cash"}, {"operating cash flow"}), measures_agree({"operating cash flow"}, {"cash"})
    (True, False)
    """
    return any(a == n or (a.split()[-1] == n.split()[-1] == "income" and (a == "income" or n == "income"))
               or (a == "cash" and n == "operating cash flow") for a in asked for n in named)


#: One measure under its names: singular and plural ("Inventories" is the question's "inventory"), and the words
#: analysts use for one another ("net profit", "earnings" and "net income"; "sales" and "revenue"; "capex").
_SINGULAR = {"revenues": "revenue", "sales": "revenue", "profits": "income", "profit": "income", "earnings": "income",
             "losses": "income", "loss": "income", "expenses": "expense", "expenditures": "expenditure",
             "capex": "expenditure", "commitments": "commitment", "dividends": "dividend", "inventories": "inventory",
             "receivables": "receivable", "payables": "payable",
             "top line": "revenue", "top-line": "revenue", "bottom line": "net income", "bottom-line": "net income",
             "book value": "equity", "book-value": "equity", "buyback": "repurchase", "buybacks": "repurchase",
             "repurchases": "repurchase", "repurchased": "repurchase", "buy back": "repurchase",
             "buys back": "repurchase", "buying back": "repurchase", "bought back": "repurchase",
             "shares purchased": "repurchase", "stock purchased": "repurchase", "shares repurchased": "repurchase",
             "stock repurchased": "repurchase", "r&d": "research and development", "d&a": "depreciation",
             "sg&a": "selling general and administrative", "selling general and administrative":
             "selling general and administrative", "selling, general and administrative": "selling general and administrative"}


def asks_ratio(question: str) -> bool:
    """Whether ``question`` asks for a share, a rate or a change, whose answer may be a percentage.

    >>> asks_ratio("What percentage of the commitments does Ohio Valley hold?"), asks_ratio("What were net sales?")
    (True, False)
    """
    return _ASKS_RATIO.search(question) is not None


def _spelled_out(question: str, sentences: Sequence[str]) -> str | None:
    """The words whose capitals spell an acronym of the question, next to it in brackets: "Block Range
    INdexes (BRIN)", "BRIN (Block Range INdexes)".

    >>> _spelled_out("What does BRIN stand for?", ["BRIN (Block Range INdexes) store summaries."])
    'Block Range INdexes'
    >>> _spelled_out("What does WAL stand for?", ["The write-ahead log (WAL) is flushed."]) is None
    True

    A glossary spells an acronym of three letters or more out beside its headword, with no brackets around the
    acronym itself ("MUD: [acronym, Multi-User Dungeon]"): capitalised words whose capitals are exactly the
    acronym's letters count anywhere in the sentence.

    >>> _spelled_out("What does the abbreviation MUD stand for?", ["[acronym, Multi-User Dungeon; alt.: Multi-User Dimension]"])
    'Multi-User Dungeon'
    >>> _spelled_out("What does MUD stand for?", ["Many Users Disliked the change."]) is None  # a sentence's first word
    True
    """
    for acronym in re.findall(r"\b[A-Z]{2,}\b", question):
        for sentence in sentences:
            for m in re.finditer(r"((?:[A-Z][\w-]*\s+){1,7}[A-Z][\w-]*)\s*\(" + acronym + r"\)|\b" + acronym
                                 + r"\s*\(((?:[A-Z][\w-]*\s+){1,7}[A-Z][\w-]*)\)", sentence):
                words = (m.group(1) or m.group(2)).split()
                for start in range(len(words)):
                    tail = words[start:]
                    if _capitals(tail) == acronym:
                        return " ".join(tail)
        if len(acronym) < 3:
            continue
        for sentence in sentences:
            for m in _CAPITALISED_RUN.finditer(sentence):
                words = m.group(0).split()
                if len(words) > 1 and _capitals(words) == acronym and m.start() > 0 and not m.group(0).isupper():
                    return m.group(0)
    return None


#: Capitalised words in a row ("Multi-User Dungeon"), each starting a word.
_CAPITALISED_RUN = re.compile(r"(?<![\w-])[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,7}")


def _capitals(words: Sequence[str]) -> str:
    """The capitals of ``words`` in order: ["Multi-User", "Dungeon"] → "MUD", ["INdexes"] → "IN"."""
    return "".join(re.sub(r"[^A-Z]", "", w) for w in words)


_NOUN_SHAPES = (  # the question's noun → the identifier shape it asks for
    (re.compile(r"\b(?:flag|constant|macro|signal|error|errno)s?\b", re.I), re.compile(r"^[A-Z][A-Z0-9_]+$")),
    (re.compile(r"\b(?:system call|call|function)s?\b", re.I), re.compile(r"^\w+\(\d\w*\)$|^[a-z_][a-z0-9_]*$")),
    (re.compile(r"\boptions?\b", re.I), re.compile(r"^--?\w")),
    (re.compile(r"\b(?:file|directory|path)s?\b", re.I), re.compile(r"^/")),
)


def _best_name(question: str, sentences: Sequence[str], asked: set[str]) -> str | None:
    """The identifier of the quoted sentences that best fits a "which flag/call/option/file …" question:
    the shape the question's noun asks for, how often it occurs, and how close it sits to the question's
    words.

    >>> _best_name("Which epoll flag requests edge-triggered notification?",
    ...            ["Processes that inherit the fd across fork(2) and are marked edge-triggered (EPOLLET) wake.",
    ...             "The EPOLLONESHOT flag disables it.", "Use the EPOLLET flag with nonblocking fds."], set())
    'EPOLLET'
    """
    shapes = [shape for noun, shape in _NOUN_SHAPES if noun.search(question)]
    question_terms = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", question)}
    scores: dict[str, float] = {}
    for sentence in sentences:
        for m in _IDENTIFIER.finditer(sentence):
            value = m.group(0).strip(" .,;:")
            if not value or value.lower() in asked:
                continue
            window = sentence[max(0, m.start() - 50): m.end() + 50]
            near = sum(1 for w in re.findall(r"[A-Za-z]{3,}", window) if w.lower()[:5] in question_terms)
            fit = 2.0 if any(shape.match(value) for shape in shapes) else 0.0
            scores[value] = scores.get(value, fit) + 1.0 + 0.25 * min(near, 4)
    return max(scores, key=lambda v: (scores[v], -len(v))) if scores else None


#: "How does the agreement define X?", "What is the definition of X?", "What does X mean?", "What is meant by X?".
_ASKS_DEFINITION = re.compile(
    r"(?:\bhow (?:does|do|did|would)\b[^?]*?\bdefine|^\s*define)\s+(?:the\s+(?:term\s+)?|a\s+|an\s+)?[\"“']?"
    r"(?P<a>[^?\"”']+?)[\"”']?(?:\s+as\b[^?]*)?\s*(?:\?|$)|"
    r"\bhow (?:is|are) (?:the\s+(?:term\s+)?|a\s+|an\s+)?[\"“']?(?P<e>[^?\"”']+?)[\"”']? defined\b|"
    r"\b(?:definition|meaning) of\s+(?:the\s+(?:term\s+)?|a\s+|an\s+)?[\"“']?(?P<b>[^?\"”']+?)[\"”']?\s*(?:\?|$)|"
    r"\bwhat (?:does|do)\s+(?:the\s+(?:term\s+)?)?[\"“']?(?P<c>[^?\"”']+?)[\"”']?\s+mean\b|"
    r"\bwhat is meant by\s+(?:the\s+(?:term\s+)?)?[\"“']?(?P<d>[^?\"”']+?)[\"”']?\s*(?:\?|$)", re.IGNORECASE)


def defined_term(question: str) -> str | None:
    """The term whose definition ``question`` asks for, else None.

    >>> defined_term("How does Northwind's 2025 credit agreement define the Consolidated Leverage Ratio?")
    'Consolidated Leverage Ratio'
    >>> defined_term('What does "Applicable Rate" mean in the agreement?'), defined_term("What is the definition of a Lender?")
    ('Applicable Rate', 'Lender')
    >>> defined_term("What was the consolidated leverage ratio at year end?") is None
    True
    >>> defined_term("Which standard defines the glob rules?") is None, defined_term("How is a Business Day defined?")
    (True, 'Business Day')
    """
    m = _ASKS_DEFINITION.search(question)
    if m is None:
        return None
    term = next(g for g in m.groups() if g).strip(" ,;:")
    return term if 0 < len(term.split()) <= 8 else None


def defines(term: str, sentence: str) -> bool:
    """Whether ``sentence`` defines ``term``: the term (quoted or not) followed by "means", "shall mean", "is defined
    as", "refers to" or "has the meaning".

    >>> defines("Consolidated Leverage Ratio", "“Consolidated Leverage Ratio” means, as of any date, the ratio of (a) "
    ...         "Consolidated Funded Indebtedness to (b) Consolidated EBITDA.")
    True
    >>> defines("Consolidated Leverage Ratio", "The Borrower will not permit the Consolidated Leverage Ratio to be "
    ...         "greater than 3.50 to 1.00.")
    False
    """
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.search(r"[\"“']?\b" + words + r"\b[\"”']?\s*(?:,[^,]{0,40},\s*)?(?:means|shall mean|is defined as|"
                     r"shall be defined as|refers to|has the meaning)\b", sentence, re.IGNORECASE) is not None

