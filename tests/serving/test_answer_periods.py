"""A filing's figures are stated for several periods, and a question names one: the extractive answerer quotes
the figure of the asked period, refuses a period no sentence reports on, never quotes a sentence without an
amount for "what were net sales", never counts a date's day, and never answers from the auditor's standard
wording unless the question is about the audit. (The same on six blind-written filings end to end:
``bench/answer_calibrate.py``'s ``answers-filings-*`` rows.)"""

from __future__ import annotations

import asyncio

from cluster.config import load_config
from serving.answer.extractive import Answerability, ExtractiveAnswerer, coverage, focus
from serving.answer.periods import conflicts, own_periods, periods
from serving.answer.span import answer_span, expected_type, holds_value
from serving.answer.tables import row_value, table_rows
from serving.answer.verify import same_value

Q4 = ("VELORA net product revenue was $104.8 million in the fourth quarter of 2024, an increase of 34% compared "
      "with the fourth quarter of 2023.")
TOTALS = ("Total revenue was $112.6 million for the fourth quarter of 2024, compared with $84.0 million for the fourth "
          "quarter of 2023, and $401.9 million for the full year 2024, compared with $309.5 million for 2023.")
RATIO = "Operating income as a percentage of net sales was 14.8%, compared with 13.2% in the prior year."
ROW = "Net sales | 2024 | 2023\nTotal net sales | $ 1,184,207 | $ 1,092,688"
AUDIT = ("We have audited the accompanying consolidated balance sheets of Northwind Precision Instruments, Inc. as of "
         "December 31, 2024 and 2023, and the related consolidated statements of income for each of the three years.")


def _answerer() -> ExtractiveAnswerer:
    async def score(question, texts):  # ranking only; the decisions under test are the rules'
        return [float(len(t)) / 100 for t in texts]

    return ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9), score)


def _ask(question: str, *texts: str):
    return asyncio.run(_answerer().answer(question, [(t, "Lakeshore Therapeutics and Northwind filings › Results", 1.0 - i / 10)
                                                     for i, t in enumerate(texts)]))


def test_a_sentence_about_another_period_does_not_answer():
    refused = _ask("What was Lakeshore's VELORA net product revenue for the third quarter of 2024?", Q4)
    assert not refused.answerable, refused.answer
    answered = _ask("What was Lakeshore's VELORA net product revenue for the fourth quarter of 2024?", Q4)
    assert answered.answerable and answered.answer_value == "$104.8 million", answered
    # The period it only compares with is not a period it reports on.
    assert sorted(own_periods(Q4).years) == [2024]
    assert conflicts(periods("revenue for fiscal 2021"), own_periods("Net sales — 2024: $1,184; 2023: $1,092"))


def test_the_figure_of_the_asked_period_is_the_short_answer():
    answer = _ask("What was Lakeshore Therapeutics' total revenue for full-year 2024?", TOTALS)
    assert answer.answerable and answer.answer_value == "$401.9 million", answer


def test_an_amount_is_answered_by_an_amount_not_a_share():
    assert expected_type("What were Northwind's net sales for fiscal year 2024?") == "quantity"
    assert answer_span("What were Northwind's net sales for fiscal year 2024?", [RATIO]) is None
    answer = _ask("What were Northwind's net sales for fiscal year 2024?", RATIO, ROW)
    assert answer.answerable and answer.answer_value == "$ 1,184,207", answer
    assert RATIO not in answer.answer
    assert not _ask("What were Northwind's net sales for fiscal year 2024?", RATIO).answerable


def test_a_day_of_a_date_is_not_a_count():
    assert answer_span("How many full-time employees did Northwind have?",
                       ["As of December 31, 2024, we employed approximately 2,840 full-time employees."]) == "2,840"


def test_audit_wording_answers_only_questions_about_the_audit():
    passages = [(AUDIT, "Northwind 10-K › Report of Independent Registered Public Accounting Firm", 1.0)]
    assert _answerer().candidates(passages, "What did Northwind report as of December 31, 2024?") == []
    assert len(_answerer().candidates(passages, "What did the auditor audit for Northwind?")) == 1
    figure = _ask("What were Northwind's total inventories at December 31, 2024?", AUDIT)
    assert not figure.answerable and figure.sentences == [], figure.answer
    audit = _ask("Which financial statements did the auditor audit for Northwind?", AUDIT)
    assert audit.answerable and "We have audited" in audit.answer, audit


