"""Document A: an annual report on Form 10-K printed to PDF (Meridian Ledger Systems, Inc., a cloud
accounting-software company; fiscal year ended June 30, 2024).

Layout: cover page; a "TABLE OF CONTENTS" page with dot-leader rows; items as one bold 11 pt mixed-case line
("Item 7. Management's Discussion ...") under a left-aligned bold PART line; Item 1 and MD&A sub-headings in
bold capitals, MD&A sub-sub-headings bold mixed case; statements each start a page under a bold company-name
line; notes are "Note 4. Debt" in bold;
the running header is the company name left and "Fiscal 2024 Annual Report" right, the footer "Page n"
right-aligned with the ticker left."""

from __future__ import annotations

from pdflayout import LEFT, RIGHT, Break, H, L, P, T, Text, _wrap_text, make_pdf, para, render, width

CO = "Meridian Ledger Systems, Inc."
FILE = "meridian_10k_fy2024.pdf"


def part(label):
    return H([label], 1, size=11, align="left", before=22, after=8, toc=label, toc_level=-1)


def item(label, title, new_page=False):
    text = f"{label} {title}"
    return H([text], 2, size=11, before=16, after=8, toc=f"{label}\t{title}", new_page=new_page)


def sub(text, depth=3):
    return H([text], depth, size=10, before=10, after=6)


def note(num, title):
    return H([f"Note {num}. {title}"], 3, size=10, before=16, after=6)


def statement(title, unit):
    return [Break(), L("MERIDIAN LEDGER SYSTEMS, INC.", 10, True, "center"),
            H([title], 3, size=10, align="center", before=0, after=2),
            L(unit, 9, False, "center", after=8)]


