"""Fuzz the Twilio SMS webhook (/sms) in-process against the fake Rasa: validly signed messages with hostile
bodies, senders and MessageSids; replays; bad, missing and misdirected signatures; malformed and oversized
form bodies; wrong content types and methods. Every reply is below 500 and without internals; a 200 is
well-formed TwiML holding at most one GSM-7 message of at most 320 septets; a refused request changes no
record; an accepted one adds exactly one inbound row for its MessageSid and transcript lines only for its
own sender's conversation."""

from __future__ import annotations

import json
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from werkzeug.test import EnvironBuilder

from records import schema as S
from web.rasa import clean_user_text
from web.text import gsm7_length, is_gsm7

from . import hostile
from .conftest import (PUBLIC, SENT, TOKEN, Records, assert_no_leak, examples, leak_markers, sign,
                       unchanged_except)
from .hostile import Hostile

pytestmark = pytest.mark.fuzz
SEEDED = examples(4200)
HYPOTHESIS = examples(800)
MAX_BODY = 32 * 1024
PHONES = ["+16085550100", "+16085550101", "+16085550102", "+442071838750"]


def unavailable(text: str | None) -> bool:
    return bool(text) and "can't answer right now" in text



def webhook_takes(form: dict) -> bool:
    """What web/sms.py inbound() accepts: a MessageSid of at most 64 characters, a From, From and To of at most
    40 characters (a phone number, or a channel address such as whatsapp:+1...), and no NUL in any of them."""
    sid, from_, to = form.get("MessageSid", ""), form.get("From", ""), form.get("To", "")
    return (bool(sid) and bool(from_) and len(sid) <= 64 and len(from_) <= 40 and len(to) <= 40
            and "\x00" not in sid + from_ + to)

