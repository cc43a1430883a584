"""Staff accounts and roles: the register in the ledger (`register`), PINs (`pins`), signing in
with a lock-out shared by every terminal (`desk`), and who may do what (`authority`)."""

from dealer_tui.ledger.base import MAX_TRIES
from dealer_tui.staff.authority import (
    ACKNOWLEDGE,
    CHANGE_PROFILE,
    CORRECT_CARDS,
    COUNT_DROP,
    DEAL,
    FLOOR,
    MANAGE,
    MAY,
    OVERRIDE,
    SET_LANGUAGE,
    SET_PIN,
    SIGN_OFF,
    TRAY,
    VOID,
    Approval,
    claim_problem,
)
from dealer_tui.staff.desk import Purpose, SignInRefused, StaffDesk, StaffError
from dealer_tui.staff.register import Account, StaffRegister

__all__ = ["ACKNOWLEDGE", "CHANGE_PROFILE", "CORRECT_CARDS", "COUNT_DROP", "DEAL", "TRAY", "FLOOR", "MANAGE", "MAX_TRIES", "MAY", "OVERRIDE", "SET_LANGUAGE", "SET_PIN", "SIGN_OFF",
           "VOID", "Account", "Approval", "Purpose", "SignInRefused", "StaffDesk", "StaffError", "StaffRegister",
           "claim_problem"]
