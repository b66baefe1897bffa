"""Document 3: a syndicated credit agreement (Exhibit 10.1) printed to PDF.

Cover page of parties, a TABLE OF CONTENTS with dot leaders and page numbers, ARTICLE label and title on two
centred bold lines, 'Section 2.01 Commitments' bold on its own line, defined terms in bold quotes at the start
of paragraphs (run-in, not headings), lettered sub-clauses, signature pages and one schedule."""

from __future__ import annotations

from pdflayout import LEFT, RIGHT, Break, Gap, H, L, P, T, Tag, Text, make_pdf, para, render, width
from prose import LEGAL, Prose

PR = Prose(3)

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]

ARTICLES = [
    ("DEFINITIONS AND ACCOUNTING TERMS", ["Defined Terms", "Other Interpretive Provisions", "Accounting Terms",
                                         "Times of Day"]),
    ("THE COMMITMENTS AND CREDIT EXTENSIONS", ["Loans", "Borrowings, Conversions and Continuations of Loans",
                                              "Prepayments", "Termination or Reduction of Commitments",
                                              "Repayment of Loans", "Interest", "Fees"]),
    ("TAXES, YIELD PROTECTION AND ILLEGALITY", ["Taxes", "Illegality", "Inability to Determine Rates"]),
    ("CONDITIONS PRECEDENT TO CREDIT EXTENSIONS", ["Conditions of Initial Credit Extension",
                                                   "Conditions to all Credit Extensions"]),
    ("REPRESENTATIONS AND WARRANTIES", ["Existence, Qualification and Power", "Authorization; No Contravention",
                                       "Financial Statements; No Material Adverse Effect", "Litigation"]),
    ("AFFIRMATIVE COVENANTS", ["Financial Statements", "Certificates; Other Information", "Notices",
                               "Use of Proceeds"]),
    ("NEGATIVE COVENANTS", ["Liens", "Indebtedness", "Fundamental Changes", "Financial Covenants"]),
    ("EVENTS OF DEFAULT AND REMEDIES", ["Events of Default", "Remedies upon Event of Default",
                                       "Application of Funds"]),
    ("ADMINISTRATIVE AGENT", ["Appointment and Authority", "Rights as a Lender", "Exculpatory Provisions"]),
    ("MISCELLANEOUS", ["Amendments, Etc.", "Notices; Effectiveness; Electronic Communication", "Counterparts",
                       "Governing Law; Jurisdiction; Etc.", "Waiver of Jury Trial"]),
]

DEFINED = [
    ("Administrative Agent", "means First Meridian Bank, N.A. in its capacity as administrative agent under any of "
                             "the Loan Documents, or any successor administrative agent."),
    ("Affiliate", "means, with respect to a specified Person, another Person that directly, or indirectly through "
                  "one or more intermediaries, Controls or is Controlled by or is under common Control with the "
                  "Person specified."),
    ("Aggregate Commitments", "means the Commitments of all the Lenders. On the Closing Date, the Aggregate "
                              "Commitments are $400,000,000."),
    ("Applicable Rate", "means, from time to time, the applicable percentage per annum set forth in the pricing grid "
                        "below, based upon the Consolidated Leverage Ratio as set forth in the most recent Compliance "
                        "Certificate received by the Administrative Agent pursuant to Section 6.02(a)."),
    ("Business Day", "means any day other than a Saturday, Sunday or other day on which commercial banks are "
                     "authorized to close under the Laws of, or are in fact closed in, the state where the "
                     "Administrative Agent's Office is located."),
    ("Consolidated EBITDA", "means, for any period, for the Borrower and its Subsidiaries on a consolidated basis, "
                            "an amount equal to Consolidated Net Income for such period plus, without duplication "
                            "and to the extent deducted in determining such Consolidated Net Income, (a) Consolidated "
                            "Interest Charges, (b) the provision for income taxes and (c) depreciation and "
                            "amortization expense."),
    ("Consolidated Leverage Ratio", "means, as of any date of determination, the ratio of (a) Consolidated Funded "
                                    "Indebtedness as of such date to (b) Consolidated EBITDA for the period of the "
                                    "four fiscal quarters most recently ended."),
    ("Default", "means any event or condition that constitutes an Event of Default or that, with the giving of any "
                "notice, the passage of time, or both, would be an Event of Default."),
    ("Maturity Date", "means March 14, 2030; provided that if such date is not a Business Day, the Maturity Date "
                      "shall be the next preceding Business Day."),
    ("Term SOFR", "means, for any Interest Period, the Term SOFR Screen Rate two U.S. Government Securities "
                  "Business Days prior to the commencement of such Interest Period with a term equivalent to such "
                  "Interest Period; provided that if Term SOFR shall be less than zero, such rate shall be deemed "
                  "zero for purposes of this Agreement."),
]


