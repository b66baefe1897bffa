"""Invented prose for the held-out filings: sentence pools composed deterministically into paragraphs."""

from __future__ import annotations

import random

BUSINESS = [
    "{co} designs, manufactures and services precision measurement systems used by industrial, aerospace and life-science customers in more than forty countries.",
    "We sell our products primarily through a direct sales force, supplemented by a network of independent distributors in regions where we do not maintain a local presence.",
    "Our customers include original equipment manufacturers, contract manufacturers, research laboratories and government agencies.",
    "No single customer accounted for more than 10% of our net sales in any of the last three fiscal years.",
    "We believe that the breadth of our installed base provides a recurring source of revenue from consumables, calibration services and software subscriptions.",
    "Our backlog at fiscal year end was approximately $212.4 million, compared with $188.9 million at the end of the prior year, and we expect to ship substantially all of it within the next twelve months.",
    "We source most of our components from multiple suppliers, although certain optical assemblies and application-specific integrated circuits are available from only one or two qualified vendors.",
    "We have entered into long-term supply arrangements for several of these components and maintain safety stock of items with extended lead times.",
    "Research and development expense was $41.7 million, $38.2 million and $33.9 million in fiscal 2024, 2023 and 2022, respectively.",
    "Our engineering organization is located principally in Dayton, Ohio and Eindhoven, the Netherlands, with smaller software teams in Pune, India.",
    "We rely on a combination of patents, trade secrets, copyrights and contractual restrictions to protect our proprietary technology.",
    "As of the end of the fiscal year we held 214 issued patents in the United States and 163 issued patents in other jurisdictions, expiring at various dates through 2043.",
    "Our operations are subject to federal, state, local and foreign environmental laws governing, among other things, the handling and disposal of hazardous materials.",
    "We do not expect the costs of compliance with these laws to have a material effect on our capital expenditures, earnings or competitive position.",
    "The markets in which we compete are highly fragmented and are characterized by rapid technological change and evolving industry standards.",
    "We compete principally on the basis of measurement accuracy, throughput, software integration, service responsiveness and total cost of ownership.",
    "Some of our competitors are divisions of larger diversified companies that have substantially greater financial, technical and marketing resources than we do.",
    "Demand for our products is modestly seasonal, with the fourth fiscal quarter typically generating the highest level of orders as customers complete annual capital budgets.",
]

HUMAN = [
    "As of December 31, 2024, we employed approximately 2,840 full-time employees, of whom approximately 1,150 were located outside the United States.",
    "None of our U.S. employees is represented by a labor union, although employees at our facility in Eindhoven are covered by a works council as required by Dutch law.",
    "We consider our relationships with our employees to be good and have not experienced any work stoppages in the last ten years.",
    "Our Board of Directors, through its Compensation and Human Capital Committee, oversees our programs for talent acquisition, development and retention.",
    "We conduct an engagement survey each year, and the most recent survey was completed by 87% of our employees.",
    "We offer tuition assistance, a structured apprenticeship program for machinists and technicians, and leadership training for first-time managers.",
]

RISK = [
    "Any of these events could adversely affect our business, financial condition and results of operations.",
    "If we are unable to obtain sufficient quantities of these components on acceptable terms, we may be required to redesign our products or delay shipments to customers.",
    "Many of our customers operate in cyclical industries, and a downturn in capital spending by these customers could reduce demand for our systems.",
    "We may not be able to offset increases in the cost of materials, freight and labor through price increases or productivity improvements.",
    "Our international operations expose us to currency fluctuations, changes in tariffs and trade restrictions, and the burden of complying with a wide variety of foreign laws.",
    "A significant portion of our net sales is denominated in euros, and a strengthening of the U.S. dollar reduces the reported value of those sales.",
    "We have experienced, and may in the future experience, attempts by third parties to gain unauthorized access to our information technology systems.",
    "Although we maintain insurance coverage for certain cyber incidents, our coverage may not be sufficient to cover all losses.",
    "Our indebtedness could limit our flexibility in planning for or reacting to changes in our business and could place us at a disadvantage relative to less leveraged competitors.",
    "The credit agreement governing our revolving credit facility contains covenants that restrict our ability to incur additional debt, pay dividends and make acquisitions.",
    "The market price of our common stock has been and may continue to be volatile, and investors could lose all or part of their investment.",
    "Changes in tax laws, or in their interpretation by taxing authorities, could increase our effective tax rate and reduce our net income.",
    "We may not realize the anticipated benefits of acquisitions, and the integration of acquired businesses may divert the attention of management.",
    "Failure to attract and retain engineers with specialized skills could impair our ability to develop new products on a timely basis.",
]

