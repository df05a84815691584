"""Which contacts a town has not set (town.yml; knowledge/DATA.md "Contacts").

    python -m knowledge.contacts --warn [TOWN ...]    # one warning line per unset value (default: $TOWN)

`make run` calls it: answers name an office without a value that is not set, so a missing phone number is
never shown to a resident as a placeholder; the warning is for the clerk who should fill it in.
"""
from __future__ import annotations

import argparse
import sys

from . import settings
from .loader import load_town

WHY = {"phone": "answers name the office without a phone number",
       "email": "answers name the office without an email address",
       "hours": "answers give no office hours"}


def unset(key: str) -> list[str]:
    """Warning lines for the values town ``key`` has not set."""
    t = load_town(key)
    offices = [("clerk", t.clerk)] + ([("fire_department", t.fire_department)] if t.fire_department else [])
    return [f"warning: knowledge/towns/{key}/town.yml: {role}.{field} is not set; {WHY[field]} "
            f"({contact.name})" for role, contact in offices for field in contact.unset()]


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
