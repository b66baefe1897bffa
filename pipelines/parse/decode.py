"""Bytes → normalized text: gunzip (capped), binary sniffing, BOM / utf-8 / charset detection.

>>> decode_bytes(b"caf\\xc3\\xa9\\r\\nbar", max_bytes=1_000)
'café\\nbar'
>>> decode_bytes(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00", max_bytes=1_000)
Traceback (most recent call last):
  ...
pipelines.parse.document.ParseError: binary: NUL bytes in the first 8 KiB
"""

from __future__ import annotations

import re
import zlib

from pipelines.parse.document import ParseError

__all__ = ["decode_bytes", "gunzip_capped", "gunzip_head", "GZIP_MAGIC"]

GZIP_MAGIC = _GZIP_MAGIC = b"\x1f\x8b"
_SNIFF = 8192
# C0 controls that never occur in text (\t \n \v \f \r and ESC excluded), plus DEL.
_BINARY_CTRL = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_MAX_CTRL_SHARE = 0.05
_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
# Accept a charset_normalizer guess only if its "mess" ratio is at most this.
_MAX_CHAOS = 0.2
_COMMON_CODEPAGES = frozenset(
    "cp1250 cp1251 cp1253 cp1254 cp1255 cp1256 iso8859_2 iso8859_5 iso8859_7 iso8859_8 koi8_r "
    "koi8_u gb2312 gbk gb18030 big5 big5hkscs shift_jis cp932 euc_jp iso2022_jp euc_kr cp949 "
    "johab tis_620 cp874".split()
)
_DROP_CTRL = re.compile("[\x00-\x08\x0b-\x1f\x7f]+")


def gunzip_capped(raw: bytes, *, max_bytes: int) -> bytes:
    """Decompress (possibly multi-member) gzip ``raw`` without ever holding more than
    ``max_bytes`` + one chunk of output; raise ``too_large`` beyond the cap and ``malformed``
    for corrupt or truncated data."""
    out = bytearray()
    data = raw
    while True:
        dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            while True:
                chunk = dec.decompress(data, max_bytes - len(out) + 1)
                out += chunk
                if len(out) > max_bytes:
                    raise ParseError("too_large", f"gzip expands beyond {max_bytes} bytes")
                if dec.eof:
                    break
                data = dec.unconsumed_tail
                if not data and not chunk:
                    raise ParseError("malformed", "truncated gzip stream")
        except zlib.error as exc:
            raise ParseError("malformed", f"corrupt gzip: {exc}") from None
        rest = dec.unused_data.lstrip(b"\x00")  # members may be padded with NULs
        if not rest.startswith(_GZIP_MAGIC):
            return bytes(out)
        data = rest


def gunzip_head(raw: bytes, n: int) -> bytes:
    """The first ``n`` decompressed bytes of gzip ``raw`` (what decompresses of them; b"" if corrupt),
    to sniff a compressed file's format without inflating it all.

    >>> import gzip; gunzip_head(gzip.compress(b"%PDF-1.4 rest"), 5)
    b'%PDF-'
    """
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, n)
    except zlib.error:
        return b""


def _sniff_binary(raw: bytes) -> None:
    head = raw[:_SNIFF]
    if b"\x00" in head:
        raise ParseError("binary", "NUL bytes in the first 8 KiB")
    n_ctrl = len(head) - len(head.translate(None, _BINARY_CTRL))
    if n_ctrl > max(4, _MAX_CTRL_SHARE * len(head)):
        raise ParseError("binary", f"{n_ctrl} control bytes in the first {len(head)} bytes")


def _decode_with_bom(raw: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw[len(bom) :].decode(encoding, errors="replace")
    return None


def _decode_guess(raw: bytes) -> str:
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - dependency of requests, normally present
        raise ParseError("undecodable", "not utf-8 and charset_normalizer is unavailable") from None
    matches = list(from_bytes(raw))
    if not matches or matches[0].chaos > _MAX_CHAOS:
        raise ParseError("undecodable", "not utf-8 and no confident charset guess")
    best = matches[0]
    # Short Western text is ambiguous between the Latin code pages; prefer cp1252 (a superset
    # of latin-1's printable range) on a tie with a common code page, or when the best guess
    # is a rare one (DOS, Mac, Baltic …) that is about as clean.
    rare = best.encoding not in _COMMON_CODEPAGES
    for m in matches:
        if "cp1252" in m.could_be_from_charset and (
            (m.chaos <= best.chaos and m.coherence >= best.coherence)
            or (rare and m.chaos <= best.chaos + 0.02 and m.coherence >= best.coherence - 0.1)
        ):
            best = m
            break
    encoding = "cp1252" if "cp1252" in best.could_be_from_charset else best.encoding
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        raise ParseError("undecodable", f"guessed {encoding!r} does not decode") from None
    # Real text has whitespace (newlines at least); binary noise decoded as CJK has none.
    if len(text) >= 1024 and sum(map(text.count, " \n\t")) < len(text) / 500:
        raise ParseError("undecodable", f"{encoding!r} decoding yields no whitespace")
    return text


def normalize_text(text: str) -> str:
    """Normalize newlines to ``\\n`` and drop NULs and other C0 controls except tab/newline."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _DROP_CTRL.search(text):
        text = _DROP_CTRL.sub("", text)
    return text


def decode_bytes(raw: bytes, *, max_bytes: int) -> str:
    """Decode a raw file (optionally gzip-compressed) into normalized text.

    Raises :class:`ParseError` with reason ``too_large``, ``malformed`` (bad gzip), ``empty``,
    ``binary`` or ``undecodable``.
    """
    if len(raw) > max_bytes:
        raise ParseError("too_large", f"{len(raw)} bytes > {max_bytes}")
    if raw.startswith(_GZIP_MAGIC):
        raw = gunzip_capped(raw, max_bytes=max_bytes)
    if not raw.strip():
        raise ParseError("empty", "no content")
    text = _decode_with_bom(raw)
    if text is None:
        _sniff_binary(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_guess(raw)
    if text.startswith("\ufeff"):
        text = text[1:]  # BOM inside the payload (double BOM, or utf-8-sig re-encoded)
    text = normalize_text(text)
    if not text.strip():
        raise ParseError("empty", "only whitespace")
    return text
