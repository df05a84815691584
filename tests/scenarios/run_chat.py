"""The independent scenarios through the real dialogue: NLU + Rasa Core (the trained model, in this process) + the
action server (rasa_sdk, started in this process on a free 127.0.0.1 port), so that the scenario's `now`
(ASSISTANT_NOW) and `town` (TOWN, with knowledge.town's cache cleared) reach both.

    PYTHONPATH=$PWD .venv/bin/python -m tests.scenarios.run_chat [--model models/ordinance.tar.gz] [--only TEXT]

Each scenario's `message` is sent as a new conversation. When the bot answers with one of the license form's
questions, the runner replies as the resident would from the scenario's own facts (engine args) - at most
FOLLOW_UPS times - and checks the final answer. Prints one line per failure and the pass rate; exit 1 on a failure.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import socket
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLLOW_UPS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reply_to(question: str, scenario: dict) -> str | None:
    """What the resident answers to a form question, from the scenario's facts; None: not a form question."""
    from datetime import date

    engine = scenario.get("engine") if isinstance(scenario.get("engine"), dict) else {}
    args = {("on" if k is True else k): v for k, v in (engine.get("args") or {}).items()}
    q = question.lower()
    if "how many dogs are you licensing" in q:
        return str(args.get("dogs", 1))
    if "spayed or neutered?" in q:
        n = args.get("neutered")
        return "not sure" if n is None else ("all of them" if n == args.get("dogs", 1) else
                                            "none are" if n == 0 else f"{n} are")
    if "service dog?" in q:
        return "yes" if args.get("service_dogs") else "no"
    if "when did you get the dog" in q:
        for key, words in (("acquired", "we got her on"), ("moved_in", "we moved here on")):
            if isinstance(args.get(key), date):
                return f"{words} {args[key]:%B} {args[key].day}"
        return "over a year ago"
    if "turns 5 months" in q or "turn 5 months" in q or "5 months old" in q:
        d = args.get("licensable_age_on")
        return f"{d:%B} {d.day}" if isinstance(d, date) else "over a year ago"
    if "when will you buy the license" in q:
        return "today"
    return None


async def run(model: str, only: str | None) -> int:
    from rasa.core.agent import Agent
    from rasa.utils.endpoints import EndpointConfig
    from rasa_sdk.endpoint import create_app

    from knowledge import loader

    from . import scenarios

    port = free_port()
    app = create_app(action_package_name="actions")
    server = await app.create_server(host="127.0.0.1", port=port, return_asyncio_server=True,
                                     access_log=False)
    await server.startup()
    agent = Agent.load(model, action_endpoint=EndpointConfig(f"http://127.0.0.1:{port}/webhook"))
    chosen = [s for s in scenarios.load() if not only or only.lower() in s["name"].lower()]
    passed, failed, disputed = 0, [], 0
    for i, scenario in enumerate(chosen):
        os.environ["TOWN"] = scenario["town"]
        os.environ["ASSISTANT_NOW"] = scenarios.now_of(scenario).isoformat()
        loader.town.cache_clear()
        sender = f"scenario-{i}"
        message, texts = scenario["message"], []
        for _ in range(FOLLOW_UPS + 1):
            try:
                replies = await agent.handle_text(message, sender_id=sender)
            except Exception as exc:  # a crash is a failed scenario, not the end of the run
                replies = [{"text": f"[error: {exc!r}]"}]
            said = [r.get("text") or "" for r in replies or []]
            texts += said
            message = reply_to(said[-1], scenario) if said else None
            if message is None:
                break
            texts.append(f"[resident: {message}]")
        text = "\n".join(texts)
        wrong = scenarios.problems(scenario, text)
        print(("ok   " if not wrong else "FAIL ") + scenario["name"][:100], flush=True)
        if scenario.get("disputed"):
            disputed += 1
        elif wrong:
            failed.append((scenario, wrong, text))
        else:
            passed += 1
    for scenario, wrong, text in failed:
        print(f"FAILED [{scenario['town']} {scenario['now']}] {scenario['name']}\n  message: {scenario['message']}\n"
              f"  {wrong}\n  reply: " + text.replace("\n", "\n         ")[:1500] + "\n")
    total = passed + len(failed)
    print(f"chat: {passed}/{total} passed" + (f" ({disputed} disputed, not counted)" if disputed else ""))
    server.close()
    await server.wait_closed()
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "ordinance.tar.gz"))
    parser.add_argument("--only", help="only scenarios whose name contains this text")
    opts = parser.parse_args(argv)
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("DATABASE_URL", "sqlite:///" + str(Path(tempfile.mkdtemp()) / "scenarios.db"))
    logging.basicConfig(level=logging.WARNING)
    for name in ("rasa", "sanic", "tensorflow", "absl"):
        logging.getLogger(name).setLevel(logging.ERROR)
    return asyncio.run(run(opts.model, opts.only))


if __name__ == "__main__":
    sys.exit(main())
