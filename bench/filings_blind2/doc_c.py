"""Document C: a quarterly report on Form 10-Q printed to PDF (Bramblecrest Animal Health, Inc., a veterinary
pharmaceuticals, diagnostics and livestock-health company; second quarter of a 52/53-week fiscal year, quarter
ended June 28, 2025).

Layout: cover page; an "INDEX" page (PART lines bold, "Item 2." label column, page numbers right); statements
each on their own page under a bold company-name line, "(Unaudited)" and a unit line; the statement of
operations has a two-line column head ("Three Months Ended" / "Six Months Ended" centred over the two date
columns below them); notes are "NOTE 3 - DEBT" in bold capitals; Item headings are "ITEM 2. MANAGEMENT'S ..."
bold capitals; MD&A sub-headings are bold mixed case, with italic-less run-in bold leads for product lines;
running header "BRAMBLECREST ANIMAL HEALTH, INC. | Form 10-Q" from page 2; footer is the page number centred."""

from __future__ import annotations

from pdflayout import LEFT, RIGHT, Break, H, L, P, T, Text, _wrap_text, make_pdf, para, render, width

CO = "Bramblecrest Animal Health, Inc."
FILE = "bramblecrest_10q_q2_2025.pdf"

Q, QP, Y, YP = "June 28, 2025", "June 29, 2024", "June 28, 2025", "June 29, 2024"
COLS4 = [330, 400, 470, 540]


def f(n, dollar=False):
    s = f"{abs(n):,}"
    s = f"({s})" if n < 0 else s
    return ("$ " + s) if dollar else s


def mil(n):
    return f"${abs(n) / 1000:,.1f} million"


def pct(a, b):
    return f"{(a / b - 1) * 100:.1f}%"


def dec(a, b):
    return f"{(1 - a / b) * 100:.1f}%"


# ---- figures (in thousands); order: Q2 2025, Q2 2024, 6M 2025, 6M 2024
REV = {"Companion Animal Pharmaceuticals": [168420, 151306, 321775, 290118],
       "Diagnostics": [74215, 66870, 143602, 129455],
       "Livestock Health": [52908, 55114, 104331, 108940]}
TOTAL = [sum(v[i] for v in REV.values()) for i in range(4)]
COGS = [118217, 112050, 230732, 218780]
GP = [TOTAL[i] - COGS[i] for i in range(4)]
RD = [31840, 29115, 62905, 57660]
SGA = [84612, 79308, 166420, 157994]
AMORT = [6250, 6250, 12500, 12500]
OPEX = [RD[i] + SGA[i] + AMORT[i] for i in range(4)]
OPINC = [GP[i] - OPEX[i] for i in range(4)]
INT = [-7415, -8902, -15120, -17960]
OTH = [1208, 644, 2037, 1310]
PRETAX = [OPINC[i] + INT[i] + OTH[i] for i in range(4)]
TAXRATE = [0.226, 0.238, 0.231, 0.240]
TAX = [round(PRETAX[i] * TAXRATE[i]) for i in range(4)]
NI = [PRETAX[i] - TAX[i] for i in range(4)]
SH_B = [41108, 41736, 41205, 41802]
SH_D = [41642, 42310, 41790, 42395]
EPS_B = [NI[i] / SH_B[i] for i in range(4)]
EPS_D = [NI[i] / SH_D[i] for i in range(4)]
INTL = [88412, 80236, 171204, 155918]

# balance sheet: June 28, 2025 / December 28, 2024
CASH = [142806, 118392]
AR = [196440, 204650]
INV = [231518, 229272]
PREP = [28904, 25117]
TCA = [CASH[i] + AR[i] + INV[i] + PREP[i] for i in range(2)]
PPE = [318225, 309884]
GW = [412660, 412660]
INTANG = [187500, 200000]
ROU = [41338, 43906]
OA = [22117, 20415]
TA = [TCA[i] + PPE[i] + GW[i] + INTANG[i] + ROU[i] + OA[i] for i in range(2)]
AP = [78412, 84230]
ACC = [96305, 82448]
CPD = [20000, 20000]
TCL = [AP[i] + ACC[i] + CPD[i] for i in range(2)]
LTD = [468900, 488600]
OLL = [36914, 39507]
DTL = [31220, 33845]
OL = [14602, 15118]
TL = [TCL[i] + LTD[i] + OLL[i] + DTL[i] + OL[i] for i in range(2)]
DIV6 = 17330
REPO6 = 24860
RE_DEC = 402118
RE = [RE_DEC + NI[2] - DIV6, RE_DEC]
TREAS = [-(118445 + REPO6), -118445]
AOCI = [-9812, -12640]
CS = [412, 414]
EQ = [TA[i] - TL[i] for i in range(2)]
APIC = [EQ[i] - CS[i] - RE[i] - TREAS[i] - AOCI[i] for i in range(2)]

