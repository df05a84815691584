"""A stand-in for Rasa's REST channel on loopback, for tests that must not need the trained model."""

from __future__ import annotations

import functools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LONG = ("Dog licenses run from January 1 to December 31. " * 12).strip()
SLOW = 5.0  # a "slow" message is answered after this long, unless the test releases it sooner


@functools.lru_cache(maxsize=2)
def answer_reply(sms: bool) -> list[dict]:
    """What Rasa's REST channel passes on for a real answer (actions/common.send): the plain text, then the
    custom message with the answer's parts -- here a real Dunkirk license answer from the knowledge engine."""
    from datetime import date

    from knowledge import handlers, load_town, render
    answer = handlers.license_cost(load_town("dunkirk"), on=date(2026, 5, 15), dogs=2, neutered=None)
    text = render.text(answer).replace("\n\n", "\n")
    text = render.gsm7(text) if sms else text
    return [{"text": text}, {"custom": {"answer": render.payload(answer), "text": text}}]


def reply_for(message: str, fake: FakeRasa | None = None, sms: bool = False) -> list[dict]:
    m = message.lower()
    if "license cost" in m:
        return answer_reply(sms)  # (the test loads it first: the town takes longer to load than a reply may)
    if message == "/ask_barking" or "barking" in m:
        return [{"text": "Dunkirk Code 7.02-6 covers barking: \"(1) Habitually barks\"."}]
    if "topics" in m or "help me" in m:
        return [{"text": "Which topic?", "buttons": [
            {"title": "Barking dogs", "payload": "/ask_barking"},
            {"title": "Dog licenses", "payload": "/ask_license_cost"}]}]
    if "xss" in m:
        return [{"text": "<img src=x onerror=alert(1)><script>alert(2)</script>"}]
    if "long" in m:
        return [{"text": LONG}]
    if "slow" in m:
        if fake is not None:
            fake.slow_arrived.set()
            fake.release.wait(SLOW)
        return [{"text": "too late"}]
    if "nothing" in m:
        return []
    if "unicode" in m:
        return [{"text": "It\u2019s \u201cfine\u201d \u2014 caf\u00e9 \U0001f525"}]
    return [{"text": f"You said: {message}"}]


class FakeRasa:
    """``slow_arrived`` is set when a "slow" message arrives; ``release`` answers the waiting ones at once."""

    def __init__(self):
        self.received: list[dict] = []
        self.slow_arrived = threading.Event()
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.received.append(body)
                sms = (body.get("metadata") or {}).get("channel") == "sms"
                data = json.dumps(reply_for(body.get("message", ""), outer, sms)).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.release.set()  # no handler thread left waiting
        self.server.shutdown()
        self.server.server_close()

    @property
    def messages(self) -> list[str]:
        return [r.get("message") for r in self.received]
