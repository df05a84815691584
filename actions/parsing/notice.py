"""The burn notice's fields in residents' words: name, address (fire numbers and county roads), phone, the
place of the burn, and a correction naming a field."""
from __future__ import annotations

import re
from typing import Optional

import phonenumbers
import usaddress

from knowledge import timewords


#: the request that starts the burn form, resent mid-form (after a slow reply, or by a resident unsure the
#: first text arrived): found by the no-loss run, which once stored it as a resident's name
ASKS_TO_NOTIFY = re.compile(r"\b(notif\w*|report\w*|tell\w*|let\b.*\bknow|inform\w*)\b.*\b(fire|burn\w*)\b|"
                            r"\b(burn\w*|fire)\b.*\b(notif\w*|report\w*)\b", re.I)
#: a when-phrase that is only a time of day ("3pm", "at 10:30", "noon"), not a day
TIME_ONLY = r"(?i)(at|around|about|by)?\s*\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)?|(at |around )?(noon)"
_DATE_ONLY = r"(?i)\s*\d{1,2}/\d{1,2}(/\d{2,4})?\s*|.*\b[a-z]+\s+\d{1,2}(st|nd|rd|th)?\s*$"
#: the words that name each fact of the notification in a correction ("change the address")
FIELD_WORDS = {
    "burner_name": r"\bname\b", "burn_address": r"\baddress\b|\bstreet\b", "burn_phone": r"\bphone|number|cell\b",
    "burn_date": r"\bdate\b|\bday\b", "burn_time": r"\btime\b|\bhour\b", "burn_location": r"\blocation|where|spot|place\b",
}
#: an answer that says outright it is a name
_SAYS_NAME = re.compile(r"\s*(?:my name is|my name's|name is|name:)\s+([A-Za-z][A-Za-z .'-]{1,60}?)\s*[.!]?\s*$", re.I)
_NAME_IN = re.compile(r"\bmy name is ([A-Za-z][A-Za-z .'-]{1,60})", re.I)
_NAME_PREFIX = re.compile(r"(?i)^(my name is|name is|name:|it'?s|i'?m|i am|this is)\s+")
_ADDRESS_IN = re.compile(r"\b(?:my )?address is (.+)$", re.I)
_ADDRESS_PREFIX = re.compile(r"(?i)^(my address is|address is|address:|i live at|it'?s)\s+")
_CHANGE = re.compile(r"\b(change|wrong|fix|actually)\b", re.I)


def asks_to_notify(text: str) -> bool:
    """"I want to notify the fire department of a burn": the opening request, not a name, address or place."""
    return bool(ASKS_TO_NOTIFY.search(text))


#: a fact of a notice in the message: a day, a clock time, "I'm burning", a street number
_BURN_FACT = re.compile(r"\b(today|tonight|tomorrow|" + "|".join(timewords.WEEKDAYS) + r"|weekend|next week|morning|"
                        r"afternoon|evening|noon|(?:" + "|".join(m[:3] for m in timewords.MONTHS) + r")\w*\.?\s+\d|"
                        r"\d{1,2}/\d{1,2}|\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)|"
                        r"at \d{1,2}\b|i'?m burning|we'?re burning|(?:will|'ll) (?:be )?burn\w*|"
                        r"(?:want|plan|planning|going|intend|hope|hoping|like)\w* to (?:burn|light|have a fire)|"
                        r"\d+ \w+ (st|street|rd|road|ave|avenue|dr|drive|ln|lane)\b)", re.I)
_HOW_TO_NOTIFY = re.compile(
    r"^\W*(?:what(?:'s| is)?(?: the)? (?:phone )?number|which number|who do (?:i|we|you) (?:call|tell|notify|contact|text)|"
    r"how (?:do|can|should) (?:i|we|you) (?:notify|tell|reach|contact|call|let|report|give)|"
    r"where do (?:i|we|you) (?:call|report|send|notify)|is there a (?:phone )?number)\b", re.I)


