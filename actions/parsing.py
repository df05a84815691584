"""Reading residents' words for the forms: plain functions over text and entity lists, no Rasa.

Each function answers one question about a reply ("is this only a time of day?", "which fields does this
correction name?", "which phone number is in it?"); the form actions in license_form.py and burn_form.py
call them, and tests/actions/test_parsing.py checks them directly.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator, Optional

import phonenumbers
import usaddress

from knowledge import daypart, timewords

from .numbers import count_value

# ----------------------------------------------------------------------------------------- counts and animals


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


#: "too many dogs", "more than 5 cats", "over the limit": a question about the number of animals kept
_KEPT = r"(?:dogs|cats|animals|pets|puppies|kittens)"
#: what 7.02-13 to 7.02-17 cover, said in a question about a fine: feeding, shelter, neglect, cruelty, the number kept
_UNNAMED_FINE = re.compile(r"\b(feed\w*|food|water|shelter\w*|neglect\w*|starv\w*|abandon\w*|cruel\w*|abus\w*|"
                           r"beat\w*|kick\w*|hurt\w*|mistreat\w*|tortur\w*|"
                           r"exceed\w*|the (?:dog |cat |pet |animal )?limit)\b", re.I)
#: the rules of Dunkirk 7.02-6 to 7.02-12, whose fine is 7.02-18(c): at large, barking, a bite, killing or worrying
#: animals, damage, cemeteries, colored chicks, impoundment
_ANIMAL_RULE_WORDS = (r"(?:un)?leash\w*|loose|at large|roam\w*|bark\w*|howl\w*|bit|bit(?:ten|es?|ing)|attack\w*|"
                      r"vicious\w*|dangerous\w*|chas(?:e|es|ed|ing)|kill(?:s|ed|ing)?|worr(?:y|ies|ied|ying) "
                      r"(?:the |our |my |a )?(?:sheep|livestock|cattle|cows?|horses?|chickens?|animals?)|damag\w*|"
                      r"destroy\w*|tear\w* up|gardens?|cemeter\w*|chick\w*|duckling\w*|rabbits?|impound\w*")
_ANIMAL_RULE_FINE = re.compile(r"\b(?:" + _ANIMAL_RULE_WORDS + r")\b", re.I)
_NAMED_FINE = re.compile(r"\b(?:(?:un)?licen[cs]\w*|(?:un)?vaccin\w*|rabies|(?:un)?tag\w*|" + _ANIMAL_RULE_WORDS +
                         r"|waste|poop\w*|feces|quarantin\w*)\b", re.I)
#: a quarantine order and its penalty (Dunkirk 7.02-5, 7.02-18(b)(2)): an order, isolation, observation, jail
_QUARANTINE_WORDS = re.compile(r"\b(?:quarantin\w*|isolat\w*|orders?|refus\w*|deliver\w*|confine\w*|jail|"
                               r"(?:im)?prison\w*|observ\w*|lock\w* (?:\w+ ){0,2}up|(?:turn|hand)\w* (?:\w+ ){0,2}over|"
                               r"surrender\w*)\b", re.I)
#: a license or shot said of the dog, not as the rule broken: "a licensed dog running loose", "my vaccinated dog bit"
_DESCRIBED_WORD = re.compile(r"\b(?:licensed|vaccinated|tagged|registered)\b", re.I)
#: words that may stand between a negation and what it denies ("isn't yet licensed", "never got him vaccinated")
_FILLER = r"(?:ever|yet|been|be|get|got|gotten|getting|a|an|my|his|her|the|our|their|its|it|him|them|dogs?|dog's|" \
          r"pupp\w*|cats?|have|having|had|has|keep|keeping|kept|current|currently|valid|properly|both|all|any|new|" \
          r"one|two|three|four|\d+)"
_NEGATED_BEFORE = re.compile(r"\b(?:not|no|never|no longer|without|isn'?t|wasn'?t|aren'?t|weren'?t|hasn'?t|haven'?t|"
                             r"hadn'?t|don'?t|doesn'?t|didn'?t|nt)(?:\W+" + _FILLER + r"){0,3}\W*$", re.I)
_OWNER_BEFORE = re.compile(r"\b(?:my|his|her|our|their|your|a|an|the)\s+$", re.I)
_ANIMAL_AFTER = re.compile(r"\s+(?:\w+\s+)?(?:dogs?|pupp(?:y|ies)|pups?|cats?|kittens?|animals?|pets?)\b", re.I)


def _described_removed(text: str) -> str:
    """The text without "licensed"/"vaccinated" said of the dog ("my licensed dog ran loose"); kept when negated
    ("my dog isnt licensed", "wasn't ever vaccinated"): that is the rule broken."""
    def kept(m: re.Match) -> bool:
        if _ANIMAL_AFTER.match(text, m.end()) and _OWNER_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            return False  # "not keeping my licensed dog in the yard": "licensed" describes the dog
        return bool(_NEGATED_BEFORE.search(text[max(0, m.start() - 30):m.start()]))
    return _DESCRIBED_WORD.sub(lambda m: m.group(0) if kept(m) else " ", text)


def asks_fine_unnamed(text: str) -> bool:
    """"the fine for having more than 5 dogs", "for neglecting my dog": about food, shelter, neglect, cruelty or the
    number kept (Dunkirk 7.02-13 to 7.02-17, for which 7.02-18 names no fine), not a rule it names a fine for
    (license, leash, barking ...). A count over the limit ("if I keep 8 dogs") is read by the caller."""
    text = _described_removed(text or "")
    if _NAMED_FINE.search(text):
        return False
    return bool(TOO_MANY.search(text) or _UNNAMED_FINE.search(text))


#: a license, tag or rabies shot said as missing: "unlicensed", "not vaccinating", "no rabies shot", "no dog tag"
#: (Dunkirk 7.02-1 to 7.02-3, whose fine is 7.02-18(b)(1))
_NO_LICENSE = re.compile(r"\bun(?:licen[cs]\w*|vaccin\w*|tagged|registered)|\b(?:not|no|never|without|didn'?t|"
                         r"haven'?t|hasn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|don'?t|doesn'?t|expired|late|fail\w* to|"
                         r"forg[eo]t\w* to|skip\w*)\s+(?:" + _FILLER + r"\s+){0,3}(?:licen[cs]\w*|vaccin\w*|rabies|shots?|tags?|"
                         r"regist\w*)\b", re.I)


_LICENSE_WORDS = re.compile(r"\b(?:un)?(?:licen[cs]\w*|vaccin\w*|tag\w*|regist\w*)|\brabies\b|\bshots\b", re.I)


def names_the_license_fine(text: str) -> bool:
    """"the fine for keeping 8 unlicensed dogs", "penalty for not vaccinating": the license and rabies rules' fine
    (Dunkirk 7.02-18(b)(1)); not when another rule with a fine of its own, or none, is named ("a licensed dog
    running loose", "my vaccinated dog bit someone", "neglecting an unlicensed dog")."""
    text = _described_removed(text or "")
    if not (_NO_LICENSE.search(text) or _LICENSE_WORDS.search(text)):
        return False
    rest = _LICENSE_WORDS.sub(" ", _NO_LICENSE.sub(" ", text))
    return not (_NAMED_FINE.search(rest) or _UNNAMED_FINE.search(rest) or TOO_MANY.search(rest)
                or _QUARANTINE_WORDS.search(rest) or re.search(r"\b(?:each|every|per) day\b|\bdaily\b", rest, re.I))


def about_cats(text: str, animals: Iterable = ()) -> bool:
    """A cat or kitten, and no dog, is what the question is about ("fine for an unlicensed cat")."""
    said = " ".join(str(a) for a in animals if a) + " " + (text or "")
    return bool(re.search(r"\b(?:cats?|kittens?|kitty|kitties)\b", said, re.I)) and not re.search(
        r"\b(?:dogs?|pupp(?:y|ies)|pups?)\b", said, re.I)


_MONTH_WORDS = r"(?:" + timewords.alternation(timewords.MONTH_NUMBER) + r")\.?"  # "jan", "Sept.", "march"


def month_only(said: str) -> bool:
    """"in june", "early March", "back in may 2026": a month without its day (the day is not known)."""
    return bool(re.fullmatch(r"\s*(?:back |sometime |some time )?(?:in |during |around |about )?(?:the )?(?:early |late |"
                             r"mid[- ]?|middle of |end of |beginning of |start of )?(?:the )?" + _MONTH_WORDS
                             + r"(?:\s*,?\s*\d{4})?\s*", said or "", re.I))


def counted_from_today(said: str | None) -> bool:
    """"tomorrow", "next Friday", "in 2 weeks": a day counted from today, so its direction is known whatever the
    verb's tense (not "next month": no day)."""
    return bool(re.search(r"\b(?:today|tomorrow|(?:this|next) (?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)"
                          r"(?:day)?|in (?:\d+|a|one|two|three|four) (?:days?|weeks?))\b", said or "", re.I))


def names_a_fine(text: str) -> bool:
    """The question names a rule with a fine of its own (license, leash, barking, bite ...)."""
    return bool(_NAMED_FINE.search(_described_removed(text or "")))


_WASTE = re.compile(r"\b(?:waste|poop\w*|feces|fecal|droppings)\b", re.I)


def names_waste(text: str) -> bool:
    """"the fine for dog poop on the road": the animal waste rule (Dunkirk 7.02-6(e))."""
    return bool(_WASTE.search(text or ""))


def names_a_quarantine_order(text: str) -> bool:
    """"what if I refuse the quarantine order?": the order's own penalty (Dunkirk 7.02-18(b)(2)) may answer it."""
    return bool(_QUARANTINE_WORDS.search(text or ""))


def names_an_animal_rule_fine(text: str) -> bool:
    """"fine if my dog chases and kills chickens", "the fine for a licensed dog running loose": a rule whose fine is
    Dunkirk 7.02-18(c) (7.02-6 to 7.02-12); not a quarantine order (b)(2), a missing license or shot (b)(1), nor a
    section no fine is named for."""
    rest = _described_removed(text or "")
    return bool(_ANIMAL_RULE_FINE.search(rest)) and not (
        _QUARANTINE_WORDS.search(rest) or _NO_LICENSE.search(rest)
        or _UNNAMED_FINE.search(rest) or TOO_MANY.search(rest))


TOO_MANY = re.compile(r"\b(?:too many|more than (?:\d+|one|two|three|four|five|six))\s+(?:\w+\s+)?" + _KEPT + r"\b|"
                      r"\b(?:over|above) the (?:dog |cat |animal |pet )?limit\b", re.I)


_LIMIT = re.compile(r"\b(limit|too many|more than (?:\d+|one|two|three|four|five|six)|(?:\d+|five|four|two|three)"
                    r"[- ]dogs? rule|count(?:s|ed)? (?:toward|towards|against)|allowed to (?:have|keep))\b", re.I)


_BUSINESS = re.compile(r"\b(kennels?|breeders?|business|boarding|daycare|grooming|groomers?)\b", re.I)


def asks_about_the_limit(text: str) -> bool:
    """"are we breaking the 5 dog rule?", "do the puppies count toward the limit?": the number a household keeps
    (not a kennel's or an animal business's: "we run a kennel, may we have 12 dogs?" stays a kennel question)."""
    return bool(_LIMIT.search(text or "")) and not _BUSINESS.search(text or "")


# ----------------------------------------------------------------------------------------- dates of the license

#: "got/get" of the dog, not of its license ("I never got licenses this year": not a day the dog came)
ACQUIRED_CUE = re.compile(r"\b((?:got|get)(?!\s+(?:\w+\s+){0,2}licen[cs]e)|adopt\w*|bought (?:him|her|it|the dog|the pup\w*)|"
                          r"bought (?:a|an|our|my|this|that)\s+(?:[\w'-]+\s+){0,4}?(?:dog|puppy|pup|mutt|cat|kitten|female|male|girl|"
                          r"boy|lab|retriever|shepherd|beagle|poodle|terrier|husky|collie|rescue)s?\b|rescued|moved|acquired|brought|born|since)\b", re.I)
BUY_CUE = re.compile(r"\b(buy|buying|bought (?:(?:the|his|her|their|our|my|a) licen[cs]es?)|purchas\w*|pay|paid|paying|"
                     r"licensed|register\w*|renew\w*|license (?:it|him|her|them)|get (?:it|the license)|"
                     r"licensing)\b", re.I)
#: a buying verb said as still to come, right before it ("will license her", "if we pay"; not "wanted to pay right
#: away but only paid on June 20"); "are licensing" only with an -ing verb, "would buy" only with a bare one (not
#: "we're licensed since", "I would have paid", "we'd paid")
_BUY_LATER = re.compile(r"\b(?:will|'ll|shall|going to|gonna|plan(?:s|ning)? to|intend(?:s|ing)? to|want(?:s)? to|"
                        r"hope to|need to|have to|if (?:i|we))\s+(?:\w+\s+)?$", re.I)
_BUY_NOW = re.compile(r"\b(?:are|am)\s+(?:\w+\s+)?$|(?<=')(?:re|m)\s+(?:\w+\s+)?$|"
                      r"(?:\bwould|\bwill|(?<=')d|(?<=')ll) be\s+(?:\w+\s+)?$", re.I)
_BUY_WOULD = re.compile(r"(?:\bwould|(?<=')d)\s+(?:\w+\s+)?$", re.I)


def buys_later(text: str, start: int) -> bool:
    """Is the day of buying at ``start`` said as still to come? The buying verb nearest before it ("will license her
    July 10", "if I pay on July 20", "are licensing her on July 10", "would buy it July 30") has a future word right
    before it; read back otherwise."""
    window = cue_window(text, start).replace("\u2019", "'")
    verbs = list(BUY_CUE.finditer(window))
    if not verbs:
        return False
    before, verb = window[:verbs[-1].start()], verbs[-1].group(0).split()[0].lower()
    return bool(_BUY_LATER.search(before) or (verb.endswith("ing") and _BUY_NOW.search(before)) or
                (verb in ("buy", "pay", "register", "renew", "purchase", "license", "get") and _BUY_WOULD.search(before)))


_LONG_AGO = re.compile(r"\b(years?|yrs?|long|ages|forever|always|before this year|last year|a while|since birth|"
                       r"born here|months? ago)\b", re.I)
_HAD = re.compile(r"\b(had|have had|owned)\b", re.I)


def cue_window(text: str, start: int) -> str:
    """The 40 characters before ``start``, where a cue for the day at ``start`` is looked for."""
    return text[max(0, start - 40):start]


def cue_before(text: str, start: int, cue: re.Pattern) -> bool:
    """Does ``cue`` occur in the 40 characters before ``start``? ("got him in May": "got" before "in May")."""
    return bool(cue.search(cue_window(text, start)))


def when_after(whens: Iterable[dict], text: str, cue: re.Pattern, other_cue: re.Pattern,
               asked: bool) -> Optional[dict]:
    """The first when-entity of ``text`` with ``cue`` words before it; when the form asked for this date, also
    one without ``other_cue`` words ("got them in May, buying today": May is acquired, today is purchase). A time
    of day alone is no such day ("got our dog (he's about 3) on May 1st": May 1st, not "about 3")."""
    for e in whens:
        if is_time_only(text[e["start"]:e["end"]] if e.get("end") else str(e.get("value", ""))):
            continue
        if cue_before(text, e["start"], cue) or (asked and not cue_before(text, e["start"], other_cue)):
            return e
    return None


def says_long_ago(text: str) -> bool:
    """"years ago", "forever", "last year": before this license year."""
    return bool(_LONG_AGO.search(text))


_BEFORE_THIS_YEAR = re.compile(r"\bbefore (?:this|the) (?:year|license year)\b|\b(?:since|from) last year\b", re.I)
_HAD_SINCE = re.compile(r"\b(?:had|have had|owned|since)\b", re.I)


def says_before_this_year(text: str) -> bool:
    """"since before this year", "had her from last year": before this license year, no day to ask."""
    return bool(_BEFORE_THIS_YEAR.search(text or ""))


def says_had_since(text: str) -> bool:
    """"had them since 2023", "owned him since": the year said is when the dog came."""
    return bool(_HAD_SINCE.search(text or ""))


def says_had_from_a_year(text: str) -> bool:
    """"had them since 2023", "owned her in 2020": the year said is when the dogs came (not "since" alone)."""
    return bool(_HAD.search(text or "")) and year_said(text) is not None


def names_neutering(text: str) -> bool:
    """"spayed", "neutered", "fixed", "intact": the words of the spayed-or-neutered question."""
    return bool(re.search(r"\b(?:spay\w*|neuter\w*|fixed|intact|altered|unaltered|unfixed)\b", text or "", re.I))


def says_had_long(text: str) -> bool:
    """"we've had her for years": said outright, without being asked."""
    return says_long_ago(text) and bool(_HAD.search(text))


def acquired_kind(text: str) -> str:
    """"moved" when the resident moved to town with the dog, else "got"."""
    return "moved" if _MOVED.search(text) else "got"


# ----------------------------------------------------------------------------------------- burn notification

#: the request that starts the burn form, resent mid-form (after a slow reply, or by a resident unsure the
#: first text arrived): found by the no-loss run, which once stored it as a resident's name
ASKS_TO_NOTIFY = re.compile(r"\b(notif\w*|report\w*|tell\w*|let\b.*\bknow|inform\w*)\b.*\b(fire|burn\w*)\b|"
                            r"\b(burn\w*|fire)\b.*\b(notif\w*|report\w*)\b", re.I)

#: a when-phrase that is only a time of day ("3pm", "at 10:30", "noon"), not a day
TIME_ONLY = r"(?i)(at|around|about|by)?\s*\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)?|(at |around )?(noon)"
_DATE_ONLY = r"(?i)\s*\d{1,2}/\d{1,2}(/\d{2,4})?\s*|.*\b[a-z]+\s+\d{1,2}(st|nd|rd|th)?\s*$"

#: the words that name each fact of the notification in a correction ("change the address")
FIELD_WORDS = {
    "burner_name": r"\bname\b", "burn_address": r"\baddress\b|\bstreet\b", "burn_phone": r"\bphone|number|cell\b",
    "burn_date": r"\bdate\b|\bday\b", "burn_time": r"\btime\b|\bhour\b", "burn_location": r"\blocation|where|spot|place\b",
}

#: an answer that says outright it is a name
_SAYS_NAME = re.compile(r"\s*(?:my name is|my name's|name is|name:)\s+([A-Za-z][A-Za-z .'-]{1,60}?)\s*[.!]?\s*$", re.I)
_NAME_IN = re.compile(r"\bmy name is ([A-Za-z][A-Za-z .'-]{1,60})", re.I)
_NAME_PREFIX = re.compile(r"(?i)^(my name is|name is|name:|it'?s|i'?m|i am|this is)\s+")
_ADDRESS_IN = re.compile(r"\b(?:my )?address is (.+)$", re.I)
_ADDRESS_PREFIX = re.compile(r"(?i)^(my address is|address is|address:|i live at|it'?s)\s+")
_CHANGE = re.compile(r"\b(change|wrong|fix|actually)\b", re.I)


def asks_to_notify(text: str) -> bool:
    """"I want to notify the fire department of a burn": the opening request, not a name, address or place."""
    return bool(ASKS_TO_NOTIFY.search(text))


#: a fact of a notice in the message: a day, a clock time, "I'm burning", a street number
_BURN_FACT = re.compile(r"\b(today|tonight|tomorrow|" + "|".join(timewords.WEEKDAYS) + r"|weekend|next week|morning|"
                        r"afternoon|evening|noon|(?:" + "|".join(m[:3] for m in timewords.MONTHS) + r")\w*\.?\s+\d|"
                        r"\d{1,2}/\d{1,2}|\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)|"
                        r"at \d{1,2}\b|i'?m burning|we'?re burning|(?:will|'ll) (?:be )?burn\w*|"
                        r"(?:want|plan|planning|going|intend|hope|hoping|like)\w* to (?:burn|light|have a fire)|"
                        r"\d+ \w+ (st|street|rd|road|ave|avenue|dr|drive|ln|lane)\b)", re.I)
_HOW_TO_NOTIFY = re.compile(
    r"^\W*(?:what(?:'s| is)?(?: the)? (?:phone )?number|which number|who do (?:i|we|you) (?:call|tell|notify|contact|text)|"
    r"how (?:do|can|should) (?:i|we|you) (?:notify|tell|reach|contact|call|let|report|give)|"
    r"where do (?:i|we|you) (?:call|report|send|notify)|is there a (?:phone )?number)\b", re.I)


def asks_how_to_notify(text: str) -> bool:
    """"what number do I call to notify the fire department?": a question about giving notice, not the notice
    (one that carries a fact of a notice - "who do I tell, I'm burning Saturday at 10 at 123 Main St" - is one)."""
    return bool(_HOW_TO_NOTIFY.search(text or "")) and not (
        _BURN_FACT.search(text or "") or phone_in(text or "") or address_in(text or ""))


def is_time_only(said: str) -> bool:
    """"3pm", "at 10:30", "noon": a time of day and no day."""
    return bool(re.fullmatch(TIME_ONLY, said.strip()))


def has_time(said: str) -> bool:
    """Does a when-phrase carry a time of day? A digit or "noon", but not a bare date ("7/4", "July 4th")."""
    return bool(re.search(r"\d|noon", said, re.I)) and not re.fullmatch(_DATE_ONLY, said)


_BARE_HOUR = re.compile(r"\s*(?:at|around|about|maybe|probably|like)?\s*(?:at|around|about)?\s*(\d{1,2})(?::(\d\d))?\s*"
                        r"(?:ish|o'?clock)?\s*[.!?]?\s*", re.I)


def bare_hour(said: str) -> tuple[int, int] | None:
    """"7", "at 9", "around 1:30", "10ish", "15": an hour without a.m. or p.m. or a part of the day, as (hour,
    minute); None for none, or for an hour or minute no clock has."""
    m = _BARE_HOUR.fullmatch(said or "")
    if not m or int(m.group(1)) > 23 or int(m.group(2) or 0) > 59:
        return None
    return int(m.group(1)), int(m.group(2) or 0)


_DAY_WORD = re.compile(r"(?:" + "|".join(timewords.WEEKDAY_SHORT) + r")(?:day)?\.?|today|tonight|tomorrow", re.I)


def is_day_word(word: str) -> bool:
    """"sat", "Thurs.", "sunday": a day, never a thing to burn ("can i burn sat at 3")."""
    return bool(_DAY_WORD.fullmatch((word or "").strip()))


def is_clock_time(value: str) -> bool:
    """"14:30": a time already checked and stored."""
    return bool(re.fullmatch(r"\d\d:\d\d", value))


def is_iso_date(value: str) -> bool:
    return bool(re.fullmatch(r"\d{4}-\d\d-\d\d", value))


def fields_named(text: str) -> list[str]:
    """The facts a correction names: "no, the phone and the date" -> ["burn_phone", "burn_date"]."""
    return [slot for slot, pattern in FIELD_WORDS.items() if re.search(pattern, text, re.I)]


def new_value(slot: str, text: str) -> Optional[str]:
    """The new value a correction gives for ``slot``: "the location is the north field" -> "the north field"."""
    m = re.search("(?:" + FIELD_WORDS[slot] + r")\s+(?:is|should be|to|=|:)\s+(.{2,})$", text, re.I)
    return m.group(1).strip(" .!") if m else None


def asks_a_change(text: str) -> bool:
    """"change", "wrong", "fix", "actually": the read-back is not right."""
    return bool(_CHANGE.search(text))


def stated_name(text: str) -> Optional[str]:
    """"My name is Parker Hanson" (the whole reply) -> "Parker Hanson"."""
    m = _SAYS_NAME.match(text)
    return m.group(1).strip(" .") if m else None


def name_in(text: str) -> Optional[str]:
    """"... my name is Pat Olson ..." anywhere in a message -> "Pat Olson"."""
    m = _NAME_IN.search(text)
    return m.group(1).strip() if m else None


def name_from_reply(text: str) -> str:
    """A reply to "your full name?" without "my name is", "I'm", "this is" and the final full stop."""
    return _NAME_PREFIX.sub("", text).strip(" .")


def clean_name(value: str) -> Optional[str]:
    """A name, spaces tidied, or None when it cannot be one (no letter, under 2 or over 80 characters, or
    three digits in a row)."""
    name = " ".join(str(value).split())
    if not re.search(r"[A-Za-z]", name) or len(name) < 2 or len(name) > 80 or re.search(r"\d{3}", name):
        return None
    return name


def address_in(text: str) -> Optional[str]:
    """"... my address is N1234 County Road K" anywhere in a message -> "N1234 County Road K"."""
    m = _ADDRESS_IN.search(text)
    return m.group(1).strip() if m else None


def address_from_reply(text: str) -> str:
    """A reply to "your address?" without "my address is", "I live at", "it's"."""
    return _ADDRESS_PREFIX.sub("", text)


def street_address(value: str) -> Optional[str]:
    """The address, spaces tidied, when it has a house number and a street (usaddress), else None."""
    address = " ".join(str(value).split())
    try:
        tagged, _ = usaddress.tag(address)
    except usaddress.RepeatedLabelError:
        tagged = {}
    if not (tagged.get("AddressNumber") and (tagged.get("StreetName") or tagged.get("StreetNamePreType"))):
        # a rural fire number ("W5678 Co Rd K", "S 1234 County Road B, apt 2"): a letter for the direction, the
        # number, then the road, however the road is abbreviated
        return address if _FIRE_NUMBER.match(address) else None
    return address


_PLACE = re.compile(r"\b(?:\d+\s*(?:ft|feet|foot|yards?|yds?)\s+(?:away\s+)?from\s+(?:the|my|our)\s+[a-z]+|"
                    r"(?:behind|beside|next to|near|in back of|back of|by|past|across from)\s+(?:the|my|our)\s+"
                    r"[a-z]+(?:\s+(?:shed|barn|house|garage|field|pond|creek|yard|woods|pasture|building))?|"
                    r"in (?:the|my|our) (?:back ?yard|backyard|field|pasture|woods|garden|front yard|side yard|"
                    r"fire ?pit|burn barrel|north field|south field|east field|west field|driveway))", re.I)


def place_in(text: str) -> Optional[str]:
    """Where on the property, as said in a message about the burn ("a brush pile behind the barn, 100 feet from
    the house" -> "behind the barn, 100 feet from the house"); None when it names no place."""
    found = [m.group(0) for m in _PLACE.finditer(text or "")]
    return ", ".join(found) if found else None


def details_in(text: str) -> dict:
    """Name and address listed with commas in one message ("burn notice: tom berg, N1234 Hwy 51, 608 555
    0199"): {"name": ..., "address": ...} for those found."""
    out: dict = {}
    if re.search(r"[{}]|\"\s*:", text or ""):
        return out  # 'notify_burn{"burn_address": ...}' typed as words: JSON is no list of a resident's details
    body = re.sub(r"^[^:]*:\s*", "", text or "") if ":" in (text or "")[:40] else text or ""
    for part in (p.strip(" .") for p in body.split(",")):
        if not part or phone_in(part):
            continue
        if "address" not in out and street_address(part):
            out["address"] = part
        elif "name" not in out and re.fullmatch(r"[A-Za-z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){1,3}", part) and \
                not re.search(r"\b(burn|burning|fire|notice|notify|tomorrow|today|tonight|pile|brush|yard|"
                              r"behind|morning|afternoon|at|the)\b", part, re.I):
            out["name"] = part
    return out

_FIRE_NUMBER = re.compile(r"^\s*[NSEW]\s?\d{2,6}\s+[A-Za-z0-9].{1,60}$", re.I)


def clean_place(value: str) -> Optional[str]:
    """A place on the property, spaces tidied; None when under 3 or over 200 characters."""
    place = " ".join(str(value).split())
    return place if 3 <= len(place) <= 200 else None


def phone_in(text: str) -> Optional[str]:
    """The first US phone number in free text, as (608) 555-0142; None when there is none."""
    for m in phonenumbers.PhoneNumberMatcher(text or "", "US"):
        return phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return None


def valid_phone(value: str) -> Optional[str]:
    """``value`` as (608) 555-0142 when it is a valid US number, else None."""
    try:
        number = phonenumbers.parse(str(value), "US")
        ok = phonenumbers.is_valid_number(number)
    except phonenumbers.NumberParseException:
        ok = False
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL) if ok else None


