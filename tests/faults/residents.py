"""Simulated residents texting the SMS webhook the way Twilio delivers their messages.

Twilio side: every message is signed; on a connection error, a timeout or a 5xx the same MessageSid is posted
again (a few times, with a pause), as Twilio retries an undelivered webhook. Resident side: the answers follow
the bot's last question (like tests/web/test_e2e.py); when the reply is the "can't answer right now" fallback,
the resident waits a while (5-20 s, at random: a person does not resend within the second) and sends the same
answer again as a new message (new MessageSid); when the bot lost track (an unexpected reply), the resident
starts the notification again. Before answering "yes" to the read-back the resident checks every fact against
what they meant and names the first wrong one ("change the time"), so a notification is confirmed only with
the right facts.
"""

from __future__ import annotations

import html
import http.client
import itertools
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from twilio.request_validator import RequestValidator

from tests.support.stack import PUBLIC_URL, TWILIO_TOKEN

START = "I want to notify the fire department of a burn"
FALLBACK = "can't answer right now"
REFERENCE = re.compile(r"reference is ([A-Z]{2}-[2-9A-Z]{5})")
NOT_SAVED = "has NOT been notified"
READBACK = re.compile(r"Please check: name (?P<name>.*?); address (?P<address>.*?); phone (?P<phone>.*?); "
                      r"burning on (?P<day>.*?) at about (?P<time>.*?); location: (?P<location>.*?)\. "
                      r"Is that all correct\?", re.S)
#: what every resident means by "tomorrow at 10 am" (tests/faults/conftest.NOW is Tuesday, December 1, 2026)
BURN_DAY_WORDS, BURN_DAY_ISO, BURN_TIME_WORDS = "Wednesday, December 2, 2026", "2026-12-02", "10:00 a.m. CST"
#: the read-back's fields, in order, with the words a resident uses to say which one is wrong
FIELDS = [("name", "name"), ("address", "address"), ("phone", "phone"), ("day", "date"), ("time", "time"),
          ("location", "location")]

FIRST = ["Pat", "Alex", "Jordan", "Casey", "Morgan", "Riley", "Jamie", "Taylor", "Avery", "Quinn", "Robin",
         "Dana", "Kelly", "Lee", "Terry", "Chris", "Sam", "Jesse", "Drew", "Shawn", "Cameron", "Devon", "Emery",
         "Frankie", "Harper", "Jody", "Kerry", "Logan", "Marion", "Noel", "Parker", "Reese", "Sidney"]
LAST = ["Olson", "Larson", "Hanson", "Schultz", "Meyer", "Kowalski", "Nelson", "Peterson", "Johnson", "Anderson",
        "Lindqvist", "Brandt", "Vogel", "Krueger", "Schmidt", "Wagner", "Becker", "Hoffman", "Lehmann", "Novak",
        "Dahl", "Berg", "Strand", "Moe", "Haugen", "Thompson", "Miller", "Fischer", "Weber", "Zimmerman",
        "Koch", "Richter", "Klein", "Wolf"]


