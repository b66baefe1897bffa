"""The extractive answerer's rules that need no model: boilerplate is never a candidate, the focus of a
question must be stated, dates, places, names and yes/no are the short answer when asked for. (End-to-end figures with
the real cross-encoder: tests/eval/test_answers_encyclopedic.py and test_answers_other_kind.py.)"""

from __future__ import annotations

import asyncio

import pytest

from cluster.config import load_config
from serving.answer.extractive import Answerability, ExtractiveAnswerer, focus
from serving.answer.span import answer_span, expected_type

COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549 FORM 10-K ANNUAL REPORT "
         "PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 for the fiscal year ended "
         "December 31, 2024. Commission file number 001-12345.")
TOC = "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations .......... 45"
LEGAL = "Copyright © 2024 Example Holdings, Inc. All rights reserved."
BODY = "Net revenue for the fiscal year ended December 31, 2024 was $4.1 billion, up 12% from the prior year."


def _answerer(model: Answerability) -> ExtractiveAnswerer:
    async def score(question, texts):  # ranking only; the decision under test is the rules'
        return [float(len(t)) / 100 for t in texts]

    return ExtractiveAnswerer(load_config().answer.extractive, model, score)


def test_boilerplate_is_never_a_candidate_nor_quoted():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    passages = [(f"{COVER}\n\n{TOC}\n\n{LEGAL}", "10-K › Cover", 0.9), (BODY, "10-K › Item 7", 0.5)]
    texts = [c[3] for c in answerer.candidates(passages)]
    assert texts == [BODY], texts
    answer = asyncio.run(answerer.answer("What was net revenue for the fiscal year ended December 31, 2024?", passages))
    assert answer.answerable and answer.cited == [2] and "$4.1 billion" in answer.answer, answer
    only_cover = asyncio.run(answerer.answer("What was filed for the fiscal year ended December 31, 2024?",
                                             [(COVER, "10-K", 0.9)]))
    assert not only_cover.answerable and only_cover.sentences == []


def test_the_focus_of_the_question_must_be_stated():
    # On topic, names the subject, holds a place, but says nothing about being born: refused by the focus.
    model = Answerability(weights={"value_focus": 2.0}, bias=-1.0, threshold=0.0)
    answerer = _answerer(model)
    passages = [("Ken Thompson is the principal inventor of the Unix operating system. In 1969 Ken Thompson "
                 "worked at Bell Labs in New Jersey.", "Ken Thompson", 0.9)]
    refused = asyncio.run(answerer.answer("In which city was Ken Thompson born?", passages))
    assert not refused.answerable and refused.features["value_focus"] == 0.0, refused
    stated = [("Charles Babbage was born on December 26, 1791 in Teignmouth, Devonshire UK.", "Charles Babbage", 0.9)]
    answered = asyncio.run(answerer.answer("Where was Charles Babbage born?", stated))
    assert answered.answerable and answered.answer_value and answered.answer_value.startswith("Teignmouth"), answered
    assert focus("When did Seymour Cray die?", "He died on 1996-10-05.") == 1.0
    assert focus("In which state did Seymour Cray begin Cray Research?", "He began Cray Research in Minnesota.") == 1.0


def test_dates_places_names_and_yes_no_are_the_short_answer():
    assert expected_type("When was the first Macintosh released?") == "date"
    assert answer_span("When was the first Macintosh released?",
                       ["The first Macintosh was released in January 1984."]) == "January 1984"
    assert answer_span("Where is Grace Hopper buried?",
                       ["Hopper is buried at Arlington National Cemetery."]) == "Arlington National Cemetery"
    assert answer_span("Which graduate student helped Atanasoff build his computer?",
                       ["He was introduced to a graduate student named Clifford Berry."]) == "Clifford Berry"
    assert answer_span("Was a patent awarded for the Atanasoff-Berry Computer?",
                       ["Although no patent was awarded for the new computer, a judge declared him the inventor."]) == "No"
    assert answer_span("Did Herman Hollerith's firm become part of IBM?",
                       ["In 1924 his firm became part of IBM."]) == "Yes"


