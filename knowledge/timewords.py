"""The time vocabulary of knowledge/vocabulary/time.yml, loaded and checked once at import.

Weekdays, months, parts of the day, sun words and SMS shorthand: knowledge/when_parse.py, knowledge/daypart.py and
actions/parsing/ build their patterns from these. A malformed file fails with a ``KnowledgeError`` naming
the file and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time
from pathlib import Path
from typing import Any

import yaml

from .errors import KnowledgeError
from .strict_yaml import read_yaml

FILE = Path(__file__).resolve().parent / "vocabulary" / "time.yml"
_NAME = "knowledge/vocabulary/time.yml"
_WORD = re.compile(r"^[a-z0-9/][a-z0-9/' ]*$")
_EVENTS = {"sunrise", "sunset", "dawn", "dusk"}


@dataclass(frozen=True)
class PartSpec:
    """One part of the day as the file gives it: echoed name, clock interval, bare-hour readings."""
    key: str
    name: str
    start: time
    end: time
    am: frozenset[int]
    pm: frozenset[int]
    after_midnight: frozenset[int]


def _fail(key: str, problem: str) -> KnowledgeError:
    return KnowledgeError(_NAME, key, problem)


def _mapping(value: Any, key: str, required: set[str], optional: set[str] = frozenset()) -> dict:
    if not isinstance(value, dict):
        raise _fail(key, "must be a mapping")
    unknown, missing = set(value) - required - set(optional), required - set(value)
    if unknown or missing:
        raise _fail(key, f"unknown keys {sorted(map(str, unknown))}" if unknown else f"missing {sorted(missing)}")
    return value


def _word(value: Any, key: str) -> str:
    if not isinstance(value, str) or not _WORD.match(value) or value != value.strip() or "  " in value:
        raise _fail(key, f"{value!r} is not a lower-case word or phrase")
    return value


def _words(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(key, "must be a list of words")
    return tuple(_word(w, f"{key}[{i}]") for i, w in enumerate(value))


def _named(raw: dict, key: str, count: int) -> dict[str, tuple[str, ...]]:
    """weekdays / months: ``count`` names in order, each with its short forms."""
    value = raw.get(key)
    if not isinstance(value, dict) or len(value) != count:
        raise _fail(key, f"must map {count} names to their short forms")
    return {_word(name, key): _words(short, f"{key}.{name}") for name, short in value.items()}


def _clock(value: Any, key: str) -> time:
    if not isinstance(value, str) or not re.fullmatch(r"\d\d:\d\d", value):
        raise _fail(key, f"{value!r} is not a clock time like \"06:00\"")
    try:
        return time.fromisoformat(value)
    except ValueError:
        raise _fail(key, f"{value!r} is not a clock time") from None


def _hours(value: Any, key: str) -> frozenset[int]:
    """[1-6, 12] -> {1, ..., 6, 12}; hours 1 to 12."""
    hours: set[int] = set()
    for i, item in enumerate(value if isinstance(value, list) else [None]):
        m = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", str(item))
        if m is None or isinstance(item, bool):
            raise _fail(f"{key}[{i}]", f"{item!r} is not an hour (1-12) or a range like 1-6")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if not 1 <= a <= b <= 12:
            raise _fail(f"{key}[{i}]", f"{item!r} is not an hour (1-12) or a range like 1-6")
        hours |= set(range(a, b + 1))
    return frozenset(hours)


def _parts(raw: dict) -> dict[str, PartSpec]:
    value = raw.get("parts_of_day")
    if not isinstance(value, dict) or not value:
        raise _fail("parts_of_day", "must map each part's key to its clock interval")
    parts = {}
    for k, spec in value.items():
        key = f"parts_of_day.{k}"
        spec = _mapping(spec, key, {"name", "from", "to"}, {"am", "pm", "after_midnight"})
        start, end = _clock(spec["from"], f"{key}.from"), _clock(spec["to"], f"{key}.to")
        if end <= start:
            raise _fail(f"{key}.to", "must be after its start")
        parts[k] = PartSpec(k, _word(spec["name"], f"{key}.name"), start, end,
                            *(_hours(spec.get(h, []), f"{key}.{h}") for h in ("am", "pm", "after_midnight")))
    return parts


def _phrases(raw: dict, parts: dict[str, PartSpec]) -> tuple[tuple[tuple[str, ...], str, bool], ...]:
    value = raw.get("part_phrases")
    if not isinstance(value, list) or not value:
        raise _fail("part_phrases", "must be a list of {part, words, today}")
    found = []
    for i, item in enumerate(value):
        key = f"part_phrases[{i}]"
        item = _mapping(item, key, {"part", "words"}, {"today"})
        if item["part"] not in parts:
            raise _fail(f"{key}.part", f"{item['part']!r} is not a key of parts_of_day")
        if not isinstance(item.get("today", False), bool):
            raise _fail(f"{key}.today", "must be true or false")
        words = _words(item["words"], f"{key}.words")
        if not words:
            raise _fail(f"{key}.words", "must name at least one phrase")
        found.append((words, item["part"], item.get("today", False)))
    return tuple(found)


def _table(raw: dict, key: str, values: set[str] | None = None) -> dict[str, str]:
    value = raw.get(key)
    if not isinstance(value, dict) or not value:
        raise _fail(key, "must map each word to what it stands for")
    table = {_word(str(w), key): _word(v, f"{key}.{w}") for w, v in value.items()}
    for w, v in table.items():
        if values is not None and v not in values:
            raise _fail(f"{key}.{w}", f"{v!r} is not one of {sorted(values)}")
    return table


def load(path: Path = FILE) -> dict[str, Any]:
    """The checked vocabulary of ``path``."""
    name = _NAME if path == FILE else str(path)
    try:
        raw = _mapping(read_yaml(path), "(file)",
                       {"weekdays", "months", "parts_of_day", "part_phrases", "sun_words", "shorthand"})
        parts = _parts(raw)
        return {"weekdays": _named(raw, "weekdays", 7), "months": _named(raw, "months", 12), "parts": parts,
                "part_phrases": _phrases(raw, parts), "sun_words": _table(raw, "sun_words", _EVENTS),
                "shorthand": _table(raw, "shorthand")}
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeError(name, "(file)", str(exc)) from None
    except KnowledgeError as exc:
        raise KnowledgeError(name, exc.key, exc.problem) from None


_VOCABULARY = load()

#: "monday" ... "sunday", Monday first
WEEKDAYS: tuple[str, ...] = tuple(_VOCABULARY["weekdays"])
#: short form -> weekday number ("tues" -> 1)
WEEKDAY_SHORT: dict[str, int] = {s: i for i, shorts in enumerate(_VOCABULARY["weekdays"].values()) for s in shorts}
#: "january" ... "december"
MONTHS: tuple[str, ...] = tuple(_VOCABULARY["months"])
#: every month word, short forms too -> month number ("sept" -> 9)
MONTH_NUMBER: dict[str, int] = {w: i + 1 for i, (m, shorts) in enumerate(_VOCABULARY["months"].items())
                                for w in (m, *shorts)}
PARTS: dict[str, PartSpec] = _VOCABULARY["parts"]
#: (phrases, part key, names today) in the order they are tried
PART_PHRASES: tuple[tuple[tuple[str, ...], str, bool], ...] = _VOCABULARY["part_phrases"]
SUN_WORDS: dict[str, str] = _VOCABULARY["sun_words"]
SHORTHAND: dict[str, str] = _VOCABULARY["shorthand"]


def alternation(words) -> str:
    """A regex alternation of literal ``words``, longest first (so "sept" is tried before "sep")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
