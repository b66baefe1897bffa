"""build_sections: nesting, paths, spans, stable ids."""

from __future__ import annotations

import hashlib

from pipelines.parse import Heading, build_sections


def marks(text: str, *specs: tuple[int, str]) -> list[Heading]:
    """Heading marks for titles that occur (once, in order) in ``text``."""
    out, pos = [], 0
    for level, title in specs:
        start = text.index(title, pos)
        out.append(Heading(level, title, start, start + len(title)))
        pos = start + len(title)
    return out


TEXT = "preamble text\n\nA\nbody a\n\nA1\n\nbody a1\n\nA1x\nbody deep\n\nB\n\n\nC\nbody c\n"


def build(text=TEXT, heads=None, doc_id="doc-1"):
    heads = heads if heads is not None else marks(
        text, (1, "A"), (2, "A1"), (4, "A1x"), (1, "B"), (3, "C"))
    doc = build_sections(doc_id, text, heads, title="The Doc", fmt="text")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    return doc


def test_tree_shape_paths_and_bodies():
    doc = build()
    root, a, a1, a1x, b, c = doc.sections
    assert (root.level, root.title, root.path, root.parent_id, root.text) == (
        0, "The Doc", [], None, "preamble text")
    assert a.path == ["A"] and a.parent_id == root.section_id and a.text == "body a"
    assert a1.path == ["A", "A1"] and a1.parent_id == a.section_id and a1.text == "body a1"
    assert a1x.path == ["A", "A1", "A1x"] and a1x.parent_id == a1.section_id  # 2 → 4 nests directly
    assert a1x.level == 4 and a1x.text == "body deep"
    assert b.path == ["B"] and b.parent_id == root.section_id
    assert c.path == ["B", "C"] and c.text == "body c"
    assert root.children == [a.section_id, b.section_id]
    assert a.children == [a1.section_id] and a1.children == [a1x.section_id]
    assert [s.ordinal for s in doc.sections] == [0, 1, 2, 3, 4, 5]
    assert (doc.doc_id, doc.title, doc.format, doc.text) == ("doc-1", "The Doc", "text", TEXT)


def test_empty_body_spans_heading_end():
    doc = build()
    b = doc.sections[4]
    heading_end = TEXT.index("B\n") + 1
    assert b.text == "" and b.start == b.end == heading_end


def test_no_headings_root_only():
    doc = build_sections("d", "  just text  \n", [], title="T", fmt="text")
    assert len(doc.sections) == 1
    root = doc.sections[0]
    assert root.text == "just text" and (root.start, root.end) == (2, 11)


def test_empty_preamble():
    text = "Title\nbody\n"
    doc = build_sections("d", text, marks(text, (1, "Title")), title="T", fmt="md")
    assert doc.sections[0].text == "" and doc.sections[0].start == doc.sections[0].end == 0


def test_section_id_formula():
    doc = build()
    expected = hashlib.sha1("doc-1\x1fA\x1fA1\x1f0".encode()).hexdigest()[:16]
    assert doc.sections[2].section_id == expected
    root_expected = hashlib.sha1("doc-1\x1f\x1f0".encode()).hexdigest()[:16]
    assert doc.sections[0].section_id == root_expected
    assert all(len(s.section_id) == 16 for s in doc.sections)


def test_ids_stable_when_unrelated_text_changes():
    doc1 = build()
    text2 = TEXT.replace("body a1", "body a1 with a lot more words in it").replace("preamble", "intro")
    doc2 = build(text=text2)
    assert [s.section_id for s in doc1.sections] == [s.section_id for s in doc2.sections]
    assert build(doc_id="other").sections[1].section_id != doc1.sections[1].section_id


def test_duplicate_titles_get_distinct_ids():
    text = "Usage\none\nUsage\ntwo\nX\nUsage\nthree\n"
    heads = marks(text, (1, "Usage"), (1, "Usage"), (1, "X"), (2, "Usage"))
    doc = build_sections("d", text, heads, title="T", fmt="md")
    ids = [s.section_id for s in doc.sections]
    assert len(set(ids)) == len(ids)
    assert doc.sections[2].section_id == hashlib.sha1(b"d\x1fUsage\x1f1").hexdigest()[:16]
    assert doc.sections[4].path == ["X", "Usage"]


def test_empty_titles_dropped_and_titles_cleaned():
    long_title = "Very   long\ttitle " + "x" * 300
    text = f"   \nbefore\n{long_title}\nbody\n"
    heads = [Heading(1, "  \t ", 0, 3), Heading(1, long_title, text.index("Very"), text.index("\nbody"))]
    doc = build_sections("d", text, heads, title="  My\n Doc ", fmt="text")
    assert len(doc.sections) == 2
    assert doc.title == "My Doc"
    sec = doc.sections[1]
    assert sec.title.startswith("Very long title x") and len(sec.title) == 200
    assert sec.path == [sec.title]
    assert doc.sections[0].text == "before"
