"""Reusable widgets of the dealer's screens."""