#: (question, best sentence, verdict). A negated verb says "No"; a negated noun phrase ("no …", "without …") only
#: when it negates what the question asks about ("without locking" and "no global variables" do not); a yes/no
#: question after a leading clause is one too.
YES_NO = [
    ("Does PostgreSQL support hash indexes?", "PostgreSQL supports building indexes without locking out writes.", "Yes"),
    ("Is the low-level libbzip2 interface thread-safe?",
     "The low-level part of the library has no global variables and is therefore thread-safe.", "Yes"),
    ("Does PostgreSQL support hash indexes?", "PostgreSQL does not support hash indexes on system catalogs.", "No"),
    ("If I add an inotify watch on a directory, are its subdirectories watched too?",
     "Inotify monitoring of directories is not recursive.", "No"),
    ("Can I run CREATE INDEX CONCURRENTLY inside a transaction block?",
     "A regular CREATE INDEX command can be performed within a transaction block, but CREATE INDEX CONCURRENTLY cannot.",
     "No"),
]


@pytest.mark.parametrize(("question", "sentence", "verdict"), YES_NO, ids=[f"{i}-{v}" for i, (_, _, v) in enumerate(YES_NO)])
def test_a_yes_no_verdict_reads_what_the_negation_negates(question, sentence, verdict):
    assert answer_span(question, [sentence]) == verdict


def test_an_expansion_is_found_however_the_text_spells_it():
    question = "What does the PostgreSQL index type name BRIN stand for?"
    assert answer_span(question, ["BRIN indexes (a shorthand for Block Range INdexes) store summaries."]) == \
        "Block Range INdexes"
    assert answer_span(question, ["Block Range INdexes (BRIN) store summaries of block ranges."]) == "Block Range INdexes"
    assert answer_span(question, ["BRIN indexes store summaries of block ranges."]) is None
    # "used for" shapes the request: the focus is what the thing is, not the word "used".
    assert focus("What is the cookie field of an inotify event used for?",
                 "The cookie field is a unique integer that connects related inotify events.") == 1.0


def test_a_glossary_spells_an_acronym_out_beside_its_headword():
    # The Jargon File's "MUD" entry: no "stands for", no brackets around the acronym; nor does it repeat the
    # question's "abbreviation … stand for", which only say what kind of answer is asked.
    question = "What does the abbreviation MUD stand for?"
    entry = "[acronym, Multi-User Dungeon; alt.: Multi-User Dimension]"
    assert answer_span(question, [entry]) == "Multi-User Dungeon"
    assert focus(question, entry) == 1.0
    assert answer_span(question, ["The acronym MUD is often lowercased and/or verbed."]) is None
    assert answer_span("What does WAL stand for?", ["The write-ahead log (WAL) is flushed at commit."]) is None


def test_a_count_is_never_a_reference_label_nor_a_day():
    question = "What was Northwind Precision Instruments' headcount at the end of FY2024?"
    assert expected_type(question) == "number"
    assert expected_type("What is the total number of stores the company operates?") == "number"
    assert answer_span(question, ["The following discussion should be read with the notes included in Item 8."]) is None
    assert answer_span(question, ["As of December 31, 2024, we employed approximately 2,840 full-time employees."]) \
        == "2,840"
    assert answer_span("How many savepoints are allowed?", ["See Section 4.2 and Note 12 for the limits."]) is None


def test_a_university_asked_for_is_an_institution_and_a_date_asked_for_is_a_day():
    question = "Which university awarded Barbara Liskov her PhD?"
    assert expected_type(question) == "place"
    assert answer_span(question, ["Professor Barbara Liskov was the first US woman to be awarded a PhD in computing."]) \
        is None
    assert answer_span("Which university awarded Vint Cerf his Ph.D.?",
                       ["He holds Master of Science and Ph.D. degrees in Computer Science from UCLA."]) == "UCLA"
    assert answer_span("Which university has a library named after George Boole?",
                       ["The Boole library at University College Cork is named after him."]) == "University College Cork"
    question = "On what date does the revolving credit facility mature?"
    assert answer_span(question, ["It entered into a revolving credit facility maturing in 2030."]) is None
    assert answer_span(question, ["“Maturity Date” means March 14, 2030."]) == "March 14, 2030"
    assert answer_span("When did Seymour Cray die?", ["He died in 1996."]) == "1996"  # "when" takes a year


