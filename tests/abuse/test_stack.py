"""Against the real stack (Rasa with the trained model, the action server, the web front, as processes on
loopback): Rasa and the action server listen on loopback only; Rasa's HTTP API wants its token; a few hundred
hostile messages through the web front reach Rasa and the actions without a 5xx, a leak, a stored record a
valid message would not make, or an intent, slot or form set from text."""

from __future__ import annotations

import ipaddress
import json
import os
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from twilio.request_validator import RequestValidator

from tests.support.stack import PUBLIC_URL, RASA_TOKEN, TWILIO_TOKEN, Stack, have_model

from . import hostile
from .conftest import SENT, assert_no_leak, leak_markers
from .hostile import Hostile

pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(not have_model(), reason="no trained Rasa model in models/ (`make train`)")]

NOW = "2026-12-01T15:00:00+00:00"
SECRET = "stack-secret"  # tests/support/stack.py SECRET_KEY
SMS_N = int(os.environ.get("ABUSE_STACK_SMS_N", 240))
CHAT_N = int(os.environ.get("ABUSE_STACK_CHAT_N", 100))
FORM_SLOTS = ("burner_name", "burn_address", "burn_phone", "burn_date", "burn_time", "burn_location",
              "burn_confirmed")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    # every request comes from 127.0.0.1: lift the chat API's per-address limit (60 a minute) for this run
    tmp = tmp_path_factory.mktemp("abuse-stack")
    env = {"CHAT_RATE_LIMIT": "100000 per minute", "SPOOL_DIR": str(tmp / "spool"),
           "FAILURE_LOG": str(tmp / "failures.jsonl")}  # its own spool: never replay another test's messages
    with Stack(tmp, now=NOW, env=env) as s:
        yield s


def http(method: str, url: str, body: bytes | None = None, headers: dict | None = None, timeout: float = 30):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get_content_type(), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get_content_type(), e.read()


def sender_id(phone: str) -> str:  # web/sms.py sender_id with the stack's SECRET_KEY
    from web.keys import SMS_ID_LABEL, derive, sms_sender_id
    return sms_sender_id(derive(SECRET, SMS_ID_LABEL), phone)


def tracker(stack, sender: str) -> dict:
    status, _, body = http("GET", f"{stack.rasa_url()}/conversations/{urllib.parse.quote(sender, safe=':')}/tracker"
                                  f"?token={RASA_TOKEN}&include_events=ALL")
    assert status == 200, body[:300]
    return json.loads(body)


def db_path(stack) -> str:
    return stack.database_url.split("///", 1)[1]


def count(stack, table: str, where: str = "", args=()) -> int:
    with sqlite3.connect(f"file:{db_path(stack)}?mode=ro", uri=True) as conn:
        return conn.execute(f"SELECT count(*) FROM {table} {where}", args).fetchone()[0]


# ---- sockets -----------------------------------------------------------------------------------------


def process_tree(root: int) -> set[int]:
    """root, its descendants, and everything in its process group (the stack starts each in a new session)."""
    parents: dict[int, int] = {}
    groups: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            parents[int(d.name)], groups[int(d.name)] = int(fields[1]), int(fields[2])
    tree = {root} | {p for p, g in groups.items() if g == root}
    grew = True
    while grew:
        kids = {p for p, pp in parents.items() if pp in tree} - tree
        grew = bool(kids)
        tree |= kids
    return tree


