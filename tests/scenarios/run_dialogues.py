"""Conversations of several turns (tests/scenarios/dialogues*.yml) through the real stack: Rasa (the trained model),
the action server and the web front as separate processes on loopback (tests/support/stack.py). Web turns go to the
chat API (/chat/api/message), SMS turns to the signed Twilio webhook (/sms): what a resident reads is checked,
the SMS lead included. Each (town, now) group restarts the action server and the web front with TOWN and
ASSISTANT_NOW; Rasa stays up.

    PYTHONPATH=$PWD .venv/bin/python -m tests.scenarios.run_dialogues tests/scenarios/dialogues.yml [--only TEXT]
        [--in-process]   (quicker while working: the model and the action server in this process; SMS pages are
                          made the way the web front makes them)

Prints one line per conversation, the failures with the whole exchange, and "dialogues: N/M passed"; exit 1 on a
failure.
"""
from __future__ import annotations

import argparse
import asyncio
import html
import itertools
import json
import logging
import os
import re
import sys
import tempfile
import urllib.parse
import urllib.request
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def load(path: str) -> list[dict]:
    return yaml.safe_load(Path(path).read_text())


def problems(conversation: dict, text: str) -> list[str]:
    """What in ``text`` (the reply to the last turn, as the resident reads it) breaks the expectation."""
    expect = conversation.get("expect") or {}
    out = [f"missing /{rx}/" for rx in expect.get("answer", []) if not re.search(rx, text)]
    out += [f"forbidden /{rx}/" for rx in expect.get("not", []) if re.search(rx, text)]
    return out


# ------------------------------------------------------------------------------------------- through the stack

class StackClient:
    """Web chat and SMS through the web front of a running Stack."""

    def __init__(self, stack):
        self.stack = stack
        self.sids = itertools.count()

    def _post(self, path: str, body: bytes, headers: dict) -> bytes:
        req = urllib.request.Request(self.stack.web + path, data=body, method="POST", headers=headers)
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.read()

    def web(self, turns: list[str]) -> list[list[str]]:
        start = json.loads(self._post("/chat/api/start", b"{}", {"Content-Type": "application/json"}))
        cid, out = start["conversation_id"], []
        for turn in turns:
            body = json.dumps({"conversation_id": cid, "text": turn}).encode()
            reply = json.loads(self._post("/chat/api/message", body, {"Content-Type": "application/json"}))
            out.append([m.get("text") or "" for m in reply.get("messages", [])])
        return out

    def sms(self, turns: list[str], number: str) -> list[list[str]]:
        from twilio.request_validator import RequestValidator

        from tests.support.stack import PUBLIC_URL, TWILIO_TOKEN
        out = []
        for turn in turns:
            params = {"From": number, "To": "+16085550100", "Body": turn, "MessageSid": f"SM{next(self.sids):032x}"}
            sig = RequestValidator(TWILIO_TOKEN).compute_signature(PUBLIC_URL + "/sms", params)
            xml = self._post("/sms", urllib.parse.urlencode(params).encode(),
                             {"X-Twilio-Signature": sig, "Content-Type": "application/x-www-form-urlencoded"}).decode()
            out.append([html.unescape(m) for m in re.findall(r"<Message>(.*?)</Message>", xml, re.S)])
        return out