def test_another_passage_supports_a_figure_only_with_the_same_figure():
    """Beside "$118.3 million", a sentence of another passage that states another figure answers another question and
    is not quoted; the statement's row in thousands states the same figure and is."""
    best = "Cash provided by operating activities was $118.3 million."
    other = "Cash provided by operating activities will be sufficient for the next 12 months."
    row = "Year Ended December 31, 2024 | 2024 | 2023\nNet cash provided by operating activities | $ 118,300 | $ 96,800"

    async def score(question, texts):  # the three rank alike: the rule decides
        return [1.0 for _ in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9),
                                  score)
    answer = asyncio.run(answerer.answer("How much cash was provided by operating activities?",
                                         [(t, "Northwind 10-K › Liquidity", 1.0) for t in (best, other, row)]))
    assert answer.answerable and answer.answer_value == "$118.3 million", answer
    assert {s.n for s in answer.sentences} == {1, 3}, answer.answer  # millions and thousands; not the 12 months
    assert same_value("$401.9 million", "401,900") and not same_value("$401.9 million", "$112.6 million")


def test_since_when_is_answered_by_a_starting_point():
    """"Since what year has the auditor served?" names the report's year (2024); the audit opinion's other year
    (2023) is no answer, "since 2009" is. The same for versions: "since Linux 3.5", not a version merely named."""
    question = "Since what year has Northwind's independent auditor audited the company, according to its 2024 10-K?"
    tenure = "We have served as the Company's auditor since 2009."
    scope = "We have audited the consolidated balance sheets as of December 31, 2024 and 2023 and the related notes."
    assert answer_span(question, [scope]) is None and answer_span(question, [tenure]) == "2009"
    assert not holds_value(question, scope) and holds_value(question, tenure)  # so only the tenure gets the value's weight

    async def score(question, texts):  # the cross-encoder prefers the audit's scope paragraph, as it does
        return [2.0 if "audited" in t else 0.5 for t in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9),
                                  score)
    answer = asyncio.run(answerer.answer(question, [(f"{scope} {tenure}", "Northwind 2024 Form 10-K › Report", 1.0)]))
    assert answer.answerable and answer.sentences[0].text == tenure and answer.answer_value == "2009", answer.answer
    version = "Since which Linux version can EPOLLWAKEUP be used?"
    assert answer_span(version, ["EPOLLWAKEUP (since Linux 3.5) keeps the system awake."]) == "3.5"
    assert answer_span(version, ["Linux 2.6.9 changed how EPOLLWAKEUP is reported."]) is None


def test_a_documents_subject_is_named_once_for_all_its_passages():
    """A credit agreement names its borrower on the cover and says "the Borrower" on page 40: the schedule's row
    answers a question that names the company, since the cover of the same document is in the context. A product
    named elsewhere in a document is not its subject: a statement row without it does not answer for it."""
    where = "northwind_credit_agreement.pdf Credit Agreement"
    cover = "CREDIT AGREEMENT among NORTHWIND PRECISION INSTRUMENTS, INC., as the Borrower, and the Lenders."
    schedule = "Lender | Commitment | Applicable Percentage\nOhio Valley Bank | $ 70,000,000.00 | 17.500000000%"
    question = "What percentage of the commitments under Northwind Precision Instruments' agreement does Ohio Valley Bank hold?"
    passages = [(schedule, "Credit Agreement › Schedule 2.01", 1.0, where), (cover, "Credit Agreement", 0.5, where)]
    answer = asyncio.run(_answerer().answer(question, passages))
    assert answer.answerable and answer.answer_value == "17.500000000%", answer
    alone = asyncio.run(_answerer().answer(question, passages[:1]))
    assert not alone.answerable and set(alone.missing_anchors) == {"northwind", "precision", "instruments"}, alone
    where = "lakeshore_8k.htm Lakeshore Therapeutics 8-K"
    rows = "Revenue | Year Ended Dec. 31, 2024\nProduct revenue, net | 376,204"
    product = asyncio.run(_answerer().answer("What was Lakeshore Therapeutics' VELORA product revenue for 2024?", [
        (rows, "Lakeshore 8-K › Statements", 1.0, where), ("VELORA is approved in Japan.", "Lakeshore 8-K", 0.5, where)]))
    assert not product.answerable or "376,204" not in product.answer, product


