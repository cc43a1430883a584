"""Pure game logic of the dealer terminal: cards, hand evaluation, settlement, profiles.

Nothing here imports `textual`, `sqlite3` or `dealer_tui`.
"""
