"""Document 5: a definitive proxy statement (Schedule 14A) as older Donnelley-style EDGAR HTML.

Upper-case tags, <FONT SIZE="2" FACE="Times New Roman">, <B> and <I> for emphasis; the main section headings
are white bold capitals inside a one-cell coloured <TABLE> bar; 'PROPOSAL NO. 1' and its title are two centred
bold lines; sub-headings are <B> paragraphs, sub-sub-headings <B><I>; nominee names are bold run-ins; pages end
with a centred page number and <HR>; a TABLE OF CONTENTS with page numbers sits after the notice."""

from __future__ import annotations

from html import escape

from prose import GOVERN, Prose

PR = Prose(5)
F = '<FONT SIZE="2" FACE="Times New Roman, Times, Serif">'


class Doc:
    def __init__(self):
        self.parts: list[str] = []
        self.truth: list[tuple[int, str]] = []
        self.page = 0
        self.chars = 0
        self.toc: list[tuple[str, str, int]] = []
        self.n = 0

    def add(self, html, n):
        self.parts.append(html + "\n")
        self.chars += n
        if self.chars > 3400:
            self.page_break()

    def page_break(self):
        self.page += 1
        self.parts.append(f'<P ALIGN="CENTER">{F}{self.page}</FONT></P>\n<P STYLE="page-break-before:always">'
                          f'</P>\n<HR SIZE="3" WIDTH="100%" NOSHADE COLOR="#999999">\n')
        self.chars = 0

    def anchor(self):
        self.n += 1
        return f"toc{self.n:03d}"

    def p(self, text, lead=None, indent=True):
        lead_html = f"<B>{escape(lead)}</B> " if lead else ""
        style = ' STYLE="text-indent:4%"' if indent and not lead else ""
        self.add(f'<P ALIGN="JUSTIFY"{style}>{F}{lead_html}{escape(text)}</FONT></P>', len(text) + 40)

    def bar(self, text, toc=True):
        """A section heading in a coloured bar (one-cell table)."""
        if self.chars > 2400:
            self.page_break()
        a = self.anchor()
        self.add(f'<P><A NAME="{a}"></A></P><TABLE WIDTH="100%" CELLPADDING="4" CELLSPACING="0" BORDER="0">'
                 f'<TR><TD BGCOLOR="#1F3864" ALIGN="LEFT"><FONT SIZE="3" FACE="Arial, Helvetica" COLOR="#FFFFFF">'
                 f'<B>{escape(text)}</B></FONT></TD></TR></TABLE>', 120)
        self.truth.append((1, text))
        if toc:
            self.toc.append((text, a, self.page + 1))

    def proposal(self, num, title):
        if self.chars > 1500:
            self.page_break()
        a = self.anchor()
        self.add(f'<P ALIGN="CENTER"><A NAME="{a}"></A><FONT SIZE="3" FACE="Arial, Helvetica" COLOR="#1F3864"><B>'
                 f'PROPOSAL NO. {num}</B></FONT></P>\n<P ALIGN="CENTER"><FONT SIZE="3" FACE="Arial, Helvetica" '
                 f'COLOR="#1F3864"><B>{escape(title)}</B></FONT></P>', 150)
        self.truth.append((1, f"PROPOSAL NO. {num} {title}"))
        self.toc.append((f"PROPOSAL NO. {num} \u2014 {title}", a, self.page + 1))

    def h2(self, text):
        self.add(f'<P>{F}<B>{escape(text)}</B></FONT></P>', 60)
        self.truth.append((2, text))

    def h3(self, text):
        self.add(f'<P>{F}<B><I>{escape(text)}</I></B></FONT></P>', 60)
        self.truth.append((3, text))

    def table(self, rows, bold_rows=(0,)):
        out = ['<TABLE WIDTH="100%" BORDER="0" CELLSPACING="0" CELLPADDING="0">']
        for r, row in enumerate(rows):
            tds = []
            for c, cell in enumerate(row):
                txt = f"<B>{escape(cell)}</B>" if r in bold_rows else escape(cell)
                align = "LEFT" if c == 0 else "RIGHT"
                border = ' STYLE="border-bottom:1px solid #000000"' if r == 0 else ""
                bg = ' BGCOLOR="#DCE6F1"' if r % 2 == 1 else ""
                tds.append(f'<TD VALIGN="BOTTOM" ALIGN="{align}"{bg}{border}>{F}{txt}</FONT></TD>'
                           f'<TD WIDTH="1%"{bg}>&nbsp;</TD>')
            out.append("<TR>" + "".join(tds) + "</TR>")
        out.append("</TABLE>")
        self.add("".join(out), 70 * len(rows))