def test_a_cover_line_naming_the_subject_does_not_outrank_the_answer():
    """The borrower's name on a credit agreement's cover covers half of a question that names the company; the
    clause on page 40 that answers it says "the Borrower". Named once, the subject counts for every passage of the
    document, so the clause is quoted."""
    async def score(question, texts):  # the cross-encoder cannot tell them apart: coverage decides
        return [1.0 for _ in texts]

    answerer = ExtractiveAnswerer(load_config().answer.extractive, Answerability(weights={}, bias=0.0, threshold=-1e9),
                                  score)
    where = "northwind_credit_agreement.pdf Credit Agreement"
    cover = "NORTHWIND PRECISION INSTRUMENTS, INC., as the Borrower, and the Lenders party hereto"
    clause = "On the Closing Date, the Aggregate Commitments of the Lenders are $400,000,000."
    question = "What are the aggregate commitments at closing under Northwind Precision Instruments' credit agreement?"
    answer = asyncio.run(answerer.answer(question, [(cover, "Credit Agreement", 1.0, where),
                                                    (clause, "Credit Agreement › Section 2.01", 0.9, where)]))
    assert answer.answerable and answer.sentences[0].text == clause, answer.answer


def test_which_bank_is_answered_by_an_organisation_the_question_does_not_name():
    question = "Which bank serves as administrative agent under Northwind's credit agreement?"
    assert expected_type(question) == "organization"
    assert not holds_value(question, "NORTHWIND PRECISION INSTRUMENTS, INC., as the Borrower,")  # the asker's own name
    assert not holds_value(question, "On March 14, 2025, the Borrower signed the agreement.")
    answer = _ask(question,
                  "On March 14, 2025, we entered into an amended and restated credit agreement providing for a $400.0 "
                  "million revolving credit facility maturing in 2030.",
                  "FIRST MERIDIAN BANK, N.A., as Administrative Agent, Swing Line Lender and L/C Issuer.")
    assert answer.answerable and answer.answer_value == "FIRST MERIDIAN BANK", answer.answer
    assert answer_span("Which accounting firm audited Calder's statements?",
                       ["/s/ Pemberton Ashby LLP, Boston, Massachusetts"]) == "Pemberton Ashby LLP"


def test_a_figure_for_another_place_or_in_another_unit_does_not_answer():
    question = "How large, in square feet, is Northwind's manufacturing facility in Eindhoven?"
    dayton = ("Our headquarters and principal manufacturing facility are located in Dayton, Ohio, in an owned building "
              "of approximately 410,000 square feet.")
    countries = "We also own a manufacturing facility in Eindhoven, the Netherlands, and lease offices in eleven countries."
    refused = _ask(question, f"{dayton} {countries}")  # one passage: it names Eindhoven
    assert not refused.answerable, refused.answer
    stated = _ask(question, f"{dayton} Northwind owns a 95,000 square foot manufacturing facility in Eindhoven.")
    assert stated.answerable and "95,000" in stated.answer and "410,000" not in stated.answer, stated.answer


def test_a_year_that_names_the_document_is_stated_by_its_cover():
    """"The 2025 credit agreement" names a document, whose cover is dated 2025 and whose page 40 is not; commitments
    are an amount. A year asked as a period still needs the evidence."""
    where = "northwind_credit_agreement.pdf Credit Agreement"
    cover = "CREDIT AGREEMENT dated as of March 14, 2025 among NORTHWIND PRECISION INSTRUMENTS, INC., as the Borrower."
    clause = "On the Closing Date, the Aggregate Commitments are $400,000,000."
    question = "What are the aggregate lender commitments at closing under Northwind's 2025 credit agreement?"
    assert expected_type(question) == "quantity"
    passages = [(clause, "Credit Agreement › Section 2.01", 1.0, where), (cover, "Credit Agreement", 0.5, where)]
    answer = asyncio.run(_answerer().answer(question, passages))
    assert answer.answerable and answer.answer_value == "$400,000,000", answer
    period = asyncio.run(_answerer().answer("What were the aggregate commitments of Northwind in 2025?", passages))
    assert not period.answerable or "$400,000,000" not in period.answer, period


def test_a_segment_row_of_one_measure_does_not_answer_for_another():
    """A segment note's table of net sales (its total row says so) holds no segment's operating income."""
    table = ("Our chief operating decision maker evaluates performance based on segment operating income.\n\n"
             "(in thousands) | 2024 | 2023\nIndustrial Metrology | $ 812,440 | $ 735,106\n"
             "Life Science Instruments | 371,767 | 357,582\nTotal net sales | $ 1,184,207 | $ 1,092,688")
    refused = _ask("What was operating income for Northwind's Industrial Metrology segment in 2024?", table)
    assert "812,440" not in refused.answer, refused.answer
    sales = _ask("What were net sales of Northwind's Industrial Metrology segment in 2024?", table)
    assert sales.answerable and sales.answer_value == "$812.4 million", sales.answer


