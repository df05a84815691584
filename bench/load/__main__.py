"""The command line: python -m bench.load [options] (bench/load/README.md)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from tests.support.stack import have_model

from . import __doc__ as PACKAGE_DOC
from .report import machine_line, print_table, summary, verdict
from .residents import SMS_SHARE
from .stack import machine, run_compare, run_levels, run_scale

LEVELS = (1, 10, 20, 50)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.load", description=PACKAGE_DOC.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(map(str, LEVELS)), help="concurrent conversations per level")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds per level")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a resident waits between messages (0)")
    ap.add_argument("--timeout", type=float, default=15.0, help="client timeout per request, seconds")
    ap.add_argument("--rasa-instances", type=int, default=1, help="Rasa instances in the SQLite stack")
    ap.add_argument("--web-threads", type=int, default=int(os.environ.get("WEB_THREADS", "8")),
                    help="waitress threads of the web front started here (WEB_THREADS)")
    ap.add_argument("--web", help="drive a running stack at this base URL instead of starting one")
    ap.add_argument("--twilio-token", help="with --web: its TWILIO_AUTH_TOKEN (default: the environment's)")
    ap.add_argument("--public-url", help="with --web: its PUBLIC_URL (default: the environment's)")
    ap.add_argument("--scale", action="store_true", help="scale-out run: PostgreSQL + Redis, 1/2/3 Rasa instances")
    ap.add_argument("--instances", default="1,2,3", help="with --scale: Rasa instance counts")
    ap.add_argument("--scale-concurrency", type=int, default=20, help="with --scale: concurrent conversations")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="extra environment for the stack started here (repeatable)")
    ap.add_argument("--keep", metavar="DIR", help="keep the stack's databases and logs under DIR")
    ap.add_argument("--compare", metavar="N,M", help="SQLite stacks with N, M, ... Rasa instances side by side, "
                    "measured in alternating rounds (--rounds) at each level")
    ap.add_argument("--rounds", type=int, default=4, help="with --compare: rounds per level (--duration split)")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    ap.add_argument("--summary", nargs="+", metavar="JSON", help="only print one table of earlier --json files")
    args = ap.parse_args(argv)
    if args.summary:
        return summary(args.summary)
    if not args.web and not have_model():
        print("no trained model in models/ (make train)", file=sys.stderr)
        return 2
    m = machine()
    print(machine_line(m))
    print(f"closed loop: each conversation sends its next message as soon as the reply arrives; think time "
          f"{args.think:g} s; {args.duration:g} s per level; {round(SMS_SHARE * 100)}% of conversations by SMS")
    if args.compare:
        rows = run_compare(args, m)
        title = f"side by side, {args.rounds} alternating rounds per level pooled"
    elif args.scale:
        rows = run_scale(args, m)
        title = f"scale-out: {args.scale_concurrency} concurrent conversations, PostgreSQL tracker store + records, " \
                "Redis lock store and rate limits"
    else:
        rows = run_levels(args, m)
        title = "load levels"
    m["loadavg_end"] = os.getloadavg()[0]
    print_table(rows, title)
    print(machine_line(m) + f", {m['loadavg_end']:.2f} at the end")
    if not args.scale:
        for line in verdict(rows):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": m, "think": args.think, "duration": args.duration,
                                               "title": title, "rows": rows}, indent=2, default=str))
    return 0



if __name__ == "__main__":
    sys.exit(main())
