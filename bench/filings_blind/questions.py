"""Source of the blind question sets: writes bench/data/answers-filings-blind-{tune,test}.jsonl.
``python bench/filings_blind/questions.py`` rewrites both files; check.py validates them."""

from __future__ import annotations

import json
import os

A = "meridian_10k_fy2024.pdf"
B = "cplx-20250930.htm"
CF = " Give a response to the question by relying on the details shown in the cash flow statement."


def question_row(prefix, documents, doc, slug, question, answers=None, evidence=None):
    """One question's JSON object: ``<prefix>-<doc>-<slug>``, unanswerable without ``answers``, its evidence in
    ``documents[doc]`` (also used by ``bench/filings_blind2/questions.py``)."""
    if not answers:
        return {"id": f"{prefix}-{doc}-{slug}", "question": question, "answers": [], "answerable": False}
    return {"id": f"{prefix}-{doc}-{slug}", "question": question, "answers": answers, "answerable": True,
            "evidence": [{"document": documents[doc], "text": t} for t in evidence]}


def write_rows(path, rows):
    """``rows`` as JSON lines at ``path``."""
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def q(doc, slug, question, answers=None, evidence=None):
    return question_row("fb", {"a": A, "b": B}, doc, slug, question, answers, evidence)


TUNE = [
    q("a", "total-revenue-2024", "What were Meridian Ledger Systems' total revenues for fiscal 2024?",
      ["$585.8 million", "585,837", "$585,837 thousand", "585.8", "$586 million"], ["Total revenue"]),
    q("a", "net-income-2023", "How much net income did Meridian Ledger Systems report for the fiscal year ended "
      "June 30, 2023?", ["$25.3 million", "25,308", "$25,308 thousand", "25.3"], ["Net income"]),
    q("a", "operating-cash-2024", "What is the FY2024 net cash provided by operating activities (in USD millions) "
      "for Meridian Ledger Systems?" + CF, ["$140.9 million", "140,870", "$140,870 thousand", "140.9", "140.87"],
      ["Net cash provided by operating activities"]),
    q("a", "capex-2024", "What is the FY2024 capital expenditure amount (in USD millions) for Meridian Ledger "
      "Systems?" + CF, ["$18.6 million", "18,642", "$18,642 thousand", "18.6", "18.64"],
      ["Purchases of property and equipment", "Capital expenditures were $18.6 million in fiscal 2024"]),
    q("a", "cash-2023", "What was Meridian's cash and cash equivalents balance at June 30, 2023?",
      ["$142.3 million", "142,318", "$142,318 thousand", "142.3"], ["Cash and cash equivalents"]),
    q("a", "subscription-revenue-2022", "How much subscription revenue did Meridian Ledger Systems record in "
      "fiscal 2022?", ["$296.3 million", "296,310", "$296,310 thousand", "296.3"],
      ["Cloud Platform (subscription)"]),
    q("a", "revenue-growth-2024", "By what percentage did Meridian's total revenue grow in fiscal 2024?",
      ["16.8%", "16.8 percent", "16.8", "about 17%"], ["an increase of 16.8%"]),
    q("a", "employees", "Approximately how many full-time employees did Meridian Ledger Systems have as of "
      "June 30, 2024?", ["2,160", "approximately 2,160", "about 2,160", "2160"],
      ["we had approximately 2,160 full-time employees"]),
    q("a", "auditor", "Who audits Meridian Ledger Systems' financial statements?",
      ["Pemberton Ashford LLP", "Pemberton Ashford"], ["/s/ Pemberton Ashford LLP"]),
    q("a", "auditor-tenure", "Since what year has Meridian's independent registered public accounting firm "
      "served as its auditor?", ["2016", "since 2016"], ["We have served as the Company's auditor since 2016."]),
    q("a", "headquarters", "In which city is Meridian Ledger Systems headquartered?",
      ["Raleigh, North Carolina", "Raleigh", "Raleigh, NC"],
      ["2100 Glenwood Commons Parkway, Suite 800, Raleigh, North Carolina 27608"]),
    q("a", "revolver-size", "What is the total size of Meridian Ledger Systems' revolving credit facility?",
      ["$250.0 million", "$250 million", "250.0", "250,000", "$250,000 thousand"],
      ["$250.0 million revolving credit facility"]),
    q("a", "effective-tax-rate-2024", "What was Meridian's effective tax rate for fiscal 2024?",
      ["22.2%", "22.2 percent", "22.2"], ["Our effective tax rate was 22.2% in fiscal 2024"]),
    q("a", "repurchased-yn", "Did Meridian Ledger Systems repurchase any of its own shares during fiscal 2024?",
      ["Yes", "yes, 612,480 shares for $27.9 million"], ["we repurchased 612,480 shares"]),
    q("a", "dividend-yn", "Did Meridian pay a cash dividend to its stockholders in fiscal 2024?",
      ["No", "no, it has never paid cash dividends"], ["We have never declared or paid cash"]),
    q("a", "may-2024-repurchases", "How many shares did Meridian Ledger Systems buy back in May 2024?",
      ["71,900", "71,900 shares", "71900"], ["May 1 - May 31, 2024"]),
    # unanswerable: a related fact is stated, the one asked is not
    q("a", "international-revenue-2022", "What was Meridian Ledger Systems' international revenue in fiscal "
      "2022?"),
    q("a", "payments-operating-income", "What was the operating income of Meridian's Payments segment in fiscal "
      "2024?"),
    q("a", "adjusted-ebitda-2024", "What was Meridian Ledger Systems' adjusted EBITDA for FY2024?"),
    q("a", "denver-square-feet", "How many square feet of office space does Meridian lease in Denver, Colorado?"),
    q("a", "total-revenue-2021", "What were Meridian Ledger Systems' total revenues for fiscal 2021?"),
    q("a", "borrowing-rate-2023", "What was the weighted-average interest rate on Meridian's outstanding revolver "
      "borrowings at June 30, 2023?"),
    q("a", "net-revenue-retention", "What was Meridian's dollar-based net revenue retention rate in fiscal 2024?"),
]

