"""RulerEntityExtractor: the entities of the rule-based spaCy pipeline (bot/spacy_build.py), tidied.

It is SpacyEntityExtractor with three rules added after the entity ruler:
- a count is kept only where it counts animals ("2 dogs", "three spayed dogs") or stands alone ("2" in answer
  to "how many dogs?"); "a"/"an"/"to"/"for" need an animal right after them and another count in the message
  ("2 dogs and a cat");
- an animal word naming a thing ("dog license", "dog run") is not an animal entity;
- time phrases next to each other merge ("tomorrow" + "at 3" -> "tomorrow at 3");
- a number inside a time or a section is not a count.
Its own name (not "SpacyEntityExtractor") also keeps `rasa test nlu` from dropping its entities as those of
a "pretrained" extractor, so the held-out evaluation measures it.
"""
from __future__ import annotations

from typing import Any, Dict, List, Text

from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.nlu.extractors.spacy_entity_extractor import SpacyEntityExtractor

from bot import speedups, vocab

speedups.apply()  # the Rasa server imports this module when it loads the model

UNIT_WORDS = {"pm", "am", "a.m.", "p.m.", "feet", "ft", "foot", "days", "day", "weeks", "week", "months",
              "month", "years", "year", "hours", "hour", "minutes", "min", "dollars", "bucks", "o'clock",
              "oclock", "acres", "acre", "inches", "yards", "miles", "percent", "%", "lbs", "pounds", "times",
              "th", "st", "nd", "rd", ":", "/", "-", "x", "sq", "square", "cubic", "am.", "pm."}
ANIMAL_LABELS = {"animal", "service_dog"}


def tidy(doc) -> List[Dict[Text, Any]]:
    ents = list(doc.ents)
    labels = {}
    for e in ents:
        for i in range(e.start, e.end):
            labels[i] = e.label_
    kept = []
    for e in ents:
        if e.label_ == "count" and not _is_count(doc, e, labels):
            continue
        if e.label_ == "animal" and e.end < len(doc) and doc[e.end].lower_ in vocab.COMPOUND_HEADS:
            continue
        kept.append([e.label_, e.start, e.end])
    # "a"/"an"/"another" count an animal only beside another count: "2 dogs and a cat"
    strong = [k for k in kept if k[0] == "count" and doc[k[1]:k[2]].text.lower() not in vocab.WEAK_COUNTS]
    if not strong:
        kept = [k for k in kept if not (k[0] == "count" and doc[k[1]:k[2]].text.lower() in vocab.WEAK_COUNTS)]
    # merge adjacent time phrases: "tomorrow" "at 3" / "saturday" "at 10pm" / "march 3" "," "2027"
    merged: list[list] = []
    for item in kept:
        if merged and item[0] == "when" and merged[-1][0] == "when":
            gap = doc[merged[-1][2]:item[1]]
            if len(gap) == 0 or (len(gap) == 1 and gap[0].lower_ in {",", "around", "about", "at", "-"}):
                merged[-1][2] = item[2]
                continue
        merged.append(item)
    out = []
    for label, start, end in merged:
        span = doc[start:end]
        out.append({"entity": label, "value": span.text, "start": span.start_char, "end": span.end_char,
                    "confidence": None})
    return out


def _is_count(doc, e, labels) -> bool:
    word = e.text.lower()
    # look right past adjectives for an animal
    j = e.end
    while j < len(doc) and doc[j].lower_ in vocab.COUNT_GAP and labels.get(j) not in ANIMAL_LABELS:
        j += 1
    followed_by_animal = j < len(doc) and labels.get(j) in ANIMAL_LABELS
    if followed_by_animal:
        return True
    if word in vocab.WEAK_COUNTS or word in {"a few", "a couple", "several", "another", "dozen", "a dozen"}:
        # "a" / "to" / "for" are counts only before an animal; "a few", "several" stand alone in replies
        return word in {"a few", "a couple", "several", "a dozen"} and len(doc) <= 6
    nxt = doc[e.end].lower_ if e.end < len(doc) else ""
    prev = doc[e.start - 1].lower_ if e.start > 0 else ""
    if nxt in UNIT_WORDS or prev in {"$", "at", "section", "sec", "sec.", "chapter", "ch", "around", "about",
                                     "by", "#", "no", "no."}:
        return False
    if nxt and (nxt.isdigit() or nxt in {"-", "/", ":", "."}):
        return False
    # a bare number standing alone in a short reply ("2", "i have 3", "three of them", "just one")
    return len(doc) <= 7


@DefaultV1Recipe.register(
    DefaultV1Recipe.ComponentType.ENTITY_EXTRACTOR,
    is_trainable=False,
    model_from="SpacyNLP",
)
class RulerEntityExtractor(SpacyEntityExtractor):
    """Entities from the knowledge-base entity ruler, with count and time-phrase rules."""

    @staticmethod
    def _extract_entities(doc) -> List[Dict[Text, Any]]:
        return tidy(doc)
