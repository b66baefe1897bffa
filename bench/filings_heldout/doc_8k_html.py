"""Document 6: a Form 8-K (Item 2.02) with its Exhibit 99.1 earnings press release, as one EDGAR HTML file in the
style of a financial printer that writes CSS shorthand (style="font: bold 10pt Times New Roman ...").

8-K Items are bold label + bold title in one <p> with &nbsp; between; the press release headline is a centred
bold 12pt <p>; its sub-headings are underlined (some bold, some not) <p>s; run-in bold labels ('Revenue:') and
bullet tables are not headings; the financial tables carry their titles in centred bold table rows."""

from __future__ import annotations

from html import escape

from prose import PRESS, Prose

PR = Prose(6)
TNR = "Times New Roman, Times, Serif"


class Doc:
    def __init__(self):
        self.parts: list[str] = []
        self.truth: list[tuple[int, str]] = []
        self.page = 1
        self.chars = 0

    def add(self, html, n=0):
        self.parts.append(html + "\n")
        self.chars += n
        if self.chars > 3500:
            self.page_break()

    def page_break(self, numbered=True):
        num = f'<p style="font: 10pt {TNR}; margin: 0; text-align: center">{self.page}</p>\n' if numbered else ""
        self.parts.append(num + '<div style="page-break-after: always; margin-top: 6pt; margin-bottom: 6pt">'
                                '<hr style="height: 2px; color: #999999; background-color: #999999; border: none"/>'
                                '</div>\n')
        self.page += 1
        self.chars = 0

    def p(self, text, lead=None, align="justify"):
        lead_html = f"<b>{escape(lead)}</b> " if lead else ""
        self.add(f'<p style="font: 10pt {TNR}; margin: 0pt 0 10pt; text-align: {align}">{lead_html}'
                 f'{escape(text)}</p>', len(text) + 30)

    def bullets(self, items):
        for lead, text in items:
            inner = (f"<b>{escape(lead)}</b> " if lead else "") + escape(text)
            self.add(f'<table cellpadding="0" cellspacing="0" style="font: 10pt {TNR}; width: 100%; '
                     f'border-collapse: collapse; margin-bottom: 6pt"><tr style="vertical-align: top">'
                     f'<td style="width: 0.25in"></td><td style="width: 0.25in">&#8226;</td>'
                     f'<td style="text-align: justify">{inner}</td></tr></table>', len(text) + 40)

    def head(self, text, depth, css, align="left", top=10):
        self.add(f'<p style="font: {css} 10pt {TNR}; margin: {top}pt 0 6pt; text-align: {align}">'
                 f'{text}</p>', 60)
        self.truth.append((depth, _plain(text)))

    def fin_table(self, title_lines, header, rows, depth_title):
        ncol = len(header)
        out = [f'<table cellpadding="0" cellspacing="0" style="font: 9pt {TNR}; width: 100%; '
               f'border-collapse: collapse; margin-top: 12pt">']
        for k, t in enumerate(title_lines):
            out.append(f'<tr><td colspan="{ncol}" style="text-align: center; font-weight: bold">{escape(t)}</td></tr>')
        out.append("<tr>" + "".join(
            f'<td style="text-align: {"left" if c == 0 else "right"}; font-weight: bold; border-bottom: black 1pt solid'
            f'">{escape(h)}</td>' for c, h in enumerate(header)) + "</tr>")
        for r, row in enumerate(rows):
            bg = ' background-color: #CCEEFF;' if r % 2 == 0 else ""
            out.append("<tr>" + "".join(
                f'<td style="{bg} text-align: {"left" if c == 0 else "right"}; padding-left: '
                f'{"0.1in" if c == 0 else "0"}">{escape(v)}</td>' for c, v in enumerate(row)) + "</tr>")
        out.append("</table>")
        self.add("".join(out), 50 * len(rows) + 100)
        self.truth.append((depth_title, title_lines[1]))


