"""Readers of burning questions: burning without notice, after dark, under a no-burning order, too close, in the
wind, at a time or of a material; and the time phrase and material a message says."""
from __future__ import annotations

import re

from rasa_sdk import Tracker

from knowledge import burn_hours, daypart, handlers, when
from knowledge.model import Answer

from .. import common, conversation, parsing
from .base import Asked, has_rule

#: the intents of questions about burning
BURNING_INTENTS = {"ask_burning_rules", "ask_burning_hours", "ask_can_burn", "ask_burn_notification", "notify_burn",
                   "ask_prohibited_materials", "ask_burn_setbacks", "ask_no_burning_order", "ask_burning_penalties"}


def unannounced(q: Asked) -> Answer | None:
    """"can i just burn it today without telling anyone?": No, never a Yes on conditions (7.12(1))."""
    if q.intent in BURNING_INTENTS - {"ask_burning_penalties", "ask_no_burning_order"} and \
            conversation.burns_unannounced(q.text) and q.t.topics["burn_notification"].covered:
        answer = handlers.topic(q.t, "burn_notification", on=q.today, aspect=burn_hours.scheme(q.t).before_rule)
        answer.lead = f"No: {answer.lead[:1].lower()}{answer.lead[1:]}" if answer.lead else answer.lead
        return answer
    return None


def after_dark(q: Asked) -> Answer | None:
    """"can someone let me burn after dark?" with no time said: who may allow burning after the hours (7.11)."""
    if q.intent in ("ask_burn_notification", "ask_burning_rules", "ask_burning_hours", "ask_permits") and \
            parsing.asks_after_dark_permission(q.text) and not common.when_text(q.tracker):
        return handlers.topic(q.t, "burning_hours", on=q.today, question=q.text,
                              aspect=burn_hours.scheme(q.t).exception_rule)
    return None


def permit_to_burn(q: Asked) -> Answer | None:
    """"do I need a permit to burn brush?" read as a question about permits: what the town requires before a burn
    (its scheme's rule: a Fire Department permit, Fairview 9.03(1); telling the fire department, Dunkirk 7.12(1)),
    never the silence on animal permits. A town whose code has no burning rules answers with that silence."""
    if q.intent != "ask_permits" or common.entities(q.tracker, "animal") or \
            not conversation.about_burning(q.text) or not q.t.topics["burn_notification"].covered:
        return None
    return handlers.topic(q.t, "burn_notification", on=q.today, question=q.text,
                          aspect=burn_hours.scheme(q.t).before_rule)


def order_status(q: Asked) -> Answer | None:
    """"is there a burn ban this weekend?": the orders in force then; the rule alone when the store is down."""
    if q.intent != "ask_no_burning_order":
        return None
    said = common.when_text(q.tracker)  # "this weekend", "Saturday": the orders in force then
    during = when.resolve(said, q.t, now=q.now) if said else None
    try:
        orders = common.burning_orders(q.t)
    except Exception:  # the records store is down: the rule, without claiming a status
        answer = handlers.topic(q.t, "no_burning_order", on=q.today)
        answer.caveats.insert(0, "I can't check right now whether an order is in effect; call the Fire "
                                 "Department or the Clerk before you burn.")
        return answer
    return handlers.burning_order_status(q.t, now=q.now, orders=orders, during=during)


def distance(q: Asked) -> Answer | None:
    """"is 50 ft from the house far enough?"; a burn asked about too close gets its "No"."""
    feet = parsing.distance_feet(q.text) if q.intent == "ask_burn_setbacks" else \
        parsing.distance_feet(q.text, away=True) if q.intent == "ask_can_burn" else None
    if feet is None:
        return None
    setback = handlers.burn_setback(q.t, distance_feet=feet, on=q.today)
    return setback if q.intent == "ask_burn_setbacks" or setback.value is not True else None


def weather(q: Asked) -> Answer | None:
    """"it's really windy today ... ok to burn this afternoon?": the weather rule decides (Dunkirk 7.12(4)), unless
    the time asked is outside the hours or under an order: that No comes first ("tomorrow at 5 am before it gets
    windy" is before sunrise)."""
    if q.intent not in ("ask_can_burn", "ask_burning_rules") or not parsing.names_weather(q.text) or \
            not has_rule(q.t, "burning_rules", "weather"):
        return None
    said = time_phrase(q.tracker) if common.when_text(q.tracker) else None
    if said:
        timed = handlers.burning(q.t, at=when.resolve(said, q.t, now=q.now), orders=common.burning_orders(q.t),
                                 material=material_said(q.tracker))
        if (timed.value or {}).get("allowed") is False:
            return timed
    return handlers.topic(q.t, "burning_rules", on=q.today, question=q.text, aspect="weather")


