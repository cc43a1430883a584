"""PINs: at least six digits, not one a guesser tries first, kept only as a salted scrypt hash
with its parameters, so that a later change of cost still checks the PINs set before it. The
scrypt output's first half is the stored hash; its second half seals the account's Ed25519
signing key, which only the right PIN unseals: an account's sign-ins and the changes it signs
can be written by nobody who does not know its PIN."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from itertools import pairwise

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from dealer_tui.events.staff import DEALER, PinHash

MIN_DIGITS = 8
"""The shortest PIN anyone may choose: a dealer's."""
APPROVER_DIGITS = 9
"""The shortest PIN of an account that approves (a supervisor, a manager, an auditor)."""
MAX_DIGITS = 12
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**16, 8, 1
"""About 190 ms and 64 MiB a guess on the table terminals (`bench/pins.py`): an offline search for
one PIN from a copied file takes on average half its space in guesses — a dealer's 8 digits about
3.6 core-months, an approver's 9 digits about 3 core-years."""


def min_digits(role: str) -> int:
    """The shortest PIN an account of `role` may choose."""
    return MIN_DIGITS if role == DEALER else APPROVER_DIGITS


def too_short(pin: str, role: str) -> bool:
    """Whether a PIN that signs in is shorter than its account's role now asks for (set before the
    rule, or before a change of role): the account is asked for a longer one."""
    return len(pin) < min_digits(role)


class PinRefused(ValueError):
    """A PIN that may not be set; the message says why."""


def pin_problem(pin: str, role: str = DEALER) -> str | None:
    """Why `pin` may not be the PIN of an account of `role`, or None."""
    if not pin.isdigit() or not pin.isascii():
        return "a PIN is digits only"
    if not min_digits(role) <= len(pin) <= MAX_DIGITS:
        who = "a dealer's" if role == DEALER else f"{'an' if role[:1] in 'aeiou' else 'a'} {role}'s"
        return f"{who} PIN is {min_digits(role)} to {MAX_DIGITS} digits"
    if len(set(pin)) == 1:
        return "a PIN of one digit repeated is the first a guesser tries"
    steps = {(int(b) - int(a)) % 10 for a, b in pairwise(pin)}
    if steps in ({1}, {9}):
        return "a PIN of digits in a row (123456, 987654) is the first a guesser tries"
    return None


SCHEME = "scrypt+ed25519"


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=64, maxmem=256 * r * n + 2**20)


def hash_pin(pin: str, role: str = DEALER) -> PinHash:
    """The stored form of a new PIN (`seal_pin` without the key)."""
    return seal_pin(pin, role)[0]


def seal_pin(pin: str, role: str = DEALER) -> tuple[PinHash, Ed25519PrivateKey]:
    """The stored form of a new PIN of an account of `role`, with a new signing key sealed under
    it, and that key (`PinRefused` when it may not be such a PIN)."""
    problem = pin_problem(pin, role)
    if problem is not None:
        raise PinRefused(problem)
    salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
    n, r, p = SCRYPT_N, SCRYPT_R, SCRYPT_P
    out = _scrypt(pin, salt, n, r, p)
    key = Ed25519PrivateKey.generate()
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    sealed = AESGCM(out[32:]).encrypt(nonce, raw, public)
    return PinHash(scheme=SCHEME, salt=salt.hex(), n=n, r=r, p=p, hash=out[:32].hex(), public=public.hex(),
                   sealed=sealed.hex(), nonce=nonce.hex()), key


def unlock(pin: str, stored: PinHash | None) -> Ed25519PrivateKey | None:
    """The account's signing key when `pin` is its PIN, else None. With nothing stored (no such
    account) the same work is done, so that the time taken does not tell which accounts exist."""
    if stored is None or stored.scheme != SCHEME:
        _scrypt(pin, b"\0" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        return None
    try:
        salt, expected = bytes.fromhex(stored.salt), bytes.fromhex(stored.hash)
        out = _scrypt(pin, salt, stored.n, stored.r, stored.p)
        if not hmac.compare_digest(out[:32], expected):
            return None
        raw = AESGCM(out[32:]).decrypt(bytes.fromhex(stored.nonce), bytes.fromhex(stored.sealed),
                                       bytes.fromhex(stored.public))
        return Ed25519PrivateKey.from_private_bytes(raw)
    except (ValueError, MemoryError, InvalidTag):  # parameters no scrypt takes, a seal that does not open
        return None


def pin_matches(pin: str, stored: PinHash | None) -> bool:
    return unlock(pin, stored) is not None


def sign(key: Ed25519PrivateKey, text: bytes) -> str:
    return key.sign(text).hex()


def signature_checks(stored: PinHash, text: bytes, signature: str) -> bool:
    """Whether `signature` is the account's (its public key as `stored` holds it) over `text`."""
    return key_checks(stored.public, text, signature)


def key_checks(public: str, text: bytes, signature: str) -> bool:
    """Whether `signature` is the holder's of the public key `public` (hex) over `text`."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(bytes.fromhex(signature), text)
    except (ValueError, InvalidSignature):
        return False
    return True


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