def test_the_figure_of_the_asked_period_and_kind_is_the_one_quoted():
    """"$41.7 million, $38.2 million and $33.9 million in 2024, 2023 and 2022, respectively": the second is 2023's.
    "Up 31%" answers by what percentage, the amount beside it does not."""
    rd = _ask("What was Northwind's research and development expense in fiscal 2023?",
              "Research and development expense was $41.7 million, $38.2 million and $33.9 million in fiscal 2024, 2023 "
              "and 2022, respectively.")
    assert rd.answer_value == "$38.2 million", rd
    growth = _ask("By what percentage did Lakeshore's full-year 2024 product revenue grow?",
                  "Full-year 2024 product revenue of $376.2 million, up 31% year over year.")
    assert growth.answer_value == "31%", growth


def test_a_figure_for_another_day_or_for_the_whole_company_does_not_answer():
    """Asked for September 30, a December 31 balance does not answer; asked for Japan, the company's total does not."""
    cash = "Cash, cash equivalents and marketable securities were $882.1 million as of December 31, 2024."
    refused = _ask("What were Lakeshore's cash, cash equivalents and marketable securities as of September 30, 2024?", cash)
    assert not refused.answerable, refused.answer
    answered = _ask("What were Lakeshore's cash, cash equivalents and marketable securities as of December 31, 2024?", cash)
    assert answered.answerable and answered.answer_value == "$882.1 million", answered
    total = "VELORA net product revenue was $104.8 million in the fourth quarter of 2024. VELORA is approved in Japan."
    japan = _ask("How much VELORA net product revenue did Lakeshore generate in Japan in the fourth quarter of 2024?", total)
    assert not japan.answerable or "104.8" not in japan.answer, japan.answer


def test_a_segment_sharing_a_word_with_the_company_is_not_its_subject():
    """"Life Science Instruments" shares "Instruments" with "Northwind Precision Instruments": the total row, which
    names neither the segment nor the company, does not cover the segment's name."""
    where = "northwind_10k_2024.pdf NORTHWIND PRECISION INSTRUMENTS, INC., Form 10-K"
    table = ("(in thousands) | 2024 | 2023\nTotal net sales | $ 1,184,207 | $ 1,092,688\n"
             "Life Science Instruments | 371,767 | 357,582")
    cover = "NORTHWIND PRECISION INSTRUMENTS, INC. Annual report for the fiscal year ended December 31, 2024."
    answer = asyncio.run(_answerer().answer(
        "What were net sales of Northwind Precision Instruments' Life Science Instruments segment in 2024?",
        [(table, "10-K › Note 10 - Segment Information", 1.0, where), (cover, "10-K", 0.5, where)]))
    assert answer.answerable and answer.answer_value == "$371.8 million", answer


def test_a_definition_question_is_answered_by_the_sentence_that_defines_the_term():
    """"How does the agreement define X?" is answered by '"X" means …', not by a covenant that uses X and outranks
    it (here it is longer, so the stub cross-encoder scores it higher), and the definitions around it are not quoted."""
    question = "How does Northwind's credit agreement define the Consolidated Leverage Ratio?"
    covenant = ("The Borrower will not permit the Consolidated Leverage Ratio as of the end of any fiscal quarter of the "
                "Borrower to be greater than 3.50 to 1.00, as tested on the last day of each fiscal quarter.")
    definitions = ("“Consolidated Leverage Ratio” means the ratio of (a) Consolidated Funded Indebtedness to (b) "
                   "Consolidated EBITDA. “Applicable Rate” means the percentage set forth in the pricing grid.")
    answer = _ask(question, covenant, definitions)
    assert answer.answerable and answer.sentences[0].text.startswith("“Consolidated Leverage Ratio” means"), answer.answer
    assert len(answer.sentences) == 1 and "3.50" not in answer.answer, answer.answer


