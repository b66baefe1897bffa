"""Document D: an earnings press release furnished as Exhibit 99.1 to a Form 8-K, printed to PDF (Ashgrove Dining
Group, Inc., an operator and franchisor of full-service and fast-casual restaurants; fourth quarter and fiscal
year 2024, 52 weeks ended December 29, 2024).

Layout: "Exhibit 99.1" right-aligned at the top of page 1, a "FOR IMMEDIATE RELEASE" line and a contacts block;
a centred bold two-line headline and an italic-less centred sub-headline; a dateline paragraph; bold
capital sub-headings ("FOURTH QUARTER 2024 HIGHLIGHTS") over bullet lists ("-" bullets, hanging indent); a CEO
quote paragraph; an outlook table of ranges; the financial tables each start a page under a centred bold
company name, table title and unit line, with a two-line column head ("Three Months Ended" / "Twelve Months
Ended" centred over the two date columns); footer "- n -" centred; no table of contents."""

from __future__ import annotations

from pdflayout import LEFT, RIGHT, Break, Gap, H, L, P, T, Text, make_pdf, para, render, width

CO = "Ashgrove Dining Group, Inc."
FILE = "ashgrove_ex99-1_q4_2024.pdf"

COLS4 = [330, 400, 470, 540]
D1, D0 = "Dec. 29, 2024", "Dec. 31, 2023"


def f(n, dollar=False):
    s = f"{abs(n):,}"
    s = f"({s})" if n < 0 else s
    return ("$ " + s) if dollar else s


def mil(n):
    return f"${abs(n) / 1000:,.1f} million"


# ---- figures (in thousands); order: Q4 2024, Q4 2023, FY2024, FY2023
RSALES = [352418, 331906, 1361775, 1270344]
FRAN = [6102, 5480, 23318, 21006]
REV = [RSALES[i] + FRAN[i] for i in range(4)]
COSTS = {"Food and beverage costs": [103966, 100568, 405808, 392181],
         "Restaurant labor": [115945, 109526, 450747, 423024],
         "Restaurant operating costs": [76476, 72358, 297867, 279470],
         "Depreciation and amortization": [14890, 13702, 57410, 53118],
         "General and administrative": [21420, 19830, 84115, 77906],
         "Pre-opening costs": [2310, 1985, 7920, 7044],
         "Impairment and restaurant closure costs": [6840, 420, 9315, 3480]}
TCOST = [sum(v[i] for v in COSTS.values()) for i in range(4)]
OPINC = [REV[i] - TCOST[i] for i in range(4)]
INT = [-3118, -3540, -12904, -14380]
PRETAX = [OPINC[i] + INT[i] for i in range(4)]
TAXRATE = [0.198, 0.212, 0.207, 0.219]
TAX = [round(PRETAX[i] * TAXRATE[i]) for i in range(4)]
NI = [PRETAX[i] - TAX[i] for i in range(4)]
SH_B = [38915, 39604, 39188, 39820]
SH_D = [39480, 40210, 39760, 40402]
EPS_B = [round(NI[i] / SH_B[i], 2) for i in range(4)]
EPS_D = [round(NI[i] / SH_D[i], 2) for i in range(4)]
SBC = [2405, 2110, 9740, 8615]
EXEC = [0, 0, 1850, 0]  # executive transition costs, in G&A
IMP = COSTS["Impairment and restaurant closure costs"]
DA = COSTS["Depreciation and amortization"]
EBITDA = [NI[i] + TAX[i] - INT[i] + DA[i] for i in range(4)]
ADJ_EBITDA = [EBITDA[i] + SBC[i] + IMP[i] + EXEC[i] for i in range(4)]
ADJ_PRE = [IMP[i] + EXEC[i] for i in range(4)]
ADJ_TAX = [-round(ADJ_PRE[i] * 0.25) for i in range(4)]
ADJ_NI = [NI[i] + ADJ_PRE[i] + ADJ_TAX[i] for i in range(4)]
ADJ_EPS = [round(ADJ_NI[i] / SH_D[i], 2) for i in range(4)]