def identity(i: int) -> tuple[str, str, str]:
    """(name, phone as typed, From number) of the i-th resident: all distinct for i < 1100."""
    first, last = FIRST[i % len(FIRST)], LAST[(i // len(FIRST)) % len(LAST)]
    number = f"608-{200 + i // 10000:03d}-{i % 10000:04d}"
    return f"{first} {last}", number, "+1" + number.replace("-", "")


def sms_request(web: str, from_: str, body: str, sid: str, timeout: float) -> tuple[int, str]:
    params = {"From": from_, "To": "+16085550100", "Body": body, "MessageSid": sid}
    sig = RequestValidator(TWILIO_TOKEN).compute_signature(PUBLIC_URL + "/sms", params)
    req = urllib.request.Request(web + "/sms", data=urllib.parse.urlencode(params).encode(), method="POST",
                                 headers={"X-Twilio-Signature": sig,
                                          "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            xml = r.read().decode()
            status = r.status
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    m = re.search(r"<Message>(.*?)</Message>", xml, re.S)
    return status, html.unescape(m.group(1)) if m else ""


@dataclass
class Ledger:
    """What the residents saw, shared by all threads."""
    acked: dict = field(default_factory=dict)        # MessageSid -> (From, Body) of every 200 answer
    refused: list = field(default_factory=list)      # (sid, status) of 5xx answers
    unreachable: int = 0                             # attempts that got no HTTP answer at all
    twilio_retries: int = 0
    resends: int = 0                                 # fallback replies the resident answered by sending again
    restarts: int = 0                                # conversations started over
    corrections: int = 0                             # read-backs with a wrong fact, corrected before "yes"
    references: dict = field(default_factory=dict)   # resident index -> (reference, intended facts)
    slowest: float = 0.0                             # the longest single webhook answer (s)
    failures: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _sids: itertools.count = field(default_factory=itertools.count)

    def new_sid(self) -> str:
        return f"SM{next(self._sids):032x}"


def asks_something(line: str) -> bool:
    """Does the bot's last line ask the resident for something? A question ("What day will you burn? (Or say
    'cancel' ...)") or a request ("Please give a 10-digit number ..."). Not the form's introduction alone ("I need
    six facts: name, address, phone, ...") or the help text (which names a phone number): a reply without a
    question means the bot lost the form (an action server killed as the form started), and the resident
    starts again."""
    plain = re.sub(r"\([^()]*\)", "", line).strip()
    return plain.endswith("?") or bool(re.search(r"\bPlease (give|tell)\b|^What should I change", plain))


def digits(phone: str) -> str:
    return re.sub(r"\D", "", phone or "")[-10:]


class Resident:
    ANSWERS = [  # (what the bot's last line asks about, what to text back), first match wins
        (r"correct\?", lambda r: r.check_readback()),
        (r"What should I change", lambda r: "change the name"),  # an answer taken for "no": go through it again
        (r"phone", lambda r: r.phone),
        (r"address", lambda r: r.address),
        (r"what time|\btime\b", lambda r: "10 am"),
        (r"which day|what day|what date|\bdate\b|when will|\bday\b", lambda r: "tomorrow at 10 am"),
        (r"where|location", lambda r: r.location),
        (r"\bname\b", lambda r: "My name is " + r.name),
    ]

    def __init__(self, web: str, index: int, ledger: Ledger, twilio_attempts: int = 6, timeout: float = 20.0,
                 patience: float = 600.0, fallback_wait: tuple[float, float] = (5.0, 20.0), seed: int = 0):
        self.web, self.index, self.ledger = web, index, ledger
        self.name, self.phone, self.from_ = identity(index)
        self.address = f"N{1000 + index} County Road K"
        self.location = f"the back field behind barn {index}"
        self.twilio_attempts, self.timeout, self.patience = twilio_attempts, timeout, patience
        self.fallback_wait = fallback_wait
        self.rnd = random.Random(seed * 100003 + index)
        self.transcript: list[str] = []
        self.reply = ""  # the whole last reply (all its pages), for the read-back check

    def facts(self) -> dict:
        """What this resident means to notify, as the store keeps it."""
        return {"name": self.name, "phone": digits(self.phone), "address": self.address,
                "burn_date": BURN_DAY_ISO, "approx_time": BURN_TIME_WORDS, "location": self.location}

    def check_readback(self) -> str | None:
        """'yes' if the read-back says exactly what the resident means; otherwise which fact is wrong."""
        m = READBACK.search(self.reply)
        if not m:
            return None  # nothing to check ("Is everything correct?"): never confirm blind; start again
        want = {"name": self.name, "address": self.address, "phone": digits(self.phone), "day": BURN_DAY_WORDS,
                "time": BURN_TIME_WORDS, "location": self.location}
        got = {k: " ".join(m.group(k).split()) for k in want}
        got["phone"] = digits(got["phone"])
        for key, word in FIELDS:
            if got[key] != want[key]:
                with self.ledger.lock:
                    self.ledger.corrections += 1
                self.transcript.append(f"  (read-back {key} is {got[key]!r}, meant {want[key]!r})")
                return f"change the {word}"
        return "yes"

    def web_url(self) -> str:
        return self.web() if callable(self.web) else self.web

    def deliver(self, body: str) -> str | None:
        """One message as Twilio delivers it: the same MessageSid until an HTTP 200 (None: never delivered)."""
        sid = self.ledger.new_sid()
        for attempt in range(self.twilio_attempts):
            if attempt:
                with self.ledger.lock:
                    self.ledger.twilio_retries += 1
                time.sleep(min(2.0 * attempt, 6.0))
            t0 = time.monotonic()
            try:
                status, reply = sms_request(self.web_url(), self.from_, body, sid, self.timeout)
            except (urllib.error.URLError, OSError, TimeoutError, http.client.HTTPException):
                # no answer, or one cut off when the web process was killed mid-reply (IncompleteRead): for
                # Twilio a failed attempt, retried with the same MessageSid
                with self.ledger.lock:
                    self.ledger.unreachable += 1
                continue
            took = time.monotonic() - t0
            with self.ledger.lock:
                self.ledger.slowest = max(self.ledger.slowest, took)
                if status == 200:
                    self.ledger.acked[sid] = (self.from_, body)
                else:
                    self.ledger.refused.append((sid, status))
            if status == 200:
                return reply
        return None

    def say(self, body: str) -> str:
        """A resident's message: sent again as a new message while the assistant answers with the fallback."""
        give_up = time.monotonic() + self.patience
        while True:
            reply = self.deliver(body)
            if reply is not None and FALLBACK not in reply:
                self.transcript.append(f"> {body}\n< {reply}")
                self.reply = reply
                return reply
            self.transcript.append(f"> {body}\n< {reply!r} (will send again)")
            if time.monotonic() > give_up:
                raise RuntimeError(f"resident {self.index}: no answer to {body!r} for {self.patience} s:\n"
                                   + "\n".join(self.transcript[-8:]))
            with self.ledger.lock:
                self.ledger.resends += 1
            time.sleep(self.rnd.uniform(*self.fallback_wait))  # a person waits a while before trying again

    def notify(self, max_turns: int = 40) -> str:
        """A whole burn notification; returns the reference the resident was given."""
        reply = self.say(START)
        mores = 0
        for _ in range(max_turns):
            m = REFERENCE.search(reply)
            if m:
                with self.ledger.lock:
                    self.ledger.references[self.index] = (m.group(1), self.facts())
                return m.group(1)
            if reply.rstrip(".").endswith("Reply MORE for the rest") and mores < 3:
                mores += 1
                before = self.reply
                reply = self.say("more")
                self.reply = before.rstrip(".").removesuffix("Reply MORE for the rest").rstrip() + " " + reply
                continue
            if mores >= 3:  # pages of something else (help text): the bot lost the notification
                mores = 0
                with self.ledger.lock:
                    self.ledger.restarts += 1
                reply = self.say(START)
                continue
            mores = 0
            lines = reply.split("Reply 1 for")[0].strip().splitlines()
            last = lines[-1] if lines else ""
            answer = None
            if asks_something(last):  # a resident answers a question, not the words of any other text
                answer = next((a(self) for pat, a in self.ANSWERS if re.search(pat, last, re.I)), None)
            if answer is None or NOT_SAVED in reply:  # the bot lost track (or could not save): start again
                with self.ledger.lock:
                    self.ledger.restarts += 1
                reply = self.say(START)
                continue
            reply = self.say(answer)
        raise RuntimeError(f"resident {self.index}: no reference after {max_turns} turns:\n"
                           + "\n".join(self.transcript[-12:]))