def socket_inodes(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:["):
                    out.add(int(target[8:-1]))
        except OSError:
            continue
    return out


def _addr(hexaddr: str) -> ipaddress._BaseAddress:
    raw = bytes.fromhex(hexaddr)
    # /proc/net/tcp* prints each 32-bit word in host (little-endian) order
    fixed = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return ipaddress.ip_address(fixed)


def listening(inodes: set[int]) -> list[tuple[str, int]]:
    out = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and int(f[9]) in inodes:  # LISTEN
                host, port = f[1].split(":")
                out.append((str(_addr(host)), int(port, 16)))
    return out


def is_loopback(host: str) -> bool:
    ip = ipaddress.ip_address(host)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def test_rasa_and_the_action_server_listen_on_loopback_only(stack):
    for name in ("rasa", "actions", "web"):
        pids = process_tree(stack.procs[name].pid)
        socks = listening(socket_inodes(pids))
        assert (("127.0.0.1", stack.ports[name]) in socks or ("::1", stack.ports[name]) in socks), (name, socks)
        assert all(is_loopback(h) for h, _ in socks), f"{name} (pids {sorted(pids)}) listens on {socks}"


def test_rasa_http_api_wants_the_token(stack):
    base = stack.rasa_url()
    for method, path, body in (("GET", "/conversations/x/tracker", None), ("GET", "/status", None),
                               ("POST", "/conversations/x/tracker/events", b'{"event": "restart"}'),
                               ("POST", "/conversations/x/messages", b'{"text": "hi", "sender": "user"}'),
                               ("POST", "/model/parse", b'{"text": "hi"}'),
                               ("PUT", "/model", b'{"model_file": "/etc/passwd"}'),
                               ("POST", "/conversations/x/execute", b'{"name": "action_restart"}')):
        for query in ("", "?token=", "?token=wrong", f"?token={RASA_TOKEN[:-1]}"):
            status, _, data = http(method, base + path + query, body, {"Content-Type": "application/json"})
            assert status in (401, 403), (method, path, query, status, data[:200])
    status, _, _ = http("GET", f"{base}/conversations/x/tracker?token={RASA_TOKEN}")
    assert status == 200  # the token itself works (so the refusals above are about the token)


# ---- hostile messages --------------------------------------------------------------------------------


class StackClient:
    def __init__(self, stack):
        self.stack = stack
        self.lock = threading.Lock()
        self.accepted: set[str] = set()
        self.problems: list[str] = []

    def sms(self, phone: str, body: str, sid: str) -> tuple[int, str | None]:
        form = {"From": phone, "To": "+16085550199", "Body": body, "MessageSid": sid}
        sig = RequestValidator(TWILIO_TOKEN).compute_signature(PUBLIC_URL + "/sms", form)
        status, ctype, data = http("POST", self.stack.web + "/sms", urllib.parse.urlencode(form).encode(),
                                   {"X-Twilio-Signature": sig, "Content-Type": "application/x-www-form-urlencoded"})
        with self.lock:
            SENT["stack-sms"] += 1
        where = f"SMS {body[:200]!r} -> {status} {data[:300]!r}"
        assert status < 500, where
        assert_no_leak(data, leak_markers(body))
        if status != 200:
            assert ctype == "application/json", where
            return status, None
        assert ctype == "application/xml", where
        root = ET.fromstring(data)
        text = root[0].text if len(root) else None
        with self.lock:
            self.accepted.add(sid)
            if text and "can't answer right now" in text:
                self.problems.append(where)
        return status, text

    def chat(self, cid: str, text: str) -> dict:
        body = json.dumps({"conversation_id": cid, "text": text}).encode()
        status, ctype, data = http("POST", self.stack.web + "/chat/api/message", body,
                                   {"Content-Type": "application/json"})
        SENT["stack-chat"] += 1
        where = f"chat {text[:200]!r} -> {status} {data[:300]!r}"
        assert status < 500 and ctype == "application/json", where
        assert_no_leak(data, leak_markers(text))
        reply = json.loads(data)
        if status == 200 and any("not answering right now" in m["text"] for m in reply["messages"]):
            self.problems.append(where)
        return reply


def test_hostile_messages_through_the_real_stack(stack):
    sc = StackClient(stack)
    h = Hostile(seed=5005)
    status, _, data = http("POST", stack.web + "/chat/api/start", b"")
    assert status == 200
    cid = json.loads(data)["conversation_id"]
    for _ in range(CHAT_N):
        text = h.text()
        if len(text) > 500:
            text = text[:500]
        sc.chat(cid, text)

    phones = [f"+1608555{i:04d}" for i in range(3)]
    bodies = [h.text()[:1000] for _ in range(SMS_N)]
    errors: list[BaseException] = []

    def worker(k: int):
        try:
            for i in range(k, SMS_N, len(phones)):
                sc.sms(phones[k], bodies[i], f"SMstack{i:026d}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(len(phones))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    assert SENT["stack-sms"] >= SMS_N

    # the records: one inbound row per accepted MessageSid, and nothing a resident's text alone cannot make
    assert count(stack, "inbound_sms", "WHERE message_sid NOT LIKE 'SMstack%'") == 0
    assert count(stack, "inbound_sms") == len(sc.accepted)
    for table in ("burn_notifications", "clerk_accounts", "burning_order_history"):
        assert count(stack, table) == 0, table
    senders = {cid} | {sender_id(p) for p in phones}
    assert count(stack, "transcript_messages",
                 f"WHERE conversation_id NOT IN ({','.join('?' * len(senders))})", tuple(senders)) == 0
    for sender in senders:
        t = tracker(stack, sender)
        assert not any(e.get("event") == "restart" for e in t["events"]), sender
        assert offered_payloads_only(t) == [], sender
    assert sc.problems == [], "the assistant failed on hostile text:\n" + "\n".join(sc.problems[:20])


def test_intent_payloads_set_no_intent_slot_or_form(stack):
    """'/notify_burn{"burn_phone": ...}' and friends, typed by a resident, are words: NLU classifies them, no
    slot or entity takes a value from their JSON, one carrying JSON starts no form, no restart."""
    sc = StackClient(stack)
    payloads = [p for p in hostile.INTENT_PAYLOADS if "{" in p or "restart" in p]
    for i, p in enumerate(payloads):
        phone = f"+1608556{i:04d}"
        sc.sms(phone, p, f"SMintent{i:025d}")
        t = tracker(stack, sender_id(phone))
        check_tracker(t, p)
    status, _, data = http("POST", stack.web + "/chat/api/start", b"")
    cid = json.loads(data)["conversation_id"]
    for p in payloads[:8]:
        sc.chat(cid, p)
        check_tracker(tracker(stack, cid), p)
    assert count(stack, "burn_notifications") == 0


def payload_values(payload: str) -> set[str]:
    """The values in the JSON part of an '/intent{...}' text (what Rasa would set as entities if it took the
    text as a payload)."""
    brace = payload.find("{")
    try:
        data = json.loads(payload[brace:]) if brace >= 0 else {}
    except ValueError:
        return set()
    return {str(v) for v in data.values()} if isinstance(data, dict) else set()


def check_tracker(t: dict, payload: str) -> None:
    """The text reached Rasa as words: NLU classified it (a payload gets one intent at confidence 1 and no
    ranking), no entity or slot holds a value from its JSON, no restart. (A form NLU starts from the words,
    e.g. 'notify_burn{...}' read as the words "notify burn", is what typing those words does; it must not be
    filled from the JSON.)"""
    values = payload_values(payload)
    slots = t.get("slots") or {}
    assert all(slots.get(s) in (None, False) for s in FORM_SLOTS), (payload, {s: slots.get(s) for s in FORM_SLOTS})
    taken = {k: v for k, v in slots.items() if v not in (None, False, [], "") and str(v) in values}
    assert not taken, (payload, taken)
    user = [e for e in t["events"] if e.get("event") == "user"]
    assert user and not (user[-1].get("text") or "").startswith("/"), payload
    parse = user[-1].get("parse_data") or {}
    assert len(parse.get("intent_ranking") or []) > 1, (payload, parse.get("intent"))  # NLU, not a payload
    assert not any(str(e.get("value")) in values for e in parse.get("entities") or []), (payload, parse)
    assert not any(e.get("event") == "restart" for e in t["events"]), payload


def offered_payloads_only(t: dict) -> list[str]:
    """User texts starting with '/' that were not a button the bot had just offered (an SMS reply '1')."""
    bad, offered = [], set()
    for e in t["events"]:
        if e.get("event") == "bot":  # the buttons of every message of the bot's last turn
            offered |= {b.get("payload") for b in (e.get("data") or {}).get("buttons") or []}
        elif e.get("event") == "user":
            text = e.get("text") or ""
            if text.startswith("/") and text not in offered:
                bad.append(text)
            offered = set()
    return bad
