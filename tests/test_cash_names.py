"""The cash logs compare names as a person would: an anonymous player's buy-ins under variants of
one name, at several seats and tables, are one player's, and reach the currency-transaction
threshold together (attack 8: a name spread over seats never did)."""

from __future__ import annotations

from dealer_tui.accounting.cash_log import currency_entries
from dealer_tui.rounds.cash import CashTransaction, as_compared


def buy_in(table: str, seat: int, player: str, amount: int, at: str, card: str = "") -> CashTransaction:
    return CashTransaction(at, table, seat, player, card, "in", amount, "2026-12-05")


def test_one_anonymous_player_under_name_variants_reaches_the_currency_transaction_threshold() -> None:
    """3,000 + 3,000 + 2,500 + 1,500 = 10,000 cash in on one gaming day, under "Ann Lee", "ann
    lee", "Ann  Lee" (two spaces) and "Ann Lee" with a zero-width space, at three seats of two
    tables: one entry of 10,000, reached at the fourth."""
    moves = [buy_in("Main 1", 1, "Ann Lee", 3000, "2026-12-05T10:00:00+00:00"),
             buy_in("Main 1", 2, "ann lee", 3000, "2026-12-05T10:10:00+00:00"),
             buy_in("Main 1", 3, "Ann  Lee", 2500, "2026-12-05T10:20:00+00:00"),
             buy_in("Main 2", 1, "Ann Lee\u200b", 1500, "2026-12-05T10:30:00+00:00"),
             buy_in("Main 2", 2, "Bo Chan", 9000, "2026-12-05T10:40:00+00:00")]
    entries = currency_entries(moves, 10_000)
    assert [(e.total, e.reached_at, len(e.transactions)) for e in entries] == \
        [(10_000, "2026-12-05T10:30:00+00:00", 4)]


def test_names_and_cards_compare_in_one_normal_form() -> None:
    assert as_compared("Ａｎｎ\u00a0 LEE\u200d") == as_compared("ann lee") == "ann lee"
    assert as_compared("LC-１２３４") == "lc-1234"
    assert as_compared("Ann Lee") != as_compared("Anne Lee")


def test_a_player_who_shows_an_id_at_one_table_is_one_person_with_her_anonymous_cash_at_another() -> None:
    """Ann buys in 5,000 anonymously at Main 1, then 9,000 at Main 2 showing passport X1234567, then
    Bo 4,000 with the same passport (one person, two names): 5,000 + 9,000 = 14,000 reaches 10,000 at
    the second, one entry of 18,000 with the ID; Cy's 9,000 alone does not reach it."""
    moves = [buy_in("Main 1", 1, "Ann", 5000, "2026-12-05T10:00:00+00:00"),
             CashTransaction("2026-12-05T10:10:00+00:00", "Main 2", 1, "Ann", "", "in", 9000, "2026-12-05",
                             "passport X1234567"),
             buy_in("Main 2", 2, "Cy", 9000, "2026-12-05T10:15:00+00:00"),
             CashTransaction("2026-12-05T10:20:00+00:00", "Main 2", 3, "Bo", "", "in", 4000, "2026-12-05",
                             "passport X1234567")]
    [entry] = currency_entries(moves, 10_000)
    assert (entry.total, entry.reached_at, entry.document, len(entry.transactions)) == (
        18_000, "2026-12-05T10:10:00+00:00", "passport X1234567", 3)
    assert entry.key == "name ann"            # the first transaction's: an acknowledged alert keeps its id
