"""Document 1: an annual report on Form 10-K printed to PDF (Northwind Precision Instruments, Inc.)."""

from __future__ import annotations

from pdflayout import (LEFT, RIGHT, Break, H, L, P, T, Text, _wrap_text, make_pdf, para, render, width)
from prose import BUSINESS, HUMAN, MDA, NOTES, RISK, Prose

PR = Prose(1)

CO = "Northwind Precision Instruments, Inc."


def _paras(pool, n, seed=None, lo=2, hi=5, **kw):
    return [para(t, **kw) for t in PR.paras(pool, n, lo, hi)]


def part(label):
    return H([label], 1, size=12, align="center", before=22, after=12, toc=label, toc_level=-1)


def item(text, new_page=False):
    return H([text], 2, size=10, before=18, after=10, toc=text, new_page=new_page)


def sub(text, depth=3):
    return H([text], depth, size=10, before=10, after=6)


def note(text):
    return H([text], 3, size=10, before=18, after=8)


def risk(lead, seed, n=3):
    # a risk factor: the caption is a bold sentence that runs into the paragraph (not a heading)
    body = PR.sents(RISK, n)
    return para(body, lead=lead)


def cover():
    c = "center"
    return [
        L("UNITED STATES", 12, True, c), L("SECURITIES AND EXCHANGE COMMISSION", 12, True, c),
        L("Washington, D.C. 20549", 10, False, c, after=14),
        L("FORM 10-K", 16, True, c, after=10),
        L("(Mark One)", 9),
        P([("[X]  ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("For the fiscal year ended December 31, 2024", 10, False, c),
        L("OR", 10, True, c),
        P([("[  ]  TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("For the transition period from ____________ to ____________", 9, False, c),
        L("Commission File Number 001-38817", 10, False, c, after=12),
        L("NORTHWIND PRECISION INSTRUMENTS, INC.", 14, True, c),
        L("(Exact name of registrant as specified in its charter)", 8, False, c, after=8),
        T([["Delaware", "31-1547720"], ["(State or other jurisdiction of incorporation)",
                                         "(I.R.S. Employer Identification No.)"]], [RIGHT], size=9),
        L("4400 Research Boulevard, Dayton, Ohio 45424", 10, False, c),
        L("(Address of principal executive offices) (Zip Code)", 8, False, c),
        L("(937) 555-0140", 10, False, c),
        L("(Registrant's telephone number, including area code)", 8, False, c, after=8),
        L("Securities registered pursuant to Section 12(b) of the Act:", 9, True),
        T([["Title of each class", "Trading Symbol", "Name of each exchange on which registered"],
           ["Common Stock, $0.01 par value", "NWPI", "The Nasdaq Stock Market LLC"]],
          [], size=9, left_cols=[250, 340], bold_rows={0}),
        L("Securities registered pursuant to Section 12(g) of the Act: None", 9),
        P([("Indicate by check mark if the registrant is a well-known seasoned issuer, as defined in Rule 405 of "
            "the Securities Act. Yes [X] No [ ]", False)], size=9, leading=12, after=3),
        P([("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by "
            "Section 13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) "
            "has been subject to such filing requirements for the past 90 days. Yes [X] No [ ]", False)],
          size=9, leading=12, after=3),
        P([("The aggregate market value of the voting common stock held by non-affiliates of the registrant, "
            "computed by reference to the closing price on June 28, 2024, was approximately $3.1 billion. As of "
            "February 14, 2025, there were 41,862,310 shares of the registrant's common stock outstanding.",
            False)], size=9, leading=12, after=6),
        L("DOCUMENTS INCORPORATED BY REFERENCE", 9, True, c),
        P([("Portions of the registrant's definitive Proxy Statement for its 2025 Annual Meeting of "
            "Stockholders are incorporated by reference into Part III of this Annual Report on Form 10-K.",
            False)], size=9, leading=12),
    ]


def toc(entries, pages):
    blocks = [Break(), H(["TABLE OF CONTENTS"], None, size=11, align="center", after=10),
              T([["", "", "Page"]], [RIGHT], size=9, bold_rows={0}, left_cols=[126], after=2)]
    for (lvl, text), pg in zip(entries, pages):
        if lvl < 0:
            blocks.append(T([[text, "", ""]], [RIGHT], size=10, bold_rows={0}, leading=16, after=0,
                            left_cols=[126]))
        else:
            label, _, title = text.partition(". ")
            label = label.title() + "."
            if title.isupper():
                title = title.title().replace("'S", "'s").replace(" And ", " and ").replace(" Of ", " of ")
                title = title.replace(" On ", " on ").replace(" In ", " in ").replace(" With ", " with ")
                title = title.replace("10-K", "10-K").replace(" For ", " for ")
            if not title:
                label, title = "", text.title()
            lines = _wrap_text(title, 10, False, RIGHT - 40 - 126)
            for k, ln in enumerate(lines):
                last = k == len(lines) - 1
                blocks.append(T([[label if k == 0 else "", ln, str(pg + 1) if last else ""]], [RIGHT], size=10,
                                leading=14 if last else 12, after=0, left_cols=[126]))
    blocks.append(Break())
    return blocks


def body():
    b = []
    b += [P([("Unless the context otherwise requires, references in this Annual Report on Form 10-K to "
              "\"Northwind,\" \"the Company,\" \"we,\" \"us\" and \"our\" refer to Northwind Precision Instruments, "
              "Inc. and its consolidated subsidiaries.", False)], size=9, leading=12, after=6),
          L("CAUTIONARY NOTE REGARDING FORWARD-LOOKING STATEMENTS", 10, True, "center", after=6)]
    # The cautionary note is a real section of the document but sits before PART I; outline it at depth 1.
    b[-1] = H(["CAUTIONARY NOTE REGARDING FORWARD-LOOKING STATEMENTS"], 1, size=10, align="center", after=8)
    b += [para("This Annual Report contains forward-looking statements within the meaning of Section 27A of the "
               "Securities Act of 1933 and Section 21E of the Securities Exchange Act of 1934. Words such as "
               "\"anticipate,\" \"believe,\" \"expect,\" \"intend\" and \"will\" identify forward-looking statements. "
               "These statements are subject to risks and uncertainties, including those described in Part I, "
               "Item 1A. Risk Factors, and in Part II, Item 7 of this report. We undertake no obligation to "
               "update any forward-looking statement, except as required by law.")]
    b.append(part("PART I"))
    b.append(item("ITEM 1. BUSINESS"))
    b.append(sub("Overview"))
    b += _paras(BUSINESS, 2, 1)
    b.append(sub("Our Segments and Products"))
    b.append(para("We manage our business in two reportable segments. Financial information about our segments "
                  "is included in Note 10 of the Notes to Consolidated Financial Statements in Item 8 of this "
                  "report."))
    b.append(para(PR.sents(BUSINESS, 3), lead="Industrial Metrology."))
    b.append(para(PR.sents(BUSINESS, 3), lead="Life Science Instruments."))
    b.append(sub("Customers, Sales and Marketing"))
    b += _paras(BUSINESS, 2, 4)
    b.append(sub("Manufacturing and Suppliers"))
    b += _paras(BUSINESS, 1, 5)
    b.append(sub("Competition"))
    b += _paras(BUSINESS, 1, 6)
    b.append(sub("Intellectual Property"))
    b += _paras(BUSINESS, 1, 7)
    b.append(sub("Human Capital"))
    b += _paras(HUMAN, 2, 8)
    b.append(sub("Available Information"))
    b.append(para("Our Annual Reports on Form 10-K, Quarterly Reports on Form 10-Q, Current Reports on Form 8-K "
                  "and amendments to those reports are available free of charge on our website at "
                  "www.northwindpi.com as soon as reasonably practicable after we file them with the SEC. The "
                  "information on our website is not incorporated by reference into this report."))

    b.append(item("ITEM 1A. RISK FACTORS"))
    b.append(para("Our business is subject to numerous risks. You should carefully consider the risks described "
                  "below, together with the other information in this report, including Item 7 and our "
                  "consolidated financial statements and related notes."))
    b.append(sub("Risks Related to Our Business and Industry"))
    b.append(risk("Our results depend on capital spending by customers in cyclical industries.", 11))
    b.append(risk("We depend on a limited number of suppliers for certain critical components, and supply "
                  "disruptions could delay shipments.", 12))
    b.append(risk("Our international operations subject us to risks that could reduce our sales and "
                  "profitability.", 13, 2))
    b.append(sub("Risks Related to Information Technology and Cybersecurity"))
    b.append(risk("A breach of our information systems could disrupt operations and expose us to liability.", 14))
    b.append(sub("Risks Related to Our Indebtedness and Common Stock"))
    b.append(risk("Our credit agreement contains restrictions that limit our flexibility in operating our "
                  "business.", 15, 2))
    b.append(risk("The price of our common stock may be volatile.", 16, 2))

    b.append(item("ITEM 1B. UNRESOLVED STAFF COMMENTS"))
    b.append(para("None."))
    b.append(item("ITEM 1C. CYBERSECURITY"))
    b.append(sub("Risk Management and Strategy"))
    b.append(para("We maintain a cybersecurity program that is integrated into our enterprise risk management "
                  "process and is based on the NIST Cybersecurity Framework. We engage third-party assessors to "
                  "perform penetration tests and maturity assessments, and we evaluate the security practices of "
                  "vendors that have access to our systems. We did not identify any cybersecurity incident during "
                  "2024 that materially affected, or is reasonably likely to materially affect, the Company."))
    b.append(sub("Governance"))
    b.append(para("The Audit Committee of our Board of Directors oversees cybersecurity risk and receives reports "
                  "from our Chief Information Security Officer at least quarterly. Our Chief Information Security "
                  "Officer has more than twenty years of experience in information security and reports to our "
                  "Chief Financial Officer."))
    b.append(item("ITEM 2. PROPERTIES"))
    b.append(para("Our corporate headquarters and principal manufacturing facility are located in Dayton, Ohio, in "
                  "an owned building of approximately 410,000 square feet. We also own a manufacturing facility in "
                  "Eindhoven, the Netherlands, and lease sales and service offices in eleven countries. We believe "
                  "that our facilities are adequate for our current needs."))
    b.append(item("ITEM 3. LEGAL PROCEEDINGS"))
    b.append(para("Information regarding legal proceedings is included in Note 9, Commitments and Contingencies, "
                  "of the Notes to Consolidated Financial Statements included in Item 8 of this report, and is "
                  "incorporated herein by reference."))
    b.append(item("ITEM 4. MINE SAFETY DISCLOSURES"))
    b.append(para("Not applicable."))

    b.append(part("PART II"))
    b.append(item("ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER "
                  "PURCHASES OF EQUITY SECURITIES"))
    b.append(sub("Market Information and Holders"))
    b.append(para("Our common stock is traded on the Nasdaq Global Select Market under the symbol \"NWPI.\" As of "
                  "February 14, 2025, there were approximately 310 holders of record of our common stock. We have "
                  "not paid cash dividends in the last two fiscal years and do not currently intend to do so."))
    b.append(sub("Issuer Purchases of Equity Securities"))
    b.append(para("The following table presents information about repurchases of our common stock during the "
                  "quarter ended December 31, 2024:"))
    b.append(T([["Period", "Total shares", "Average price", "Remaining ($ millions)"],
                ["October 1 - October 31, 2024", "41,200", "$74.18", "$118.6"],
                ["November 1 - November 30, 2024", "56,950", "$76.02", "$114.3"],
                ["December 1 - December 31, 2024", "38,400", "$79.55", "$111.2"],
                ["Total", "136,550", "$76.44", ""]], [340, 430, 540], bold_rows={0, 4}))
    b.append(item("ITEM 6. [RESERVED]"))
    b.append(item("ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF "
                  "OPERATIONS"))
    b.append(para("The following discussion should be read in conjunction with our consolidated financial "
                  "statements and the related notes included in Item 8. A discussion of 2023 compared with 2022 "
                  "is included in Item 7 of our Annual Report on Form 10-K for the year ended December 31, 2023."))
    b.append(sub("Overview"))
    b += _paras(MDA, 1, 21)
    b.append(sub("Results of Operations"))
    b.append(T([["(in millions)", "2024", "2023", "Change"],
                ["Net sales", "$1,184.2", "$1,092.7", "8.4 %"],
                ["Gross profit", "521.0", "467.7", "11.4 %"],
                ["Operating income", "175.3", "144.2", "21.6 %"],
                ["Net income", "131.9", "104.8", "25.9 %"]], [360, 430, 500], bold_rows={0}))
    b += _paras(MDA, 3, 22)
    b.append(sub("Liquidity and Capital Resources"))
    b += _paras(MDA, 3, 23)
    b.append(sub("Critical Accounting Estimates"))
    b += _paras(MDA, 2, 24)
    b.append(item("ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK"))
    b.append(para("We are exposed to market risk from changes in foreign currency exchange rates and interest "
                  "rates. A hypothetical 10% change in the euro exchange rate would have changed our 2024 net sales "
                  "by approximately $38 million. A hypothetical 100 basis point increase in interest rates would "
                  "have increased our annual interest expense by approximately $1.0 million."))
    b.append(item("ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA"))
    b.append(H(["REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM"], 3, size=10, align="center",
               before=12, after=8))
    b.append(para("To the Stockholders and the Board of Directors of Northwind Precision Instruments, Inc.",
                  after=8))
    b.append(sub("Opinion on the Financial Statements", 4))
    b.append(para(" ".join([
        "We have audited the accompanying consolidated balance sheets of Northwind Precision Instruments, Inc. "
        "and subsidiaries (the Company) as of December 31, 2024 and 2023, the related consolidated statements "
        "of income, comprehensive income, stockholders' equity and cash flows for each of the three years in "
        "the period ended December 31, 2024, and the related notes.",
        "In our opinion, the consolidated financial statements present fairly, in all material respects, the "
        "financial position of the Company at December 31, 2024 and 2023."])))
    b.append(sub("Basis for Opinion", 4))
    b.append(para("These financial statements are the responsibility of the Company's management. Our "
                  "responsibility is to express an opinion on the Company's financial statements based on our "
                  "audits. We conducted our audits in accordance with the standards of the Public Company "
                  "Accounting Oversight Board (United States)."))
    b.append(L("/s/ Hollister & Vance LLP", 10))
    b.append(L("We have served as the Company's auditor since 2009.", 10))
    b.append(L("Columbus, Ohio", 10))
    b.append(L("February 24, 2025", 10, after=6))

    b.append(H(["CONSOLIDATED BALANCE SHEETS"], 3, size=11, align="center", new_page=True, after=4))
    b.append(L("(in thousands, except share and per share data)", 9, False, "center", after=6))
    b.append(T([["December 31,", "2024", "2023"],
                ["ASSETS", "", ""], ["Current assets:", "", ""],
                ["Cash and cash equivalents", "$ 214,377", "$ 168,905"],
                ["Accounts receivable, net", "201,884", "193,250"],
                ["Inventories", "176,412", "181,027"],
                ["Prepaid expenses and other current assets", "28,116", "24,880"],
                ["Total current assets", "620,789", "568,062"],
                ["Property, plant and equipment, net", "188,540", "176,301"],
                ["Goodwill", "412,655", "409,118"],
                ["Intangible assets, net", "96,210", "108,932"],
                ["Other assets", "31,074", "27,446"],
                ["Total assets", "$ 1,349,268", "$ 1,289,859"],
                ["LIABILITIES AND STOCKHOLDERS' EQUITY", "", ""], ["Current liabilities:", "", ""],
                ["Accounts payable", "$ 88,903", "$ 92,114"],
                ["Accrued compensation", "47,225", "39,870"],
                ["Deferred revenue", "61,337", "55,902"],
                ["Other current liabilities", "34,610", "36,208"],
                ["Total current liabilities", "232,075", "224,094"],
                ["Long-term debt", "95,000", "155,000"],
                ["Deferred income taxes", "22,418", "25,930"],
                ["Other long-term liabilities", "40,112", "38,771"],
                ["Total liabilities", "389,605", "443,795"],
                ["Commitments and contingencies (Note 9)", "", ""],
                ["Stockholders' equity:", "", ""],
                ["Common stock, $0.01 par value; 41,862,310 and 42,101,880 shares outstanding", "419", "421"],
                ["Additional paid-in capital", "402,388", "389,054"],
                ["Retained earnings", "589,147", "488,455"],
                ["Accumulated other comprehensive loss", "(32,291)", "(31,866)"],
                ["Total stockholders' equity", "959,663", "846,064"],
                ["Total liabilities and stockholders' equity", "$ 1,349,268", "$ 1,289,859"]],
               [450, 540], bold_rows={0, 1, 13},
               indents={3: 12, 4: 12, 5: 12, 6: 12, 7: 24, 15: 12, 16: 12, 17: 12, 18: 12, 19: 24,
                        27: 12, 28: 12, 29: 12, 30: 12, 31: 24}))
    b.append(L("See accompanying notes to consolidated financial statements.", 8, False, "center"))

    b.append(H(["CONSOLIDATED STATEMENTS OF INCOME"], 3, size=11, align="center", new_page=True, after=4))
    b.append(L("(in thousands, except per share data)", 9, False, "center", after=6))
    b.append(T([["Year Ended December 31,", "2024", "2023", "2022"],
                ["Net sales", "$ 1,184,207", "$ 1,092,688", "$ 981,340"],
                ["Cost of sales", "663,185", "624,981", "570,114"],
                ["Gross profit", "521,022", "467,707", "411,226"],
                ["Selling, general and administrative", "304,036", "285,318", "262,907"],
                ["Research and development", "41,704", "38,213", "33,876"],
                ["Operating income", "175,282", "144,176", "114,443"],
                ["Interest expense, net", "7,118", "10,602", "6,215"],
                ["Income before income taxes", "168,164", "133,574", "108,228"],
                ["Provision for income taxes", "36,292", "31,256", "24,670"],
                ["Net income", "$ 131,872", "$ 102,318", "$ 83,558"],
                ["Earnings per share:", "", "", ""],
                ["Basic", "$ 3.14", "$ 2.43", "$ 1.98"],
                ["Diluted", "$ 3.11", "$ 2.40", "$ 1.96"]],
               [380, 460, 540], bold_rows={0}, indents={12: 12, 13: 12}))
    b.append(L("See accompanying notes to consolidated financial statements.", 8, False, "center", after=10))

    b.append(H(["CONSOLIDATED STATEMENTS OF CASH FLOWS"], 3, size=11, align="center", before=24, after=4))
    b.append(L("(in thousands)", 9, False, "center", after=6))
    b.append(T([["Year Ended December 31,", "2024", "2023", "2022"],
                ["Operating activities:", "", "", ""],
                ["Net income", "$ 131,872", "$ 102,318", "$ 83,558"],
                ["Depreciation and amortization", "38,405", "35,717", "29,992"],
                ["Stock-based compensation", "14,226", "12,904", "11,310"],
                ["Changes in operating assets and liabilities", "(66,203)", "(54,139)", "(31,640)"],
                ["Net cash provided by operating activities", "118,300", "96,800", "93,220"],
                ["Investing activities:", "", "", ""],
                ["Capital expenditures", "(27,615)", "(24,208)", "(21,775)"],
                ["Acquisitions, net of cash acquired", "-", "(148,600)", "-"],
                ["Net cash used in investing activities", "(27,615)", "(172,808)", "(21,775)"],
                ["Financing activities:", "", "", ""],
                ["Net (repayments) borrowings under credit facility", "(60,000)", "95,000", "(20,000)"],
                ["Repurchases of common stock", "(31,206)", "(18,440)", "(25,112)"],
                ["Net cash (used in) provided by financing activities", "(88,218)", "78,335", "(43,902)"],
                ["Net increase in cash and cash equivalents", "45,472", "2,327", "27,543"]],
               [380, 460, 540], bold_rows={0},
               indents={2: 12, 3: 12, 4: 12, 5: 12, 6: 24, 8: 12, 9: 12, 10: 24, 12: 12, 13: 12, 14: 24}))

    # Notes: 'NOTE n - TITLE' in bold capitals; Note 1 has own-line bold sub-headings (depth 4).
    b.append(Break())
    b.append(note("NOTE 1 - SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES"))
    for i, head in enumerate(["Principles of Consolidation", "Use of Estimates", "Revenue Recognition",
                              "Inventories", "Goodwill and Intangible Assets"]):
        b.append(sub(head, 4))
        b += _paras(NOTES, 1, lo=2, hi=3)
    b.append(note("NOTE 2 - ACQUISITIONS"))
    b.append(para("On May 1, 2023, we acquired all of the outstanding equity of Vantage Optics B.V., a "
                  "manufacturer of optical inspection systems, for cash consideration of $148.6 million, net of "
                  "cash acquired. The results of Vantage Optics are included in our Industrial Metrology segment "
                  "from the date of acquisition. Goodwill of $71.2 million arising from the acquisition is not "
                  "deductible for tax purposes."))
    b.append(note("NOTE 3 - INVENTORIES"))
    b.append(para("Inventories consisted of the following (in thousands):"))
    b.append(T([["December 31,", "2024", "2023"], ["Raw materials", "$ 82,310", "$ 88,904"],
                ["Work in process", "39,655", "41,217"], ["Finished goods", "54,447", "50,906"],
                ["Total inventories", "$ 176,412", "$ 181,027"]], [450, 540], bold_rows={0}))
    b.append(note("NOTE 4 - PROPERTY, PLANT AND EQUIPMENT"))
    b += _paras(NOTES, 1, lo=2, hi=3)
    b.append(note("NOTE 5 - GOODWILL AND INTANGIBLE ASSETS"))
    b += _paras(NOTES, 2, lo=2, hi=3)
    b.append(note("NOTE 6 - DEBT"))
    b.append(para("On March 14, 2025, we entered into an amended and restated credit agreement providing for a "
                  "$400.0 million revolving credit facility maturing in 2030. Borrowings bear interest at Term "
                  "SOFR plus a margin of 1.00% to 1.75% based on our consolidated leverage ratio. The credit "
                  "agreement requires us to maintain a consolidated leverage ratio of not more than 3.50 to 1.00 "
                  "and an interest coverage ratio of not less than 3.00 to 1.00. See also Item 7, Liquidity and "
                  "Capital Resources."))
    b.append(note("NOTE 7 - INCOME TAXES"))
    b += _paras(NOTES, 2, lo=2, hi=3)
    b.append(note("NOTE 8 - STOCK-BASED COMPENSATION"))
    b += _paras(NOTES, 1, lo=2, hi=3)
    b.append(note("NOTE 9 - COMMITMENTS AND CONTINGENCIES"))
    b.append(para("In August 2023, a former distributor filed a complaint against the Company in the United States "
                  "District Court for the Southern District of Ohio alleging breach of contract. The Company "
                  "believes the claims are without merit and intends to defend the matter vigorously. Management "
                  "does not believe that the outcome will have a material adverse effect on the Company's "
                  "financial position."))
    b.append(note("NOTE 10 - SEGMENT INFORMATION"))
    b.append(para("Our chief operating decision maker evaluates performance based on segment operating income. "
                  "The accounting policies of the segments are the same as those described in Note 1."))
    b.append(T([["(in thousands)", "2024", "2023", "2022"],
                ["Industrial Metrology", "$ 812,440", "$ 735,106", "$ 640,870"],
                ["Life Science Instruments", "371,767", "357,582", "340,470"],
                ["Total net sales", "$ 1,184,207", "$ 1,092,688", "$ 981,340"]], [380, 460, 540],
               bold_rows={0}))

    b.append(item("ITEM 9. CHANGES IN AND DISAGREEMENTS WITH ACCOUNTANTS ON ACCOUNTING AND FINANCIAL "
                  "DISCLOSURE", new_page=True))
    b.append(para("None."))
    b.append(item("ITEM 9A. CONTROLS AND PROCEDURES"))
    b.append(sub("Evaluation of Disclosure Controls and Procedures"))
    b.append(para("Our management, with the participation of our Chief Executive Officer and Chief Financial "
                  "Officer, evaluated the effectiveness of our disclosure controls and procedures as of December "
                  "31, 2024. Based on that evaluation, they concluded that our disclosure controls and procedures "
                  "were effective at the reasonable assurance level."))
    b.append(sub("Management's Report on Internal Control over Financial Reporting"))
    b.append(para("Management is responsible for establishing and maintaining adequate internal control over "
                  "financial reporting. Management assessed the effectiveness of our internal control over "
                  "financial reporting as of December 31, 2024 using the criteria in Internal Control - "
                  "Integrated Framework (2013) and concluded that it was effective."))
    b.append(item("ITEM 9B. OTHER INFORMATION"))
    b.append(para("During the three months ended December 31, 2024, none of our directors or officers adopted or "
                  "terminated a Rule 10b5-1 trading arrangement or non-Rule 10b5-1 trading arrangement."))
    b.append(item("ITEM 9C. DISCLOSURE REGARDING FOREIGN JURISDICTIONS THAT PREVENT INSPECTIONS"))
    b.append(para("Not applicable."))

    b.append(part("PART III"))
    inc = ("The information required by this item is incorporated by reference to our definitive Proxy "
           "Statement for the 2025 Annual Meeting of Stockholders, which will be filed within 120 days after "
           "the end of our fiscal year.")
    for t in ["ITEM 10. DIRECTORS, EXECUTIVE OFFICERS AND CORPORATE GOVERNANCE", "ITEM 11. EXECUTIVE COMPENSATION",
              "ITEM 12. SECURITY OWNERSHIP OF CERTAIN BENEFICIAL OWNERS AND MANAGEMENT AND RELATED STOCKHOLDER "
              "MATTERS", "ITEM 13. CERTAIN RELATIONSHIPS AND RELATED TRANSACTIONS, AND DIRECTOR INDEPENDENCE",
              "ITEM 14. PRINCIPAL ACCOUNTANT FEES AND SERVICES"]:
        b.append(item(t))
        b.append(para(inc))
    b.append(part("PART IV"))
    b.append(item("ITEM 15. EXHIBIT AND FINANCIAL STATEMENT SCHEDULES"))
    b.append(para("(a) The following documents are filed as part of this report:", after=4))
    b.append(para("1. Financial Statements: see the index to the consolidated financial statements in Item 8.",
                  indent=18, after=4))
    b.append(para("2. Exhibits: the exhibits listed below are filed or incorporated by reference as part of this "
                  "report.", indent=18))
    b.append(T([["Exhibit No.", "Description"],
                ["3.1", "Amended and Restated Certificate of Incorporation"],
                ["3.2", "Amended and Restated Bylaws"],
                ["10.1", "Amended and Restated Credit Agreement, dated as of March 14, 2025"],
                ["21.1", "Subsidiaries of the Registrant"],
                ["23.1", "Consent of Hollister & Vance LLP"],
                ["31.1", "Certification of Chief Executive Officer pursuant to Rule 13a-14(a)"],
                ["32.1", "Certification pursuant to 18 U.S.C. Section 1350"]], [], left_cols=[140],
               bold_rows={0}))
    b.append(item("ITEM 16. FORM 10-K SUMMARY"))
    b.append(para("None."))
    b.append(H(["SIGNATURES"], 1, size=11, align="center", new_page=True, after=10, toc="SIGNATURES"))
    b.append(para("Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of 1934, the "
                  "registrant has duly caused this report to be signed on its behalf by the undersigned, "
                  "thereunto duly authorized."))
    b += [L("NORTHWIND PRECISION INSTRUMENTS, INC.", 10, True, x=300),
          L("By: /s/ Daniel R. Whitcomb", 10, x=300), L("Daniel R. Whitcomb", 10, x=318),
          L("President and Chief Executive Officer", 10, x=318), L("Date: February 24, 2025", 10, x=300)]
    return b


def _header(i, n, tag, rel):
    if i < 2:
        return []
    return [Text(LEFT, 752, 8, CO), Text(RIGHT - width("2024 Form 10-K", 8), 752, 8, "2024 Form 10-K")]


def _footer(i, n, tag, rel):
    if i < 2:
        return []
    s = str(i - 1)
    return [Text((LEFT + RIGHT) / 2 - width(s, 9) / 2, 36, 9, s)]


def build():
    global PR
    PR = Prose(1, "Northwind")
    pages, truth = render(cover(), toc, body(), _header, _footer)
    return "northwind_10k_2024.pdf", make_pdf(pages, title="Northwind Precision Instruments 10-K 2024"), truth
