"""PINs: eight digits at least (nine for an account that approves), not one a guesser tries
first, kept only as a salted scrypt hash with its parameters, so that a later change of cost
still checks the PINs set before it. The scrypt output's first half is the stored hash; its
second half seals the account's Ed25519 signing key, which only the right PIN unseals: an
account's sign-ins and the changes it signs can be written by nobody who does not know its PIN.
A PIN is set in the kept form (`ledger.kept`): the copy of its event others read lacks the hash
and the sealed key, and is checked where they are kept (`Unseal`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
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

from dealer_tui.events.staff import AUDITOR, DEALER, MANAGER, SUPERVISOR, PinHash
from dealer_tui.ledger.kept import KEPT_SCHEME, kept_digest
from rules.said import Said, say

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


SHORT, READABLE = "short", "readable"
"""Why an account is asked for a new PIN at its sign-in (`renewal`)."""


def renewal(pin: str, role: str, stored: PinHash) -> str:
    """Why the account that just signed in with `pin` is asked for a new one: SHORT (shorter than
    its role asks for now), READABLE (set before the kept form, so its hash is in every copy of
    the register), or "" (it is not)."""
    if too_short(pin, role):
        return SHORT
    return READABLE if readable_anywhere(stored) else ""


def renewal_text(why: str, role: str) -> Said:
    """What an account asked for a new PIN is told (`renewal`)."""
    if why == SHORT:
        return say("a {role}'s PIN is now {least} to {most} digits: a shorter one is guessed from a copied file too "
                   "soon", role=ROLE_NAMES.get(role) or Said.literal(role), least=min_digits(role), most=MAX_DIGITS)
    return say("this PIN was set before PINs were kept out of the register's copies that others read, so its hash is "
               "readable there: choose a new one, not used before")


ROLE_NAMES = {DEALER: say("dealer"), SUPERVISOR: say("supervisor"), MANAGER: say("manager"), AUDITOR: say("auditor")}
"""The roles by name, as a sentence puts them."""


class PinRefused(ValueError):
    """A PIN that may not be set; the message says why."""


def pin_problem(pin: str, role: str = DEALER) -> Said | None:
    """Why `pin` may not be the PIN of an account of `role`, or None."""
    if not pin.isdigit() or not pin.isascii():
        return say("a PIN is digits only")
    if not min_digits(role) <= len(pin) <= MAX_DIGITS:
        if role == AUDITOR:
            return say("an auditor's PIN is {least} to {most} digits", least=min_digits(role), most=MAX_DIGITS)
        return say("a {role}'s PIN is {least} to {most} digits", role=ROLE_NAMES.get(role) or Said.literal(role),
                   least=min_digits(role), most=MAX_DIGITS)
    if len(set(pin)) == 1:
        return say("a PIN of one digit repeated is the first a guesser tries")
    steps = {(int(b) - int(a)) % 10 for a, b in pairwise(pin)}
    if steps in ({1}, {9}):
        return say("a PIN of digits in a row (123456, 987654) is the first a guesser tries")
    return None


SCHEME = "scrypt+ed25519"
"""The form of a PIN set before the kept form: its secret parts in every copy of its event."""

Unseal = Callable[[str, str], tuple[str, str] | None]
"""Where a PIN whose secret parts a copy lacks is checked: given its digest (`kept`) and the hash a
PIN typed gives, the sealed key and its nonce when the hash is the PIN's (`Ledger.unseal`)."""


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
    hash_, kept = out[:32].hex(), kept_digest(salt.hex(), public.hex(), out[:32].hex(), sealed.hex(), nonce.hex())
    return PinHash(scheme=KEPT_SCHEME, salt=salt.hex(), n=n, r=r, p=p, hash=hash_, public=public.hex(),
                   sealed=sealed.hex(), nonce=nonce.hex(), kept=kept), key


def held(stored: PinHash) -> bool:
    """Whether this copy of a PIN holds what checks it (not a copy with its secret parts left out)."""
    return stored.scheme != KEPT_SCHEME or bool(stored.hash)


def readable_anywhere(stored: PinHash) -> bool:
    """Whether a PIN was set before the kept form, so that its hash is in every copy of the
    register (the pit's included): its account is asked for a new PIN at its next sign-in."""
    return stored.scheme != KEPT_SCHEME


def unlock(pin: str, stored: PinHash | None, unseal: Unseal | None = None) -> Ed25519PrivateKey | None:
    """The account's signing key when `pin` is its PIN, else None. With nothing stored (no such
    account) the same work is done, so that the time taken does not tell which accounts exist. A
    PIN whose secret parts this copy lacks is checked by `unseal` (None: it does not sign in)."""
    if stored is None or stored.scheme not in (SCHEME, KEPT_SCHEME):
        _scrypt(pin, b"\0" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        return None
    try:
        out = _scrypt(pin, bytes.fromhex(stored.salt), stored.n, stored.r, stored.p)
        sealed, nonce = stored.sealed, stored.nonce
        if stored.hash:
            if not hmac.compare_digest(out[:32], bytes.fromhex(stored.hash)):
                return None
            if stored.scheme == KEPT_SCHEME and stored.kept != kept_digest(stored.salt, stored.public, stored.hash,
                                                                           sealed, nonce):
                return None  # secret parts that are not the ones the signed event names
        else:
            opened = unseal(stored.kept, out[:32].hex()) if unseal is not None and stored.kept else None
            if opened is None:
                return None
            sealed, nonce = opened
            if kept_digest(stored.salt, stored.public, out[:32].hex(), sealed, nonce) != stored.kept:
                return None  # an answer that is not the secret the signed event names
        raw = AESGCM(out[32:]).decrypt(bytes.fromhex(nonce), bytes.fromhex(sealed), bytes.fromhex(stored.public))
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
