"""decode_bytes: gzip (capped), BOMs, charset fallback, binary / empty / too-large rejection."""

from __future__ import annotations

import gzip
import random

import pytest

from pipelines.parse import ParseError, decode_bytes

MB = 1_000_000


def reason(raw: bytes, max_bytes: int = MB) -> str:
    with pytest.raises(ParseError) as exc:
        decode_bytes(raw, max_bytes=max_bytes)
    return exc.value.reason


def test_utf8_and_newline_normalization():
    raw = "Größe\r\nzweite Zeile\rdritte\n".encode()
    assert decode_bytes(raw, max_bytes=MB) == "Größe\nzweite Zeile\ndritte\n"


def test_control_chars_dropped_but_tab_and_newline_kept():
    raw = b"a\tb\x07c\x0cd\x1b[0m\ne\x7f"
    assert decode_bytes(raw, max_bytes=MB) == "a\tbcd[0m\ne"


def test_utf8_bom():
    assert decode_bytes(b"\xef\xbb\xbfhello", max_bytes=MB) == "hello"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_bom(codec):
    bom = b"\xff\xfe" if codec.endswith("le") else b"\xfe\xff"
    raw = bom + "Überblick\r\nÇa va — ok\n".encode(codec)
    assert b"\x00" in raw  # NUL bytes must not trigger binary detection when a BOM is present
    assert decode_bytes(raw, max_bytes=MB) == "Überblick\nÇa va — ok\n"


def test_latin1_text():
    para = (
        "Le café est très bon à Genève. Les élèves étudient la théorie générale "
        "de l'électricité et la façade du musée.\n"
    )
    assert decode_bytes(para.encode("latin-1"), max_bytes=MB) == para


def test_short_latin1_prefers_western_codepage():
    assert decode_bytes("Café naïve façade".encode("latin-1"), max_bytes=MB) == "Café naïve façade"


def test_cp1252_smart_quotes():
    text = "He said “hello” – it’s a café résumé.\nNext line costs 5 €.\n"
    assert decode_bytes(text.encode("cp1252"), max_bytes=MB) == text


def test_cyrillic_cp1251():
    text = "Привет, как дела? Это тестовый документ на русском языке.\n"
    assert decode_bytes(text.encode("cp1251"), max_bytes=MB) == text


@pytest.mark.parametrize("raw", [b"", b"   \n\t\r\n  ", b"\xef\xbb\xbf  \n", "\ufeff \n".encode("utf-16")])
def test_empty(raw):
    assert reason(raw) == "empty"


def test_empty_gzip():
    assert reason(gzip.compress(b"")) == "empty"


PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
    b"\x1f\xf3\xffa\x00\x00\x00\x04gAMA\x00\x00\xb1\x8f\x0b\xfca\x05"
)
ELF = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00>\x00\x01\x00\x00\x00" + bytes(range(256))


@pytest.mark.parametrize("raw", [PNG, ELF, random.Random(0).randbytes(4096)], ids=["png", "elf", "random"])
def test_binary(raw):
    assert reason(raw) == "binary"


def test_random_bytes_without_nul_rejected():
    rnd = random.Random(1)
    low = bytes(rnd.randrange(1, 256) for _ in range(4096))  # control chars → binary
    high = bytes(rnd.randrange(128, 256) for _ in range(4096))  # no ASCII at all
    assert reason(low) == "binary"
    assert reason(high) == "undecodable"  # no control bytes, so not binary: no charset fits it


def test_undecodable_reason_and_detail():
    """Printable high bytes that no charset reads with confidence: skipped as undecodable, saying why."""
    rnd = random.Random(1)
    with pytest.raises(ParseError) as exc:
        decode_bytes(bytes(rnd.randrange(128, 256) for _ in range(4096)), max_bytes=MB)
    assert exc.value.reason == "undecodable" and exc.value.detail == "not utf-8 and no confident charset guess"


def test_gzip_detected_by_magic_bytes():
    raw = gzip.compress(".TH LS 1\r\n.SH NAME\r\n".encode())
    assert decode_bytes(raw, max_bytes=MB) == ".TH LS 1\n.SH NAME\n"


def test_multi_member_gzip():
    raw = gzip.compress(b"first\n") + gzip.compress(b"second\n")
    assert decode_bytes(raw, max_bytes=MB) == "first\nsecond\n"


def test_truncated_gzip():
    raw = gzip.compress(b"some text " * 2000)
    assert reason(raw[: len(raw) // 2]) == "malformed"
    assert reason(raw[:12]) == "malformed"


def test_corrupt_gzip():
    raw = bytearray(gzip.compress(b"some text that compresses " * 500))
    raw[20:40] = b"\xff" * 20
    assert reason(bytes(raw)) == "malformed"


def test_gzip_bomb_stops_at_cap():
    bomb = gzip.compress(b"a" * 20_000_000, compresslevel=1)
    assert len(bomb) < MB
    assert reason(bomb, max_bytes=MB) == "too_large"


def test_gzip_exactly_at_cap_is_fine():
    raw = gzip.compress(b"x" * 1000)
    assert len(decode_bytes(raw, max_bytes=1000)) == 1000
    assert reason(raw, max_bytes=999) == "too_large"


def test_raw_too_large():
    assert reason(b"a" * 101, max_bytes=100) == "too_large"
    assert decode_bytes(b"a" * 100, max_bytes=100) == "a" * 100