class SmsFuzz:
    def __init__(self, app, fake_rasa, prefix: str = "SMfz"):
        self.prefix = prefix
        self.app = app
        self.c = app.test_client()
        self.store = app.extensions["records"]
        self.rec = Records(self.store)
        self.fr = fake_rasa
        self.n = 0
        self.accepted: dict[str, tuple[dict, str | None]] = {}  # sid -> (params, reply)
        self.input_markers: set[str] = set()  # a MORE page may quote an earlier message
        self.inbound_at_start = self.rec.counts()["inbound_sms"]

    def sid(self) -> str:
        self.n += 1
        return f"{self.prefix}{self.n:030d}"

    def offered(self, phone: str) -> list[dict]:
        rows = self.rec.rows(S.conversations, id=self.sender(phone)) if phone else []
        return json.loads(rows[0]["offered"]) if rows else []

    def sender(self, phone: str) -> str:
        from web.sms import sender_id
        with self.app.app_context():
            return sender_id(phone)

    def post(self, data, *, signature: str | None, expect: str | None, content_type=None, path="/sms",
             method="POST", form: dict | None = None, target="sms"):
        """``expect``: "ok" (a new message), "replay" (a known MessageSid), "refused" (4xx) or None (any of
        them). ``form``: the fields the server will parse (defaults to ``data``)."""
        form = dict(form if form is not None else (data if isinstance(data, dict) else {}))
        before = self.rec.counts()
        n_rasa = len(self.fr.received)
        sid = form.get("MessageSid", "")
        from_ = form.get("From", "")
        phone_state = self.rec.rows(S.sms_opt_outs)
        offered_before = self.offered(from_)
        headers = {} if signature is None else {"X-Twilio-Signature": signature}
        r = self.c.open(path, method=method, data=data, headers=headers, content_type=content_type)
        SENT[target] += 1
        raw = data if isinstance(data, (str, bytes)) else urllib.parse.urlencode(list(MultiDict(data).items(multi=True)))
        raw = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        self.input_markers |= leak_markers(" ".join(str(v) for v in form.values()) + " " + raw)
        where = f"{method} {path} sig={signature!r:.40} form={str(form)[:300]} -> {r.status_code} {r.data[:300]!r}"
        assert r.status_code < 500, where
        assert_no_leak(r.data, self.input_markers)
        after = self.rec.counts()
        if r.status_code != 200:
            assert expect in (None, "refused"), where
            assert 400 <= r.status_code < 500, where
            assert r.mimetype == "application/json" and isinstance(r.get_json().get("error"), str), where
            assert after == before, (where, unchanged_except(before, after))
            assert len(self.fr.received) == n_rasa, where
            return r, None
        assert expect in (None, "ok", "replay"), where
        assert r.mimetype == "application/xml", where
        root = ET.fromstring(r.data)  # well-formed TwiML (raises otherwise)
        assert root.tag == "Response" and [e.tag for e in root] in ([], ["Message"]), where
        text = root[0].text if len(root) else None
        if text is not None:
            assert is_gsm7(text) and gsm7_length(text) <= 320, where
        if sid in self.accepted:  # a retry: the first reply, nothing new stored, nothing sent to Rasa
            assert expect in (None, "replay"), where
            assert text == self.accepted[sid][1], where
            assert after == before and len(self.fr.received) == n_rasa, where
            return r, text
        assert expect in (None, "ok"), where
        self.accepted[sid] = (form, text)
        assert after["inbound_sms"] == before["inbound_sms"] + 1, where
        [row] = self.rec.rows(S.inbound_sms, message_sid=sid)
        assert (row["from_number"], row["to_number"], row["body"]) == (from_, form.get("To", ""),
                                                                        hostile.as_stored(form.get("Body", ""))), where
        assert xml_text(row["reply"] or None) == text, where
        cid = self.sender(from_)
        new = self.rec.transcript_after(before["tmax"])
        assert all(m["conversation_id"] == cid and m["channel"] == "sms" for m in new), where
        assert after["conversations"] - before["conversations"] in (0, 1), where
        if after["conversations"] != before["conversations"]:
            assert self.rec.rows(S.conversations, id=cid), where
        changed = [p for p in self.rec.rows(S.sms_opt_outs) if p not in phone_state]
        assert all(p["phone"] == from_ for p in changed), where
        assert unchanged_except(before, after, "inbound_sms", "smax", "transcript_messages", "tmax",
                                "conversations", "sms_opt_outs") == [], where
        for m in self.fr.messages[n_rasa:]:  # "/" reaches Rasa only as a payload the bot offered
            assert not m.startswith("/") or m in [b["payload"] for b in offered_before], where
        body = form.get("Body", "")
        if unavailable(text):  # the fake Rasa is up: only its own "down" cases
            assert any(w in clean_user_text(body).lower() for w in ("slow", "nothing")), where
        return r, text

    def signed(self, form: dict, expect: str | None = "auto", **kw):
        """A validly signed form POST; the body is encoded here, so its size (and so a 413) is known."""
        raw = urllib.parse.urlencode(form)
        if expect == "auto":
            if len(raw) > MAX_BODY:
                expect = "refused"
            elif not webhook_takes(form):
                expect = "refused"
            elif form["MessageSid"] in self.accepted:
                expect = "replay"
            else:
                expect = "ok"
        return self.post(raw, signature=sign("/sms", form), expect=expect, form=form,
                         content_type="application/x-www-form-urlencoded", **kw)

    def finish(self):
        after = self.rec.counts()
        for name in ("burn_notifications", "clerk_accounts", "burning_order_history", "unanswered_questions"):
            assert after[name] == 0, name
        assert after["inbound_sms"] - self.inbound_at_start == len(self.accepted)


def xml_text(text: str | None) -> str | None:
    """What an XML parser reads back for ``text`` (XML normalizes line ends to \\n)."""
    return None if text is None else text.replace("\r\n", "\n").replace("\r", "\n")


def parsed_form(raw: bytes, content_type: str) -> dict:
    """The fields Werkzeug will parse from a raw body (what the signature must cover)."""
    req = EnvironBuilder(method="POST", data=raw, content_type=content_type).get_request()
    return req.form.to_dict(flat=True)