# ----------------------------------------------------------------------------------------- time phrases

_CLOCK_BEFORE = re.compile(r"(?:\b(?:at|around|about|by|after|before|from|until|till)\s+)?\b\d{1,2}(?::\d\d)?\s*"
                           r"(?:am|pm|a\.m\.?|p\.m\.?|o'?clock)?\s*$", re.I)
_PART_AFTER = re.compile(r"^\s*,?\s*(?:(?:in the|this|tomorrow|that|on|at)\s+)?(?:morning|afternoon|evening|night|"
                         r"nite|tonight|today|tomorrow|am|pm|a\.m\.|p\.m\.|o'?clock)\b\.?", re.I)


def time_phrase(text: str, whens: Iterable[dict]) -> Optional[str]:
    """The whole time phrase of a message with its words, for when.resolve: from the first to the last time
    entity, with a clock number just before it ("9 tonight") and part-of-day words just after it ("at 6 in the
    morning", "at 5 pm"); counts elsewhere in the message ("2 old tires") stay out. None without a time entity."""
    spans = [(e["start"], e["end"]) for e in whens if e.get("start") is not None and e.get("end") is not None]
    if not text or not spans:
        return None
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    before = _CLOCK_BEFORE.search(text[:start])
    if before and before.group(0).strip():
        start = before.start()
    while True:
        after = _PART_AFTER.match(text[end:])
        if not after:
            break
        end += after.end()
    return " ".join(text[start:end].split()) or None