def test_a_quote_reads_without_restructuredtext_markup():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    passages = [("To implement a queue, use :class:`collections.deque` which was designed to have fast appends "
                 "and pops from both ends.", "Python tutorial › Using Lists as Queues", 0.9)]
    answer = asyncio.run(answerer.answer("What should you use to implement a queue with fast appends and pops?",
                                         passages))
    assert answer.answerable and "use collections.deque which" in answer.answer and "`" not in answer.answer, answer


def test_a_question_in_capitals_or_with_contractions_reads_as_the_plain_question():
    # The shipped answerability model over one passage that states the answer: the question asked plainly, in
    # capitals, and with its contractions and possessives, gets the same features and the same answer. Before,
    # every capitalised word was an "acronym" anchor (HOW, DO, COMPRESS: refused for lacking "how"), and "'s" and
    # "n't" were content words of their own that lowered the coverage.
    from serving.answer.anchors import anchors
    from serving.answer.extractive import resolve_answerability

    cfg = load_config()
    answerer = _answerer(resolve_answerability(cfg))
    passages = [("To compress a file with bzip2, give its name: bzip2 replaces each file by a compressed "
                 "copy whose name ends in .bz2.", "bzip2 › DESCRIPTION", 0.9)]
    plain = asyncio.run(answerer.answer("How do I compress a file with bzip2?", passages))
    assert plain.answerable and plain.cited == [1], plain
    assert anchors("HOW DO I COMPRESS A FILE WITH BZIP2?") == ["bzip2"]
    shouted = asyncio.run(answerer.answer("HOW DO I COMPRESS A FILE WITH BZIP2?", passages))
    assert shouted.answerable and shouted.answer == plain.answer and shouted.features == plain.features, shouted
    contracted = asyncio.run(answerer.answer("What's the way to compress a file with bzip2's command?", passages))
    reworded = asyncio.run(answerer.answer("What is the way to compress a file with bzip2 command?", passages))
    assert contracted.features == reworded.features, (contracted.features, reworded.features)


def test_several_questions_in_one_message_are_answered_each_on_its_own():
    # Asked together, each question is answered from its own sentence (before, the two were scored as one
    # question, which no sentence covers, and the message was refused); a question the passages do not answer
    # is named in the note, and the message is refused only when none is answered.
    from serving.answer.extractive import resolve_answerability

    async def same(question, texts):  # no ranking model: the question's words decide
        return [0.0 for _ in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, resolve_answerability(load_config()), same)
    passages = [("The epoll API monitors multiple file descriptors to see if I/O is possible on any of them.",
                 "epoll(7) › DESCRIPTION", 0.9),
                ("The inotify API provides a mechanism for monitoring filesystem events.", "inotify(7) › DESCRIPTION",
                 0.9)]
    both = asyncio.run(answerer.answer("What does the epoll API monitor? What does the inotify API monitor?", passages))
    assert both.answerable and both.cited == [1, 2] and both.note is None, both
    assert "file descriptors" in both.answer and "filesystem events" in both.answer, both.answer
    one = asyncio.run(answerer.answer("What does the epoll API monitor? Who founded the Zorblax Society?", passages))
    assert one.answerable and one.cited == [1], one
    assert one.note and "Zorblax" in one.note and "answered 1 of 2" in one.note, one.note
    alone = asyncio.run(answerer.answer("What does the epoll API monitor?", passages))
    assert one.answer == alone.answer, (one.answer, alone.answer)
    none = asyncio.run(answerer.answer("Who founded the Zorblax Society? When did Quux Corp open?", passages))
    assert not none.answerable and none.answer == "", none


def test_a_question_mark_that_stands_for_itself_does_not_end_the_question():
    # "a literal * or ? in a wildcard pattern": a "?" on its own (or quoted, or inside a word) is the character,
    # so the message is one question; split there, its first half ("How do I match a literal * or ?") was
    # answered from a sentence about literals in Python's match statement.
    from serving.answer.extractive import asked, questions_in

    glob = "How do I match a literal * or ? in a wildcard pattern instead of having it act as a wildcard?"
    assert questions_in(glob) == [glob] and asked(glob) == glob
    assert questions_in("What does `?` match in glob? what does * match?") == \
        ["What does `?` match in glob?", "what does * match?"]
    assert questions_in("Is file?.txt a valid pattern?") == ["Is file?.txt a valid pattern?"]


