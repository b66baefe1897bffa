"""Source of the third blind question set: writes bench/data/answers-filings-blind3-tune.jsonl and
bench/data/answers-filings-blind3-test.jsonl (doc E, the Quillon Water Technologies 2026 proxy statement, and doc
F, the Halberd Outdoor Products Q3 2025 10-Q). Within each document the 1st, 3rd, 5th ... question go to tune and
the 2nd, 4th ... to test. ``python bench/filings_blind3/questions.py`` rewrites both files; check.py validates
them."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "filings_blind"))
from questions import question_row, write_rows  # noqa: E402  (bench/filings_blind/questions.py)

E = "qwtr-def14a_2026.htm"
F = "hlbd-20250930.htm"
IS = " Give a response to the question by relying on the details shown in the income statement."
CF = " Give a response to the question by relying on the details shown in the cash flow statement."
SCT = " Give a response to the question by relying on the details shown in the Summary Compensation Table."
DCT = " Give a response to the question by relying on the details shown in the director compensation table."


def q(doc, slug, question, answers=None, evidence=None):
    return question_row("fb3", {"e": E, "f": F}, doc, slug, question, answers, evidence)


DOC_E = [
    q("e", "meeting-date", "When is Quillon Water Technologies' 2026 annual meeting of stockholders?",
      ["May 14, 2026", "Thursday, May 14, 2026", "2026-05-14", "May 14"],
      ["Thursday, May 14, 2026, at 9:00 a.m. Central Time"]),
    q("e", "ceo-total-pay-2025", "How much was Quillon's CEO paid in total for 2025?",
      ["$8,301,188", "8,301,188", "$8.3 million", "8.3 million"],
      ["as reported in the Summary Compensation Table, was $8,301,188"]),
    q("e", "audit-chair", "Who chairs Quillon Water Technologies' audit committee?",
      ["Priya N. Ramaswamy", "Priya Ramaswamy", "Ms. Ramaswamy"], ["Audit (Chair)", "Priya N. Ramaswamy, Chair"]),
    q("e", "auditor-bill-2025", "How much did Quillon's outside auditor bill the company in total for fiscal 2025?",
      ["$3,454,900", "3,454,900", "$3.45 million", "$3.5 million"],
      ["Fees Paid to the Independent Registered Public Accounting Firm", "Total | 3,454,900 | 3,241,000"]),
    q("e", "plan-share-increase", "How many additional shares would the proposed amendment to Quillon's 2021 Omnibus "
      "Incentive Plan add to the share reserve?", ["1,850,000", "1,850,000 shares", "1.85 million shares"],
      ["increase the number of shares reserved for issuance by 1,850,000"]),
    q("e", "pay-ratio-2025", "What was Quillon Water Technologies' CEO pay ratio for 2025?",
      ["116 to 1", "116:1", "116"], ["was approximately 116 to 1"]),
    q("e", "annual-bonus-payout-2025", "What percentage of target did Quillon's executives receive under the 2025 "
      "annual bonus plan?", ["117%", "117 percent", "117% of target"],
      ["annual incentive payouts equal to 117% of target"]),
    q("e", "bellwether-percent", "What percentage of Quillon's common stock does Bellwether Capital Advisors "
      "beneficially own?", ["11.2%", "11.2 percent", "11.2"],
      ["Bellwether Capital Advisors, LP(1) | 4,617,325 | 11.2%"]),
    q("e", "pruitt-age", "How old is Quillon director Howard J. Pruitt?", ["68", "68 years old"], ["Age: 68"]),
    q("e", "tsai-director-since", "Since what year has Gordon E. Tsai served on Quillon's board?",
      ["2018", "since 2018"], ["Director since: 2018"]),
    q("e", "tax-fees-2024", "How much did Quillon pay its accounting firm for tax work in fiscal 2024?",
      ["$352,800", "352,800", "$0.35 million"], ["Tax fees(3) | 388,200 | 352,800"]),
    q("e", "castellanos-comp-2025", "What was Eleanor V. Castellanos's total compensation for 2025?" + DCT,
      ["$340,012", "340,012", "$0.34 million"], ["Eleanor V. Castellanos | 180,000 | 160,012"]),
    q("e", "say-on-pay-2025", "What level of support did Quillon's say-on-pay proposal receive at the 2025 annual "
      "meeting?", ["94.3%", "94.3 percent", "approximately 94.3%"],
      ["approximately 94.3% of the votes cast supported our say-on-pay proposal"]),
    q("e", "ceo-is-chair-yn", "Does Quillon's chief executive also serve as chair of the board?",
      ["No", "no, the roles are separate; Eleanor V. Castellanos is the independent Chair"],
      ["The roles of Chair of the Board and Chief Executive Officer are separate."]),
    q("e", "bohannon-bonus-yn", "Did Curtis Bohannon receive a cash bonus for 2025 outside the annual incentive "
      "plan?", ["Yes", "yes, a one-time $75,000 retention bonus"], ["one-time cash retention bonus of $75,000"]),
    q("e", "psu-payout-2023-2025", "At what percentage of target were Quillon's 2023-2025 performance share units "
      "earned?", ["134%", "134 percent", "134% of target"], ["were earned at 134% of target"]),
    q("e", "cfo-salary-2024", "What was the CFO's salary in 2024?" + SCT, ["$540,000", "540,000"],
      ["2024 | 540,000", "from $540,000 to $560,000"]),
    # unanswerable: a related fact is stated, the one asked is not
    q("e", "ceo-total-2022", "What was Tobias Lindgren's total compensation for 2022?"),
    q("e", "risk-committee-chair", "Who chairs the Risk Committee of Quillon's board of directors?"),
    q("e", "coo-bonus-2025", "What annual incentive payout did Quillon's Chief Operating Officer receive for 2025?"),
    q("e", "one-year-tsr-2025", "What was Quillon Water Technologies' one-year total shareholder return in 2025?"),
    q("e", "blackrock-shares", "How many Quillon shares does BlackRock beneficially own?"),
    q("e", "say-on-pay-2023", "What percentage of votes supported Quillon's say-on-pay proposal at the 2023 annual "
      "meeting?"),
    q("e", "ceo-severance-multiple", "What cash severance multiple would Quillon's CEO receive if terminated after a "
      "change in control?"),
]

DOC_F = [
    q("f", "top-line-q3-2025", "What was Halberd Outdoor's top line for the quarter ended September 30, 2025?",
      ["$412.8 million", "412,806", "$412,806 thousand", "412.8", "$413 million"],
      ["Net sales increased 6.0% to $412.8 million in the third quarter of 2025"]),
    q("f", "net-income-9m-2025", "What is the 9M 2025 net income (in USD thousands) for Halberd Outdoor Products?"
      + IS, ["67,839", "$67,839 thousand", "$67.8 million", "67.8"], ["Net income"]),
    q("f", "diluted-eps-q3-2024", "What were Halberd's diluted earnings per share for the three months ended "
      "September 30, 2024?", ["$1.10", "1.10", "$1.1"], ["$32.5 million, or $1.10 per diluted share"]),
    q("f", "gross-margin-q3-2025", "What was Halberd's gross margin in the third quarter of 2025?",
      ["43.0%", "43.0 percent", "43%", "43.0"], ["Gross margin was 43.0% in the third quarter of 2025"]),
    q("f", "trail-camp-growth-q3", "How fast did Halberd's Trail & Camp business grow its sales in Q3 2025 versus "
      "the prior-year quarter?", ["8.3%", "8.3 percent", "8.3"],
      ["Trail & Camp net sales increased 8.3% in the third quarter"]),
    q("f", "cycling-profit-down-yn", "Did Halberd's Cycling segment earn less operating income in Q3 2025 than in "
      "Q3 2024?", ["Yes", "yes, it fell to $15.6 million from $16.9 million"],
      ["Cycling segment operating income fell to $15.6 million from $16.9 million"]),
    q("f", "inventories-sep-2025", "What was the carrying value of Halberd's inventories at September 30, 2025?",
      ["$341.6 million", "341,590", "$341,590 thousand", "341.6"], ["Total inventories"]),
    q("f", "operating-cash-9m-2025", "What is the 9M 2025 net cash provided by operating activities (in USD "
      "millions) for Halberd Outdoor Products?" + CF,
      ["$53.0 million", "53,021", "$53,021 thousand", "53.0", "53.02", "$53 million"],
      ["Net cash provided by operating activities"]),
    q("f", "capex-9m-2025", "How much did Halberd spend on property, plant and equipment in the first nine months "
      "of 2025?" + CF, ["$31.7 million", "31,740", "$31,740 thousand", "31.7", "31.74"],
      ["Purchases of property, plant and equipment"]),
    q("f", "revolver-availability", "How much borrowing capacity did Halberd have left on its revolver at quarter "
      "end?", ["$296.4 million", "296.4", "296,400", "$296,400 thousand"],
      ["$296.4 million was available for borrowing"]),
    q("f", "august-2025-buybacks", "How many shares did Halberd buy back in August 2025?",
      ["121,300", "121,300 shares", "121300"], ["August 1 \u2013 August 31, 2025"]),
    q("f", "remaining-authorization", "How much remained available under Halberd's share repurchase program at "
      "September 30, 2025?", ["$147.0 million", "$147 million", "147.0", "147,000", "$147,000 thousand"],
      ["$147.0 million remained available under the share"]),
    q("f", "dividend-payable-date", "When will Halberd pay the quarterly dividend its board declared on October 21, "
      "2025?", ["November 17, 2025", "Nov 17, 2025", "2025-11-17", "November 17"], ["payable on November 17, 2025"]),
    q("f", "europe-sales-9m-2025", "What were Halberd's net sales to customers in Europe for the nine months ended "
      "September 30, 2025?", ["$161.2 million", "161,230", "$161,230 thousand", "161.2"], ["Europe"]),
    q("f", "post-quarter-acquisition-price", "How much did Halberd pay for the business it bought shortly after the "
      "quarter closed?", ["$38.5 million", "38.5", "38,500", "$38,500 thousand"],
      ["we acquired Summit Loom Textiles, LLC", "for $38.5 million in cash"]),
    q("f", "comprehensive-income-q3-2025", "What was Halberd's comprehensive income for the third quarter of 2025?",
      ["$38.7 million", "38,658", "$38,658 thousand", "38.7"], ["Comprehensive income"]),
    q("f", "rule-10b5-1-yn", "Did any Halberd director or officer adopt a Rule 10b5-1 trading plan during the third "
      "quarter of 2025?", ["No", "no, none adopted or terminated one"],
      ["none of our directors or officers adopted or terminated a"]),
    q("f", "principal-financial-officer", "Who signed Halberd's Q3 2025 10-Q as principal financial officer?",
      ["Serena J. Whitlock", "Serena Whitlock"], ["/s/ Serena J. Whitlock"]),
    # unanswerable
    q("f", "net-sales-q3-2023", "What were Halberd Outdoor's net sales for the third quarter of 2023?"),
    q("f", "adjusted-ebitda-9m-2025", "What was Halberd's adjusted EBITDA for the nine months ended September 30, "
      "2025?"),
    q("f", "paddle-europe-q3-2025", "How much Paddle segment revenue did Halberd generate in Europe in Q3 2025?"),
    q("f", "total-assets-sep-2024", "What were Halberd's total assets at September 30, 2024?"),
    q("f", "sales-guidance-2025", "What full-year 2025 net sales guidance did Halberd give in its third-quarter "
      "10-Q?"),
    q("f", "headcount", "How many employees did Halberd Outdoor Products have at September 30, 2025?"),
    q("f", "net-sales-q2-2025", "What were Halberd's net sales for the quarter ended June 30, 2025?"),
]


def split(rows):
    """1st, 3rd, 5th ... row -> tune; 2nd, 4th ... -> test."""
    return rows[0::2], rows[1::2]


def main():
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    te, se = split(DOC_E)
    tf, sf = split(DOC_F)
    write_rows(os.path.join(data, "answers-filings-blind3-tune.jsonl"), te + tf)
    write_rows(os.path.join(data, "answers-filings-blind3-test.jsonl"), se + sf)


if __name__ == "__main__":
    main()