def _plain(html_text):
    import re
    from html import unescape
    return " ".join(unescape(re.sub("<[^>]+>", "", html_text)).replace("\xa0", " ").split())


def cover(d: Doc):
    c = f"font: 10pt {TNR}; margin: 0; text-align: center"
    d.add(f"""<p style="{c}"><b>UNITED STATES</b></p>
<p style="{c}"><b>SECURITIES AND EXCHANGE COMMISSION</b></p>
<p style="{c}">Washington, D.C. 20549</p>
<p style="{c}">&nbsp;</p>
<p style="font: bold 14pt {TNR}; margin: 0; text-align: center">FORM 8-K</p>
<p style="{c}">&nbsp;</p>
<p style="{c}"><b>CURRENT REPORT</b><br/>Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934</p>
<p style="{c}">Date of Report (Date of earliest event reported): <b>February 26, 2025</b></p>
<p style="{c}">&nbsp;</p>
<p style="font: bold 14pt {TNR}; margin: 0; text-align: center">LAKESHORE THERAPEUTICS, INC.</p>
<p style="{c}">(Exact name of registrant as specified in its charter)</p>
<table cellpadding="0" cellspacing="0" style="font: 10pt {TNR}; width: 100%; margin-top: 10pt">
<tr><td style="width: 33%; text-align: center; border-bottom: black 1pt solid"><b>Delaware</b></td><td style="width: 34%; text-align: center; border-bottom: black 1pt solid"><b>001-39204</b></td><td style="text-align: center; border-bottom: black 1pt solid"><b>82-4417395</b></td></tr>
<tr><td style="text-align: center">(State or other jurisdiction of incorporation)</td><td style="text-align: center">(Commission File Number)</td><td style="text-align: center">(IRS Employer Identification No.)</td></tr></table>
<p style="{c}; margin-top: 10pt"><b>One Kendall Square, Suite 1400, Cambridge, Massachusetts 02139</b><br/>(Address of principal executive offices) (Zip Code)</p>
<p style="{c}">Registrant&#8217;s telephone number, including area code: <b>(617) 555-0172</b></p>
<p style="font: 10pt {TNR}; margin: 10pt 0 0; text-align: justify">Check the appropriate box below if the Form 8-K filing is intended to simultaneously satisfy the filing obligation of the registrant under any of the following provisions:</p>
<p style="font: 10pt {TNR}; margin: 0">&#9744; Written communications pursuant to Rule 425 under the Securities Act (17 CFR 230.425)</p>
<p style="font: 10pt {TNR}; margin: 0">&#9744; Soliciting material pursuant to Rule 14a-12 under the Exchange Act (17 CFR 240.14a-12)</p>
<p style="font: 10pt {TNR}; margin: 10pt 0 0">Securities registered pursuant to Section 12(b) of the Act:</p>
<table cellpadding="0" cellspacing="0" style="font: 10pt {TNR}; width: 100%">
<tr><td style="border-bottom: black 1pt solid; text-align: center"><b>Title of each class</b></td><td style="border-bottom: black 1pt solid; text-align: center"><b>Trading Symbol(s)</b></td><td style="border-bottom: black 1pt solid; text-align: center"><b>Name of each exchange on which registered</b></td></tr>
<tr><td style="text-align: center">Common Stock, $0.0001 par value per share</td><td style="text-align: center">LKSH</td><td style="text-align: center">The Nasdaq Global Select Market</td></tr></table>
<p style="font: 10pt {TNR}; margin: 10pt 0 0; text-align: justify">Indicate by check mark whether the registrant is an emerging growth company as defined in Rule 405 of the Securities Act of 1933 or Rule 12b-2 of the Securities Exchange Act of 1934. Emerging growth company &#9744;</p>""")
    d.page_break()


def item(d: Doc, label, title):
    d.head(f"<b>{escape(label)}</b>&nbsp;&nbsp;&nbsp;&nbsp;<b>{escape(title)}</b>", 1, "normal", top=12)