def test_a_see_also_section_is_never_quoted():
    # "How do I drop an index in PostgreSQL?" was answered with the CREATE INDEX page's "See Also" list
    # ("ALTER INDEX, DROP INDEX, REINDEX, Section 28.4.2"): a section that only points elsewhere is navigation.
    from serving.answer.extractive import resolve_answerability

    async def same(question, texts):
        return [0.0 for _ in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, resolve_answerability(load_config()), same)
    passages = [("ALTER INDEX, DROP INDEX, REINDEX, Section 28.4.2.", "CREATE INDEX > See Also", 0.9),
                ("CREATE INDEX constructs an index on the specified column(s) of the specified relation.",
                 "CREATE INDEX > Description", 0.8)]
    quoted = [c[3] for c in answerer.candidates(passages)]
    assert quoted == ["CREATE INDEX constructs an index on the specified column(s) of the specified relation."], quoted


def test_a_sentence_is_added_to_the_answer_only_for_what_it_says():
    """Every chunk of a filing is headed by its cover's title ("CALDER SCIENTIFIC CORPORATION, Form 10-K, fiscal
    year ended …"), so a signature line under it covers the company and "fiscal year" of a question as well as
    the answer does; it was quoted as a second sentence. A sentence of another passage than the best one's joins
    the answer only if its own words hold a word of the question other than the name of its document's subject."""
    async def same(question, texts):  # no ranking model: the question's words decide
        return [0.0 for _ in texts]

    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    answerer.score = same
    title = "CALDER SCIENTIFIC CORPORATION, Form 10-K, fiscal year ended September 30, 2024"
    passages = [("Our backlog at fiscal year end was approximately $212.4 million.", f"{title} > Item 1 > Competition",
                 0.8),
                ("Miriam A. Castellanos, Chair, President and Chief Executive Officer.",
                 f"{title} > Signatures > CALDER SCIENTIFIC CORPORATION", 0.9)]
    answer = asyncio.run(answerer.answer("What was Calder Scientific's backlog for the fiscal year?", passages))
    assert answer.answerable and answer.cited == [1], answer
    assert "Castellanos" not in answer.answer and "$212.4 million" in answer.answer, answer.answer

    # Nor do the words that name the company (its document's subject): a sentence that only names it says nothing
    # of what is asked, however well the ranking model scores it.
    async def likes_the_name(question, texts):
        return [1.0 if "612,480" in t else 1.2 if "wholly owned" in t else 0.0 for t in texts]

    answerer.score = likes_the_name
    title = "MERIDIAN LEDGER SYSTEMS, INC., Form 10-K, fiscal year ended June 30, 2024"
    where = ("meridian_10k_fy2024.pdf", title)
    passages = [("During fiscal 2024 we repurchased 612,480 shares for an aggregate of $27.9 million.",
                 f"{title} > Item 5 > Issuer Purchases of Equity Securities", 0.9, *where),
                ("The consolidated financial statements include the accounts of Meridian Ledger Systems, Inc. and its "
                 "wholly owned subsidiaries.", f"{title} > Item 8 > Note 1", 0.8, *where),
                ("Meridian Ledger Systems authorized a program to repurchase up to $100.0 million of its common stock.",
                 f"{title} > Item 5 > Issuer Purchases of Equity Securities", 0.7, *where)]
    answer = asyncio.run(answerer.answer("Did Meridian Ledger Systems repurchase any of its own shares?", passages))
    assert answer.answerable and answer.cited == [1] and "612,480 shares" in answer.answer, answer
    assert "wholly owned" not in answer.answer, answer.answer



def test_a_place_asked_for_is_not_an_adjective():
    # An unanswerable encyclopedic question whose passage is on topic: "Hungarian-born" is no city.
    assert answer_span("In which city was John von Neumann born?",
                       ["A Hungarian-born mathematician who did pioneering work in game theory."]) is None
    assert answer_span("In which city was John von Neumann born?",
                       ["Von Neumann was born in Budapest in 1903."]) == "Budapest"