# cash flows, six months 2025 / 2024
DA = [27415, 26080]
SBC = [8210, 7455]
DEFTX = [-2625, -1880]
AMFEE = [300, 300]
CAPEX = [-26480, -31215]
FIN25 = {"Repayments of term loan": [-10000, -10000], "Net repayments under revolving credit facility":
         [-10000, -15000], "Repurchases of common stock": [-REPO6, -18225], "Dividends paid": [-DIV6, -16720],
         "Proceeds from exercise of stock options": [4215, 3390],
         "Taxes paid related to net share settlement": [-3102, -2786]}
FX = [1120, -640]
NETCH25 = CASH[0] - CASH[1]
FINTOT = [sum(v[i] for v in FIN25.values()) for i in range(2)]
OPCASH = [NETCH25 - FX[0] - CAPEX[0] - FINTOT[0], 0]
CASH24 = [97415, 95260]  # end / beginning of six months 2024
OPCASH[1] = (CASH24[0] - CASH24[1]) - FX[1] - CAPEX[1] - FINTOT[1]
WC = [OPCASH[i] - (NI[2 + i] + DA[i] + SBC[i] + DEFTX[i] + AMFEE[i]) for i in range(2)]

REPO_Q = [("March 30, 2025 - May 3, 2025", 62100, "60.12"), ("May 4, 2025 - May 31, 2025", 71800, "61.05"),
          ("June 1, 2025 - June 28, 2025", 64500, "61.85")]


def part(label):
    return H([label], 1, size=11, align="left", before=18, after=8, toc=label, toc_level=-1)


def item(label, title, new_page=False):
    return H([f"{label} {title}".upper()], 2, size=10, before=14, after=8, toc=f"{label}\t{title}",
             new_page=new_page)


def sub(text, depth=3):
    return H([text], depth, size=10, before=10, after=6)


def note(num, title):
    return H([f"NOTE {num} - {title.upper()}"], 3, size=10, before=14, after=6)


def statement(title, unit):
    return [Break(), L("BRAMBLECREST ANIMAL HEALTH, INC.", 10, True, "center"),
            H([title], 3, size=10, align="center", before=0, after=2),
            L("(Unaudited)", 9, False, "center"), L(unit, 9, False, "center", after=8)]


def head2(size=8.5):
    """Two header lines: 'Three Months Ended' / 'Six Months Ended' centred over their two date columns."""
    c1 = (COLS4[0] + COLS4[1]) / 2 - 25
    c2 = (COLS4[2] + COLS4[3]) / 2 - 25
    a, b = "Three Months Ended", "Six Months Ended"
    return [T([["", a, b]], [c1 + width(a, size, True) / 2, c2 + width(b, size, True) / 2], bold_rows={0},
              size=size, leading=11, after=0),
            T([["", Q, QP, Y, YP]], COLS4, bold_rows={0}, size=size, leading=13, after=0)]


def row4(label, vals, dollar=False):
    return [label] + [f(v, dollar) for v in vals]


