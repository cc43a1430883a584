"""Which profiles a table may be opened with: a shipped one as installed, or a casino's own
whose exact text a manager approved (`dealer-tui paytables approve FILE --by ID`)."""

from __future__ import annotations

from dealer_tui.staff.register import StaffRegister
from rules.profiles.loader import LoadedProfile, is_shipped, shipped_digests
from rules.said import Said, say


def approval_problem(register: StaffRegister, loaded: LoadedProfile) -> Said | None:
    """Why no table may be opened with the profile, or None."""
    if is_shipped(loaded) or loaded.sha256 in register.approved:
        return None
    shadows = loaded.name in shipped_digests().values()
    earlier = [a for a in register.approved.values() if a.profile == loaded.name and a.game == loaded.game]
    why = (say("its text was edited since a manager approved it") if earlier else
           say("it is named like a shipped profile but its text is not the shipped one") if shadows else
           say("a manager has not approved it"))
    return say("{source}: profile {profile} is not approved for tables ({why}): a manager approves its text with "
               "`dealer-tui paytables approve {source} --by ID`", source=str(loaded.source), profile=repr(loaded.name),
               why=why)
