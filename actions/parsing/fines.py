"""Fines and limits in residents' words: which rule a penalty question names (Dunkirk 7.02-18), and a question
about the household limit."""
from __future__ import annotations

import re
from typing import Iterable

from knowledge import timewords


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