def test_an_analysts_period_codes_units_and_column_heads_are_read_as_a_filing_writes_them():
    """ "FY2024" and "Q1 2025" are periods, not names the evidence must spell; "(in USD thousands)" is the unit asked;
    a run of years is a table's column heads, not an amount; "who is the auditor" asks for a firm."""
    question = ("What is the FY2024 net sales amount (in USD thousands) for Northwind? Give a response to the question "
                "by relying on the details shown in the income statement.")
    answer = _ask(question, ROW)
    assert answer.answerable and answer.answer_value == "$ 1,184,207", answer
    rate = "Our effective tax rate for the first quarter of 2025 was 23.0%, compared with 23.5% for the first quarter of 2024."
    answer = _ask("What was Northwind's effective tax rate in Q1 2025?", rate)
    assert answer.answerable and answer.answer_value == "23.0%", answer
    heads = "Year Ended December 31, 2024 2023 2022 Operating activities:"
    answer = _ask("How much cash did Northwind generate from operating activities in FY2024?", heads,
                  "In 2024, cash provided by operating activities was $118.3 million, up $21.5 million.")
    assert answer.answerable and answer.answer_value == "$118.3 million", answer
    assert heads not in answer.answer
    assert expected_type("Who is Northwind Precision Instruments' auditor?") == "organization"
    assert expected_type("Who is the chief executive officer of Northwind?") == "person"


def test_an_acronym_is_named_by_its_spelled_out_words_and_a_figure_asked_of_one_must_name_it():
    """ "SG&A" is "Selling, general and administrative" in the statement; a figure asked of "R&D" is not taken from
    a sentence about revenue beside it."""
    table = "Expenses | 2024 | 2023\nSelling, general and administrative | 304,036 | 285,318\nTotal | 345,740 | 323,531"
    answer = _ask("What were Northwind's 2024 SG&A expenses?", table)
    assert answer.answerable and answer.answer_value == "304,036", answer
    refused = _ask("How much did Northwind spend on R&D in 2024?", "Northwind revenue was $112.6 million in 2024.",
                   "R&D Expenses: see below.")
    assert not refused.answerable, refused.answer
    answered = _ask("How much did Northwind spend on R&D in 2024?", "Northwind revenue was $112.6 million in 2024.",
                    "Research and development expenses were $41.7 million in 2024.")
    assert answered.answerable and answered.answer_value == "$41.7 million", answered


def test_a_figure_the_question_states_with_a_unit_glued_to_it_is_not_the_answer():
    """ "the default 900k block size" states 900: the answer is the other figure."""
    question = "How much memory does bunzip2 need for a file compressed with the default 900k block size?"
    assert answer_span(question, ["For files compressed with the default 900k block size, bunzip2 will require about "
                                  "3700 kbytes to decompress."]) == "3700 kbytes"


def _ask_meridian(question: str, *texts: str):
    return asyncio.run(_answerer().answer(question, [(t, "Meridian Ledger Systems and Northwind filings › Results",
                                                      1.0 - i / 10) for i, t in enumerate(texts)]))


CASH_FLOWS = ("(in thousands)\n\nFiscal Year Ended June 30,\n2024 2023 2022\nCash flows from operating activities:\n"
              "Net income $ 53,151 $ 25,308 $ 9,187\nAdjustments to reconcile net income to net cash\n"
              "provided by operating activities:\n\nDepreciation and amortization | 24,806 | 22,914 | 19,377\n"
              "Net cash provided by operating activities | 140,870 | 97,773 | 66,007")


def test_a_statement_headed_by_a_line_of_periods_is_read_as_a_table():
    """A PDF statement as the parser writes it: the column heads a line of years, the first row without cells, a
    blank line before the next group of rows. Every row answers under the heads above it."""
    cash = _ask_meridian("What was Meridian's fiscal 2024 net cash provided by operating activities?", CASH_FLOWS)
    assert cash.answerable and cash.answer_value == "$140.9 million", cash.answer
    first_row = CASH_FLOWS.replace("Depreciation and amortization | 24,806 | 22,914 | 19,377\n", "")
    income = _ask_meridian("How much net income did Meridian report for the fiscal year ended June 30, 2023?", first_row)
    assert income.answerable and income.answer_value == "$25.3 million", income.answer


def test_a_figure_of_another_measure_does_not_answer():
    """A sentence that names measures, none of them the one asked, states another measure's figure; a measure is
    one under its singular, plural and analysts' names ("inventory" is the row "Inventories")."""
    capex = _ask_meridian("What is the fiscal 2024 capital expenditure amount for Meridian?",
                 "Net cash provided by operating activities was $140.9 million in fiscal 2024, compared with $97.8 "
                 "million in fiscal 2023, reflecting higher net income and growth in deferred revenue.",
                 "Capital expenditures were $18.6 million in fiscal 2024.")
    assert capex.answerable and capex.answer_value == "$18.6 million", capex.answer
    segment = _ask_meridian("What was the operating income of Meridian's Payments segment in fiscal 2024?",
                   "Remaining performance obligations were $498.6 million at June 30, 2024, of which we expect to "
                   "recognize approximately 68% as revenue over the next twelve months in Payments.")
    assert not segment.answerable, segment.answer
    cash = _ask_meridian("What was operating income for Meridian's Payments segment in 2024?",
                         "Cash provided by operating activities was $118.3 million in 2024, an increase of $21.5 million, "
                         "driven by higher net income in Payments.")
    assert not cash.answerable, cash.answer  # each figure's own measure is cash, though the sentence names income
    sheet = ("(in thousands)\n\nDecember 31, 2024 2023\nCurrent assets:\n\nCash and cash equivalents | $ 214,377 | "
             "$ 168,905\nInventories | 176,412 | 181,027\nTotal current assets | 620,789 | 568,062\n\n"
             "Total stockholders' equity | 959,663 | 846,064")
    inventory = _ask_meridian("What was the total inventory balance on Northwind's balance sheet at December 31, 2024?", sheet)
    assert inventory.answerable and inventory.answer_value == "$176.4 million", inventory.answer