# ----------------------------------------------------------------------------------------- burning questions

_BURN_VERB = re.compile(r"\b(?:burn|burning|light|throw|torch)\b\s+(?:up\s+|off\s+)?(.*)", re.I)
_OBJECT_END = re.compile(r"\b(?:at|in|on|into|behind|out|outside|near|with|from|this|next|tomorrow|tonight|today|"
                         r"tonite|tnite|2nite|2night|tmrw|tmr|tmrow|tomorow|2day|2morrow|rn|asap|later|"
                         r"right|now|before|after|during|around|about|is|if|when|or|and then|to)\b|[,?.!;]", re.I)
_PRONOUN = re.compile(r"^\s*(?:it|them|those|these|that|this|all of it|all of them)\b", re.I)
_NOT_MATERIAL = {"a", "an", "the", "my", "our", "his", "her", "their", "some", "of", "pile", "piles", "bunch", "lot",
                 "lots", "few", "little", "bit", "stuff", "things", "thing", "old", "big", "small", "ok", "okay",
                 "fire", "burn", "pit", "barrel", "there", "here", "yard", "property", "land", "anything", "something",
                 "legally", "today", "tonight", "tomorrow", "weekend", "morning", "afternoon", "evening", "night",
                 "overnight", "dark", "sunset", "sundown", "sunrise", "dawn", "dusk", "late", "early", "noon",
                 "midnight", *timewords.WEEKDAYS, *timewords.WEEKDAY_SHORT, *timewords.MONTH_NUMBER}


