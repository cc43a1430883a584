"""A terminal's part in the pit: what each event writes on the server (`projection`) and the
delivery of the terminal's ledger to the pit server while the table plays (`delivery`)."""
