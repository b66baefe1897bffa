"""API keys: created by ``strata keys create``, checked by the HTTP layer (``serving.api.auth``).

A key reads ``sk_strata_<id>_<secret>``: ``<id>`` (12 hex characters) finds its record in O(1), and
``<secret>`` (32 random bytes, base64url) is never stored. The record keeps a random 16-byte salt and
``HMAC-SHA256(salt, secret)``, compared with :func:`hmac.compare_digest`. A slow KDF (scrypt, PBKDF2)
protects guessable passwords; a 256-bit random secret cannot be guessed, so a fast salted hash is as
safe and keeps the check off the request's latency.

The records live in ``<storage.data_dir>/security/api-keys.json`` (mode 0600, in a 0700 folder),
replaced atomically under an exclusive lock, so every replica on the shared storage sees a new key
or a revocation without a restart: :meth:`KeyStore.verify` re-reads the file when its identity
(inode, size, mtime) changed, looking at most every ``check_interval_s`` (1 s; at once for a key id
it does not know yet). A revocation takes effect within that second.

>>> import tempfile
>>> store = KeyStore(tempfile.mkdtemp())
>>> info, key = store.create("acme", ["search"], rate=5)
>>> key.startswith("sk_strata_" + info.id + "_"), store.verify(key).tenant, store.verify(key + "x")
(True, 'acme', None)
>>> split_key(key)[1] in store.path.read_text()
False
>>> store.revoke(info.id).revoked, store.verify(key)
(True, None)
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from cluster.tenants import validate_tenant

PREFIX = "sk_strata_"
SCOPES = ("search", "answer", "admin")
KEYS_FILE = Path("security") / "api-keys.json"
_ID_CHARS = frozenset("0123456789abcdef")


class KeyStoreError(RuntimeError):
    """The key file cannot be read or written (the message names it)."""


@dataclass(frozen=True)
class KeyInfo:
    """A key's public record (never its secret or hash)."""

    id: str
    tenant: str
    scopes: tuple[str, ...]
    rate: float | None
    created_at: str
    revoked_at: str | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def allows(self, scope: str) -> bool:
        """``admin`` implies every scope; ``search`` and ``answer`` only themselves."""
        return scope in self.scopes or "admin" in self.scopes

    def public(self) -> dict:
        out = asdict(self)
        out["scopes"] = list(self.scopes)
        return out


def keys_path(data_dir: str | Path) -> Path:
    """Where the keys of the index in ``data_dir`` are stored."""
    return Path(data_dir) / KEYS_FILE


