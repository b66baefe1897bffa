"""Document E: a definitive proxy statement (Schedule 14A, DEF 14A) for the 2026 annual meeting, as one EDGAR
HTML file in a modern Workiva-like style (Quillon Water Technologies, Inc., water treatment and filtration
equipment, Tulsa, Oklahoma; fiscal year 2025 ended December 31, 2025). All names and figures are invented.

Markup: <div>/<p> with inline ``font-family`` styles; section headings are bold upper-case <p>s coloured teal;
bullets are two-cell tables (a cell with only "&#8226;" and a text cell); compensation tables put "$" in its own
cell only in the header ("($)" column heads) and use "&#8212;" for nil; footnote markers are "(1)" superscripts
with footnote paragraphs under the table. Each printed page ends with a footer row (running title left, page
number right) and a page-break <div>, and the next page starts with a small running header."""

from __future__ import annotations

from html import escape

FILE = "qwtr-def14a_2026.htm"
CO = "Quillon Water Technologies, Inc."
FS = "font-family:'Times New Roman',serif;font-size:10pt"
RUN = f"{CO} | 2026 Proxy Statement"


class Doc:
    def __init__(self):
        self.parts: list[str] = []
        self.page = 1
        self.chars = 0

    def add(self, html, n):
        self.parts.append(html + "\n")
        self.chars += n
        if self.chars > 3300:
            self.page_break()

    def page_break(self):
        self.parts.append(f'<table style="width:100%;margin-top:12pt;border-top:1px solid #007C89"><tr>'
                          f'<td style="{FS};font-size:8pt">{escape(RUN)}</td><td style="{FS};font-size:8pt;'
                          f'text-align:right">{self.page}</td></tr></table>\n'
                          '<div style="page-break-after:always"></div>\n')
        self.page += 1
        self.parts.append(f'<p style="{FS};font-size:8pt;text-align:right;color:#007C89;margin:0">'
                          f'{escape(CO)}</p>\n')
        self.chars = 0

    def p(self, text, lead=None, align="justify"):
        lead_html = f"<b>{escape(lead)}</b> " if lead else ""
        self.add(f'<p style="{FS};text-align:{align};margin:6pt 0 0 0">{lead_html}{escape(text)}</p>',
                 len(text) + 40)

    def raw(self, html, n=60):
        self.add(f'<p style="{FS};margin:6pt 0 0 0">{html}</p>', n)

    def h1(self, text, new_page=False):
        if new_page or self.chars > 2600:
            self.page_break()
        self.add(f'<p style="font-family:Arial,sans-serif;font-size:13pt;font-weight:bold;color:#007C89;'
                 f'margin:14pt 0 4pt 0">{escape(text)}</p>', 120)

    def h2(self, text):
        self.add(f'<p style="font-family:Arial,sans-serif;font-size:10.5pt;font-weight:bold;margin:10pt 0 2pt 0">'
                 f'{escape(text)}</p>', 80)

    def bullets(self, items):
        out = ['<table style="width:100%;border-collapse:collapse;margin-top:4pt">']
        for t in items:
            out.append(f'<tr><td style="width:3%;vertical-align:top;{FS}">&#8226;</td>'
                       f'<td style="vertical-align:top;{FS}">{escape(t)}</td></tr>')
        out.append("</table>")
        self.add("\n".join(out), sum(len(t) + 30 for t in items))

    def table(self, head, rows, bold=(), notes=(), first_w=34):
        """``head``: list of header rows (each a list of strings, one per column); ``rows``: lists of strings.
        Amounts are right-aligned; footnotes go below the table."""
        ncol = len(rows[0])
        w = (100 - first_w) / max(1, ncol - 1)
        out = ['<table style="width:100%;border-collapse:collapse;margin-top:8pt">']
        for h in head:
            cells = []
            for c, t in enumerate(h):
                al = "left" if c == 0 else "center"
                width = f"width:{first_w}%;" if c == 0 else f"width:{w:.1f}%;"
                cells.append(f'<td style="{width}{FS};font-size:8.5pt;font-weight:bold;text-align:{al};'
                             f'vertical-align:bottom;border-bottom:1px solid #000">{escape(t)}</td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        for r, row in enumerate(rows):
            bg = "background-color:#E6F4F5;" if r % 2 == 0 else ""
            fw = "font-weight:bold;" if r in bold else ""
            cells = []
            for c, t in enumerate(row):
                al = "left" if c == 0 else "right"
                cells.append(f'<td style="{bg}{fw}{FS};font-size:9pt;text-align:{al};vertical-align:bottom;'
                             f'padding:1pt 3pt">{escape(t) if t else "&#160;"}</td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</table>")
        for n in notes:
            out.append(f'<p style="{FS};font-size:8pt;margin:2pt 0 0 0">{escape(n)}</p>')
        self.add("\n".join(out), 60 * len(rows) + sum(len(n) for n in notes) + 80)

    def html(self):
        self.page_break()
        return ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n'
                '<title>qwtr-def14a_2026</title>\n<meta http-equiv="Content-Type" content="text/html; '
                'charset=utf-8"/>\n</head>\n<body>\n' + "".join(self.parts) + "</body>\n</html>\n")


def money(x):
    return "\u2014" if not x else f"{x:,}"


# --------------------------------------------------------------------------------------------------------------
# figures
PRICE = 64.18      # closing price on the February 24, 2025 grant date
OPT_VALUE = 19.42  # Black-Scholes value per option
# name, title, salary, bonus, PSUs, RSUs, options, target bonus %, all other  (2025)
NEO_2025 = [
    ("Tobias R. Lindgren", "President and Chief Executive Officer", 985_000, 0, 46_745, 28_047, 61_793, 110, 48_322),
    ("Natalie K. Osterhout", "Executive Vice President and Chief Financial Officer", 560_000, 0, 14_024, 8_414,
     18_538, 75, 31_504),
    ("Dmitri A. Salazar", "President, Municipal Solutions", 470_000, 0, 9_154, 5_492, 12_101, 65, 27_611),
    ("Janelle P. Whitaker", "Senior Vice President, General Counsel and Corporate Secretary", 410_000, 0, 7_012,
     4_207, 9_269, 60, 22_905),
    ("Curtis L. Bohannon", "Senior Vice President and Chief Technology Officer", 385_000, 75_000, 5_843, 3_506,
     7_724, 55, 19_882),
]
PAYOUT_2025 = 1.17


def sct_rows():
    """Summary Compensation Table rows: (name, year, salary, bonus, stock, option, non-equity, other)."""
    rows = []
    prior = {
        "Tobias R. Lindgren": [(2024, 950_000, 0, 4_400_021, 1_100_007, 1_034_550, 45_910),
                               (2023, 900_000, 0, 3_840_033, 960_011, 1_138_500, 41_276)],
        "Natalie K. Osterhout": [(2024, 540_000, 0, 1_280_017, 320_004, 400_950, 29_880),
                                 (2023, 195_577, 250_000, 1_500_036, 0, 169_665, 12_118)],
        "Dmitri A. Salazar": [(2024, 455_000, 0, 880_040, 220_010, 292_793, 26_054),
                              (2023, 440_000, 0, 800_030, 200_008, 328_900, 24_770)],
        "Janelle P. Whitaker": [(2024, 395_000, 0, 640_012, 160_003, 234_630, 21_447)],
        "Curtis L. Bohannon": [],
    }
    for name, title, sal, bonus, psu, rsu, opt, tgt, other in NEO_2025:
        stock = round((psu + rsu) * PRICE)
        option = round(opt * OPT_VALUE)
        nei = round(sal * tgt / 100 * PAYOUT_2025)
        rows.append((name, title, 2025, sal, bonus, stock, option, nei, other))
        for y, s, b, st, op, ne, ot in prior[name]:
            rows.append((name, title, y, s, b, st, op, ne, ot))
    return rows


def total(r):
    return sum(r[3:9])


DIRECTORS = [
    # name, age, since, committees, bio
    ("Eleanor V. Castellanos", 64, 2014, "Independent Chair of the Board; Nominating and Corporate Governance",
     "Ms. Castellanos has served as our independent Chair of the Board since 2020. She was Chief Executive Officer "
     "of Redbank Utility Services from 2008 until its sale in 2019 and previously held operating roles at a "
     "regional water utility. She brings deep knowledge of municipal procurement and regulated utilities."),
    ("Tobias R. Lindgren", 56, 2019, "None",
     "Mr. Lindgren has served as our President and Chief Executive Officer since 2019. Before joining Quillon, he "
     "led the industrial filtration division of a global fluid-handling company for seven years."),
    ("Priya N. Ramaswamy", 59, 2017, "Audit (Chair); Nominating and Corporate Governance",
     "Ms. Ramaswamy was Executive Vice President and Chief Financial Officer of a publicly traded specialty "
     "chemicals producer until 2021. She is a certified public accountant and qualifies as an audit committee "
     "financial expert."),
    ("Howard J. Pruitt", 68, 2011, "Compensation and Human Capital (Chair)",
     "Mr. Pruitt is a retired Senior Vice President, Human Resources of a diversified manufacturer, where he "
     "oversaw executive compensation and succession planning for more than fifteen years."),
    ("Alana M. Reyes-Whitfield", 52, 2021, "Audit; Compensation and Human Capital",
     "Ms. Reyes-Whitfield is Chief Executive Officer of a private membrane-technology company and previously "
     "served as a partner at a management consulting firm focused on industrial clients."),
    ("Gordon E. Tsai", 61, 2018, "Nominating and Corporate Governance (Chair); Audit",
     "Mr. Tsai is a former Deputy Administrator of a state environmental quality department and practiced "
     "environmental law for twenty years."),
    ("Marcus D. Ebbesen", 47, 2024, "Compensation and Human Capital",
     "Mr. Ebbesen is a managing director of an infrastructure-focused private equity firm and serves on the "
     "board of a water-meter manufacturer."),
    ("Colette A. Brandt", 58, 2025, "Audit",
     "Ms. Brandt is Senior Vice President, Digital Operations of a Fortune 500 industrial distributor and brings "
     "experience in enterprise software and cybersecurity."),
]

# name, fees, stock, other
DIRECTOR_COMP = [
    ("Eleanor V. Castellanos", 180_000, 160_012, 0),
    ("Priya N. Ramaswamy", 120_000, 160_012, 5_000),
    ("Howard J. Pruitt", 115_000, 160_012, 0),
    ("Alana M. Reyes-Whitfield", 95_000, 160_012, 2_500),
    ("Gordon E. Tsai", 110_000, 160_012, 0),
    ("Marcus D. Ebbesen", 95_000, 160_012, 0),
    ("Colette A. Brandt", 71_250, 200_031, 0),
]

OUTSTANDING = 41_236_905
OWNERS = [
    ("Bellwether Capital Advisors, LP(1)", 4_617_325),
    ("Northstone Asset Management, Inc.(2)", 3_340_189),
    ("Crescent Harbor Investors LLC(3)", 2_268_030),
    ("Tobias R. Lindgren(4)", 412_886),
    ("Natalie K. Osterhout(4)", 61_240),
    ("Dmitri A. Salazar(4)", 104_517),
    ("Janelle P. Whitaker(4)", 48_903),
    ("Curtis L. Bohannon(4)", 27_615),
    ("Eleanor V. Castellanos", 58_214),
    ("Priya N. Ramaswamy", 31_077),
    ("Howard J. Pruitt", 84_350),
    ("Alana M. Reyes-Whitfield", 12_406),
    ("Gordon E. Tsai", 22_981),
    ("Marcus D. Ebbesen", 4_118),
    ("Colette A. Brandt", 3_117),
    ("All directors and executive officers as a group (15 persons)(5)", 918_544),
]

AUDIT_FEES = [("Audit fees(1)", 2_846_000, 2_695_000), ("Audit-related fees(2)", 214_500, 187_000),
              ("Tax fees(3)", 388_200, 352_800), ("All other fees(4)", 6_200, 6_200)]

PEERS = ["Aquaverde Systems", "Basin Flow Controls", "Corriveau Instruments", "Delmont Pump Works",
         "Everline Filtration", "Fairhaven Process Equipment", "Granitebrook Industries", "Hollins Meter Co.",
         "Ironwood Valve Group", "Juniper Environmental", "Kettering Fluid Sciences", "Lakemont Technologies",
         "Meridale Controls", "Norvale Treatment Systems"]


def cover(d: Doc):
    d.parts.append(f"""<div style="{FS};text-align:center"><b>UNITED STATES<br/>SECURITIES AND EXCHANGE COMMISSION</b><br/>Washington, D.C. 20549</div>
<div style="{FS};text-align:center;margin-top:8pt"><b>SCHEDULE 14A</b></div>
<div style="{FS};text-align:center">Proxy Statement Pursuant to Section 14(a) of the Securities Exchange Act of 1934 (Amendment No. &#160;&#160;)</div>
<table style="width:100%;margin-top:8pt;border-collapse:collapse">
<tr><td style="width:4%;{FS}">&#9746;</td><td style="{FS}">Filed by the Registrant</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Filed by a Party other than the Registrant</td></tr>
<tr><td colspan="2" style="{FS}">Check the appropriate box:</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Preliminary Proxy Statement</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Confidential, for Use of the Commission Only (as permitted by Rule 14a-6(e)(2))</td></tr>
<tr><td style="{FS}">&#9746;</td><td style="{FS}">Definitive Proxy Statement</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Definitive Additional Materials</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Soliciting Material under &#167;240.14a-12</td></tr></table>
<div style="text-align:center;margin-top:10pt;font-family:Arial,sans-serif;font-size:14pt"><b>QUILLON WATER TECHNOLOGIES, INC.</b></div>
<div style="{FS};text-align:center">(Name of Registrant as Specified In Its Charter)</div>
<div style="{FS};margin-top:8pt">Payment of Filing Fee (Check the appropriate box):</div>
<table style="width:100%;border-collapse:collapse"><tr><td style="width:4%;{FS}">&#9746;</td><td style="{FS}">No fee required.</td></tr>
<tr><td style="{FS}">&#9744;</td><td style="{FS}">Fee paid previously with preliminary materials.</td></tr></table>
""")
    d.chars = 1200
    d.page_break()


def notice(d: Doc):
    d.add('<p style="font-family:Arial,sans-serif;font-size:14pt;text-align:center;color:#007C89;margin:0">'
          '<b>QUILLON WATER TECHNOLOGIES, INC.</b></p>'
          f'<p style="{FS};text-align:center;margin:0">1500 South Boston Avenue, Suite 2200<br/>Tulsa, Oklahoma 74119'
          '</p>', 120)
    d.h1("NOTICE OF 2026 ANNUAL MEETING OF STOCKHOLDERS")
    out = ['<table style="width:100%;border-collapse:collapse;margin-top:6pt">']
    for k, v in [("Date and Time", "Thursday, May 14, 2026, at 9:00 a.m. Central Time"),
                 ("Place", "Virtual meeting at www.virtualshareholdermeeting.com/QWTR2026"),
                 ("Record Date", "March 20, 2026")]:
        out.append(f'<tr><td style="width:22%;{FS};vertical-align:top"><b>{k}</b></td>'
                   f'<td style="{FS}">{escape(v)}</td></tr>')
    out.append("</table>")
    d.add("\n".join(out), 300)
    d.h2("Items of Business")
    d.bullets([
        "Proposal 1: To elect the eight director nominees named in this proxy statement to serve until the 2027 "
        "annual meeting of stockholders;",
        "Proposal 2: To approve, on an advisory basis, the compensation of our named executive officers;",
        "Proposal 3: To ratify the appointment of Harrow & Lindqvist LLP as our independent registered public "
        "accounting firm for fiscal 2026;",
        "Proposal 4: To approve an amendment to the Quillon Water Technologies, Inc. 2021 Omnibus Incentive Plan "
        "to increase the number of shares reserved for issuance by 1,850,000 shares; and",
        "To transact such other business as may properly come before the meeting or any adjournment."])
    d.p("Only stockholders of record at the close of business on March 20, 2026 are entitled to notice of, and to "
        "vote at, the annual meeting. Your vote is important. Whether or not you plan to attend the virtual meeting, "
        "please vote promptly by internet, by telephone or by returning your proxy card.")
    d.raw("By Order of the Board of Directors,<br/><br/>/s/ Janelle P. Whitaker<br/>Janelle P. Whitaker<br/>"
          "<i>Senior Vice President, General Counsel and Corporate Secretary</i><br/>Tulsa, Oklahoma<br/>"
          "April 2, 2026", 200)
    d.p("Important Notice Regarding the Availability of Proxy Materials for the Annual Meeting of Stockholders to "
        "Be Held on May 14, 2026: This proxy statement and our 2025 Annual Report on Form 10-K are available at "
        "www.proxyvote.com.")
    d.page_break()


def general(d: Doc):
    d.h1("PROXY STATEMENT SUMMARY")
    d.p("This summary highlights information contained elsewhere in this proxy statement. It does not contain all "
        "of the information you should consider, and you should read the entire proxy statement before voting. "
        "This proxy statement is first being made available to stockholders on or about April 2, 2026.")
    d.h2("2025 Performance Highlights")
    d.bullets([
        "Net sales of $1,284.6 million, up 7.4% from fiscal 2024, led by 11.8% growth in Municipal Solutions.",
        "Adjusted operating income of $187.3 million, or 14.6% of net sales, compared with $168.9 million in "
        "fiscal 2024.",
        "Adjusted diluted earnings per share of $3.12, compared with $2.71 in fiscal 2024.",
        "Free cash flow of $121.5 million; we returned $58.4 million to stockholders through dividends and share "
        "repurchases."])
    d.h2("Voting Matters and Board Recommendations")
    d.table([["Proposal", "Board Recommendation"]], [
        ["1. Election of eight directors", "FOR each nominee"],
        ["2. Advisory vote to approve named executive officer compensation", "FOR"],
        ["3. Ratification of Harrow & Lindqvist LLP for fiscal 2026", "FOR"],
        ["4. Amendment to the 2021 Omnibus Incentive Plan", "FOR"]], first_w=70)
    d.h1("GENERAL INFORMATION ABOUT THE ANNUAL MEETING")
    d.h2("Record Date; Shares Outstanding; Quorum")
    d.p(f"At the close of business on the record date, March 20, 2026, there were {OUTSTANDING:,} shares of common "
        "stock outstanding and entitled to vote. Each share is entitled to one vote on each matter. The holders of a "
        "majority of the outstanding shares, present virtually or by proxy, constitute a quorum.")
    d.h2("Vote Required")
    d.p("Directors are elected by a majority of the votes cast in uncontested elections; a nominee who does not "
        "receive more votes cast for than against must tender a resignation for the Board's consideration. "
        "Proposals 2, 3 and 4 each require the affirmative vote of a majority of the shares present or represented "
        "and entitled to vote. Proposal 2 is advisory and not binding. Broker non-votes have no effect on "
        "Proposals 1, 2 and 4; brokers have discretion to vote on Proposal 3.")
    d.h2("Solicitation")
    d.p("We bear the cost of this solicitation. We have retained Alder Square Proxy Partners to assist in "
        "soliciting proxies for a fee of approximately $17,500 plus reimbursement of expenses.")


def proposal1(d: Doc):
    d.h1("PROPOSAL 1 \u2014 ELECTION OF DIRECTORS", new_page=True)
    d.p("Upon the recommendation of the Nominating and Corporate Governance Committee, the Board has nominated the "
        "eight individuals below for election to one-year terms expiring at the 2027 annual meeting. All nominees "
        "are current directors. Seven of the eight nominees are independent, and the average tenure of our "
        "nominees is 8.1 years.")
    for name, age, since, comm, bio in DIRECTORS:
        d.add(f'<table style="width:100%;border-collapse:collapse;margin-top:8pt;border-top:1px solid #007C89">'
              f'<tr><td style="width:30%;vertical-align:top;{FS}"><b>{escape(name)}</b><br/>Age: {age}<br/>'
              f'Director since: {since}<br/>Committees: {escape(comm)}</td>'
              f'<td style="vertical-align:top;{FS};text-align:justify">{escape(bio)}</td></tr></table>',
              len(bio) + 260)
    d.raw("<b>THE BOARD OF DIRECTORS UNANIMOUSLY RECOMMENDS THAT YOU VOTE &#8220;FOR&#8221; EACH OF THE EIGHT "
          "NOMINEES.</b>", 100)
    d.h1("CORPORATE GOVERNANCE")
    d.h2("Board Leadership Structure")
    d.p("The roles of Chair of the Board and Chief Executive Officer are separate. Ms. Castellanos, an independent "
        "director, has served as Chair since 2020. The Board believes that an independent Chair strengthens its "
        "oversight of management while allowing Mr. Lindgren to focus on executing our strategy.")
    d.h2("Board Committees and Meetings")
    d.p("The Board met eight times in 2025, and each director attended at least 75% of the meetings of the Board and "
        "the committees on which he or she served. The Board has three standing committees.")
    d.table([["Committee", "Chair", "Members", "Meetings in 2025"]], [
        ["Audit", "Priya N. Ramaswamy", "4", "9"],
        ["Compensation and Human Capital", "Howard J. Pruitt", "3", "6"],
        ["Nominating and Corporate Governance", "Gordon E. Tsai", "3", "4"]], first_w=40)
    d.h2("Risk Oversight")
    d.p("The full Board oversees enterprise risk, and each committee oversees risks within its area. The Audit "
        "Committee oversees financial reporting, internal controls and cybersecurity risk and receives a report from "
        "the Chief Technology Officer at least twice a year. The Compensation and Human Capital Committee reviews "
        "whether our compensation programs encourage excessive risk-taking and has concluded that they do not.")


def director_comp(d: Doc):
    d.h1("DIRECTOR COMPENSATION")
    d.p("Non-employee directors receive an annual cash retainer of $95,000 and an annual restricted stock unit "
        "award with a grant-date value of approximately $160,000 that vests on the earlier of one year or the next "
        "annual meeting. The independent Chair receives an additional cash retainer of $85,000. The chairs of the "
        "Audit, Compensation and Human Capital, and Nominating and Corporate Governance Committees receive "
        "additional retainers of $25,000, $20,000 and $15,000, respectively. Mr. Lindgren receives no additional "
        "compensation for his service as a director.")
    rows = [[n, money(f), money(s), money(o), money(f + s + o)] for n, f, s, o in DIRECTOR_COMP]
    d.table([["Name", "Fees Earned or Paid in Cash ($)", "Stock Awards ($)(1)", "All Other Compensation ($)(2)",
              "Total ($)"]], rows, notes=[
        "(1) Amounts reflect the grant-date fair value of restricted stock units granted on May 15, 2025. Ms. Brandt "
        "joined the Board on March 3, 2025 and also received a pro-rated initial award.",
        "(2) Matching charitable contributions under our director gift-matching program."])
    d.p("Directors are expected to hold shares of our common stock with a value equal to five times the annual cash "
        "retainer within five years of joining the Board. All directors meet or are on track to meet the guideline.")


def executives(d: Doc):
    d.h1("EXECUTIVE OFFICERS")
    d.p("Our executive officers who are not also directors are listed below. Executive officers serve at the "
        "discretion of the Board.")
    d.table([["Name", "Age", "Position"]], [
        ["Natalie K. Osterhout", "48", "Executive Vice President and Chief Financial Officer (since August 2023)"],
        ["Dmitri A. Salazar", "51", "President, Municipal Solutions (since 2020)"],
        ["Janelle P. Whitaker", "46", "Senior Vice President, General Counsel and Corporate Secretary (since 2024)"],
        ["Curtis L. Bohannon", "55", "Senior Vice President and Chief Technology Officer (since January 2025)"],
        ["Reginald O. Farrow", "57", "Senior Vice President, Industrial and Commercial Solutions"],
        ["Ingrid S. Maalouf", "44", "Vice President, Controller and Chief Accounting Officer"]], first_w=28)


def proposal2_cda(d: Doc):
    d.h1("PROPOSAL 2 \u2014 ADVISORY VOTE TO APPROVE NAMED EXECUTIVE OFFICER COMPENSATION", new_page=True)
    d.p("As required by Section 14A of the Exchange Act, we are asking stockholders to approve, on an advisory basis, "
        "the compensation of our named executive officers as disclosed in this proxy statement. At our 2025 annual "
        "meeting, approximately 94.3% of the votes cast supported our say-on-pay proposal. We hold this vote "
        "annually.")
    d.raw("<b>THE BOARD OF DIRECTORS UNANIMOUSLY RECOMMENDS A VOTE &#8220;FOR&#8221; PROPOSAL 2.</b>", 80)
    d.h1("COMPENSATION DISCUSSION AND ANALYSIS")
    d.p("This Compensation Discussion and Analysis describes the 2025 compensation of our named executive officers "
        "(NEOs): Tobias R. Lindgren, President and Chief Executive Officer; Natalie K. Osterhout, Executive Vice "
        "President and Chief Financial Officer; Dmitri A. Salazar, President, Municipal Solutions; Janelle P. "
        "Whitaker, Senior Vice President, General Counsel and Corporate Secretary; and Curtis L. Bohannon, Senior "
        "Vice President and Chief Technology Officer.")
    d.h2("Compensation Philosophy and Pay Mix")
    d.p("Our program is designed to pay for performance, align executives with long-term stockholder value, and "
        "attract and retain experienced leaders. For 2025, approximately 87% of our CEO's target total direct "
        "compensation and approximately 74% of the other NEOs' average target total direct compensation was "
        "variable or at risk.")
    d.h2("What We Do and What We Don't Do")
    d.bullets(["We maintain a clawback policy compliant with Nasdaq Listing Rule 5608.",
               "We require stock ownership of six times base salary for our CEO and three times base salary for the "
               "other NEOs.",
               "We do not provide excise tax gross-ups or single-trigger equity vesting.",
               "We prohibit hedging and pledging of Company stock by directors and executive officers."])
    d.h2("Peer Group")
    d.p("The Compensation and Human Capital Committee, with the advice of its independent consultant, Larkspur Pay "
        "Advisors, uses a peer group of 14 water technology, flow control and industrial instrumentation companies "
        "to evaluate pay levels. For 2025 the peer group consisted of: " + ", ".join(PEERS[:-1]) + " and "
        + PEERS[-1] + ". At the time of the review, our revenue was near the 45th percentile of the peer group.")
    d.h2("Base Salary")
    d.p("In February 2025, the Committee increased Mr. Lindgren's base salary from $950,000 to $985,000, an increase "
        "of 3.7%, and increased Ms. Osterhout's base salary from $540,000 to $560,000.")
    d.h2("2025 Annual Incentive Plan")
    d.p("Annual incentive opportunities are expressed as a percentage of base salary. For 2025, target opportunities "
        "were 110% of base salary for Mr. Lindgren, 75% for Ms. Osterhout, 65% for Mr. Salazar, 60% for Ms. Whitaker "
        "and 55% for Mr. Bohannon. Payouts can range from 0% to 200% of target.")
    d.table([["Metric", "Weight", "Threshold", "Target", "Maximum", "Actual", "Payout (% of target)"]], [
        ["Adjusted operating income ($ millions)", "60%", "158.0", "180.0", "205.0", "187.3", "129%"],
        ["Net sales ($ millions)", "25%", "1,150.0", "1,260.0", "1,360.0", "1,284.6", "112%"],
        ["Strategic objectives", "15%", "\u2014", "\u2014", "\u2014", "Achieved", "80%"],
        ["Weighted payout", "", "", "", "", "", "117%"]], bold=(3,), first_w=30)
    d.p("Based on these results, the Committee approved annual incentive payouts equal to 117% of target for each "
        "NEO. The strategic objectives related to the integration of our ion-exchange product line, safety "
        "performance and talent development.")
    d.h2("Long-Term Incentives")
    d.p("The 2025 long-term incentive awards were granted on February 24, 2025 and consisted of 50% performance "
        "share units (PSUs), 30% time-based restricted stock units (RSUs) and 20% stock options, by grant-date value. "
        "PSUs are earned from 0% to 200% of target based on three-year cumulative adjusted earnings per share, "
        "modified by relative total shareholder return against the S&P MidCap 400 Industrials index.")
    d.p("The PSUs granted in 2023 for the 2023\u20132025 performance period were earned at 134% of target, reflecting "
        "cumulative adjusted earnings per share of $8.27 against a target of $7.90 and relative total shareholder "
        "return at the 68th percentile.")
    d.h2("Other Compensation")
    d.p("In connection with his hiring in January 2025, Mr. Bohannon received a one-time cash retention bonus of "
        "$75,000, which is subject to repayment if he voluntarily resigns before January 2027. Our NEOs participate "
        "in our 401(k) plan and a nonqualified deferred compensation plan on the same terms as other salaried "
        "participants.")
    d.h2("Compensation Committee Report")
    d.p("The Compensation and Human Capital Committee has reviewed and discussed the Compensation Discussion and "
        "Analysis with management and, based on that review, recommended to the Board that it be included in this "
        "proxy statement and incorporated by reference into the Annual Report on Form 10-K for 2025.")
    d.raw("Compensation and Human Capital Committee<br/>Howard J. Pruitt, Chair<br/>Alana M. Reyes-Whitfield<br/>"
          "Marcus D. Ebbesen", 120)


def exec_tables(d: Doc):
    d.h1("SUMMARY COMPENSATION TABLE", new_page=True)
    d.p("The following table shows the compensation of our named executive officers for the fiscal years ended "
        "December 31, 2025, 2024 and 2023.")
    rows = []
    last = None
    for r in sct_rows():
        name, title = (r[0], r[1]) if r[0] != last else ("", "")
        label = f"{name}, {title}" if name else ""
        last = r[0]
        rows.append([label, str(r[2])] + [money(x) for x in r[3:9]] + [money(total(r))])
    d.table([["Name and Principal Position", "Year", "Salary ($)", "Bonus ($)(1)", "Stock Awards ($)(2)",
              "Option Awards ($)(3)", "Non-Equity Incentive Plan Compensation ($)(4)",
              "All Other Compensation ($)(5)", "Total ($)"]], rows, first_w=22, notes=[
        "(1) For 2025, Mr. Bohannon's retention bonus. For 2023, Ms. Osterhout's sign-on bonus.",
        "(2) Grant-date fair value of PSUs (at target) and RSUs. At maximum performance, the 2025 PSUs would have had "
        "a grant-date value of $6,000,188 for Mr. Lindgren.",
        "(3) Grant-date fair value of stock options using a Black-Scholes value of $19.42 per option for 2025 "
        "grants.",
        "(4) Annual incentive plan payouts earned for the year and paid in the following March.",
        "(5) For 2025, 401(k) matching contributions, executive physicals and life insurance premiums."])
    d.h1("GRANTS OF PLAN-BASED AWARDS IN 2025")
    rows = []
    for name, title, sal, bonus, psu, rsu, opt, tgt, other in NEO_2025:
        t = round(sal * tgt / 100)
        rows.append([name, "Annual incentive", "\u2014", f"{t:,}", f"{2 * t:,}", "\u2014", "\u2014"])
        rows.append(["", "PSUs", "2/24/2025", f"{psu:,}", f"{2 * psu:,}", "\u2014", f"{round(psu * PRICE):,}"])
        rows.append(["", "RSUs", "2/24/2025", f"{rsu:,}", "\u2014", "\u2014", f"{round(rsu * PRICE):,}"])
        rows.append(["", "Stock options", "2/24/2025", f"{opt:,}", "\u2014", f"{PRICE:.2f}",
                     f"{round(opt * OPT_VALUE):,}"])
    d.table([["Name", "Award Type", "Grant Date", "Target ($ or #)", "Maximum ($ or #)",
              "Exercise Price ($/Sh)", "Grant Date Fair Value ($)"]], rows, first_w=22)
    d.h1("CEO PAY RATIO")
    d.p("For 2025, the annual total compensation of our median employee (other than our CEO) was $71,846, and the "
        f"annual total compensation of our CEO, as reported in the Summary Compensation Table, was "
        f"${total(sct_rows()[0]):,}. The ratio of our CEO's annual total compensation to that of our median employee "
        "was approximately 116 to 1. We identified the median employee using base pay as of October 1, 2025 for all "
        "individuals employed on that date, excluding 142 employees in Mexico under the de minimis exemption.")


def ownership(d: Doc):
    d.h1("SECURITY OWNERSHIP OF CERTAIN BENEFICIAL OWNERS AND MANAGEMENT", new_page=True)
    d.p(f"The table below shows beneficial ownership of our common stock as of March 20, 2026 by each person known "
        f"to us to own more than 5% of our common stock, each director and NEO, and all directors and executive "
        f"officers as a group. Percentages are based on {OUTSTANDING:,} shares outstanding.")
    rows = []
    for n, s in OWNERS:
        pct = s / OUTSTANDING * 100
        rows.append([n, f"{s:,}", f"{pct:.1f}%" if pct >= 1 else "*"])
    d.table([["Name of Beneficial Owner", "Shares Beneficially Owned", "Percent of Class"]], rows, first_w=56,
            notes=["* Less than 1%.",
                   "(1) Based on a Schedule 13G/A filed February 6, 2026. The address is 1200 Harborview Drive, "
                   "Boston, Massachusetts 02210.",
                   "(2) Based on a Schedule 13G/A filed February 11, 2026. The address is 615 Lexington Terrace, New "
                   "York, New York 10017.",
                   "(3) Based on a Schedule 13G filed January 29, 2026. The address is 88 Embarcadero Plaza, San "
                   "Francisco, California 94111.",
                   "(4) Includes shares subject to options exercisable within 60 days of March 20, 2026: Mr. Lindgren, "
                   "186,402; Ms. Osterhout, 10,113; Mr. Salazar, 41,770; Ms. Whitaker, 6,890; and Mr. Bohannon, 0.",
                   "(5) Includes 251,175 shares subject to options exercisable within 60 days."])


def proposal3(d: Doc):
    d.h1("PROPOSAL 3 \u2014 RATIFICATION OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM")
    d.p("The Audit Committee has appointed Harrow & Lindqvist LLP as our independent registered public accounting "
        "firm for fiscal 2026. Harrow & Lindqvist LLP has audited our financial statements since 2009. "
        "Representatives of the firm are expected to attend the annual meeting.")
    d.h2("Fees Paid to the Independent Registered Public Accounting Firm")
    rows = [[n, money(a), money(b)] for n, a, b in AUDIT_FEES]
    rows.append(["Total", money(sum(a for _, a, _ in AUDIT_FEES)), money(sum(b for _, _, b in AUDIT_FEES))])
    d.table([["", "Fiscal 2025 ($)", "Fiscal 2024 ($)"]], rows, bold=(len(rows) - 1,), first_w=50, notes=[
        "(1) Audit of annual financial statements and internal control over financial reporting, and quarterly "
        "reviews.",
        "(2) Employee benefit plan audits and agreed-upon procedures.",
        "(3) Tax compliance and tax planning services.",
        "(4) Subscription to an online accounting research tool."])
    d.p("The Audit Committee pre-approves all audit and permitted non-audit services. All of the services described "
        "above were pre-approved.")
    d.h2("Report of the Audit Committee")
    d.p("The Audit Committee has reviewed and discussed the audited financial statements for 2025 with management "
        "and Harrow & Lindqvist LLP, has discussed the matters required by PCAOB Auditing Standard No. 1301, and has "
        "received the written disclosures regarding the firm's independence. Based on these reviews, the Committee "
        "recommended that the audited financial statements be included in the Annual Report on Form 10-K for 2025.")
    d.raw("Audit Committee<br/>Priya N. Ramaswamy, Chair<br/>Alana M. Reyes-Whitfield<br/>Gordon E. Tsai<br/>"
          "Colette A. Brandt", 120)
    d.raw("<b>THE BOARD OF DIRECTORS UNANIMOUSLY RECOMMENDS A VOTE &#8220;FOR&#8221; PROPOSAL 3.</b>", 80)


def proposal4(d: Doc):
    d.h1("PROPOSAL 4 \u2014 APPROVAL OF AN AMENDMENT TO THE 2021 OMNIBUS INCENTIVE PLAN")
    d.p("We are asking stockholders to approve an amendment to the Quillon Water Technologies, Inc. 2021 Omnibus "
        "Incentive Plan (the Plan) that would increase the number of shares reserved for issuance by 1,850,000 "
        "shares. As of March 20, 2026, 1,240,587 shares remained available for future grants under the Plan. If "
        "the amendment is not approved, we expect to exhaust the share reserve in 2027.")
    d.h2("Key Data")
    d.bullets(["Three-year average burn rate (2023\u20132025): 1.18%.",
               "Fully diluted overhang including the requested shares: 9.6%.",
               "Outstanding stock options: 1,063,410, with a weighted-average exercise price of $48.77 and a "
               "weighted-average remaining term of 6.2 years.",
               "Outstanding full-value awards (RSUs and PSUs at target): 702,955."])
    d.p("The Plan prohibits repricing of options without stockholder approval, does not permit liberal share "
        "recycling, and limits annual awards to any non-employee director to $600,000 including cash fees.")
    d.raw("<b>THE BOARD OF DIRECTORS UNANIMOUSLY RECOMMENDS A VOTE &#8220;FOR&#8221; PROPOSAL 4.</b>", 80)
    d.h1("OTHER MATTERS")
    d.p("Stockholder proposals intended for inclusion in the proxy statement for the 2027 annual meeting must be "
        "received by our Corporate Secretary no later than December 3, 2026. The Board knows of no other matters to "
        "be presented at the annual meeting.")
    d.raw("By Order of the Board of Directors,<br/><br/>/s/ Janelle P. Whitaker<br/>Janelle P. Whitaker<br/>"
          "<i>Corporate Secretary</i><br/>April 2, 2026", 120)


def build():
    d = Doc()
    cover(d)
    notice(d)
    general(d)
    proposal1(d)
    director_comp(d)
    executives(d)
    proposal2_cda(d)
    exec_tables(d)
    ownership(d)
    proposal3(d)
    proposal4(d)
    html = d.html()
    return FILE, html.encode("utf-8"), None, d.page - 1