def at_a_time(q: Asked) -> Answer | None:
    """"can I burn brush tomorrow at 3?", "can I burn tires?": whether burning is allowed then (now when no time
    is said), of the material said."""
    material = common.entity(q.tracker, "material")
    if q.intent not in ("ask_can_burn", "ask_burning_hours") and not (
            q.intent == "ask_prohibited_materials" and material):
        return None
    said = time_phrase(q.tracker)
    if q.intent == "ask_burning_hours" and not common.when_text(q.tracker) and not parsing.asks_may_i(q.text):
        said = None  # "does the fire need to be out when it gets dark?": the hours rule, not a Yes or No
    if said or q.intent != "ask_burning_hours":
        at = when.resolve(said, q.t, now=q.now) if said else q.now
        return handlers.burning(q.t, at=at, orders=common.burning_orders(q.t), material=material_said(q.tracker))
    return None


READERS = [unannounced, after_dark, permit_to_burn, order_status, distance, weather, at_a_time]


def time_phrase(tracker: Tracker) -> str | None:
    """The message's time phrase with its words ("9 tonight", "tomorrow at 6 in the morning"), for when.resolve;
    "after dark" or "before sunrise" said anywhere in the message goes with it ("can I burn after dark tomorrow?":
    tomorrow after dark, never the whole of tomorrow or now)."""
    text = common.text_of(tracker)
    said = parsing.time_phrase(text, common.entities(tracker, "when"))
    dark = daypart.dark_phrase(text)  # "once it’s dark", "b4 sunrise", "after the sun goes down"
    if dark and dark not in daypart.normalise_sun(said or ""):
        return f"{said} {dark}" if said else dark
    if (said is None and re.search(r"\b(?:at|in the) (?:night|nite)\b", text, re.I)) or \
            re.fullmatch(r"\s*(?:at|in the) (?:night|nite)\s*", said or "", re.I):
        return "after dark"  # "can I burn at night?": after sunset, never now nor "the evening until sunset"
    return said


def material_said(tracker: Tracker) -> str | None:
    """What the resident wants to burn, in their words: the town's material names found in the message
    ("railroad ties ... burn them" -> "railroad ties"), else the words after "burn" ("a pile of old horse
    manure"); None when it names none ("can I burn now?"). Never the whole message: the answer repeats it."""
    text = common.text_of(tracker)
    named_entity = [e for e in common.entities(tracker, "material")
                    if not parsing.is_day_word(text[e.get("start", 0):e.get("end", 0)])]  # "sat at 3": a day
    untimed = text
    for e in sorted(common.entities(tracker, "when"), key=lambda e: -e.get("start", 0)):
        untimed = untimed[:e["start"]] + ", " + untimed[e["end"]:]  # "this weekend" names no material
    if not (named_entity or parsing.names_a_material(untimed)):
        return None
    named = parsing.material_names(text, [g.names for kind in (common.town().materials or {}).values() for g in kind])
    if named:
        return named
    spans = sorted((e["start"], e["end"]) for e in common.entities(tracker, "when"))
    for start, end in reversed(spans):
        text = text[:start] + " " + text[end:]
    return parsing.burn_object(text) or "that material"  # "railroad ties ..., ok to burn them?": not on a list


def pick_for(pending: dict, text: str) -> str | None:
    """The original question's time phrase with the resident's pick of reading added ("at 9" + "at night");
    None when the reply picks neither ("yes")."""
    words = (text or "").strip()
    if re.search(r"\d", words):  # "9pm": the reading, not a second time
        words = "pm" if re.search(r"p\.?\s*m\b", words, re.I) else "am" if re.search(r"a\.?\s*m\b", words, re.I) \
            else words
    if not re.search(r"\b(am|pm|a\.m|p\.m|morning|afternoon|evening|night|tonight|nite|dark|day|daytime)\b", words,
                     re.I):
        return None
    return f"{pending.get('phrase', '')} {words}"
