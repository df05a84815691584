"""A topic must be supported by the message (#21): no burning answer to a message with no burning meaning, no
license computation for a question about an impound fee."""
from __future__ import annotations

from rasa_sdk import Tracker

from . import common, conversation, dialogue
from .readers.burning import BURNING_INTENTS


#: intents whose computed answer would mislead on a message about something else ("Yes, you may burn" to a
#: question about dogs, a license total for an impound fee): their words must name their topic
SUPPORT_NEEDED = {"ask_can_burn", "ask_burning_hours", "ask_burning_rules", "ask_prohibited_materials",
                  "ask_burn_setbacks", "ask_no_burning_order", "ask_burn_notification", "ask_license_cost",
                  "ask_late_fee", "ask_multiple_dog_license"}


def only_a_time(tracker: Tracker) -> bool:
    """The message states a time and nothing else the code is about ("what about tomorrow morning at 7?"), in a
    town whose code has burning hours: the only topic a bare time is asked of."""
    said = dialogue.said_of(tracker)
    kinds = {k for c in conversation.clauses(said) for k in conversation.kinds_of(c)}
    return bool(kinds) and kinds <= {"time", "day"} and not conversation.names_a_topic(said.text) and \
        common.town().topics["burning_hours"].covered


def supported_intent(intent: str, text: str, tracker: Tracker) -> str | None:
    """The intent a message's own words support (#21: a topic must be supported by the message): ``intent``
    when it is not one of SUPPORT_NEEDED, or its words name no topic or name its own; else the first of the
    topics they name in the classifier's ranking (a burning reading of a question about dogs becomes the dog
    question); None when none of them was ranked (the resident is asked which). A follow-up carries the last
    question's words."""
    named = conversation.topics_named(text)
    if not named and intent in (tracker.latest_message.get("form_subject") or ()) and \
            not common.entities(tracker, "animal"):
        return intent  # mid burn notice, "how far from the house does it have to be?" is asked of the burn
    if intent in BURNING_INTENTS and not named & BURNING_INTENTS and not common.entity(tracker, "material"):
        if only_a_time(tracker):
            return intent  # "what about tomorrow morning at 7?": a time is asked of burning only
        named = named or frozenset({"nlu_fallback"})  # no word of burning at all: never a burning answer
    ranked = [r.get("name") for r in tracker.latest_message.get("intent_ranking") or []]
    if intent in SUPPORT_NEEDED and not named and not tracker.latest_message.get("entities"):
        # "how late can it go?" after "a bonfire on saturday": that topic ("we have 3 dogs, how much?" keeps its own)
        earlier = conversation.topics_named(" ".join(str(f.get("text", "")) for f in dialogue.facts(tracker)))
        if earlier and intent not in earlier:
            return next((name for name in ranked if name in earlier), None)
    if intent not in SUPPORT_NEEDED or not named or intent in named:
        return intent
    return next((name for name in ranked if name in named), None)


def burning_not_covered(tracker: Tracker) -> bool:
    """A message about burning in a town whose code has no burning rules (Mequon): its answer says so."""
    t = common.town()
    return not t.topics["burning_rules"].covered and conversation.about_burning(common.text_of(tracker))