def cover():
    c = "center"
    return [
        L("UNITED STATES", 12, True, c), L("SECURITIES AND EXCHANGE COMMISSION", 12, True, c),
        L("Washington, D.C. 20549", 10, False, c, after=12),
        L("FORM 10-Q", 16, True, c, after=10),
        P([("[X]  QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("For the quarterly period ended June 28, 2025", 10, True, c),
        L("or", 9, False, c),
        P([("[  ]  TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("Commission File Number: 001-38817", 10, False, c, after=12),
        L("BRAMBLECREST ANIMAL HEALTH, INC.", 15, True, c),
        L("(Exact name of registrant as specified in its charter)", 8, False, c, after=8),
        T([["Wisconsin", "39-2048816"], ["(State or other jurisdiction of incorporation or organization)",
                                         "(I.R.S. Employer Identification No.)"]], [RIGHT], size=9),
        L("4400 Prairie Ridge Road, Madison, Wisconsin 53718", 10, False, c),
        L("(Address of principal executive offices) (Zip Code)", 8, False, c),
        L("(608) 555-0142", 10, False, c, after=8),
        L("Securities registered pursuant to Section 12(b) of the Act:", 9, True),
        T([["Title of each class", "Trading Symbol(s)", "Name of each exchange on which registered"],
           ["Common Stock, $0.01 par value", "BCAH", "The Nasdaq Global Select Market"]],
          [], size=9, left_cols=[250, 340], bold_rows={0}),
        P([("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by "
            "Section 13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) "
            "has been subject to such filing requirements for the past 90 days. Yes [X] No [ ]", False)],
          size=9, leading=12, after=3),
        P([("Indicate by check mark whether the registrant is a large accelerated filer, an accelerated filer, a "
            "non-accelerated filer, a smaller reporting company, or an emerging growth company.", False)],
          size=9, leading=12, after=2),
        T([["Large accelerated filer [X]", "Accelerated filer [ ]"],
           ["Non-accelerated filer [ ]", "Smaller reporting company [ ]"]], [RIGHT], size=9),
        P([("As of July 25, 2025, the registrant had 41,096,318 shares of common stock, $0.01 par value, "
            "outstanding.", False)], size=9, leading=12),
    ]


def toc(entries, pages):
    blocks = [Break(), H(["BRAMBLECREST ANIMAL HEALTH, INC."], None, size=10, align="center", after=0),
              H(["INDEX"], None, size=10, align="center", before=0, after=10),
              T([["", "", "Page"]], [RIGHT], size=9, bold_rows={0}, left_cols=[130], after=4)]
    for (lvl, text), pg in zip(entries, pages):
        if lvl < 0:
            blocks.append(T([[text, "", ""]], [RIGHT], size=10, bold_rows={0}, leading=18, after=0,
                            left_cols=[130]))
            continue
        label, _, title = text.partition("\t")
        lines = _wrap_text(title, 10, False, RIGHT - 40 - 130)
        for k, ln in enumerate(lines):
            last = k == len(lines) - 1
            blocks.append(T([[label if k == 0 else "", ln, str(pg + 3) if last else ""]], [RIGHT], size=10,
                            leading=14 if last else 12, after=0, left_cols=[130]))
    blocks.append(Break())
    return blocks


def body():
    b = [part("PART I. FINANCIAL INFORMATION"), item("Item 1.", "Financial Statements")]
    b += statement("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS",
                   "(In thousands, except per share amounts)")[1:]
    b += head2()
    rows = [["Revenue", "", "", "", ""], row4("Revenue", TOTAL, True), row4("Cost of revenue", COGS),
            row4("Gross profit", GP), ["Operating expenses:", "", "", "", ""],
            row4("Research and development", RD), row4("Selling, general and administrative", SGA),
            row4("Amortization of intangible assets", AMORT), row4("Total operating expenses", OPEX),
            row4("Operating income", OPINC), row4("Interest expense", INT), row4("Other income, net", OTH),
            row4("Income before income taxes", PRETAX), row4("Provision for income taxes", TAX),
            row4("Net income", NI, True), ["Earnings per share:", "", "", "", ""],
            ["Basic"] + [f"$ {v:.2f}" for v in EPS_B], ["Diluted"] + [f"$ {v:.2f}" for v in EPS_D],
            ["Weighted-average common shares outstanding:", "", "", "", ""],
            row4("Basic", SH_B), row4("Diluted", SH_D),
            ["Cash dividends declared per share", "$ 0.21", "$ 0.20", "$ 0.42", "$ 0.40"]]
    rows = rows[1:]
    b.append(T(rows, COLS4, size=8.5, leading=12.5,
               indents={4: 12, 5: 12, 6: 12, 7: 24, 15: 12, 16: 12, 18: 12, 19: 12}))
    b.append(L("See accompanying notes to condensed consolidated financial statements.", 8, False, "center"))

    b += statement("CONDENSED CONSOLIDATED BALANCE SHEETS", "(In thousands, except share and per share data)")
    b.append(T([["", Q, "December 28, 2024"]], [455, 540], bold_rows={0}, size=8.5, leading=13, after=0))
    b.append(T([["ASSETS", "", ""], ["Current assets:", "", ""],
                ["Cash and cash equivalents", f(CASH[0], True), f(CASH[1], True)],
                ["Accounts receivable, net", f(AR[0]), f(AR[1])], ["Inventories", f(INV[0]), f(INV[1])],
                ["Prepaid expenses and other current assets", f(PREP[0]), f(PREP[1])],
                ["Total current assets", f(TCA[0]), f(TCA[1])],
                ["Property, plant and equipment, net", f(PPE[0]), f(PPE[1])],
                ["Goodwill", f(GW[0]), f(GW[1])], ["Intangible assets, net", f(INTANG[0]), f(INTANG[1])],
                ["Operating lease right-of-use assets", f(ROU[0]), f(ROU[1])],
                ["Other assets", f(OA[0]), f(OA[1])], ["Total assets", f(TA[0], True), f(TA[1], True)],
                ["LIABILITIES AND SHAREHOLDERS' EQUITY", "", ""], ["Current liabilities:", "", ""],
                ["Accounts payable", f(AP[0], True), f(AP[1], True)],
                ["Accrued expenses and other current liabilities", f(ACC[0]), f(ACC[1])],
                ["Current portion of long-term debt", f(CPD[0]), f(CPD[1])],
                ["Total current liabilities", f(TCL[0]), f(TCL[1])],
                ["Long-term debt, net of current portion", f(LTD[0]), f(LTD[1])],
                ["Operating lease liabilities, non-current", f(OLL[0]), f(OLL[1])],
                ["Deferred income taxes", f(DTL[0]), f(DTL[1])], ["Other long-term liabilities", f(OL[0]), f(OL[1])],
                ["Total liabilities", f(TL[0]), f(TL[1])],
                ["Commitments and contingencies (Note 5)", "", ""], ["Shareholders' equity:", "", ""],
                ["Common stock, $0.01 par value; 41,184,550 and 41,382,106", "", ""],
                ["shares outstanding, respectively", f(CS[0]), f(CS[1])],
                ["Additional paid-in capital", f(APIC[0]), f(APIC[1])],
                ["Retained earnings", f(RE[0]), f(RE[1])], ["Treasury stock, at cost", f(TREAS[0]), f(TREAS[1])],
                ["Accumulated other comprehensive loss", f(AOCI[0]), f(AOCI[1])],
                ["Total shareholders' equity", f(EQ[0]), f(EQ[1])],
                ["Total liabilities and shareholders' equity", f(TA[0], True), f(TA[1], True)]],
               [455, 540], bold_rows={0, 13}, size=8.5, leading=12,
               indents={2: 12, 3: 12, 4: 12, 5: 12, 6: 24, 15: 12, 16: 12, 17: 12, 18: 24, 27: 18, 28: 12, 29: 12,
                        30: 12, 31: 12, 32: 24}))
    b.append(L("See accompanying notes to condensed consolidated financial statements.", 8, False, "center"))

    b += statement("CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", "(In thousands)")
    a = "Six Months Ended"
    b.append(T([["", a]], [(455 + 540) / 2 - 25 + width(a, 8.5, True) / 2], bold_rows={0}, size=8.5, leading=11,
               after=0))
    b.append(T([["", Y, YP]], [455, 540], bold_rows={0}, size=8.5, leading=13, after=0))
    cf = [["Cash flows from operating activities:", "", ""],
          ["Net income", f(NI[2], True), f(NI[3], True)],
          ["Adjustments to reconcile net income to net cash provided by", "", ""],
          ["operating activities:", "", ""],
          ["Depreciation and amortization", f(DA[0]), f(DA[1])],
          ["Stock-based compensation", f(SBC[0]), f(SBC[1])],
          ["Deferred income taxes", f(DEFTX[0]), f(DEFTX[1])],
          ["Amortization of debt issuance costs", f(AMFEE[0]), f(AMFEE[1])],
          ["Changes in operating assets and liabilities, net", f(WC[0]), f(WC[1])],
          ["Net cash provided by operating activities", f(OPCASH[0]), f(OPCASH[1])],
          ["Cash flows from investing activities:", "", ""],
          ["Capital expenditures", f(CAPEX[0]), f(CAPEX[1])],
          ["Net cash used in investing activities", f(CAPEX[0]), f(CAPEX[1])],
          ["Cash flows from financing activities:", "", ""]]
    cf += [[k, f(v[0]), f(v[1])] for k, v in FIN25.items()]
    cf += [["Net cash used in financing activities", f(FINTOT[0]), f(FINTOT[1])],
           ["Effect of exchange rate changes on cash", f(FX[0]), f(FX[1])],
           ["Net increase in cash and cash equivalents", f(NETCH25), f(CASH24[0] - CASH24[1])],
           ["Cash and cash equivalents at beginning of period", f(CASH[1]), f(CASH24[1])],
           ["Cash and cash equivalents at end of period", f(CASH[0], True), f(CASH24[0], True)]]
    b.append(T(cf, [455, 540], size=8.5, leading=12.5,
               indents={1: 12, 2: 12, 3: 18, 4: 24, 5: 24, 6: 24, 7: 24, 8: 24, 9: 12, 11: 12, 12: 12, 14: 12,
                        15: 12, 16: 12, 17: 12, 18: 12, 19: 12, 20: 12}))
    b.append(L("See accompanying notes to condensed consolidated financial statements.", 8, False, "center"))

    b.append(H(["NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS (Unaudited)"], 3, size=10, align="center",
               new_page=True, after=8))
    b.append(note(1, "Basis of Presentation"))
    b.append(para("The accompanying unaudited condensed consolidated financial statements of Bramblecrest Animal "
                  "Health, Inc. (\"Bramblecrest,\" the \"Company,\" \"we\" or \"our\") have been prepared in "
                  "accordance with accounting principles generally accepted in the United States for interim "
                  "financial information and the instructions to Form 10-Q. In the opinion of management they "
                  "include all adjustments, consisting of normal recurring adjustments, necessary for a fair "
                  "presentation. Results for the six months ended June 28, 2025 are not necessarily indicative "
                  "of the results for the full year. These statements should be read with the audited "
                  "consolidated financial statements in our Annual Report on Form 10-K for the fiscal year ended "
                  "December 28, 2024."))
    b.append(para("We use a 52/53-week fiscal year that ends on the last Saturday of December. The three months "
                  "ended June 28, 2025 and June 29, 2024 each contained 13 weeks, and the six months then ended "
                  "each contained 26 weeks. Fiscal 2025 will contain 52 weeks. We operate as one reportable "
                  "segment, the development, manufacture and sale of animal health products; our Chief Executive "
                  "Officer reviews revenue by product line but evaluates profitability on a consolidated basis."))
    b.append(note(2, "Revenue"))
    b.append(para("Revenue is recognized when control of products passes to our customers, principally "
                  "veterinary distributors, veterinary clinics and livestock producers, which is generally upon "
                  "shipment. Revenue by product line was as follows (in thousands):"))
    b += head2()
    b.append(T([row4(k, v, k.startswith("Companion")) for k, v in REV.items()] + [row4("Total revenue", TOTAL, True)],
               COLS4, size=8.5, leading=12.5, indents={3: 12}))
    b.append(para(f"Revenue from customers outside the United States was {mil(INTL[0])} and {mil(INTL[1])} for the "
                  f"three months ended June 28, 2025 and June 29, 2024, respectively, and {mil(INTL[2])} and "
                  f"{mil(INTL[3])} for the six months then ended. No single customer accounted for more than 10% "
                  "of revenue in the six months ended June 28, 2025 other than our largest U.S. distributor, "
                  "which accounted for 18% of revenue."))
    b.append(note(3, "Debt"))
    b.append(para("Long-term debt consisted of the following (in thousands):"))
    b.append(T([["", Q, "December 28, 2024"], ["Term loan A, due May 2029", "$ 291,000", "$ 301,000"],
                ["Revolving credit facility, due May 2029", "200,000", "210,000"],
                ["Unamortized debt issuance costs", "(2,100)", "(2,400)"],
                ["Total debt", f(CPD[0] + LTD[0]), f(CPD[1] + LTD[1])],
                ["Less: current portion", f(-CPD[0]), f(-CPD[1])],
                ["Long-term debt, net of current portion", f(LTD[0], True), f(LTD[1], True)]],
               [455, 540], bold_rows={0}, size=8.5, leading=12))
    b.append(para("Our credit agreement, amended in May 2024, provides for a $400.0 million term loan A and a "
                  "$350.0 million senior secured revolving credit facility, both maturing in May 2029. Borrowings "
                  "bear interest at Term SOFR plus a margin of 1.375% to 2.000% based on our consolidated net "
                  "leverage ratio. The term loan amortizes at $5.0 million per quarter. At June 28, 2025, $150.0 "
                  "million was available under the revolving credit facility, and the weighted-average interest "
                  "rate on our outstanding borrowings was 6.2%. We were in compliance with the financial "
                  "covenants, which require a consolidated net leverage ratio of not more than 3.75 to 1.00 and "
                  "an interest coverage ratio of at least 3.00 to 1.00."))
    b.append(note(4, "Shareholders' Equity and Earnings per Share"))
    b.append(para("In February 2024 our Board of Directors authorized the repurchase of up to $250.0 million of "
                  "our common stock with no expiration date. During the three months ended June 28, 2025 we "
                  "repurchased 198,400 shares for $12.1 million, and during the six months ended June 28, 2025 we "
                  "repurchased 412,300 shares for $24.9 million. At June 28, 2025, $175.1 million remained "
                  "available under the authorization."))
    b.append(para("Basic earnings per share is computed by dividing net income by the weighted-average number of "
                  "common shares outstanding. Diluted earnings per share also includes the dilutive effect of "
                  "stock options, restricted stock units and performance share units under the treasury stock "
                  "method. Awards for 312,000 shares in the three months and 298,000 shares in the six months "
                  "ended June 28, 2025 were excluded as anti-dilutive."))
    b.append(note(5, "Commitments and Contingencies"))
    b.append(para("In March 2025 the U.S. Food and Drug Administration's Center for Veterinary Medicine issued a "
                  "warning letter relating to our sterile injectables plant in Lincoln, Nebraska. We have "
                  "submitted a corrective action plan and production at the plant continues. We are also party "
                  "to product liability and commercial claims arising in the ordinary course of business, none "
                  "of which we expect to have a material adverse effect on our financial position."))

    b.append(item("Item 2.", "Management's Discussion and Analysis of Financial Condition and Results of "
                  "Operations", new_page=True))
    b.append(para("The following discussion should be read together with our condensed consolidated financial "
                  "statements and related notes in Item 1 of this report. All comparisons are with the "
                  "corresponding periods of 2024 unless otherwise stated."))
    b.append(sub("Overview"))
    b.append(para("Bramblecrest develops, manufactures and sells medicines, vaccines and diagnostic tests for dogs, "
                  "cats, cattle, swine and poultry. Our Companion Animal Pharmaceuticals products include "
                  "parasiticides, dermatology and pain-management therapies; our Diagnostics product line "
                  "includes in-clinic analyzers, rapid assays and reference-laboratory services; and our Livestock "
                  "Health products include vaccines and anti-infectives for food-producing animals. We sell "
                  "primarily through veterinary distributors in the United States, Canada, Europe and Brazil."))
    b.append(sub("Results of Operations"))
    b.append(P([("Revenue.", True), (f" Revenue for the second quarter of 2025 increased {pct(TOTAL[0], TOTAL[1])} to "
               f"{mil(TOTAL[0])} from {mil(TOTAL[1])} in the second quarter of 2024. For the six months ended June "
               f"28, 2025, revenue increased {pct(TOTAL[2], TOTAL[3])} to {mil(TOTAL[2])} from {mil(TOTAL[3])}. "
               "Price increases contributed approximately 4 percentage points of growth in each period, and "
               "foreign currency had an unfavorable effect of less than 1 percentage point.", False)], after=8))
    c, d, lv = REV.values()
    b.append(P([("Companion Animal Pharmaceuticals", True), (f" revenue increased {pct(c[0], c[1])} in the second "
               f"quarter to {mil(c[0])} and {pct(c[2], c[3])} in the first six months to {mil(c[2])}, driven by "
               "our Fenvara monthly chewable parasiticide and higher volumes of our canine osteoarthritis "
               "injection.", False)], after=8))
    b.append(P([("Diagnostics", True), (f" revenue increased {pct(d[0], d[1])} in the second quarter to {mil(d[0])} "
               f"and {pct(d[2], d[3])} in the first six months to {mil(d[2])}, reflecting a larger installed base "
               "of our VetaScan analyzers and higher consumable volumes per analyzer.", False)], after=8))
    b.append(P([("Livestock Health", True), (f" revenue decreased {dec(lv[0], lv[1])} in the second quarter "
               f"to {mil(lv[0])} and {dec(lv[2], lv[3])} in the first six months to {mil(lv[2])}, as "
               "lower cattle herd sizes in the United States reduced vaccine demand and we exited certain "
               "low-margin swine products.", False)], after=8))
    gm = [GP[i] / TOTAL[i] * 100 for i in range(4)]
    b.append(P([("Gross profit.", True), (f" Gross margin was {gm[0]:.1f}% in the second quarter of 2025 compared "
               f"with {gm[1]:.1f}% in the second quarter of 2024, and {gm[2]:.1f}% for the six months compared "
               f"with {gm[3]:.1f}%, reflecting favorable product mix and price, partly offset by higher costs "
               "at our Lincoln plant.", False)], after=8))
    b.append(P([("Operating expenses.", True), (f" Research and development expense was {mil(RD[0])} in the "
               f"second quarter and {mil(RD[2])} in the six months, as we advanced two late-stage canine "
               f"programs. Selling, general and administrative expense increased to {mil(SGA[0])} in the "
               f"quarter and {mil(SGA[2])} in the six months, mainly from higher field-sales headcount and "
               "direct-to-veterinarian marketing.", False)], after=8))
    b.append(P([("Operating income.", True), (f" Operating income was {mil(OPINC[0])} in the second quarter of "
               f"2025, up from {mil(OPINC[1])}, and {mil(OPINC[2])} in the first six months, up from "
               f"{mil(OPINC[3])}.", False)], after=8))
    b.append(P([("Interest expense and income taxes.", True), (f" Interest expense decreased to {mil(-INT[0])} in "
               f"the quarter and {mil(-INT[2])} in the six months because of lower average borrowings and "
               f"rates. Our effective tax rate was {TAXRATE[0] * 100:.1f}% for the second quarter of 2025 and "
               f"{TAXRATE[2] * 100:.1f}% for the six months, compared with {TAXRATE[1] * 100:.1f}% and "
               f"{TAXRATE[3] * 100:.1f}% in the 2024 periods.", False)], after=8))
    b.append(P([("Net income.", True), (f" Net income was {mil(NI[0])}, or ${EPS_D[0]:.2f} per diluted share, in "
               f"the second quarter of 2025, compared with {mil(NI[1])}, or ${EPS_D[1]:.2f} per diluted share, "
               f"in the second quarter of 2024. For the six months, net income was {mil(NI[2])}, or "
               f"${EPS_D[2]:.2f} per diluted share, compared with {mil(NI[3])}, or ${EPS_D[3]:.2f} per diluted "
               "share.", False)], after=8))
    b.append(sub("Liquidity and Capital Resources"))
    b.append(para(f"Our principal sources of liquidity are cash from operations and our revolving credit facility. "
                  f"At June 28, 2025 we had cash and cash equivalents of {mil(CASH[0])}, of which approximately "
                  "$61 million was held outside the United States, and $150.0 million of availability under our "
                  "$350.0 million revolving credit facility."))
    b.append(para(f"Net cash provided by operating activities was {mil(OPCASH[0])} for the six months ended June "
                  f"28, 2025, compared with {mil(OPCASH[1])} for the six months ended June 29, 2024, mainly "
                  f"because of higher net income. Capital expenditures were {mil(-CAPEX[0])} in the first six "
                  "months of 2025, primarily for a new diagnostics consumables line in Lincoln, Nebraska, and we "
                  "expect capital expenditures of $55 million to $60 million for the full year 2025. In the six "
                  "months we repaid $20.0 million of borrowings, repurchased $24.9 million of common stock and "
                  "paid $17.3 million of dividends."))
    b.append(para("On July 22, 2025, our Board of Directors declared a quarterly cash dividend of $0.21 per share, "
                  "payable on August 15, 2025 to shareholders of record on August 1, 2025. We believe that cash "
                  "on hand, cash from operations and availability under the revolving credit facility will be "
                  "sufficient to fund our operations, capital expenditures, dividends and debt service for at "
                  "least the next twelve months."))
    b.append(item("Item 3.", "Quantitative and Qualitative Disclosures About Market Risk"))
    b.append(para("Our exposure to market risk has not changed materially since December 28, 2024. A 100 basis "
                  "point increase in Term SOFR would increase our annual interest expense by approximately $4.9 "
                  "million based on borrowings outstanding at June 28, 2025."))
    b.append(item("Item 4.", "Controls and Procedures"))
    b.append(para("Our Chief Executive Officer and Chief Financial Officer concluded that our disclosure controls "
                  "and procedures were effective as of June 28, 2025. There were no changes in our internal "
                  "control over financial reporting during the quarter that materially affected, or are "
                  "reasonably likely to materially affect, it."))

    b.append(part("PART II. OTHER INFORMATION"))
    b.append(item("Item 1.", "Legal Proceedings"))
    b.append(para("See Note 5 to the condensed consolidated financial statements."))
    b.append(item("Item 1A.", "Risk Factors"))
    b.append(para("There have been no material changes to the risk factors disclosed in Part I, Item 1A of our "
                  "Annual Report on Form 10-K for the fiscal year ended December 28, 2024, except as follows. "
                  "Tariffs announced in 2025 on active pharmaceutical ingredients imported from China and India, "
                  "which supply a majority of the ingredients for our parasiticide products, could increase our "
                  "cost of revenue. If we cannot pass these costs on to distributors and veterinarians, our gross "
                  "margin could decline. In addition, if we do not resolve the matters raised in the FDA warning "
                  "letter for our Lincoln, Nebraska plant, approvals of new products made there could be delayed."))
    b.append(item("Item 2.", "Unregistered Sales of Equity Securities and Use of Proceeds"))
    b.append(para("The following table summarizes our repurchases of common stock during the three months ended "
                  "June 28, 2025:"))
    rr = [["", "Total Number", "Average", "Approximate Dollar Value"],
          ["", "of Shares", "Price Paid", "of Shares That May Yet Be"],
          ["Period", "Purchased", "per Share", "Purchased (in millions)"]]
    left = 175.1 + 12.1
    for per, n, px in REPO_Q:
        left -= n * float(px) / 1e6
        rr.append([per, f"{n:,}", f"$ {px}", f"$ {left:.1f}"])
    rr.append(["Total", f"{sum(r[1] for r in REPO_Q):,}", "$ 61.02", ""])
    b.append(T(rr, [330, 410, 540], bold_rows={0, 1, 2}, size=8.5, leading=12))
    b.append(para("All repurchases were made in open-market transactions under the $250.0 million program "
                  "authorized by our Board of Directors in February 2024."))
    b.append(item("Item 5.", "Other Information"))
    b.append(para("During the three months ended June 28, 2025, none of our directors or officers adopted or "
                  "terminated a Rule 10b5-1 trading arrangement."))
    b.append(item("Item 6.", "Exhibits"))
    b.append(T([["Exhibit", "Description"], ["31.1", "Certification of Chief Executive Officer (Rule 13a-14(a))"],
                ["31.2", "Certification of Chief Financial Officer (Rule 13a-14(a))"],
                ["32.1", "Section 1350 Certifications"], ["101", "Inline XBRL Documents"]],
               [], left_cols=[130], bold_rows={0}, size=9))
    b.append(H(["SIGNATURES"], 1, size=11, align="center", before=16, after=8, toc="SIGNATURES"))
    b.append(para("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
                  "caused this report to be signed on its behalf by the undersigned thereunto duly authorized."))
    b += [L("BRAMBLECREST ANIMAL HEALTH, INC.", 10, True, x=300), L("Date: August 6, 2025", 10, x=300),
          L("By: /s/ Helena V. Marchetti", 10, x=300), L("Helena V. Marchetti", 10, x=318),
          L("Executive Vice President and Chief Financial Officer", 10, x=318)]
    return b


def _header(i, n, tag, rel):
    if i == 0:
        return []
    a, r = "BRAMBLECREST ANIMAL HEALTH, INC.", "Form 10-Q"
    return [Text(LEFT, 756, 7.5, a), Text(RIGHT - width(r, 7.5), 756, 7.5, r)]


def _footer(i, n, tag, rel):
    s = str(i + 1)
    return [Text((LEFT + RIGHT) / 2 - width(s, 9) / 2, 36, 9, s)]


def build():
    pages, truth = render(cover(), toc, body(), _header, _footer)
    return FILE, make_pdf(pages, title="Bramblecrest Animal Health 10-Q Q2 2025"), truth, len(pages)