def cover():
    c = "center"
    return [
        L("UNITED STATES", 12, True, c), L("SECURITIES AND EXCHANGE COMMISSION", 12, True, c),
        L("Washington, D.C. 20549", 10, False, c, after=12),
        L("FORM 10-K", 16, True, c, after=10),
        P([("[X]  ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("For the fiscal year ended June 30, 2024", 10, True, c),
        L("or", 9, False, c),
        P([("[  ]  TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True)],
          size=9, leading=12, after=4),
        L("Commission File Number: 001-40562", 10, False, c, after=12),
        L("MERIDIAN LEDGER SYSTEMS, INC.", 15, True, c),
        L("(Exact name of registrant as specified in its charter)", 8, False, c, after=8),
        T([["Delaware", "56-2219874"], ["(State or other jurisdiction of incorporation or organization)",
                                        "(I.R.S. Employer Identification No.)"]], [RIGHT], size=9),
        L("2100 Glenwood Commons Parkway, Suite 800, Raleigh, North Carolina 27608", 10, False, c),
        L("(Address of principal executive offices, including zip code)", 8, False, c),
        L("(919) 555-0177", 10, False, c, after=8),
        L("Securities registered pursuant to Section 12(b) of the Act:", 9, True),
        T([["Title of each class", "Trading Symbol(s)", "Name of each exchange on which registered"],
           ["Common Stock, $0.001 par value", "MLSY", "The Nasdaq Global Select Market"]],
          [], size=9, left_cols=[250, 340], bold_rows={0}),
        P([("Indicate by check mark whether the registrant (1) has filed all reports required to be filed by "
            "Section 13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) "
            "has been subject to such filing requirements for the past 90 days. Yes [X] No [ ]", False)],
          size=9, leading=12, after=3),
        P([("Indicate by check mark whether the registrant is a large accelerated filer, an accelerated filer, a "
            "non-accelerated filer, a smaller reporting company, or an emerging growth company. Large "
            "accelerated filer [X]", False)], size=9, leading=12, after=3),
        P([("The aggregate market value of the registrant's common stock held by non-affiliates, based on the "
            "closing price of the common stock on December 29, 2023, the last business day of the registrant's "
            "most recently completed second fiscal quarter, was approximately $1.6 billion. As of August 16, "
            "2024, there were 38,190,442 shares of the registrant's common stock outstanding.", False)],
          size=9, leading=12, after=6),
        L("DOCUMENTS INCORPORATED BY REFERENCE", 9, True, c),
        P([("Portions of the registrant's definitive Proxy Statement relating to its 2024 Annual Meeting of "
            "Stockholders are incorporated by reference into Part III of this Annual Report on Form 10-K.",
            False)], size=9, leading=12),
    ]


def _dots(label_x, title, page, size=10):
    # a TOC row: title, dot leader, page number at RIGHT
    w = width(title, size)
    room = RIGHT - 16 - (label_x + w) - 6
    n = max(0, int(room / width(" .", size)))
    return title + " " + " ." * n


def toc(entries, pages):
    blocks = [Break(), H(["TABLE OF CONTENTS"], None, size=11, align="center", after=12)]
    for (lvl, text), pg in zip(entries, pages):
        if lvl < 0:
            blocks.append(T([[text, ""]], [RIGHT], size=10, bold_rows={0}, leading=18, after=0))
            continue
        label, _, title = text.partition("\t")
        lines = _wrap_text(title, 10, False, RIGHT - 60 - 130)
        for k, ln in enumerate(lines):
            last = k == len(lines) - 1
            shown = _dots(130, ln, pg) if last else ln
            blocks.append(T([[label if k == 0 else "", shown, str(pg + 1) if last else ""]], [RIGHT], size=10,
                            leading=14 if last else 12, after=0, left_cols=[130]))
    blocks.append(Break())
    return blocks


def risk(lead, text):
    return P([(lead, True), (" " + text, False)], after=8)


def body():
    b = []
    b.append(H(["SPECIAL NOTE REGARDING FORWARD-LOOKING STATEMENTS"], 1, size=10, align="left", after=6))
    b.append(para("This Annual Report on Form 10-K contains forward-looking statements within the meaning of the "
                  "Private Securities Litigation Reform Act of 1995, including statements about our expected "
                  "revenue, the adoption of our cloud platform, our payments volumes and our capital allocation "
                  "plans. Words such as \"expect,\" \"plan,\" \"anticipate,\" \"believe\" and \"will\" identify "
                  "forward-looking statements, which are subject to the risks described in Item 1A. In this "
                  "report, \"Meridian,\" the \"Company,\" \"we,\" \"us\" and \"our\" refer to Meridian Ledger "
                  "Systems, Inc. and its subsidiaries. Our fiscal year ends on June 30; references to fiscal 2024, "
                  "fiscal 2023 and fiscal 2022 are to the fiscal years ended June 30, 2024, 2023 and 2022."))

    b.append(part("PART I"))
    b.append(item("Item 1.", "Business"))
    b.append(sub("OVERVIEW"))
    b.append(para("Meridian provides cloud-based accounting, billing and accounts payable automation software "
                  "to mid-sized businesses, accounting firms and non-profit organizations. Our platform, "
                  "Meridian Cloud, combines a general ledger, multi-entity consolidation, revenue management and "
                  "spend management in a single multi-tenant application that customers access through a web "
                  "browser or our mobile applications. We were incorporated in Delaware in 2009 and completed "
                  "our initial public offering in July 2021. Our corporate headquarters is located in Raleigh, "
                  "North Carolina."))
    b.append(para("We generate revenue from three sources: subscriptions to Meridian Cloud, fees earned on "
                  "payments that our customers make and receive through Meridian Pay, and professional services "
                  "for implementation, data migration and training. Subscription agreements generally have "
                  "terms of one to three years and are billed annually in advance."))
    b.append(sub("OUR SEGMENTS"))
    b.append(para("We have three reportable segments. Financial information about our segments, including "
                  "revenue for each of the last three fiscal years, appears in Note 2 to the consolidated "
                  "financial statements."))
    b.append(risk("Cloud Platform.", "The Cloud Platform segment sells subscriptions to Meridian Cloud and to "
                  "add-on modules for planning, fixed assets and multi-currency reporting. Customers typically "
                  "expand their use of the platform over time by adding entities, users and modules."))
    b.append(risk("Payments.", "Through Meridian Pay, customers pay vendors by ACH, virtual card, check and "
                  "cross-border wire directly from the platform, and accept card and bank payments from their "
                  "own customers. We earn a fee on each transaction and interest on certain customer funds held "
                  "in transit, and we rely on bank partners to settle the funds."))
    b.append(risk("Professional Services.", "Our services organization and a network of certified "
                  "implementation partners help customers configure the platform and migrate historical data. "
                  "We price most engagements on a fixed-fee basis."))
    b.append(sub("SALES AND MARKETING"))
    b.append(para("We sell through a direct inside and field sales force, through accounting firms that resell "
                  "the platform to their clients, and through integrations listed in the marketplaces of "
                  "banking and payroll providers. Our marketing programs include digital advertising, webinars, "
                  "an annual customer conference and a certification program for accounting professionals. No "
                  "single customer represented more than 1% of our total revenue in any of the last three "
                  "fiscal years."))
    b.append(sub("COMPETITION"))
    b.append(para("The market for financial management software is highly competitive and fragmented. We "
                  "compete with large enterprise resource planning vendors, with accounting software designed "
                  "for small businesses, and with point solutions for payables, billing and expense management. "
                  "We believe we compete favorably on the basis of product breadth, ease of use, the quality of "
                  "our integrations and total cost of ownership."))
    b.append(sub("RESEARCH AND DEVELOPMENT"))
    b.append(para("Our research and development organization is responsible for the design, development, "
                  "testing and operation of our platform. Our engineering teams are located principally in "
                  "Raleigh, North Carolina, Toronto, Ontario and Dublin, Ireland."))
    b.append(sub("HUMAN CAPITAL"))
    b.append(para("As of June 30, 2024, we had approximately 2,160 full-time employees, of whom approximately "
                  "640 were located outside the United States. Approximately 41% of our employees work in "
                  "research and development and technical operations. None of our employees is represented by "
                  "a labor union, and we have never experienced a work stoppage. We measure engagement through "
                  "a semi-annual survey and offer every employee an annual learning stipend."))
    b.append(sub("AVAILABLE INFORMATION"))
    b.append(para("We make our Annual Reports on Form 10-K, Quarterly Reports on Form 10-Q, Current Reports on "
                  "Form 8-K and amendments to those reports available free of charge on our investor relations "
                  "website at investors.meridianledger.com as soon as reasonably practicable after we file them "
                  "with the SEC."))

    b.append(item("Item 1A.", "Risk Factors"))
    b.append(para("Investing in our common stock involves risks. You should carefully consider the risks below "
                  "together with the other information in this report before making an investment decision."))
    b.append(risk("If we fail to retain and expand our relationships with existing customers, our revenue "
                  "growth will slow.", "Our subscription agreements do not obligate customers to renew, and "
                  "customers may reduce the number of entities or users at renewal. A decline in renewal or "
                  "expansion rates could adversely affect our revenue and operating results."))
    b.append(risk("Our Payments revenue depends on transaction volumes and on our bank partners.", "Payments "
                  "revenue fluctuates with the number and value of payments processed through our platform and "
                  "with short-term interest rates. The loss of a bank partner, or new regulatory requirements "
                  "applicable to money transmission, could disrupt our payments offering."))
    b.append(risk("A security breach or service interruption could harm our reputation and expose us to "
                  "liability.", "Our platform stores and transmits our customers' confidential financial data. "
                  "Any unauthorized access to that data, or any prolonged outage of our hosting facilities, "
                  "could result in claims, regulatory investigations and a loss of customers."))
    b.append(risk("Our credit agreement contains restrictive covenants.", "The agreement governing our "
                  "revolving credit facility limits our ability to incur additional indebtedness, grant liens, "
                  "pay dividends and repurchase stock, and requires us to comply with financial ratios."))
    b.append(risk("The market price of our common stock may be volatile.", "Software company valuations can "
                  "change rapidly in response to changes in growth expectations, interest rates and general "
                  "market conditions, and you could lose part or all of your investment."))

    b.append(item("Item 1B.", "Unresolved Staff Comments"))
    b.append(para("None."))
    b.append(item("Item 1C.", "Cybersecurity"))
    b.append(para("We maintain an information security program aligned with the ISO/IEC 27001 standard and "
                  "obtain an annual SOC 1 Type II and SOC 2 Type II report on our platform. Our Chief "
                  "Information Security Officer reports to our Chief Technology Officer and briefs the Audit "
                  "Committee each quarter. We did not identify any cybersecurity incident in fiscal 2024 that "
                  "materially affected, or is reasonably likely to materially affect, the Company."))
    b.append(item("Item 2.", "Properties"))
    b.append(para("Our corporate headquarters occupies approximately 186,000 square feet of leased office space "
                  "in Raleigh, North Carolina, under a lease that expires in 2031. We also lease offices in "
                  "Denver, Colorado; Toronto, Ontario; and Dublin, Ireland. Our platform is hosted in "
                  "third-party co-location data centers in Ashburn, Virginia and Phoenix, Arizona, and in a "
                  "public cloud region in Europe. We believe our facilities are adequate for our current needs."))
    b.append(item("Item 3.", "Legal Proceedings"))
    b.append(para("From time to time we are involved in legal proceedings arising in the ordinary course of "
                  "business. We are not currently a party to any proceeding that we believe is likely to have a "
                  "material adverse effect on our business or financial condition."))
    b.append(item("Item 4.", "Mine Safety Disclosures"))
    b.append(para("Not applicable."))

    b.append(part("PART II"))
    b.append(item("Item 5.", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer "
                  "Purchases of Equity Securities"))
    b.append(para("Our common stock trades on The Nasdaq Global Select Market under the symbol \"MLSY.\" As of "
                  "August 16, 2024, there were 212 holders of record of our common stock. We have never "
                  "declared or paid cash dividends on our common stock, and we do not anticipate paying cash "
                  "dividends in the foreseeable future."))
    b.append(sub("Issuer Purchases of Equity Securities"))
    b.append(para("In August 2023, our Board of Directors authorized a program to repurchase up to $100.0 "
                  "million of our common stock. The program has no expiration date. During fiscal 2024 we "
                  "repurchased 612,480 shares for an aggregate of $27.9 million, at an average price of $45.52 "
                  "per share. The following table presents repurchases during the fourth quarter of fiscal 2024:"))
    b.append(T([["", "Total Number", "Average", "Shares Purchased", "Dollar Value That"],
                ["", "of Shares", "Price Paid", "Under Publicly", "May Yet Be Purchased"],
                ["Period", "Purchased", "per Share", "Announced Program", "(in thousands)"],
                ["April 1 - April 30, 2024", "68,200", "$ 46.18", "68,200", "$ 78,841"],
                ["May 1 - May 31, 2024", "71,900", "$ 44.62", "71,900", "$ 75,633"],
                ["June 1 - June 30, 2024", "74,200", "$ 47.35", "74,200", "$ 72,120"],
                ["Total", "214,300", "$ 46.06", "214,300", ""]],
               [262, 330, 430, 540], bold_rows={0, 1, 2, 6}, size=8.5))
    b.append(item("Item 6.", "[Reserved]"))

    b.append(item("Item 7.", "Management's Discussion and Analysis of Financial Condition and Results of "
                  "Operations", new_page=True))
    b.append(para("The following discussion should be read together with our consolidated financial statements "
                  "and related notes in Item 8. A discussion of fiscal 2023 compared with fiscal 2022 is "
                  "included in our Annual Report on Form 10-K for fiscal 2023."))
    b.append(sub("FISCAL 2024 HIGHLIGHTS"))
    b.append(para("Total revenue was $585.8 million in fiscal 2024, an increase of 16.8% from $501.7 million in "
                  "fiscal 2023. Operating income was $65.8 million, compared with $37.6 million in fiscal 2023, "
                  "and net income was $53.2 million, or $1.34 per diluted share. We ended the year with $281.6 "
                  "million of cash, cash equivalents and short-term investments."))
    b.append(sub("RESULTS OF OPERATIONS"))
    b.append(H(["Revenue"], 4, size=10, before=8, after=4))
    b.append(para("Subscription revenue from our Cloud Platform segment increased 17.5% to $412.6 million, "
                  "driven by new customers and by existing customers adding entities and modules. Payments "
                  "revenue increased 21.8% to $118.9 million as total payment volume grew and a larger share of "
                  "payments moved to virtual cards, which carry higher fees. Professional Services revenue "
                  "increased 2.7% to $54.3 million, as more implementations were performed by partners. "
                  "Revenue from customers outside the United States was 14% of total revenue in fiscal 2024."))
    b.append(H(["Gross Margin"], 4, size=10, before=8, after=4))
    b.append(para("Gross margin improved to 70.8% from 69.6% in fiscal 2023, reflecting the growing share of "
                  "subscription revenue and lower hosting costs per customer after we migrated our European "
                  "customers to a public cloud region."))
    b.append(H(["Operating Expenses"], 4, size=10, before=8, after=4))
    b.append(para("Research and development expense increased to $128.5 million, primarily from higher "
                  "headcount in engineering. Sales and marketing expense increased to $156.2 million but "
                  "declined as a percentage of revenue to 26.7%. General and administrative expense was $64.1 "
                  "million. Stock-based compensation expense, which is included in each of these lines, was "
                  "$44.3 million, compared with $38.7 million in fiscal 2023."))
    b.append(H(["Income Taxes"], 4, size=10, before=8, after=4))
    b.append(para("Our effective tax rate was 22.2% in fiscal 2024, compared with 24.1% in fiscal 2023. The "
                  "decrease reflects excess tax benefits from stock-based compensation and a higher research "
                  "and development credit."))
    b.append(sub("LIQUIDITY AND CAPITAL RESOURCES"))
    b.append(para("Our principal sources of liquidity are cash generated by operations, our cash, cash "
                  "equivalents and short-term investments, and our $250.0 million revolving credit facility. "
                  "Net cash provided by operating activities was $140.9 million in fiscal 2024, compared with "
                  "$97.8 million in fiscal 2023, reflecting higher net income and growth in deferred revenue "
                  "from annual billings."))
    b.append(para("Capital expenditures were $18.6 million in fiscal 2024, compared with $14.2 million in fiscal "
                  "2023, and consisted mainly of data center hardware and the build-out of additional space at "
                  "our Raleigh headquarters. Separately, we capitalized $12.3 million of internal-use software "
                  "development costs. We expect capital expenditures in fiscal 2025 to be similar to fiscal "
                  "2024 as a percentage of revenue."))
    b.append(para("During fiscal 2024 we repaid $50.0 million of borrowings under the revolving credit facility, "
                  "leaving $75.0 million outstanding at June 30, 2024, and we repurchased $27.9 million of our "
                  "common stock. We believe our existing liquidity will be sufficient to meet our working "
                  "capital, capital expenditure and debt service needs for at least the next twelve months."))
    b.append(sub("CRITICAL ACCOUNTING ESTIMATES"))
    b.append(para("Our most significant estimates relate to the identification of performance obligations and "
                  "standalone selling prices in multi-element arrangements, the capitalization of internal-use "
                  "software, and the assessment of goodwill for impairment. We performed our annual goodwill "
                  "impairment test as of April 1, 2024 and concluded that goodwill was not impaired."))
    b.append(item("Item 7A.", "Quantitative and Qualitative Disclosures About Market Risk"))
    b.append(para("Borrowings under our revolving credit facility bear interest at variable rates. A hypothetical "
                  "100 basis point increase in interest rates would have increased our fiscal 2024 interest "
                  "expense by approximately $1.0 million. Our exposure to foreign currency exchange rates "
                  "relates mainly to operating expenses in Canada and Ireland and is not material."))

    b.append(item("Item 8.", "Financial Statements and Supplementary Data", new_page=True))
    b.append(H(["REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM"], 3, size=10, align="center",
               before=8, after=6))
    b.append(para("To the Stockholders and the Board of Directors of Meridian Ledger Systems, Inc."))
    b.append(H(["Opinion on the Financial Statements"], 4, size=10, bold=True, before=6, after=4))
    b.append(para("We have audited the accompanying consolidated balance sheets of Meridian Ledger Systems, Inc. "
                  "(the Company) as of June 30, 2024 and 2023, the related consolidated statements of operations, "
                  "stockholders' equity and cash flows for each of the three years in the period ended June 30, "
                  "2024, and the related notes. In our opinion, the consolidated financial statements present "
                  "fairly, in all material respects, the financial position of the Company at June 30, 2024 and "
                  "2023, and the results of its operations and its cash flows for each of the three years in "
                  "the period ended June 30, 2024, in conformity with U.S. generally accepted accounting "
                  "principles."))
    b.append(H(["Basis for Opinion"], 4, size=10, bold=True, before=6, after=4))
    b.append(para("These financial statements are the responsibility of the Company's management. Our "
                  "responsibility is to express an opinion on the Company's financial statements based on our "
                  "audits. We conducted our audits in accordance with the standards of the Public Company "
                  "Accounting Oversight Board (United States)."))
    b.append(H(["Critical Audit Matter"], 4, size=10, bold=True, before=6, after=4))
    b.append(para("Revenue recognition for multi-element arrangements. Auditing the Company's allocation of "
                  "contract consideration to subscription, payments and professional services performance "
                  "obligations was complex because of the judgment involved in estimating standalone selling "
                  "prices."))
    b.append(L("/s/ Pemberton Ashford LLP", 10))
    b.append(L("We have served as the Company's auditor since 2016.", 10))
    b.append(L("Charlotte, North Carolina", 10))
    b.append(L("August 27, 2024", 10, after=6))

    b += statement("CONSOLIDATED BALANCE SHEETS", "(in thousands, except share and per share amounts)")
    b.append(T([["", "June 30, 2024", "June 30, 2023"],
                ["Assets", "", ""],
                ["Current assets:", "", ""],
                ["Cash and cash equivalents", "$ 186,420", "$ 142,318"],
                ["Short-term investments", "95,210", "88,604"],
                ["Accounts receivable, net", "104,377", "91,250"],
                ["Prepaid expenses and other current assets", "22,915", "19,442"],
                ["Total current assets", "408,922", "341,614"],
                ["Property and equipment, net", "48,730", "41,116"],
                ["Operating lease right-of-use assets", "31,204", "35,870"],
                ["Capitalized software development costs, net", "27,660", "22,180"],
                ["Goodwill", "214,506", "214,506"],
                ["Intangible assets, net", "38,912", "47,305"],
                ["Deferred tax assets", "12,440", "10,985"],
                ["Other assets", "9,118", "8,377"],
                ["Total assets", "$ 791,492", "$ 721,953"],
                ["Liabilities and Stockholders' Equity", "", ""],
                ["Current liabilities:", "", ""],
                ["Accounts payable", "$ 14,226", "$ 12,905"],
                ["Accrued compensation and benefits", "38,640", "31,772"],
                ["Deferred revenue, current", "162,885", "139,410"],
                ["Operating lease liabilities, current", "8,115", "7,960"],
                ["Other accrued liabilities", "17,302", "15,518"],
                ["Total current liabilities", "241,168", "207,565"],
                ["Deferred revenue, noncurrent", "11,470", "9,835"],
                ["Long-term debt, net", "74,385", "124,120"],
                ["Operating lease liabilities, noncurrent", "26,840", "31,905"],
                ["Other long-term liabilities", "5,612", "4,980"],
                ["Total liabilities", "359,475", "378,405"],
                ["Commitments and contingencies (Note 5)", "", ""],
                ["Stockholders' equity:", "", ""],
                ["Common stock, $0.001 par value; 38,214,660 and", "", ""],
                ["38,305,112 shares outstanding, respectively", "38", "38"],
                ["Additional paid-in capital", "433,232", "371,448"],
                ["Treasury stock, at cost", "(27,880)", "-"],
                ["Retained earnings (accumulated deficit)", "27,831", "(25,320)"],
                ["Accumulated other comprehensive loss", "(1,204)", "(2,618)"],
                ["Total stockholders' equity", "432,017", "343,548"],
                ["Total liabilities and stockholders' equity", "$ 791,492", "$ 721,953"]],
               [455, 540], bold_rows={0, 1, 16}, size=8.5, leading=11.5,
               indents={3: 12, 4: 12, 5: 12, 6: 12, 7: 24, 18: 12, 19: 12, 20: 12, 21: 12, 22: 12, 23: 24,
                        31: 12, 32: 18, 33: 12, 34: 12, 35: 12, 36: 12, 37: 24}))
    b.append(L("The accompanying notes are an integral part of these consolidated financial statements.", 8,
               False, "center"))

    b += statement("CONSOLIDATED STATEMENTS OF OPERATIONS", "(in thousands, except per share amounts)")
    b.append(T([["", "Fiscal Year Ended June 30,", "", ""],
                ["", "2024", "2023", "2022"],
                ["Revenue:", "", "", ""],
                ["Subscription", "$ 412,580", "$ 351,240", "$ 296,310"],
                ["Payments", "118,940", "97,615", "80,022"],
                ["Professional services", "54,317", "52,880", "49,905"],
                ["Total revenue", "585,837", "501,735", "426,237"],
                ["Cost of revenue", "171,204", "152,388", "134,560"],
                ["Gross profit", "414,633", "349,347", "291,677"],
                ["Operating expenses:", "", "", ""],
                ["Research and development", "128,455", "112,070", "98,342"],
                ["Sales and marketing", "156,220", "140,915", "124,806"],
                ["General and administrative", "64,118", "58,730", "51,117"],
                ["Total operating expenses", "348,793", "311,715", "274,265"],
                ["Income from operations", "65,840", "37,632", "17,412"],
                ["Interest expense", "(6,912)", "(8,405)", "(5,230)"],
                ["Interest and other income, net", "9,386", "4,117", "612"],
                ["Income before income taxes", "68,314", "33,344", "12,794"],
                ["Provision for income taxes", "15,163", "8,036", "3,607"],
                ["Net income", "$ 53,151", "$ 25,308", "$ 9,187"],
                ["Net income per share:", "", "", ""],
                ["Basic", "$ 1.38", "$ 0.66", "$ 0.24"],
                ["Diluted", "$ 1.34", "$ 0.65", "$ 0.24"],
                ["Weighted-average shares used in computing", "", "", ""],
                ["net income per share:", "", "", ""],
                ["Basic", "38,420", "38,105", "37,640"],
                ["Diluted", "39,610", "39,020", "38,550"]],
               [400, 470, 540], bold_rows={0, 1}, size=8.5, leading=12,
               indents={3: 12, 4: 12, 5: 12, 6: 24, 10: 12, 11: 12, 12: 12, 13: 24, 21: 12, 22: 12, 25: 12,
                        26: 12}))
    b.append(L("The accompanying notes are an integral part of these consolidated financial statements.", 8,
               False, "center"))

    b += statement("CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in thousands)")
    b.append(T([["", "Fiscal Year Ended June 30,", "", ""],
                ["", "2024", "2023", "2022"],
                ["Cash flows from operating activities:", "", "", ""],
                ["Net income", "$ 53,151", "$ 25,308", "$ 9,187"],
                ["Adjustments to reconcile net income to net cash", "", "", ""],
                ["provided by operating activities:", "", "", ""],
                ["Depreciation and amortization", "24,806", "22,914", "19,377"],
                ["Stock-based compensation", "44,310", "38,655", "31,902"],
                ["Deferred income taxes", "(1,455)", "(2,210)", "(1,630)"],
                ["Changes in operating assets and liabilities:", "", "", ""],
                ["Accounts receivable", "(13,127)", "(11,840)", "(9,215)"],
                ["Deferred revenue", "25,110", "21,766", "18,430"],
                ["Other, net", "8,075", "3,180", "(2,044)"],
                ["Net cash provided by operating activities", "140,870", "97,773", "66,007"],
                ["Cash flows from investing activities:", "", "", ""],
                ["Purchases of property and equipment", "(18,642)", "(14,205)", "(11,870)"],
                ["Capitalized internal-use software costs", "(12,318)", "(10,440)", "(8,905)"],
                ["Purchases of investments", "(121,400)", "(96,300)", "(110,150)"],
                ["Maturities of investments", "114,794", "82,116", "41,220"],
                ["Acquisition, net of cash acquired", "-", "-", "(88,450)"],
                ["Net cash used in investing activities", "(37,566)", "(38,829)", "(178,155)"],
                ["Cash flows from financing activities:", "", "", ""],
                ["Borrowings under revolving credit facility", "-", "-", "150,000"],
                ["Repayments under revolving credit facility", "(50,000)", "(25,000)", "-"],
                ["Proceeds from employee stock plans", "25,611", "12,906", "9,844"],
                ["Taxes paid for net share settlement", "(8,137)", "(6,290)", "(4,915)"],
                ["Repurchases of common stock", "(27,880)", "-", "-"],
                ["Net cash (used in) provided by financing", "", "", ""],
                ["activities", "(60,406)", "(18,384)", "154,929"],
                ["Effect of exchange rates on cash", "1,204", "(420)", "(1,102)"],
                ["Net increase in cash and cash equivalents", "44,102", "40,140", "41,679"],
                ["Cash and cash equivalents, beginning of year", "142,318", "102,178", "60,499"],
                ["Cash and cash equivalents, end of year", "$ 186,420", "$ 142,318", "$ 102,178"]],
               [400, 470, 540], bold_rows={0, 1}, size=8.5, leading=11.5,
               indents={3: 12, 4: 12, 5: 18, 6: 24, 7: 24, 8: 24, 9: 12, 10: 24, 11: 24, 12: 24, 13: 12,
                        15: 12, 16: 12, 17: 12, 18: 12, 19: 12, 20: 12, 22: 12, 23: 12, 24: 12, 25: 12, 26: 12,
                        27: 12, 28: 18}))
    b.append(L("The accompanying notes are an integral part of these consolidated financial statements.", 8,
               False, "center"))

    b.append(H(["NOTES TO CONSOLIDATED FINANCIAL STATEMENTS"], 3, size=10, align="center", new_page=True,
               after=8))
    b.append(note(1, "Summary of Significant Accounting Policies"))
    b.append(para("Basis of presentation. The consolidated financial statements include the accounts of Meridian "
                  "Ledger Systems, Inc. and its wholly owned subsidiaries. All intercompany balances and "
                  "transactions have been eliminated. Our fiscal year ends on June 30."))
    b.append(para("Revenue recognition. Subscription revenue is recognized ratably over the contract term "
                  "beginning when the platform is made available to the customer. Payments revenue is "
                  "recognized when the related transaction is processed. Professional services revenue is "
                  "recognized as the services are performed."))
    b.append(note(2, "Revenue and Segment Information"))
    b.append(para("Our chief operating decision maker, the Chief Executive Officer, reviews revenue by "
                  "segment and reviews operating expenses and profitability on a consolidated basis; "
                  "accordingly, we do not report a measure of profit or loss by segment. Revenue by segment was "
                  "as follows (in thousands):"))
    b.append(T([["", "Fiscal 2024", "Fiscal 2023", "Fiscal 2022"],
                ["Cloud Platform (subscription)", "$ 412,580", "$ 351,240", "$ 296,310"],
                ["Payments", "118,940", "97,615", "80,022"],
                ["Professional Services", "54,317", "52,880", "49,905"],
                ["Total revenue", "$ 585,837", "$ 501,735", "$ 426,237"]],
               [400, 470, 540], bold_rows={0}, size=9))
    b.append(para("Revenue by geographic area, based on the billing address of the customer, was as follows "
                  "(in thousands):"))
    b.append(T([["", "Fiscal 2024", "Fiscal 2023"],
                ["United States", "$ 503,820", "$ 436,510"],
                ["International", "82,017", "65,225"],
                ["Total revenue", "$ 585,837", "$ 501,735"]],
               [455, 540], bold_rows={0}, size=9))
    b.append(para("Remaining performance obligations were $498.6 million at June 30, 2024, of which we expect to "
                  "recognize approximately 68% as revenue over the next twelve months."))
    b.append(note(3, "Leases"))
    b.append(para("We lease office space under operating leases with remaining terms of one to seven years. "
                  "Operating lease cost was $9.8 million, $9.5 million and $8.7 million in fiscal 2024, 2023 and "
                  "2022, respectively. At June 30, 2024, the weighted-average remaining lease term was 4.6 years "
                  "and the weighted-average discount rate was 5.1%."))
    b.append(note(4, "Debt"))
    b.append(para("In March 2023 we entered into a credit agreement with a syndicate of lenders providing for a "
                  "$250.0 million senior secured revolving credit facility that matures in March 2028. "
                  "Borrowings bear interest at Term SOFR plus a margin of 1.50% to 2.25%, depending on our "
                  "total net leverage ratio, and we pay a commitment fee of 0.20% to 0.30% on the unused "
                  "portion. At June 30, 2024, $75.0 million was outstanding under the facility, carried net of "
                  "$0.6 million of unamortized issuance costs, and $175.0 million was available. The weighted-"
                  "average interest rate on outstanding borrowings was 7.1% at June 30, 2024. We were in "
                  "compliance with all covenants."))
    b.append(note(5, "Commitments and Contingencies"))
    b.append(para("We have non-cancelable purchase commitments for hosting services of $42.3 million through "
                  "fiscal 2027. We are not a party to any litigation that we expect to have a material effect on "
                  "our financial statements."))
    b.append(note(6, "Income Taxes"))
    b.append(para("The provision for income taxes was $15.2 million, $8.0 million and $3.6 million in fiscal "
                  "2024, 2023 and 2022, respectively. The effective tax rate was 22.2% in fiscal 2024, 24.1% in "
                  "fiscal 2023 and 28.2% in fiscal 2022. The effective rate differs from the U.S. federal "
                  "statutory rate of 21% mainly because of state income taxes, offset by research and "
                  "development credits and excess tax benefits from stock-based compensation."))
    b.append(note(7, "Stock-Based Compensation"))
    b.append(para("Our 2021 Equity Incentive Plan provides for grants of restricted stock units, stock options "
                  "and performance stock units. Stock-based compensation expense was $44.3 million, $38.7 "
                  "million and $31.9 million in fiscal 2024, 2023 and 2022, respectively. At June 30, 2024, "
                  "unrecognized compensation cost related to unvested awards was $96.4 million, which we expect "
                  "to recognize over a weighted-average period of 2.4 years."))

    b.append(item("Item 9.", "Changes in and Disagreements with Accountants on Accounting and Financial "
                  "Disclosure", new_page=True))
    b.append(para("None."))
    b.append(item("Item 9A.", "Controls and Procedures"))
    b.append(para("Our management, with the participation of our Chief Executive Officer and Chief Financial "
                  "Officer, concluded that our disclosure controls and procedures were effective as of June 30, "
                  "2024, and that our internal control over financial reporting was effective as of that date "
                  "based on the criteria in Internal Control - Integrated Framework (2013). Pemberton Ashford "
                  "LLP has issued an attestation report on our internal control over financial reporting."))
    b.append(item("Item 9B.", "Other Information"))
    b.append(para("During the three months ended June 30, 2024, no director or officer adopted or terminated a "
                  "Rule 10b5-1 trading arrangement."))
    b.append(part("PART III"))
    b.append(item("Items 10-14.", "Directors, Executive Compensation, Security Ownership, Relationships and "
                  "Accountant Fees"))
    b.append(para("The information required by Items 10 through 14 is incorporated by reference to our "
                  "definitive Proxy Statement for our 2024 Annual Meeting of Stockholders, which we will file "
                  "within 120 days after June 30, 2024."))
    b.append(part("PART IV"))
    b.append(item("Item 15.", "Exhibits and Financial Statement Schedules"))
    b.append(T([["Exhibit", "Description"],
                ["3.1", "Amended and Restated Certificate of Incorporation"],
                ["10.1", "Credit Agreement, dated as of March 10, 2023"],
                ["10.2", "2021 Equity Incentive Plan"],
                ["21.1", "List of Subsidiaries"],
                ["23.1", "Consent of Pemberton Ashford LLP"],
                ["31.1", "Rule 13a-14(a) Certification of Chief Executive Officer"],
                ["32.1", "Section 1350 Certifications"]], [], left_cols=[130], bold_rows={0}, size=9))
    b.append(H(["SIGNATURES"], 1, size=11, align="center", before=20, after=8, toc="SIGNATURES"))
    b.append(para("Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of 1934, the "
                  "registrant has duly caused this report to be signed on its behalf by the undersigned, "
                  "thereunto duly authorized."))
    b += [L("MERIDIAN LEDGER SYSTEMS, INC.", 10, True, x=300),
          L("By: /s/ Priya N. Castellano", 10, x=300), L("Priya N. Castellano", 10, x=318),
          L("Chief Executive Officer", 10, x=318), L("Date: August 27, 2024", 10, x=300)]
    return b


def _header(i, n, tag, rel):
    if i < 2:
        return []
    r = "Fiscal 2024 Annual Report"
    return [Text(LEFT, 754, 8, CO.upper()), Text(RIGHT - width(r, 8), 754, 8, r)]


def _footer(i, n, tag, rel):
    if i < 2:
        return []
    s = f"Page {i - 1}"
    return [Text(LEFT, 36, 8, "MLSY"), Text(RIGHT - width(s, 8), 36, 8, s)]


def build():
    pages, truth = render(cover(), toc, body(), _header, _footer)
    return FILE, make_pdf(pages, title="Meridian Ledger Systems 10-K FY2024"), truth, len(pages)
