"""A sentence of the record (`rules.said`): the English it reads as, the message and values it is
stored as, an older record's text kept as it was, a hostile record refused, and the reader's
language rendering it with the figures written as that language writes them."""

from __future__ import annotations

import json

import pytest

from dealer_tui.events import EventError, decode
from dealer_tui.events.table import PayoutConfirmed
from dealer_tui.language import language, told, use
from rules.said import Said, SaidError, as_said, joined, same_sentence, say, stored

LOSES = "{bet}: {why} — loses {stake}"


def lost_ante() -> Said:
    return say(LOSES, bet=say("Ante"), why=say("folded"), stake=1500)


def test_a_sentence_reads_as_its_english() -> None:
    assert lost_ante() == "Ante: folded — loses 1500"
    assert f"{lost_ante()}" == "Ante: folded — loses 1500"
    assert json.dumps(lost_ante()) == '"Ante: folded \\u2014 loses 1500"'


def test_a_sentence_is_stored_as_its_message_and_values() -> None:
    assert lost_ante().to_record() == {
        "said": LOSES, "values": {"bet": {"said": "Ante", "values": {}}, "why": {"said": "folded", "values": {}},
                                  "stake": 1500}}
    again = Said.from_record(lost_ante().to_record())
    assert again == "Ante: folded — loses 1500"
    assert again.to_record() == lost_ante().to_record()


def test_a_table_column_holds_the_sentence_as_json_and_an_older_text_as_it_is() -> None:
    column = stored(lost_ante())
    assert json.loads(column)["said"] == LOSES
    assert Said.from_stored(column).to_record() == lost_ante().to_record()
    older = Said.from_stored("Ante: folded — loses 1500")
    assert older.is_literal and older == "Ante: folded — loses 1500"
    assert stored("plain text") == "plain text"


def test_an_older_records_text_and_the_rules_sentence_are_the_same_when_their_english_is() -> None:
    assert same_sentence(Said.literal("Ante: folded — loses 1500"), lost_ante())
    assert not same_sentence(Said.literal("Ante: folded — loses 150"), lost_ante())
    changed = say(LOSES, bet=say("Ante"), why=say("folded"), stake=1501)
    assert not same_sentence(changed, lost_ante())


@pytest.mark.parametrize("record", [
    {"said": "{bet} loses", "values": {}},                      # a placeholder with no value
    {"said": "loses", "values": {"stake": 5}},                  # a value no placeholder asks for
    {"said": "{stake}", "values": {"stake": [1, 2]}},           # a list is no value
    {"said": "{stake}", "values": {"stake": True}},             # nor is a truth value
    {"said": 5, "values": {}},                                  # a message is text
    {"said": "x", "values": {}, "by": "insider"},               # nothing else is part of a sentence
    {"said": "{a.__class__}", "values": {"a": "x"}},            # no attribute lookups through a record
    {"said": "{a:>999999999}", "values": {"a": 1}},             # no format that would fill the memory
    {"said": "{a!r}", "values": {"a": 1}},                      # no conversions
    {"said": "{a", "values": {"a": 1}},                         # a message that does not parse
])
def test_a_stored_sentence_that_does_not_read_is_refused(record: object) -> None:
    with pytest.raises(SaidError):
        Said.from_record(record)


def test_a_payout_event_from_an_older_ledger_reads_and_writes_back_its_english() -> None:
    payload = {"rows": [{"seat": 2, "bet": "ante", "stake": 10, "result": -10, "reason": "Ante: folded — loses 10"}],
               "stack_changes": {"2": -10}, "house": 10, "seats": 1, "wagered": 10, "paid": 0}
    event = decode(PayoutConfirmed.KIND, payload)
    assert isinstance(event, PayoutConfirmed) and event.rows[0].reason.is_literal
    assert event.to_payload()["rows"][0]["reason"] == "Ante: folded — loses 10"


def test_a_payout_event_with_a_broken_reason_is_named() -> None:
    payload = {"rows": [{"seat": 2, "bet": "ante", "stake": 10, "result": -10, "reason": {"said": "{x}", "values": {}}}],
               "stack_changes": {"2": -10}, "house": 10, "seats": 1, "wagered": 10, "paid": 0}
    with pytest.raises(EventError, match="reason"):
        decode(PayoutConfirmed.KIND, payload)


def test_a_reader_sees_the_figures_as_their_language_writes_them() -> None:
    """Hungarian, Polish and Russian group thousands with a space; English reads as recorded."""
    translated = {LOSES: "{bet}: {why} — veszít {stake}", "Ante": "Ante", "folded": "bedobta"}
    rendered = lost_ante().render(lambda message: translated.get(message, message), language("hu").number)
    assert rendered == "Ante: bedobta — veszít 1\N{NO-BREAK SPACE}500"
    assert language("en").said(lost_ante()) == "Ante: folded — loses 1500"


def test_a_translation_whose_placeholders_do_not_fit_falls_back_to_the_english() -> None:
    broken = {LOSES: "{bet}: {reason} — veszít {stake}"}
    assert lost_ante().render(lambda m: broken.get(m, m), str) == "Ante: folded — loses 1500"


def test_a_sentence_standing_alone_begins_with_a_capital_in_every_language() -> None:
    said = say("a marker buy-in needs the marker's number").capitalized()
    assert said == "A marker buy-in needs the marker's number"
    assert said.render(lambda m: "a márkerhez kell a száma", str) == "A márkerhez kell a száma"
    assert Said.from_record(said.to_record()) == said


def test_sentences_joined_are_each_translated() -> None:
    both = joined([say("folded"), say("Ante")], "; ")
    assert both == "folded; Ante"
    assert both.render(lambda m: {"folded": "bedobta"}.get(m, m), str) == "bedobta; Ante"


def test_a_plain_text_is_told_as_it_is_in_every_language() -> None:
    use("hu")
    assert told("Bob's own words") == "Bob's own words"
    assert told(as_said("Bob's own words")) == "Bob's own words"
