"""Records commands:

    python -m records purge [--days N]               delete records past retention (legal holds kept)
    python -m records hold TABLE ID [--release]       put a record under legal hold (or release it)
    python -m records create-clerk USERNAME           create a clerk account of TOWN (password asked twice)
    python -m records set-password USERNAME           change a clerk's password (ends the account's sessions)
    python -m records set-clerk-town USERNAME TOWN    the town an account signs in for (towns sharing a database)
    python -m records migrate                         bring the database to the newest schema
    python -m records revision "what changed"         write a migration for a change to records/schema.py

Retention defaults to RECORDS_RETENTION_DAYS or seven years (Wis. Stat. 19.21(4)(b)).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from . import schema
from . import settings
from .engine import safe_url
from .store import Store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m records", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("purge", help="delete records older than the retention period, except legal holds")
    p.add_argument("--days", type=int,
                   default=settings.retention_days())
    h = sub.add_parser("hold", help="put a record under legal hold")
    h.add_argument("table", choices=sorted(schema.RETAINED))
    h.add_argument("id")
    h.add_argument("--release", action="store_true")
    c = sub.add_parser("create-clerk", help="create a clerk account")
    c.add_argument("username")
    sp = sub.add_parser("set-password", help="change a clerk's password; every session of the account ends")
    sp.add_argument("username")
    st = sub.add_parser("set-clerk-town", help="the town an account works for (it signs in on that town's site)")
    st.add_argument("username")
    st.add_argument("town")
    sub.add_parser("migrate", help="bring the database to the newest schema (the store also does it on start)")
    r = sub.add_parser("revision", help="write an alembic migration for a change to records/schema.py")
    r.add_argument("message")
    sa = sub.add_parser("send-alerts", help="send the queued SMS alerts about no-burning orders (the sender process)")
    sa.add_argument("--once", action="store_true", help="send what is due now, then stop")
    args = parser.parse_args(argv)

    if args.cmd == "send-alerts":
        from .alert_sender import main as send_alerts
        return send_alerts(once=args.once)
    store = Store.from_env()
    if args.cmd == "migrate":
        print(f"{safe_url(store.engine.url)}: schema is current")
        return 0
    if args.cmd == "revision":
        from alembic import command
        from .migrate import config
        command.revision(config(str(store.engine.url)), message=args.message, autogenerate=True)
        return 0
    if args.cmd == "purge":
        result = store.purge_all(args.days)
        print(f"purged records created before {result.cutoff.isoformat()}:")
        for name, n in result.deleted.items():
            print(f"  {name}: {n} deleted, {result.held[name]} kept under legal hold")
        return 0
    if args.cmd == "hold":
        rid: int | str = int(args.id) if args.id.isdigit() else args.id
        ok = store.set_legal_hold(args.table, rid, not args.release)
        print(("released" if args.release else "held") if ok else "no such record")
        return 0 if ok else 1
    if args.cmd == "set-clerk-town":
        ok = store.set_clerk_town(args.username, args.town)
        print(f"{args.username} now signs in for {args.town}" if ok else "no such clerk")
        return 0 if ok else 1
    if args.cmd == "set-password":
        pw = _new_password()
        if pw is None:
            return 1
        try:
            ok = store.set_clerk_password(args.username, pw)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(f"password of {args.username} changed; signed out everywhere" if ok else "no such clerk")
        return 0 if ok else 1
    if args.cmd == "create-clerk":
        pw = _new_password()
        if pw is None:
            return 1
        try:
            store.create_clerk(args.username, pw, town=settings.town())
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(f"clerk {args.username} created")
        return 0
    return 2


def _new_password() -> str | None:
    """CLERK_PASSWORD, else asked twice (None if the two differ)."""
    pw = os.environ.get("CLERK_PASSWORD") or getpass.getpass("Password (12+ characters): ")
    if not os.environ.get("CLERK_PASSWORD") and pw != getpass.getpass("Again: "):
        print("passwords differ", file=sys.stderr)
        return None
    return pw


if __name__ == "__main__":
    sys.exit(main())
