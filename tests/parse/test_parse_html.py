"""HTML parser: body text, headings, navigation chrome skipped, broken markup tolerated."""

from __future__ import annotations

import time

from pipelines.parse import build_sections
from pipelines.parse.html import parse, sanitize

# Condensed from postgresql-doc-15: html/sql-createopfamily.html (DocBook XHTML)
POSTGRES = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>CREATE OPERATOR FAMILY</title><link rel="stylesheet" type="text/css" href="stylesheet.css" /></head><body id="docContent" class="container-fluid col-10"><div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="5" align="center">CREATE OPERATOR FAMILY</th></tr><tr><td width="10%" align="left"><a accesskey="p" href="sql-createopclass.html" title="CREATE OPERATOR CLASS">Prev</a> </td><td width="10%" align="left"><a accesskey="u" href="sql-commands.html" title="SQL Commands">Up</a></td></tr></table><hr /></div><div class="refentry" id="SQL-CREATEOPFAMILY"><div class="titlepage"></div><a id="id-1.9.3.74.1" class="indexterm"></a><div class="refnamediv"><h2><span class="refentrytitle">CREATE OPERATOR FAMILY</span></h2><p>CREATE OPERATOR FAMILY &#8212; define a new operator family</p></div><div class="refsynopsisdiv"><h2>Synopsis</h2><pre class="synopsis">
CREATE OPERATOR FAMILY <em class="replaceable"><code>name</code></em> USING <em class="replaceable"><code>index_method</code></em>
</pre></div><div class="refsect1" id="id-1.9.3.74.5"><h2>Description</h2><p>
   <code class="command">CREATE OPERATOR FAMILY</code> creates a new operator family.
   An operator family defines a collection of related operator classes,
   and perhaps some additional operators and support functions.
  </p></div><div class="refsect1" id="id-1.9.3.74.6"><h2>Parameters</h2><div class="variablelist"><dl class="variablelist"><dt><span class="term"><em class="replaceable"><code>name</code></em></span></dt><dd><p>
        The name of the operator family to be created.
       </p></dd></dl></div></div></div><div class="navfooter"><hr /><table width="100%" summary="Navigation footer"><tr><td width="40%" align="left"><a accesskey="p" href="sql-createopclass.html">Prev</a> </td></tr></table></div></body></html>"""

# Condensed from python3.11-doc: html/library/json.html (Sphinx)
SPHINX = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>json &#8212; JSON encoder and decoder &#8212; Python 3.11.2 documentation</title>
    <script src="../_static/jquery.js"></script>
    <style>@media only screen { table.full-width-table { width: 100%; } }</style>
  </head>
<body>
<div class="mobile-nav">
    <nav class="nav-content" role="navigation">
      <label for="menuToggler">Menu</label>
    </nav>
</div>
  <div class="related" role="navigation" aria-label="related navigation">
    <h3>Navigation</h3>
    <ul><li class="right"><a href="../genindex.html" title="General Index">index</a></li></ul>
  </div>
  <div class="document">
    <div class="documentwrapper">
      <div class="bodywrapper">
        <div class="body" role="main">
  <section id="module-json">
<span id="json-json-encoder-and-decoder"></span><h1><a class="reference internal" href="#module-json" title="json: Encode and decode the JSON format."><code class="xref py py-mod docutils literal notranslate"><span class="pre">json</span></code></a> &#8212; JSON encoder and decoder<a class="headerlink" href="#module-json" title="Permalink to this heading">&#182;</a></h1>
<p><strong>Source code:</strong> <a class="reference external" href="https://github.com/python/cpython/tree/3.11/Lib/json/__init__.py">Lib/json/__init__.py</a></p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="kn">import</span> <span class="nn">json</span>
<span class="gp">&gt;&gt;&gt; </span><span class="n">json</span><span class="o">.</span><span class="n">dumps</span><span class="p">([</span><span class="s1">&#39;foo&#39;</span><span class="p">])</span>
</pre></div></div>
<section id="basic-usage">
<h2>Basic Usage<a class="headerlink" href="#basic-usage" title="Permalink to this heading">&#182;</a></h2>
<dl class="py function">
<dt class="sig sig-object py" id="json.dump"><span class="sig-name descname"><span class="pre">dump</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">obj</span></span></em><span class="sig-paren">)</span></dt>
<dd><p>Serialize <em>obj</em> as a JSON formatted stream.</p></dd></dl>
<table class="docutils align-default">
<thead><tr class="row-odd"><th class="head"><p>JSON</p></th><th class="head"><p>Python</p></th></tr></thead>
<tbody><tr class="row-even"><td><p>object</p></td><td><p>dict</p></td></tr>
<tr class="row-odd"><td><p>array</p></td><td><p>list</p></td></tr></tbody></table>
</section>
</section>
        </div>
      </div>
    </div>
    <div class="sphinxsidebar" role="navigation" aria-label="main navigation">
      <h3><a href="../contents.html">Table of Contents</a></h3>
      <ul><li><a class="reference internal" href="#">json</a></li></ul>
    </div>
  </div>
  <div class="footer">&copy; <a href="../copyright.html">Copyright</a> 2001-2023.</div>
</body>
</html>"""