def test_a_quote_holds_no_signature_line_nor_bullet_cell():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    report = ("We conducted our audits in accordance with the standards of the PCAOB.\n\n/s/ Hollister & Vance LLP\n"
              "We have served as the Company's auditor since 2009.\nColumbus, Ohio")
    answer = asyncio.run(answerer.answer("Since what year has the auditor served the Company?",
                                         [(report, "10-K › Report of Independent Registered Public Accounting Firm",
                                           0.9)]))
    assert answer.answerable and answer.answer.startswith("Hollister & Vance LLP — We have served as the Company's auditor"), answer
    assert "/s/" not in answer.answer and answer.answer_value == "2009", answer
    release = ("• | VELORA: Net product revenue was $104.8 million in the fourth quarter of 2024, an increase of 34%.\n\n"
               "• | Japan approval: In December 2024, the Japanese Ministry of Health approved VELORA for adults.")
    answer = asyncio.run(answerer.answer("When did Japan approve VELORA?", [(release, "Exhibit 99.1 › Highlights", 0.9)]))
    assert answer.answerable and "Japan approval: In December 2024" in answer.answer, answer
    assert "|" not in answer.answer and "•" not in answer.answer, answer


def test_a_figure_asked_of_a_named_row_is_never_the_total_beside_it():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    segments = ("Revenue by segment was as follows (in thousands):\n\nFiscal 2024 | Fiscal 2023 | Fiscal 2022\n"
                "Cloud Platform | $ 412,580 | $ 351,240 | $ 296,310\nPayments | 118,940 | 97,615 | 80,022\n"
                "Total revenue | $ 585,837 | $ 501,735 | $ 426,237")
    geography = ("Revenue by geographic area was as follows (in thousands):\n\nFiscal 2024 | Fiscal 2023\n"
                 "United States | $ 503,820 | $ 436,510\nInternational | 82,017 | 65,225\n"
                 "Total revenue | $ 585,837 | $ 501,735")
    passages = [(segments, "10-K › Note 2. Revenue and Segment Information", 0.9),
                (geography, "10-K › Note 2. Revenue and Segment Information", 0.8)]
    international = asyncio.run(answerer.answer("What was international revenue in fiscal 2024?", passages))
    assert international.answerable and international.answer_value == "$82.0 million", international
    unstated = asyncio.run(answerer.answer("What was international revenue in fiscal 2022?", passages))
    assert not unstated.answerable, unstated  # the 2022 total is not the international figure
    total = asyncio.run(answerer.answer("What was total revenue in fiscal 2022?", passages))
    assert total.answerable and total.answer_value == "$426.2 million", total


def test_a_measure_asked_is_stated_by_the_sentence_or_its_section():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    restructuring = ("We recorded restructuring charges of $2.2 million in the third quarter of 2025, primarily severance "
                     "and facility exit costs.", "10-Q › Note 4. Restructuring", 0.9)
    sga = ("Selling, general and administrative expenses were $112.5 million, or 27.2% of net sales, in the third "
           "quarter and $326.9 million, or 29.2% of net sales, in the nine months.", "10-Q › Item 2. Results", 0.8)
    top_line = "What was the top line for the third quarter of 2025?"
    assert not asyncio.run(answerer.answer(top_line, [restructuring])).answerable  # a charge is no revenue
    nine_months = asyncio.run(answerer.answer("What were net sales for the nine months?", [sga]))
    assert not nine_months.answerable, nine_months  # "29.2% of net sales" is the base of a share, not the figure's
    sales = ("Net sales increased 6.0% to $412.8 million in the third quarter of 2025.", "10-Q › Item 2. Results", 0.7)
    answer = asyncio.run(answerer.answer(top_line, [restructuring, sga, sales]))
    assert answer.answerable and answer.answer_value == "$412.8 million", answer


def test_a_count_takes_no_next_fields_label_for_its_unit():
    assert answer_span("How old is director Howard J. Pruitt?",
                       ["Howard J. Pruitt Age: 68 Director since: 2011 Committees: Compensation (Chair)"]) == "68"
    assert answer_span("How many full-time employees did Northwind have?",
                       ["We employed approximately 2,840 full-time employees."]).startswith("2,840")