def filing(d: Doc):
    item(d, "Item 2.02.", "Results of Operations and Financial Condition.")
    d.p("On February 26, 2025, Lakeshore Therapeutics, Inc. (the \u201cCompany\u201d) issued a press release "
        "announcing its financial results for the quarter and year ended December 31, 2024. A copy of the press "
        "release is furnished as Exhibit 99.1 to this Current Report on Form 8-K.")
    d.p("The information in this Item 2.02, including Exhibit 99.1, is being furnished and shall not be deemed "
        "\u201cfiled\u201d for purposes of Section 18 of the Securities Exchange Act of 1934, nor shall it be deemed "
        "incorporated by reference in any filing under the Securities Act of 1933, except as expressly set forth by "
        "specific reference in such a filing.")
    item(d, "Item 9.01.", "Financial Statements and Exhibits.")
    d.p("Exhibits.", lead="(d)")
    d.add(f'<table cellpadding="0" cellspacing="0" style="font: 10pt {TNR}; width: 100%"><tr>'
          f'<td style="width: 15%; border-bottom: black 1pt solid"><b>Exhibit No.</b></td>'
          f'<td style="border-bottom: black 1pt solid"><b>Description</b></td></tr><tr><td>99.1</td>'
          f'<td>Press Release of Lakeshore Therapeutics, Inc., dated February 26, 2025</td></tr><tr><td>104</td>'
          f'<td>Cover Page Interactive Data File (embedded within the Inline XBRL document)</td></tr></table>', 200)
    d.page_break()
    d.head("<b>SIGNATURES</b>", 1, "normal", align="center")
    d.p("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this "
        "report to be signed on its behalf by the undersigned hereunto duly authorized.")
    d.add(f'<table cellpadding="0" cellspacing="0" style="font: 10pt {TNR}; width: 100%; margin-top: 12pt">'
          f'<tr><td style="width: 50%"></td><td><b>LAKESHORE THERAPEUTICS, INC.</b></td></tr>'
          f'<tr><td>Date: February 26, 2025</td><td>By: /s/ Helena V. Marchetti</td></tr>'
          f'<tr><td></td><td>Name: Helena V. Marchetti</td></tr>'
          f'<tr><td></td><td>Title: Chief Financial Officer</td></tr></table>', 200)
    d.page_break()


