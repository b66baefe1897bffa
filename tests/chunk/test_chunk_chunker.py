"""Tests for pipelines.chunk.chunker.chunk_document."""

from __future__ import annotations

import hashlib
import inspect
import random
import time
import warnings
from collections.abc import Callable, Sequence

import pytest
from tokenizers import Tokenizer

from pipelines.chunk import Chunk, ChunkingConfig, chunk_document, chunk_with_config, split_sentences
from pipelines.parse.document import ParsedDocument

DocFactory = Callable[..., ParsedDocument]  # the ``make_doc`` fixture from conftest.py

PARAGRAPHS = [
    "Strata ingests large corpora in batches. Each document is parsed into sections, and "
    "each section is cut into chunks that respect sentence boundaries. The chunker never "
    "lets a chunk cross a section, because a section is the natural unit of meaning.",
    "Dr. Smith et al. measured a latency of 3.14 ms on v1.2.3 of the service, i.e. well "
    "below the budget. See Fig. 2 for details; the raw data lives in results.csv and on "
    "example.com. Prof. Lee disagreed! Why? Nobody knows.",
    "To install the tool, run the installer and follow the prompts.\n- Download the archive.\n"
    "- Unpack it into a folder.\n- Run setup.py with the --user flag.",
    "Embedding models have a fixed window. All-MiniLM-L6-v2 accepts 256 tokens including the "
    "special tokens, so each chunk leaves room for a short header with the document title and "
    "the section path. Retrieval quality depends on chunks being coherent and self-contained.",
    "Configuration example:\n    chunk_tokens = 200\n    overlap_tokens = 32\nThese values work "
    "well for English prose. Shorter chunks help precision; longer ones help recall.",
]
WORDS = (
    "alpha beta gamma delta epsilon river mountain cluster ingestion vector shard replica "
    "latency throughput tokenizer embedding retrieval section document passage index query"
).split()


def real_doc(make_doc: DocFactory, n_sections: int = 12, seed: int = 0) -> ParsedDocument:
    rng = random.Random(seed)
    sections: list[tuple[list[str], str]] = [([], PARAGRAPHS[0])]
    for i in range(n_sections):
        path = [f"Chapter {i // 3 + 1}"] + ([f"Part {i % 3}"] if i % 3 else [])
        body = "\n\n".join(rng.choice(PARAGRAPHS) for _ in range(rng.randint(1, 8)))
        sections.append((path, body))
    return make_doc(sections, title="Strata Operations Manual")


def count(tok: Tokenizer, text: str) -> int:
    return len(tok.encode(text, add_special_tokens=False))


def check_invariants(
    doc: ParsedDocument, chunks: Sequence[Chunk], tok: Tokenizer, cfg: ChunkingConfig = ChunkingConfig()
) -> None:
    sections = {s.section_id: s for s in doc.sections}
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    order = [s.section_id for s in doc.sections]
    assert [order.index(c.section_id) for c in chunks] == sorted(order.index(c.section_id) for c in chunks)
    for c in chunks:
        sec = sections[c.section_id]
        assert sec.start <= c.start < c.end <= sec.end, "chunk crosses its section"
        assert c.text == doc.text[c.start : c.end]
        assert c.text == c.text.strip()
        assert c.doc_id == doc.doc_id and c.section_path == " > ".join(sec.path)
        assert c.n_tokens == count(tok, c.text)
        assert 0 < c.n_tokens <= cfg.chunk_tokens
        full = tok.encode(c.embed_text, add_special_tokens=True)
        assert len(full) <= cfg.max_model_tokens
        assert c.embed_text.endswith("\n" + c.text) or c.embed_text == c.text
        header = c.embed_text[: -len(c.text) - 1]
        assert count(tok, header) <= cfg.header_tokens
        assert c.content_hash == hashlib.sha1(c.text.encode()).hexdigest()[:16]
        key = f"{doc.doc_id}\x1f{c.ordinal}\x1f{c.content_hash}".encode()
        assert c.chunk_id == hashlib.sha1(key).hexdigest()[:20]
    # Every non-whitespace character of every section is in some chunk.
    for sec in doc.sections:
        covered = bytearray(sec.end - sec.start)
        for c in chunks:
            if c.section_id == sec.section_id:
                covered[c.start - sec.start : c.end - sec.start] = b"\1" * (c.end - c.start)
        body = doc.text[sec.start : sec.end]
        missing = [i for i, ch in enumerate(body) if not ch.isspace() and not covered[i]]
        assert not missing, f"uncovered text in {sec.section_id}: {body[missing[0]:missing[0] + 30]!r}"


