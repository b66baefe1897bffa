"""A tiny PDF writer for the parser tests (no dependency): text lines in Helvetica or Helvetica-Bold at
any size and place, an outline, image-only pages, a document title, and RC4 encryption (the standard
security handler, revision 2) with a user password. What it writes is a few KB and follows PDF 1.4.

>>> pdf = make_pdf([[Text(72, 700, 12, "Hello")]])
>>> pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["Text", "Image", "Mark", "make_pdf"]

_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


@dataclass(frozen=True)
class Text:
    """One line of text with its baseline at (x, y) in points (the origin is the bottom left)."""

    x: float
    y: float
    size: float
    text: str
    bold: bool = False


@dataclass(frozen=True)
class Image:
    """A grey image filling the box (x, y, width, height): a page of a scan."""

    x: float = 36
    y: float = 36
    width: float = 540
    height: float = 720


@dataclass(frozen=True)
class Mark:
    """An outline entry: ``level`` 1 is the top; ``page`` is 0-based; ``y`` the destination's top."""

    level: int
    title: str
    page: int
    y: float = 792


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def _literal(text: str) -> bytes:
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _content(items) -> bytes:
    ops = []
    for item in items:
        if isinstance(item, Image):
            ops.append(f"q {item.width} 0 0 {item.height} {item.x} {item.y} cm /Im1 Do Q".encode())
        else:
            font = "F2" if item.bold else "F1"
            ops.append(f"BT /{font} {item.size} Tf {item.x} {item.y} Td ".encode() + _literal(item.text) + b" Tj ET")
    return b"\n".join(ops)


def make_pdf(pages, *, outline=(), title: str | None = None, user_password: str | None = None,
             size: tuple[float, float] = (612, 792)) -> bytes:
    """``pages``: per page a list of :class:`Text` and :class:`Image`; ``outline``: :class:`Mark` entries
    in document order; ``user_password``: encrypt (RC4-40) so that opening needs it."""
    objs: dict[int, bytes] = {}
    streams: dict[int, bytes] = {}  # object number → stream data (encrypted on output)
    n_pages = len(pages)
    catalog, pages_id, f1, f2, img = 1, 2, 3, 4, 5
    page_ids = [6 + 2 * i for i in range(n_pages)]
    next_id = 6 + 2 * n_pages
    objs[f1] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objs[f2] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    objs[img] = b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8"
    streams[img] = bytes((x * 29 + y * 7) % 256 for y in range(8) for x in range(8))
    for pid, items in zip(page_ids, pages):
        objs[pid] = (f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {size[0]} {size[1]}] "
                     f"/Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> /XObject << /Im1 {img} 0 R >> >> "
                     f"/Contents {pid + 1} 0 R >>").encode()
        objs[pid + 1] = b"<<"
        streams[pid + 1] = _content(items)
    kids = " ".join(f"{p} 0 R" for p in page_ids)
    objs[pages_id] = f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode()
    strings: dict[int, dict[str, str]] = {}  # object → {key: text} for strings that must be encrypted
    outline_part = b""
    if outline:
        root_id = next_id
        ids = list(range(root_id + 1, root_id + 1 + len(outline)))
        next_id = root_id + 1 + len(outline)
        parent: dict[int, int] = {}
        children: dict[int, list[int]] = {root_id: []}
        stack: list[tuple[int, int]] = [(0, root_id)]
        for oid, mark in zip(ids, outline):
            while stack[-1][0] >= mark.level:
                stack.pop()
            parent[oid] = stack[-1][1]
            children.setdefault(stack[-1][1], []).append(oid)
            children[oid] = []
            stack.append((mark.level, oid))

        def count(oid: int) -> int:
            return sum(1 + count(c) for c in children[oid])

        for oid, mark in zip(ids, outline):
            sibs = children[parent[oid]]
            k = sibs.index(oid)
            parts = [f"/Parent {parent[oid]} 0 R",
                     f"/Dest [{page_ids[mark.page]} 0 R /XYZ 0 {mark.y} 0]"]
            if k > 0:
                parts.append(f"/Prev {sibs[k - 1]} 0 R")
            if k + 1 < len(sibs):
                parts.append(f"/Next {sibs[k + 1]} 0 R")
            if children[oid]:
                parts += [f"/First {children[oid][0]} 0 R", f"/Last {children[oid][-1]} 0 R",
                          f"/Count {count(oid)}"]
            objs[oid] = ("<< " + " ".join(parts) + " /Title ").encode()
            strings[oid] = {"Title": mark.title}
        top = children[root_id]
        objs[root_id] = f"<< /Type /Outlines /First {top[0]} 0 R /Last {top[-1]} 0 R /Count {count(root_id)} >>".encode()
        outline_part = f" /Outlines {root_id} 0 R /PageMode /UseOutlines".encode()
    objs[catalog] = f"<< /Type /Catalog /Pages {pages_id} 0 R".encode() + outline_part + b" >>"
    info_id = None
    if title is not None:
        info_id = next_id
        next_id += 1
        objs[info_id] = b"<< /Producer (pdfgen) /Title "
        strings[info_id] = {"Title": title}

    file_id = hashlib.md5(repr((pages, outline, title)).encode()).digest()
    key = None
    encrypt_id = None
    if user_password is not None:
        owner = hashlib.md5((user_password + "-owner").encode().ljust(32, b"\0")[:32]).digest()[:5]
        o_value = _rc4(owner, (user_password.encode() + _PAD)[:32])
        p_value = -44
        key = hashlib.md5((user_password.encode() + _PAD)[:32] + o_value
                          + p_value.to_bytes(4, "little", signed=True) + file_id).digest()[:5]
        u_value = _rc4(key, _PAD)
        encrypt_id = next_id
        next_id += 1
        objs[encrypt_id] = (f"<< /Filter /Standard /V 1 /R 2 /O <{o_value.hex()}> /U <{u_value.hex()}> "
                            f"/P {p_value} >>").encode()

    def crypt(num: int, data: bytes) -> bytes:
        if key is None or num == encrypt_id:
            return data
        return _rc4(hashlib.md5(key + num.to_bytes(3, "little") + b"\0\0").digest()[:10], data)

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for num in sorted(objs):
        offsets[num] = len(out)
        body = objs[num]
        if num in strings:
            (name, text), = strings[num].items()
            body = body + b"<" + crypt(num, b"\xfe\xff" + text.encode("utf-16-be")).hex().encode() + b"> >>"
        if num in streams:
            data = crypt(num, streams[num])
            head = body[:-2] if body.endswith(b">>") else body
            body = head + f" /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"
        out += f"{num} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    size_n = max(objs) + 1
    out += f"xref\n0 {size_n}\n0000000000 65535 f \n".encode()
    for num in range(1, size_n):
        out += (f"{offsets[num]:010d} 00000 n \n" if num in offsets else "0000000000 65535 f \n").encode()
    trailer = f"<< /Size {size_n} /Root {catalog} 0 R"
    if info_id:
        trailer += f" /Info {info_id} 0 R"
    if encrypt_id:
        trailer += f" /Encrypt {encrypt_id} 0 R"
    trailer += f" /ID [<{file_id.hex()}> <{file_id.hex()}>] >>"
    out += f"trailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