def parse_scopes(scopes: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Validated, de-duplicated scopes in canonical order.

    >>> parse_scopes("answer, search,search")
    ('search', 'answer')
    """
    items = [s.strip() for s in (scopes.split(",") if isinstance(scopes, str) else scopes) if s and s.strip()]
    if not items:
        raise ValueError(f"give at least one scope ({', '.join(SCOPES)})")
    unknown = sorted(set(items) - set(SCOPES))
    if unknown:
        raise ValueError(f"unknown scope(s) {', '.join(unknown)}; use {', '.join(SCOPES)}")
    return tuple(s for s in SCOPES if s in items)


def _digest(salt: bytes, secret: str) -> str:
    return hmac.new(salt, secret.encode(), hashlib.sha256).hexdigest()


def split_key(token: str) -> tuple[str, str] | None:
    """``(id, secret)`` of a well-formed key, else None.

    >>> split_key("sk_strata_0123456789ab_s3cr_et-0123456789"), split_key("Bearer x")
    (('0123456789ab', 's3cr_et-0123456789'), None)
    """
    if not token.startswith(PREFIX) or len(token) > 200:
        return None
    key_id, sep, secret = token[len(PREFIX):].partition("_")
    if not sep or len(key_id) != 12 or not set(key_id) <= _ID_CHARS or len(secret) < 16:
        return None
    return key_id, secret


def key_store(cfg) -> "KeyStore":
    """The key store a configuration names: ``serve.keys_file``, else ``<storage.data_dir>/security/api-keys.json``.

    >>> from cluster.config import load_config
    >>> str(key_store(load_config(serve={"keys_file": "/etc/strata/keys/api-keys.json"})).path)
    '/etc/strata/keys/api-keys.json'
    """
    return KeyStore(cfg.storage.data_dir, path=cfg.serve.keys_file)


class KeyStore:
    """The API keys of one index (``<data_dir>/security/api-keys.json``, or ``path``: ``serve.keys_file``)."""

    def __init__(self, data_dir: str | Path, *, check_interval_s: float = 1.0, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else keys_path(data_dir)
        self.check_interval_s = check_interval_s
        self._records: dict[str, dict] = {}
        self._identity: tuple | None = None
        self._checked = float("-inf")
        self._lock = threading.Lock()

    # -- reading ----------------------------------------------------------------------------------
    def _stat_identity(self) -> tuple | None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def _read(self) -> dict[str, dict]:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise KeyStoreError(f"the API key file {self.path} is unreadable: {exc}") from exc
        keys = data.get("keys") if isinstance(data, dict) else None
        if not isinstance(keys, dict):
            raise KeyStoreError(f"the API key file {self.path} is not a Strata key file")
        return keys

    def refresh(self, *, force: bool = False) -> None:
        """Re-read the file if it changed (every write replaces it: a new inode). Looked at (one
        ``stat``) at most every ``check_interval_s`` unless ``force``."""
        now = time.monotonic()
        if not force and now - self._checked < self.check_interval_s:
            return
        with self._lock:
            self._checked = now
            identity = self._stat_identity()
            if identity != self._identity:
                self._records = self._read() if identity is not None else {}
                self._identity = identity

    def has_keys(self) -> bool:
        """Whether any key was ever created here (revoked ones count: revoking the last key must not
        open the API to everyone)."""
        self.refresh()
        return bool(self._records)

    def list(self) -> list[KeyInfo]:
        self.refresh(force=True)
        return sorted((_info(r) for r in self._records.values()), key=lambda k: (k.created_at, k.id))

    def verify(self, token: str) -> KeyInfo | None:
        """The key's record if ``token`` is a valid, unrevoked key, else None (constant-time compare)."""
        parts = split_key(token)
        if parts is None:
            return None
        self.refresh()
        record = self._records.get(parts[0])
        if record is None:  # perhaps created in the last second: look again now (a stat; read on change)
            self.refresh(force=True)
            record = self._records.get(parts[0])
        if record is None:
            return None
        try:
            salt = base64.b64decode(record["salt"])
            expected = record["hash"]
        except (KeyError, ValueError):
            return None
        if not hmac.compare_digest(_digest(salt, parts[1]), expected):
            return None
        info = _info(record)
        return None if info.revoked else info

    # -- writing ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self):
        """An exclusive lock over read-modify-write (two `strata keys create` never lose a key)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        fd = os.open(self.path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield self._read()
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _write(self, records: dict[str, dict]) -> None:
        body = json.dumps({"version": 1, "hash": "hmac-sha256(salt, secret)", "keys": records}, indent=2)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".api-keys.", suffix=".tmp")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(body)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        self.refresh(force=True)

    def create(self, tenant: str, scopes: str | list[str] | tuple[str, ...], *,
               rate: float | None = None) -> tuple[KeyInfo, str]:
        """A new key: its record and the key itself (shown once; only its salted hash is kept)."""
        validate_tenant(tenant)
        scopes = parse_scopes(scopes)
        if rate is not None and not rate > 0:
            raise ValueError("rate must be a positive number of requests per second")
        secret = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        with self._locked() as records:
            key_id = secrets.token_hex(6)
            while key_id in records:
                key_id = secrets.token_hex(6)
            records[key_id] = {
                "id": key_id, "tenant": tenant, "scopes": list(scopes), "rate": rate,
                "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "revoked_at": None,
                "salt": base64.b64encode(salt).decode(), "hash": _digest(salt, secret),
            }
            self._write(records)
        return _info(records[key_id]), f"{PREFIX}{key_id}_{secret}"

    def revoke(self, key_id: str) -> KeyInfo:
        """Revoke a key (kept in the file, marked revoked); ``KeyError`` if there is none."""
        with self._locked() as records:
            record = records.get(key_id)
            if record is None:
                raise KeyError(key_id)
            if record.get("revoked_at") is None:
                record["revoked_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
                self._write(records)
        return _info(record)


def _info(record: dict) -> KeyInfo:
    return KeyInfo(id=record["id"], tenant=record["tenant"], scopes=tuple(record["scopes"]), rate=record.get("rate"),
                   created_at=record["created_at"], revoked_at=record.get("revoked_at"))

