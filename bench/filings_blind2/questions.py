"""Source of the second blind question set: writes bench/data/answers-filings-blind2.jsonl (doc C, the
Bramblecrest 10-Q, and doc D, the Ashgrove earnings release). ``python bench/filings_blind2/questions.py``
rewrites the file; check.py validates it."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "filings_blind"))
from questions import question_row, write_rows  # noqa: E402  (bench/filings_blind/questions.py)

C = "bramblecrest_10q_q2_2025.pdf"
D = "ashgrove_ex99-1_q4_2024.pdf"
IS = " Give a response to the question by relying on the details shown in the income statement."
CF = " Give a response to the question by relying on the details shown in the cash flow statement."


def q(doc, slug, question, answers=None, evidence=None):
    return question_row("fb2", {"c": C, "d": D}, doc, slug, question, answers, evidence)


DOC_C = [
    q("c", "revenue-q2-2025", "What was Bramblecrest Animal Health's total revenue for the second quarter of 2025?",
      ["$295.5 million", "295,543", "$295,543 thousand", "295.5", "$296 million"],
      ["Revenue for the second quarter of 2025 increased 8.1% to $295.5 million"]),
    q("c", "operating-income-q2-2025", "What is the Q2 2025 operating income (in USD thousands) for Bramblecrest "
      "Animal Health?" + IS, ["54,624", "$54,624 thousand", "$54.6 million", "54.6"], ["Operating income"]),
    q("c", "net-income-6m-2025", "What is the 6M 2025 net income (in USD thousands) for Bramblecrest Animal "
      "Health?" + IS, ["64,648", "$64,648 thousand", "$64.6 million", "64.6"],
      ["Net income", "net income was $64.6 million"]),
    q("c", "diluted-eps-q2-2024", "What were Bramblecrest's diluted earnings per share for the three months ended "
      "June 29, 2024?", ["$0.69", "0.69", "69 cents"], ["or $0.69 per diluted share"]),
    q("c", "diagnostics-revenue-h1-2025", "How much Diagnostics revenue did Bramblecrest Animal Health record in "
      "H1 2025?", ["$143.6 million", "143,602", "$143,602 thousand", "143.6"], ["Diagnostics"]),
    q("c", "companion-growth-q2", "By what percentage did Bramblecrest's Companion Animal Pharmaceuticals revenue "
      "grow in Q2 2025?", ["11.3%", "11.3 percent", "11.3"],
      ["Companion Animal Pharmaceuticals revenue increased 11.3% in the second quarter"]),
    q("c", "gross-margin-6m-2025", "What was Bramblecrest's gross margin for the first six months of 2025?",
      ["59.5%", "59.5 percent", "59.5"], ["59.5% for the six months compared with 58.6%"]),
    q("c", "operating-cash-h1-2025", "What is the H1 2025 net cash provided by operating activities (in USD "
      "millions) for Bramblecrest Animal Health?" + CF,
      ["$110.9 million", "110,851", "$110,851 thousand", "110.9", "110.85", "$111 million"],
      ["Net cash provided by operating activities"]),
    q("c", "capex-6m-2025", "How much did Bramblecrest spend on capital expenditures in the six months ended June "
      "28, 2025?", ["$26.5 million", "26,480", "$26,480 thousand", "26.5", "26.48"],
      ["Capital expenditures", "Capital expenditures were $26.5 million in the first six months of 2025"]),
    q("c", "capex-outlook-2025", "What level of capital expenditures does Bramblecrest Animal Health expect for "
      "full-year 2025?", ["$55 million to $60 million", "$55-$60 million", "$55 million - $60 million",
                          "55 to 60 million"],
      ["we expect capital expenditures of $55 million to"]),
    q("c", "total-assets-dec-2024", "What were Bramblecrest Animal Health's total assets at December 28, 2024?",
      ["$1,564.3 million", "1,564,296", "$1,564,296 thousand", "$1.56 billion", "1,564.3"], ["Total assets"]),
    q("c", "revolver-availability", "How much was available under Bramblecrest's revolving credit facility at the "
      "end of the second quarter of 2025?", ["$150.0 million", "$150 million", "150.0", "150,000",
                                             "$150,000 thousand"],
      ["$150.0 million was available under the"]),
    q("c", "repurchased-shares-q2-2025", "How many shares of common stock did Bramblecrest repurchase during the "
      "second quarter of 2025?", ["198,400", "198,400 shares", "198400"], ["we repurchased 198,400"]),
    q("c", "dividend-declared-july-2025", "What quarterly cash dividend per share did Bramblecrest's board declare "
      "on July 22, 2025?", ["$0.21", "0.21", "21 cents", "$0.21 per share"],
      ["declared a quarterly cash dividend of $0.21 per share"]),
    q("c", "livestock-decline-yn", "Did Bramblecrest's Livestock Health revenue decline year over year in the "
      "second quarter of 2025?", ["Yes", "yes, it decreased 4.0% to $52.9 million"],
      ["Livestock Health revenue decreased 4.0% in the second quarter"]),
    q("c", "effective-tax-rate-6m-2025", "What was Bramblecrest's effective tax rate for the six months ended June "
      "28, 2025?", ["23.1%", "23.1 percent", "23.1"], ["23.1% for the six months"]),
    # unanswerable: a related fact is stated, the one asked is not
    q("c", "revenue-q2-2023", "What was Bramblecrest Animal Health's total revenue for the second quarter of "
      "2023?"),
    q("c", "companion-operating-income-q2", "What was the operating income of Bramblecrest's Companion Animal "
      "Pharmaceuticals product line in Q2 2025?"),
    q("c", "adjusted-ebitda-q2-2025", "What was Bramblecrest Animal Health's adjusted EBITDA for the second quarter "
      "of 2025?"),
    q("c", "revenue-guidance-2025", "What full-year 2025 revenue guidance did Bramblecrest Animal Health give in "
      "its second-quarter 10-Q?"),
    q("c", "total-assets-jun-2024", "What were Bramblecrest's total assets at June 29, 2024?"),
    q("c", "diagnostics-europe-6m", "How much Diagnostics revenue did Bramblecrest earn in Europe in the six months "
      "ended June 28, 2025?"),
]

DOC_D = [
    q("d", "revenue-q4-2024", "What were Ashgrove Dining Group's total revenues for the fourth quarter of 2024?",
      ["$358.5 million", "358,520", "$358,520 thousand", "358.5", "$359 million"],
      ["Total revenues increased 6.3% to $358.5 million"]),
    q("d", "net-income-fy2024", "What is the FY2024 net income (in USD thousands) for Ashgrove Dining Group?" + IS,
      ["46,793", "$46,793 thousand", "$46.8 million", "46.8"], ["Net income"]),
    q("d", "adjusted-ebitda-q4-2024", "What was Ashgrove's adjusted EBITDA in Q4 2024?",
      ["$40.8 million", "40,808", "$40,808 thousand", "40.8"],
      ["Adjusted EBITDA* increased to $40.8 million from $35.2 million."]),
    q("d", "adjusted-eps-fy2024", "What was Ashgrove Dining Group's adjusted diluted EPS for fiscal year 2024?",
      ["$1.39", "1.39"], ["Adjusted diluted EPS* was $1.39"]),
    q("d", "gaap-diluted-eps-fy2024", "What were Ashgrove's GAAP diluted earnings per share for the full year "
      "2024?", ["$1.18", "1.18"], ["or $1.18 per diluted share"]),
    q("d", "restaurant-sales-q4-2023", "What were Ashgrove Dining Group's restaurant sales for the three months "
      "ended December 31, 2023?", ["$331.9 million", "331,906", "$331,906 thousand", "331.9"],
      ["Restaurant sales"]),
    q("d", "comparable-sales-q4-2024", "What was Ashgrove Dining Group's comparable restaurant sales growth in Q4 "
      "2024?", ["2.4%", "2.4 percent", "2.4"], ["Comparable restaurant sales increased 2.4%"]),
    q("d", "revenue-guidance-2025", "What total revenues does Ashgrove Dining Group expect for fiscal 2025?",
      ["$1.46 billion to $1.50 billion", "$1.46-$1.50 billion", "$1.46 billion - $1.50 billion",
       "$1,460 million to $1,500 million", "1.46 to 1.50 billion"], ["$1.46 billion to $1.50 billion"]),
    q("d", "adjusted-ebitda-guidance-2025", "What is Ashgrove's adjusted EBITDA outlook for fiscal 2025?",
      ["$178 million to $188 million", "$178-$188 million", "$178 million - $188 million", "178 to 188 million"],
      ["$178 million to $188 million"]),
    q("d", "ceo", "Who is the chief executive officer of Ashgrove Dining Group?",
      ["Marisol T. Okafor", "Marisol Okafor"], ["said Marisol T. Okafor, President and Chief Executive"]),
    q("d", "dividend-payable-date", "When is the quarterly dividend that Ashgrove's board declared in February 2025 "
      "payable?", ["March 14, 2025", "Mar 14, 2025", "2025-03-14", "March 14"], ["payable on March 14, 2025"]),
    q("d", "restaurant-count-2024", "How many restaurants did Ashgrove Dining Group have at the end of fiscal 2024?",
      ["342", "342 restaurants"], ["ending the year with 342 restaurants"]),
    q("d", "long-term-debt-dec-2024", "What was Ashgrove's long-term debt at December 29, 2024?",
      ["$182.0 million", "182,000", "$182,000 thousand", "182.0", "$182 million"], ["Long-term debt"]),
    q("d", "net-income-q4-up-yn", "Did Ashgrove Dining Group's GAAP net income increase in the fourth quarter of "
      "2024 compared with the fourth quarter of 2023?", ["No", "no, it fell to $10.9 million from $12.2 million"],
      ["Net income was $10.9 million, or $0.28 per diluted share, compared with $12.2 million"]),
    q("d", "impairment-fy2024", "How much did Ashgrove record in impairment and restaurant closure costs for the "
      "full year 2024?", ["$9.3 million", "9,315", "$9,315 thousand", "9.3"],
      ["Impairment and restaurant closure costs"]),
    # unanswerable
    q("d", "adjusted-eps-guidance-2025", "What adjusted diluted EPS does Ashgrove Dining Group expect for fiscal "
      "2025?"),
    q("d", "revenue-q3-2024", "What were Ashgrove Dining Group's total revenues for the third quarter of 2024?"),
    q("d", "little-fern-sales-fy2024", "What were Little Fern Kitchen's total restaurant sales in fiscal 2024?"),
    q("d", "operating-cash-fy2024", "How much net cash did Ashgrove Dining Group generate from operating activities "
      "in fiscal 2024?"),
    q("d", "average-unit-volume-2024", "What was the average unit volume of an Ashgrove Tavern restaurant in "
      "2024?"),
    q("d", "total-assets-sep-2024", "What were Ashgrove Dining Group's total assets at September 29, 2024?"),
]


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "answers-filings-blind2.jsonl")
    write_rows(path, DOC_C + DOC_D)


if __name__ == "__main__":
    main()