def names_a_material(text: str) -> bool:
    """Does a burning question name something to burn that the NLU did not tag ("a pile of old horse manure",
    "the boards", "them" after "railroad ties")? "can I burn right now?", "can i burn at 5 am" do not."""
    m = _BURN_VERB.search(text or "")
    if not m:
        return False
    if _PRONOUN.match(m.group(1)):
        return True
    obj = _OBJECT_END.split(m.group(1), maxsplit=1)[0]
    return any(w not in _NOT_MATERIAL and len(w) > 2 for w in re.findall(r"[a-z]+", obj.lower()))


def material_names(text: str, names: Iterable[Iterable[tuple]]) -> str:
    """The material names of a town (materials.yml, as words) found in ``text``, in the resident's words and in
    the order said, a name inside a longer one left out: "old tires and some painted wood" -> "tires and painted
    wood"; "" when none."""
    from knowledge.model import material_words
    words = material_words(text)
    raw = re.findall(r"[a-z0-9]+", (text or "").lower())
    found = []
    for group in names:
        for name in group:
            n = len(name)
            found += [(i, i + n) for i in range(len(words) - n + 1) if words[i:i + n] == tuple(name)]
    kept = sorted({f for f in found if not any(o[0] <= f[0] and f[1] <= o[1] and o != f for o in found)})
    return " and ".join(" ".join(raw[a:b]) for a, b in kept) if len(raw) == len(words) else ""