# balance sheet: Dec 29, 2024 / Dec 31, 2023
CASH = [64215, 48930]
OCA = [58402, 54116]
TCA = [CASH[i] + OCA[i] for i in range(2)]
PPE = [712480, 668305]
ROU = [486902, 471550]
GW = [118760, 118760]
OA = [24118, 22480]
TA = [TCA[i] + PPE[i] + ROU[i] + GW[i] + OA[i] for i in range(2)]
TCL = [196540, 160100]
LTD = [182000, 214000]
OLL = [512366, 452000]
OL = [21880, 7000]
TL = [TCL[i] + LTD[i] + OLL[i] + OL[i] for i in range(2)]
EQ = [TA[i] - TL[i] for i in range(2)]


def pct(a, b):
    return f"{(a / b - 1) * 100:.1f}%"


def bullet(runs, size=10):
    if isinstance(runs, str):
        runs = [(runs, False)]
    return P([("-", False)] + [(" " + t if i == 0 else t, bd) for i, (t, bd) in enumerate(runs)], indent=18,
             first=-10, size=size, leading=13.5, after=4)


def heading(text):
    return H([text], 2, size=10, before=12, after=6)


def table_page(title, unit):
    return [Break(), L("ASHGROVE DINING GROUP, INC.", 10, True, "center"),
            H([title], 3, size=10, align="center", before=0, after=2),
            L(unit, 9, False, "center", after=8)]


def head2(a="Three Months Ended", b="Twelve Months Ended", size=8.5):
    c1 = (COLS4[0] + COLS4[1]) / 2 - 25
    c2 = (COLS4[2] + COLS4[3]) / 2 - 25
    return [T([["", a, b]], [c1 + width(a, size, True) / 2, c2 + width(b, size, True) / 2], bold_rows={0},
              size=size, leading=11, after=0),
            T([["", D1, D0, D1, D0]], COLS4, bold_rows={0}, size=size, leading=13, after=0)]


def row4(label, vals, dollar=False):
    return [label] + [f(v, dollar) for v in vals]


def eps4(label, vals):
    return [label] + [f"$ {v:.2f}" for v in vals]