def one_seeded(f: SmsFuzz, h: Hostile) -> None:
    k = h.r.random()
    phone = h.choice(PHONES)
    if k < 0.40:
        f.signed({"From": phone, "To": "+16085550199", "Body": h.text(), "MessageSid": f.sid()})
    elif k < 0.50:
        f.signed({"From": phone, "To": "+16085550199", "Body": h.choice(hostile.KEYWORDS + ["show me topics",
                                                                                          "something long"]),
                  "MessageSid": f.sid()})
    elif k < 0.58:  # hostile sender, recipient, MessageSid, extra fields
        form = {"From": phone, "To": "+16085550199", "Body": h.words(3), "MessageSid": f.sid()}
        field = h.choice(["From", "To", "MessageSid", "AccountSid", "NumMedia", "MediaUrl0", "Body"])
        form[field] = h.choice([h.text()[:70], "", " ", "\x00", "x" * 65, "x" * 64, "' OR 1=1 --",
                                "whatsapp:+16085550100", "+1" + "9" * 38, "\u202e" + phone])
        if field == "MessageSid" and form[field] in f.accepted:
            form[field] += "x"
        if h.r.random() < 0.3:
            del form[h.choice(list(form))]
        f.signed(form)
    elif k < 0.63:  # retries of a known MessageSid (same or different content, freshly signed)
        if f.accepted:
            sid = h.choice(sorted(f.accepted))
            form = dict(f.accepted[sid][0])
            if h.r.random() < 0.5:
                form["Body"] = h.text()[:200]
                form["From"] = h.choice(PHONES)
            f.signed(form, expect="replay")
    elif k < 0.78:  # bad signatures: refused, nothing stored
        form = {"From": phone, "To": "+16085550199", "Body": h.text()[:300], "MessageSid": f.sid()}
        good = sign("/sms", form)
        kind = h.r.randint(0, 9)
        if kind == 0:
            sig = None
        elif kind == 1:
            sig = ""
        elif kind == 2:
            sig = sign("/sms", form, token="wrong-token")
        elif kind == 3:
            sig = good
            form = {**form, "Body": form["Body"] + "!"}
        elif kind == 4:
            sig = h.r.choice([good[:-2], good + "=", good.lower(), " " + good, good + " ", "x" * 5000, "%%%",
                              "\x00", "Zm9v", good * 2])
        elif kind == 5:
            sig = RequestValidatorSig("http://assistant.example.gov/sms", form)
        elif kind == 6:
            sig = RequestValidatorSig(PUBLIC + "/sms?x=1", form)
        elif kind == 7:
            sig = RequestValidatorSig(PUBLIC + "/other", form)
        elif kind == 8:  # signed without one field, sent with it
            part = {k_: v for k_, v in form.items() if k_ != "To"}
            sig = sign("/sms", part)
        else:  # signed for another sender
            sig = sign("/sms", {**form, "From": "+19995550100"})
        if sig is not None:
            try:
                sig.encode("latin-1")
            except UnicodeEncodeError:
                sig = "bad"
        f.post(form, signature=sig, expect="refused")
    elif k < 0.86:  # malformed form bodies, signed over what the server will parse
        sid = f.sid()
        raw = h.choice([
            f"From=%2B16085550100&To=%2B1&Body=%ZZ%&MessageSid={sid}",
            f"From=%2B16085550100&From=%2B19995550100&Body=dup&MessageSid={sid}&MessageSid={sid}x",
            f"From=%2B16085550100&Body=a%00b%0d%0a&MessageSid={sid}&&&=&==",
            f"From=%2B16085550100;Body=semicolon;MessageSid={sid}",
            f"From=%2B16085550100&Body=%E2%82&MessageSid={sid}",  # truncated UTF-8
            f"From=%2B16085550100&Body=%ED%A0%80&MessageSid={sid}",  # an encoded surrogate
            f"From=%2B16085550100&Body=%C0%AF%2Frestart&MessageSid={sid}",  # overlong "/"
            f"From&Body&MessageSid={sid}", f"=&=&MessageSid={sid}", "", "&", "%", "Body=" + "%41" * 200,
            f"From=%2B16085550100&Body={'x' * 100}&MessageSid={sid}&" + "&".join(f"k{i}=v" for i in range(500)),
        ]).encode()
        if h.r.random() < 0.3:
            raw = raw.replace(b"Body=", b"Body=\xff\xfe\x80")
        ct = "application/x-www-form-urlencoded"
        form = parsed_form(raw, ct)
        ok = webhook_takes(form)
        expect = ("replay" if form.get("MessageSid") in f.accepted else "ok") if ok else "refused"
        f.post(raw, signature=sign("/sms", form), expect=expect, content_type=ct, form=form)
    elif k < 0.91:  # other content types
        form = {"From": phone, "To": "+1", "Body": h.words(3), "MessageSid": f.sid()}
        ct = h.choice(["application/json", "text/plain", "application/xml", "multipart/form-data"])
        if ct == "multipart/form-data":  # Werkzeug parses it like a form: accepted
            f.post(form, signature=sign("/sms", form), expect="ok", content_type="multipart/form-data")
            return
        raw = urllib.parse.urlencode(form) if h.r.random() < 0.5 else hostile.dumps(form)
        f.post(raw, signature=sign("/sms", form), expect="refused", content_type=ct, form={})
    elif k < 0.95:  # too big
        form = {"From": phone, "To": "+1", "Body": h.choice(["x", "\u00e9", "\U0001f525"]) * 40000,
                "MessageSid": f.sid()}
        f.signed(form, expect="refused")
    else:  # methods and paths
        form = {"From": phone, "To": "+1", "Body": "hi", "MessageSid": f.sid()}
        method = h.choice(["GET", "PUT", "DELETE", "PATCH"])
        f.post(form, signature=sign("/sms", form), expect="refused", method=method)


