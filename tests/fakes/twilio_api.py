"""A fake Twilio REST API on 127.0.0.1 for tests: the ``twilio`` client is pointed at it with TWILIO_API_BASE
(records/alert_sender.py; never set outside tests). It keeps every message it accepted, lists them as
Twilio's message log does (To, From, DateSent> filters, pages), fails or stalls on demand, and sends status
callbacks signed with the account's auth token as Twilio does (X-Twilio-Signature).

    with FakeTwilio() as tw:
        env TWILIO_API_BASE=tw.url TWILIO_ACCOUNT_SID=tw.account_sid TWILIO_AUTH_TOKEN=tw.auth_token
        tw.fail_next(2, status=500)       # the next two sends answer 500 (nothing kept)
        tw.lose_next(1)                   # keep the next message, then drop the connection unanswered
        tw.stall_next(1, seconds=3)       # keep the next message, answer only after 3 s (a client timeout)
        tw.undeliverable.add("+16085550123")   # its callback says "undelivered" (30003)
        tw.deliver_callbacks(post)        # post(url, form, signature) each pending callback, in this thread
"""

from __future__ import annotations

import base64
import itertools
import json
import threading
import time
from datetime import datetime, timezone
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from twilio.request_validator import RequestValidator

ACCOUNT_SID = "AC" + "f" * 32
AUTH_TOKEN = "fake-twilio-auth-token-0123456789"


class FakeTwilio:
    def __init__(self, account_sid: str = ACCOUNT_SID, auth_token: str = AUTH_TOKEN):
        self.account_sid, self.auth_token = account_sid, auth_token
        self.messages: list[dict] = []
        self.undeliverable: set[str] = set()
        self.invalid: set[str] = set()  # numbers Twilio refuses (400, 21211)
        self.callbacks: list[tuple[str, dict]] = []
        self.requests = 0
        self._faults: list[tuple[str, float]] = []  # ("fail", status) | ("lose", 0) | ("stall", seconds)
        self._lock = threading.Lock()
        self._sids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None

    # -- control ---------------------------------------------------------------------------------------

    def fail_next(self, n: int = 1, status: int = 500) -> None:
        with self._lock:
            self._faults += [("fail", status)] * n

    def lose_next(self, n: int = 1) -> None:
        with self._lock:
            self._faults += [("lose", 0)] * n

    def stall_next(self, n: int = 1, seconds: float = 3.0) -> None:
        with self._lock:
            self._faults += [("stall", seconds)] * n

    def sent_to(self, number: str) -> list[dict]:
        return [m for m in self.messages if m["to"] == number]

    def deliver_callbacks(self, post) -> int:
        """Hand each pending status callback to ``post(url, form, signature)``; how many were delivered."""
        with self._lock:
            pending, self.callbacks = self.callbacks, []
        for url, form in pending:
            post(url, form, RequestValidator(self.auth_token).compute_signature(url, form))
        return len(pending)

    # -- server ----------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "FakeTwilio":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                fake._handle(self, "POST")

            def do_GET(self):
                fake._handle(self, "GET")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- the API ---------------------------------------------------------------------------------------

    def _authorised(self, h) -> bool:
        want = "Basic " + base64.b64encode(f"{self.account_sid}:{self.auth_token}".encode()).decode()
        return h.headers.get("Authorization", "") == want

    def _reply(self, h, status: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def _handle(self, h, method: str) -> None:
        self.requests += 1
        parts = urlsplit(h.path)
        if parts.path != f"/2010-04-01/Accounts/{self.account_sid}/Messages.json":
            return self._reply(h, 404, {"code": 20404, "message": "not found", "status": 404})
        if not self._authorised(h):
            return self._reply(h, 401, {"code": 20003, "message": "Authenticate", "status": 401})
        if method == "GET":
            return self._list(h, parse_qs(parts.query))
        length = int(h.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(h.rfile.read(length).decode()).items()}
        with self._lock:
            fault = self._faults.pop(0) if self._faults else None
        if fault and fault[0] == "fail":
            return self._reply(h, int(fault[1]), {"code": 20500, "message": "fake failure", "status": int(fault[1])})
        to = form.get("To", "")
        if to in self.invalid:
            return self._reply(h, 400, {"code": 21211, "message": f"The 'To' number {to} is not valid.", "status": 400})
        if not to or not form.get("From") or not form.get("Body"):
            return self._reply(h, 400, {"code": 21604, "message": "To, From and Body are required", "status": 400})
        msg = self._keep(form)
        if fault and fault[0] == "lose":  # Twilio took it; the answer never arrives
            h.close_connection = True
            h.connection.shutdown(2)
            return
        if fault and fault[0] == "stall":
            time.sleep(fault[1])
        self._reply(h, 201, self._json(msg))

    def _keep(self, form: dict) -> dict:
        now = datetime.now(timezone.utc)
        with self._lock:
            msg = {"sid": f"SM{next(self._sids):032x}", "to": form["To"], "from": form["From"], "body": form["Body"],
                   "status": "queued", "date_sent": now, "status_callback": form.get("StatusCallback", "")}
            self.messages.append(msg)
            if msg["status_callback"]:
                bad = msg["to"] in self.undeliverable
                cb = {"MessageSid": msg["sid"], "MessageStatus": "undelivered" if bad else "delivered",
                      "To": msg["to"], "From": msg["from"], "AccountSid": self.account_sid}
                if bad:
                    cb["ErrorCode"] = "30003"
                self.callbacks.append((msg["status_callback"], cb))
        return msg

    def _json(self, m: dict) -> dict:
        return {"sid": m["sid"], "account_sid": self.account_sid, "to": m["to"], "from": m["from"], "body": m["body"],
                "status": m["status"], "direction": "outbound-api", "num_segments": "1",
                "date_created": format_datetime(m["date_sent"], usegmt=True),
                "date_sent": format_datetime(m["date_sent"], usegmt=True),
                "uri": f"/2010-04-01/Accounts/{self.account_sid}/Messages/{m['sid']}.json"}

    def _list(self, h, q: dict) -> None:
        one = {k: v[0] for k, v in q.items()}
        rows = [m for m in self.messages
                if (not one.get("To") or m["to"] == one["To"]) and (not one.get("From") or m["from"] == one["From"])]
        after = one.get("DateSent>") or one.get("DateSent>=")
        if after:
            since = datetime.fromisoformat(after.replace("Z", "+00:00"))
            since = since if since.tzinfo else since.replace(tzinfo=timezone.utc)
            rows = [m for m in rows if m["date_sent"] >= since.replace(hour=0, minute=0, second=0, microsecond=0)]
        rows.sort(key=lambda m: m["date_sent"], reverse=True)  # Twilio lists the newest first
        size, page = int(one.get("PageSize", 50)), int(one.get("Page", 0))
        chunk = rows[page * size:(page + 1) * size]
        base = f"/2010-04-01/Accounts/{self.account_sid}/Messages.json"
        keep = {k: v for k, v in one.items() if k not in ("Page", "PageToken")}
        nxt = f"{base}?{urlencode({**keep, 'Page': page + 1})}" if (page + 1) * size < len(rows) else None
        self._reply(h, 200, {"messages": [self._json(m) for m in chunk], "next_page_uri": nxt, "page": page,
                             "page_size": size, "start": page * size, "end": page * size + len(chunk) - 1,
                             "uri": f"{base}?{urlencode(one)}", "first_page_uri": f"{base}?{urlencode(keep)}",
                             "previous_page_uri": None})