def test_real_document_invariants(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    doc = real_doc(make_doc, 30)
    chunks = chunk_document(doc, tokenizer, verify=True)
    assert len(chunks) > 30
    check_invariants(doc, chunks, tokenizer)
    assert max(c.n_tokens for c in chunks) > 150  # packing actually fills chunks


def test_raw_tokenizer_settings_are_ignored_and_untouched(
    raw_tokenizer: Tokenizer, tokenizer: Tokenizer, make_doc: DocFactory
) -> None:
    before = (raw_tokenizer.truncation, raw_tokenizer.padding)
    assert before[0] is not None and before[1] is not None  # shipped with truncation=128, padding
    doc = real_doc(make_doc, 8, seed=3)
    assert chunk_document(doc, raw_tokenizer) == chunk_document(doc, tokenizer)
    assert (raw_tokenizer.truncation, raw_tokenizer.padding) == before
    check_invariants(doc, chunk_document(doc, raw_tokenizer), tokenizer)


def test_chunks_never_cross_sections(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    doc = make_doc([([], "Intro sentence one. Intro two."), (["A"], "Alpha one. Alpha two."), (["A", "B"], "Beta.")])
    chunks = chunk_document(doc, tokenizer)
    assert [(c.section_id, c.text) for c in chunks] == [
        ("doc-1-s0", "Intro sentence one. Intro two."),
        ("doc-1-s1", "Alpha one. Alpha two."),
        ("doc-1-s2", "Beta."),
    ]
    assert [c.section_path for c in chunks] == ["", "A", "A > B"]
    assert chunks[0].embed_text == "Test Document\nIntro sentence one. Intro two."
    assert chunks[2].embed_text == "Test Document > A > B\nBeta."


def test_empty_sections_produce_no_chunks(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    doc = make_doc([([], ""), (["Empty"], "   \n\n  "), (["Full"], "Some text."), (["Also empty"], "")])
    chunks = chunk_document(doc, tokenizer)
    assert [(c.section_id, c.text, c.ordinal) for c in chunks] == [("doc-1-s2", "Some text.", 0)]
    assert chunk_document(make_doc([]), tokenizer) == []


def test_overlap_present_and_bounded(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    rng = random.Random(1)
    body = " ".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14))).capitalize() + "." for _ in range(150)
    )
    doc = make_doc([(["S"], body)])
    cfg = ChunkingConfig(chunk_tokens=100, overlap_tokens=24)
    chunks = chunk_with_config(doc, tokenizer, cfg)
    check_invariants(doc, chunks, tokenizer, cfg)
    starts = {a + doc.sections[0].start for a, _ in split_sentences(body)}
    overlapped = 0
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.start > prev.start and nxt.end > prev.end  # progress
        if nxt.start < prev.end:
            overlapped += 1
            assert nxt.start in starts  # overlap is whole sentences
            assert 0 < count(tokenizer, doc.text[nxt.start : prev.end]) <= cfg.overlap_tokens
    assert overlapped >= len(chunks) - 2


