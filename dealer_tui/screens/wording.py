"""A message as the screens show it: the ledger's, the staff desk's and the command line's
messages start lower-case (they follow a colon there); on screen each is a sentence."""

from __future__ import annotations


def sentence(text: str) -> str:
    """`text` with its first letter capitalised and a full stop if it has no closing mark."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if not text or text.rstrip(")\"'")[-1:] in (".", "!", "?") else f"{text}."