NOMINEES = [
    ("Margaret L. Okafor", 61, "has served as a director since 2016 and as our independent Chair since 2021. She was "
                               "Chief Executive Officer of Brightwater Industrial Holdings from 2009 to 2020."),
    ("Daniel R. Whitcomb", 55, "has served as our President and Chief Executive Officer and as a director since "
                               "2019. Before joining the Company, he led the industrial automation business of a "
                               "global engineering company."),
    ("Lucia Fernández-Wray", 58, "has served as a director since 2020. She is a retired audit partner of a Big Four "
                                 "accounting firm, where she led its industrial products practice."),
    ("Robert T. Haverford", 67, "has served as a director since 2012. He was Executive Vice President, Operations of "
                                "a diversified aerospace supplier and serves on the board of a regional utility."),
    ("Samuel K. Osei", 49, "has served as a director since 2023. He is Chief Technology Officer of a publicly traded "
                           "semiconductor equipment company and holds a Ph.D. in electrical engineering."),
]


def front(toc_rows):
    return f"""<HTML><HEAD><TITLE>DEF 14A</TITLE></HEAD><BODY BGCOLOR="WHITE">
<P ALIGN="CENTER">{F}<B>UNITED STATES<BR>SECURITIES AND EXCHANGE COMMISSION</B><BR>Washington, D.C. 20549</FONT></P>
<P ALIGN="CENTER">{F}<B>SCHEDULE 14A</B></FONT></P>
<P ALIGN="CENTER">{F}Proxy Statement Pursuant to Section 14(a) of the Securities Exchange Act of 1934<BR>(Amendment No. &nbsp;&nbsp;)</FONT></P>
<TABLE WIDTH="100%" BORDER="0" CELLSPACING="0" CELLPADDING="0">
<TR><TD WIDTH="4%">{F}&#9746;</FONT></TD><TD>{F}Filed by the Registrant</FONT></TD></TR>
<TR><TD>{F}&#9744;</FONT></TD><TD>{F}Filed by a Party other than the Registrant</FONT></TD></TR>
<TR><TD COLSPAN="2">{F}Check the appropriate box:</FONT></TD></TR>
<TR><TD>{F}&#9744;</FONT></TD><TD>{F}Preliminary Proxy Statement</FONT></TD></TR>
<TR><TD>{F}&#9746;</FONT></TD><TD>{F}Definitive Proxy Statement</FONT></TD></TR>
<TR><TD>{F}&#9744;</FONT></TD><TD>{F}Definitive Additional Materials</FONT></TD></TR></TABLE>
<P ALIGN="CENTER"><FONT SIZE="4" FACE="Arial, Helvetica"><B>NORTHWIND PRECISION INSTRUMENTS, INC.</B></FONT><BR>{F}(Name of Registrant as Specified In Its Charter)</FONT></P>
<P>{F}Payment of Filing Fee (Check all boxes that apply):<BR>&#9746; No fee required.</FONT></P>
<P STYLE="page-break-before:always"></P><HR SIZE="3" NOSHADE>
<P ALIGN="CENTER"><FONT SIZE="4" FACE="Arial, Helvetica" COLOR="#1F3864"><B>NORTHWIND PRECISION INSTRUMENTS, INC.</B></FONT><BR>{F}4400 Research Boulevard<BR>Dayton, Ohio 45424</FONT></P>
<P ALIGN="CENTER">{F}<B>NOTICE OF 2025 ANNUAL MEETING OF STOCKHOLDERS</B></FONT></P>
<TABLE WIDTH="100%" BORDER="0" CELLSPACING="0" CELLPADDING="2">
<TR><TD WIDTH="25%" VALIGN="TOP">{F}<B>Date and Time:</B></FONT></TD><TD>{F}Thursday, May 8, 2025, 9:00 a.m. Eastern Time</FONT></TD></TR>
<TR><TD VALIGN="TOP">{F}<B>Place:</B></FONT></TD><TD>{F}Virtual meeting at www.virtualshareholdermeeting.com/NWPI2025</FONT></TD></TR>
<TR><TD VALIGN="TOP">{F}<B>Record Date:</B></FONT></TD><TD>{F}March 14, 2025</FONT></TD></TR>
<TR><TD VALIGN="TOP">{F}<B>Items of Business:</B></FONT></TD><TD>{F}1. To elect five directors to serve until the 2026 annual meeting;<BR>2. To ratify the appointment of Hollister &amp; Vance LLP as our independent registered public accounting firm for 2025;<BR>3. To approve, on an advisory basis, the compensation of our named executive officers; and<BR>4. To transact such other business as may properly come before the meeting.</FONT></TD></TR></TABLE>
<P ALIGN="JUSTIFY">{F}Your vote is important. Whether or not you plan to attend the meeting, please vote as soon as possible by internet, by telephone or by signing and returning your proxy card.</FONT></P>
<P>{F}By Order of the Board of Directors,<BR><BR>/s/ Ellen M. Ruiz<BR>Ellen M. Ruiz<BR><I>Corporate Secretary</I><BR>March 27, 2025</FONT></P>
<P STYLE="page-break-before:always"></P><HR SIZE="3" NOSHADE>
<P ALIGN="CENTER"><FONT SIZE="3" FACE="Arial, Helvetica" COLOR="#1F3864"><B>TABLE OF CONTENTS</B></FONT></P>
<TABLE WIDTH="100%" BORDER="0" CELLSPACING="0" CELLPADDING="1">
<TR><TD></TD><TD ALIGN="RIGHT">{F}<B>Page</B></FONT></TD></TR>
{toc_rows}
</TABLE>
<P STYLE="page-break-before:always"></P><HR SIZE="3" NOSHADE>
"""


