"""Which profiles a table may be opened with: a shipped one as installed, or a casino's own
whose exact text a manager approved (`dealer-tui paytables approve FILE --by ID`)."""

from __future__ import annotations

from dealer_tui.staff.register import StaffRegister
from rules.profiles.loader import LoadedProfile, is_shipped, shipped_digests


def approval_problem(register: StaffRegister, loaded: LoadedProfile) -> str | None:
    """Why no table may be opened with the profile, or None."""
    if is_shipped(loaded) or loaded.sha256 in register.approved:
        return None
    shadows = loaded.name in shipped_digests().values()
    earlier = [a for a in register.approved.values() if a.profile == loaded.name and a.game == loaded.game]
    why = ("its text was edited since a manager approved it" if earlier else
           "it is named like a shipped profile but its text is not the shipped one" if shadows else
           "a manager has not approved it")
    return (f"{loaded.source}: profile {loaded.name!r} is not approved for tables ({why}): a manager approves its "
            f"text with `dealer-tui paytables approve {loaded.source} --by ID`")
