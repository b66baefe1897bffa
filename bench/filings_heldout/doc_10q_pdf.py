"""Document 2: a quarterly report on Form 10-Q printed to PDF (Harborline Foods Corp.).

Item label and title sit on two lines ("Item 2." / "Management's Discussion ..."); notes are numbered
"3. Inventories"; MD&A sub-headings are bold capitals with bold mixed-case sub-sub-headings; the notes
pages carry a running header (company + "NOTES TO CONDENSED ...") that is not a heading."""

from __future__ import annotations

from pdflayout import LEFT, RIGHT, Break, H, L, P, T, Tag, Text, _wrap_text, make_pdf, para, render, width
from prose import FOOD, RISK, Prose

PR = Prose(2, "Harborline")


def _paras(pool, n, lo=2, hi=4):
    return [para(t) for t in PR.paras(pool, n, lo, hi)]


def part(text):
    return H([text], 1, size=11, before=20, after=10, toc=text, toc_level=-1)


def item(label, title, new_page=False):
    return H([label, title], 2, size=10, before=16, after=10, toc=f"{label}\t{title}", new_page=new_page)


def sub(text, depth=3):
    return H([text], depth, size=10, before=10, after=6)


def statement(title, unit):
    return [Break(), L("HARBORLINE FOODS CORP.", 10, True, "center"),
            H([title], 3, size=10, align="center", before=0, after=2),
            L("(Unaudited)", 9, False, "center"), L(unit, 9, False, "center", after=6)]


def cover():
    c = "center"
    return [
        L("UNITED STATES", 11, True, c), L("SECURITIES AND EXCHANGE COMMISSION", 11, True, c),
        L("WASHINGTON, D.C. 20549", 9, False, c, after=10), L("FORM 10-Q", 15, True, c, after=10),
        P([("[X] QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", False)],
          size=9, leading=12, after=2),
        L("For the quarterly period ended March 29, 2025", 10, True, c),
        L("or", 9, False, c),
        P([("[ ] TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", False)],
          size=9, leading=12, after=2),
        L("Commission file number: 001-09214", 10, False, c, after=10),
        L("HARBORLINE FOODS CORP.", 16, True, c),
        L("(Exact name of registrant as specified in its charter)", 8, False, c, after=8),
        T([["Minnesota", "41-0852216"], ["(State or other jurisdiction of incorporation or organization)",
                                          "(I.R.S. Employer Identification No.)"]], [RIGHT], size=9),
        L("1200 Lakeshore Drive, Minneapolis, Minnesota 55402", 10, False, c),
        L("(612) 555-0199", 10, False, c, after=8),
        T([["Title of each class", "Trading symbol(s)", "Name of each exchange on which registered"],
           ["Common Stock, par value $0.10 per share", "HBFC", "New York Stock Exchange"]],
          [], size=9, left_cols=[250, 330], bold_rows={0}),
        P([("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by "
            "Section 13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months, and (2) "
            "has been subject to such filing requirements for the past 90 days. Yes [X] No [ ]", False)],
          size=9, leading=12, after=4),
        P([("Indicate by check mark whether the registrant is a large accelerated filer, an accelerated filer, a "
            "non-accelerated filer, a smaller reporting company, or an emerging growth company.", False)],
          size=9, leading=12, after=2),
        T([["Large accelerated filer [X]", "Accelerated filer [ ]"], ["Non-accelerated filer [ ]",
                                                                  "Smaller reporting company [ ]"]], [RIGHT], size=9),
        P([("As of April 25, 2025, the registrant had 88,416,027 shares of common stock outstanding.", False)],
          size=9, leading=12),
    ]


