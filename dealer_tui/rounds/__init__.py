"""Round state machines, one per game, over the common frame ante → deal → act → reveal → payout.

No Textual here: the screens sit on top and only send steps and show state.
"""
