"""Replies to messages that ask no question of the code: a greeting, help, a person to talk to, a question out of
scope, and a message the classifier was unsure of (answered all the same when it can be, else asked which topic)."""
from __future__ import annotations

import logging
from typing import Text

from rasa_sdk import Action, Tracker

from . import answers, common, dialogue, note, parsing, search_fallback
from .conversation import facts_in
from .readers.clauses import topic_meant
from .support import burning_not_covered, only_a_time

log = logging.getLogger(__name__)


async def going_on_or_guessed(dispatcher, tracker: Tracker, domain) -> list | None:
    """A message that goes on from the last answer, answered as a follow-up; else an unsure classifier's guess
    its own words confirm ("we moved here on April 25, when do they need licenses?" just under the threshold);
    None when neither."""
    going_on = await answers.continued(dispatcher, tracker, domain)
    if going_on is not None:
        return going_on
    guess = parsing.confirmed_guess(tracker.latest_message.get("intent_ranking") or [], common.text_of(tracker))
    return answers.ActionAnswer.answer(guess, dispatcher, tracker) if guess is not None else None


class ActionGreet(Action):
    def name(self) -> Text:
        return "action_greet"

    async def run(self, dispatcher, tracker, domain):
        picked = await answers.answer_pick(dispatcher, tracker)  # "morning", after "9 in the morning or 9 at night?"
        if picked is not None:
            return picked
        t = common.town()
        common.send_text(dispatcher, tracker,
                         f"Hi! I answer questions about the {t.name}'s code: dog licenses, animal rules"
                         + (", open burning and burn notifications" if t.topics["burning_rules"].covered else "")
                         + ". Each answer cites the section it comes from. What would you like to know?")
        return []


class ActionHelp(Action):
    def name(self) -> Text:
        return "action_help"

    async def run(self, dispatcher, tracker, domain):
        picked = await answers.answer_pick(dispatcher, tracker)  # "at night", read as inform or unsure
        if picked is not None:
            return picked
        going_on = await going_on_or_guessed(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        t = common.town()
        covered = [v.title for k, v in t.topics.items() if v.covered][:8]
        text = (f"I can answer from the {t.code_name}, with the section cited. For example: "
                + "; ".join(covered) + ". Ask in your own words, e.g. \"how much is a dog license?\""
                + (" or \"can I burn brush tomorrow at 3?\"" if t.topics["burning_rules"].covered else "")
                + f" For anything else: {t.contact_line()}.")
        common.send_text(dispatcher, tracker, text)
        return []


class ActionHandoff(Action):
    def name(self) -> Text:
        return "action_handoff"

    async def run(self, dispatcher, tracker, domain):
        t = common.town()
        common.send_text(dispatcher, tracker, f"To talk to a person, contact the {t.contact_line()}.")
        return []


class ActionOutOfScope(Action):
    def name(self) -> Text:
        return "action_out_of_scope"

    async def run(self, dispatcher, tracker, domain):
        unsupported = tracker.latest_message.get("unsupported")
        going_on = None if unsupported else await answers.continued(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        if facts_in(dialogue.said_of(tracker)) and not common.looks_like_question(common.text_of(tracker)) and \
                not tracker.latest_message.get("unsupported"):
            return await note.ActionNote().run(dispatcher, tracker, domain)  # "i have a 7 foot boa"
        t = common.town()
        _record(t, tracker, [])
        common.send_text(dispatcher, tracker,
                         f"Sorry, I only know the {t.code_name}'s rules on dog licenses, animals"
                         + (" and open burning" if t.topics["burning_rules"].covered else "")
                         + f". For other questions please contact the {t.contact_line()}.")
        return []


def _record(t, tracker: Tracker, suggestions: list[str]) -> None:
    try:
        common.store().record_unanswered(town=t.key, text=common.text_of(tracker) or "",
                                         channel=common.channel(tracker), conversation_id=tracker.sender_id,
                                         suggestions=suggestions)
    except Exception:  # never lose the reply because the records store is down; the log keeps it
        log.exception("could not record an unanswered question")


class ActionClarify(Action):
    """Low confidence: offer the 2-3 likeliest topics as buttons and the clerk's contact; record it."""

    def name(self) -> Text:
        return "action_clarify"

    @staticmethod
    async def routed(dispatcher, tracker, domain) -> list | None:
        """An unsure message answered all the same: a follow-up of the last answer, a guess its words confirm,
        burning where the code has none, the rule it clearly means, a bare time (burning), a statement of
        facts; None when the resident is to be asked which topic."""
        going_on = await going_on_or_guessed(dispatcher, tracker, domain)
        if going_on is not None:
            return going_on
        if burning_not_covered(tracker):
            return await answers.answer_turn(dialogue.read(tracker, "ask_burning_rules"), dispatcher, domain)
        meant = topic_meant(common.town(), common.text_of(tracker))
        if meant is not None:  # unsure of the intent, sure of the rule: "neighbor's dog chases every car ..."
            return await answers.answer_turn(dialogue.read(tracker, meant), dispatcher, domain)
        if only_a_time(tracker):  # "what about tomorrow morning at 7?": times are asked of burning only
            return await answers.answer_turn(dialogue.read(tracker, "ask_can_burn"), dispatcher, domain)
        if facts_in(dialogue.said_of(tracker)) and not common.looks_like_question(common.text_of(tracker)):
            return await note.ActionNote().run(dispatcher, tracker, domain)  # "were throwing a bonfire on saturday"
        return None

    async def run(self, dispatcher, tracker, domain):
        picked = await answers.answer_pick(dispatcher, tracker)  # "at night", read as inform or unsure
        if picked is not None:
            return picked
        if not tracker.latest_message.get("unsupported"):  # not when answer_turn found no topic to answer on
            routed = await self.routed(dispatcher, tracker, domain)
            if routed is not None:
                return routed
        t = common.town()
        # Issue #12: search the town's topics for the question (actions/search_fallback.py) instead of
        # offering only the unsure classifier's guesses; plainly off-topic questions get the out-of-scope answer.
        found = search_fallback.suggest(t, common.text_of(tracker), tracker.latest_message.get("intent_ranking"))
        if found.out_of_scope:
            return await ActionOutOfScope().run(dispatcher, tracker, domain)
        titles = [s.label for s in found.suggestions]
        _record(t, tracker, titles)
        buttons = [{"title": s.label, "payload": f"/{s.intent}"} for s in found.suggestions]
        if buttons:
            text = ("I'm not sure I understood. Did you mean one of these? "
                    + " / ".join(titles) + f". If not, the {t.contact_line()} can help.")
        else:
            text = f"I'm not sure I understood. Could you say it another way? Or ask the {t.contact_line()}."
        common.send_text(dispatcher, tracker, text, buttons=buttons)
        # its facts are kept all the same ("pile is about 30 ft from the garage"): the next question uses them
        return dialogue.remember_facts(tracker)