def burn_object(text: str) -> str:
    """The words after "burn" up to a time, place or the end ("can i burn an old mattress tonight" -> "an old
    mattress"); "" when none."""
    m = _BURN_VERB.search(text or "")
    if not m or _PRONOUN.match(m.group(1)):
        return ""
    obj = _OBJECT_END.split(m.group(1), maxsplit=1)[0]
    return " ".join(re.findall(r"[A-Za-z0-9'-]+", obj)[:6])


# ----------------------------------------------------------------------------------------- definitions

_QUOTED = re.compile(r"(?<![A-Za-z])['\"‘“]([^'\"’”]{2,40})['\"’”](?![A-Za-z])")  # never the 's of "what's"
_TERM_CUE = re.compile(r"(?:what does (?:the (?:word|term) )?|counts? as |considered |definition of |define |"
                       r"meaning of |what(?:'s| is|s) (?:an? |the )?)(?:an? |the )?(.+?)(?:\s+mean\b|\s+in\b|"
                       r"\s+under\b|[?.,!]|$)", re.I)
_GENERIC = {"dog", "dogs", "cat", "cats", "pet", "pets", "animal", "animals", "puppy", "puppies", "pup", "pups"}


#: units residents give a distance in, as feet per unit (exact definitions: 1 yd = 3 ft, 1 ft = 0.3048 m)
_FEET_PER = {"ft": 1.0, "feet": 1.0, "foot": 1.0, "'": 1.0, "yd": 3.0, "yds": 3.0, "yard": 3.0, "yards": 3.0,
             "m": 1 / 0.3048, "meter": 1 / 0.3048, "meters": 1 / 0.3048, "metre": 1 / 0.3048, "metres": 1 / 0.3048}
