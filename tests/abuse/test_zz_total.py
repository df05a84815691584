"""The fuzzers together send at least 10,000 generated inputs (runs last: pytest takes files in name order)."""

import pytest

from .conftest import FUZZERS_DONE, SENT, TOTAL_REQUIRED

ALL = {"chat-seeded", "chat-hypothesis", "sms-seeded", "sms-hypothesis"}


def test_at_least_ten_thousand_inputs():
    if FUZZERS_DONE != ALL:
        pytest.skip(f"only {sorted(FUZZERS_DONE)} of the fuzzers ran in this session")
    total = sum(SENT.values())
    print(f"abuse inputs sent: {dict(SENT)}, total {total}")
    assert total >= TOTAL_REQUIRED, dict(SENT)