def cover():
    c = "center"
    return [L("Published CUSIP Number: 66781QAB2", 9, False, "right", after=60),
            L("CREDIT AGREEMENT", 16, True, c, after=14), L("Dated as of March 14, 2025", 11, False, c, after=14),
            L("among", 11, False, c, after=14), L("NORTHWIND PRECISION INSTRUMENTS, INC.,", 11, True, c),
            L("as the Borrower,", 11, False, c, after=14), L("THE SUBSIDIARY GUARANTORS PARTY HERETO,", 11, True, c,
                                                             after=14),
            L("FIRST MERIDIAN BANK, N.A.,", 11, True, c),
            L("as Administrative Agent, Swing Line Lender and L/C Issuer,", 11, False, c, after=14),
            L("and", 11, False, c, after=14), L("THE OTHER LENDERS PARTY HERETO", 11, True, c, after=40),
            L("MERIDIAN CAPITAL MARKETS LLC", 11, True, c), L("and", 11, False, c),
            L("HARBOR TRUST SECURITIES, INC.,", 11, True, c),
            L("as Joint Lead Arrangers and Joint Bookrunners", 11, False, c)]


def toc(entries, pages):
    dots = "." * 200
    b = [Break(), Tag("toc"), H(["TABLE OF CONTENTS"], None, size=11, align="center", after=8),
         T([["Section", "Page"]], [RIGHT], size=9, bold_rows={0}, after=4)]
    for (lvl, text), pg in zip(entries, pages):
        num = str(pg + 1)
        if lvl == 0:
            label, title = text.split("\t")
            b.append(T([[label, title, num]], [RIGHT], size=10, leading=16, after=0, left_cols=[150]))
        else:
            sec, title = text.split("\t")
            w = width(title, 10)
            avail = RIGHT - 20 - (126 + w) - 6
            lead = dots[: max(0, int(avail / width(".", 10)))]
            b.append(T([[sec, title + " " + lead, num]], [RIGHT], size=10, leading=13, after=0, left_cols=[126],
                       col0=90))
    b += [Gap(10), L("SCHEDULES", 10, True),
          T([["2.01", "Commitments and Applicable Percentages"], ["5.04", "Litigation"],
             ["10.02", "Administrative Agent's Office; Certain Addresses for Notices"]], [], left_cols=[150], size=10),
          L("EXHIBITS", 10, True), L("Form of", 10, False),
          T([["A", "Committed Loan Notice"], ["B", "Note"], ["C", "Compliance Certificate"],
             ["D", "Assignment and Assumption"]], [], left_cols=[150], size=10), Break()]
    return b


