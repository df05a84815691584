"""Which numbers a burn notice may give and how often one number is texted (records/phones.py): US numbers that
can receive texts only, kept in E.164. What an order's alerts do with them (never a premium, toll-free or non-US
number; at most SMS_ALERTS_PER_NUMBER_PER_DAY a day to one number) is in tests/records/test_outbox.py."""

from __future__ import annotations

import pytest

from records.phones import burn_notice_phone, textable_e164

REFUSED = {
    "+1 900 555 0142": "premium rate",
    "900-555-0142": "premium rate, dialled as a US number",
    "(876) 555-0142": "Jamaica, +1",
    "+1 416 555 0142": "Canada, +1",
    "+1 787 555 0142": "Puerto Rico: its own carriers and rates",
    "800-555-0142": "toll-free",
    "+1 500 555 0142": "personal number",
    "+44 7700 900123": "not +1",
    "555-0142": "too short",
    "call me": "not a number",
}


@pytest.mark.parametrize("raw", sorted(REFUSED))
def test_numbers_that_are_not_us_numbers_able_to_receive_texts_are_refused(raw):
    assert textable_e164(raw) is None and burn_notice_phone(raw) is None, REFUSED[raw]


def test_a_us_number_is_kept_in_e164_and_read_back_as_the_resident_knows_it():
    for raw in ("608-555-0142", "(608) 555-0142", "+1 608 555 0142", "6085550142", "1-608-555-0142"):
        assert textable_e164(raw) == "+16085550142", raw
        assert burn_notice_phone(raw) == "(608) 555-0142", raw