# Shapes of javadoc and rustdoc pages (navigation bars, sidebars, search widgets).
JAVADOC = """<!DOCTYPE HTML>
<html lang="en"><head><title>ArrayList (Java SE 17 &amp; JDK 17)</title></head>
<body class="class-declaration-page">
<script type="text/javascript">var pathtoroot = "../../../";</script>
<div class="flex-box">
<header role="banner" class="flex-header">
<nav role="navigation">
<div class="top-nav" id="navbar-top">
<ul id="navbar-top-firstrow" class="nav-list" title="Navigation"><li><a href="../../../index.html">Overview</a></li><li class="nav-bar-cell1-rev">Class</li></ul>
</div>
<div class="sub-nav"><div class="nav-list-search"><label for="search-input">SEARCH:</label></div></div>
</nav>
</header>
<div class="flex-content">
<main role="main">
<div class="header">
<div class="sub-title"><span class="package-label-in-type">Package</span>&nbsp;<a href="package-summary.html">java.util</a></div>
<h1 title="Class ArrayList" class="title">Class ArrayList&lt;E&gt;</h1>
</div>
<section class="class-description" id="class-description">
<div class="block">Resizable-array implementation of the <code>List</code> interface.</div>
</section>
<section class="method-details" id="method-detail">
<h2>Method Details</h2>
<section class="detail" id="trimToSize()">
<h3>trimToSize</h3>
<div class="member-signature"><span class="modifiers">public</span>&nbsp;<span class="return-type">void</span>&nbsp;<span class="element-name">trimToSize</span>()</div>
<div class="block">Trims the capacity of this <code>ArrayList</code> instance.</div>
</section>
</section>
</main>
<footer role="contentinfo"><p class="legal-copy"><small>Copyright &copy; 1993, 2021, Oracle</small></p></footer>
</div></div></body></html>"""

