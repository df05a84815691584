"""Counts and animals in residents' words: how many of which animal, spayed or neutered, service dogs, ages
and litters ("2 dogs and a cat", "both are spayed", "a 4 yr old lab")."""
from __future__ import annotations

import re
from typing import Iterable, Iterator, Optional

from ..numbers import count_value


#: a number the time extractor took ("about 14" in "about 14 dogs"): a count when an animal follows it
_WHEN_COUNT = re.compile(r"(?:about|around|approx\.?|approximately|maybe|like|roughly)?\s*(\d{1,3})", re.I)


def counting_whens(entities: Iterable[dict]) -> list[dict]:
    """The time entities that are counts of the animal said right after them ("about 14 dogs")."""
    ents = sorted(entities, key=lambda e: e.get("start", 0))
    return [e for e, nxt in zip(ents, ents[1:]) if e["entity"] == "when" and nxt["entity"] in ("animal", "service_dog")
            and 0 <= nxt.get("start", 0) - e.get("end", 0) <= 1 and _WHEN_COUNT.fullmatch(str(e.get("value", "")).strip())]


def counted_animals(entities: Iterable[dict]) -> Iterator[tuple[int, dict]]:
    """(count, animal entity) for each animal/service_dog entity a count stands before, in the order said: "2 dogs
    and a cat" gives (2, dog); a count goes with the first animal after it only."""
    pending = None
    entities = list(entities)
    counting = counting_whens(entities)
    for e in sorted(entities, key=lambda e: e.get("start", 0)):
        if e["entity"] == "count":
            pending = count_value(str(e["value"]))
        elif any(e is c for c in counting):
            pending = int(_WHEN_COUNT.fullmatch(str(e["value"]).strip()).group(1))  # "about 14 dogs"
        elif e["entity"] in ("animal", "service_dog"):
            if pending is not None:
                yield pending, e
            pending = None


def animals_counted(entities: Iterable[dict]) -> dict[str, int]:
    """{"dog": 2, "cat": 1} from the entities of "2 dogs and a cat": each count goes with the animal after it
    (a service_dog entity counts as a dog)."""
    out: dict[str, int] = {}
    for n, e in counted_animals(entities):
        kind = animal_of(e)
        out[kind] = out.get(kind, 0) + n
    return out


def animal_of(e: dict) -> str:
    """The animal an animal/service_dog entity names: "dog" for a service dog, else its value in lower case."""
    return "dog" if e["entity"] == "service_dog" else str(e["value"]).lower()


def names_a_dog(entities: Iterable[dict]) -> bool:
    return any(e["entity"] in ("animal", "service_dog") and animal_of(e) == "dog" for e in entities)


_ONE_DOG = re.compile(r"\b(my|our|one|this)\s+(new\s+|only\s+)?(?:(?:dog|puppy|pup)'s\b|puppys\b|"
                      r"(dog|puppy|pup)\b(?!\s+licen))", re.I)


def says_one_dog(text: str) -> bool:
    """"my dog", "our new puppy": one dog, although no number was said (not "my dog license")."""
    return bool(_ONE_DOG.search(text))


_NEUTERED_COUNT = re.compile(r"\b(\d+|one|two|three|four|five|six|none|neither|all|both)\s+(?:of them\s+)?(?:is\s+|are\s+)?"
                             r"(not\s+)?(?:spayed|neutered|fixed)\b", re.I)
_NEUTERED_WORD = re.compile(r"\b(?:spayed|neutered|fixed)\b", re.I)
_NOT_NEUTERED_BEFORE = re.compile(r"\b(?:not|isn'?t|aren'?t|wasn'?t|weren'?t|never|no)\s+(?:been\s+|yet\s+|be\s+)?$", re.I)
_NONE_OF = re.compile(r"\b(?:none of(?: the| them| my| our)?|neither(?: of)?(?: the| them)?)\s*$", re.I)