TEST = [
    q("b", "revenue-q3-2025", "What were Copperline Logistics' total operating revenues for the third quarter of "
      "2025?", ["$552.9 million", "552,921", "$552,921 thousand", "552.9", "$553 million"],
      ["Total operating revenues increased 4.6% to $552.9 million"]),
    q("b", "net-income-9m-2025", "What was Copperline's net income for 9M 2025?",
      ["$74.3 million", "74,322", "$74,322 thousand", "74.3"], ["Net income"]),
    q("b", "diluted-eps-q3-2024", "What were Copperline Logistics' diluted earnings per share in Q3 2024?",
      ["$0.70", "0.70", "70 cents"], ["Diluted"]),
    q("b", "intermodal-operating-income-q3", "What was the Intermodal segment's operating income for the three "
      "months ended September 30, 2025?", ["$16.1 million", "16,118", "$16,118 thousand", "16.1"],
      ["Intermodal operating income increased to $16.1 million"]),
    q("b", "brokerage-revenue-9m-2024", "What were Copperline's Brokerage segment operating revenues for the nine "
      "months ended September 30, 2024?", ["$301.9 million", "301,884", "$301,884 thousand", "301.9"],
      ["Brokerage"]),
    q("b", "cash-dec-2024", "How much cash and cash equivalents did Copperline Logistics have at December 31, 2024?",
      ["$71.2 million", "71,215", "$71,215 thousand", "71.2"], ["Cash and cash equivalents"]),
    q("b", "operating-cash-ytd-2025", "What is the YTD 2025 net cash provided by operating activities (in USD "
      "millions) for Copperline Logistics?" + CF,
      ["$187.0 million", "186,950", "$186,950 thousand", "187.0", "186.95", "$187 million"],
      ["Net cash provided by operating activities"]),
    q("b", "capex-9m-2025", "What is the 9M 2025 capital expenditure amount (in USD millions) for Copperline "
      "Logistics?" + CF, ["$143.5 million", "143,519", "$143,519 thousand", "143.5", "143.52"],
      ["Purchases of property and equipment"]),
    q("b", "dividend-per-share", "What quarterly dividend per share did Copperline's board declare in October "
      "2025?", ["$0.24", "0.24", "24 cents"], ["declared a quarterly cash dividend of $0.24 per share"]),
    q("b", "dividend-payment-date", "When will Copperline pay the quarterly dividend it declared on October 21, "
      "2025?", ["November 14, 2025", "Nov 14, 2025", "2025-11-14", "November 14"],
      ["payable on November 14, 2025"]),
    q("b", "q3-repurchase-shares", "How many shares of common stock did Copperline repurchase during the third "
      "quarter of 2025?", ["412,600", "412,600 shares", "412600"],
      ["we repurchased 412,600 shares of common stock for $15.9 million"]),
    q("b", "brokerage-decline-yn", "Did Copperline's Brokerage revenue decline year over year in Q3 2025?",
      ["Yes", "yes, it decreased 6.0%"], ["Brokerage operating revenues decreased 6.0% to $96.3 million"]),
    q("b", "revenue-growth-q3", "By what percentage did Copperline's total operating revenues increase in Q3 2025 "
      "versus Q3 2024?", ["4.6%", "4.6 percent", "4.6"], ["Total operating revenues increased 4.6%"]),
    q("b", "eps-guidance-2025", "What is Copperline's updated full-year 2025 diluted EPS guidance?",
      ["$3.05 to $3.20", "$3.05-$3.20", "3.05 to 3.20", "$3.05 - $3.20"],
      ["full-year 2025 diluted earnings per share of $3.05 to $3.20"]),
    q("b", "truckload-operating-ratio-q3", "What was the Truckload operating ratio in Q3 2025?",
      ["90.7%", "90.7 percent", "90.7"], ["Truckload operating ratio"]),
    q("b", "effective-tax-rate-q3", "What was Copperline's effective income tax rate for the quarter ended "
      "September 30, 2025?", ["24.5%", "24.5 percent", "24.5"], ["Our effective income tax rate was 24.5%"]),
    # unanswerable
    q("b", "revenue-guidance-2025", "What full-year 2025 revenue guidance did Copperline Logistics give?"),
    q("b", "revenue-q2-2025", "What were Copperline's total operating revenues for the second quarter of 2025?"),
    q("b", "total-assets-sep-2024", "What were Copperline Logistics' total assets at September 30, 2024?"),
    q("b", "adjusted-ebitda-q3", "What was Copperline's adjusted EBITDA in Q3 2025?"),
    q("b", "brokerage-gross-margin-q3", "What was the Brokerage segment's gross margin (net revenue after purchased "
      "transportation) in Q3 2025?"),
    q("b", "truckload-length-of-haul", "What was the average length of haul in Copperline's Truckload segment in "
      "Q3 2025?"),
]


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    for name, rows in (("answers-filings-blind-tune.jsonl", TUNE), ("answers-filings-blind-test.jsonl", TEST)):
        write_rows(os.path.join(root, name), rows)


if __name__ == "__main__":
    main()