_DISTANCE = re.compile(r"(\d+(?:\.\d+)?|\b[a-z]+(?:[- ][a-z]+)?)\s*(ft|feet|foot|'|yds?|yards?|meters?|metres?|m)(?![a-z])",
                       re.I)


_AWAY = re.compile(r"\s*(from|away|off|of (the|my|our|a|an|any|his|her|their|that|this)|to (the|my|our|a|an|any))\b",
                   re.I)


def _number_word(word: str) -> bool:
    return word not in ("a", "an", "to", "too", "for", "tree") and count_value(word) is not None


def distance_feet(text: str, away: bool = False) -> Optional[float]:
    """The first distance in ``text`` in feet ("50 ft", "50'", "fifty feet", "20 yards", "15 m"); None if none.
    ``away``: only a distance said as one ("20 feet from the garage", "30 ft away"), not a size ("a 10 foot
    pile", "2 ft of brush")."""
    for m in _DISTANCE.finditer(text or ""):
        number, unit = m.group(1), m.group(2).lower()
        if away and not _AWAY.match(text, m.end()):
            continue
        if re.fullmatch(r"\d+(?:\.\d+)?", number):
            value = float(number)
        else:  # number words only ("fifty", "forty five"): not "a foot", "and a foot"
            tokens = re.split(r"[- ]", number.lower())
            if len(tokens) == 2 and not _number_word(tokens[0]) and _number_word(tokens[1]):
                tokens, number = tokens[1:], tokens[1]  # "burn twenty feet": the word before is not the number's
            if not all(_number_word(w) for w in tokens):
                continue
            value = count_value(number)
            if value is None:
                continue
        feet = value * _FEET_PER[unit]
        return round(feet, 1) if feet != int(feet) else float(int(feet))
    return None


def distances(text: str) -> list[dict]:
    """Each distance said ("50 ft", "twenty feet") as an entity {"entity": "distance", "value": feet, "start",
    "end"}, in the order said."""
    out = []
    for m in _DISTANCE.finditer(text or ""):
        feet = distance_feet(m.group(0))
        if feet is not None:
            out.append({"entity": "distance", "value": feet, "start": m.start(), "end": m.end()})
    return out


def defined_term(text: str, terms: Iterable[str]) -> str:
    """The term a "what does X mean" question asks about, found among the town's defined ``terms`` (longest
    first; a quoted word or the words after "what does", "counts as", "considered" first; a generic word such as
    "dog" only when nothing else is named); else the words after the cue, else the whole text."""
    from knowledge.model import term_key

    keys = sorted({term_key(t) for t in terms}, key=len, reverse=True)

    def found_in(phrase: str, generic: bool = True) -> Optional[str]:
        p = f" {term_key(phrase)} "
        return next((k for k in keys if f" {k} " in p and (generic or k not in _GENERIC)), None)

    for pattern in (_QUOTED, _TERM_CUE):
        m = pattern.search(text or "")
        if m:
            return found_in(m.group(1)) or m.group(1).strip()
    return found_in(text, generic=False) or found_in(text) or text


# ----------------------------------------------------------------------------------------- animals and licenses

_YOUNG = re.compile(r"^(pup|kitt)", re.I)
_ONE_MORE = re.compile(r"\b(?:one|another|1|a)\s+more\b", re.I)
_ANOTHER = re.compile(r"\b(?:another|one more|1 more)\s+"
                      r"(cat|kitten|kitty|dog|puppy|pup)\b", re.I)
_MEANING = re.compile(r"\b(mean|means|meaning|defin\w*|counts? as|considered)\b", re.I)
_MOVED = re.compile(r"\b(mov(?:ed|ing|e)|relocat\w*|new (?:to|in) (?:town|the (?:town|city)))\b", re.I)
_DEADLINE = re.compile(r"\b(when|by when|deadline|how long|how soon|how many days|by what date|until when)\b", re.I)


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


