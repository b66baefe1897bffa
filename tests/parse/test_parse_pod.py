"""Perl POD parser: headings, formatting codes, commands, POD blocks inside code."""

from __future__ import annotations

from pipelines.parse import build_sections
from pipelines.parse.pod import parse, render_codes

# Condensed from perl-doc: pod/perlgit.pod and pod/perlop.pod
PERLGIT = """=encoding utf8

=for comment
Consistent formatting of this file is achieved with:
  perl ./Porting/podtidy pod/perlgit.pod

=head1 NAME

perlgit - Detailed information about git and the Perl repository

=head1 DESCRIPTION

This document provides details on using git to develop Perl. If you are
just interested in working on a quick patch, see L<perlhack> first.

=head1 CLONING THE REPOSITORY

All of Perl's source code is kept centrally in a Git repository at
I<github.com>.

  % git clone git@github.com:Perl/perl5.git perl

=head2 Equality Operators
X<equality> X<equal> X<equals> X<operator, equality>

Binary C<< "<=>" >> returns -1, 0, or 1 depending on whether the left
argument is numerically less than, equal to, or greater than the right.
See L<perlop/"Equality Operators"> and L<the FAQ|perlfaq4> and E<lt>tagE<gt>.

=over 4

=item *

First bullet with B<bold> text.

=item C<--verbose>

Print more.

=back

=begin html

<p>This HTML must not appear.</p>

=end html

=begin text

Plain text block kept.

=end text

=head3 Deeper

=head4 Deepest

Text.

=cut
"""

MODULE = """package Foo::Bar;
use strict;

=head1 NAME

Foo::Bar - frobnicate widgets

=cut

sub new { my $class = shift; return bless {}, $class }

=head2 new

Creates a Foo::Bar.

=cut

# =head1 not pod (indented code is not a command)
1;
"""


def run(src):
    text, heads, title = parse(src)
    for h in heads:
        assert text[h.start:h.end] == h.title
    doc = build_sections("d", text, heads, title=title or "t", fmt="pod")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    return text, [(h.level, h.title) for h in heads], title, doc


def test_pod_document():
    text, heads, title, doc = run(PERLGIT)
    assert title == "perlgit - Detailed information about git and the Perl repository"
    assert heads == [(1, "NAME"), (1, "DESCRIPTION"), (1, "CLONING THE REPOSITORY"),
                     (2, "Equality Operators"), (3, "Deeper"), (4, "Deepest")]
    assert "see perlhack first." in text
    assert "at\ngithub.com." in text
    assert "  % git clone git@github.com:Perl/perl5.git perl" in text  # verbatim kept as-is
    assert 'Binary "<=>" returns -1' in text
    assert 'See "Equality Operators" in perlop and the FAQ and <tag>.' in text
    assert "• First bullet with bold text." in text
    assert "--verbose\nPrint more." in text
    assert "Plain text block kept." in text
    for junk in ("=head", "=item", "=over", "=back", "=cut", "=encoding", "podtidy", "HTML must not",
                 "equality", "X<", "B<", "C<"):
        assert junk not in text, junk
    assert doc.sections[-1].path == ["CLONING THE REPOSITORY", "Equality Operators", "Deeper", "Deepest"]


def test_module_keeps_only_pod_blocks():
    text, heads, title, _ = run(MODULE)
    assert title == "Foo::Bar - frobnicate widgets"
    assert heads == [(1, "NAME"), (2, "new")]
    assert "use strict" not in text and "sub new" not in text and "1;" not in text
    assert "Creates a Foo::Bar." in text


def test_code_without_pod_is_empty():
    text, heads, title = parse("package X;\nsub f { 1 }\n1;\n")
    assert text == "" and heads == [] and title is None


def test_formatting_codes():
    assert render_codes("C<< $a <=> $b >>") == "$a <=> $b"
    assert render_codes("C<<< a >> b >>>") == "a >> b"
    assert render_codes("B<I<nested>> and F</etc/passwd>") == "nested and /etc/passwd"
    assert render_codes("S<non breaking> Z<>X<index>done") == "non breaking done"
    assert render_codes("L<text|http://example.com> L<Foo::Bar> L</Section>") == "text Foo::Bar \"Section\""
    assert render_codes("E<lt>E<gt>E<verbar>E<sol>E<eacute>E<0x41>E<65>") == "<>|/éAA"
    assert render_codes("if $x > 3 and $y < 4") == "if $x > 3 and $y < 4"
    assert render_codes("unclosed B<bold") == "unclosed bold"