MDA = [
    "Net sales increased primarily as a result of higher volumes in our Industrial Metrology segment and the full-year contribution of the Vantage Optics acquisition.",
    "The increase was partially offset by lower sales of legacy coordinate measuring machines and an unfavorable foreign currency impact of approximately $6.1 million.",
    "Gross margin improved by 120 basis points, reflecting favorable product mix, pricing actions implemented in the first quarter and lower freight costs.",
    "Selling, general and administrative expenses increased due to higher incentive compensation, investments in our digital sales channel and acquisition-related costs.",
    "Operating income as a percentage of net sales was 14.8%, compared with 13.2% in the prior year.",
    "Interest expense decreased as we repaid $60.0 million of borrowings under our revolving credit facility during the year.",
    "Our effective tax rate was 21.6%, compared with 23.4% in the prior year, primarily due to the release of a valuation allowance on certain foreign net operating losses.",
    "We believe that cash on hand, cash generated from operations and availability under our revolving credit facility will be sufficient to meet our liquidity needs for at least the next twelve months.",
    "Cash provided by operating activities was $118.3 million, an increase of $21.5 million, driven primarily by higher net income and improved collection of receivables.",
    "Capital expenditures were $27.6 million and related principally to the expansion of our Dayton facility and upgrades to our enterprise resource planning system.",
    "During the year we repurchased 412,000 shares of our common stock for an aggregate of $31.2 million under the repurchase program authorized by our Board of Directors.",
    "As of year end, we had $95.0 million of borrowings outstanding and $302.1 million of unused availability under the revolving credit facility.",
    "We were in compliance with all financial covenants under the credit agreement as of the end of the fiscal year.",
    "The preparation of financial statements in conformity with generally accepted accounting principles requires management to make estimates and assumptions that affect reported amounts.",
    "Actual results could differ materially from those estimates, and changes in estimates are recorded in the period in which they become known.",
]

NOTES = [
    "The consolidated financial statements include the accounts of the Company and its wholly owned subsidiaries, and all intercompany balances and transactions have been eliminated.",
    "Inventories are stated at the lower of cost or net realizable value, with cost determined on a first-in, first-out basis.",
    "We record provisions for excess and obsolete inventory based on historical usage, forecasted demand and product life cycles.",
    "Property, plant and equipment are recorded at cost and depreciated using the straight-line method over their estimated useful lives.",
    "Buildings are depreciated over 30 to 40 years, machinery and equipment over 3 to 12 years, and leasehold improvements over the shorter of the lease term or the useful life of the asset.",
    "Goodwill is tested for impairment annually as of the first day of the fourth quarter, or more frequently if events or changes in circumstances indicate that an impairment may exist.",
    "Revenue is recognized when control of the promised goods or services is transferred to the customer, in an amount that reflects the consideration we expect to receive.",
    "For systems that require installation, control generally transfers upon customer acceptance, which typically occurs within ninety days of shipment.",
    "Service revenue from calibration and maintenance contracts is recognized ratably over the contract term, which generally ranges from one to three years.",
    "Amortization expense for intangible assets was $12.8 million, $11.9 million and $9.4 million for the years ended December 31, 2024, 2023 and 2022, respectively.",
    "The fair value of the reporting units was estimated using a combination of discounted cash flow and market multiple approaches.",
    "Deferred income taxes reflect the net tax effects of temporary differences between the carrying amounts of assets and liabilities for financial reporting and income tax purposes.",
    "The Company is subject to various legal proceedings and claims arising in the ordinary course of business, none of which management believes will have a material adverse effect.",
    "Stock-based compensation expense is recognized on a straight-line basis over the requisite service period, which is generally three or four years.",
    "The weighted-average grant-date fair value of restricted stock units granted during the year was $68.42 per share.",
]

