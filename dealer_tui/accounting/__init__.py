"""A table's accounting across its shifts: the counted win (drop, tray, fills, credits) held
against the rounds' own result and against the theoretical win the profile's house edge gives."""