def toc(entries, pages):
    blocks = [Break(), H(["HARBORLINE FOODS CORP."], None, size=10, align="center", after=0),
              H(["INDEX"], None, size=10, align="center", before=0, after=10),
              T([["", "", "Page No."]], [RIGHT], size=9, bold_rows={0}, left_cols=[120], after=4)]
    for (lvl, text), pg in zip(entries, pages):
        if lvl < 0:
            blocks.append(T([[text, "", ""]], [RIGHT], size=10, bold_rows={0}, leading=18, after=0, left_cols=[120]))
            continue
        label, _, title = text.partition("\t")
        lines = _wrap_text(title, 10, False, RIGHT - 40 - 120)
        for k, ln in enumerate(lines):
            last = k == len(lines) - 1
            blocks.append(T([[label if k == 0 else "", ln, str(pg + 3) if last else ""]], [RIGHT], size=10,
                            leading=14 if last else 12, after=0, left_cols=[120]))
    blocks.append(Break())
    return blocks


def body():
    b = [part("PART I. FINANCIAL INFORMATION"), item("Item 1.", "Financial Statements")]
    b += statement("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands, except per share amounts)")[1:]
    b.append(T([["", "Three Months Ended", ""], ["", "March 29, 2025", "March 30, 2024"],
                ["Net sales", "$ 1,412,608", "$ 1,366,210"], ["Cost of sales", "1,051,377", "1,029,842"],
                ["Gross profit", "361,231", "336,368"],
                ["Selling, general and administrative expenses", "212,904", "204,511"],
                ["Restructuring charges", "8,716", "-"], ["Operating income", "139,611", "131,857"],
                ["Interest expense, net", "24,183", "26,095"], ["Earnings before income taxes", "115,428", "105,762"],
                ["Income tax expense", "26,549", "24,853"], ["Net earnings", "$ 88,879", "$ 80,909"],
                ["Net earnings per share:", "", ""], ["Basic", "$ 1.01", "$ 0.91"], ["Diluted", "$ 1.00", "$ 0.90"],
                ["Weighted-average shares outstanding - diluted", "88,902", "89,644"]],
               [450, 540], bold_rows={0, 1}, indents={13: 12, 14: 12}))
    b.append(L("See Notes to Condensed Consolidated Financial Statements.", 8, False, "center"))
    b += statement("CONDENSED CONSOLIDATED BALANCE SHEETS", "(In thousands)")
    b.append(T([["", "March 29, 2025", "December 28, 2024"], ["ASSETS", "", ""],
                ["Cash and cash equivalents", "$ 96,420", "$ 121,885"], ["Receivables, net", "512,337", "489,010"],
                ["Inventories", "844,106", "801,774"], ["Other current assets", "61,208", "58,315"],
                ["Total current assets", "1,514,071", "1,470,984"],
                ["Property, plant and equipment, net", "1,902,554", "1,915,202"], ["Goodwill", "1,288,019", "1,288,019"],
                ["Other intangible assets, net", "610,447", "619,880"], ["Total assets", "$ 5,315,091", "$ 5,294,085"],
                ["LIABILITIES AND SHAREHOLDERS' EQUITY", "", ""], ["Accounts payable", "$ 622,815", "$ 640,233"],
                ["Accrued liabilities", "248,960", "271,118"], ["Current portion of long-term debt", "50,000", "50,000"],
                ["Total current liabilities", "921,775", "961,351"], ["Long-term debt", "1,640,500", "1,665,500"],
                ["Other liabilities", "402,316", "398,402"], ["Total shareholders' equity", "2,350,500", "2,268,832"],
                ["Total liabilities and shareholders' equity", "$ 5,315,091", "$ 5,294,085"]],
               [450, 540], bold_rows={0, 1, 11}, indents={6: 12, 15: 12}))
    b += statement("CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS", "(In thousands)")
    b.append(T([["", "Three Months Ended", ""], ["", "March 29, 2025", "March 30, 2024"],
                ["Net earnings", "$ 88,879", "$ 80,909"], ["Depreciation and amortization", "52,610", "50,877"],
                ["Changes in working capital", "(98,604)", "(71,230)"],
                ["Net cash provided by operating activities", "42,885", "60,556"],
                ["Capital expenditures", "(38,520)", "(44,019)"], ["Net cash used in investing activities", "(38,520)", "(44,019)"],
                ["Repayments of long-term debt", "(25,000)", "(12,500)"], ["Dividends paid", "(30,062)", "(28,686)"],
                ["Share repurchases", "(15,000)", "-"], ["Net cash used in financing activities", "(69,830)", "(41,186)"],
                ["Net decrease in cash and cash equivalents", "(25,465)", "(24,649)"]],
               [450, 540], bold_rows={0, 1}))

    # Notes: running header carries the 'NOTES TO ...' title; notes are '1. Basis of Presentation'.
    b.append(Tag("notes"))
    b.append(Break())
    b.append(sub("1. Basis of Presentation"))
    b.append(para("The accompanying unaudited condensed consolidated financial statements have been prepared in "
                  "accordance with accounting principles generally accepted in the United States for interim "
                  "financial information and with the instructions to Form 10-Q. They should be read in "
                  "conjunction with the consolidated financial statements and notes included in our Annual Report "
                  "on Form 10-K for the fiscal year ended December 28, 2024. Our fiscal year ends on the last "
                  "Saturday of December."))
    b.append(sub("Recently Issued Accounting Standards", 4))
    b.append(para("In December 2023, the FASB issued ASU 2023-09, Improvements to Income Tax Disclosures, which "
                  "requires disaggregated information about the effective tax rate reconciliation and income taxes "
                  "paid. The standard is effective for our annual report for fiscal 2025, and we are evaluating "
                  "the effect on our disclosures. See Note 8 for our current income tax disclosures."))
    b.append(sub("2. Restructuring"))
    b.append(para("In February 2025, the Board of Directors approved a plan to close our bakery facility in Fresno, "
                  "California and consolidate production into our Modesto and Reno facilities. We expect to incur "
                  "total pre-tax charges of approximately $22 million, of which $8.7 million was recognized in the "
                  "first quarter of 2025, consisting primarily of employee severance and accelerated depreciation. "
                  "The plan is expected to be substantially complete by the end of fiscal 2025."))
    b.append(sub("3. Inventories"))
    b.append(para("Inventories consisted of the following (in thousands):"))
    b.append(T([["", "March 29, 2025", "December 28, 2024"], ["Raw materials and packaging", "$ 301,440", "$ 288,902"],
                ["Finished goods", "542,666", "512,872"], ["Total inventories", "$ 844,106", "$ 801,774"]],
               [450, 540], bold_rows={0}))
    b.append(sub("4. Goodwill and Other Intangible Assets"))
    b.append(para("Goodwill was $1,288.0 million at both March 29, 2025 and December 28, 2024, of which $902.7 "
                  "million relates to Retail Brands and $385.3 million to Foodservice. Other intangible assets "
                  "consist primarily of trademarks and customer relationships. Amortization expense was $9.4 million "
                  "for the first quarter of 2025 and $9.6 million for the first quarter of 2024."))
    b.append(sub("5. Debt"))
    b.append(para("Long-term debt at March 29, 2025 consisted of $1,200.0 million of senior notes with maturities "
                  "from 2027 to 2034 and $490.5 million outstanding under our term loan facility. We were in "
                  "compliance with all covenants under our debt agreements as of March 29, 2025. See Part I, Item "
                  "2, Liquidity and Capital Resources, for additional information."))
    b.append(sub("6. Shareholders' Equity"))
    b.append(para("During the first quarter of 2025, we repurchased 222,250 shares of common stock for $15.0 million "
                  "under the $500 million share repurchase program authorized in 2023, and $318.6 million remained "
                  "available under the program at quarter end. On April 22, 2025, our Board of Directors declared "
                  "a quarterly dividend of $0.34 per share payable on May 23, 2025."))
    b.append(sub("7. Earnings per Share"))
    b.append(para("Basic earnings per share is computed by dividing net earnings by the weighted-average number of "
                  "shares outstanding during the period. Diluted earnings per share reflects the dilutive effect of "
                  "stock options and restricted stock units computed using the treasury stock method. Anti-dilutive "
                  "awards excluded from the computation were not material."))
    b.append(sub("8. Income Taxes"))
    b.append(para("Our effective tax rate for the first quarter of 2025 was 23.0%, compared with 23.5% for the first "
                  "quarter of 2024. The rate differs from the U.S. federal statutory rate primarily because of state "
                  "income taxes, partially offset by excess tax benefits on share-based awards. We do not expect "
                  "significant changes in unrecognized tax benefits within the next twelve months."))
    b.append(sub("9. Segment Information"))
    b.append(para("We operate in two reportable segments: Retail Brands and Foodservice. The following table "
                  "presents net sales and segment operating profit for the periods presented (in thousands):"))
    b.append(T([["", "March 29, 2025", "March 30, 2024"], ["Net sales:", "", ""],
                ["Retail Brands", "$ 968,224", "$ 941,067"], ["Foodservice", "444,384", "425,143"],
                ["Total", "$ 1,412,608", "$ 1,366,210"], ["Segment operating profit:", "", ""],
                ["Retail Brands", "$ 121,570", "$ 112,409"], ["Foodservice", "46,918", "41,632"]],
               [450, 540], bold_rows={0}, indents={2: 12, 3: 12, 4: 24, 6: 12, 7: 12}))
    b.append(sub("10. Contingencies"))
    b.append(para("We are a defendant in a purported class action filed in the United States District Court for the "
                  "District of Minnesota alleging that the labeling of certain of our snack products was misleading. "
                  "We believe the claims are without merit and intend to defend the case vigorously. We are also "
                  "party to other legal proceedings arising in the ordinary course of business, none of which we "
                  "expect to have a material adverse effect on our financial statements."))
    b.append(Tag(""))

    b.append(item("Item 2.", "Management's Discussion and Analysis of Financial Condition and Results of "
                  "Operations", new_page=True))
    b.append(para("The following discussion should be read together with the condensed consolidated financial "
                  "statements and notes in Item 1 of this report and with Item 7 of our 2024 Annual Report on "
                  "Form 10-K."))
    b.append(sub("OVERVIEW"))
    b += _paras(FOOD, 1)
    b.append(sub("RESULTS OF OPERATIONS"))
    b.append(sub("Net Sales", 4))
    b.append(para("Net sales for the first quarter of 2025 increased $46.4 million, or 3.4%, compared with the first "
                  "quarter of 2024. Volume growth of 2.1% in Retail Brands, driven by our frozen breakfast and "
                  "snack lines, and price realization of 1.6% were partially offset by unfavorable mix in "
                  "Foodservice."))
    b.append(sub("Gross Profit", 4))
    b += _paras(FOOD, 1)
    b.append(sub("Selling, General and Administrative Expenses", 4))
    b += _paras(FOOD, 1)
    b.append(sub("Income Taxes", 4))
    b.append(para("The effective tax rate was 23.0% for the first quarter of 2025 compared with 23.5% for the first "
                  "quarter of 2024. The decrease primarily reflects excess tax benefits from share-based awards "
                  "that vested during the quarter. For additional information, see Note 8."))
    b.append(sub("LIQUIDITY AND CAPITAL RESOURCES"))
    b.append(para(PR.sents(FOOD, 2)))
    b.append(para(PR.sents(FOOD, 2), lead="Operating activities."))
    b.append(para(PR.sents(FOOD, 2), lead="Investing activities."))
    b.append(para(PR.sents(FOOD, 2), lead="Financing activities."))
    b.append(sub("CRITICAL ACCOUNTING ESTIMATES"))
    b.append(para("There have been no material changes to our critical accounting estimates from those disclosed "
                  "in Part II, Item 7 of our 2024 Annual Report on Form 10-K."))
    b.append(sub("FORWARD-LOOKING STATEMENTS"))
    b += _paras(RISK, 1, 3, 4)
    b.append(item("Item 3.", "Quantitative and Qualitative Disclosures About Market Risk"))
    b.append(para("Our exposure to market risk for changes in commodity prices, interest rates and foreign currency "
                  "exchange rates has not changed materially since December 28, 2024. Wheat, soybean oil, sugar and "
                  "dairy are our most significant commodity inputs, and we use futures contracts to hedge a portion "
                  "of our anticipated purchases."))
    b.append(item("Item 4.", "Controls and Procedures"))
    b.append(para("Our Chief Executive Officer and Chief Financial Officer concluded that our disclosure controls and "
                  "procedures were effective as of March 29, 2025. There were no changes in our internal control "
                  "over financial reporting during the quarter that materially affected, or are reasonably likely "
                  "to materially affect, our internal control over financial reporting."))

    b.append(part("PART II. OTHER INFORMATION"))
    b.append(item("Item 1.", "Legal Proceedings"))
    b.append(para("Information regarding legal proceedings is included in Note 10, Contingencies, to the condensed "
                  "consolidated financial statements in Part I, Item 1 of this report."))
    b.append(item("Item 1A.", "Risk Factors"))
    b.append(para("There have been no material changes from the risk factors disclosed in Part I, Item 1A of our "
                  "2024 Annual Report on Form 10-K."))
    b.append(item("Item 2.", "Unregistered Sales of Equity Securities and Use of Proceeds"))
    b.append(para("The following table sets forth purchases of our common stock during the first quarter of 2025:"))
    b.append(T([["Fiscal period", "Shares purchased", "Average price paid"],
                ["December 29, 2024 - January 25, 2025", "-", "-"],
                ["January 26, 2025 - February 22, 2025", "112,400", "$ 66.71"],
                ["February 23, 2025 - March 29, 2025", "109,850", "$ 68.24"]], [430, 540], bold_rows={0}))
    b.append(item("Item 5.", "Other Information"))
    b.append(para("During the quarter ended March 29, 2025, no director or officer adopted or terminated a Rule "
                  "10b5-1 trading arrangement or a non-Rule 10b5-1 trading arrangement."))
    b.append(item("Item 6.", "Exhibits"))
    b.append(T([["Exhibit", "Description"],
                ["10.1", "Harborline Foods Corp. 2025 Executive Severance Plan"],
                ["31.1", "Certification of the Chief Executive Officer pursuant to Rule 13a-14(a)"],
                ["31.2", "Certification of the Chief Financial Officer pursuant to Rule 13a-14(a)"],
                ["32.1", "Certifications pursuant to 18 U.S.C. Section 1350"],
                ["101.INS", "Inline XBRL Instance Document"]], [], left_cols=[130], bold_rows={0}))
    b.append(H(["SIGNATURES"], 1, size=10, align="center", new_page=True, after=10, toc="\tSignatures"))
    b.append(para("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
                  "caused this report to be signed on its behalf by the undersigned thereunto duly authorized."))
    b += [L("HARBORLINE FOODS CORP.", 10, True, x=290), L("Date: May 6, 2025", 10),
          L("By: /s/ Renata M. Solberg", 10, x=290), L("Renata M. Solberg", 10, x=306),
          L("Executive Vice President and Chief Financial Officer", 10, x=306)]
    return b


def _header(i, n, tag, rel):
    if i == 0:
        return []
    out = [Text(LEFT, 762, 7, "Table of Contents")]
    if tag == "notes":
        a = "HARBORLINE FOODS CORP."
        b = "NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS (Unaudited)"
        out += [Text((LEFT + RIGHT) / 2 - width(a, 10, True) / 2, 744, 10, a, True),
                Text((LEFT + RIGHT) / 2 - width(b, 10, True) / 2, 731, 10, b, True)]
    return out


def _footer(i, n, tag, rel):
    if i == 0:
        return []
    s = str(i + 1)
    return [Text((LEFT + RIGHT) / 2 - width(s, 9) / 2, 36, 9, s)]


def build():
    global PR
    PR = Prose(2, "Harborline")
    pages, truth = render(cover(), toc, body(), _header, _footer)
    return "harborline_10q_q1_2025.pdf", make_pdf(pages, title="Harborline Foods Corp. Form 10-Q"), truth
