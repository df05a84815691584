"""Single questions: one intent -> its reader (actions/readers/) -> one handler in knowledge/ -> one message; and
the turn around it: a follow-up read on the last question, a time asked back and its pick."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher

from knowledge import NeedsClarification, handlers, when
from knowledge.loader import read_yaml

from . import common, conversation, dialogue, parsing, replies
from .last_answer import ActionWhy, forbidden_asked, rule_again, undefined_of_the_last_answer
from .readers import answer_for
from .readers.burning import material_said, pick_for, time_phrase
from .support import burning_not_covered, supported_intent

TOPICS = read_yaml(Path(__file__).resolve().parents[1] / "knowledge" / "topics.yml")


class ActionAnswer(Action):
    """Answers any ask_<topic> intent with the topic's handler."""

    def name(self) -> Text:
        return "action_answer"

    async def run(self, dispatcher: CollectingDispatcher, tracker: Tracker,
                  domain: Dict[Text, Any]) -> List[Dict[Text, Any]]:
        intent = common.intent_of(tracker)
        if not intent.startswith("ask_"):
            intent = "ask_" + intent if ("ask_" + intent)[4:] in TOPICS else intent
        picked = await answer_pick(dispatcher, tracker)
        if picked is not None:
            return picked
        if intent == "ask_section" and not common.entity(tracker, "section") and \
                parsing.asks_for_the_source(common.text_of(tracker)) and tracker.get_slot("last_answer"):
            return await ActionWhy().run(dispatcher, tracker, domain)  # "which section is that?"
        return await answer_turn(dialogue.read(tracker, intent), dispatcher, domain)

    @staticmethod
    def answer(intent: str, dispatcher: CollectingDispatcher, tracker: Tracker) -> List[Dict[Text, Any]]:
        """Send the answer to ``intent``'s question (the one NLU gave, or a guess the words confirm)."""
        t = common.town()
        try:
            if intent == "notify_burn":
                answer = handlers.topic(t, "burn_notification", on=common.now(t).date())
            else:
                answer = answer_for(intent, tracker, t, common.now(t))
        except when.AmbiguousTime as exc:
            common.clarify(dispatcher, tracker, exc)
            return [SlotSet("pending_when", {"intent": intent, "text": common.text_of(tracker),
                                             "phrase": time_phrase(tracker) or common.text_of(tracker),
                                             "material": material_said(tracker)})]
        except NeedsClarification as exc:
            common.clarify(dispatcher, tracker, exc)
            return clear_pending(tracker)
        if undefined_of_the_last_answer(answer, tracker) and rule_again(dispatcher, tracker):
            return clear_pending(tracker)  # "does that count as leashed?": the rule just given, not "not defined"
        return common.send(dispatcher, tracker, forbidden_asked(answer, common.text_of(tracker))) + \
            clear_pending(tracker)


async def answer_turn(turn: dialogue.Turn, dispatcher, domain) -> List[Dict[Text, Any]]:
    """Answer the question a turn asks (a follow-up of a license computed from the form's answers is computed
    again with the new values) and remember it."""
    if turn.rule_again and rule_again(dispatcher, turn.tracker):
        return turn.events  # "is that against the rules?" after an answer: its rule and the law's words
    if turn.follow_up and turn.last and "inputs" in turn.last:
        from .license_answer import answer_again
        return turn.events + answer_again(dispatcher, turn.tracker, turn.last)
    if not turn.intent.startswith("ask_") and turn.intent != "notify_burn":
        return turn.events + list(await replies.ActionClarify().run(dispatcher, turn.tracker, domain))
    if burning_not_covered(turn.tracker):
        # "can I burn the old coop boards?" where the code has no burning rules: that silence, never another
        # topic's rule by its other words ("backyard" is no beehive question)
        turn.intent = "ask_burning_rules"
        turn.tracker = dialogue.with_message(turn.tracker, dialogue.said_of(turn.tracker), turn.intent,
                                             common.text_of(turn.tracker))
    supported = supported_intent(turn.intent, common.text_of(turn.tracker), turn.tracker)
    if supported is None:  # its words name other topics only: asked which, never answered on the wrong topic
        turn.tracker.latest_message["unsupported"] = True  # ActionClarify then offers choices, routes no more
        return turn.events + list(await replies.ActionClarify().run(dispatcher, turn.tracker, domain))
    if supported != turn.intent and not conversation.topics_named(common.text_of(turn.tracker)):
        turn.tracker = with_earlier_facts(turn.tracker, supported)  # asked of what was said before
    turn.intent = supported
    events = ActionAnswer.answer(turn.intent, dispatcher, turn.tracker)
    return turn.events + events + dialogue.asked(turn, events)


