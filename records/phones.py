"""The phone numbers burn notices may give, and how often one number may be texted (the harassment and cost of
texting whatever number someone typed).

A notice's number must be a US number that can receive texts: a valid number of the United States itself
(phonenumbers' region "US", so not Canada or the Caribbean countries that share +1, nor the territories with
their own carriers) of a type that takes texts (mobile, or a geographic number that may be one), never premium
(900), toll-free, shared-cost, personal (500), pager or voicemail. Notices keep it in E.164
(``burn_notifications.phone_e164``); an order's alerts go only to such numbers, and to one number at most
``alerts_per_number_per_day()`` a day (SMS_ALERTS_PER_NUMBER_PER_DAY, default 5): the alerts past the cap are
kept as state "capped", which the clerk sees with the number to call.
"""

from __future__ import annotations

import phonenumbers
from phonenumbers import PhoneNumberType

from . import settings

#: Types of US numbers that can receive a text (US numbers are mostly FIXED_LINE_OR_MOBILE: the plan does not
#: tell a mobile from a landline by its digits).
TEXTABLE = frozenset({PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE_OR_MOBILE})

DEFAULT_ALERTS_PER_DAY = 5


def alerts_per_number_per_day() -> int:
    return max(1, settings.env_int("SMS_ALERTS_PER_NUMBER_PER_DAY", DEFAULT_ALERTS_PER_DAY))


def _textable(raw) -> phonenumbers.PhoneNumber | None:
    try:
        n = phonenumbers.parse(str(raw or "").strip(), "US")
    except phonenumbers.NumberParseException:
        return None
    if (not phonenumbers.is_valid_number(n) or phonenumbers.region_code_for_number(n) != "US"
            or phonenumbers.number_type(n) not in TEXTABLE):
        return None
    return n


def textable_e164(raw) -> str | None:
    """``raw`` in E.164 ("+16085550142") when it is a US number that can receive texts, else None."""
    n = _textable(raw)
    return phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164) if n else None


def burn_notice_phone(raw) -> str | None:
    """For the burn form: ``raw`` as it is read back to the resident, "(608) 555-0142", when it is a US number
    that can receive texts; None otherwise (the form then says ``refused_message()``)."""
    n = _textable(raw)
    return phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.NATIONAL) if n else None


def refused_message() -> str:
    """What the resident is told when the number is not one the town will text."""
    return ("I can only take a US phone number that can get text messages (not a toll-free, 900 or non-US "
            "number), like 608-555-0142. We text it if a no-burning order affects your burn, at most "
            f"{alerts_per_number_per_day()} texts a day. What number can we reach you at?")
