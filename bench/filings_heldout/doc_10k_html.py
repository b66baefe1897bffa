"""Document 4: a Form 10-K as EDGAR inline-XBRL HTML in the style of Workiva output (Calder Scientific Corp.).

No <h1>-<h6>: every line is a <div> holding <span>s with inline styles (font-weight:700 for bold); the Item
headings are two-cell tables (label cell + title cell); sub-headings are bold spans, sub-sub-headings italic
(bold italic in MD&A, plain italic in the notes); run-in bold lead-ins start some paragraphs; every printed page
starts with a 'Table of Contents' link and ends with a footer line and an <hr> page break; the ix:header is a
hidden div."""

from __future__ import annotations

from html import escape

from prose import BUSINESS, HUMAN, MDA, NOTES, RISK, Prose

FONT = "font-family:'Arial',sans-serif;font-size:10pt;line-height:120%;color:#000000"
PR = Prose(4, "Calder")


class Doc:
    def __init__(self):
        self.parts: list[str] = []
        self.truth: list[tuple[int, str]] = []
        self.chars = 0
        self.page = 0
        self.anchor = 0
        self.toc_ids: list[tuple[str, str, str, int]] = []  # (label, title, id, page)

    # a page ends when ~3,600 characters of text have been written
    def _account(self, n):
        self.chars += n
        if self.chars > 3600:
            self.page_break()

    def page_break(self):
        self.page += 1
        self.parts.append(
            f'<div style="height:36pt;position:relative;width:100%"><div style="bottom:0;position:absolute;'
            f'width:100%"><div style="text-align:center"><span style="{FONT};font-size:8pt">Calder Scientific '
            f'Corporation | 2024 Form 10-K | {self.page}</span></div></div></div><div id="pb{self.page}"></div>'
            f'<hr style="page-break-after:always"/><div style="min-height:42.75pt;width:100%"><div '
            f'style="padding-left:45pt"><span><a href="#toc" style="{FONT};color:#0000ff;font-size:8pt;'
            f'text-decoration:underline">Table of Contents</a></span></div></div>')
        self.chars = 0

    def raw(self, html, n=0):
        self.parts.append(html)
        self._account(n)

    def new_id(self):
        self.anchor += 1
        return f"i7c1e3f0a9b2d4e6f_{self.anchor}"

    def div(self, spans, top=6, align="justify", indent=0):
        inner = "".join(f'<span style="{FONT}{";" + st if st else ""}">{escape(t)}</span>' for t, st in spans)
        style = f"margin-top:{top}pt;text-align:{align}" + (f";text-indent:{indent}pt" if indent else "")
        self.raw(f'<div style="{style}">{inner}</div>', sum(len(t) for t, _ in spans))

    def p(self, text, lead=None):
        spans = ([(lead, "font-weight:700")] if lead else []) + [((" " if lead else "") + text, "")]
        self.div(spans, top=9, indent=18)

    def heading(self, text, depth, style="font-weight:700", align="left", top=12, toc=None):
        hid = self.new_id()
        self.raw(f'<div id="{hid}" style="margin-top:{top}pt;text-align:{align}"><span style="{FONT};{style}">'
                 f'{escape(text)}</span></div>', 80)
        self.truth.append((depth, text))
        if toc:
            self.toc_ids.append(("", text, hid, self.page + 1))

    def item(self, label, title):
        if self.chars > 2600:
            self.page_break()
        hid = self.new_id()
        self.raw(f'<div id="{hid}" style="margin-top:12pt"><table style="border-collapse:collapse;'
                 f'display:inline-table;vertical-align:top;width:100%"><tr><td style="width:1%;'
                 f'padding:0 1pt;vertical-align:top"></td><td style="width:10.5%;padding:0 1pt;vertical-align:top">'
                 f'<div><span style="{FONT};font-weight:700">{escape(label)}</span></div></td><td style="width:88%;'
                 f'padding:0 1pt;vertical-align:top"><div><span style="{FONT};font-weight:700">{escape(title)}'
                 f'</span></div></td></tr></table></div>', 120)
        self.truth.append((2, f"{label} {title}"))
        self.toc_ids.append((label, title, hid, self.page + 1))

    def part(self, text):
        if self.chars > 1800:
            self.page_break()
        hid = self.new_id()
        self.raw(f'<div id="{hid}" style="margin-top:18pt;text-align:center"><span style="{FONT};font-weight:700">'
                 f'{escape(text)}</span></div>', 100)
        self.truth.append((1, text))
        self.toc_ids.append((text, "", hid, self.page + 1))

    def table(self, rows, bold_rows=(), title_row=None):
        out = ['<div style="margin-top:9pt;text-align:center"><table style="border-collapse:collapse;'
               'display:inline-table;margin-bottom:5pt;vertical-align:text-bottom;width:100%">']
        ncol = len(rows[0])
        for r, row in enumerate(rows):
            cells = []
            b = ";font-weight:700" if r in bold_rows else ""
            for c, cell in enumerate(row):
                if c == 0:
                    cells.append(f'<td colspan="3" style="padding:2px 1pt;text-align:left;vertical-align:bottom">'
                                 f'<span style="{FONT}{b}">{escape(cell)}</span></td>')
                else:
                    dollar, num = (cell[:1], cell[1:].strip()) if cell.startswith("$") else ("", cell)
                    border = ";border-bottom:1pt solid #000" if r == 0 else ""
                    cells.append(f'<td style="padding:2px 1pt;text-align:left;vertical-align:bottom{border}">'
                                 f'<span style="{FONT}{b}">{escape(dollar)}</span></td><td style="padding:2px 1pt;'
                                 f'text-align:right;vertical-align:bottom{border}"><span style="{FONT}{b}">'
                                 f'{escape(num)}</span></td><td style="padding:0 1pt"></td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</table></div>")
        self.raw("".join(out), 60 * len(rows) + 10 * ncol)


def build_body(d: Doc):
    d.p("Unless otherwise indicated or the context otherwise requires, the terms \u201cCalder,\u201d the "
        "\u201cCompany,\u201d \u201cwe,\u201d \u201cus\u201d and \u201cour\u201d refer to Calder Scientific "
        "Corporation and its consolidated subsidiaries. Our fiscal year ends on September 30.")
    d.part("PART I")
    d.item("Item 1.", "Business")
    d.heading("General", 3)
    for t in PR.paras(BUSINESS, 2):
        d.p(t)
    d.heading("Products and Services", 3)
    d.p("We report our results in three segments. See Note 14, Segment Information, of the Notes to "
        "Consolidated Financial Statements in Part II, Item 8 of this Annual Report for financial information "
        "about our segments.")
    d.p(PR.sents(BUSINESS, 3), lead="Chromatography.")
    d.p(PR.sents(BUSINESS, 2), lead="Mass Spectrometry.")
    d.p(PR.sents(BUSINESS, 3), lead="Services and Consumables.")
    d.heading("Competition", 3)
    for t in PR.paras(BUSINESS, 1):
        d.p(t)
    d.heading("Government Regulation", 3)
    for t in PR.paras(BUSINESS, 1):
        d.p(t)
    d.heading("Human Capital Resources", 3)
    d.heading("Employees", 4, style="font-style:italic;font-weight:700")
    d.p(PR.sents(HUMAN, 3))
    d.heading("Culture and Engagement", 4, style="font-style:italic;font-weight:700")
    d.p(PR.sents(HUMAN, 3))
    d.heading("Information about our Executive Officers", 3)
    d.table([["Name", "Age", "Position"], ["Miriam A. Castellanos", "57", "Chair, President and CEO"],
             ["Jonah P. Whitfield", "49", "Executive Vice President and CFO"],
             ["Adaeze O. Nwankwo", "52", "Senior Vice President, General Counsel"]], bold_rows={0})
    d.item("Item 1A.", "Risk Factors")
    d.p("Investing in our common stock involves risk. The risks below could materially affect our business, and "
        "should be read together with Part II, Item 7, \u201cManagement\u2019s Discussion and Analysis of Financial "
        "Condition and Results of Operations,\u201d and our financial statements.")
    d.heading("Risks Related to Our Operations", 3, style="font-weight:700;text-decoration:underline")
    for lead in ["We face intense competition, and if we fail to compete effectively our revenue could decline.",
                 "Disruption at our principal manufacturing facilities could harm our ability to supply customers."]:
        d.heading(lead, 4, style="font-style:italic;font-weight:700")  # stand-alone bold-italic risk captions
        d.p(PR.sents(RISK, 3))
    d.heading("Risks Related to Regulation and Litigation", 3, style="font-weight:700;text-decoration:underline")
    for lead in ["Changes in trade policy, including tariffs, could increase our costs.",
                 "We may be subject to product liability or intellectual property claims."]:
        d.heading(lead, 4, style="font-style:italic;font-weight:700")
        d.p(PR.sents(RISK, 2))
    d.item("Item 1B.", "Unresolved Staff Comments")
    d.p("None.")
    d.item("Item 1C.", "Cybersecurity")
    d.p("Our information security program is overseen by the Audit Committee and managed by our Chief "
        "Information Officer. We assess cybersecurity threats as part of our enterprise risk management process and "
        "engage outside firms to test our controls. As of the date of this report, we are not aware of any "
        "cybersecurity incident that has materially affected our business.")
    d.item("Item 2.", "Properties")
    d.p("Our headquarters are located in Waltham, Massachusetts, in a leased facility of approximately 180,000 "
        "square feet. We own manufacturing facilities in Milford, Massachusetts, Cork, Ireland and Penang, Malaysia. "
        "We believe our facilities are suitable and adequate for our present needs.")
    d.item("Item 3.", "Legal Proceedings")
    d.p("See Note 12, Commitments and Contingencies, of the Notes to Consolidated Financial Statements.")
    d.item("Item 4.", "Mine Safety Disclosures")
    d.p("Not applicable.")
    d.part("PART II")
    d.item("Item 5.", "Market for Registrant\u2019s Common Equity, Related Stockholder Matters and Issuer Purchases "
                      "of Equity Securities")
    d.p("Our common stock is listed on the New York Stock Exchange under the symbol \u201cCLDR.\u201d As of "
        "November 8, 2024, there were 1,214 holders of record of our common stock.")
    d.heading("Stock Performance Graph", 3)
    d.p("The following graph compares the cumulative five-year total return on our common stock with the S&P 500 "
        "Index and the S&P Life Sciences Tools & Services Index, assuming an investment of $100 on September 30, "
        "2019 and the reinvestment of dividends.")
    d.table([["", "2019", "2020", "2021", "2022", "2023", "2024"],
             ["Calder Scientific Corporation", "$ 100", "$ 118", "$ 161", "$ 127", "$ 142", "$ 170"],
             ["S&P 500 Index", "$ 100", "$ 115", "$ 150", "$ 127", "$ 154", "$ 210"]], bold_rows={0})
    d.item("Item 6.", "[Reserved]")
    d.item("Item 7.", "Management\u2019s Discussion and Analysis of Financial Condition and Results of Operations")
    d.heading("Executive Overview", 3)
    d.p(PR.sents(MDA, 4))
    d.heading("Results of Operations", 3)
    d.table([["(Dollars in millions)", "Fiscal 2024", "Fiscal 2023", "% Change"],
             ["Revenue", "$ 2,018.4", "$ 1,942.7", "4 %"], ["Gross margin", "56.2 %", "55.1 %", ""],
             ["Operating income", "$ 401.9", "$ 366.0", "10 %"]], bold_rows={0})
    d.heading("Revenue", 4, style="font-style:italic;font-weight:700")
    d.p(PR.sents(MDA, 3))
    d.heading("Operating Expenses", 4, style="font-style:italic;font-weight:700")
    d.p(PR.sents(MDA, 3))
    d.heading("Liquidity and Capital Resources", 3)
    for t in PR.paras(MDA, 2):
        d.p(t)
    d.heading("Critical Accounting Estimates", 3)
    d.p(PR.sents(MDA, 2))
    d.item("Item 7A.", "Quantitative and Qualitative Disclosures About Market Risk")
    d.p("We are exposed to market risk from changes in foreign currency exchange rates and interest rates. See "
        "\u201cLiquidity and Capital Resources\u201d in Item 7 and Note 8 to the consolidated financial statements "
        "for a description of our derivative instruments.")
    d.item("Item 8.", "Financial Statements and Supplementary Data")
    d.heading("Report of Independent Registered Public Accounting Firm", 3, align="center")
    d.p("To the Shareholders and Board of Directors of Calder Scientific Corporation:")
    d.heading("Opinion on the Financial Statements", 4, style="font-style:italic;font-weight:700")
    d.p("We have audited the accompanying consolidated balance sheets of Calder Scientific Corporation and "
        "subsidiaries as of September 30, 2024 and 2023, the related consolidated statements of operations, "
        "comprehensive income, shareholders\u2019 equity and cash flows for each of the years in the three-year "
        "period ended September 30, 2024, and the related notes. In our opinion, the consolidated financial "
        "statements present fairly, in all material respects, the financial position of the Company.")
    d.heading("Critical Audit Matter", 4, style="font-style:italic;font-weight:700")
    d.p("The critical audit matter communicated below is a matter arising from the current period audit that was "
        "communicated to the audit committee. We identified the evaluation of revenue for multiple-element "
        "arrangements as a critical audit matter.")
    d.div([("/s/ Pemberton Ashby LLP", "")], top=9)
    d.div([("Boston, Massachusetts", "")], top=0)
    d.div([("November 19, 2024", "")], top=0)
    d.page_break()
    d.div([("CALDER SCIENTIFIC CORPORATION", "font-weight:700")], align="center")
    d.heading("CONSOLIDATED STATEMENTS OF OPERATIONS", 3, align="center", top=0)
    d.div([("(In thousands, except per share amounts)", "")], top=0, align="center")
    d.table([["Years Ended September 30,", "2024", "2023", "2022"],
             ["Product revenue", "$ 1,412,902", "$ 1,371,466", "$ 1,298,010"],
             ["Service revenue", "605,498", "571,234", "532,881"], ["Total revenue", "2,018,400", "1,942,700",
                                                                  "1,830,891"],
             ["Cost of revenue", "884,061", "872,272", "826,300"], ["Research and development", "148,320", "139,870",
                                                                    "131,006"],
             ["Selling, general and administrative", "584,119", "564,558", "540,213"],
             ["Operating income", "401,900", "366,000", "333,372"], ["Net income", "$ 318,644", "$ 287,015",
                                                                     "$ 259,480"],
             ["Diluted earnings per share", "$ 5.41", "$ 4.86", "$ 4.37"]], bold_rows={0})
    d.heading("CONSOLIDATED BALANCE SHEETS", 3, align="center", top=18)
    d.div([("(In thousands)", "")], top=0, align="center")
    d.table([["September 30,", "2024", "2023"], ["Cash and cash equivalents", "$ 512,804", "$ 433,190"],
             ["Accounts receivable, net", "398,115", "381,602"], ["Inventories", "287,540", "301,877"],
             ["Total current assets", "1,266,930", "1,172,044"], ["Goodwill", "1,108,420", "1,101,988"],
             ["Total assets", "$ 3,115,682", "$ 2,988,305"], ["Total current liabilities", "$ 512,330", "$ 498,121"],
             ["Long-term debt", "598,000", "698,000"], ["Total shareholders\u2019 equity", "1,802,916", "1,589,774"],
             ["Total liabilities and shareholders\u2019 equity", "$ 3,115,682", "$ 2,988,305"]], bold_rows={0})
    d.page_break()
    notes = [("Note 1.", "Description of Business and Summary of Significant Accounting Policies",
              ["Basis of Presentation", "Revenue Recognition", "Inventories"]),
             ("Note 2.", "Revenue", []), ("Note 3.", "Acquisitions", []), ("Note 4.", "Inventories", []),
             ("Note 5.", "Goodwill and Intangible Assets", ["Goodwill", "Intangible Assets"]),
             ("Note 6.", "Debt", []), ("Note 7.", "Leases", []), ("Note 8.", "Derivative Instruments", []),
             ("Note 9.", "Income Taxes", []), ("Note 10.", "Stock-Based Compensation", []),
             ("Note 11.", "Earnings per Share", []), ("Note 12.", "Commitments and Contingencies", []),
             ("Note 13.", "Accumulated Other Comprehensive Loss", []), ("Note 14.", "Segment Information", [])]
    for label, title, subs in notes:
        d.heading(f"{label} {title}", 3, top=12)
        for s in subs:
            d.heading(s, 4, style="font-style:italic")
            d.p(PR.sents(NOTES, 2))
        if not subs:
            d.p(PR.sents(NOTES, 2 + len(title) % 2))
        if label == "Note 4.":
            d.table([["September 30,", "2024", "2023"], ["Raw materials", "$ 118,227", "$ 126,004"],
                     ["Work in process", "41,902", "44,315"], ["Finished goods", "127,411", "131,558"],
                     ["Inventories", "$ 287,540", "$ 301,877"]], bold_rows={0})
    d.item("Item 9.", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure")
    d.p("None.")
    d.item("Item 9A.", "Controls and Procedures")
    d.heading("Evaluation of Disclosure Controls and Procedures", 3)
    d.p("Our management, with the participation of our Chief Executive Officer and Chief Financial Officer, "
        "concluded that our disclosure controls and procedures were effective as of September 30, 2024.")
    d.heading("Management\u2019s Annual Report on Internal Control over Financial Reporting", 3)
    d.p("Management concluded that our internal control over financial reporting was effective as of September 30, "
        "2024, based on the criteria in Internal Control \u2014 Integrated Framework (2013).")
    d.item("Item 9B.", "Other Information")
    d.p("None.")
    d.item("Item 9C.", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections")
    d.p("Not applicable.")
    d.part("PART III")
    for label, title in [("Item 10.", "Directors, Executive Officers and Corporate Governance"),
                         ("Item 11.", "Executive Compensation"),
                         ("Item 12.", "Security Ownership of Certain Beneficial Owners and Management and Related "
                                      "Stockholder Matters"),
                         ("Item 13.", "Certain Relationships and Related Transactions, and Director Independence"),
                         ("Item 14.", "Principal Accountant Fees and Services")]:
        d.item(label, title)
        d.p("The information required by this Item will be included in our definitive proxy statement for the 2025 "
            "Annual Meeting of Shareholders and is incorporated herein by reference.")
    d.part("PART IV")
    d.item("Item 15.", "Exhibits and Financial Statement Schedules")
    d.table([["Exhibit Number", "Exhibit Description"], ["3.1", "Restated Articles of Organization"],
             ["10.1", "Credit Agreement dated as of June 2, 2022"], ["21", "Subsidiaries of the Registrant"],
             ["23", "Consent of Pemberton Ashby LLP"], ["31.1", "Rule 13a-14(a) Certification of the CEO"]],
            bold_rows={0})
    d.item("Item 16.", "Form 10-K Summary")
    d.p("None.")
    d.page_break()
    d.heading("SIGNATURES", 1, align="center", toc=True)
    d.p("Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of 1934, the registrant "
        "has duly caused this report to be signed on its behalf by the undersigned, thereunto duly authorized.")
    d.div([("CALDER SCIENTIFIC CORPORATION", "font-weight:700")], top=12)
    d.div([("By: /s/ Miriam A. Castellanos", "")])
    d.div([("Miriam A. Castellanos, Chair, President and Chief Executive Officer", "")], top=0)
    d.div([("Date: November 19, 2024", "")])


def cover():
    f = FONT
    chk, box = "\u2612", "\u2610"
    return f"""<div style="display:none"><ix:header><ix:hidden><ix:nonNumeric name="dei:AmendmentFlag" contextRef="c-1">false</ix:nonNumeric><ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="c-1">2024</ix:nonNumeric><ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="c-1">FY</ix:nonNumeric></ix:hidden><ix:references><link:schemaRef xlink:href="cldr-20240930.xsd" xlink:type="simple"/></ix:references></ix:header></div>
<div style="text-align:center"><span style="{f};font-weight:700;font-size:12pt">UNITED STATES</span></div>
<div style="text-align:center"><span style="{f};font-weight:700;font-size:12pt">SECURITIES AND EXCHANGE COMMISSION</span></div>
<div style="text-align:center"><span style="{f}">Washington, D.C. 20549</span></div>
<div style="text-align:center;margin-top:12pt"><span style="{f};font-weight:700;font-size:14pt">FORM <ix:nonNumeric name="dei:DocumentType" contextRef="c-1">10-K</ix:nonNumeric></span></div>
<div style="margin-top:6pt"><span style="{f}">(Mark One)</span></div>
<table style="border-collapse:collapse;width:100%"><tr><td style="width:5%"><span style="{f}">{chk}</span></td><td><span style="{f};font-weight:700">ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934</span></td></tr></table>
<div style="text-align:center"><span style="{f}">For the fiscal year ended September 30, 2024</span></div>
<div style="text-align:center"><span style="{f}">OR</span></div>
<table style="border-collapse:collapse;width:100%"><tr><td style="width:5%"><span style="{f}">{box}</span></td><td><span style="{f};font-weight:700">TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934</span></td></tr></table>
<div style="text-align:center"><span style="{f}">Commission File Number: 001-14772</span></div>
<div style="text-align:center;margin-top:12pt"><span style="{f};font-weight:700;font-size:16pt">CALDER SCIENTIFIC CORPORATION</span></div>
<div style="text-align:center"><span style="{f};font-size:8pt">(Exact name of registrant as specified in its charter)</span></div>
<table style="border-collapse:collapse;width:100%"><tr><td style="width:50%;text-align:center"><span style="{f}">Massachusetts</span></td><td style="text-align:center"><span style="{f}">04-2790115</span></td></tr>
<tr><td style="text-align:center"><span style="{f};font-size:8pt">(State or other jurisdiction of incorporation or organization)</span></td><td style="text-align:center"><span style="{f};font-size:8pt">(I.R.S. Employer Identification No.)</span></td></tr></table>
<div style="text-align:center"><span style="{f}">300 Bear Hill Road, Waltham, Massachusetts 02451</span></div>
<div style="text-align:center"><span style="{f}">(781) 555-0120</span></div>
<div style="margin-top:6pt"><span style="{f}">Securities registered pursuant to Section 12(b) of the Act:</span></div>
<table style="border-collapse:collapse;width:100%"><tr><td style="border-bottom:1pt solid #000"><span style="{f};font-weight:700">Title of each class</span></td><td style="border-bottom:1pt solid #000"><span style="{f};font-weight:700">Trading Symbol(s)</span></td><td style="border-bottom:1pt solid #000"><span style="{f};font-weight:700">Name of each exchange on which registered</span></td></tr>
<tr><td><span style="{f}">Common Stock, $0.01 par value per share</span></td><td><span style="{f}">CLDR</span></td><td><span style="{f}">New York Stock Exchange</span></td></tr></table>
<div style="margin-top:6pt;text-align:justify"><span style="{f}">Indicate by check mark if the registrant is a well-known seasoned issuer, as defined in Rule 405 of the Securities Act. Yes {chk} No {box}</span></div>
<div style="margin-top:6pt;text-align:justify"><span style="{f}">The aggregate market value of the registrant\u2019s common stock held by non-affiliates as of March 29, 2024 was approximately $7.9 billion. As of November 8, 2024, 58,640,221 shares of common stock were outstanding.</span></div>
<div style="margin-top:6pt;text-align:center"><span style="{f};font-weight:700">DOCUMENTS INCORPORATED BY REFERENCE</span></div>
<div style="margin-top:6pt;text-align:justify"><span style="{f}">Portions of the registrant\u2019s definitive proxy statement for its 2025 Annual Meeting of Shareholders are incorporated by reference into Part III of this report.</span></div>
"""


def toc_html(entries):
    f = FONT
    rows = [f'<tr><td colspan="2"></td><td style="text-align:right"><span style="{f};font-weight:700">Page</span></td></tr>']
    for label, title, hid, page in entries:
        if not title:  # PART row or stand-alone entry
            rows.append(f'<tr><td colspan="2" style="padding-top:6pt"><span style="{f};font-weight:700"><a href="#{hid}" '
                        f'style="color:#0000ff;text-decoration:underline">{escape(label)}</a></span></td>'
                        f'<td style="text-align:right"><span style="{f}">{page}</span></td></tr>')
        else:
            rows.append(f'<tr><td style="width:12%"><span style="{f}"><a href="#{hid}" style="color:#0000ff;'
                        f'text-decoration:underline">{escape(label)}</a></span></td><td style="width:80%"><span style="{f}">'
                        f'<a href="#{hid}" style="color:#0000ff;text-decoration:underline">{escape(title)}</a></span></td>'
                        f'<td style="text-align:right"><span style="{f}">{page}</span></td></tr>')
    return (f'<div id="toc" style="margin-top:12pt;text-align:center"><span style="{f};font-weight:700">TABLE OF CONTENTS'
            f'</span></div><table style="border-collapse:collapse;width:100%">' + "".join(rows) + "</table>")


def build():
    global PR
    PR = Prose(4, "Calder")
    d = Doc()
    build_body(d)
    d.page_break()
    entries = [(lab, tit, hid, pg) if lab else (tit, "", hid, pg) for lab, tit, hid, pg in d.toc_ids]
    pb = ('<hr style="page-break-after:always"/>')
    html = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" '
            'xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:link="http://www.xbrl.org/2003/linkbase" '
            'xmlns:xlink="http://www.w3.org/1999/xlink"><head><meta http-equiv="Content-Type" '
            'content="text/html"/><title>cldr-20240930</title></head><body>'
            + cover() + pb + toc_html(entries) + pb + "".join(d.parts) + "</body></html>")
    return "cldr-20240930.htm", html.encode("utf-8"), d.truth