def asks_how_to_notify(text: str) -> bool:
    """"what number do I call to notify the fire department?": a question about giving notice, not the notice
    (one that carries a fact of a notice - "who do I tell, I'm burning Saturday at 10 at 123 Main St" - is one)."""
    return bool(_HOW_TO_NOTIFY.search(text or "")) and not (
        _BURN_FACT.search(text or "") or phone_in(text or "") or address_in(text or ""))


def is_time_only(said: str) -> bool:
    """"3pm", "at 10:30", "noon": a time of day and no day."""
    return bool(re.fullmatch(TIME_ONLY, said.strip()))


def has_time(said: str) -> bool:
    """Does a when-phrase carry a time of day? A digit or "noon", but not a bare date ("7/4", "July 4th")."""
    return bool(re.search(r"\d|noon", said, re.I)) and not re.fullmatch(_DATE_ONLY, said)


_BARE_HOUR = re.compile(r"\s*(?:at|around|about|maybe|probably|like)?\s*(?:at|around|about)?\s*(\d{1,2})(?::(\d\d))?\s*"
                        r"(?:ish|o'?clock)?\s*[.!?]?\s*", re.I)


def bare_hour(said: str) -> tuple[int, int] | None:
    """"7", "at 9", "around 1:30", "10ish", "15": an hour without a.m. or p.m. or a part of the day, as (hour,
    minute); None for none, or for an hour or minute no clock has."""
    m = _BARE_HOUR.fullmatch(said or "")
    if not m or int(m.group(1)) > 23 or int(m.group(2) or 0) > 59:
        return None
    return int(m.group(1)), int(m.group(2) or 0)


_DAY_WORD = re.compile(r"(?:" + "|".join(timewords.WEEKDAY_SHORT) + r")(?:day)?\.?|today|tonight|tomorrow", re.I)


def is_day_word(word: str) -> bool:
    """"sat", "Thurs.", "sunday": a day, never a thing to burn ("can i burn sat at 3")."""
    return bool(_DAY_WORD.fullmatch((word or "").strip()))


def is_clock_time(value: str) -> bool:
    """"14:30": a time already checked and stored."""
    return bool(re.fullmatch(r"\d\d:\d\d", value))


def is_iso_date(value: str) -> bool:
    return bool(re.fullmatch(r"\d{4}-\d\d-\d\d", value))


def fields_named(text: str) -> list[str]:
    """The facts a correction names: "no, the phone and the date" -> ["burn_phone", "burn_date"]."""
    return [slot for slot, pattern in FIELD_WORDS.items() if re.search(pattern, text, re.I)]


def new_value(slot: str, text: str) -> Optional[str]:
    """The new value a correction gives for ``slot``: "the location is the north field" -> "the north field"."""
    m = re.search("(?:" + FIELD_WORDS[slot] + r")\s+(?:is|should be|to|=|:)\s+(.{2,})$", text, re.I)
    return m.group(1).strip(" .!") if m else None


def asks_a_change(text: str) -> bool:
    """"change", "wrong", "fix", "actually": the read-back is not right."""
    return bool(_CHANGE.search(text))


def stated_name(text: str) -> Optional[str]:
    """"My name is Parker Hanson" (the whole reply) -> "Parker Hanson"."""
    m = _SAYS_NAME.match(text)
    return m.group(1).strip(" .") if m else None


def name_in(text: str) -> Optional[str]:
    """"... my name is Pat Olson ..." anywhere in a message -> "Pat Olson"."""
    m = _NAME_IN.search(text)
    return m.group(1).strip() if m else None


def name_from_reply(text: str) -> str:
    """A reply to "your full name?" without "my name is", "I'm", "this is" and the final full stop."""
    return _NAME_PREFIX.sub("", text).strip(" .")


def clean_name(value: str) -> Optional[str]:
    """A name, spaces tidied, or None when it cannot be one (no letter, under 2 or over 80 characters, or
    three digits in a row)."""
    name = " ".join(str(value).split())
    if not re.search(r"[A-Za-z]", name) or len(name) < 2 or len(name) > 80 or re.search(r"\d{3}", name):
        return None
    return name