def test_growth_is_answered_by_a_change_and_an_auditor_by_its_name():
    growth = _ask_meridian("By what percentage did Meridian's total revenue grow in fiscal 2024?",
                  "Revenue from customers outside the United States, mostly in Canada and the United Kingdom, was 14% "
                  "of total revenue in fiscal 2024.",
                  "Total revenue was $585.8 million in fiscal 2024, an increase of 16.8% from fiscal 2023.")
    assert growth.answerable and growth.answer_value == "16.8%", growth.answer
    auditor = _ask_meridian("Who audits Meridian Ledger Systems' financial statements?",
                   "We conducted our audits in accordance with the standards of the Public Company Accounting Oversight "
                   "Board (United States), which require that we plan and perform the audit.",
                   "/s/ Pemberton Ashford LLP\nWe have served as the Company's auditor since 2016.")
    assert auditor.answer_value == "Pemberton Ashford LLP", auditor.answer


def test_operating_income_is_no_net_income_and_the_asked_period_is_the_figures_own():
    """Income is several measures (operating, net, per share); a period stated after one figure is that figure's, not
    the next one's; the cost of revenue is no revenue; capital expenditures are the purchases of property."""
    mdna = ("Operating income was $65.8 million in fiscal 2024, compared with $37.6 million in fiscal 2023, and net income "
            "was $53.2 million, or $1.34 per diluted share.")
    later = _ask_meridian("How much net income did Meridian report for fiscal 2023?", mdna,
                          "Net income was $25.3 million in fiscal 2023.")
    assert later.answerable and later.answer_value == "$25.3 million", later.answer
    net = _ask_meridian("How much net income did Meridian report for fiscal 2024?", mdna)
    assert net.answerable and net.answer_value == "$53.2 million", net.answer
    eps = _ask_meridian("What were Meridian's diluted earnings per share?", mdna)
    assert eps.answerable and eps.answer_value == "$1.34", eps.answer
    statement = ("(in thousands) | 2024 | 2023\nTotal revenue | $ 585,837 | $ 501,735\nCost of revenue | 201,450 | "
                 "180,220\n\nPurchases of property and equipment | (18,612) | (15,377)\nNet cash used in investing "
                 "activities | (42,118) | (30,950)")
    cost = _ask_meridian("What was Meridian's cost of revenue in 2024?", statement)
    assert cost.answerable and cost.answer_value == "$201.5 million", cost.answer
    capex = _ask_meridian("What were Meridian's capital expenditures in 2023?", statement)
    assert capex.answerable and capex.answer_value == "$15.4 million", capex.answer


def test_a_row_the_question_does_not_name_gives_no_figure_and_a_salutation_is_never_quoted():
    segments = ("Revenue by segment (in thousands) | Fiscal 2024 | Fiscal 2022\nCloud Platform (subscription) | "
                "$ 412,580 | $ 296,310\nPayments | 120,447 | 98,517\nTotal revenue | $ 585,837 | $ 426,237")
    cloud, payments_row, total = table_rows(segments)
    assert row_value("What was Meridian's international revenue in fiscal 2022?", cloud) is None
    assert row_value("What was Meridian's revenue in fiscal 2022?", cloud) is None  # the question names no segment
    assert row_value("What was Meridian's revenue in fiscal 2022?", total) == "$ 426,237"
    payments = _ask_meridian("What was revenue of Meridian's Payments segment in fiscal 2022?", segments)
    assert payments.answerable and payments.answer_value == "$98.5 million", payments.answer
    tenure = _ask_meridian("Since what year has Meridian's auditor served the stockholders and the board of directors?",
                           "To the Stockholders and the Board of Directors of Meridian Ledger Systems, Inc.",
                           "We have served as the Company's auditor since 2016.")
    assert tenure.answerable and "To the Stockholders" not in tenure.answer, tenure.answer


