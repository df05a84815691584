"""Fuzz the chat API (/chat/api/start, /chat/api/message) in-process against the fake Rasa: hostile text,
JSON of the wrong shape, malformed JSON, wrong content types and methods. Every reply is JSON without
internals and below 500; a refused request changes no record; an accepted one adds only its own lines."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records import schema as S
from web.rasa import clean_user_text

from . import hostile
from .conftest import SENT, Records, assert_no_leak, leak_markers, examples, unchanged_except
from .hostile import Hostile, lone_surrogate_json

pytestmark = pytest.mark.fuzz
SEEDED = examples(4200)
HYPOTHESIS = examples(800)

MAX_TEXT = 500  # web/chat.py
MAX_BODY = 32 * 1024  # create_app MAX_CONTENT_LENGTH


class ChatFuzz:
    def __init__(self, app, fake_rasa):
        self.app = app
        self.c = app.test_client()
        self.rec = Records(app.extensions["records"])
        self.fr = fake_rasa
        self.cid = self.start()
        self.other = self.start()  # a bystander conversation: nothing sent to cid may touch it
        self.other_rows = self.rec.rows(S.transcript, conversation_id=self.other)

    def start(self) -> str:
        r = self.c.post("/chat/api/start")
        assert r.status_code == 200
        return r.get_json()["conversation_id"]

    def offered(self) -> list[dict]:
        return self.app.extensions["records"].offered(self.cid)

    def send(self, body, content_type="application/json", *, expect_ok: bool | None, shown: str | None = None,
             method: str = "POST", path: str = "/chat/api/message", target: str = "chat"):
        """One request; checks the reply and the records. ``expect_ok``: True = must be accepted (200),
        False = must be refused (4xx), None = either. ``shown``: the text the transcript must record."""
        before = self.rec.counts()
        conv_before = self.rec.rows(S.conversations, id=self.cid)
        n_rasa = len(self.fr.received)
        if isinstance(body, (dict, list)) or body is None:
            body = json.dumps(body)
        r = self.c.open(path, method=method, data=body, content_type=content_type)
        SENT[target] += 1
        sent_text = body if isinstance(body, str) else body.decode("utf-8", "replace")
        where = f"{method} {path} {content_type!r} {sent_text[:300]!r} -> {r.status_code} {r.data[:300]!r}"
        assert r.status_code < 500, where
        assert r.mimetype == "application/json", where
        assert_no_leak(r.data, sent_text)
        data = r.get_json()
        after = self.rec.counts()
        if r.status_code == 200:
            assert expect_ok is not False, where
            self.check_accepted(path, data, before, after, n_rasa, shown, where)
        else:
            assert expect_ok is not True, where
            assert 400 <= r.status_code < 500 and isinstance(data.get("error"), str), where
            assert after == before, (where, unchanged_except(before, after))
            assert self.rec.rows(S.conversations, id=self.cid) == conv_before, where
            assert len(self.fr.received) == n_rasa, where  # nothing refused reaches Rasa
        return r

    def check_accepted(self, path, data, before, after, n_rasa, shown, where):
        cid = data["conversation_id"]
        new = self.rec.transcript_after(before["tmax"])
        bot_texts = [m["text"] for m in data["messages"] if m["text"]]
        assert all(row["conversation_id"] == cid and row["channel"] == "web" for row in new), where
        if path.endswith("/start"):
            assert after["conversations"] == before["conversations"] + 1, where
            assert [r["speaker"] for r in new] == ["bot"], where
            assert unchanged_except(before, after, "conversations", "transcript_messages", "tmax") == [], where
            return
        assert cid == self.cid, where
        assert [r["speaker"] for r in new] == ["user"] + ["bot"] * len(bot_texts), where
        assert [r["text"] for r in new[1:]] == bot_texts, where
        if shown is not None:
            assert new[0]["text"] == hostile.as_stored(shown), where
        assert unchanged_except(before, after, "transcript_messages", "tmax") == [], where
        for m in self.fr.messages[n_rasa:]:  # a "/" message reaches Rasa only as a payload the bot offered
            assert not m.startswith("/") or m in [b["payload"] for b in self.offered_before], where
        for m in data["messages"]:
            assert "".join(p["text"] for p in m["parts"]) == m["text"], where
            assert all(set(p) <= {"text", "href"} for p in m["parts"]), where

    offered_before: list = []

    def text(self, raw: str, target: str = "chat"):
        """A text message as the page sends it."""
        self.offered_before = self.offered()
        ok = len(raw) <= MAX_TEXT
        body = json.dumps({"conversation_id": self.cid, "text": raw})
        if len(body.encode()) > MAX_BODY:
            ok = False
        r = self.send(body, expect_ok=ok, shown=raw.strip() if ok else None, target=target)
        if r.status_code == 200 and clean_user_text(raw):
            assert self.fr.messages[-1] == clean_user_text(raw)
        return r

    def finish(self):
        assert self.rec.rows(S.transcript, conversation_id=self.other) == self.other_rows
        after = self.rec.counts()
        for name in ("burn_notifications", "clerk_accounts", "burning_order_history", "inbound_sms",
                     "sms_opt_outs", "unanswered_questions"):
            assert after[name] == 0, name


def test_the_hostile_corpus_holds_no_leak_marker():
    """A leak marker in a reply can then only come from the server (the fake Rasa echoes what it is sent)."""
    for s in hostile.INTENT_PAYLOADS + hostile.HTML + hostile.SQL + hostile.UNICODE + hostile.KEYWORDS + hostile.WORDS:
        assert not leak_markers(s), s


def one_seeded(f: ChatFuzz, h: Hostile, i: int) -> None:
    k = h.r.random()
    cid = f.cid
    if k < 0.45:
        f.text(h.text())
    elif k < 0.50:  # offered buttons: ask for them, press one (accepted once), replay it (refused)
        f.text("show me topics")
        offer = f.offered()
        assert offer
        f.offered_before = offer
        f.send({"conversation_id": cid, "payload": offer[0]["payload"]}, expect_ok=True, shown=offer[0]["title"])
        f.send({"conversation_id": cid, "payload": offer[0]["payload"]}, expect_ok=False)
    elif k < 0.56:  # payloads never offered
        f.send({"conversation_id": cid, "payload": h.choice(hostile.INTENT_PAYLOADS + [h.text()])}, expect_ok=False)
    elif k < 0.62:  # wrong types
        field = h.choice(["text", "conversation_id", "payload"])
        body = {"conversation_id": cid, "text": "hello"}
        body[field] = h.junk_value()
        ok = None if field in ("text", "conversation_id") and isinstance(body[field], str) else False
        if field == "conversation_id" and body[field] != cid:
            ok = False
        if field == "payload":
            ok = False
        f.send(body, expect_ok=ok)
    elif k < 0.66:  # top level of the wrong type
        f.send(json.dumps(h.junk_value() if h.r.random() < 0.7 else [{"conversation_id": cid, "text": "hi"}]),
               expect_ok=False)
    elif k < 0.72:  # malformed JSON
        good = json.dumps({"conversation_id": cid, "text": "hello"})
        cut = h.r.randint(0, len(good) - 1)
        bad = h.choice([good[:cut], good[:cut] + "}", good.replace(":", "=", 1), good.replace('"', "'"),
                        good + ",", "{" + good, good.replace("}", ",}"), "\ufeff" + good[:cut], "{\"a\":NaX}",
                        "[" * 5000 + "]" * 5000, "{\"a\":" * 3000 + "1" + "}" * 3000, "[" * 40 + "]" * 40,
                        "", " ", "null", "\x00", good.replace("hello", "\\x41"), good.replace("hello", "\\u12"),
                        '{"conversation_id": "%s", "text": 1%s}' % (cid, "0" * 5000)])
        f.send(bad, expect_ok=False)
    elif k < 0.76:  # lone surrogates as escapes: decoded to U+FFFD, stored and answered
        raw = '{"conversation_id": "%s", "text": %s}' % (cid, lone_surrogate_json(h.words(2)))
        f.send(raw, expect_ok=True)
    elif k < 0.78:
        raw = '{"conversation_id": %s, "text": "hi"}' % lone_surrogate_json()
        f.send(raw, expect_ok=False)
    elif k < 0.84:  # content types
        body = json.dumps({"conversation_id": cid, "text": h.words(3)})
        ct = h.choice(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz",
                       "application/xml", "", "application/json; charset=utf-16", "application/json; charset=latin-1",
                       "application/problem+json", "application/javascript", "text/json", "*/*", "application/",
                       "application/json\r\nX-Injected: 1"[:16]])
        ok = None if ct.startswith("application/") and "json" in ct else False
        f.send(body, content_type=ct or None, expect_ok=ok)
    elif k < 0.87:  # encodings
        body = json.dumps({"conversation_id": cid, "text": h.words(2)}, ensure_ascii=False)
        enc = h.choice(["utf-16", "utf-32", "latin-1", "bad"])
        raw = body.encode(enc) if enc != "bad" else body.encode()[:20] + b"\xff\xfe\xc3\x28" + body.encode()[20:]
        f.send(raw, expect_ok=None)
    elif k < 0.89:  # too big
        f.send(json.dumps({"conversation_id": cid, "text": "x" * h.choice([MAX_BODY, 40000, 100000])}),
               expect_ok=False)
    elif k < 0.91:  # other conversations
        f.send({"conversation_id": h.choice(["", "x", "made-up", cid + "x", cid.upper(), "' OR 1=1 --", "../" + cid,
                                             cid + "\x00", "x" * 81, f.other[:-1]]), "text": "hi"},
               expect_ok=False)
    elif k < 0.94:  # methods
        method = h.choice(["GET", "PUT", "DELETE", "PATCH"])
        f.send({"conversation_id": cid, "text": "hi"}, method=method, expect_ok=False,
               path=h.choice(["/chat/api/message", "/chat/api/start"]))
    elif k < 0.96:  # start with junk bodies: the body is ignored
        f.send(h.choice(["junk", "[" * 5000, json.dumps(h.junk_value())]), path="/chat/api/start", expect_ok=True,
               content_type=h.choice(["application/json", "text/plain", None]), target="chat")
    else:  # extra keys alongside a valid message
        body = {"conversation_id": cid, "text": h.words(2), "sender": "someone-else", "metadata": {"town": "mequon"},
                "message": "/restart", h.text()[:20]: h.junk_value()}
        r = f.send(body, expect_ok=True, shown=body["text"])
        sent = f.fr.received[-1]
        assert sent["sender"] == cid and sent["metadata"] == {"channel": "web", "town": "dunkirk"}
        assert r.status_code == 200


def test_chat_api_fuzz_seeded(fuzz_app, fake_rasa):
    f = ChatFuzz(fuzz_app, fake_rasa)
    h = Hostile(seed=20261130)
    start = SENT["chat"]
    i = 0
    while SENT["chat"] - start < SEEDED:
        one_seeded(f, h, i)
        i += 1
    f.finish()


def test_chat_api_fuzz_hypothesis(fuzz_app, fake_rasa):
    f = ChatFuzz(fuzz_app, fake_rasa)
    start = SENT["chat-hypothesis"]

    @settings(max_examples=HYPOTHESIS // 2, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(hostile.hostile_text)
    def texts(raw):
        f.text(raw, target="chat-hypothesis")

    @settings(max_examples=HYPOTHESIS // 2, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(hostile.json_values,
                     st.fixed_dictionaries({"conversation_id": st.just(f.cid)},
                                           optional={"text": hostile.json_values, "payload": hostile.json_values})))
    def shapes(obj):
        ok = None
        if not (isinstance(obj, dict) and obj.get("conversation_id") == f.cid):
            ok = False
        f.send(json.dumps(obj), expect_ok=ok, target="chat-hypothesis")

    texts()
    shapes()
    f.finish()
    # hypothesis may stop early when it has tried everything a strategy can give; these cannot
    assert SENT["chat-hypothesis"] - start >= HYPOTHESIS