def asks_a_meaning(text: str) -> bool:
    """"what does at large mean", "who counts as an owner": a question about a defined word."""
    return bool(_MEANING.search(text or ""))


_EXPOSURE = re.compile(r"\bexpos|\brabid\b|positive for rabies|\b(has|had|with|carrying|carried|for) rabies\b|"
                       r"\brabies (test|positive)", re.I)
_WILD = re.compile(r"\b(skunk|raccoon|racoon|bat|fox|coyote|wild animal|wildlife|possum|opossum|woodchuck|"
                   r"groundhog)s?\b", re.I)


def incident_kind(text: str, said: Iterable[str] = ()) -> Optional[str]:
    """ "exposure" (contact with an animal that may have rabies: "a skunk that tested positive for rabies"),
    "bite" (the animal bit someone), or None when a wild animal is named without saying which: asked back,
    never guessed (an exposed pet is confined far longer than a biting one)."""
    said = {str(v).lower() for v in said}
    if "exposure" in said or _EXPOSURE.search(text or ""):
        return "exposure"
    if _WILD.search(text or ""):
        return None
    return "bite"


def names_an_exposure(text: str) -> bool:
    """"a rabid skunk", "tested positive for rabies": contact with an animal that may have rabies."""
    return bool(_EXPOSURE.search(text or ""))


def asks_consequence(text: str) -> bool:
    """ "What happens if I don't keep him quarantined?", "the fine for ...": a question about the penalty."""
    return bool(re.search(r"\b(fined|penalt\w*|jail|ticket\w*|forfeit\w*|punish\w*|consequences?)\b|"
                          r"\bwhat happens if\b|\b(a|the) fine\b|\bfine for\b", text or "", re.I))


#: "at night": after dark, as answers.time_phrase reads it said alone; every other after-dark phrase is daypart's
_AT_NIGHT = re.compile(r"\bat night\b", re.I)
_PERMISSION = re.compile(r"\b(permission|approv\w*|exception|town board|special permit)\b", re.I)


_MAY_I = re.compile(r"\b(?:can|may|could) (?:i|we|you|my|our|they|he|she|people)\b|\b(?:allowed|ok|okay|alright|"
                    r"all right|legal|permitted)\b|\b(?:is it|it'?s|i'?m|we'?re) (?:good|fine) to\b", re.I)


def asks_may_i(text: str) -> bool:
    """"can I burn after dark?", "is it OK to burn tonight?": asks whether a burn may happen (a Yes or No answers
    it); not "does the fire need to be out when it gets dark?" nor "is it illegal to burn after dark?"."""
    return bool(_MAY_I.search(text or ""))


def asks_after_dark_permission(text: str) -> bool:
    """"How do we get permission for a bonfire after dark?": the Town Board's exception to the daylight rule
    (Dunkirk 7.11), whichever burning intent it was read as."""
    after_dark = daypart.after_dark(daypart.normalise_sun(text)) or _AT_NIGHT.search(text or "")
    return bool(after_dark and _PERMISSION.search(text or "") and
                re.search(r"\b(how|who|get|ask|request|apply)\b", text or "", re.I))


def asks_how_long(text: str) -> bool:
    """ "How long is the quarantine?", "how many days", "when can she come out": a question about the period."""
    return bool(re.search(r"\bhow (long|many (days|weeks))\b|\b(days?|weeks?)\b|quarant|isolat|confine|observ|"
                          r"\bwhen (can|will|does|do)\b|\brelease|\bend\b|\bover\b", text or "", re.I))


def asks_moving_deadline(text: str) -> bool:
    """"We moved here on April 25, when do they need licenses?": the deadline after moving in."""
    return bool(_MOVED.search(text or "") and _DEADLINE.search(text or ""))


_FIVE_MONTHS = re.compile(r"\b(turn(?:s|ed|ing)?|reach(?:es|ed)?|be|is|was|will be|hit(?:s)?)\s+(?:5|five)\s+"
                          r"months?(?:\s+old)?\b", re.I)


def five_months_when(whens: Iterable[dict], text: str) -> Optional[dict]:
    """The time entity that follows "turns 5 months (on)" / "turned five months old (on)"."""
    for e in whens:
        if _FIVE_MONTHS.search(text[max(0, e["start"] - 40):e["start"]]):
            return e
    return None


_BORN = re.compile(r"\b(?:born|birthday|birth date|date of birth|dob)\b", re.I)


def birth_when(whens: Iterable[dict], text: str) -> Optional[dict]:
    """The time entity said as the dog's birth day ("he was born jan 10", "born feb 10, not neutered")."""
    return next((e for e in whens if cue_before(text, e["start"], _BORN)), None)


def five_months_past(text: str) -> bool:
    """"turned 5 months", "reached five months": the date lies in the past."""
    m = _FIVE_MONTHS.search(text or "")
    return bool(m and m.group(1).lower() in ("turned", "reached", "was", "hit"))


def said_word(e: dict, text: str) -> str:
    """The words an entity covers as typed ("puppies"; its value may be the canonical "dog")."""
    if text and e.get("start") is not None and e.get("end") is not None:
        return text[e["start"]:e["end"]].lower()
    return ""


def names_young(entities: Iterable[dict], text: str = "") -> bool:
    """"our dog had puppies": a litter is named (with or without a count)."""
    return any(e["entity"] == "animal" and _YOUNG.match(said_word(e, text) or animal_of(e)) for e in entities)


#: an unsure classifier's guess that the question's own words confirm: the intents, and the reading of the words
_MOVING_OUT = re.compile(r"\b(mov\w*|relocat\w*)\s+(?:out|away)\b|\bleav(?:e|ing)\b", re.I)


_INTO_TOWN = (r"\bmov\w* (?:here|in\b(?! (?:to|a|an|the|our|my)\b))|"
              r"\bin ?to (?:town|here|the (?:town|city|village|area){})\b")


def asks_deadline_after_moving_in(text: str, places: Iterable[str] = ()) -> bool:
    """"We moved to Mequon on April 25, when do they need licenses?" (not "when we move out ...", nor "leaving
    Mequon and moving into a house in Grafton"): a move out is overridden only by a move into this town
    (``places``: its names)."""
    names = "".join(f"|{re.escape(p)}" for p in places if p)
    return asks_moving_deadline(text) and (not _MOVING_OUT.search(text or "") or
                                           bool(re.search(_INTO_TOWN.format(names), text or "", re.I)))