def neutered_said(text: str) -> Optional[str]:
    """"all", "none" or a count: "both are spayed" all, "one neutered one not" 1, "none of the 3 are fixed" none;
    None when the text says no such thing, only "2 are not fixed" (not how many are), or names a spayed or
    neutered dog without a number beside one with ("2 spayed females and a neutered male": the caller reads the
    entity, or asks)."""
    total, said, counted = 0, False, 0
    for m in _NEUTERED_COUNT.finditer(text or ""):
        counted += 1
        n, negated = m.group(1).lower(), bool(m.group(2))
        before = text[:m.start()]
        if (_NONE_OF.search(before) and n not in ("all", "both")) or (n == "one" and re.search(r"\bnot\s*$", before,
                                                                                             re.I)):
            return "none"  # "none of the 3 are fixed", "not one is neutered"
        if n in ("all", "both"):
            return "none" if negated else "all"
        if n in ("none", "neither"):
            return "none"
        v = count_value(n)
        if v is not None and not negated:
            total, said = total + v, True
    words = list(_NEUTERED_WORD.finditer(text or ""))
    if not counted and words and all(_NOT_NEUTERED_BEFORE.search(text[:m.start()]) for m in words):
        return "none"  # "a female dog that isnt spayed", "they're not fixed"
    if len(words) > counted:
        return None  # a spayed or neutered dog said without its number
    return str(total) if said else None


def neutered_mixed(text: str) -> bool:
    """A count of spayed or neutered dogs said beside a spayed or neutered dog without its number ("2 are spayed
    and the male is not neutered"): neither the count nor the tagged word alone says how many are; ask."""
    counted = len(_NEUTERED_COUNT.findall(text or ""))
    return 0 < counted < len(_NEUTERED_WORD.findall(text or ""))


_NEGATION = re.compile(r"\b(not|no|none|isn't|isnt|aren't|arent|neither)\b", re.I)
_SERVICE_COUNT = re.compile(r"\b(\d+|one|two|three|both)\s+(?:of them\s+)?(?:are|is)?\s*(?:a\s+)?service", re.I)


def service_dogs_said(text: str) -> str:
    """How many service dogs a text that mentions service dogs says: "0" when negated ("no service dogs"),
    the count said ("both are service dogs"), else "1"."""
    if _NEGATION.search(text):
        return "0"
    m = _SERVICE_COUNT.search(text)
    n = count_value(m.group(1)) if m else 1
    return str(n or 1)


_NO = re.compile(r"\b(no|none|neither)\b", re.I)
_NOPE = re.compile(r"\b(no|nope|none|neither)\b", re.I)


def says_none(text: str, nope: bool = False) -> bool:
    """"no", "none", "neither" (and "nope" when ``nope``) as a reply to a how-many question."""
    return bool((_NOPE if nope else _NO).search(text))


_YOUNG = re.compile(r"^(pup|kitt)", re.I)
_ONE_MORE = re.compile(r"\b(?:one|another|1|a)\s+more\b", re.I)
_ANOTHER = re.compile(r"\b(?:another|one more|1 more)\s+"
                      r"(cat|kitten|kitty|dog|puppy|pup)\b", re.I)


def animals_and_young(entities: Iterable[dict], text: str = "") -> dict[str, int]:
    """animal_limits' counts from "2 dogs and one just had 7 puppies": {"dogs": 2, "puppies": 7}; "we have 4
    dogs, can we get one more?" counts the one more."""
    out: dict[str, int] = {}
    for n, e in counted_animals(entities):
        word = animal_of(e)
        young = bool(_YOUNG.match(said_word(e, text) or word))
        kind = ("puppies" if young else "dogs") if word.startswith(("dog", "pup")) or e["entity"] == "service_dog" \
            else ("kittens" if young else "cats") if word.startswith(("cat", "kitt")) else None
        if kind:
            out[kind] = out.get(kind, 0) + n
    named = _ANOTHER.search(text or "")  # "can i get another cat": one more of the kind named
    if named and out:
        kind = "cats" if named.group(1).lower().startswith(("cat", "kitt")) else "dogs"
        out[kind] = out.get(kind, 0) + 1
    elif _ONE_MORE.search(text or "") and len([k for k in out if k in ("dogs", "cats")]) == 1:
        kind = next(k for k in out if k in ("dogs", "cats"))
        out[kind] += 1
    return out