def body():
    c = "center"
    q4, fy = 0, 2
    b = [L("Exhibit 99.1", 10, True, "right", after=8),
         L("FOR IMMEDIATE RELEASE", 9, True),
         T([["Investor Contact:", "Media Contact:"], ["Renata Oyelaran", "Tomas Brightwell"],
            ["Vice President, Investor Relations", "Director, Corporate Communications"],
            ["(615) 555-0163", "(615) 555-0178"]], [], left_cols=[330], size=9, leading=11, bold_rows={0}),
         Gap(6),
         H(["Ashgrove Dining Group Reports Fourth Quarter and",
            "Fiscal Year 2024 Results; Issues Fiscal 2025 Outlook"], 1, size=12, align="center", before=6, after=4),
         L("Fourth quarter comparable restaurant sales up 2.4%; Board declares quarterly dividend of $0.18 per "
           "share", 9, False, c, after=10)]
    b.append(para(f"NASHVILLE, Tenn., February 25, 2025 -- Ashgrove Dining Group, Inc. (Nasdaq: ASHG) "
                  "(\"Ashgrove\" or the \"Company\"), the operator and franchisor of Ashgrove Tavern and Little "
                  "Fern Kitchen restaurants, today reported financial results for the fourth quarter and fiscal "
                  "year ended December 29, 2024. The fourth quarters of 2024 and 2023 each contained 13 weeks, "
                  "and fiscal years 2024 and 2023 each contained 52 weeks."))
    b.append(heading("FOURTH QUARTER 2024 HIGHLIGHTS"))
    b.append(bullet(f"Total revenues increased {pct(REV[q4], REV[1])} to {mil(REV[q4])} from {mil(REV[1])} in "
                    "the fourth quarter of 2023."))
    b.append(bullet("Comparable restaurant sales increased 2.4%, including an increase of 2.9% at Ashgrove Tavern "
                    "and 1.1% at Little Fern Kitchen."))
    b.append(bullet(f"Net income was {mil(NI[q4])}, or ${EPS_D[q4]:.2f} per diluted share, compared with "
                    f"{mil(NI[1])}, or ${EPS_D[1]:.2f} per diluted share, in the fourth quarter of 2023. Results "
                    f"include {mil(IMP[q4])} of impairment and restaurant closure costs."))
    b.append(bullet(f"Adjusted diluted EPS* was ${ADJ_EPS[q4]:.2f}, compared with ${ADJ_EPS[1]:.2f} in the "
                    "prior-year quarter."))
    b.append(bullet(f"Adjusted EBITDA* increased to {mil(ADJ_EBITDA[q4])} from {mil(ADJ_EBITDA[1])}."))
    b.append(bullet("The Company opened six new company-operated restaurants and closed four underperforming "
                    "Little Fern Kitchen restaurants."))
    b.append(heading("FISCAL YEAR 2024 HIGHLIGHTS"))
    b.append(bullet(f"Total revenues increased {pct(REV[fy], REV[3])} to ${REV[fy] / 1e6:.2f} billion from "
                    f"${REV[3] / 1e6:.2f} billion in "
                    "fiscal 2023."))
    b.append(bullet("Comparable restaurant sales increased 1.8%."))
    b.append(bullet(f"Net income was {mil(NI[fy])}, or ${EPS_D[fy]:.2f} per diluted share, compared with "
                    f"{mil(NI[3])}, or ${EPS_D[3]:.2f} per diluted share, in fiscal 2023."))
    b.append(bullet(f"Adjusted diluted EPS* was ${ADJ_EPS[fy]:.2f}, compared with ${ADJ_EPS[3]:.2f} in fiscal "
                    f"2023, and Adjusted EBITDA* was {mil(ADJ_EBITDA[fy])}, compared with {mil(ADJ_EBITDA[3])}."))
    b.append(bullet("The Company opened 21 new company-operated restaurants, ending the year with 342 restaurants: "
                    "214 Ashgrove Tavern and 98 Little Fern Kitchen company-operated restaurants and 30 "
                    "franchised Little Fern Kitchen restaurants."))
    b.append(bullet("The Company repurchased 1,086,400 shares of common stock for $38.4 million and paid "
                    "quarterly dividends totaling $0.68 per share."))
    b.append(P([("* Adjusted diluted EPS and Adjusted EBITDA are non-GAAP financial measures. See \"Non-GAAP "
                 "Financial Measures\" and the reconciliations at the end of this release.", False)], size=8.5,
               leading=11, after=8))
    b.append(para("\"2024 was a year of steady progress for Ashgrove,\" said Marisol T. Okafor, President and Chief "
                  "Executive Officer. \"Our teams delivered positive traffic at Ashgrove Tavern in every quarter, "
                  "we opened 21 restaurants that are performing ahead of our underwriting, and we took decisive "
                  "action on a small group of Little Fern Kitchen locations that did not meet our returns "
                  "threshold. Entering 2025, our balance sheet is stronger, with $32 million less debt than a year "
                  "ago, and we plan to accelerate development while continuing to return cash to shareholders.\""))
    b.append(heading("FOURTH QUARTER 2024 RESULTS"))
    b.append(para(f"Restaurant sales increased {pct(RSALES[q4], RSALES[1])} to {mil(RSALES[q4])}, driven by "
                  "comparable restaurant sales growth and sales from new restaurants, partially offset by closed "
                  f"restaurants. Franchise revenues were {mil(FRAN[q4])}. Food and beverage costs were 29.5% of "
                  "restaurant sales compared with 30.3% in the prior-year quarter, reflecting menu pricing of "
                  "approximately 3.0% and moderating commodity inflation. Restaurant labor was 32.9% of restaurant "
                  f"sales compared with {COSTS['Restaurant labor'][1] / RSALES[1] * 100:.1f}%."))
    b.append(para(f"General and administrative expenses were {mil(COSTS['General and administrative'][q4])}, "
                  f"compared with {mil(COSTS['General and administrative'][1])}. Impairment and restaurant closure "
                  f"costs of {mil(IMP[q4])} related primarily to the closure of four Little Fern Kitchen "
                  "restaurants in Ohio and Michigan and the impairment of three other restaurants. The effective "
                  f"income tax rate was {TAXRATE[q4] * 100:.1f}% compared with {TAXRATE[1] * 100:.1f}%."))
    b.append(heading("BALANCE SHEET, CAPITAL ALLOCATION AND DIVIDEND"))
    b.append(para(f"At December 29, 2024, the Company had cash and cash equivalents of {mil(CASH[0])} and "
                  f"{mil(LTD[0])} of outstanding borrowings under its $400.0 million revolving credit facility. "
                  "Capital expenditures were $121.6 million in fiscal 2024. In the fourth quarter the Company "
                  "repurchased 284,900 shares for $10.2 million, and $86.3 million remains available under the "
                  "share repurchase authorization."))
    b.append(para("On February 20, 2025, the Board of Directors declared a quarterly cash dividend of $0.18 per "
                  "share, payable on March 14, 2025 to shareholders of record at the close of business on "
                  "February 28, 2025."))
    b.append(heading("FISCAL 2025 OUTLOOK"))
    b.append(para("For fiscal 2025, which will contain 52 weeks ending December 28, 2025, the Company expects:"))
    b.append(T([["Total revenues", "$1.46 billion to $1.50 billion"],
                ["Comparable restaurant sales growth", "1.0% to 3.0%"],
                ["New company-operated restaurant openings", "22 to 25"],
                ["Adjusted EBITDA*", "$178 million to $188 million"],
                ["Capital expenditures", "$130 million to $140 million"],
                ["Effective income tax rate", "20% to 22%"]], [], left_cols=[340], size=9.5, leading=13,
               indents={i: 18 for i in range(6)}))
    b.append(para("The Company has not reconciled its Adjusted EBITDA outlook to net income, the most comparable "
                  "GAAP measure, because it cannot predict impairment and closure costs, and other reconciling "
                  "items, without unreasonable effort."))
    b.append(heading("CONFERENCE CALL"))
    b.append(para("The Company will host a conference call to discuss these results today, February 25, 2025, at "
                  "4:30 p.m. Eastern Time. The call will be webcast live on the Investor Relations section of "
                  "the Company's website, and a replay will be available for 30 days."))
    b.append(heading("ABOUT ASHGROVE DINING GROUP"))
    b.append(para("Ashgrove Dining Group, Inc., headquartered in Nashville, Tennessee, owns, operates and "
                  "franchises 342 restaurants in 19 states under two brands: Ashgrove Tavern, a polished-casual "
                  "grill with a scratch kitchen and full bar, and Little Fern Kitchen, a fast-casual concept "
                  "serving bowls, salads and wraps."))
    b.append(heading("NON-GAAP FINANCIAL MEASURES"))
    b.append(para("In addition to results reported in accordance with U.S. generally accepted accounting "
                  "principles (GAAP), this release includes Adjusted EBITDA, Adjusted net income and Adjusted "
                  "diluted EPS. The Company defines Adjusted EBITDA as net income before interest expense, net, "
                  "income tax expense and depreciation and amortization, further adjusted to exclude stock-based "
                  "compensation, impairment and restaurant closure costs and executive transition costs. Adjusted "
                  "net income and Adjusted diluted EPS exclude impairment and restaurant closure costs and "
                  "executive transition costs, net of their tax effect. These measures are not substitutes for "
                  "GAAP results and may not be comparable to similarly titled measures of other companies."))
    b.append(heading("FORWARD-LOOKING STATEMENTS"))
    b.append(para("This release contains forward-looking statements, including the fiscal 2025 outlook, that "
                  "involve risks and uncertainties, including consumer spending, commodity and labor costs, "
                  "the performance of new restaurants and the other risks described in the Company's Annual "
                  "Report on Form 10-K. Actual results may differ materially.", size=9, leading=12))

    # ---- tables
    b += table_page("CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands, except per share data)")
    b += [T([["", "(Unaudited)", ""]], [(COLS4[0] + COLS4[1]) / 2 - 25 + width("(Unaudited)", 8.5) / 2, 0],
            size=8.5, leading=11, after=0)]
    b += head2()
    rows = [["Revenues:", "", "", "", ""], row4("Restaurant sales", RSALES, True), row4("Franchise revenues", FRAN),
            row4("Total revenues", REV), ["Costs and expenses:", "", "", "", ""]]
    rows += [row4(k, v) for k, v in COSTS.items()]
    rows += [row4("Total costs and expenses", TCOST), row4("Income from operations", OPINC),
             row4("Interest expense, net", INT), row4("Income before income taxes", PRETAX),
             row4("Income tax expense", TAX), row4("Net income", NI, True),
             ["Net income per share:", "", "", "", ""], eps4("Basic", EPS_B), eps4("Diluted", EPS_D),
             ["Weighted-average shares outstanding:", "", "", "", ""], row4("Basic", SH_B), row4("Diluted", SH_D)]
    b.append(T(rows, COLS4, size=8.5, leading=12.5,
               indents={1: 12, 2: 12, 3: 24, 5: 12, 6: 12, 7: 12, 8: 12, 9: 12, 10: 12, 11: 12, 12: 24, 19: 12,
                        20: 12, 22: 12, 23: 12}))
    b.append(para("Restaurant counts at end of period: 342 at December 29, 2024 and 325 at December 31, 2023.",
                  size=8.5, leading=11))

    b += table_page("CONDENSED CONSOLIDATED BALANCE SHEETS", "(In thousands)")
    b.append(T([["", "December 29,", "December 31,"], ["", "2024", "2023"]], [455, 540], bold_rows={0, 1},
               size=8.5, leading=11, after=2))
    b.append(T([["Cash and cash equivalents", f(CASH[0], True), f(CASH[1], True)],
                ["Other current assets", f(OCA[0]), f(OCA[1])],
                ["Total current assets", f(TCA[0]), f(TCA[1])],
                ["Property and equipment, net", f(PPE[0]), f(PPE[1])],
                ["Operating lease right-of-use assets", f(ROU[0]), f(ROU[1])], ["Goodwill", f(GW[0]), f(GW[1])],
                ["Other assets", f(OA[0]), f(OA[1])], ["Total assets", f(TA[0], True), f(TA[1], True)],
                ["Total current liabilities", f(TCL[0], True), f(TCL[1], True)],
                ["Long-term debt", f(LTD[0]), f(LTD[1])],
                ["Operating lease liabilities, net of current portion", f(OLL[0]), f(OLL[1])],
                ["Other long-term liabilities", f(OL[0]), f(OL[1])], ["Total liabilities", f(TL[0]), f(TL[1])],
                ["Total stockholders' equity", f(EQ[0]), f(EQ[1])],
                ["Total liabilities and stockholders' equity", f(TA[0], True), f(TA[1], True)]],
               [455, 540], size=8.5, leading=12.5, indents={2: 12, 7: 24, 12: 24}))

    b += table_page("RECONCILIATION OF NON-GAAP FINANCIAL MEASURES", "(Unaudited; in thousands, except per "
                    "share data)")
    b.append(L("Adjusted EBITDA", 9, True, after=2))
    b += head2()
    b.append(T([row4("Net income", NI, True), row4("Interest expense, net", [-x for x in INT]),
                row4("Income tax expense", TAX), row4("Depreciation and amortization", DA),
                row4("EBITDA", EBITDA), row4("Stock-based compensation", SBC),
                row4("Impairment and restaurant closure costs", IMP),
                ["Executive transition costs"] + [f(x) if x else "-" for x in EXEC],
                row4("Adjusted EBITDA", ADJ_EBITDA, True),
                ["Adjusted EBITDA margin (% of total revenues)"] + [f"{ADJ_EBITDA[i] / REV[i] * 100:.1f}%"
                                                                   for i in range(4)]],
               COLS4, size=8.5, leading=12.5, bold_rows={8}, indents={1: 12, 2: 12, 3: 12, 5: 12, 6: 12, 7: 12}))
    b.append(L("Adjusted Net Income and Adjusted Diluted EPS", 9, True, after=2))
    b += head2()
    b.append(T([row4("Net income", NI, True), row4("Impairment and restaurant closure costs", IMP),
                ["Executive transition costs"] + [f(x) if x else "-" for x in EXEC],
                row4("Tax effect of adjustments", ADJ_TAX), row4("Adjusted net income", ADJ_NI, True),
                eps4("Diluted net income per share", EPS_D), eps4("Adjusted diluted EPS", ADJ_EPS),
                row4("Diluted weighted-average shares outstanding", SH_D)],
               COLS4, size=8.5, leading=12.5, bold_rows={4, 6}, indents={1: 12, 2: 12, 3: 12}))
    b.append(para("The tax effect of adjustments is calculated at a blended statutory rate of 25%. Totals may not "
                  "sum because of rounding.", size=8.5, leading=11))
    return b


def _footer(i, n, tag, rel):
    s = f"- {i + 1} -"
    return [Text((LEFT + RIGHT) / 2 - width(s, 9) / 2, 36, 9, s)]


def build():
    pages, truth = render([], lambda e, p: [], body(), None, _footer)
    return FILE, make_pdf(pages, title="Ashgrove Dining Group Q4 2024 earnings release"), truth, len(pages)