def test_a_balance_and_the_top_line_are_amounts_of_their_measure():
    """ "What inventory balance …" asks for an amount of inventory: a balance sheet without that row does not answer
    it; "top line" is revenue."""
    sheet = ("(In thousands) | December 31, 2024 | December 31, 2023\nCash, cash equivalents and marketable securities | "
             "882,114 | 796,430\nTotal assets | 1,118,772 | 998,504")
    inventory = _ask("What inventory balance did Lakeshore Therapeutics carry at December 31, 2024?", sheet)
    assert not inventory.answerable, inventory.answer
    top = _ask("What was Lakeshore's top line for the fourth quarter of 2024?",
               "Goodwill is tested for impairment annually as of the first day of the fourth quarter of 2024.", TOTALS)
    assert top.answerable and top.answer_value == "$112.6 million", top.answer


def test_an_analysts_name_for_a_measure_is_stated_by_the_statements_row():
    """A statement's rows name the measures an analyst asks by other names: "capex" is "Capital expenditures",
    "COGS" "Cost of sales", "share buybacks" "Repurchases of common stock", "book value" "Total stockholders'
    equity". The answerability features read the row as stating what is asked (coverage, focus); a row of another
    measure states none of it, and "operating cash flow" is no cash balance."""
    cases = [("What was Northwind's capex in 2023?", "Northwind 2023: Capital expenditures | (24,208)"),
             ("What was Northwind's COGS in 2024?", "Northwind 2024: Cost of sales | 663,185"),
             ("How much did Northwind spend on share buybacks in 2024?",
              "Northwind: how much share spend in 2024: Repurchases of common stock | (31,206)"),
             ("What was Lakeshore's book value in 2023?", "Lakeshore 2023: Total stockholders’ equity | 810,488")]
    for question, row in cases:
        assert coverage(question, row) == 1.0 and focus(question, row) == 1.0, (question, coverage(question, row))
    assert focus("What was Northwind's capex in 2023?", "Net sales | $ 1,184,207") == 0.0
    operating = "What was Lakeshore's operating cash flow for 2024?"
    balance = "Cash, cash equivalents and marketable securities | 882,114 | 796,430"
    assert coverage(operating, balance) < coverage(operating, "Operating cash flow | 118,300"), coverage(operating, balance)
    capex = _ask("What was Northwind's capex in 2023?", "Net sales | 2024 | 2023\nNet sales | $ 1,184,207 | $ 1,092,688",
                 "Year | 2024 | 2023 | 2022\nCapital expenditures | (27,615) | (24,208) | (21,775)")
    assert capex.answerable and capex.answer_value == "(24,208)" and capex.cited == [2], capex


def test_the_day_of_a_date_does_not_end_the_period_of_the_figure_before_it():
    """ "$11.6 million at September 30, 2025 and $9.8 million at December 31, 2024": the 30 is the date's, so the
    second figure is 2024's, not 2025's."""
    answer = _ask("What were inventory reserves at September 30, 2025?",
                  "Inventory reserves were $11.6 million at September 30, 2025 and $9.8 million at December 31, 2024.")
    assert answer.answerable and answer.answer_value == "$11.6 million", answer


def test_a_sentence_naming_no_period_speaks_of_its_reports_year_and_a_headcount_counts_employees():
    """A 10-K's "granted during the year" is its fiscal year's: it does not answer for another year, while an 8-K's
    title (the day it was filed) says nothing of the year its sentences speak of. A headcount is a count of employees,
    not of the countries named beside it."""
    title = "NORTHWIND PRECISION INSTRUMENTS, INC., Form 10-K, fiscal year ended December 31, 2024"
    note = ("The weighted-average grant-date fair value of restricted stock units granted during the year was $68.42 "
            "per share. Units vest under the 2023 Plan.")

    def quoted(question, where):
        return asyncio.run(_answerer().answer(question, [(note, f"{where} › Note 9", 0.9, "nw.pdf", where)])).answer

    assert "$68.42" not in quoted("What was the fair value of restricted stock units Northwind granted in 2023?", title)
    assert "$68.42" in quoted("What was the fair value of restricted stock units Northwind granted in 2024?", title)
    assert "$68.42" in quoted("What was the fair value of restricted stock units Northwind granted in 2023?",
                              "NORTHWIND PRECISION INSTRUMENTS, INC., Form 8-K, February 26, 2025")
    counted = _ask("What was Northwind's headcount at the end of 2024?",
                   "At the end of 2024 Northwind designs, manufactures and services precision measurement systems used "
                   "by industrial, aerospace and life-science customers in more than forty countries.",
                   "At the end of 2024 Northwind employed approximately 2,840 people.")
    assert counted.answerable and counted.answer_value.startswith("2,840") and counted.cited == [2], counted