def address_in(text: str) -> Optional[str]:
    """"... my address is N1234 County Road K" anywhere in a message -> "N1234 County Road K"."""
    m = _ADDRESS_IN.search(text)
    return m.group(1).strip() if m else None


def address_from_reply(text: str) -> str:
    """A reply to "your address?" without "my address is", "I live at", "it's"."""
    return _ADDRESS_PREFIX.sub("", text)


def street_address(value: str) -> Optional[str]:
    """The address, spaces tidied, when it has a house number and a street (usaddress), else None."""
    address = " ".join(str(value).split())
    try:
        tagged, _ = usaddress.tag(address)
    except usaddress.RepeatedLabelError:
        tagged = {}
    if not (tagged.get("AddressNumber") and (tagged.get("StreetName") or tagged.get("StreetNamePreType"))):
        # a rural fire number ("W5678 Co Rd K", "S 1234 County Road B, apt 2"): a letter for the direction, the
        # number, then the road, however the road is abbreviated
        return address if _FIRE_NUMBER.match(address) else None
    return address


_PLACE = re.compile(r"\b(?:\d+\s*(?:ft|feet|foot|yards?|yds?)\s+(?:away\s+)?from\s+(?:the|my|our)\s+[a-z]+|"
                    r"(?:behind|beside|next to|near|in back of|back of|by|past|across from)\s+(?:the|my|our)\s+"
                    r"[a-z]+(?:\s+(?:shed|barn|house|garage|field|pond|creek|yard|woods|pasture|building))?|"
                    r"in (?:the|my|our) (?:back ?yard|backyard|field|pasture|woods|garden|front yard|side yard|"
                    r"fire ?pit|burn barrel|north field|south field|east field|west field|driveway))", re.I)


def place_in(text: str) -> Optional[str]:
    """Where on the property, as said in a message about the burn ("a brush pile behind the barn, 100 feet from
    the house" -> "behind the barn, 100 feet from the house"); None when it names no place."""
    found = [m.group(0) for m in _PLACE.finditer(text or "")]
    return ", ".join(found) if found else None


def details_in(text: str) -> dict:
    """Name and address listed with commas in one message ("burn notice: tom berg, N1234 Hwy 51, 608 555
    0199"): {"name": ..., "address": ...} for those found."""
    out: dict = {}
    if re.search(r"[{}]|\"\s*:", text or ""):
        return out  # 'notify_burn{"burn_address": ...}' typed as words: JSON is no list of a resident's details
    body = re.sub(r"^[^:]*:\s*", "", text or "") if ":" in (text or "")[:40] else text or ""
    for part in (p.strip(" .") for p in body.split(",")):
        if not part or phone_in(part):
            continue
        if "address" not in out and street_address(part):
            out["address"] = part
        elif "name" not in out and re.fullmatch(r"[A-Za-z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){1,3}", part) and \
                not re.search(r"\b(burn|burning|fire|notice|notify|tomorrow|today|tonight|pile|brush|yard|"
                              r"behind|morning|afternoon|at|the)\b", part, re.I):
            out["name"] = part
    return out


_FIRE_NUMBER = re.compile(r"^\s*[NSEW]\s?\d{2,6}\s+[A-Za-z0-9].{1,60}$", re.I)


def clean_place(value: str) -> Optional[str]:
    """A place on the property, spaces tidied; None when under 3 or over 200 characters."""
    place = " ".join(str(value).split())
    return place if 3 <= len(place) <= 200 else None


def phone_in(text: str) -> Optional[str]:
    """The first US phone number in free text, as (608) 555-0142; None when there is none."""
    for m in phonenumbers.PhoneNumberMatcher(text or "", "US"):
        return phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return None


def valid_phone(value: str) -> Optional[str]:
    """``value`` as (608) 555-0142 when it is a valid US number, else None."""
    try:
        number = phonenumbers.parse(str(value), "US")
        ok = phonenumbers.is_valid_number(number)
    except phonenumbers.NumberParseException:
        ok = False
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL) if ok else None