def RequestValidatorSig(url, params):  # noqa: N802
    from twilio.request_validator import RequestValidator
    return RequestValidator(TOKEN).compute_signature(url, params)


def test_sms_webhook_fuzz_seeded(fuzz_app, fake_rasa):
    f = SmsFuzz(fuzz_app, fake_rasa)
    h = Hostile(seed=26110)
    start = SENT["sms"]
    while SENT["sms"] - start < SEEDED:
        one_seeded(f, h)
    f.finish()


def test_sms_webhook_fuzz_hypothesis(fuzz_app, fake_rasa):
    f = SmsFuzz(fuzz_app, fake_rasa, prefix="SMhy")
    start = SENT["sms-hypothesis"]
    cfg = dict(max_examples=HYPOTHESIS // 2, derandomize=True, database=None, deadline=None,
               suppress_health_check=list(HealthCheck))

    @settings(**cfg)
    @given(body=hostile.hostile_text, phone=st.sampled_from(PHONES))
    def bodies(body, phone):
        f.signed({"From": phone, "To": "+16085550199", "Body": body, "MessageSid": f.sid()},
                 target="sms-hypothesis")

    @settings(**cfg)
    @given(st.dictionaries(st.sampled_from(["From", "To", "Body", "MessageSid", "AccountSid", "X"]),
                           st.text(st.characters(codec="utf-8"), max_size=70), max_size=6),
           st.booleans())
    def forms(form, good_signature):
        if form.get("MessageSid") in f.accepted:
            form["MessageSid"] = f.sid()
        if good_signature:
            f.signed(form, target="sms-hypothesis")
        else:
            f.post(form, signature=sign("/sms", form, token="not-the-token"), expect="refused",
                   target="sms-hypothesis")

    bodies()
    forms()
    f.finish()
    assert SENT["sms-hypothesis"] - start >= HYPOTHESIS


@pytest.mark.parametrize("body", ["\u00b2", "\u2460", "9" * 5000], ids=["superscript", "circled", "5000-digits"])
def test_sms_digit_like_bodies_are_answered(fuzz_app, fake_rasa, body):
    f = SmsFuzz(fuzz_app, fake_rasa, prefix="SMxf")
    _, text = f.signed({"From": "+16085550177", "To": "+1", "Body": body, "MessageSid": f.sid() + f"d{ord(body[0]):x}{len(body)}"})
    assert not unavailable(text)
