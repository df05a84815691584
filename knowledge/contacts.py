"""How residents reach the town's offices (town.yml; knowledge/DATA.md "Contacts"): the check of a phone
number, email address and hours the loader and the clerk's "Contacts" page share, the clerk's entries applied to
a town, and which values a town has not set:

    python -m knowledge.contacts --warn [TOWN ...]    # one warning line per unset value (default: $TOWN)

`make run` calls it: answers name an office without a value that is not set, so a missing phone number is
never shown to a resident as a placeholder; the warning is for the clerk who should fill it in.
"""
from __future__ import annotations

import argparse
import copy
import re
import sys
from dataclasses import dataclass, replace
from typing import Iterable

from . import settings
from .model import Town

WHY = {"phone": "answers name the office without a phone number",
       "email": "answers name the office without an email address",
       "hours": "answers give no office hours"}


def unset(key: str) -> list[str]:
    """Warning lines for the values town ``key`` has not set."""
    from .loader import load_town
    t = load_town(key)
    offices = [("clerk", t.clerk)] + ([("fire_department", t.fire_department)] if t.fire_department else [])
    return [f"warning: knowledge/towns/{key}/town.yml: {role}.{field} is not set; {WHY[field]} "
            f"({contact.name})" for role, contact in offices for field in contact.unset()]



#: the offices a town names (town.yml): the clerk's, and the fire department's (notified of burns)
OFFICES = ("clerk", "fire_department")
EMAIL = re.compile(r"[^@\s()<>\[\]]+@[^@\s()<>\[\]]+\.[A-Za-z]{2,}")
#: the longest hours text ("Mon-Thu 9 a.m.-noon; Fri by appointment")
HOURS_MAX = 120


@dataclass(frozen=True)
class ContactEntry:
    """How to reach one office (``office`` of OFFICES), as the clerk set it: "" for a value not given."""

    office: str
    phone: str = ""
    email: str = ""
    hours: str = ""


def usual_phone(phone: str) -> str | None:
    """A phone number written the usual way ("(608) 555-0100", "+44 20 7946 0958"); None when it is not one."""
    import phonenumbers
    try:
        number = phonenumbers.parse(phone, "US")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(number):
        return None
    usual = phonenumbers.PhoneNumberFormat.NATIONAL if number.country_code == 1 else \
        phonenumbers.PhoneNumberFormat.INTERNATIONAL  # "+44 20 7946 0958" keeps its country
    return phonenumbers.format_number(number, usual)


def problems(phone: str, email: str, hours: str = "") -> dict[str, str]:
    """What is wrong with an office's values, by field; empty when they can be used. The loader checks town.yml
    with it, the clerk's "Contacts" page its form."""
    out = {}
    if phone.strip() and usual_phone(phone.strip()) is None:
        out["phone"] = f"not a phone number: {phone.strip()!r} (leave it blank if not known)"
    if email.strip() and not EMAIL.fullmatch(email.strip()):
        out["email"] = f"not an email address: {email.strip()!r} (leave it blank if not known)"
    if len(hours.strip()) > HOURS_MAX:
        out["hours"] = f"at most {HOURS_MAX} characters"
    return out


def entry(office: str, phone: str, email: str, hours: str) -> ContactEntry:
    """A checked entry, the phone written the usual way; ValueError ("field: problem") otherwise."""
    if office not in OFFICES:
        raise ValueError(f"office: not one of {', '.join(OFFICES)}: {office!r}")
    found = problems(phone, email, hours)
    if found:
        field, message = next(iter(found.items()))
        raise ValueError(f"{field}: {message}")
    phone = phone.strip()
    return ContactEntry(office, usual_phone(phone) if phone else "", email.strip(), " ".join(hours.split()))


def with_entries(town: Town, entries: Iterable[ContactEntry]) -> Town:
    """The town with each office's latest entry in place of its phone, email and hours (its name as town.yml
    gives it); a town with no fire department in town.yml gets none. The town itself is not changed."""
    latest = {e.office: e for e in entries}
    if not latest:
        return town
    out = copy.copy(town)
    if "clerk" in latest:
        e = latest["clerk"]
        out.clerk = replace(town.clerk, phone=e.phone, email=e.email, hours=e.hours)
        out.office_hours = e.hours
    if "fire_department" in latest and town.fire_department is not None:
        e = latest["fire_department"]
        out.fire_department = replace(town.fire_department, phone=e.phone, email=e.email, hours=e.hours)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Warn about contacts a town has not set.")
    ap.add_argument("--warn", action="store_true", help="print one line per unset value (to stderr)")
    ap.add_argument("towns", nargs="*", help="town keys (default: $TOWN or dunkirk)")
    args = ap.parse_args(argv)
    for key in args.towns or [settings.town_key()]:
        for line in unset(key):
            print(line, file=sys.stderr if args.warn else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
