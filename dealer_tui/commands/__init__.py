"""Subcommands of `dealer-tui`; each module has NAME, HELP, add_arguments() and run()."""
