"""The dealer terminal: round state machines, ledger, screens and command line."""

__version__ = "0.1.0"