def body():
    b = [Tag("body"), P([("This CREDIT AGREEMENT (this \u201cAgreement\u201d) is entered into as of March 14, 2025, among "
             "NORTHWIND PRECISION INSTRUMENTS, INC., a Delaware corporation (the \u201cBorrower\u201d), the Subsidiary "
             "Guarantors party hereto, each lender from time to time party hereto (collectively, the "
             "\u201cLenders\u201d and individually, a \u201cLender\u201d), and FIRST MERIDIAN BANK, N.A., as "
             "Administrative Agent, Swing Line Lender and L/C Issuer.", False)], first=36),
         L("PRELIMINARY STATEMENTS:", 10, False, "center", after=6),
         P([("The Borrower has requested that the Lenders provide a revolving credit facility, and the Lenders are "
             "willing to do so on the terms and conditions set forth herein. In consideration of the mutual "
             "covenants and agreements herein contained, the parties hereto covenant and agree as follows:", False)],
           first=36)]
    for a, (atitle, sections) in enumerate(ARTICLES, start=1):
        label = f"ARTICLE {ROMAN[a - 1]}"
        b.append(H([label, atitle], 1, size=11, align="center", before=24, after=12, toc=f"{label}\t{atitle}",
                   new_page=(a in (2, 6))))
        for s, stitle in enumerate(sections, start=1):
            num = f"{a}.{s:02d}"
            b.append(H([f"Section {num} {stitle}"], 2, size=10, before=10, after=6, toc=f"{num}\t{stitle}",
                       toc_level=1))
            if (a, s) == (1, 1):
                b.append(para("As used in this Agreement, the following terms shall have the meanings set forth "
                              "below:", first=36))
                for term, text in DEFINED:
                    b.append(P([(f"\u201c{term}\u201d", True), (text, False)], first=36))
            elif (a, s) == (7, 4):
                b.append(P([("(a)", False), ("Consolidated Leverage Ratio.", True), (PR.sents(LEGAL, 1), False)],
                           indent=36))
                b.append(P([("(b)", False), ("Consolidated Interest Coverage Ratio.", True),
                            ("Permit the Consolidated Interest Coverage Ratio as of the end of any fiscal quarter of "
                             "the Borrower to be less than 3.00 to 1.00.", False)], indent=36))
            elif (a, s) == (8, 1):
                b.append(para("Any of the following shall constitute an Event of Default:", first=36))
                for k, (lead, text) in enumerate([
                        ("Non-Payment.", "The Borrower fails to pay (i) when and as required to be paid herein, any "
                                         "amount of principal of any Loan, or (ii) within three Business Days after "
                                         "the same becomes due, any interest on any Loan or any fee due hereunder."),
                        ("Specific Covenants.", "The Borrower fails to perform or observe any term, covenant or "
                                                "agreement contained in Section 6.03, Section 6.04 or Article VII."),
                        ("Cross-Default.", "The Borrower or any Subsidiary fails to make any payment when due in "
                                           "respect of any Indebtedness having an aggregate principal amount of "
                                           "more than the Threshold Amount."),
                        ("Insolvency Proceedings, Etc.", "The Borrower or any Subsidiary institutes or consents to "
                                                         "the institution of any proceeding under any Debtor Relief "
                                                         "Law, or makes an assignment for the benefit of creditors.")]):
                    b.append(P([(f"({'abcd'[k]})", False), (lead, True), (text, False)], indent=36))
            else:
                n = 1 + (a + s) % 2
                for k in range(n):
                    if n > 1:
                        b.append(P([(f"({'ab'[k]})", False), (PR.sents(LEGAL, 2), False)], indent=36))
                    else:
                        b.append(para(PR.sents(LEGAL, 2 + s % 2), first=36))
    b.append(para("[Signature pages follow.]", align="center"))
    b.append(Tag("sig"))
    b.append(Break())
    b.append(para("IN WITNESS WHEREOF, the parties hereto have caused this Agreement to be duly executed as of the "
                  "date first above written.", first=36, after=20))
    for name, who, title in [("NORTHWIND PRECISION INSTRUMENTS, INC.,", "Karen E. Lindqvist",
                              "Senior Vice President and Treasurer"),
                             ("FIRST MERIDIAN BANK, N.A.,", "Thomas J. Ardery", "Managing Director"),
                             ("HARBOR TRUST BANK,", "Priya N. Bhandari", "Vice President")]:
        b += [L(name, 10, True, x=300), L("as Administrative Agent" if "MERIDIAN" in name else
                                           ("as the Borrower" if "NORTHWIND" in name else "as a Lender"), 10, x=300,
                                           after=10),
              L("By: ______________________________", 10, x=300), L(f"Name: {who}", 10, x=318),
              L(f"Title: {title}", 10, x=318, after=24)]
    b.append(Tag("sched"))
    b.append(H(["SCHEDULE 2.01", "COMMITMENTS AND APPLICABLE PERCENTAGES"], 1, size=10, align="center",
               new_page=True, after=12))
    b.append(T([["Lender", "Commitment", "Applicable Percentage"],
                ["First Meridian Bank, N.A.", "$ 90,000,000.00", "22.500000000%"],
                ["Harbor Trust Bank", "$ 90,000,000.00", "22.500000000%"],
                ["Great Plains National Bank", "$ 75,000,000.00", "18.750000000%"],
                ["Keystone Savings Bank", "$ 75,000,000.00", "18.750000000%"],
                ["Ohio Valley Bank and Trust Company", "$ 70,000,000.00", "17.500000000%"],
                ["Total", "$ 400,000,000.00", "100.000000000%"]], [400, 540], bold_rows={0, 6}, size=10,
               leading=14))
    return b


def _footer(i, n, tag, rel):
    docid = Text(LEFT, 30, 7, "US-DOCS\\152877431.6")
    if i == 0 or tag == "sched":
        return [docid]
    if tag == "sig":
        s = "[Signature Page to Credit Agreement]"
        return [Text((LEFT + RIGHT) / 2 - width(s, 9) / 2, 42, 9, s), docid]
    s = ["i", "ii", "iii", "iv"][rel] if tag == "toc" else str(rel + 1)
    return [Text((LEFT + RIGHT) / 2 - width(s, 10) / 2, 42, 10, s), docid]


def build():
    global PR
    PR = Prose(3)
    pages, truth = render(cover(), toc, body(), None, _footer)
    return "northwind_credit_agreement_ex10-1.pdf", make_pdf(pages, title="Credit Agreement"), truth