def run_stack(conversations: list[dict]) -> list[tuple[dict, list[list[str]]]]:
    from tests.support.stack import Stack

    groups = defaultdict(list)
    for i, c in enumerate(conversations):
        groups[(c["town"], str(c["now"]))].append((i, c))
    results: dict[int, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        first_town, first_now = next(iter(groups))
        with Stack(Path(tmp), town=first_town, now=first_now) as stack:
            client = StackClient(stack)
            for (town, now), members in groups.items():
                if (stack.env["TOWN"], stack.env.get("ASSISTANT_NOW")) != (town, now):
                    stack.env.update(TOWN=town, ASSISTANT_NOW=now)
                    stack.restart("actions")
                    stack.restart("web")
                for i, c in members:
                    number = f"+1608{2000000 + i:07d}"
                    try:
                        replies = client.sms(c["turns"], number) if c["channel"] == "sms" else client.web(c["turns"])
                    except Exception as exc:  # a crash is a failed conversation, not the end of the run
                        replies = [[f"[error: {exc!r}]"]]
                    results[i] = replies
    return [(c, results[i]) for i, c in enumerate(conversations)]


# ---------------------------------------------------------------------------------------------- in process

def run_in_process(conversations: list[dict]) -> list[tuple[dict, list[list[str]]]]:
    return asyncio.run(_in_process(conversations))


async def _in_process(conversations):
    from rasa.core.agent import Agent
    from rasa.core.channels.channel import CollectingOutputChannel, UserMessage
    from rasa.utils.endpoints import EndpointConfig
    from rasa_sdk.endpoint import create_app

    from knowledge import loader
    from tests.scenarios.run_chat import free_port
    from web.text import answer_details, reply_pages

    port = free_port()
    app = create_app(action_package_name="actions")
    server = await app.create_server(host="127.0.0.1", port=port, return_asyncio_server=True, access_log=False)
    await server.startup()
    agent = Agent.load(str(ROOT / "models" / "ordinance.tar.gz"),
                       action_endpoint=EndpointConfig(f"http://127.0.0.1:{port}/webhook"))
    out = []
    for i, c in enumerate(conversations):
        os.environ["TOWN"], os.environ["ASSISTANT_NOW"] = c["town"], str(c["now"])
        loader.town.cache_clear()
        sms = c["channel"] == "sms"
        sender, replies, pages = (f"sms:dialogue-{i}" if sms else f"dialogue-{i}"), [], []
        for turn in c["turns"]:
            if sms and turn.strip().upper() in ("MORE", "MORE.") and pages:
                replies.append([pages.pop(0)])
                continue
            channel = CollectingOutputChannel()
            try:
                await agent.handle_message(UserMessage(turn, channel, sender, metadata={"channel": c["channel"]}))
            except Exception as exc:
                replies.append([f"[error: {exc!r}]"])
                continue
            messages = channel.messages
            if sms:  # as web/sms.py answers: each answer's lead now, its details on MORE
                parts = [m.get("custom", {}).get("answer") if isinstance(m.get("custom"), dict) else None
                         for m in messages]
                text = "\n".join(p["lead"] if p else m.get("text") or "" for p, m in zip(parts, messages)
                                 if p or m.get("text"))
                details = "\n".join(answer_details(p) for p in parts if p)
                all_pages = reply_pages(text, details)
                replies.append(all_pages[:1])
                pages = all_pages[1:]
            else:
                replies.append([m.get("text") or "" for m in messages])
        out.append((c, replies))
    server.close()
    return out


# --------------------------------------------------------------------------------------------------- report

def report(results: list[tuple[dict, list[list[str]]]]) -> int:
    passed, failed = 0, []
    for c, replies in results:
        last = "\n".join(replies[-1]) if replies else ""
        wrong = problems(c, last)
        print(("ok   " if not wrong else "FAIL ") + f"[{c.get('pattern', '')}/{c['channel']}] " + c["name"][:100],
              flush=True)
        if wrong:
            failed.append((c, wrong, replies))
        else:
            passed += 1
    for c, wrong, replies in failed:
        print(f"\nFAILED [{c['town']} {c['channel']} {c['now']}] {c['name']}\n  {wrong}")
        for turn, said in zip(c["turns"], replies):
            print(f"  > {turn}")
            for line in said:
                print("    < " + line.replace("\n", "\n      ")[:900])
    total = passed + len(failed)
    by = defaultdict(lambda: [0, 0])
    for c, replies in results:
        key = c.get("pattern", "?")
        by[key][1] += 1
        by[key][0] += not problems(c, "\n".join(replies[-1]) if replies else "")
    print("\nby pattern: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by.items())))
    print(f"dialogues: {passed}/{total} passed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--only", help="only conversations whose name contains this text")
    parser.add_argument("--in-process", action="store_true")
    opts = parser.parse_args(argv)
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    conversations = [c for f in opts.files for c in load(f)
                     if not opts.only or opts.only.lower() in c["name"].lower()]
    if opts.in_process:
        os.environ.setdefault("DATABASE_URL", "sqlite:///" + str(Path(tempfile.mkdtemp()) / "dialogues.db"))
        logging.basicConfig(level=logging.WARNING)
        for name in ("rasa", "sanic", "tensorflow", "absl"):
            logging.getLogger(name).setLevel(logging.ERROR)
        results = run_in_process(conversations)
    else:
        results = run_stack(conversations)
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
