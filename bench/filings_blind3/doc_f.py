"""Document F: a quarterly report on Form 10-Q for the quarter ended September 30, 2025, as one EDGAR HTML file
in a financial-printer style with <div>/<span> inline styles (Halberd Outdoor Products, Inc., camping, cycling
and paddle-sports equipment, Ogden, Utah). All names and figures are invented and tie out (statements, notes and
MD&A are computed from the same numbers).

Markup: each paragraph is a <div> holding <span style="font-family:...">; item headings are bold spans; notes are
"NOTE 5. DEBT" in bold capitals. Financial tables are <table>s where each amount column is three cells ("$" |
figure | ")" or "%"), negatives are "(4,102" + ")", column heads take two or three header rows with colspans
("Three Months Ended" / "September 30," / "2025 | 2024"), and every statement has a "(in thousands, except per
share data)" unit line. Printed pages end with a centred page number and a page-break <div>; each page after
the cover starts with a running header "Halberd Outdoor Products, Inc. | Form 10-Q | Q3 2025"."""

from __future__ import annotations

from html import escape

FILE = "hlbd-20250930.htm"
CO = "Halberd Outdoor Products, Inc."
SP = "font-family:Arial,Helvetica,sans-serif;font-size:9pt"


class Doc:
    def __init__(self, toc=None):
        self.parts: list[str] = []
        self.page = 1
        self.chars = 0
        self.marks: dict[str, int] = {}
        self.toc = toc or {}

    def add(self, html, n):
        self.parts.append(html + "\n")
        self.chars += n
        if self.chars > 2900:
            self.page_break()

    def page_break(self):
        self.parts.append(f'<div style="text-align:center;margin-top:10pt"><span style="{SP}">{self.page}</span>'
                          '</div>\n<div style="page-break-after:always"><hr style="height:2px"/></div>\n')
        self.page += 1
        self.parts.append(f'<div style="text-align:left;border-bottom:1px solid #000"><span style="{SP};'
                          f'font-size:7.5pt">{escape(CO)} | Form 10-Q | Q3 2025</span></div>\n')
        self.chars = 0

    def p(self, text, lead=None, align="justify"):
        lead_html = f'<span style="{SP};font-weight:bold;font-style:italic">{escape(lead)}</span> ' if lead else ""
        self.add(f'<div style="margin-top:6pt;text-align:{align}">{lead_html}<span style="{SP}">{escape(text)}'
                 f'</span></div>', len(text) + 40)

    def center(self, text, bold=True, top=0):
        fw = "font-weight:bold;" if bold else ""
        self.add(f'<div style="text-align:center;margin-top:{top}pt"><span style="{SP};{fw}">{escape(text)}'
                 f'</span></div>', 60)

    def item(self, text, new_page=False, key=None):
        if new_page or self.chars > 2700:
            self.page_break()
        if key:
            self.marks[key] = self.page
        self.add(f'<div style="margin-top:12pt"><span style="{SP};font-weight:bold">{escape(text)}</span></div>',
                 80)

    def sub(self, text):
        self.add(f'<div style="margin-top:8pt"><span style="{SP};font-weight:bold;text-decoration:underline">'
                 f'{escape(text)}</span></div>', 60)

    def statement_title(self, title, unit="(in thousands, except per share data)", new_page=True, key=None):
        if new_page:
            self.page_break()
        if key:
            self.marks[key] = self.page
        self.center(CO.upper())
        self.center(title)
        self.center("(Unaudited)", bold=False)
        self.center(unit, bold=False)

    def table(self, head, rows, bold=(), indent=None, pct=False, label_w=46):
        """``head``: header rows, each a list of (text, span in amount columns); ``rows``: label + amount strings
        like "$ 1,234", "(4,102)", "12.5%" or ""; a label ending in ":" is a caption row."""
        indent = indent or {}
        ncol = max(len(r) for r in rows) - 1
        cw = (100 - label_w) / ncol
        out = ['<table style="width:100%;border-collapse:collapse;margin-top:6pt">',
               f'<tr><td style="width:{label_w}%"></td>' + "".join(
                   f'<td style="width:1%"></td><td style="width:1%"></td><td style="width:{cw - 3:.1f}%"></td>'
                   '<td style="width:1%"></td>' for _ in range(ncol)) + "</tr>"]
        for hrow in head:
            cells = ['<td></td>']
            for text, span in hrow:
                cells.append("<td></td>")
                border = "border-bottom:1px solid #000;" if text else ""
                cells.append(f'<td colspan="{span * 4 - 1}" style="text-align:center;vertical-align:bottom;'
                             f'{border}"><span style="{SP};font-weight:bold">{escape(text)}</span></td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        for r, row in enumerate(rows):
            fw = "font-weight:bold;" if r in bold else ""
            bg = "background-color:#EFEFEF;" if r % 2 == 0 else ""
            pad = indent.get(r, 0)
            cells = [f'<td style="{bg}vertical-align:bottom;padding-left:{pad}pt"><span style="{SP};{fw}">'
                     f'{escape(row[0])}</span></td>']
            for cell in row[1:]:
                dollar = "$" if cell.startswith("$") else ""
                num = cell[1:].strip() if dollar else cell
                close = ""
                if num.startswith("(") and num.endswith(")"):
                    num, close = num[:-1], ")"
                elif num.endswith("%"):
                    num, close = num[:-1], "%"
                cells.append(f'<td style="{bg}"></td>')
                cells.append(f'<td style="{bg}text-align:left"><span style="{SP};{fw}">{dollar}</span></td>')
                cells.append(f'<td style="{bg}text-align:right"><span style="{SP};{fw}">{escape(num)}</span></td>')
                cells.append(f'<td style="{bg}text-align:left"><span style="{SP};{fw}">{close}</span></td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</table>")
        self.add("\n".join(out), 50 * len(rows) + 60)

    def html(self):
        self.page_break()
        return ('<?xml version="1.0" encoding="utf-8"?>\n<html>\n<head>\n<title>hlbd-20250930</title>\n</head>\n'
                '<body>\n' + "".join(self.parts) + "</body>\n</html>\n")


def f(x, dollar=False):
    """A thousands figure as printed: "1,234", "(1,234)", "—" for zero, with an optional "$ " prefix."""
    if x == 0:
        s = "\u2014"
    elif x < 0:
        s = f"({-x:,})"
    else:
        s = f"{x:,}"
    return ("$ " + s) if dollar else s


def m(x):
    """thousands -> "$412.8 million"."""
    return f"${x / 1000:,.1f} million"


def pc(a, b):
    return (a - b) / b * 100


QTR = [[("Three Months Ended", 2), ("Nine Months Ended", 2)],
       [("September 30,", 2), ("September 30,", 2)],
       [("2025", 1), ("2024", 1), ("2025", 1), ("2024", 1)]]
BS = [[("September 30,", 1), ("December 31,", 1)], [("2025", 1), ("2024", 1)]]
NINE = [[("Nine Months Ended September 30,", 2)], [("2025", 1), ("2024", 1)]]

# ----------------------------------------------------------------------------------------------------------
# income statement (Q3 2025, Q3 2024, 9M 2025, 9M 2024), thousands
SALES = [412_806, 389_415, 1_118_342, 1_076_905]
COGS = [235_299, 225_861, 648_638, 630_001]
SGA = [112_480, 104_322, 326_915, 309_744]
RD = [9_842, 9_115, 29_034, 27_211]
RESTR = [2_215, 0, 6_873, 1_430]
INTEREST = [-6_114, -7_208, -19_337, -21_904]
OTHER = [455, -312, 1_018, -640]
TAXRATE = [0.231, 0.238, 0.234, 0.241]
SH_BASIC = [28_412, 29_105, 28_690, 29_240]
SH_DIL = [28_861, 29_530, 29_127, 29_702]
GP = [s - c for s, c in zip(SALES, COGS)]
OI = [g - a - b - c for g, a, b, c in zip(GP, SGA, RD, RESTR)]
PRETAX = [o + i + x for o, i, x in zip(OI, INTEREST, OTHER)]
TAX = [round(p * r) for p, r in zip(PRETAX, TAXRATE)]
NI = [p - t for p, t in zip(PRETAX, TAX)]
EPS_B = [n / s for n, s in zip(NI, SH_BASIC)]
EPS_D = [n / s for n, s in zip(NI, SH_DIL)]
FX = [3_118, 5_406, 9_874, -2_115]
HEDGE = [-842, 1_106, -1_530, 655]
COMPREH = [n + a + b for n, a, b in zip(NI, FX, HEDGE)]

# segments
SEG_TC = [198_405, 183_270, 521_880, 498_312]
SEG_CY = [141_210, 137_455, 392_617, 388_940]
SEG_PA = [s - a - b for s, a, b in zip(SALES, SEG_TC, SEG_CY)]
SOI_TC = [36_418, 31_902, 88_770, 80_115]
SOI_CY = [15_604, 16_880, 38_912, 42_305]
CORP = [-14_210, -12_816, -42_337, -39_620]  # corporate and unallocated, before restructuring
SOI_PA = [o - a - b - c + r for o, a, b, c, r in zip(OI, SOI_TC, SOI_CY, CORP, RESTR)]
# geography
GEO_US = [286_012, 272_118, 775_403, 755_610]
GEO_CA = [41_330, 39_804, 108_922, 104_115]
GEO_EU = [58_117, 52_660, 161_230, 150_906]
GEO_AP = [s - a - b - c for s, a, b, c in zip(SALES, GEO_US, GEO_CA, GEO_EU)]

# cash flows, nine months (2025, 2024)
DA = [38_905, 36_412]
SBC = [9_216, 8_540]
DEFTAX = [-1_204, 880]
D_AR = [-46_118, -39_904]
D_INV = [-41_950, -28_306]
D_PRE = [-3_210, -1_115]
D_AP = [22_840, 18_220]
D_ACC = [7_805, 4_118]
D_OTH = [-1_102, 640]
CFO = [NI[2 + i] + DA[i] + SBC[i] + DEFTAX[i] + D_AR[i] + D_INV[i] + D_PRE[i] + D_AP[i] + D_ACC[i] + D_OTH[i]
       for i in range(2)]
CAPEX = [-31_740, -28_915]
ACQ = [0, -12_400]
PROCEEDS = [1_210, 420]
CFI = [a + b + c for a, b, c in zip(CAPEX, ACQ, PROCEEDS)]
TERM = [-11_250, -11_250]
REV_B = [60_000, 45_000]
REV_R = [-60_000, -45_000]
BUYBACK = [-24_615, -18_330]
DIVS = [-15_472, -15_012]
ESPP = [2_104, 1_876]
WHT = [-2_030, -1_715]
CFF = [sum(x) for x in zip(TERM, REV_B, REV_R, BUYBACK, DIVS, ESPP, WHT)]
FXC = [1_206, -388]
BEGIN = [112_540, 97_318]
NET = [a + b + c + d for a, b, c, d in zip(CFO, CFI, CFF, FXC)]
END = [a + b for a, b in zip(BEGIN, NET)]

# balance sheet (Sep 30, 2025; Dec 31, 2024)
CASH = [END[0], BEGIN[0]]
AR = [198_733, 151_208]
RAW = [48_215, 44_306]
WIP = [12_880, 11_409]
FG = [280_495, 242_402]
INV = [a + b + c for a, b, c in zip(RAW, WIP, FG)]
PRE = [28_406, 24_915]
TCA = [sum(x) for x in zip(CASH, AR, INV, PRE)]
PPE = [186_402, 179_880]
ROU = [92_317, 97_055]
GW = [214_660, 214_660]
INTANG = [88_145, 94_420]
OTHA = [17_208, 15_902]
TA = [sum(x) for x in zip(TCA, PPE, ROU, GW, INTANG, OTHA)]
AP = [142_117, 118_604]
ACCR = [96_408, 88_215]
CLEASE = [18_220, 17_940]
CDEBT = [15_000, 15_000]
TCL = [sum(x) for x in zip(AP, ACCR, CLEASE, CDEBT)]
LTD = [382_500, 393_750]
LLEASE = [79_806, 84_912]
# equity roll-forward for the nine months of 2025
CS = [288, 290]
APIC_DEC = 405_118
AOCI_DEC = -29_746
RE_DEC = 70_954
APIC = [APIC_DEC + SBC[0] + ESPP[0] + WHT[0] - 1_180, APIC_DEC]   # 1,180 of repurchases charged to APIC
RE = [RE_DEC + NI[2] + DIVS[0] - (-BUYBACK[0] - 1_180 - 2), RE_DEC]  # par value of retired shares: 2
AOCI = [AOCI_DEC + FX[2] + HEDGE[2], AOCI_DEC]
EQ = [sum(x) for x in zip(CS, APIC, RE, AOCI)]
OTHL = [TA[i] - TCL[i] - LTD[i] - LLEASE[i] - EQ[i] for i in range(2)]
TL = [TCL[i] + LTD[i] + LLEASE[i] + OTHL[i] for i in range(2)]


def cover(d: Doc):
    d.center("UNITED STATES")
    d.center("SECURITIES AND EXCHANGE COMMISSION")
    d.center("Washington, D.C. 20549", bold=False)
    d.center("FORM 10-Q", top=10)
    d.add(f'<table style="width:100%;margin-top:6pt"><tr><td style="width:4%;vertical-align:top"><span '
          f'style="{SP}">&#9746;</span></td><td><span style="{SP}">QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) '
          f'OF THE SECURITIES EXCHANGE ACT OF 1934</span></td></tr></table>', 100)
    d.center("For the quarterly period ended September 30, 2025", bold=False)
    d.center("OR", bold=False)
    d.add(f'<table style="width:100%"><tr><td style="width:4%;vertical-align:top"><span style="{SP}">&#9744;'
          f'</span></td><td><span style="{SP}">TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE '
          f'SECURITIES EXCHANGE ACT OF 1934</span></td></tr></table>', 100)
    d.center("Commission File Number: 001-38814", bold=False)
    d.center("HALBERD OUTDOOR PRODUCTS, INC.", top=10)
    d.center("(Exact name of registrant as specified in its charter)", bold=False)
    d.add(f'<table style="width:100%;margin-top:6pt"><tr><td style="width:50%;text-align:center;border-bottom:1px '
          f'solid #000"><span style="{SP}">Delaware</span></td><td style="text-align:center;border-bottom:1px solid '
          f'#000"><span style="{SP}">82-4471903</span></td></tr><tr><td style="text-align:center"><span '
          f'style="{SP}">(State or other jurisdiction of incorporation or organization)</span></td><td style="text-'
          f'align:center"><span style="{SP}">(I.R.S. Employer Identification No.)</span></td></tr></table>', 100)
    d.center("2750 Harrisville Road, Ogden, Utah 84404", bold=False, top=6)
    d.center("(801) 555-0190", bold=False)
    d.add(f'<table style="width:100%;margin-top:6pt;border-collapse:collapse"><tr><td style="border-bottom:1px '
          f'solid #000"><span style="{SP};font-weight:bold">Title of each class</span></td><td style="border-'
          f'bottom:1px solid #000"><span style="{SP};font-weight:bold">Trading Symbol(s)</span></td><td '
          f'style="border-bottom:1px solid #000"><span style="{SP};font-weight:bold">Name of each exchange on which '
          f'registered</span></td></tr><tr><td><span style="{SP}">Common Stock, $0.01 par value</span></td><td>'
          f'<span style="{SP}">HLBD</span></td><td><span style="{SP}">New York Stock Exchange</span></td></tr>'
          '</table>', 150)
    d.p("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section 13 "
        "or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) has been subject to "
        "such filing requirements for the past 90 days. Yes \u2612 No \u2610")
    d.p("Large accelerated filer \u2612 Accelerated filer \u2610 Non-accelerated filer \u2610 Smaller reporting "
        "company \u2610 Emerging growth company \u2610")
    d.p("As of October 31, 2025, there were 28,301,442 shares of the registrant's common stock outstanding.")
    d.page_break()


def contents(d: Doc):
    d.center("TABLE OF CONTENTS")
    rows = [("PART I.", "FINANCIAL INFORMATION", ""), ("Item 1.", "Financial Statements (Unaudited)", "is"),
            ("", "Condensed Consolidated Statements of Operations", "is"),
            ("", "Condensed Consolidated Statements of Comprehensive Income", "ci"),
            ("", "Condensed Consolidated Balance Sheets", "bs"),
            ("", "Condensed Consolidated Statements of Cash Flows", "cf"),
            ("", "Condensed Consolidated Statements of Stockholders' Equity", "se"),
            ("", "Notes to Condensed Consolidated Financial Statements", "notes"),
            ("Item 2.", "Management's Discussion and Analysis of Financial Condition and Results of Operations",
             "mdna"),
            ("Item 3.", "Quantitative and Qualitative Disclosures About Market Risk", "i3"),
            ("Item 4.", "Controls and Procedures", "i4"), ("PART II.", "OTHER INFORMATION", ""),
            ("Item 1.", "Legal Proceedings", "ii1"), ("Item 1A.", "Risk Factors", "ii1a"),
            ("Item 2.", "Unregistered Sales of Equity Securities and Use of Proceeds", "ii2"),
            ("Item 3.", "Defaults Upon Senior Securities", "ii3"), ("Item 4.", "Mine Safety Disclosures", "ii4"),
            ("Item 5.", "Other Information", "ii5"), ("Item 6.", "Exhibits", "ii6"), ("", "Signatures", "sig")]
    rows = [(a, b, str(d.toc.get(k, "")) if k else "") for a, b, k in rows]
    out = ['<table style="width:100%;border-collapse:collapse;margin-top:6pt">',
           f'<tr><td style="width:12%"></td><td style="width:80%"></td><td style="width:8%;text-align:right">'
           f'<span style="{SP};font-weight:bold">Page</span></td></tr>']
    for a, b, c in rows:
        out.append(f'<tr><td><span style="{SP};font-weight:bold">{escape(a)}</span></td><td><span style="{SP}">'
                   f'{escape(b)}</span></td><td style="text-align:right"><span style="{SP}">{c}</span></td></tr>')
    out.append("</table>")
    d.add("\n".join(out), 900)
    d.page_break()
    d.center("CAUTIONARY NOTE REGARDING FORWARD-LOOKING STATEMENTS")
    d.p("This Quarterly Report on Form 10-Q contains forward-looking statements within the meaning of Section 27A of "
        "the Securities Act of 1933 and Section 21E of the Securities Exchange Act of 1934, including statements about "
        "our expected capital expenditures, the timing and cost of our restructuring, the integration of acquired "
        "businesses, tariffs, consumer demand and our liquidity. Words such as anticipate, believe, expect, intend, "
        "plan and will identify forward-looking statements. These statements are based on current expectations and "
        "are subject to risks and uncertainties, including those described in Part II, Item 1A, Risk Factors, and in "
        "our Annual Report on Form 10-K for the year ended December 31, 2024. We undertake no obligation to update "
        "any forward-looking statement except as required by law.")
    d.p("Unless the context requires otherwise, references to Halberd, the Company, we, us and our refer to Halberd "
        "Outdoor Products, Inc. and its consolidated subsidiaries. Halberd, Ridgeback and Stillwater are our "
        "registered trademarks.")
    d.page_break()


def four(v, dollar_rows=False):
    return [f(x, dollar_rows) for x in v]


def statements(d: Doc):
    d.item("PART I. FINANCIAL INFORMATION")
    d.item("Item 1. Financial Statements")
    d.statement_title("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", new_page=False, key="is")
    eps = lambda v: [f"$ {x:.2f}" for x in v]  # noqa: E731
    d.table(QTR, [
        ["Net sales"] + four(SALES, True),
        ["Cost of sales"] + four(COGS),
        ["Gross profit"] + four(GP),
        ["Operating expenses:", "", "", "", ""],
        ["Selling, general and administrative"] + four(SGA),
        ["Research and development"] + four(RD),
        ["Restructuring charges"] + four(RESTR),
        ["Total operating expenses"] + four([a + b + c for a, b, c in zip(SGA, RD, RESTR)]),
        ["Operating income"] + four(OI),
        ["Interest expense, net"] + four(INTEREST),
        ["Other income (expense), net"] + four(OTHER),
        ["Income before income taxes"] + four(PRETAX),
        ["Provision for income taxes"] + four(TAX),
        ["Net income"] + four(NI, True),
        ["Earnings per share:", "", "", "", ""],
        ["Basic"] + eps(EPS_B),
        ["Diluted"] + eps(EPS_D),
        ["Weighted-average shares outstanding:", "", "", "", ""],
        ["Basic"] + four(SH_BASIC),
        ["Diluted"] + four(SH_DIL),
        ["Cash dividends declared per share"] + ["$ 0.18", "$ 0.17", "$ 0.54", "$ 0.51"],
    ], bold=(2, 8, 13), indent={4: 10, 5: 10, 6: 10, 7: 20, 15: 10, 16: 10, 18: 10, 19: 10})
    d.p("See accompanying notes to condensed consolidated financial statements.", align="left")

    d.statement_title("CONDENSED CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME", "(in thousands)", key="ci")
    d.table(QTR, [
        ["Net income"] + four(NI, True),
        ["Other comprehensive income (loss), net of tax:", "", "", "", ""],
        ["Foreign currency translation adjustments"] + four(FX),
        ["Change in fair value of cash flow hedges"] + four(HEDGE),
        ["Total other comprehensive income (loss)"] + four([a + b for a, b in zip(FX, HEDGE)]),
        ["Comprehensive income"] + four(COMPREH, True),
    ], bold=(5,), indent={2: 10, 3: 10, 4: 20})

    d.statement_title("CONDENSED CONSOLIDATED BALANCE SHEETS", "(in thousands, except par value)", key="bs")
    two = lambda v, dl=False: [f(x, dl) for x in v]  # noqa: E731
    d.table(BS, [
        ["ASSETS", "", ""],
        ["Current assets:", "", ""],
        ["Cash and cash equivalents"] + two(CASH, True),
        ["Accounts receivable, net of allowances of $4,118 and $3,902"] + two(AR),
        ["Inventories"] + two(INV),
        ["Prepaid expenses and other current assets"] + two(PRE),
        ["Total current assets"] + two(TCA),
        ["Property, plant and equipment, net"] + two(PPE),
        ["Operating lease right-of-use assets"] + two(ROU),
        ["Goodwill"] + two(GW),
        ["Intangible assets, net"] + two(INTANG),
        ["Other assets"] + two(OTHA),
        ["Total assets"] + two(TA, True),
        ["LIABILITIES AND STOCKHOLDERS' EQUITY", "", ""],
        ["Current liabilities:", "", ""],
        ["Accounts payable"] + two(AP, True),
        ["Accrued liabilities"] + two(ACCR),
        ["Current operating lease liabilities"] + two(CLEASE),
        ["Current portion of long-term debt"] + two(CDEBT),
        ["Total current liabilities"] + two(TCL),
        ["Long-term debt, net"] + two(LTD),
        ["Long-term operating lease liabilities"] + two(LLEASE),
        ["Other long-term liabilities"] + two(OTHL),
        ["Total liabilities"] + two(TL),
        ["Commitments and contingencies (Note 12)", "", ""],
        ["Stockholders' equity:", "", ""],
        ["Common stock, $0.01 par value; 100,000 shares authorized; 28,842 and 28,996 shares issued and "
         "outstanding"] + two(CS),
        ["Additional paid-in capital"] + two(APIC),
        ["Retained earnings"] + two(RE),
        ["Accumulated other comprehensive loss"] + two(AOCI),
        ["Total stockholders' equity"] + two(EQ),
        ["Total liabilities and stockholders' equity"] + two([a + b for a, b in zip(TL, EQ)], True),
    ], bold=(0, 6, 12, 13, 19, 23, 30, 31), label_w=60,
        indent={2: 10, 3: 10, 4: 10, 5: 10, 6: 20, 15: 10, 16: 10, 17: 10, 18: 10, 19: 20, 26: 10, 27: 10, 28: 10,
                29: 10, 30: 20})

    d.statement_title("CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in thousands)", key="cf")
    d.table(NINE, [
        ["Cash flows from operating activities:", "", ""],
        ["Net income", f(NI[2], True), f(NI[3], True)],
        ["Adjustments to reconcile net income to net cash provided by operating activities:", "", ""],
        ["Depreciation and amortization"] + two(DA),
        ["Share-based compensation"] + two(SBC),
        ["Deferred income taxes"] + two(DEFTAX),
        ["Changes in operating assets and liabilities:", "", ""],
        ["Accounts receivable"] + two(D_AR),
        ["Inventories"] + two(D_INV),
        ["Prepaid expenses and other assets"] + two(D_PRE),
        ["Accounts payable"] + two(D_AP),
        ["Accrued and other liabilities"] + two(D_ACC),
        ["Other, net"] + two(D_OTH),
        ["Net cash provided by operating activities"] + two(CFO),
        ["Cash flows from investing activities:", "", ""],
        ["Purchases of property, plant and equipment"] + two(CAPEX),
        ["Acquisition of business, net of cash acquired"] + two(ACQ),
        ["Proceeds from sale of assets"] + two(PROCEEDS),
        ["Net cash used in investing activities"] + two(CFI),
        ["Cash flows from financing activities:", "", ""],
        ["Repayments of term loan"] + two(TERM),
        ["Borrowings under revolving credit facility"] + two(REV_B),
        ["Repayments under revolving credit facility"] + two(REV_R),
        ["Repurchases of common stock"] + two(BUYBACK),
        ["Dividends paid"] + two(DIVS),
        ["Proceeds from employee stock purchase plan"] + two(ESPP),
        ["Taxes paid related to net share settlement of equity awards"] + two(WHT),
        ["Net cash used in financing activities"] + two(CFF),
        ["Effect of exchange rate changes on cash"] + two(FXC),
        ["Net increase (decrease) in cash and cash equivalents"] + two(NET),
        ["Cash and cash equivalents at beginning of period"] + two(BEGIN),
        ["Cash and cash equivalents at end of period"] + two(END, True),
        ["Supplemental disclosure:", "", ""],
        ["Cash paid for interest"] + two([19_842, 22_317]),
        ["Cash paid for income taxes, net"] + two([21_506, 19_874]),
    ], bold=(13, 18, 27, 31), label_w=60)

    d.statement_title("CONDENSED CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY", "(in thousands)", key="se")
    d.p("Nine Months Ended September 30, 2025", align="center")
    d.table([[("Common Stock", 1), ("Additional Paid-in Capital", 1), ("Retained Earnings", 1),
              ("Accumulated Other Comprehensive Loss", 1), ("Total Stockholders' Equity", 1)]], [
        ["Balance at December 31, 2024", f(CS[1], True), f(APIC[1], True), f(RE[1], True), f(AOCI[1], True),
         f(EQ[1], True)],
        ["Net income", "", "", f(NI[2]), "", f(NI[2])],
        ["Other comprehensive income", "", "", "", f(FX[2] + HEDGE[2]), f(FX[2] + HEDGE[2])],
        ["Share-based compensation", "", f(SBC[0]), "", "", f(SBC[0])],
        ["Issuance under employee stock purchase plan and equity awards, net of taxes withheld", "",
         f(ESPP[0] + WHT[0]), "", "", f(ESPP[0] + WHT[0])],
        ["Repurchases of common stock", "(2)", "(1,180)", f(-(-BUYBACK[0] - 1_180 - 2)), "", f(BUYBACK[0])],
        ["Cash dividends declared ($0.54 per share)", "", "", f(DIVS[0]), "", f(DIVS[0])],
        ["Balance at September 30, 2025", f(CS[0], True), f(APIC[0], True), f(RE[0], True), f(AOCI[0], True),
         f(EQ[0], True)],
    ], bold=(0, 7), label_w=34)


def notes(d: Doc):
    d.item("NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS (Unaudited)", new_page=True, key="notes")
    d.item("NOTE 1. BASIS OF PRESENTATION")
    d.p("Halberd Outdoor Products, Inc. (together with its subsidiaries, Halberd, the Company, we or us) designs, "
        "manufactures and sells camping and hiking equipment, bicycles and cycling components, and kayaks, "
        "paddleboards and related accessories. The accompanying unaudited condensed consolidated financial "
        "statements have been prepared in accordance with U.S. GAAP for interim financial information and should be "
        "read together with the audited financial statements in our Annual Report on Form 10-K for the year ended "
        "December 31, 2024. Results for the interim periods are not necessarily indicative of results for the full "
        "year; our business is seasonal, with the highest sales typically in the second and third quarters.")
    d.p("Recently issued accounting pronouncements. In December 2024 the FASB issued ASU 2024-03, which requires "
        "disaggregated disclosure of certain income statement expense captions in the notes, effective for our annual "
        "report for 2027. In December 2024 we also adopted the expanded income tax disclosure requirements that will "
        "first apply to our annual financial statements for 2025. We are evaluating the effect of these standards on "
        "our disclosures; neither is expected to affect our financial position or results of operations.")
    d.item("NOTE 2. REVENUE")
    d.p("We sell products through specialty outdoor retailers, mass merchants and sporting goods chains "
        "(wholesale), and directly to consumers through our websites and 34 Company-operated stores (direct-to-"
        "consumer). Revenue is recognized when control of the products transfers to the customer, generally upon "
        "shipment. The following tables disaggregate net sales by reportable segment and by geographic region, "
        "based on the location of the customer.")
    d.p("Net sales by segment:", align="left")
    d.table(QTR, [["Trail & Camp"] + four(SEG_TC, True), ["Cycling"] + four(SEG_CY), ["Paddle"] + four(SEG_PA),
                  ["Total net sales"] + four(SALES, True)], bold=(3,))
    d.p("Net sales by geographic region:", align="left")
    d.table(QTR, [["United States"] + four(GEO_US, True), ["Canada"] + four(GEO_CA), ["Europe"] + four(GEO_EU),
                  ["Asia Pacific and other"] + four(GEO_AP), ["Total net sales"] + four(SALES, True)], bold=(4,))
    d.p("Direct-to-consumer sales were 18.7% of net sales in the third quarter of 2025 compared with 17.2% in the "
        "third quarter of 2024.")
    d.item("NOTE 3. INVENTORIES")
    d.table([[("September 30,", 1), ("December 31,", 1)], [("2025", 1), ("2024", 1)]], [
        ["Raw materials"] + [f(x, True) for x in RAW], ["Work in process"] + [f(x) for x in WIP],
        ["Finished goods"] + [f(x) for x in FG], ["Total inventories"] + [f(x, True) for x in INV]], bold=(3,))
    d.p("Inventories are stated at the lower of cost (first-in, first-out) or net realizable value. Inventory "
        "reserves for excess and obsolete products were $11.6 million at September 30, 2025 and $9.8 million at "
        "December 31, 2024.")
    d.item("NOTE 4. RESTRUCTURING")
    d.p("In February 2025 we announced the consolidation of our Cycling assembly operations from Reno, Nevada into our "
        "Ogden, Utah facility. We recorded restructuring charges of $2.2 million in the third quarter of 2025 and "
        "$6.9 million in the first nine months of 2025, primarily severance and facility exit costs. We expect to "
        "complete the consolidation in the first quarter of 2026 and to incur total charges of $9.0 million to "
        "$10.0 million.")
    d.item("NOTE 5. DEBT")
    d.table([[("September 30,", 1), ("December 31,", 1)], [("2025", 1), ("2024", 1)]], [
        ["Term loan due 2029", f(CDEBT[0] + LTD[0] + 1_875, True), f(CDEBT[1] + LTD[1] + 2_210, True)],
        ["Revolving credit facility", "\u2014", "\u2014"],
        ["Less: unamortized debt issuance costs", "(1,875)", "(2,210)"],
        ["Total debt", f(CDEBT[0] + LTD[0]), f(CDEBT[1] + LTD[1])],
        ["Less: current portion", f(-CDEBT[0]), f(-CDEBT[1])],
        ["Long-term debt, net", f(LTD[0], True), f(LTD[1], True)]], bold=(3, 5))
    d.p("Our credit agreement provides a term loan maturing in March 2029 and a $300.0 million revolving credit "
        "facility. Borrowings bear interest at Term SOFR plus a margin of 1.50% to 2.25% based on our net leverage "
        "ratio; the weighted-average interest rate on the term loan was 6.12% at September 30, 2025. At September "
        "30, 2025, no amounts were outstanding under the revolving credit facility, $3.6 million of letters of "
        "credit were outstanding, and $296.4 million was available for borrowing. The credit agreement requires a "
        "maximum net leverage ratio of 3.75 to 1.00; our net leverage ratio was 2.1 to 1.00 at September 30, 2025, "
        "and we were in compliance with all covenants.")
    d.item("NOTE 6. LEASES")
    d.p("We lease distribution centers, retail stores, offices and equipment under operating leases. Operating lease "
        "cost was $6.1 million and $5.9 million for the three months ended September 30, 2025 and 2024, and $18.3 "
        "million and $17.5 million for the nine months then ended. At September 30, 2025, the weighted-average "
        "remaining lease term was 6.4 years and the weighted-average discount rate was 5.1%.")
    d.item("NOTE 7. EARNINGS PER SHARE")
    d.p("Basic earnings per share is computed by dividing net income by the weighted-average number of shares "
        "outstanding. Diluted earnings per share reflects the dilutive effect of stock options, restricted stock "
        "units and performance share units using the treasury stock method. Awards for 412 thousand and 655 "
        "thousand shares for the three months ended September 30, 2025 and 2024, and 398 thousand and 702 "
        "thousand shares for the nine months then ended, were excluded because their effect was antidilutive.")
    d.item("NOTE 8. FAIR VALUE AND DERIVATIVES")
    d.p("We use interest rate swaps, designated as cash flow hedges, to fix the interest rate on $150.0 million of "
        "our term loan through March 2028. The fair value of the swaps was a net asset of $1.9 million at September "
        "30, 2025 and $4.3 million at December 31, 2024, measured using Level 2 inputs. We also use foreign currency "
        "forward contracts with a notional amount of $64.5 million to hedge forecasted inventory purchases by our "
        "Canadian and European subsidiaries. The carrying amount of the term loan approximates fair value because it "
        "bears interest at a variable rate.")
    d.item("NOTE 9. SHARE-BASED COMPENSATION")
    d.p("Share-based compensation expense was $3.1 million and $2.9 million for the three months ended September 30, "
        "2025 and 2024, and $9.2 million and $8.5 million for the nine months then ended. During the first nine "
        "months of 2025 we granted 214 thousand restricted stock units with a weighted-average grant-date fair value "
        "of $43.26 per unit and 71 thousand performance share units. At September 30, 2025, unrecognized "
        "compensation cost related to unvested awards was $21.4 million, expected to be recognized over a "
        "weighted-average period of 2.1 years.")
    d.item("NOTE 10. INCOME TAXES")
    d.p("Our effective tax rate differs from the U.S. federal statutory rate of 21% primarily because of state "
        "income taxes and foreign earnings taxed at higher rates, partly offset by research and development credits. "
        "On July 4, 2025, the One Big Beautiful Bill Act was enacted in the United States; the legislation restores "
        "immediate expensing of domestic research and development costs and did not have a material effect on our "
        "effective tax rate for the periods presented.")
    d.item("NOTE 11. SEGMENT INFORMATION")
    d.p("We have three reportable segments: Trail & Camp (tents, sleeping bags, backpacks and stoves), Cycling "
        "(bicycles, e-bikes and components) and Paddle (kayaks, paddleboards and accessories). Our Chief Executive "
        "Officer, as chief operating decision maker, evaluates segment performance based on segment operating "
        "income, which excludes corporate and unallocated expenses and restructuring charges.")
    d.table(QTR, [["Segment operating income:", "", "", "", ""],
                  ["Trail & Camp"] + four(SOI_TC, True), ["Cycling"] + four(SOI_CY),
                  ["Paddle"] + four(SOI_PA),
                  ["Corporate and unallocated expenses"] + four(CORP),
                  ["Restructuring charges"] + four([-r for r in RESTR]),
                  ["Operating income"] + four(OI, True)], bold=(6,), indent={1: 10, 2: 10, 3: 10})
    d.item("NOTE 12. COMMITMENTS AND CONTINGENCIES")
    d.p("At September 30, 2025, we had purchase commitments with contract manufacturers and component suppliers of "
        "$128.7 million, substantially all of which are expected to be settled within twelve months. We provide "
        "limited warranties on our products; the accrued warranty liability was $7.9 million at September 30, 2025 "
        "and $7.2 million at December 31, 2024.")
    d.p("We are party to legal proceedings arising in the ordinary course of business, including the matter "
        "described in Part II, Item 1. We do not believe that any pending matter will have a material adverse effect "
        "on our financial position.")
    d.item("NOTE 13. SUBSEQUENT EVENTS")
    d.p("On October 9, 2025, we acquired Summit Loom Textiles, LLC, a Vermont-based maker of technical outdoor "
        "apparel fabrics, for $38.5 million in cash, funded from cash on hand. The acquisition will be reported in "
        "the Trail & Camp segment.")
    d.p("On October 21, 2025, our Board of Directors declared a quarterly cash dividend of $0.18 per share, payable "
        "on November 17, 2025 to stockholders of record on November 3, 2025.")


def mdna(d: Doc):
    d.item("Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations",
           new_page=True, key="mdna")
    d.p("The following discussion should be read together with our condensed consolidated financial statements and "
        "notes in Item 1 and with our Annual Report on Form 10-K for the year ended December 31, 2024. This report "
        "contains forward-looking statements that involve risks and uncertainties; actual results may differ "
        "materially.")
    d.sub("Overview")
    d.p("Halberd is a designer and manufacturer of outdoor recreation equipment sold under the Halberd, Ridgeback "
        "and Stillwater brands. Demand in the third quarter reflected healthy sell-through of camping products, "
        "continued promotional pressure in the bicycle category, and a strong paddle season in North America.")
    d.sub("Results of Operations")
    gm = [g / s * 100 for g, s in zip(GP, SALES)]
    d.p(f"Net sales increased {pc(SALES[0], SALES[1]):.1f}% to {m(SALES[0])} in the third quarter of 2025 and "
        f"{pc(SALES[2], SALES[3]):.1f}% to {m(SALES[2])} in the first nine months of 2025, compared with "
        f"{m(SALES[1])} and {m(SALES[3])} in the prior-year periods.", lead="Net sales.")
    d.p(f"Trail & Camp net sales increased {pc(SEG_TC[0], SEG_TC[1]):.1f}% in the third quarter and "
        f"{pc(SEG_TC[2], SEG_TC[3]):.1f}% in the nine months, driven by new tent and backpack lines. Cycling net "
        f"sales increased {pc(SEG_CY[0], SEG_CY[1]):.1f}% in the third quarter and "
        f"{pc(SEG_CY[2], SEG_CY[3]):.1f}% in the nine months, as lower e-bike pricing largely offset higher unit "
        "volume. "
        f"Paddle net sales increased {pc(SEG_PA[0], SEG_PA[1]):.1f}% in the third quarter and "
        f"{pc(SEG_PA[2], SEG_PA[3]):.1f}% in the nine months.", lead="Segment net sales.")
    d.p("The following table presents net sales and segment operating income by segment:", align="left")
    d.table(QTR + [[("", 1), ("", 1), ("", 1), ("", 1)]][:0], [
        ["Net sales:", "", "", "", ""],
        ["Trail & Camp"] + four(SEG_TC, True), ["Cycling"] + four(SEG_CY), ["Paddle"] + four(SEG_PA),
        ["Total"] + four(SALES, True),
        ["Segment operating margin:", "", "", "", ""],
        ["Trail & Camp"] + [f"{a / b * 100:.1f}%" for a, b in zip(SOI_TC, SEG_TC)],
        ["Cycling"] + [f"{a / b * 100:.1f}%" for a, b in zip(SOI_CY, SEG_CY)],
        ["Paddle"] + [f"{a / b * 100:.1f}%" for a, b in zip(SOI_PA, SEG_PA)]],
        bold=(4,), indent={1: 10, 2: 10, 3: 10, 6: 10, 7: 10, 8: 10})
    d.p(f"Gross margin was {gm[0]:.1f}% in the third quarter of 2025 compared with {gm[1]:.1f}% a year earlier, and "
        f"{gm[2]:.1f}% for the nine months compared with {gm[3]:.1f}%, reflecting lower freight costs and favorable "
        "product mix, partly offset by tariffs on components sourced from Asia.", lead="Gross margin.")
    d.p(f"Selling, general and administrative expenses were {m(SGA[0])}, or {SGA[0] / SALES[0] * 100:.1f}% of net "
        f"sales, in the third quarter and {m(SGA[2])}, or {SGA[2] / SALES[2] * 100:.1f}% of net sales, in the nine "
        "months, with the increase driven by brand marketing and direct-to-consumer fulfillment costs.",
        lead="Operating expenses.")
    d.p(f"Operating income was {m(OI[0])} in the third quarter and {m(OI[2])} in the first nine months of 2025, "
        f"compared with {m(OI[1])} and {m(OI[3])} in 2024. Trail & Camp segment operating income rose to "
        f"{m(SOI_TC[0])} from {m(SOI_TC[1])}, while Cycling segment operating income fell to {m(SOI_CY[0])} from "
        f"{m(SOI_CY[1])} in the quarter.", lead="Operating income.")
    d.p(f"Interest expense, net decreased to {m(-INTEREST[0])} in the third quarter from {m(-INTEREST[1])}, "
        f"reflecting lower term loan balances and lower rates. Our effective tax rate was "
        f"{TAX[0] / PRETAX[0] * 100:.1f}% in the third quarter and {TAX[2] / PRETAX[2] * 100:.1f}% in the nine "
        "months.", lead="Interest and taxes.")
    d.p(f"Net income was {m(NI[0])}, or ${EPS_D[0]:.2f} per diluted share, in the third quarter of 2025 and "
        f"{m(NI[2])}, or ${EPS_D[2]:.2f} per diluted share, in the first nine months, compared with {m(NI[1])}, or "
        f"${EPS_D[1]:.2f} per diluted share, and {m(NI[3])}, or ${EPS_D[3]:.2f} per diluted share, in the "
        "prior-year periods.", lead="Net income.")
    d.sub("Liquidity and Capital Resources")
    d.p(f"At September 30, 2025, we had cash and cash equivalents of {m(CASH[0])} and $296.4 million available under "
        f"our revolving credit facility. Net cash provided by operating activities was {m(CFO[0])} in the first nine "
        f"months of 2025 compared with {m(CFO[1])} in the prior-year period, as higher earnings were more than "
        "offset by a larger seasonal build in receivables and inventories ahead of the holiday selling season. "
        f"Net cash used in investing activities was {m(-CFI[0])}, and net cash used in financing activities was "
        f"{m(-CFF[0])}. Capital expenditures were "
        f"{m(-CAPEX[0])} in the first nine months of 2025, and we expect full-year 2025 capital expenditures of $42 "
        "million to $46 million, primarily for the Ogden consolidation and e-commerce systems.")
    d.p(f"During the first nine months of 2025 we repurchased 588,910 shares of common stock for {m(-BUYBACK[0])} and "
        f"paid dividends of {m(-DIVS[0])}. At September 30, 2025, $147.0 million remained available under the share "
        "repurchase program authorized by our Board in February 2024, which has no expiration date. We believe that "
        "cash on hand, cash from operations and availability under the revolving credit facility will be sufficient "
        "to fund our operations, capital expenditures, dividends and debt service for at least the next twelve "
        "months.")
    d.sub("Seasonality")
    d.p("Our sales of camping and paddle products are concentrated in the spring and summer, and retailers typically "
        "take delivery of these products in the first and second quarters. Cycling sales are more evenly distributed "
        "but peak in the second quarter. As a result, working capital needs, particularly accounts receivable and "
        "inventories, are highest in the second and third quarters, and results for any quarter are not necessarily "
        "indicative of results for the full year.")
    d.sub("Contractual Obligations")
    d.p("There were no material changes outside the ordinary course of business to the contractual obligations "
        "described in our Annual Report on Form 10-K for the year ended December 31, 2024, other than purchase "
        "commitments, which increased to $128.7 million at September 30, 2025 as we placed orders for spring 2026 "
        "products earlier than usual to mitigate potential tariff increases.")
    d.sub("Critical Accounting Estimates")
    d.p("There have been no material changes to our critical accounting estimates from those described in our Annual "
        "Report on Form 10-K for the year ended December 31, 2024.")
    d.item("Item 3. Quantitative and Qualitative Disclosures About Market Risk", key="i3")
    d.p("Our term loan bears interest at a variable rate. A hypothetical 100 basis point increase in interest rates "
        "would increase our annual interest expense by approximately $4.0 million based on the balance outstanding at "
        "September 30, 2025, before the effect of our interest rate swaps, which fix the rate on $150.0 million of "
        "the term loan. We are also exposed to changes in the Canadian dollar, euro and Chinese yuan.")
    d.item("Item 4. Controls and Procedures", key="i4")
    d.p("Our management, with the participation of our Chief Executive Officer and Chief Financial Officer, evaluated "
        "the effectiveness of our disclosure controls and procedures as of September 30, 2025 and concluded that they "
        "were effective. There were no changes in our internal control over financial reporting during the quarter "
        "ended September 30, 2025 that materially affected, or are reasonably likely to materially affect, our "
        "internal control over financial reporting.")


def part2(d: Doc):
    d.item("PART II. OTHER INFORMATION", new_page=True)
    d.item("Item 1. Legal Proceedings", key="ii1")
    d.p("In April 2025, a putative class action captioned Delacroix v. Halberd Outdoor Products, Inc. was filed in "
        "the U.S. District Court for the District of Utah alleging that certain Ridgeback canister stoves were "
        "defectively designed. We voluntarily recalled approximately 41,000 units of the affected stove model in "
        "May 2025 and recorded a product recall accrual of $3.4 million. We intend to defend the action vigorously.")
    d.item("Item 1A. Risk Factors", key="ii1a")
    d.p("Except as set forth below, there have been no material changes to the risk factors disclosed in our Annual "
        "Report on Form 10-K for the year ended December 31, 2024.")
    d.p("Tariffs and trade restrictions could increase our costs. We source a significant portion of our finished "
        "goods and components from suppliers in China, Vietnam and Taiwan. Tariffs imposed in 2025 increased our cost "
        "of sales, and further increases, retaliatory measures or changes in trade policy could reduce our margins "
        "or require price increases that reduce demand.", lead="")
    d.item("Item 2. Unregistered Sales of Equity Securities and Use of Proceeds", key="ii2")
    d.p("The following table provides information about our repurchases of common stock during the three months "
        "ended September 30, 2025.")
    rep = [("July 1 \u2013 July 31, 2025", 98_400, "41.62"), ("August 1 \u2013 August 31, 2025", 121_300, "39.88"),
           ("September 1 \u2013 September 30, 2025", 84_650, "42.15")]
    rem = ["155.4", "150.6", "147.0"]
    rows = [[p, f"{n:,}", f"$ {px}", f"{n:,}", f"$ {r}"] for (p, n, px), r in zip(rep, rem)]
    tot = sum(n for _, n, _ in rep)
    rows.append(["Total", f"{tot:,}", "", f"{tot:,}", ""])
    d.table([[("Total Number of Shares Purchased", 1), ("Average Price Paid per Share", 1),
              ("Total Number of Shares Purchased as Part of Publicly Announced Program", 1),
              ("Approximate Dollar Value of Shares That May Yet Be Purchased Under the Program", 1)],
             [("", 1), ("", 1), ("", 1), ("(in millions)", 1)]], rows, bold=(3,), label_w=30)
    d.p("Our Board authorized the repurchase of up to $200.0 million of our common stock in February 2024. "
        "Repurchases may be made in the open market, in privately negotiated transactions or under Rule 10b5-1 plans, "
        "and the program may be suspended at any time.")
    d.item("Item 3. Defaults Upon Senior Securities", key="ii3")
    d.p("None.")
    d.item("Item 4. Mine Safety Disclosures", key="ii4")
    d.p("Not applicable.")
    d.item("Item 5. Other Information", key="ii5")
    d.p("During the three months ended September 30, 2025, none of our directors or officers adopted or terminated a "
        "Rule 10b5-1 trading arrangement or non-Rule 10b5-1 trading arrangement, as each term is defined in Item 408 "
        "of Regulation S-K.")
    d.item("Item 6. Exhibits", key="ii6")
    ex = [("10.1", "First Amendment to Credit Agreement, dated as of August 14, 2025, among Halberd Outdoor Products, "
                   "Inc., the lenders party thereto and Granite Peak Bank, N.A., as administrative agent"),
          ("31.1", "Certification of Chief Executive Officer pursuant to Rule 13a-14(a)"),
          ("31.2", "Certification of Chief Financial Officer pursuant to Rule 13a-14(a)"),
          ("32.1*", "Certifications of Chief Executive Officer and Chief Financial Officer pursuant to 18 U.S.C. "
                    "Section 1350"),
          ("101.INS", "Inline XBRL Instance Document"), ("101.SCH", "Inline XBRL Taxonomy Extension Schema Document"),
          ("104", "Cover Page Interactive Data File (formatted as Inline XBRL and contained in Exhibit 101)")]
    out = ['<table style="width:100%;border-collapse:collapse;margin-top:6pt">',
           f'<tr><td style="width:12%;border-bottom:1px solid #000"><span style="{SP};font-weight:bold">Exhibit '
           f'No.</span></td><td style="border-bottom:1px solid #000"><span style="{SP};font-weight:bold">'
           'Description</span></td></tr>']
    for a, b in ex:
        out.append(f'<tr><td style="vertical-align:top"><span style="{SP}">{a}</span></td><td><span style="{SP}">'
                   f'{escape(b)}</span></td></tr>')
    out.append("</table>")
    d.add("\n".join(out), 600)
    d.p("* Furnished herewith and not deemed filed.", align="left")
    d.item("SIGNATURES", key="sig")
    d.p("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this "
        "report to be signed on its behalf by the undersigned thereunto duly authorized.")
    d.add(f'<table style="width:100%;margin-top:10pt"><tr><td style="width:50%"></td><td><span style="{SP}">'
          f'HALBERD OUTDOOR PRODUCTS, INC.</span></td></tr><tr><td><span style="{SP}">Date: November 5, 2025</span>'
          f'</td><td><span style="{SP}">By: /s/ Serena J. Whitlock<br/>Serena J. Whitlock<br/>Executive Vice '
          f'President and Chief Financial Officer<br/>(Principal Financial Officer)</span></td></tr><tr><td><span '
          f'style="{SP}">Date: November 5, 2025</span></td><td><span style="{SP}">By: /s/ Owen M. Kavanagh<br/>'
          f'Owen M. Kavanagh<br/>Vice President and Corporate Controller<br/>(Principal Accounting Officer)</span>'
          '</td></tr></table>', 400)


def build():
    d = _render(None)
    d = _render(d.marks)
    html = d.html()
    return FILE, html.encode("utf-8"), None, d.page - 1


def _render(toc):
    d = Doc(toc)
    cover(d)
    contents(d)
    statements(d)
    notes(d)
    mdna(d)
    part2(d)
    return d


def figures():
    """Key figures, for writing questions."""
    return dict(SALES=SALES, GP=GP, OI=OI, NI=NI, EPS_D=[round(x, 2) for x in EPS_D], COMPREH=COMPREH,
                SEG_PA=SEG_PA, SOI_PA=SOI_PA, GEO_AP=GEO_AP, CFO=CFO, CFI=CFI, CFF=CFF, END=END, INV=INV, TA=TA,
                TL=TL, EQ=EQ, OTHL=OTHL, RE=RE, APIC=APIC, AOCI=AOCI, GEO_EU=GEO_EU,
                GM=[round(g / s * 100, 1) for g, s in zip(GP, SALES)])