def test_a_rows_period_states_the_questions_period_words_and_a_cash_flow_is_no_balance():
    """A cash-flow statement's row names its period by the year in its column head ("2025: (31,740)"), not by
    the question's "first nine months of": those words count as stated by a text that names the asked year and no
    other period of the kind asked. Spending on property, plant and equipment is the capex row; cash from
    operations is a flow, not the balance of cash; deferred revenue is no revenue."""
    question = "How much did Halberd spend on property, plant and equipment in the first nine months of 2025?"
    row = "Halberd: Purchases of property, plant and equipment (in thousands) — 2025: (31,740); 2024: (28,915)"
    assert coverage(question, row) == 0.9 and focus(question, row) == 1.0, (coverage(question, row), focus(question, row))  # all but "much"
    other_year = "Halberd: Purchases of property, plant and equipment (in thousands) — 2023: (22,104)"
    assert coverage(question, other_year) < 0.75, coverage(question, other_year)
    flow = "What was Lakeshore's cash from operations for full-year 2024?"
    balance = "December 31, | 2024 | 2023\nCash, cash equivalents and marketable securities | 882,114 | 796,430"
    assert not _ask(flow, balance).answerable
    operating = _ask(flow, balance, "Year | 2024 | 2023\nNet cash provided by operating activities | 118,300 | 96,800")
    assert operating.answerable and operating.answer_value == "118,300" and operating.cited == [2], operating
    top_line = "What was Northwind's top line in fiscal 2024?"
    assert not _ask(top_line, "Deferred revenue | 2024 | 2023\nDeferred revenue | 61,337 | 54,210").answerable


def test_guidance_is_answered_by_an_expectation_not_by_the_figure_reported():
    """ "What full-year 2025 net sales guidance did Halberd give?" is not answered by the quarter's net sales; a
    sentence that states what the company expects answers it."""
    reported = "Halberd's total net sales increased 6.0% to $412.8 million in the third quarter of 2025."
    question = "What full-year 2025 net sales guidance did Halberd give?"
    assert not _ask(question, reported).answerable
    guided = _ask(question, reported, "Halberd now expects full-year 2025 net sales of $1.50 billion to $1.54 billion.")
    assert guided.answerable and guided.cited == [2], guided


def test_a_question_naming_two_rows_asks_for_their_crossing_which_no_row_holds():
    """ "How much Paddle segment revenue did Northwind generate in Europe?" names a row of the segment table and a row
    of the regions table: neither row holds Paddle's European revenue, so the answer is refused; asked for Europe
    alone, the region's row answers."""
    segments = "Net sales | 2025 | 2024\nTrail & Camp | 198,405 | 183,270\nPaddle | 73,191 | 68,690\nTotal net sales | 412,806 | 389,415"
    regions = "Net sales | 2025 | 2024\nAmericas | 313,279 | 296,750\nEurope | 58,117 | 52,660\nTotal net sales | 412,806 | 389,415"
    both = f"{segments}\n\n{regions}"  # one passage: a 10-Q's segment note holds both
    assert not _ask("How much Paddle segment revenue did Northwind generate in Europe in 2025?", both).answerable
    europe = _ask("How much revenue did Northwind generate in Europe in 2025?", both)
    assert europe.answerable and europe.answer_value == "58,117", europe


def test_a_header_cells_scale_on_a_line_of_its_own_does_not_end_the_table():
    """EDGAR's HTML wraps a header cell's "(in millions)" onto a line of its own between the column heads and the
    rows; the month's row still answers how many shares were bought back, not another company's table."""
    table = ("The following table provides information about our repurchases of common stock.\n\n"
             "Total Number of Shares Purchased | | Average Price Paid per Share | | Approximate Dollar Value of Shares "
             "That May Yet Be Purchased Under the Program\n(in millions)\n"
             "July 1 – July 31, 2025 | | | 98,400 | | | $ | 41.62 | | | $ | 155.4 |\n"
             "August 1 – August 31, 2025 | | | 121,300 | | | $ | 39.88 | | | $ | 150.6 |")
    answer = _ask("How many shares did Northwind buy back in August 2025?", table)
    assert answer.answerable and answer.answer_value == "121,300", answer
