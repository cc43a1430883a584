"""The dealer's screens: setup, one round screen per game, payout, help and the modals."""
