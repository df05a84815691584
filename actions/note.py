"""Messages that state facts without a question ("we have 4 dogs", "it was March 3", "my neighbor says ..."):
answered again with the fact, checked when they report a claim, or noted for the next answer."""
from __future__ import annotations

from typing import Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet

from . import answers, common, conversation, dialogue, parsing, replies
from .conversation import facts_in, noted
from .readers.burning import BURNING_INTENTS
from .readers.clauses import topic_meant


class ActionNote(Action):
    """A message that states facts without a question ("we have 4 dogs", "it was March 3", "actually she's
    spayed"): when the last answer uses such a fact it is answered again with it; else the facts are kept for
    the next answer and acknowledged. With no fact, as before: a pick of a time asked back, or the help."""

    def name(self) -> Text:
        return "action_note"

    async def run(self, dispatcher, tracker, domain):
        picked = await answers.answer_pick(dispatcher, tracker)  # "at night", after "9 in the morning or at night?"
        if picked is not None:
            return picked
        said = dialogue.said_of(tracker)
        new = facts_in(said)
        last = dialogue.last_question(tracker)
        uses = conversation.config()["uses"]
        before = conversation.Said.of(last) if last else None
        replaces = before is not None and {e["entity"] for e in said.entities} & {e["entity"] for e in before.entities}
        if new and last and (replaces or any(last["intent"] in uses.get(k, ()) for f in new for k in f["kinds"])):
            return await answers.answer_turn(dialogue.read(tracker, "followup"), dispatcher, domain)
        going_on = await answers.continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        asked_back = hour_of_a_planned_burn(dispatcher, tracker, new)
        if asked_back is not None:
            return dialogue.remember_facts(tracker) + asked_back
        # a claim someone else made is checked; a question read as a statement is answered
        claim = (claim_topic(tracker) if new else None) or question_topic(tracker)
        if claim is not None:  # "my neighbor says you can have 6 dogs on a farm": checked, not only noted
            return await answers.answer_turn(dialogue.read(tracker, claim), dispatcher, domain)
        if new:
            common.send_text(dispatcher, tracker, noted(new) + " What would you like to know?")
            return dialogue.remember_facts(tracker) + dialogue.guessed(tracker)
        if common.intent_of(tracker) == "deny":
            common.send_text(dispatcher, tracker, "OK. Anything else about licenses, animals or burning?")
            return []
        return await replies.ActionHelp().run(dispatcher, tracker, domain)


#: a reported claim is answered on the topic the classifier ranked first among the questions when at least this
#: sure of it (and the meaning of the town's rules does not name another): below, it is only noted
CLAIM_FLOOR = 0.2
#: ... or a question ranked at least this share of the first one that uses the facts the claim states
CLAIM_CLOSE = 0.5


def claim_topic(tracker: Tracker) -> str | None:
    """The question a message reporting what someone else said asks ("the deputy told me I can burn 30 ft from
    the garage": the setbacks), or None when it reports nothing or its topic is unclear."""
    text = common.text_of(tracker)
    if not conversation.reports_a_claim(text):
        return None
    # a claim asks whether a rule is so, never whether one may burn at this moment: "my neighbor says you can burn
    # brush during a burn ban" is the no-burning order's rule, not "Yes, you may burn brush now"
    ranked = [r for r in tracker.latest_message.get("intent_ranking") or [] if str(r.get("name")).startswith("ask_")
              and r.get("name") not in ("ask_section", "ask_can_burn")]
    if not ranked:
        return None
    top = float(ranked[0].get("confidence") or 0)
    uses = conversation.config()["uses"]
    kinds = {k for f in facts_in(dialogue.said_of(tracker)) for k in f["kinds"]} - {"animal"}
    for r in ranked:  # "6 dogs": the close-ranked question that uses a count (the limit), not any farm rule
        if float(r.get("confidence") or 0) >= max(CLAIM_FLOOR / 4, top * CLAIM_CLOSE) and \
                any(r["name"] in uses.get(k, ()) for k in kinds):
            return r["name"]
    meant = topic_meant(common.town(), text)
    if meant is not None and meant != "ask_can_burn":
        return meant
    return ranked[0]["name"] if top >= CLAIM_FLOOR else None


def question_topic(tracker: Tracker) -> str | None:
    """The question a message read as a statement of facts still asks ("how long do i have to get my new dog
    vaccinated? got her yesterday"): the first question the classifier ranked whose topic the words name; None
    when the message asks nothing or names no ranked topic (then it is only noted)."""
    text = common.text_of(tracker)
    if not common.looks_like_question(text):
        return None
    # however unsure the classifier is of it (it read a statement): the message's own words name the topic; never
    # whether one may burn now, and burning only when the words can only be about burning ("trash", "leaves" and
    # "fire trucks" are not: "we put the dog poop in the trash, is that ok?")
    ranked = [r["name"] for r in tracker.latest_message.get("intent_ranking") or []
              if str(r.get("name")).startswith("ask_") and r.get("name") not in ("ask_section", "ask_can_burn")]
    return next((name for name in ranked if conversation.supports(name, text) and (
        name not in BURNING_INTENTS or conversation.about_burning(text))), None)


def hour_of_a_planned_burn(dispatcher, tracker: Tracker, new: list[dict]) -> list | None:
    """"probably around 9" after "we're gonna burn the old hay bales tomorrow": the hour is asked back ("9 in the
    morning or 9 at night?", 7.11 allows only the daylight), and the pick answers whether that burn may go ahead.
    None unless a bare hour is said after a burn was."""
    whens = [e for f in new if "time" in f["kinds"] for e in f.get("entities") or [] if e["entity"] == "when"]
    said = " ".join(str(e.get("value", "")) for e in whens) if len(whens) == 1 else common.text_of(tracker)
    hour = parsing.bare_hour(said)  # "around 9", or a bare "9" (read as a count)
    earlier = dialogue.facts(tracker)
    if hour is None or not any(conversation.about_burning(str(f.get("text", ""))) for f in earlier):
        return None
    days = [str(e.get("value")) for f in earlier if "day" in f.get("kinds", ()) for e in f.get("entities") or []
            if e.get("entity") == "when"]
    materials = [str(e.get("value")) for f in earlier for e in f.get("entities") or [] if e.get("entity") == "material"]
    h, m = hour
    said = f"{h}:{m:02d}" if m else str(h)
    common.send_text(dispatcher, tracker, f"Do you mean {said} in the morning or {said} at night?")
    return [SlotSet("pending_when", {"intent": "ask_can_burn", "text": common.text_of(tracker),
                                     "phrase": " ".join(days[-1:] + [f"at {said}"]),
                                     "material": " and ".join(materials) or None})]