#: a moving verb; "ahead" when said as still to come ("we're moving", "will move", not "moved" nor a bare "moving")
_MOVE_VERB = re.compile(r"(?:\b(?P<ahead>(?:are|am|will be|going to be|were|im|ill be|well be) (?:moving|relocating)|"
                        r"(?:will|going to|gonna|plan(?:ning)? to|ill|well) (?:move|relocate))|"
                        r"(?<=')(?P<ahead2>(?:re|m|ll be) (?:moving|relocating)|ll (?:move|relocate)))\b|"
                        r"\b(?P<past>moved|relocated)\b|\b(?:moving|move|relocating|relocate)\b", re.I)
#: a move or arrival already made, anywhere in the message
_ARRIVED = re.compile(r"\b(?:moved|relocated|arrived|came|got here|have lived|lived|been here|closed on)\b", re.I)


def moving_still_to_come(text: str, at: int | None = None) -> Optional[bool]:
    """"we're moving to Mequon on July 10": the move is still to come (its day read forward, not back). The moving
    verb nearest before the day said (at ``at``; else the last) decides: "we moved to Grafton in 2020 and now
    we're moving to Mequon on July 10" is to come; "we moved here June 20 and I'm moving his tags over" and
    "moving here from Texas, arrived June 20" are not. A bare "moving to Mequon Aug 1" or "our move was June 25"
    says neither: None (the caller gives the rule rather than a deadline a year off)."""
    text = (text or "").replace("\u2019", "'")
    verbs = list(_MOVE_VERB.finditer(text[:at] if at is not None else text)) or list(_MOVE_VERB.finditer(text))
    if not verbs:
        return False
    last = verbs[-1]
    if last.group("ahead") or last.group("ahead2"):
        return True
    return False if last.group("past") or _ARRIVED.search(text) else None


_CONFIRMS = ((frozenset({"ask_license_required", "ask_late_fee", "ask_license_cost"}), asks_deadline_after_moving_in),)
#: the least confidence a guess may have to be confirmed (on the dev sets, guesses under 0.4 were right less than
#: half the time: bot/README.md)
GUESS_FLOOR = 0.4


def confirmed_guess(ranking: list[dict], text: str) -> Optional[str]:
    """The intent NLU ranked first (under the fallback threshold) when the words say the same on their own:
    "we moved here on April 25, when do they need licenses?" is a license deadline question
    (asks_deadline_after_moving_in) whatever the confidence. None otherwise: the resident is offered topics to choose from."""
    ranked = [r for r in ranking if r.get("name") != "nlu_fallback"]
    if not ranked or ranked[0].get("confidence", 0) < GUESS_FLOOR:
        return None
    best = ranked[0]["name"]
    return best if any(best in intents and reads(text) for intents, reads in _CONFIRMS) else None


_SOURCE = re.compile(r"\b(?:which|what) (?:section|part|rule|law|ordinance|code)\b.*\b(?:that|this|it|says?)\b|"
                     r"\b(?:source|says who|where does it say|show me the (?:law|rule|section|ordinance|code))\b",
                     re.I)


def asks_for_the_source(text: str) -> bool:
    """"Which section is that?", "source?", "where does it say that?": the law behind the last answer, not a
    section named by its number."""
    return bool(_SOURCE.search(text or ""))


_ONE_ANIMAL = re.compile(r"\b(?:she|he|it|her|him)(?:'?s)?\b|\bjust (?:the )?one\b|\bonly (?:the )?one\b", re.I)


def one_animal_meant(text: str) -> bool:
    """"she's spayed", "what if he is neutered", "just the one": one animal, though no number was said."""
    return bool(_ONE_ANIMAL.search(text or ""))


_WEATHER = re.compile(r"\b(wind\w*|gust\w*|breez\w*|dry|drought|red flag|blowing)\b", re.I)


def names_weather(text: str) -> bool:
    """"it's really windy today", "gusts like 35 mph", "so dry": weather that bears on a burn (7.12(4))."""
    return bool(_WEATHER.search(text or ""))


_YEAR = re.compile(r"\b(?:since|in|from|back in|around|about)?\s*((?:19|20)\d\d)\b", re.I)


def year_said(text: str) -> Optional[int]:
    """The year a reply names ("had him since 2019", "in 2020"), when it names one; None otherwise."""
    m = _YEAR.search(text or "")
    return int(m.group(1)) if m else None


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


_COUNTS_AS = re.compile(r"\b(?:mean|means|meaning|defin\w*|count(?:s|ed)? (?:as|like)|treat(?:s|ed)? (?:as|like)|"
                        r"consider(?:s|ed)?|qualif\w*|classif\w*|regarded as|does .{1,40} include|who counts|"
                        r"is (?:a|an|my|the|that|this) .{1,40} (?:a|an)\b)",
                        re.I)


def asks_whether_it_counts(text: str) -> bool:
    """"does X count as a dog?", "is a warden a law enforcement officer?", "what does neutered mean?": a question
    about the scope of a word of the code."""
    return bool(_COUNTS_AS.search(text or ""))


_ONE_DOG_SAID = re.compile(r"\b(?:a|an|one|1|my|our|the|this|her|his)\s+(?:[a-z'-]+\s+){0,3}?(?:dog|puppy|pup|male|"
                           r"female|mutt|pooch|doggo)\b(?!s)(?!\s+licen[cs])", re.I)
_DOGS = re.compile(r"\b(?:dogs|puppies|pups|both|all of them|them|they|their)\b", re.I)


def one_dog_said(text: str) -> bool:
    """"a dog license for one neutered male", "license price for a female dog", "how much is a dog license":
    one dog, no plural said."""
    return bool(_ONE_DOG_SAID.search(text or "")) and not _DOGS.search(text or "")


_TOTAL = re.compile(r"\b(how much|total|cost|costs|owe|price|pay|charge|altogether)\b", re.I)
_ASKS_DEADLINE = re.compile(r"\b(deadline|by when|how long do|how much time|until when|when do (?:i|we) (?:have|need)|"
                            r"last day|due date|when is it due|when(?:'?s| is) (?:the |my |our |his |her )?(?:dog )?"
                            r"licen[cs]e due)\b", re.I)


def asks_total(text: str) -> bool:
    """"how much do I owe?", "what's the total?": the whole license cost, not only whether it is late."""
    return bool(_TOTAL.search(text or ""))


def asks_deadline(text: str) -> bool:
    """"what's the deadline to license her?", "how long do I have?": the last day on time."""
    return bool(_ASKS_DEADLINE.search(text or ""))