def test_no_overlap_when_disabled(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    doc = real_doc(make_doc, 6, seed=5)
    chunks = chunk_document(doc, tokenizer, overlap_tokens=0)
    check_invariants(doc, chunks, tokenizer)
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.start >= prev.end


def test_a_section_ends_in_no_small_tail_chunk(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    """A statement whose last table row would be a chunk of its own under greedy packing: the
    defaults balance the last two chunks (a stray row ranked above the chunk with the figure asked
    for, in the filings) and keep the chunks before as greedy packing made them."""
    rows = [f"Line item {i} | {1000 + 37 * i:,} | {900 + 29 * i:,} | {800 + 23 * i:,}" for i in range(35)]
    body = "\n".join(rows)
    doc = make_doc([(["Statements of Operations"], body)])
    greedy = chunk_document(doc, tokenizer, balance_tail=False)
    balanced = chunk_document(doc, tokenizer)
    check_invariants(doc, balanced, tokenizer)
    assert greedy[-1].n_tokens < 0.3 * greedy[0].n_tokens  # the data leave greedy a small tail
    assert len(balanced) == len(greedy)
    assert balanced[:-2] == greedy[:-2]
    last_two = [c.n_tokens for c in balanced[-2:]]
    assert min(last_two) >= 0.8 * max(last_two) and min(last_two) >= 200 / 2, last_two
    assert (balanced[-2].start, balanced[-1].end) == (greedy[-2].start, greedy[-1].end)


def test_huge_sentence_is_split_at_token_boundaries(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    rng = random.Random(2)
    words = []
    while count(tokenizer, " ".join(words)) < 3000:
        words.extend(rng.choice(WORDS) for _ in range(200))
    body = "Short lead-in. " + " ".join(words) + " and a tail. Final sentence here."
    doc = make_doc([(["Big"], body)])
    chunks = chunk_document(doc, tokenizer, verify=True)
    check_invariants(doc, chunks, tokenizer)
    total = count(tokenizer, body)
    assert len(chunks) >= total // 200 + 1
    assert sum(c.n_tokens >= 150 for c in chunks) >= total // 200 - 1  # pieces are reasonably full
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.start >= prev.end  # pieces of one sentence do not overlap
        assert doc.text[prev.end].isspace()  # cut at whitespace, words kept whole


def test_long_words_cut_inside_word(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    # Budget smaller than a word's word pieces forces cuts inside words (then re-counted).
    body = "Pneumonoultramicroscopicsilicovolcanoconiosis " * 6 + "x" * 150 + " " + "ab,cd;" * 40
    doc = make_doc([(["Words"], body)])
    cfg = ChunkingConfig(chunk_tokens=4, overlap_tokens=1, header_tokens=4)
    chunks = chunk_with_config(doc, tokenizer, cfg, verify=True)
    check_invariants(doc, chunks, tokenizer, cfg)


def test_unicode_offsets_exact(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    body = (
        "日本語のテキストです。これは二番目の文です！ 中文句子也可以。 "
        "Emoji 🎉🚀 work fine 👩‍👩‍👧‍👦. Combining accents: e\u0301cole, n\u0303, a\u0308\u0301. "
        "Ünïcödé façade naïve café. Ελληνικά κείμενα. Русский текст тоже. "
    ) * 40
    doc = make_doc([([], "Préface 🎉."), (["Überblick", "日本"], body)], title="Tëst 文書")
    for cfg in (ChunkingConfig(), ChunkingConfig(chunk_tokens=7, overlap_tokens=3, header_tokens=5)):
        chunks = chunk_with_config(doc, tokenizer, cfg, verify=True)
        check_invariants(doc, chunks, tokenizer, cfg)
    assert chunks[0].embed_text.startswith("Tëst 文書\n")


def test_header_truncated_to_budget(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    long_title = "An extraordinarily long document title about " + " ".join(WORDS * 3)
    doc = make_doc([(["A very long section heading " * 5, "Deeper"], "Body text here. " * 100)], title=long_title)
    chunks = chunk_document(doc, tokenizer)
    check_invariants(doc, chunks, tokenizer)
    header = chunks[0].embed_text.split("\n")[0]
    assert count(tokenizer, header) == 40
    assert long_title.startswith(header)
    assert chunk_document(doc, tokenizer, header_tokens=0)[0].embed_text == chunks[0].text
    untitled = make_doc([(["Only", "Path"], "Text.")], title="")
    assert chunk_document(untitled, tokenizer)[0].embed_text == "Only > Path\nText."


def test_a_long_header_keeps_the_title_and_the_sections_own_heading(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    """A deep filing's path is over the 40 tokens: its outer headings go, not the section's own heading (the
    end of the path, which a cut at the end would lose); a first heading that repeats the title goes first."""
    path = ["GLOBEX CORPORATION", "Annual Report on Form 10-K for the fiscal year ended December 31, 2023",
            "PART II", "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
            "Liquidity and Capital Resources"]
    doc = make_doc([(path, "Cash from operations rose. " * 20)], title="GLOBEX CORPORATION")
    header = chunk_document(doc, tokenizer)[0].header
    assert count(tokenizer, header) <= 40
    assert header.startswith("GLOBEX CORPORATION > ") and header.endswith(" > Liquidity and Capital Resources")
    assert header.count("GLOBEX CORPORATION") == 1 and "Item 7. Management's Discussion" in header
    short = make_doc([(["Install", "Linux"], "Run it.")], title="Guide")  # within the budget: all of it
    assert chunk_document(short, tokenizer)[0].header == "Guide > Install > Linux"


def test_ids_deterministic_and_local(tokenizer: Tokenizer, make_doc: DocFactory) -> None:
    doc = real_doc(make_doc, 10, seed=4)
    a = chunk_document(doc, tokenizer)
    b = chunk_document(real_doc(make_doc, 10, seed=4), tokenizer)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    assert len({c.chunk_id for c in a}) == len(a)
    # Edit the last section: chunks of earlier sections keep their ids and hashes.
    edited = real_doc(make_doc, 10, seed=4)
    last = edited.sections[-1]
    edited.text = edited.text[: last.start] + "Changed! " + edited.text[last.start :]
    last.end += len("Changed! ")
    c = chunk_document(edited, tokenizer)
    before = [x for x in a if x.section_id != last.section_id]
    assert [x.chunk_id for x in c[: len(before)]] == [x.chunk_id for x in before]
    assert {x.content_hash for x in c if x.section_id == last.section_id} != {
        x.content_hash for x in a if x.section_id == last.section_id
    }


def test_config_validation(make_doc: DocFactory) -> None:
    with pytest.raises(ValueError):
        ChunkingConfig(chunk_tokens=100, overlap_tokens=100)
    with pytest.raises(ValueError):
        ChunkingConfig(chunk_tokens=220, header_tokens=40)  # 220 + 40 + 2 > 256
    with pytest.raises(ValueError):
        ChunkingConfig(chunk_tokens=0, overlap_tokens=0)
    with pytest.raises(ValueError):
        ChunkingConfig(header_tokens=-1)
    assert ChunkingConfig(chunk_tokens=214, header_tokens=40).chunk_tokens == 214
    with pytest.raises(ValueError):
        chunk_document(make_doc([]), Tokenizer.from_str(_tiny_tokenizer_json()), overlap_tokens=500)


def _tiny_tokenizer_json() -> str:
    from tokenizers import models

    return Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")).to_str()


def _stdlib_text(target_chars: int) -> str:
    """~target_chars of real English (stdlib docstrings), as plain paragraphs."""
    import argparse, asyncio, collections, concurrent.futures, csv, dataclasses, datetime, decimal, email
    import functools, http.client, inspect as ins, json, logging, pathlib, re, subprocess, tarfile, typing
    import unittest, urllib.request, zipfile

    mods = [argparse, asyncio, collections, concurrent.futures, csv, dataclasses, datetime, decimal,
            email, functools, http.client, ins, json, logging, pathlib, re, subprocess, tarfile,
            typing, unittest, urllib.request, zipfile]  # fmt: skip
    docs: list[str] = []
    seen: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _collect_docs(mods, docs, seen)
    text = "\n\n".join(docs)
    while len(text) < target_chars:
        text += "\n\n" + text
    return text[:target_chars]


def _collect_docs(mods: list[object], docs: list[str], seen: set[str]) -> None:
    for mod in mods:
        for obj in [mod, *vars(mod).values()]:
            members = [obj] + ([v for v in vars(obj).values()] if inspect.isclass(obj) else [])
            for m in members:
                d = inspect.getdoc(m) if callable(m) or inspect.ismodule(m) else None
                if d and len(d) > 80 and d not in seen:
                    seen.add(d)
                    docs.append(d)


def test_throughput_on_1mb(
    tokenizer: Tokenizer, make_doc: DocFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _stdlib_text(1_000_000)
    paras = text.split("\n\n")
    sections = [([f"Part {i // 20}", f"Topic {i}"], "\n\n".join(paras[i * 8 : i * 8 + 8])) for i in range(len(paras) // 8 + 1)]
    doc = make_doc(sections, title="Python Library Reference")
    total = count(tokenizer, doc.text)
    t = time.perf_counter()
    chunks = chunk_document(doc, tokenizer)
    dt = time.perf_counter() - t
    with capsys.disabled():
        print(f"\n[chunker] {len(doc.text) / 1e6:.2f} MB, {total} tokens, {len(chunks)} chunks in "
              f"{dt:.2f}s -> {total / dt:,.0f} tokens/s")  # fmt: skip
    assert total / dt > 50_000  # loose floor; see the report for the measured figure
    assert all(c.n_tokens <= 200 for c in chunks)