def body(d: Doc):
    d.add(f'<P ALIGN="CENTER"><FONT SIZE="4" FACE="Arial, Helvetica" COLOR="#1F3864"><B>PROXY STATEMENT</B>'
          f'</FONT></P>', 20)
    d.truth.append((1, "PROXY STATEMENT"))
    d.p("This proxy statement is furnished in connection with the solicitation of proxies by the Board of Directors "
        "of Northwind Precision Instruments, Inc. for use at our 2025 Annual Meeting of Stockholders. This proxy "
        "statement and our Annual Report on Form 10-K are first being made available to stockholders on or about "
        "March 27, 2025.")
    d.bar("GENERAL INFORMATION ABOUT THE MEETING")
    d.h2("Record Date and Shares Outstanding")
    d.p("Only stockholders of record at the close of business on March 14, 2025 are entitled to vote at the "
        "meeting. On the record date, 41,798,512 shares of common stock were outstanding and entitled to vote. "
        "Each share is entitled to one vote on each matter.")
    d.h2("Quorum and Vote Required")
    d.p("The presence, in person or by proxy, of the holders of a majority of the outstanding shares constitutes a "
        "quorum. Directors are elected by a majority of the votes cast. Proposals 2 and 3 require the affirmative "
        "vote of a majority of the shares present and entitled to vote. Abstentions and broker non-votes are "
        "counted for purposes of determining a quorum.")
    d.h2("Revocability of Proxies")
    d.p("A stockholder may revoke a proxy at any time before it is voted by delivering a written notice of "
        "revocation to the Corporate Secretary, by submitting a later-dated proxy, or by voting at the virtual "
        "meeting. Attendance at the meeting will not by itself revoke a proxy.")
    d.h2("Solicitation of Proxies")
    d.p("We will bear the cost of soliciting proxies. We have engaged Morrow Harlan LLC to assist in the "
        "solicitation for a fee of approximately $15,000 plus expenses. Directors, officers and employees may also "
        "solicit proxies without additional compensation.")

    d.proposal(1, "ELECTION OF DIRECTORS")
    d.p("The Board has nominated the five individuals named below for election as directors to serve until the 2026 "
        "annual meeting and until their successors are duly elected and qualified. Each nominee is currently a "
        "director and has consented to serve if elected.")
    d.h2("Nominees for Election")
    for name, age, text in NOMINEES:
        d.p(text, lead=f"{name}, {age},")
    d.add(f'<P ALIGN="CENTER">{F}<B>THE BOARD OF DIRECTORS UNANIMOUSLY RECOMMENDS A VOTE &#8220;FOR&#8221; EACH OF '
          f'THE NOMINEES.</B></FONT></P>', 90)

    d.bar("CORPORATE GOVERNANCE")
    d.h2("Board Leadership Structure")
    for t in PR.paras(GOVERN, 1, 2, 3):
        d.p(t)
    d.h2("Director Independence")
    d.p("The Board has determined that each director other than Mr. Whitcomb is independent under the Nasdaq "
        "listing standards. In making this determination, the Board considered ordinary-course transactions "
        "between the Company and companies at which certain directors serve as executives.")
    d.h2("Committees of the Board")
    d.p("The Board has three standing committees. The current membership of each committee is shown below.")
    d.table([["Director", "Audit", "Compensation and Human Capital", "Nominating and Governance"],
             ["Margaret L. Okafor", "", "Member", "Chair"], ["Lucia Fernández-Wray", "Chair", "", "Member"],
             ["Robert T. Haverford", "Member", "Chair", ""], ["Samuel K. Osei", "Member", "Member", ""]])
    d.h3("Audit Committee")
    d.p(PR.sents(GOVERN, 3))
    d.h3("Compensation and Human Capital Committee")
    d.p(PR.sents(GOVERN, 2))
    d.h3("Nominating and Governance Committee")
    d.p(PR.sents(GOVERN, 3))
    d.h2("Board Role in Risk Oversight")
    d.p(PR.sents(GOVERN, 3))
    d.h2("Director Compensation")
    d.p("Non-employee directors receive an annual cash retainer of $90,000 and an annual restricted stock unit award "
        "with a grant-date value of $160,000. The independent Chair and committee chairs receive additional "
        "retainers.")
    d.table([["Name", "Fees Earned ($)", "Stock Awards ($)", "Total ($)"],
             ["Margaret L. Okafor", "175,000", "160,000", "335,000"], ["Lucia Fernández-Wray", "115,000", "160,000",
                                                                       "275,000"],
             ["Robert T. Haverford", "110,000", "160,000", "270,000"], ["Samuel K. Osei", "90,000", "160,000",
                                                                        "250,000"]])

    d.bar("SECURITY OWNERSHIP OF CERTAIN BENEFICIAL OWNERS AND MANAGEMENT")
    d.p("The following table sets forth information as of March 14, 2025 regarding the beneficial ownership of our "
        "common stock by each person known to us to own more than 5% of our common stock, each director and named "
        "executive officer, and all directors and executive officers as a group.")
    d.table([["Name of Beneficial Owner", "Shares", "Percent"], ["BlackRidge Capital Advisors, LP", "4,318,220",
                                                                 "10.3%"],
             ["Vanguardia Asset Management Co.", "3,902,115", "9.3%"], ["Daniel R. Whitcomb", "212,406", "*"],
             ["All directors and executive officers as a group (11 persons)", "498,771", "1.2%"]])

    d.bar("EXECUTIVE COMPENSATION")
    d.h2("Compensation Discussion and Analysis")
    d.h3("Executive Summary")
    for t in PR.paras(GOVERN, 1, 3, 4):
        d.p(t)
    d.h3("Elements of Compensation")
    d.p(PR.sents(GOVERN, 2), lead="Base Salary.")
    d.p(PR.sents(GOVERN, 2), lead="Annual Incentive Plan.")
    d.p(PR.sents(GOVERN, 2), lead="Long-Term Incentives.")
    d.h3("Role of the Compensation Consultant")
    d.p(PR.sents(GOVERN, 2))
    d.h2("Compensation Committee Report")
    d.p("The Compensation and Human Capital Committee has reviewed and discussed the Compensation Discussion and "
        "Analysis with management and, based on that review, recommended to the Board that it be included in this "
        "proxy statement and incorporated by reference into our Annual Report on Form 10-K.")
    d.add(f'<P>{F}<I>Robert T. Haverford, Chair<BR>Margaret L. Okafor<BR>Samuel K. Osei</I></FONT></P>', 60)
    d.h2("Summary Compensation Table")
    d.table([["Name and Principal Position", "Year", "Salary ($)", "Stock Awards ($)", "Non-Equity Incentive ($)",
              "Total ($)"],
             ["Daniel R. Whitcomb, President and CEO", "2024", "950,000", "4,200,000", "1,330,000", "6,571,210"],
             ["", "2023", "910,000", "3,800,000", "1,092,000", "5,891,445"],
             ["Karen E. Lindqvist, SVP and Treasurer", "2024", "520,000", "1,100,000", "420,000", "2,072,980"],
             ["Philip J. Amadi, EVP and CFO", "2024", "610,000", "1,600,000", "560,000", "2,815,330"]])
    d.h2("Pay Versus Performance")
    d.p("As required by Item 402(v) of Regulation S-K, the following information describes the relationship between "
        "compensation actually paid to our named executive officers and certain measures of the Company's "
        "financial performance. See the Compensation Discussion and Analysis above for a discussion of how the "
        "Committee aligns pay with performance.")

    d.bar("AUDIT COMMITTEE MATTERS")
    d.h2("Report of the Audit Committee")
    d.p("The Audit Committee has reviewed and discussed the audited financial statements for 2024 with management "
        "and with Hollister & Vance LLP. Based on these discussions, the Audit Committee recommended to the Board "
        "that the audited financial statements be included in the Annual Report on Form 10-K.")
    d.h2("Fees Paid to Independent Registered Public Accounting Firm")
    d.table([["", "2024 ($)", "2023 ($)"], ["Audit Fees", "2,418,000", "2,296,500"], ["Audit-Related Fees", "118,000",
                                                                                   "242,000"],
             ["Tax Fees", "96,400", "88,100"], ["Total", "2,632,400", "2,626,600"]])

    d.proposal(2, "RATIFICATION OF APPOINTMENT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM")
    d.p("The Audit Committee has appointed Hollister & Vance LLP as our independent registered public accounting firm "
        "for 2025, and the Board is asking stockholders to ratify that appointment. Representatives of Hollister & "
        "Vance LLP are expected to attend the meeting and to be available to respond to appropriate questions.")
    d.proposal(3, "ADVISORY VOTE TO APPROVE NAMED EXECUTIVE OFFICER COMPENSATION")
    d.p("We are asking stockholders to approve, on an advisory basis, the compensation of our named executive "
        "officers as described in the Compensation Discussion and Analysis and the accompanying tables. Although "
        "the vote is non-binding, the Committee will consider the outcome when making future compensation "
        "decisions.")
    d.bar("OTHER MATTERS")
    d.h2("Stockholder Proposals for the 2026 Annual Meeting")
    d.p("Stockholder proposals intended for inclusion in the proxy statement for the 2026 annual meeting must be "
        "received by the Corporate Secretary no later than November 27, 2025. Notice of director nominations under "
        "our proxy access bylaw must be received between October 28, 2025 and November 27, 2025.")
    d.h2("Householding")
    d.p("We have adopted a procedure approved by the SEC called householding, under which stockholders who share an "
        "address receive a single copy of our proxy materials unless one or more of them notifies us that they wish "
        "to receive individual copies.")
    d.page_break()


def build():
    global PR
    PR = Prose(5)
    d = Doc()
    body(d)
    rows = "\n".join(f'<TR><TD>{F}<A HREF="#{a}">{escape(t)}</A></FONT></TD><TD ALIGN="RIGHT" VALIGN="BOTTOM">{F}{p}'
                     f'</FONT></TD></TR>' for t, a, p in d.toc)
    html = front(rows) + "".join(d.parts) + "</BODY></HTML>\n"
    truth = [(1, "NOTICE OF 2025 ANNUAL MEETING OF STOCKHOLDERS")] + d.truth
    return "northwind_def14a_2025.htm", html.encode("ascii", "xmlcharrefreplace"), truth
