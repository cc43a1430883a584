"""The four games above the rules, one package per game: its typed events (`events`), its round
(`round`) and live-table round (`live_round`), what the screens show of it (`presenter`), its
built-in players (`demo`) and its round screen (`screen`, the one module of a game that imports
Textual). A game imports no other game, and the shared layers reach a game's parts through
`rules.registry`, never by importing them."""
