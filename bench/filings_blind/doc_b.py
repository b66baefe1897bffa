"""Document B: a quarterly report on Form 10-Q for the quarter ended September 30, 2025, as one EDGAR HTML file
in an older financial-printer style (Copperline Logistics, Inc., a truckload / intermodal / brokerage carrier).

Markup: <p> and <font face=... size=2> with <b> for bold; Item headings are bold <p>s ("Item 2. Management's
..."); MD&A sub-headings are bold-italic; the notes are "Note 3 &#8212; Debt" in bold. Financial tables are
plain <table>s where each amount column is three cells ($ | number | closing parenthesis), negatives are
"(4,102" + ")", empty cells hold &nbsp;, and column heads use colspans ("Three Months Ended September 30,"
over "2025 | 2024"). Printed pages end with a centred page number and an <hr> with page-break-after."""

from __future__ import annotations

from html import escape

FILE = "cplx-20250930.htm"
FONT = '<font face="Times New Roman" size="2">'


class Doc:
    def __init__(self, toc_pages=None):
        self.parts: list[str] = []
        self.page = 0
        self.chars = 0
        self.marks: dict[str, int] = {}
        self.toc_pages = toc_pages or {}

    def mark(self, key):
        self.marks[key] = self.page + 1

    def add(self, html, n=0):
        self.parts.append(html + "\n")
        self.chars += n
        if self.chars > 3400:
            self.page_break()

    def page_break(self):
        self.page += 1
        self.parts.append(f'<p align="center" style="margin-top:12pt">{FONT}{self.page}</font></p>\n'
                          '<hr noshade size="1" style="page-break-after:always">\n')
        self.chars = 0

    def p(self, text, lead=None, align="justify", indent=True):
        ind = "text-indent:3%;" if indent else ""
        lead_html = f"<b><i>{escape(lead)}</i></b> " if lead else ""
        self.add(f'<p style="margin-top:6pt;margin-bottom:0pt;{ind}" align="{align}">{FONT}{lead_html}'
                 f'{escape(text)}</font></p>', len(text) + 40)

    def center(self, text, bold=True, top=0):
        t = f"<b>{escape(text)}</b>" if bold else escape(text)
        self.add(f'<p align="center" style="margin-top:{top}pt;margin-bottom:0pt">{FONT}{t}</font></p>', 60)

    def part(self, text):
        self.add(f'<p align="center" style="margin-top:12pt;margin-bottom:0pt">{FONT}<b>{escape(text)}</b>'
                 f'</font></p>', 60)

    def item(self, label, title, new_page=False):
        if new_page and self.chars:
            self.page_break()
        self.add(f'<p style="margin-top:12pt;margin-bottom:0pt">{FONT}<b>{escape(label)}&nbsp;&nbsp;'
                 f'{escape(title)}</b></font></p>', 80)

    def sub(self, text):
        self.add(f'<p style="margin-top:10pt;margin-bottom:0pt">{FONT}<b><i>{escape(text)}</i></b></font></p>',
                 60)

    def note(self, num, title):
        self.add(f'<p style="margin-top:12pt;margin-bottom:0pt">{FONT}<b>Note {num} &#8212; '
                 f'{escape(title)}</b></font></p>', 60)

    def table(self, head, rows, bold=(), indent=None, widths=None):
        """``head``: list of header rows, each a list of (text, span_in_amount_columns); ``rows``: label +
        amount strings ("$ 1,234", "(4,102)", "" or "-")."""
        indent = indent or {}
        ncol = max(len(r) for r in rows) - 1
        out = ['<table cellspacing="0" cellpadding="0" width="100%" border="0" style="margin-top:8pt">',
               '<tr><td width="52%"></td>' + "".join('<td width="2%"></td><td width="1%"></td>'
                                                    '<td width="8%"></td><td width="1%"></td>' for _ in
                                                    range(ncol)) + "</tr>"]
        for hrow in head:
            cells = ['<td valign="bottom">&nbsp;</td>']
            for text, span in hrow:
                cells.append('<td>&nbsp;</td>')
                cs = span * 4 - 1
                if text:
                    cells.append(f'<td colspan="{cs}" align="center" valign="bottom" style="border-bottom:1px '
                                 f'solid #000000">{FONT}<b>{escape(text)}</b></font></td>')
                else:
                    cells.append(f'<td colspan="{cs}">&nbsp;</td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        for r, row in enumerate(rows):
            b0, b1 = ("<b>", "</b>") if r in bold else ("", "")
            pad = indent.get(r, 0)
            bg = ' bgcolor="#cceeff"' if r % 2 == 0 else ""
            cells = [f'<td valign="top"{bg}><p style="margin-left:{pad}pt;text-indent:-6pt;margin-top:0;'
                     f'margin-bottom:0">{FONT}{b0}{escape(row[0])}{b1}</font></p></td>']
            for cell in row[1:]:
                dollar = "$" if cell.startswith("$") else ""
                num = cell[1:].strip() if dollar else cell
                close = ""
                if num.startswith("(") and num.endswith(")"):
                    num, close = num[:-1], ")"
                cells.append(f'<td{bg}>&nbsp;</td>')
                cells.append(f'<td valign="bottom"{bg}>{FONT}{b0}{dollar or "&nbsp;"}{b1}</font></td>')
                cells.append(f'<td valign="bottom" align="right"{bg}>{FONT}{b0}{escape(num) or "&nbsp;"}{b1}'
                             f'</font></td>')
                cells.append(f'<td valign="bottom" nowrap{bg}>{FONT}{b0}{close or "&nbsp;"}{b1}</font></td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</table>")
        self.add("\n".join(out), 55 * len(rows) + 40)

    def html(self) -> str:
        return ("<html>\n<head>\n<title>cplx-20250930</title>\n</head>\n<body bgcolor=\"white\">\n"
                + "".join(self.parts) + "</body>\n</html>\n")


QTR = [[("Three Months Ended September 30,", 2), ("Nine Months Ended September 30,", 2)],
       [("2025", 1), ("2024", 1), ("2025", 1), ("2024", 1)]]


def cover(d: Doc):
    d.center("UNITED STATES")
    d.center("SECURITIES AND EXCHANGE COMMISSION")
    d.center("Washington, D.C. 20549", bold=False)
    d.center("FORM 10-Q", top=12)
    d.p("[X] QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        indent=False)
    d.center("For the quarterly period ended September 30, 2025", bold=False)
    d.p("[ ] TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        indent=False)
    d.center("Commission File Number: 000-27791", bold=False)
    d.center("COPPERLINE LOGISTICS, INC.", top=12)
    d.center("(Exact name of registrant as specified in its charter)", bold=False)
    d.add(f'<table width="100%" cellspacing="0" cellpadding="0" style="margin-top:8pt"><tr><td align="center" '
          f'width="50%">{FONT}Missouri</font></td><td align="center" width="50%">{FONT}43-1689025</font></td>'
          f'</tr><tr><td align="center">{FONT}(State or other jurisdiction of incorporation)</font></td>'
          f'<td align="center">{FONT}(I.R.S. Employer Identification No.)</font></td></tr></table>', 100)
    d.center("8800 Ward Parkway, Kansas City, Missouri 64114", bold=False, top=8)
    d.center("(Address of principal executive offices) (Zip Code)", bold=False)
    d.center("(816) 555-0123", bold=False)
    d.p("Securities registered pursuant to Section 12(b) of the Act: Common Stock, $0.01 par value, trading "
        "symbol CPLX, The Nasdaq Stock Market LLC.", indent=False)
    d.p("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section "
        "13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) has been "
        "subject to such filing requirements for the past 90 days. Yes [X] No [ ]", indent=False)
    d.p("Large accelerated filer [X] Accelerated filer [ ] Non-accelerated filer [ ] Smaller reporting company "
        "[ ]", indent=False)
    d.p("As of October 24, 2025, the registrant had 32,061,518 shares of common stock outstanding.",
        indent=False)
    d.page_break()


def contents(d: Doc):
    d.center("COPPERLINE LOGISTICS, INC.")
    d.center("FORM 10-Q")
    d.center("TABLE OF CONTENTS", top=6)
    rows = [("PART I", "FINANCIAL INFORMATION", ""), ("Item 1.", "Financial Statements (Unaudited)", "is"),
            ("", "Condensed Consolidated Statements of Income", "is"),
            ("", "Condensed Consolidated Balance Sheets", "bs"),
            ("", "Condensed Consolidated Statements of Cash Flows", "cf"),
            ("", "Notes to Condensed Consolidated Financial Statements", "notes"),
            ("Item 2.", "Management's Discussion and Analysis of Financial Condition and Results of Operations",
             "mdna"),
            ("Item 3.", "Quantitative and Qualitative Disclosures About Market Risk", "i3"),
            ("Item 4.", "Controls and Procedures", "i4"), ("PART II", "OTHER INFORMATION", ""),
            ("Item 1.", "Legal Proceedings", "ii1"), ("Item 1A.", "Risk Factors", "ii1a"),
            ("Item 2.", "Unregistered Sales of Equity Securities and Use of Proceeds", "ii2"),
            ("Item 6.", "Exhibits", "ii6"), ("", "Signatures", "sig")]
    rows = [(a, b, str(d.toc_pages.get(k, "")) if k else "") for a, b, k in rows]
    out = ['<table width="100%" cellspacing="0" cellpadding="0" style="margin-top:8pt">',
           f'<tr><td width="12%"></td><td width="80%"></td><td width="8%" align="right">{FONT}<b>Page</b>'
           '</font></td></tr>']
    for a, b, c in rows:
        out.append(f'<tr><td valign="top">{FONT}<b>{escape(a)}</b></font></td><td valign="top">{FONT}'
                   f'{escape(b)}</font></td><td align="right" valign="bottom">{FONT}{c}</font></td></tr>')
    out.append("</table>")
    d.add("\n".join(out), 800)
    d.page_break()


def statements(d: Doc):
    d.part("PART I - FINANCIAL INFORMATION")
    d.item("Item 1.", "Financial Statements")
    d.mark("is")
    d.center("COPPERLINE LOGISTICS, INC.", top=8)
    d.center("CONDENSED CONSOLIDATED STATEMENTS OF INCOME")
    d.center("(Unaudited)", bold=False)
    d.center("(In thousands, except per share amounts)", bold=False)
    d.table(QTR, [
        ["Operating revenues", "$ 552,921", "$ 528,642", "$ 1,615,495", "$ 1,564,260"],
        ["Operating expenses:", "", "", "", ""],
        ["Salaries, wages and benefits", "168,340", "161,205", "497,880", "478,115"],
        ["Purchased transportation", "182,915", "175,480", "538,210", "519,640"],
        ["Fuel and fuel taxes", "54,206", "58,930", "162,415", "176,330"],
        ["Depreciation and amortization", "38,772", "36,415", "114,930", "107,905"],
        ["Operating supplies and maintenance", "24,118", "22,860", "71,206", "67,480"],
        ["Insurance and claims", "19,604", "17,944", "56,118", "52,776"],
        ["Other operating expenses", "21,717", "18,488", "59,829", "55,072"],
        ["Total operating expenses", "509,672", "491,322", "1,500,588", "1,457,318"],
        ["Operating income", "43,249", "37,320", "114,907", "106,942"],
        ["Interest expense", "(5,884)", "(6,720)", "(18,015)", "(20,448)"],
        ["Other income, net", "612", "385", "1,940", "1,102"],
        ["Income before income taxes", "37,977", "30,985", "98,832", "87,596"],
        ["Income tax expense", "9,305", "7,808", "24,510", "21,899"],
        ["Net income", "$ 28,672", "$ 23,177", "$ 74,322", "$ 65,697"],
        ["Earnings per share:", "", "", "", ""],
        ["Basic", "$ 0.89", "$ 0.70", "$ 2.29", "$ 1.99"],
        ["Diluted", "$ 0.88", "$ 0.70", "$ 2.28", "$ 1.98"],
        ["Weighted-average shares outstanding:", "", "", "", ""],
        ["Basic", "32,180", "32,876", "32,395", "32,990"],
        ["Diluted", "32,415", "33,102", "32,640", "33,210"],
        ["Dividends declared per share", "$ 0.24", "$ 0.22", "$ 0.72", "$ 0.66"]],
        bold={9, 10, 15}, indent={2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10, 8: 10, 9: 20, 17: 10, 18: 10,
                                  20: 10, 21: 10})
    d.p("See accompanying notes to condensed consolidated financial statements.", align="center", indent=False)
    d.page_break()

    d.center("COPPERLINE LOGISTICS, INC.")
    d.mark("bs")
    d.center("CONDENSED CONSOLIDATED BALANCE SHEETS")
    d.center("(In thousands, except share data)", bold=False)
    d.table([[("September 30, 2025", 1), ("December 31, 2024", 1)], [("(Unaudited)", 1), ("", 1)]], [
        ["ASSETS", "", ""],
        ["Current assets:", "", ""],
        ["Cash and cash equivalents", "$ 58,406", "$ 71,215"],
        ["Accounts receivable, net", "238,117", "226,480"],
        ["Prepaid expenses and other current assets", "31,902", "28,446"],
        ["Total current assets", "328,425", "326,141"],
        ["Property and equipment, net", "1,109,605", "1,098,335"],
        ["Operating lease right-of-use assets", "84,215", "88,907"],
        ["Goodwill", "126,440", "126,440"],
        ["Other assets", "22,317", "20,588"],
        ["Total assets", "$ 1,671,002", "$ 1,660,411"],
        ["LIABILITIES AND STOCKHOLDERS' EQUITY", "", ""],
        ["Current liabilities:", "", ""],
        ["Accounts payable", "$ 96,205", "$ 88,914"],
        ["Accrued wages and benefits", "41,880", "45,302"],
        ["Insurance and claims accruals", "38,416", "35,109"],
        ["Current portion of long-term debt", "40,000", "40,000"],
        ["Current operating lease liabilities", "21,330", "20,876"],
        ["Total current liabilities", "237,831", "230,201"],
        ["Long-term debt, less current portion", "275,000", "300,000"],
        ["Operating lease liabilities, less current portion", "63,885", "68,920"],
        ["Deferred income taxes", "214,702", "205,316"],
        ["Insurance and claims accruals, less current portion", "47,218", "44,630"],
        ["Total liabilities", "838,636", "849,067"],
        ["Stockholders' equity:", "", ""],
        ["Common stock, $0.01 par value; 100,000,000 shares authorized; 33,210,004 shares issued", "332", "332"],
        ["Additional paid-in capital", "298,415", "289,760"],
        ["Retained earnings", "653,447", "602,465"],
        ["Treasury stock, at cost", "(119,828)", "(81,213)"],
        ["Total stockholders' equity", "832,366", "811,344"],
        ["Total liabilities and stockholders' equity", "$ 1,671,002", "$ 1,660,411"]],
        bold={0, 10, 11, 23, 29, 30}, indent={2: 10, 3: 10, 4: 10, 5: 20, 13: 10, 14: 10, 15: 10, 16: 10,
                                              17: 10, 18: 20, 25: 10, 26: 10, 27: 10, 28: 10, 29: 20})
    d.p("See accompanying notes to condensed consolidated financial statements.", align="center", indent=False)
    d.page_break()

    d.center("COPPERLINE LOGISTICS, INC.")
    d.mark("cf")
    d.center("CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS")
    d.center("(Unaudited)", bold=False)
    d.center("(In thousands)", bold=False)
    d.table([[("Nine Months Ended September 30,", 2)], [("2025", 1), ("2024", 1)]], [
        ["Operating activities:", "", ""],
        ["Net income", "$ 74,322", "$ 65,697"],
        ["Adjustments to reconcile net income to net cash provided by operating activities:", "", ""],
        ["Depreciation and amortization", "114,930", "107,905"],
        ["Deferred income taxes", "9,386", "8,410"],
        ["Stock-based compensation", "8,655", "7,920"],
        ["Gain on sale of property and equipment", "(6,402)", "(9,118)"],
        ["Changes in operating assets and liabilities:", "", ""],
        ["Accounts receivable", "(11,637)", "(8,904)"],
        ["Other assets and liabilities, net", "(2,304)", "3,475"],
        ["Net cash provided by operating activities", "186,950", "175,385"],
        ["Investing activities:", "", ""],
        ["Purchases of property and equipment", "(143,519)", "(164,220)"],
        ["Proceeds from sale of property and equipment", "30,715", "36,480"],
        ["Net cash used in investing activities", "(112,804)", "(127,740)"],
        ["Financing activities:", "", ""],
        ["Repayments under revolving credit facility", "(25,000)", "(10,000)"],
        ["Repayments of senior notes", "-", "(20,000)"],
        ["Dividends paid", "(23,340)", "(21,795)"],
        ["Repurchases of common stock", "(38,615)", "(12,480)"],
        ["Net cash used in financing activities", "(86,955)", "(64,275)"],
        ["Net decrease in cash and cash equivalents", "(12,809)", "(16,630)"],
        ["Cash and cash equivalents, beginning of period", "71,215", "62,904"],
        ["Cash and cash equivalents, end of period", "$ 58,406", "$ 46,274"]],
        bold={0, 10, 11, 14, 15, 20}, indent={1: 10, 2: 10, 3: 20, 4: 20, 5: 20, 6: 20, 7: 10, 8: 20, 9: 20,
                                              12: 10, 13: 10, 16: 10, 17: 10, 18: 10, 19: 10})
    d.p("See accompanying notes to condensed consolidated financial statements.", align="center", indent=False)
    d.page_break()


def notes(d: Doc):
    d.center("COPPERLINE LOGISTICS, INC.")
    d.mark("notes")
    d.center("NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS")
    d.center("(Unaudited)", bold=False)
    d.note(1, "Basis of Presentation")
    d.p("The accompanying unaudited condensed consolidated financial statements of Copperline Logistics, Inc. "
        "(\"Copperline,\" the \"Company,\" \"we\" or \"our\") have been prepared in accordance with accounting "
        "principles generally accepted in the United States for interim financial information. They should be "
        "read together with the audited consolidated financial statements in our Annual Report on Form 10-K for "
        "the year ended December 31, 2024. Results for interim periods are not necessarily indicative of results "
        "for the full year, in part because freight demand is seasonal.")
    d.note(2, "Segment Information")
    d.p("We report three segments: Truckload, which provides dry-van and temperature-controlled truckload "
        "service with Company tractors; Intermodal, which arranges door-to-door container shipments using rail "
        "carriers for the line-haul and our own drayage fleet; and Brokerage, which arranges truckload "
        "shipments with third-party carriers. Our chief operating decision maker evaluates segments based on "
        "operating revenues and operating income. Corporate and other includes unallocated corporate costs.")
    d.table(QTR, [
        ["Operating revenues:", "", "", "", ""],
        ["Truckload", "$ 312,480", "$ 298,115", "$ 921,306", "$ 884,570"],
        ["Intermodal", "148,225", "131,960", "418,814", "389,212"],
        ["Brokerage", "96,318", "102,447", "287,590", "301,884"],
        ["Intersegment eliminations", "(4,102)", "(3,880)", "(12,215)", "(11,406)"],
        ["Total operating revenues", "$ 552,921", "$ 528,642", "$ 1,615,495", "$ 1,564,260"],
        ["Operating income (loss):", "", "", "", ""],
        ["Truckload", "$ 28,905", "$ 24,310", "$ 79,402", "$ 70,915"],
        ["Intermodal", "16,118", "12,774", "41,236", "35,880"],
        ["Brokerage", "3,442", "5,106", "9,873", "14,602"],
        ["Corporate and other", "(5,216)", "(4,870)", "(15,604)", "(14,455)"],
        ["Total operating income", "$ 43,249", "$ 37,320", "$ 114,907", "$ 106,942"]],
        bold={0, 5, 6, 11}, indent={1: 10, 2: 10, 3: 10, 4: 10, 5: 20, 7: 10, 8: 10, 9: 10, 10: 10, 11: 20})
    d.note(3, "Debt")
    d.p("Long-term debt consisted of senior notes with a total principal amount of $315.0 million at September "
        "30, 2025: $40.0 million of 4.12% Series A notes due May 2026, $150.0 million of 4.48% Series B notes due "
        "2029 and $125.0 million of 5.05% Series C notes due 2032. At December 31, 2024, long-term debt also "
        "included $25.0 million of borrowings under our revolving credit facility, which we repaid in the first "
        "half of 2025.")
    d.p("Our unsecured revolving credit facility provides for borrowings of up to $400.0 million and matures in "
        "June 2029. Borrowings bear interest at Term SOFR plus 1.125% to 1.625% based on our leverage ratio. At "
        "September 30, 2025, there were no borrowings outstanding under the facility and $18.6 million of "
        "standby letters of credit issued under it, leaving $381.4 million available. We were in compliance "
        "with all covenants under the facility and the note agreements.")
    d.note(4, "Income Taxes")
    d.p("Our effective income tax rate was 24.5% for the three months ended September 30, 2025 and 25.2% for the "
        "three months ended September 30, 2024, and 24.8% and 25.0% for the respective nine-month periods. The "
        "rates differ from the federal statutory rate of 21% primarily because of state income taxes and "
        "non-deductible per diem allowances paid to drivers.")
    d.note(5, "Stockholders' Equity")
    d.p("In May 2024, our Board of Directors authorized the repurchase of up to $150.0 million of our common "
        "stock. During the nine months ended September 30, 2025, we repurchased 1,012,350 shares for $38.6 "
        "million, including 412,600 shares for $15.9 million during the third quarter. At September 30, 2025, "
        "$98.9 million remained available under the authorization.")
    d.note(6, "Commitments and Contingencies")
    d.p("At September 30, 2025, we had commitments to purchase revenue equipment of $212.7 million, net of "
        "committed trade-in values, substantially all for delivery through the end of 2026. We are party to "
        "routine litigation incidental to our business, primarily involving claims for personal injury and "
        "property damage incurred in the transportation of freight.")
    d.note(7, "Subsequent Event")
    d.p("On October 21, 2025, our Board of Directors declared a quarterly cash dividend of $0.24 per share of "
        "common stock, payable on November 14, 2025 to stockholders of record at the close of business on "
        "October 31, 2025.")


def mdna(d: Doc):
    d.item("Item 2.", "Management's Discussion and Analysis of Financial Condition and Results of Operations",
           new_page=True)
    d.mark("mdna")
    d.p("The following discussion should be read with our condensed consolidated financial statements and the "
        "notes thereto in Item 1 and with our Annual Report on Form 10-K for the year ended December 31, 2024. "
        "Comparisons are to the corresponding period of 2024 unless otherwise noted.")
    d.sub("Overview")
    d.p("Copperline Logistics is a transportation services company headquartered in Kansas City, Missouri. We "
        "operate a fleet of Company-owned tractors and trailers in our Truckload segment, a container and "
        "drayage fleet in our Intermodal segment, and a non-asset Brokerage segment. Freight market conditions "
        "remained soft in the third quarter of 2025, with excess truckload capacity continuing to pressure spot "
        "rates, although contract rates in our Truckload and Intermodal segments improved modestly.")
    d.sub("Third Quarter 2025 Summary")
    d.p("Total operating revenues increased 4.6% to $552.9 million in the third quarter of 2025 from $528.6 "
        "million in the third quarter of 2024. Operating income increased 15.9% to $43.2 million, and net income "
        "was $28.7 million, or $0.88 per diluted share, compared with $23.2 million, or $0.70 per diluted share, "
        "in the third quarter of 2024. For the first nine months of 2025, operating revenues were $1.62 billion "
        "and diluted earnings per share were $2.28.")
    d.sub("Segment Results")
    d.p("Truckload operating revenues increased 4.8% to $312.5 million, as revenue per tractor per week rose "
        "7.5% while the average number of tractors in service declined 2.5%. Truckload operating income "
        "increased to $28.9 million, and the segment's operating ratio improved to 90.7% from 91.8% in the third "
        "quarter of 2024. Revenue per tractor per week also increased 1.9% sequentially from the second quarter "
        "of 2025.", lead="Truckload.")
    d.p("Intermodal operating revenues increased 12.3% to $148.2 million, driven by a 10.4% increase in loads, "
        "including new cross-border business with Mexico, and higher revenue per load. Intermodal operating "
        "income increased to $16.1 million from $12.8 million.", lead="Intermodal.")
    d.p("Brokerage operating revenues decreased 6.0% to $96.3 million, reflecting an 8.7% decline in loads as we "
        "exited lower-margin spot freight. Brokerage operating income declined to $3.4 million from $5.1 million "
        "because purchased transportation costs per load rose faster than rates charged to customers.",
        lead="Brokerage.")
    d.add('<p style="margin-top:8pt;margin-bottom:0pt">' + FONT + "<b>Selected operating statistics</b></font></p>",
          30)
    d.table([[("Three Months Ended September 30,", 2)], [("2025", 1), ("2024", 1)]], [
        ["Truckload average tractors in service", "6,840", "7,015"],
        ["Truckload revenue per tractor per week", "$ 3,514", "$ 3,269"],
        ["Truckload operating ratio", "90.7%", "91.8%"],
        ["Intermodal loads", "112,480", "101,905"],
        ["Intermodal containers at end of period", "18,200", "17,450"],
        ["Brokerage loads", "58,210", "63,744"]])
    d.sub("Operating Expenses")
    d.p("Salaries, wages and benefits increased 4.4%, reflecting driver pay increases implemented in January "
        "2025 and higher health insurance costs. Fuel and fuel taxes decreased 8.0% because of lower diesel "
        "prices, which also reduced fuel surcharge revenue. Insurance and claims expense increased 9.3% due to "
        "higher severity of auto liability claims.")
    d.sub("Liquidity and Capital Resources")
    d.p("Our primary sources of liquidity are cash generated from operations, proceeds from the sale of used "
        "equipment and our $400.0 million revolving credit facility. Net cash provided by operating activities "
        "was $187.0 million for the first nine months of 2025, compared with $175.4 million in the same period "
        "of 2024. Purchases of property and equipment were $143.5 million and proceeds from equipment sales "
        "were $30.7 million, resulting in net capital expenditures of $112.8 million.")
    d.p("During the third quarter of 2025 we repurchased 412,600 shares of common stock for $15.9 million under "
        "our share repurchase program, bringing repurchases for the first nine months of 2025 to $38.6 million. "
        "We paid dividends of $23.3 million during the first nine months of 2025. On October 21, 2025, our Board "
        "declared a quarterly cash dividend of $0.24 per share, payable on November 14, 2025 to stockholders of "
        "record on October 31, 2025.")
    d.sub("Outlook")
    d.p("Based on results through September and our expectations for the fourth quarter, we now expect "
        "full-year 2025 diluted earnings per share of $3.05 to $3.20, compared with our previous range of $3.00 "
        "to $3.25. We continue to expect net capital expenditures of $190 million to $210 million for 2025 and "
        "an effective tax rate of 24.5% to 25.5%. We expect the average number of tractors in our Truckload "
        "fleet at the end of 2025 to be approximately flat with the third quarter.")
    d.sub("Critical Accounting Estimates")
    d.p("There have been no material changes to the critical accounting estimates described in our Annual Report "
        "on Form 10-K for the year ended December 31, 2024.")


def rest(d: Doc):
    d.item("Item 3.", "Quantitative and Qualitative Disclosures About Market Risk")
    d.mark("i3")
    d.p("We are exposed to changes in the price of diesel fuel, which we partially offset through fuel surcharge "
        "programs with customers. Our senior notes bear fixed rates, and borrowings under our revolving credit "
        "facility, when outstanding, bear variable rates. There have been no material changes in our market "
        "risk since December 31, 2024.")
    d.item("Item 4.", "Controls and Procedures")
    d.mark("i4")
    d.p("Our management, with the participation of our Chief Executive Officer and Chief Financial Officer, "
        "concluded that our disclosure controls and procedures were effective as of September 30, 2025. There "
        "were no changes in our internal control over financial reporting during the third quarter of 2025 that "
        "materially affected, or are reasonably likely to materially affect, our internal control.")
    d.part("PART II - OTHER INFORMATION")
    d.item("Item 1.", "Legal Proceedings")
    d.mark("ii1")
    d.p("Information about legal proceedings is included in Note 6 to the condensed consolidated financial "
        "statements.")
    d.item("Item 1A.", "Risk Factors")
    d.mark("ii1a")
    d.p("There have been no material changes to the risk factors disclosed in our Annual Report on Form 10-K for "
        "the year ended December 31, 2024.")
    d.item("Item 2.", "Unregistered Sales of Equity Securities and Use of Proceeds")
    d.mark("ii2")
    d.p("The following table summarizes our repurchases of common stock during the third quarter of 2025:")
    d.table([[("Total Number of Shares Purchased", 1), ("Average Price Paid per Share", 1),
              ("Shares Purchased Under the Program", 1), ("Dollar Value Remaining (in thousands)", 1)]], [
        ["July 1 - July 31, 2025", "132,400", "$ 39.12", "132,400", "$ 109,625"],
        ["August 1 - August 31, 2025", "148,900", "$ 37.86", "148,900", "$ 103,988"],
        ["September 1 - September 30, 2025", "131,300", "$ 38.71", "131,300", "$ 98,905"],
        ["Total", "412,600", "$ 38.53", "412,600", ""]], bold={3})
    d.item("Item 6.", "Exhibits")
    d.mark("ii6")
    d.p("31.1 Certification of Chief Executive Officer; 31.2 Certification of Chief Financial Officer; 32.1 "
        "Section 1350 Certifications; 101 Inline XBRL documents.", indent=False)
    d.center("SIGNATURES", top=12)
    d.mark("sig")
    d.p("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this "
        "report to be signed on its behalf by the undersigned thereunto duly authorized.")
    d.p("COPPERLINE LOGISTICS, INC. By: /s/ Marisol T. Okafor, Executive Vice President and Chief Financial "
        "Officer. Date: November 4, 2025", indent=False)
    d.page_break()


def _lay(toc_pages=None) -> Doc:
    d = Doc(toc_pages)
    cover(d)
    contents(d)
    statements(d)
    notes(d)
    mdna(d)
    rest(d)
    return d


def build():
    # two passes: the first finds the page of each TOC entry, the second prints them
    d = _lay(_lay().marks)
    return FILE, d.html().encode("utf-8"), [], d.page