def with_earlier_facts(tracker: Tracker, intent: str) -> Tracker:
    """The question read on the topic the facts said earlier name ("were throwing a bonfire on saturday" ...
    "how late can it go?"): those facts joined before it, and its own words choosing the rule of that topic only."""
    said = dialogue.said_of(tracker)
    earlier = [conversation.Said(str(f.get("text", "")), f.get("entities") or []) for f in dialogue.facts(tracker)
               if intent in conversation.topics_named(str(f.get("text", "")))]
    return dialogue.with_message(tracker, conversation.joined(*earlier, said), intent, said.text)


_COMMAND_WORD = re.compile(r"\s*(help|menu|start|hi|hello|hey|thanks?|thank you|bye|ok|okay|yes|yep|no|nope|"
                           r"stop|exit|cancel)\W*", re.I)


async def continued(dispatcher, tracker: Tracker, domain) -> list | None:
    """A message the classifier was unsure of, or read as help, out of scope, a statement or a denial, that goes
    on from the last answer ("how late can it go?", "and if it bit someone", "sorry, 15", "is that right?"):
    answered as a follow-up (or, when unsure, as the last topic it names). None when it does not."""
    last = dialogue.last_question(tracker)
    text = common.text_of(tracker)
    if last is None or not text or _COMMAND_WORD.fullmatch(text):
        return None
    intent = common.intent_of(tracker)
    said = dialogue.said_of(tracker)
    before = conversation.Said.of(last) or conversation.Said("")
    confidence = float((tracker.latest_message.get("intent") or {}).get("confidence") or 0.0)
    if conversation.is_follow_up(said, intent, before, confidence, last["intent"]):
        return await answer_turn(dialogue.read(tracker, "followup"), dispatcher, domain)
    ranked = [r.get("name") for r in tracker.latest_message.get("intent_ranking") or []
              if r.get("name") not in ("nlu_fallback", None)]
    answered = tracker.get_slot(dialogue.LAST_ANSWER)
    topic = f"ask_{answered.get('topic')}" if isinstance(answered, dict) else None
    if intent == "nlu_fallback" and ranked and ranked[0] in (last["intent"], topic):
        return await answer_turn(dialogue.read(tracker, ranked[0]), dispatcher, domain)  # "how long must he stay confined"
    return None


def clear_pending(tracker: Tracker) -> list:
    """Forget a time asked back ("9 in the morning or at night?") once another answer is given."""
    return [SlotSet("pending_when", None)] if tracker.get_slot("pending_when") is not None else []


async def answer_pick(dispatcher, tracker: Tracker) -> list | None:
    """The reply to "Do you mean 9 in the morning or 9 at night?": the earlier burning question answered for the
    reading picked. None when no time was asked back, or the reply picks no reading (it is then a new message)."""
    pending = tracker.get_slot("pending_when")
    if not isinstance(pending, dict) or common.entities(tracker, "material"):
        return None
    phrase = pick_for(pending, common.text_of(tracker))
    if phrase is None or len(common.text_of(tracker).split()) > 6:
        return None
    t = common.town()
    now = common.now(t)
    try:
        at = when.resolve(phrase, t, now=now)
    except NeedsClarification as exc:
        common.clarify(dispatcher, tracker, exc)
        return []
    answer = handlers.burning(t, at=at, orders=common.burning_orders(t), material=pending.get("material"))
    return common.send(dispatcher, tracker, answer) + [SlotSet("pending_when", None)]
