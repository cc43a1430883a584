"""A PIN's secret parts kept out of what others read: the scrypt hash that checks a PIN and the
signing key it seals. A PIN stored in the kept form (`KEPT_SCHEME`) carries, in place of them, a
digest of them (`kept`); an event's hash and the pit's signature are computed over the event with
the secret parts blanked (`redacted`), so that a copy without them (the pit's, as every login but
its owner reads it) checks exactly as the full one, and the digest binds the full one to it.

A terminal keeps its accounts' secret parts in its own register (it signs staff in offline); the
pit keeps those of its register in a table only its owner reads, and hands them to a terminal's
login only wrapped under that terminal's own key, and to the floor not at all (it asks the pit to
check a PIN's hash and gets the sealed key back only when it matches)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

KEPT_SCHEME = "scrypt+ed25519+kept"
SECRET_FIELDS = ("hash", "sealed", "nonce")


@dataclass(frozen=True)
class Secret:
    """A PIN's secret parts, under the digest that names them."""

    kept: str
    hash: str
    sealed: str
    nonce: str

    def text(self) -> str:
        return f"{self.hash}:{self.sealed}:{self.nonce}"

    @classmethod
    def parse(cls, kept: str, text: str) -> Secret | None:
        parts = text.split(":")
        return cls(kept, *parts) if len(parts) == 3 and all(parts) else None

    def checks(self, salt: str, public: str) -> bool:
        """Whether these are the parts the digest names, of the PIN with this salt and public key."""
        return kept_digest(salt, public, self.hash, self.sealed, self.nonce) == self.kept


def unwrap(key: bytes, iv: bytes, wrapped: bytes) -> str:
    """A secret the pit wrapped under a login's key (AES-256-CBC, PKCS#7), or "" when it does not
    open (the digest it is checked against tells a wrong one from the right one)."""
    try:
        decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
        padded = decryptor.update(wrapped) + decryptor.finalize()
        unpadder = padding.PKCS7(128).unpadder()
        return (unpadder.update(padded) + unpadder.finalize()).decode()
    except ValueError:  # a wrong key or length, padding that does not check, bytes that are no text
        return ""


def kept_digest(salt: str, public: str, hash_: str, sealed: str, nonce: str) -> str:
    """The digest a PIN in the kept form carries of its secret parts (and of its salt and public key)."""
    text = json.dumps([KEPT_SCHEME, salt, public, hash_, sealed, nonce], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _is_kept(value: Mapping[str, Any]) -> bool:
    return value.get("scheme") == KEPT_SCHEME and isinstance(value.get("kept"), str)


def _walk(value: Any, at_pin: Callable[[Mapping[str, Any]], Any]) -> Any:
    """`value` with each kept-form PIN in it replaced by what `at_pin` makes of it."""
    if isinstance(value, Mapping):
        if _is_kept(value):
            return at_pin(value)
        return {k: _walk(v, at_pin) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, at_pin) for v in value]
    return value


def _pins(value: Any) -> list[Mapping[str, Any]]:
    found: list[Mapping[str, Any]] = []
    _walk(value, found.append)
    return found


def _parts(pin: Mapping[str, Any]) -> list[str]:
    return [str(pin.get(k, "")) for k in SECRET_FIELDS]


def redacted(value: Any) -> Any:
    """`value` with every kept-form PIN's secret parts blanked (anything else as it is)."""
    return _walk(value, lambda pin: {k: ("" if k in SECRET_FIELDS else v) for k, v in pin.items()})


def secrets_in(value: Any) -> list[Secret]:
    """The secret parts of every kept-form PIN `value` holds in full."""
    return [Secret(str(pin["kept"]), *_parts(pin)) for pin in _pins(value) if all(_parts(pin))]


def missing_secrets(value: Any) -> list[str]:
    """The digests of the kept-form PINs in `value` whose secret parts it lacks."""
    return [str(pin["kept"]) for pin in _pins(value) if not all(_parts(pin))]


def secret_problems(value: Any) -> list[str]:
    """Kept-form PINs in `value` whose secret parts are there but not the ones their digest names."""
    return [str(pin["kept"]) for pin in _pins(value)
            if all(_parts(pin)) and kept_digest(str(pin.get("salt", "")), str(pin.get("public", "")), *_parts(pin))
            != pin["kept"]]


def with_secrets(value: Any, secrets: Mapping[str, Secret]) -> Any:
    """`value` with the secret parts of its kept-form PINs filled in from `secrets` (by digest),
    each only where they check against the digest, the salt and the public key it carries."""
    def fill(pin: Mapping[str, Any]) -> Any:
        secret = secrets.get(str(pin["kept"]))
        if secret is None or not secret.checks(str(pin.get("salt", "")), str(pin.get("public", ""))):
            return dict(pin)
        return {**pin, "hash": secret.hash, "sealed": secret.sealed, "nonce": secret.nonce}
    return _walk(value, fill)
