"""The simulated residents: closed-loop conversations on the web chat API and by SMS (signed like Twilio), with
their scripts; each turn's latency and every error go into a Result."""
from __future__ import annotations

import asyncio
import html
import itertools
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from twilio.request_validator import RequestValidator

FALLBACKS = ("not answering right now", "can't answer right now")

SINGLE = [
    ["how much is a dog license", "can i burn brush tonight", "how many dogs can I have"],
    ["my dog bit someone on March 3, how long is quarantine", "is there a leash law", "thanks"],
    ["can i burn brush tonight", "is there a burn ban", "can i burn tires", "what time can i burn"],
    ["how many dogs can I have", "neighbors dog barks all night", "what does 7.02-6 say"],
    ["my cat was exposed to a rabid raccoon", "do i have to pick up after my dog", "can i keep chickens"],
]
LICENSE_FORM = ["how much is my dog license", "2", "both are neutered", "no", "over a year ago", "today"]
BURN_FORM = ["I want to notify the fire department of a burn", "Pat Olson", "N1234 County Road K",
             "608-555-0142", "tomorrow", "10 am", "behind the barn, 100 feet from the house", "yes"]
SCRIPTS = {"web": [*SINGLE, LICENSE_FORM], "sms": [*SINGLE[:3], BURN_FORM, LICENSE_FORM]}
SMS_SHARE = 1 / 3


@dataclass
class Result:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"web": [], "sms": []})
    errors: Counter = field(default_factory=Counter)
    starts: int = 0
    conversations: int = 0
    examples: dict[str, str] = field(default_factory=dict)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        self.examples.setdefault(kind, detail[:300])

    @property
    def all_latencies(self) -> list[float]:
        return self.latencies["web"] + self.latencies["sms"]


class Client:
    def __init__(self, session: aiohttp.ClientSession, web: str, twilio_token: str, public_url: str,
                 timeout: float):
        self.session, self.web = session, web.rstrip("/")
        self.validator = RequestValidator(twilio_token)
        self.sms_url = public_url.rstrip("/") + "/sms"
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.numbers = itertools.count(random.SystemRandom().randrange(10**6))

    async def _post(self, res: Result, what: str, path: str, **kw) -> str | None:
        try:
            async with self.session.post(self.web + path, timeout=self.timeout, **kw) as resp:
                body = await resp.text()
                if not 200 <= resp.status < 300:
                    res.error(f"http {resp.status}", f"{what}: {body}")
                    return None
                return body
        except asyncio.TimeoutError:
            res.error("timeout", what)
        except (aiohttp.ClientError, OSError) as exc:
            res.error("connection", f"{what}: {exc!r}")
        return None

    def _fallback(self, res: Result, what: str, text: str) -> bool:
        low = html.unescape(text).lower()
        if any(f in low for f in FALLBACKS):
            res.error("fallback reply", what)
            return True
        return False

    async def web_conversation(self, res: Result, script: list[str], deadline: float, think: float,
                               record: bool = True) -> None:
        body = await self._post(res, "start", "/chat/api/start")
        res.starts += 1
        if body is None:
            return
        cid = json.loads(body)["conversation_id"]
        for text in script:
            if time.monotonic() >= deadline:
                return
            t0 = time.perf_counter()
            body = await self._post(res, f"web {text!r}", "/chat/api/message",
                                    json={"conversation_id": cid, "text": text})
            elapsed = time.perf_counter() - t0
            if body is not None:
                replies = " ".join(m.get("text", "") for m in json.loads(body).get("messages", []))
                self._fallback(res, f"web {text!r}", replies)
                if record:
                    res.latencies["web"].append(elapsed)
            if think:
                await asyncio.sleep(think)

    async def sms_conversation(self, res: Result, script: list[str], deadline: float, think: float,
                               record: bool = True) -> None:
        phone = f"+1608{next(self.numbers) % 10**7:07d}"
        for text in script:
            if time.monotonic() >= deadline:
                return
            params = {"From": phone, "To": "+16085550199", "Body": text, "MessageSid": "SM" + uuid.uuid4().hex}
            headers = {"X-Twilio-Signature": self.validator.compute_signature(self.sms_url, params)}
            t0 = time.perf_counter()
            body = await self._post(res, f"sms {text!r}", "/sms", data=params, headers=headers)
            elapsed = time.perf_counter() - t0
            if body is not None:
                self._fallback(res, f"sms {text!r}", body)
                if record:
                    res.latencies["sms"].append(elapsed)
            if think:
                await asyncio.sleep(think)


async def resident(client: Client, res: Result, seed: int, deadline: float, think: float) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        channel = "sms" if rng.random() < SMS_SHARE else "web"
        script = rng.choice(SCRIPTS[channel])
        res.conversations += 1
        if channel == "web":
            await client.web_conversation(res, script, deadline, think)
        else:
            await client.sms_conversation(res, script, deadline, think)


async def run_level(web: str, concurrency: int, duration: float, think: float, timeout: float,
                    twilio_token: str, public_url: str, seed: int = 0) -> tuple[Result, float]:
    res = Result()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        client = Client(session, web, twilio_token, public_url, timeout)
        t0 = time.monotonic()
        deadline = t0 + duration
        await asyncio.gather(*(resident(client, res, seed * 1000 + i, deadline, think)
                               for i in range(concurrency)))
        return res, time.monotonic() - t0


async def warm_up(web: str, twilio_token: str, public_url: str, timeout: float) -> Result:
    """Every script once, one message at a time (not measured): loads whatever Rasa loads lazily and shows at
    once if a script gets the fallback reply."""
    res = Result()
    async with aiohttp.ClientSession() as session:
        client = Client(session, web, twilio_token, public_url, timeout)
        far = time.monotonic() + 3600
        for script in SCRIPTS["web"]:
            await client.web_conversation(res, script, far, 0, record=False)
        for script in SCRIPTS["sms"]:
            await client.sms_conversation(res, script, far, 0, record=False)
    return res