def release(d: Doc):
    d.add(f'<p style="font: bold 10pt {TNR}; margin: 0; text-align: right">Exhibit 99.1</p>', 20)
    headline = ("Lakeshore Therapeutics Reports Fourth Quarter and Full-Year 2024 Financial Results and Provides "
                "Business Update")
    d.add(f'<p style="font: bold 12pt {TNR}; margin: 12pt 0 6pt; text-align: center">{escape(headline)}</p>', 120)
    d.truth.append((1, headline))
    for sub in ["\u2013 Full-year 2024 product revenue of $376.2 million, up 31% year over year \u2013",
                "\u2013 Phase 3 LUMEN-2 topline data expected in the second half of 2025 \u2013",
                "\u2013 Company to host conference call today at 8:00 a.m. ET \u2013"]:
        d.add(f'<p style="font: italic 10pt {TNR}; margin: 0; text-align: center">{escape(sub)}</p>', 80)
    d.p("Lakeshore Therapeutics, Inc. (Nasdaq: LKSH), a biopharmaceutical company focused on targeted therapies for "
        "solid tumors, today reported financial results for the fourth quarter and full year ended December 31, "
        "2024 and provided an update on its business. " + PR.sents(PRESS, 1),
        lead="CAMBRIDGE, Mass., February 26, 2025 (GLOBE NEWSWIRE) --")
    d.p("\u201c2024 was a transformational year for Lakeshore,\u201d said Dr. Amara J. Whitcombe, Chief Executive "
        "Officer. \u201cWe more than doubled the number of patients on VELORA in the United States, secured approval "
        "in Japan and advanced our pipeline. We enter 2025 with momentum and the financial strength to execute on "
        "our priorities.\u201d")
    d.head('<u>Fourth Quarter 2024 and Recent Business Highlights</u>', 2, "bold")
    d.bullets([("VELORA\u00ae (zenotinib):", "Net product revenue was $104.8 million in the fourth quarter of 2024, "
                                             "an increase of 34% compared with the fourth quarter of 2023."),
               ("Japan approval:", "In December 2024, the Japanese Ministry of Health, Labour and Welfare approved "
                                   "VELORA for adults with previously treated RET-altered non-small cell lung cancer."),
               ("LUMEN-2:", "Enrollment in the Phase 3 LUMEN-2 trial of VELORA in the first-line setting was "
                            "completed in January 2025, ahead of schedule."),
               ("LKS-318:", "The first patient was dosed in the Phase 1 trial of LKS-318, an oral selective degrader, "
                            "in November 2024.")])
    d.head('<u>Fourth Quarter and Full-Year 2024 Financial Results</u>', 2, "normal")
    d.p("Total revenue was $112.6 million for the fourth quarter of 2024, compared with $84.0 million for the fourth "
        "quarter of 2023, and $401.9 million for the full year 2024, compared with $309.5 million for 2023. "
        + PR.sents(PRESS, 1), lead="Revenue:")
    d.p("Research and development expenses were $71.3 million for the fourth quarter of 2024, compared with $63.9 "
        "million for the same period in 2023. " + PR.sents(PRESS, 1), lead="R&D Expenses:")
    d.p("Selling, general and administrative expenses were $58.7 million for the fourth quarter of 2024, compared "
        "with $49.2 million for the same period in 2023. " + PR.sents(PRESS, 1), lead="SG&A Expenses:")
    d.p("Net loss was $9.8 million, or $0.13 per share, for the fourth quarter of 2024, compared with a net loss of "
        "$31.4 million, or $0.44 per share, for the fourth quarter of 2023.", lead="Net Loss:")
    d.p("Cash, cash equivalents and marketable securities were $882.1 million as of December 31, 2024, compared with "
        "$796.4 million as of December 31, 2023. " + PR.sents(PRESS, 1), lead="Cash Position:")
    d.head('<u>2025 Financial Guidance</u>', 2, "bold")
    d.p(PR.sents(PRESS, 2) + " The Company expects non-GAAP operating expenses of $560 million to $590 million, "
        "excluding stock-based compensation expense of approximately $85 million.")
    d.head('<u>Conference Call and Webcast Information</u>', 2, "bold")
    d.p("Lakeshore will host a conference call and webcast today at 8:00 a.m. Eastern Time. To access the call, "
        "please dial (877) 555-0143 (domestic) or (412) 555-0190 (international) and reference conference ID "
        "7728104. A live webcast will be available in the Investors section of the Company\u2019s website at "
        "www.lakeshoretx.com, and a replay will be archived for 30 days.")
    d.head("About Lakeshore Therapeutics", 2, "bold")
    d.p("Lakeshore Therapeutics is a commercial-stage biopharmaceutical company discovering and developing precision "
        "medicines for patients with genomically defined cancers. The Company\u2019s first approved medicine, "
        "VELORA, is marketed in the United States and Japan. Lakeshore is headquartered in Cambridge, "
        "Massachusetts. For more information, visit www.lakeshoretx.com.")
    d.head("<i>Cautionary Note Regarding Forward-Looking Statements</i>", 2, "bold")
    d.p("This press release contains forward-looking statements within the meaning of the Private Securities "
        "Litigation Reform Act of 1995, including statements regarding the Company\u2019s financial guidance, the "
        "timing of clinical data and regulatory decisions, and the sufficiency of its cash resources. These "
        "statements are subject to risks and uncertainties, including those described under the caption \u201cRisk "
        "Factors\u201d in Part I, Item 1A of the Company\u2019s Annual Report on Form 10-K for the year ended December "
        "31, 2024 and in its subsequent filings with the SEC. Actual results may differ materially.")
    d.add(f'<p style="font: 10pt {TNR}; margin: 10pt 0 0"><b>Investor Contact:</b><br/>Nathaniel Brooks<br/>'
          f'(617) 555-0188<br/>ir@lakeshoretx.com</p>', 80)
    d.add(f'<p style="font: 10pt {TNR}; margin: 10pt 0 0"><b>Media Contact:</b><br/>Claire Dubois<br/>'
          f'(617) 555-0161<br/>media@lakeshoretx.com</p>', 80)
    d.page_break()
    d.fin_table(["LAKESHORE THERAPEUTICS, INC.", "CONSOLIDATED STATEMENTS OF OPERATIONS",
                 "(In thousands, except per share data)", "(Unaudited)"],
                ["", "Three Months Ended Dec. 31, 2024", "Three Months Ended Dec. 31, 2023",
                 "Year Ended Dec. 31, 2024", "Year Ended Dec. 31, 2023"],
                [["Product revenue, net", "104,812", "78,233", "376,204", "287,119"],
                 ["License and royalty revenue", "7,790", "5,771", "25,696", "22,381"],
                 ["Total revenue", "112,602", "84,004", "401,900", "309,500"],
                 ["Cost of sales", "6,114", "4,920", "21,877", "17,044"],
                 ["Research and development", "71,318", "63,902", "272,455", "241,610"],
                 ["Selling, general and administrative", "58,701", "49,188", "219,066", "187,930"],
                 ["Total operating expenses", "136,133", "118,010", "513,398", "446,584"],
                 ["Loss from operations", "(23,531)", "(34,006)", "(111,498)", "(137,084)"],
                 ["Interest and other income, net", "13,702", "2,611", "41,305", "24,017"],
                 ["Net loss", "$ (9,829)", "$ (31,395)", "$ (70,193)", "$ (113,067)"],
                 ["Net loss per share, basic and diluted", "$ (0.13)", "$ (0.44)", "$ (0.95)", "$ (1.60)"],
                 ["Weighted-average shares outstanding", "74,211", "71,336", "73,640", "70,618"]], 2)
    d.fin_table(["LAKESHORE THERAPEUTICS, INC.", "SELECTED CONSOLIDATED BALANCE SHEET DATA", "(In thousands)",
                 "(Unaudited)"],
                ["", "December 31, 2024", "December 31, 2023"],
                [["Cash, cash equivalents and marketable securities", "882,114", "796,430"],
                 ["Accounts receivable, net", "61,209", "44,875"], ["Total assets", "1,118,772", "998,504"],
                 ["Total liabilities", "214,390", "188,016"], ["Total stockholders\u2019 equity", "904,382",
                                                                "810,488"]], 2)
    d.fin_table(["LAKESHORE THERAPEUTICS, INC.", "RECONCILIATION OF GAAP TO NON-GAAP OPERATING EXPENSES",
                 "(In thousands)", "(Unaudited)"],
                ["", "Three Months Ended Dec. 31, 2024", "Year Ended Dec. 31, 2024"],
                [["GAAP operating expenses", "136,133", "513,398"],
                 ["Less: stock-based compensation expense", "(19,844)", "(77,120)"],
                 ["Non-GAAP operating expenses", "116,289", "436,278"]], 2)
    d.p("Non-GAAP operating expenses exclude stock-based compensation expense. Management believes this measure "
        "helps investors compare operating performance across periods; it should be considered in addition to, not "
        "as a substitute for, measures prepared in accordance with GAAP.")
    d.page_break()


def build():
    global PR
    PR = Prose(6)
    d = Doc()
    cover(d)
    filing(d)
    release(d)
    html = ('<html><head><title>lksh-20250226</title><meta http-equiv="Content-Type" content="text/html; '
            'charset=us-ascii"/></head><body style="font: 10pt Times New Roman, Times, Serif">\n'
            + "".join(d.parts) + "</body></html>\n")
    return "lksh_8k_2025-02-26.htm", html.encode("ascii", "xmlcharrefreplace"), d.truth