LEGAL = [
    "The Borrower shall not, and shall not permit any Subsidiary to, directly or indirectly, create, incur, assume or suffer to exist any Lien upon any of its property, assets or revenues, whether now owned or hereafter acquired.",
    "Each Lender severally agrees, on the terms and subject to the conditions set forth herein, to make loans to the Borrower from time to time during the Availability Period.",
    "Within the limits of each Lender's Commitment, the Borrower may borrow, prepay and reborrow Revolving Loans in accordance with the terms hereof.",
    "Each Borrowing shall be made upon the Borrower's irrevocable notice to the Administrative Agent, which may be given by telephone or by a Committed Loan Notice.",
    "Each such notice must be received by the Administrative Agent not later than 11:00 a.m. three Business Days prior to the requested date of any Borrowing of Term SOFR Loans.",
    "Any prepayment of a Term SOFR Loan shall be accompanied by all accrued interest thereon, together with any additional amounts required pursuant to Section 3.05.",
    "All computations of interest for Base Rate Loans shall be made on the basis of a year of 365 or 366 days, as the case may be, and actual days elapsed.",
    "The Borrower shall pay to the Administrative Agent, for the account of each Lender in accordance with its Applicable Percentage, a commitment fee equal to the Applicable Rate times the actual daily unused amount of the Aggregate Commitments.",
    "Nothing contained in this Agreement shall be deemed to constitute a waiver of any rights of the Administrative Agent or any Lender under applicable Law.",
    "The obligation of each Lender to make its initial Credit Extension hereunder is subject to satisfaction of the conditions precedent set forth in this Section.",
    "The Borrower and each Subsidiary has filed all Federal, state and other material tax returns and reports required to be filed, and has paid all Federal, state and other material taxes levied or imposed upon it or its properties.",
    "The Borrower will not permit the Consolidated Leverage Ratio as of the end of any fiscal quarter of the Borrower to be greater than 3.50 to 1.00.",
    "Upon the occurrence of any Event of Default, the Administrative Agent may, and at the request of the Required Lenders shall, declare the commitment of each Lender to make Loans to be terminated.",
    "Any waiver or consent shall be effective only in the specific instance and for the specific purpose for which given.",
    "This Agreement may be executed in counterparts, each of which shall constitute an original, but all of which when taken together shall constitute a single contract.",
    "The Administrative Agent shall promptly notify each Lender of the amount of its Applicable Percentage of the applicable Loans.",
    "If no timely notice of a conversion or continuation is provided by the Borrower, the applicable Loans shall be made as, or converted to, Base Rate Loans.",
    "Each Lender may, at its option, make any Credit Extension by causing any domestic or foreign branch or Affiliate of such Lender to make such Credit Extension.",
    "Such determination shall be conclusive absent manifest error, and the Borrower shall pay such amounts within ten Business Days after receipt of a written demand therefor.",
    "The Borrower shall deliver to the Administrative Agent, promptly after the same become publicly available, copies of all annual, regular, periodic and special reports filed with the SEC.",
    "No failure by any Lender or the Administrative Agent to exercise, and no delay by any such Person in exercising, any right, remedy, power or privilege hereunder shall operate as a waiver thereof.",
    "The Borrower shall maintain, preserve and protect all of its material properties and equipment necessary in the operation of its business in good working order and condition, ordinary wear and tear excepted.",
]

GOVERN = [
    "The Board believes that its current leadership structure provides independent oversight of management while allowing the Company to benefit from the Chief Executive Officer's knowledge of its operations.",
    "Each member of the committee is independent under the listing standards of the New York Stock Exchange and the rules of the Securities and Exchange Commission.",
    "The committee operates under a written charter adopted by the Board, a copy of which is available in the Investors section of our website.",
    "During fiscal 2024, the Board held eight meetings, and each director attended at least 75% of the aggregate meetings of the Board and the committees on which he or she served.",
    "Directors are expected to attend the annual meeting of stockholders, and all of our directors then serving attended the 2024 annual meeting.",
    "The Nominating and Governance Committee considers candidates recommended by stockholders on the same basis as candidates identified through other sources.",
    "The committee reviews the qualifications of each candidate, including business experience, independence, diversity of perspective and the ability to devote sufficient time to Board service.",
    "Stockholders who wish to communicate with the Board may do so by writing to the Corporate Secretary at our principal executive offices.",
    "Our executive compensation program is designed to attract, motivate and retain executives who are critical to our long-term success.",
    "A significant majority of the target compensation of our named executive officers is performance-based and at risk.",
    "The Compensation Committee retained Pearl Meyer & Partners as its independent compensation consultant and assessed the consultant's independence under applicable rules.",
    "Annual incentive awards are based on adjusted operating income, free cash flow and individual performance objectives approved at the beginning of the year.",
    "Performance share units vest at the end of a three-year period based on relative total shareholder return measured against a peer group of industrial companies.",
]