def said_word(e: dict, text: str) -> str:
    """The words an entity covers as typed ("puppies"; its value may be the canonical "dog")."""
    if text and e.get("start") is not None and e.get("end") is not None:
        return text[e["start"]:e["end"]].lower()
    return ""


def names_young(entities: Iterable[dict], text: str = "") -> bool:
    """"our dog had puppies": a litter is named (with or without a count)."""
    return any(e["entity"] == "animal" and _YOUNG.match(said_word(e, text) or animal_of(e)) for e in entities)


_ONE_ANIMAL = re.compile(r"\b(?:she|he|it|her|him)(?:'?s)?\b|\bjust (?:the )?one\b|\bonly (?:the )?one\b", re.I)


def one_animal_meant(text: str) -> bool:
    """"she's spayed", "what if he is neutered", "just the one": one animal, though no number was said."""
    return bool(_ONE_ANIMAL.search(text or ""))


_COUNT_WORDS = re.compile(r"\b(a couple(?: of)?|couple(?: of)?|a few|one|two|three|four|five|six|seven|eight|nine|ten|"
                          r"eleven|twelve|a|an)\s+(days?|weeks?|months?)\s+ago\b", re.I)


def plain_numbers(text: str) -> str:
    """"two weeks ago" -> "2 weeks ago", "a couple weeks ago" -> "2 weeks ago", "a week ago" -> "1 week ago": what
    knowledge.when reads. "a few" is no number: left as said (and asked back)."""
    def digits(m: re.Match) -> str:
        word = m.group(1).lower().replace(" of", "")
        n = {"a couple": 2, "couple": 2, "a": 1, "an": 1}.get(word, count_value(word))
        return f"{n} {m.group(2)} ago" if n else m.group(0)
    return _COUNT_WORDS.sub(digits, text or "")


_AGE = re.compile(r"\b(\d{1,2}(?:\.\d)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]"
                  r"(years?|yrs?|months?|mos?|weeks?|wks?)[- ]old\b|\b(?:is|s|turned|turns)\s+(\d{1,2})\s*"
                  r"(years?|yrs?)(?:\s+old)?\b", re.I)
_MONTHS_PER = {"y": 12.0, "m": 1.0, "w": 12 / 52}


def age_months(text: str) -> Optional[float]:
    """A dog's age said in months: "my 2 yr old dog" 24, "an 8 month old female" 8, "10 weeks old" 2.3,
    "she's 3 years" 36; None when no age is said."""
    m = _AGE.search(text or "")
    if not m:
        return None
    number, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    n = float(number) if re.fullmatch(r"[\d.]+", number) else ({"a": 1, "an": 1}.get(number.lower())
                                                               or count_value(number))
    return None if n is None else n * _MONTHS_PER[unit[0].lower()]


_NEGATED_SERVICE = re.compile(r"\b(?:not|no|isn'?t|aren'?t|neither|nor)\s+(?:\w+\s+){0,2}$", re.I)


def without_negated_service(entities: list, text: str) -> list:
    """The entities without a service dog said as not one ("just 1 dog, not a service dog")."""
    return [e for e in entities if not (e.get("entity") == "service_dog" and
                                        _NEGATED_SERVICE.search((text or "")[max(0, e["start"] - 20):e["start"]]))]


_ONE_DOG_SAID = re.compile(r"\b(?:a|an|one|1|my|our|the|this|her|his)\s+(?:[a-z'-]+\s+){0,3}?(?:dog|puppy|pup|male|"
                           r"female|mutt|pooch|doggo)\b(?!s)(?!\s+licen[cs])", re.I)
_DOGS = re.compile(r"\b(?:dogs|puppies|pups|both|all of them|them|they|their)\b", re.I)


def one_dog_said(text: str) -> bool:
    """"a dog license for one neutered male", "license price for a female dog", "how much is a dog license":
    one dog, no plural said."""
    return bool(_ONE_DOG_SAID.search(text or "")) and not _DOGS.search(text or "")