def test_an_amount_of_memory_time_or_weight_is_stated_in_its_units():
    """The demo's PDF question: the sentences name the machine's memory first ("a 4 megabyte machine"), the block
    size ("900k block size") and then what decompression needs; the answer is the figure in bytes that is no
    attribute of another noun."""
    question = "How much memory does bzip2 need to decompress a file?"
    stated = ["To support decompression of any file on a 4 megabyte machine, bunzip2 has an option to decompress "
              "using approximately half this amount of memory, about 2300 kbytes.",
              "For files compressed with the default 900k block size, bunzip2 will require about 3700 kbytes."]
    assert answer_span(question, stated) == "2300 kbytes"
    assert answer_span(question, stated[1:]) == "3700 kbytes"
    assert answer_span("How long does the daemon wait before it retries?",
                       ["Each of the 3 workers waits 30 seconds before it retries."]) == "30 seconds"
    assert answer_span("How much did the ABC weigh?", ["The 2 cabinets weighed over 700 pounds in all."]) \
        == "700 pounds"
    assert answer_span("How many workers retry?", ["Each of the 3 workers waits 30 seconds."]) == "3 workers"
    assert answer_span("How many companies were in the data set?",
                       ["We looked for companies that cut costs by more than 10 percent."]) is None
    # a span of time in words and in an agreement's defined term ("Business Days"), not the bare "three"
    assert answer_span("How long after an interest payment is due does a failure to pay become an Event of Default?",
                       ["(b) the Borrower shall fail to pay any interest on any Loan within three Business Days after "
                        "the same becomes due."]) == "three Business Days"
    assert answer_span("How long does the lease run?", ["One day the lease may end; it runs for 5 years."]) \
        == "5 years"


def test_of_several_values_in_a_sentence_the_answer_is_the_one_whose_clause_says_what_is_asked():
    assert answer_span("In what year did Stephen Kleene receive his doctorate in mathematics?",
                       ["From 1930 to 1935, he was a graduate student at Princeton University where he received his "
                        "doctorate in mathematics in 1934."]) == "1934"
    assert answer_span("In what year was the first Kluge automatic feeder built?",
                       ["Brandtjen told me (ESR, 1994) that an engineer named Kluge built the original Kluge automatic "
                        "feeder in 1919."]) == "1919"
    assert answer_span("Which university awarded Vint Cerf his Ph.D. in Computer Science?",
                       ["Cerf holds a Bachelor of Science degree in Mathematics from Stanford University and Master of "
                        "Science and Ph.D. degrees in Computer Science from UCLA."]) == "UCLA"
    assert answer_span("How many restaurants did Ashgrove have at the end of fiscal 2024?",
                       ["Restaurant counts at end of period: 342 at December 29, 2024."]) == "342"
    assert answer_span("In what year did Richard Feynman become a professor at Caltech?",
                       ["In 1950 he became a professor at Caltech and in 1965 became Nobel Prize Laureate."]) == "1950"
    # one value, or none of the question's words near any: the first, as before
    assert answer_span("In what year was Unix first released?", ["It shipped in 1971 and was rewritten in 1973."]) \
        == "1971"


def test_a_sentence_without_a_day_speaks_of_its_documents_period():
    answerer = _answerer(Answerability(weights={}, bias=0.0, threshold=-1e9))
    passage = ("Net sales increased 6.0% to $412.8 million in the third quarter of 2025.", "10-Q › Item 2. Results", 0.9,
               "hlbd-20250930.htm HALBERD OUTDOOR PRODUCTS, INC., Form 10-Q, quarterly period ended September 30, 2025")
    asked_q2 = asyncio.run(answerer.answer("What were net sales for the quarter ended June 30, 2025?", [passage]))
    assert not asked_q2.answerable, asked_q2  # the 10-Q's third quarter ended in September
    asked_q3 = asyncio.run(answerer.answer("What were net sales for the quarter ended September 30, 2025?", [passage]))
    assert asked_q3.answerable and asked_q3.answer_value == "$412.8 million", asked_q3
