"""What the assistant offers before any question (issue #23): the web greeting, its starter buttons, the chat
page's examples, the SMS HELP reply and the "not answering right now" texts, from knowledge/offer.yml and what
the town's code covers. A town whose code has no burning rules (Mequon) is offered no burning answers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .loader import read_yaml
from .model import Town

OFFER = Path(__file__).with_name("offer.yml")


@lru_cache(maxsize=None)
def _data() -> dict:
    return read_yaml(OFFER)


def _covered(town: Town, kind: str) -> list[dict]:
    """The entries of ``kind`` whose topic the town's code covers, in the file's order; an entry with
    ``before: notify`` only where a burn is notified (town.yml `burning.before`), not where a permit is needed."""
    before = getattr(town.burning_scheme, "before", None)
    return [e for e in _data()[kind] if e["topic"] in town.topics and town.topics[e["topic"]].covered
            and e.get("before", before) == before]


def _joined(words: list[str], last: str) -> str:
    """ "a", "a and b", "a, b or c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} {words[-1]}"


@dataclass(frozen=True)
class Starter:
    title: str
    ask: str  # sent as the resident's own words, never as an intent


def starters(town: Town, limit: int = 4) -> list[Starter]:
    """The greeting's buttons: the first ``limit`` starters whose topic the town covers."""
    return [Starter(e["title"], e["ask"]) for e in _covered(town, "starters")][:limit]


def examples(town: Town, limit: int = 3) -> list[str]:
    """Questions the chat page gives as examples, each on a topic the town covers."""
    return [e["ask"] for e in _covered(town, "examples")][:limit]


def subjects(town: Town) -> str:
    """ "animal and open-burning" (Dunkirk), "animal" (Mequon): what the town's ordinances we answer are about."""
    return _joined([e["words"] for e in _covered(town, "subjects")], "and")


def greeting(town: Town) -> str:
    """The web chat's first message."""
    services = "".join(f", and {e['words']}" for e in _covered(town, "services"))
    return _data()["greeting"].format(name=town.name, subjects=subjects(town), services=services)


def sms_help(town: Town, clerk: str, fire: str) -> str:
    """The SMS HELP reply: what to ask about, the clerk, the services the town's code has (``fire``: the office
    a burn is notified to)."""
    words = [w for e in _covered(town, "subjects") for w in e["sms"]]
    services = "".join(" " + e["sms"].format(fire=fire) for e in _covered(town, "services"))
    return _data()["sms_help"].format(short_name=town.short_name, subjects=_joined(words, "or"), clerk=clerk,
                                      services=services)


def unavailable(town: Town | None, fire: str) -> str:
    """What the "not answering right now" texts add for the services the town has ("To notify a burn, contact
    ..."); every service's words when the town did not load (the safe side: never hide a way to give notice)."""
    entries = _data()["services"] if town is None else _covered(town, "services")
    return " ".join(e["unavailable"].format(fire=fire) for e in entries)