RUSTDOC = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Vec in std::vec - Rust</title>
<script defer src="../../static.files/main.js"></script><noscript><link rel="stylesheet" href="noscript.css"></noscript></head>
<body class="rustdoc struct"><nav class="mobile-topbar"><a class="logo-container" href="../../std/index.html">std</a></nav>
<nav class="sidebar"><div class="sidebar-elems"><h3><a href="#implementations">Methods</a></h3><ul class="block method"><li><a href="#method.new">new</a></li></ul></div></nav>
<main><div class="width-limiter"><nav class="sub"><form class="search-form"><input class="search-input" placeholder="Search"></form></nav>
<section id="main-content" class="content"><div class="main-heading"><h1>Struct <a href="../index.html">std</a>::<wbr><a href="index.html">vec</a>::<wbr><a class="struct" href="#">Vec</a><button id="copy-path" title="Copy item path to clipboard">Copy item path</button></h1><span class="out-of-band"><a class="src" href="../../src/alloc/vec/mod.rs.html#396-399">source</a></span></div>
<pre class="rust item-decl"><code>pub struct Vec&lt;T&gt; { /* private fields */ }</code></pre>
<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>A contiguous growable array type, written as <code>Vec&lt;T&gt;</code>.</p>
<h2 id="examples"><a class="doc-anchor" href="#examples">§</a>Examples</h2>
<div class="example-wrap"><pre class="rust rust-example-rendered"><code><span class="kw">let </span><span class="kw-2">mut </span>vec = Vec::new();
vec.push(<span class="number">1</span>);</code></pre></div></div></details></section></div></main></body></html>"""


def run(src):
    text, heads, title = parse(src)
    for h in heads:
        assert 0 <= h.start < h.end <= len(text)
    doc = build_sections("d", text, heads, title=title or "t", fmt="html")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    return text, [(h.level, text[h.start:h.end]) for h in heads], title, doc


def test_postgres_docbook_page():
    text, heads, title, _ = run(POSTGRES)
    assert title == "CREATE OPERATOR FAMILY"
    assert heads == [(2, "CREATE OPERATOR FAMILY"), (2, "Synopsis"), (2, "Description"),
                     (2, "Parameters")]
    assert "Prev" not in text and "Up" not in text  # navheader / navfooter skipped
    assert "CREATE OPERATOR FAMILY — define a new operator family" in text
    assert "CREATE OPERATOR FAMILY name USING index_method" in text  # <pre> content
    assert "creates a new operator family. An operator family defines" in text  # spaces collapsed
    assert "<" not in text


def test_sphinx_page():
    text, heads, title, doc = run(SPHINX)
    assert title == "json — JSON encoder and decoder — Python 3.11.2 documentation"
    assert heads == [(1, "json — JSON encoder and decoder"), (2, "Basic Usage")]
    for noise in ("Navigation", "Menu", "Table of Contents", "index", "¶", "Copyright", "jquery", "@media"):
        assert noise not in text, noise
    assert ">>> import json\n>>> json.dumps(['foo'])" in text  # pre keeps its lines
    assert "JSON | Python\nobject | dict\narray | list" in text  # table rows → lines
    assert [s.path_str for s in doc.sections][-1] == "json — JSON encoder and decoder > Basic Usage"


def test_javadoc_like_page():
    text, heads, title, _ = run(JAVADOC)
    assert title == "ArrayList (Java SE 17 & JDK 17)"
    assert heads == [(1, "Class ArrayList<E>"), (2, "Method Details"), (3, "trimToSize")]
    for noise in ("Overview", "SEARCH", "pathtoroot", "Oracle"):
        assert noise not in text, noise
    assert "Resizable-array implementation of the List interface." in text


def test_rustdoc_like_page():
    text, heads, title, _ = run(RUSTDOC)
    assert title == "Vec in std::vec - Rust"
    assert [h[1] for h in heads] == ["Struct std::vec::Vec", "Examples"]
    for noise in ("Methods", "Search", "Copy item path", "§"):
        assert noise not in text, noise
    assert "vec.push(1);" in text and "pub struct Vec<T>" in text


def test_broken_html_does_not_crash():
    src = ("<html><head><title>Broken</title><body><div><p>one<p>two</div></div></span>"
           "<h2>Sec<b>tion</h2><ul><li>a<li>b</ul><table><tr><td>x<td>y</table>"
           "<div role=navigation><a>nav</a></div><p>after & before &amp; &bogus; &#99999999;")
    text, heads, title, _ = run(src)
    assert title == "Broken"
    assert heads == [(2, "Section")]
    assert "one\n\ntwo" in text and "- a" not in text and "a\nb" in text and "x | y" in text
    assert "nav" not in text and "after & before & &bogus;" in text


def test_missing_head_end_tag_and_unclosed_title():
    text, _, title, _ = run("<html><head><title>T<body><p>Hello</p>")
    assert "Hello" in text
    text, _, _, _ = run("<head><meta charset=utf-8><p>Body text")
    assert text == "Body text"


def test_br_and_inline_spacing():
    text, _, _, _ = run("<p>a<br>b<br/><br>c <b>bold</b>, <i>it</i>.</p>")
    assert text == "a\nb\n\nc bold, it."


def test_headings_inside_skipped_regions_ignored():
    text, heads, _, _ = run("<nav><h1>Menu</h1></nav><h1>Real</h1><p>x</p>")
    assert heads == [(1, "Real")]


def test_pathological_markup_is_linear():
    for junk in ("<a" * 20000, "</a" * 20000, "<!--" * 20000, "<a x='>'" * 20000, "B<" * 20000):
        start = time.perf_counter()
        run(junk + "<p>end</p>")
        assert time.perf_counter() - start < 1.0, junk[:8]


def test_sanitize_keeps_valid_markup():
    src = '<p class="a<b">x < y</p><!-- c <d> --><a href="x">l</a>'
    assert sanitize(src) == src
    assert sanitize("<b<i>") == "&lt;b<i>"


def test_long_attribute_values_do_not_leak_markup():
    img = '<p>before <img alt="a<b" src="data:image/png;base64,' + "A" * 50000 + '"> after</p>'
    text, _, _, _ = run(img)
    assert text == "before after"


# Condensed from bash-doc: usr/share/doc/bash/bash.html (man2html: <DT>/<DD> never closed)
BASH_BUILTINS = """<HTML><HEAD><TITLE>BASH(1) Manual Page</TITLE></HEAD><BODY>
<H3>SHELL BUILTIN COMMANDS</H3>
Unless otherwise noted, each builtin command returns 0.
<DL COMPACT>
<DT><B>cd</B> [<B>-L</B>|[<B>-P</B> [<B>-e</B>]]] [<I>dir</I>]<DD>
Change the current directory to <I>dir</I>.  If <I>dir</I> is not supplied, the value of the
<B>HOME</B> shell variable is the default.  The variable <B>CDPATH</B> defines the search path.
<DT><B>disown</B> [<B>-ar</B>] [<B>-h</B>] [<I>jobspec</I> ...]<DD>
Without options, remove each <I>jobspec</I> from the table of active jobs.  If the <B>-h</B>
option is given, each <I>jobspec</I> is not removed from the table, but is marked so that
<B>SIGHUP</B> is not sent to the job if the shell receives a <B>SIGHUP</B>.
<DT><B>shopt</B> [<B>-pqsu</B>] [<I>optname</I> ...]<DD>
Toggle the values of settings controlling optional shell behavior.  The settings can be either
those listed below, or, if the <B>-o</B> option is used, those available with <B>set</B>.
<DL COMPACT>
<DT><B>autocd</B><DD>If set, a command name that is the name of a directory is executed as if
it were the argument to the <B>cd</B> command.  This option is only used by interactive shells.
<DT><B>cdspell</B><DD>If set, minor errors in the spelling of a directory component in a
<B>cd</B> command will be corrected.  The errors checked for are transposed characters.
<DT><B>checkhash</B><DD>If set, <B>bash</B> checks that a command found in the hash table
exists before trying to execute it.  If a hashed command no longer exists, a path search is done.
</DL>
</DL>
<H3>SEE ALSO</H3>
<DL COMPACT><DT><I>bash(1)</I><DD>the shell<DT><I>sh(1)</I><DD>another<DT><I>ksh(1)</I><DD>a third</DL>
</BODY></HTML>"""


def test_a_manual_definition_list_has_a_section_per_entry_nested_under_its_heading():
    """A man page rendered to HTML puts its builtins and options in definition lists under one heading: each entry
    becomes a section under that heading (a nested list's entries under their entry), so a question about
    ``autocd`` finds a section of its own, not one chunk of a section of hundreds."""
    text, heads, _ = parse(BASH_BUILTINS)
    got = [(h.level, h.title) for h in heads]
    assert got == [(3, "SHELL BUILTIN COMMANDS"), (4, "cd [-L|[-P [-e]]] [dir]"), (4, "disown [-ar] [-h] [jobspec ...]"),
                   (4, "shopt [-pqsu] [optname ...]"), (5, "autocd"), (5, "cdspell"), (5, "checkhash"),
                   (3, "SEE ALSO")]  # SEE ALSO's three one-word definitions are a glossary, not entries
    doc = build_sections("bash", text, heads, title="BASH(1)", fmt="html")
    autocd = next(s for s in doc.sections if s.path and s.path[-1] == "autocd")
    assert autocd.path == ["SHELL BUILTIN COMMANDS", "shopt [-pqsu] [optname ...]", "autocd"]
    assert autocd.text.startswith("If set, a command name that is the name of a directory") and "cdspell" not in autocd.text


def test_a_glossary_and_a_short_option_list_stay_text():
    page = ("<h2>Options</h2><dl><dt>-a</dt><dd>all</dd><dt>-l</dt><dd>long listing</dd><dt>-h</dt><dd>human sizes</dd>"
            "</dl><h2>Two long entries</h2><dl><dt>alpha</dt><dd>" + "word " * 60 + "</dd><dt>beta</dt><dd>"
            + "word " * 60 + "</dd></dl>")
    assert [h.title for h in parse(page)[1]] == ["Options", "Two long entries"]


def test_a_definition_list_in_skipped_navigation_does_not_upset_the_entries():
    nav = '<div class="sidebar"><dl><dt>Home</dt><dd>x</dd></dl></div>'  # inside the first definition
    entries = "".join(f"<dt>entry{i}</dt><dd>{'word ' * 40}{nav if i == 0 else ''}</dd>" for i in range(3))
    page = f"<h2>Options</h2><dl>{entries}</dl>"
    assert [(h.level, h.title) for h in parse(page)[1]] == [(2, "Options"), (3, "entry0"), (3, "entry1"),
                                                            (3, "entry2")]


def test_definition_lists_nested_thousands_deep_give_no_deeper_sections_than_three():
    """A hostile page nests definition lists 3,000 deep: each level would lengthen every section path below it (9
    million path entries); only the first three levels of entries become sections."""
    level = "<dl><dt>a</dt><dd>{w}</dd><dt>b</dt><dd>{w}</dd><dt>c</dt><dd>".format(w="word " * 30)
    page = "<h1>Top</h1>" + level * 3000 + "</dd></dl>" * 3000
    text, heads, _ = parse(page)
    assert max(h.level for h in heads) == 4 and len(heads) == 10
    doc = build_sections("deep", text, heads, title="Deep", fmt="html")
    assert max(len(s.path) for s in doc.sections) == 4