PRESS = [
    "Revenue growth in the quarter was driven by continued strength in our oncology franchise and higher royalty income from our partnered programs.",
    "We ended the year with a strong balance sheet, which we believe positions us to fund our late-stage pipeline through the anticipated regulatory decisions in 2026.",
    "Research and development expenses increased primarily due to the advancement of the Phase 3 LUMEN-2 trial and higher clinical manufacturing costs.",
    "Selling, general and administrative expenses increased as we expanded our commercial organization in advance of the anticipated launch in Europe.",
    "Net loss per share reflects the impact of a non-cash charge related to the change in fair value of the contingent value rights.",
    "The Company continues to expect full-year 2025 product revenue in the range of $410 million to $440 million.",
    "Cash, cash equivalents and marketable securities are expected to be sufficient to fund operating expenses and capital expenditure requirements into 2028.",
]


def paragraphs(pool: list[str], n: int, seed: int, co: str = "the Company", lo: int = 2, hi: int = 5) -> list[str]:
    """``n`` paragraphs of ``lo``..``hi`` sentences each, drawn without repetition inside a paragraph."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randint(lo, min(hi, len(pool)))
        out.append(" ".join(s.format(co=co) for s in rng.sample(pool, k)))
    return out


class Prose:
    """Deals sentences from each pool in a seeded shuffled order, so that a document repeats a sentence only
    after it has used the whole pool."""

    def __init__(self, seed: int, co: str = "the Company"):
        self.rng = random.Random(seed)
        self.co = co
        self.decks: dict[int, list[str]] = {}
        self.recent: dict[int, list[str]] = {}

    def sents(self, pool: list[str], k: int) -> str:
        deck = self.decks.setdefault(id(pool), [])
        out: list[str] = []
        while len(out) < k:
            if not deck:
                fresh = self.rng.sample(pool, len(pool))
                recent = self.recent.get(id(pool), [])
                deck += [x for x in fresh if x not in recent] + [x for x in fresh if x in recent]
            s = deck.pop(0)
            if s not in out:
                out.append(s)
        self.recent[id(pool)] = (self.recent.get(id(pool), []) + out)[-max(1, len(pool) // 3):]
        return " ".join(s.format(co=self.co) for s in out)

    def paras(self, pool: list[str], n: int, lo: int = 2, hi: int = 5) -> list[str]:
        return [self.sents(pool, self.rng.randint(lo, min(hi, len(pool)))) for _ in range(n)]


FOOD = [
    "Net sales growth reflected higher volumes in frozen breakfast and snacks, partially offset by planned exits of lower-margin private label business.",
    "Gross profit margin increased 100 basis points, primarily due to net price realization and productivity savings, partially offset by higher costs for wheat flour, eggs and packaging.",
    "Input cost inflation moderated during the quarter, and we expect full-year inflation in our cost of goods of approximately 2% to 3%.",
    "Selling, general and administrative expenses increased due to higher advertising and consumer promotion spending in support of new product launches.",
    "Operating profit in Foodservice benefited from improved throughput at our Reno facility following the completion of a line modernization project.",
    "We continue to expect capital expenditures of approximately $190 million for fiscal 2025, focused on capacity expansion and automation.",
    "Our primary sources of liquidity are cash generated from operations, our $750 million revolving credit facility and our commercial paper program.",
    "As of March 29, 2025, we had no commercial paper outstanding and the full amount of the revolving credit facility was available.",
    "Cash provided by operating activities decreased primarily due to the seasonal build of inventory ahead of the summer grilling season and the timing of customer payments.",
    "We paid quarterly dividends of $0.34 per share and repurchased 222,250 shares of common stock during the quarter.",
    "Retail Brands net sales increased in both the club and mass channels, while sales in traditional grocery were flat compared with the prior year.",
    "Foodservice volumes were affected by lower traffic in quick-service restaurants, which was partially offset by new distribution with a national convenience chain.",
]
