"""Turns about the answer just given: "why?" and "which section is that?" (the law's words behind it), "more"
(its details), "is that illegal?" and "does that count as leashed?" (its rule again, its verdict turned)."""
from __future__ import annotations

import re
from typing import Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet

from knowledge import render, rules
from knowledge.model import Answer

from . import common, conversation, dialogue


def undefined_of_the_last_answer(answer: Answer, tracker: Tracker) -> bool:
    """A word the code does not define, asked of what was just answered ("does that count as leashed?" after the
    leash's length): the last answer's rule answers it when its lead or law's words use the word
    (actions/conversation.yml `points_back`)."""
    last = tracker.get_slot(dialogue.LAST_ANSWER)
    if answer.topic != "definitions" or answer.data.get("defined") is not False or not isinstance(last, dict) or \
            not conversation.config()["points_back"].search(common.text_of(tracker)):
        return False
    said = " ".join([str(last.get("lead") or "")] + [str(s.get("quote") or "") for s in last.get("sources") or []])
    return bool(set(rules.words(str(answer.data.get("asked") or ""))) & set(rules.words(said)))


def forbidden_asked(answer: Answer, text: str) -> Answer:
    """"Is it illegal to burn tires?" answered by a verdict that it is not allowed ("No: rubber products may not be
    burned ...") leads "Yes: ...", and by one that it is ("Yes: at 10:00 a.m. Saturday, until sunset ...") "No, it is
    allowed: ...". Only verdicts are turned (burning then, a distance against its bound: actions/conversation.yml
    `verdict_topics`), never a rule's words, and never a question that asks more ("is it illegal not to call
    first?")."""
    c = conversation.config()
    lead = render.lead(answer)
    verdict = answer.topic in c["verdict_topics"] or "limit" in answer.data
    if not lead or not verdict or not c["forbidden_asked"].search(text or "") or \
            c["forbidden_other_conditions"].search(text or ""):
        return answer
    value = answer.value
    allowed = value if isinstance(value, bool) else value.get("allowed") if isinstance(value, dict) else None
    permits = c["permitting_leads"].match(lead)
    if allowed is False and lead.startswith("No: "):
        answer.lead = f"Yes: {lead[4:5].lower()}{lead[5:]}"
    elif allowed is True and permits:
        answer.lead = f"No, it is allowed: {lead[permits.end():]}"
    return answer


class ActionMore(Action):
    """"more": on the web, the last answer's details (its steps, sources and notes, which the chat page also
    shows behind a disclosure); by SMS the webhook keeps the pages of the last answer and sends the next one
    itself (web/sms.py), so reaching here means there is nothing more to send."""

    def name(self) -> Text:
        return "action_more"

    async def run(self, dispatcher, tracker, domain):
        last = tracker.get_slot(dialogue.LAST_ANSWER)
        details = last.get("details") if isinstance(last, dict) else None
        if details and common.channel(tracker) == "web":
            common.send_text(dispatcher, tracker, details)
            return [SlotSet(dialogue.LAST_ANSWER, {**last, "details": ""})]
        common.send_text(dispatcher, tracker, "That's all I have on that. Ask me another question any time.")
        return []


def rule_again(dispatcher, tracker: Tracker) -> bool:
    """The last answer's lead and the law's words it comes from, for a follow-up that asks about the rule just
    given ("is that against the rules?", "any rules on that?"); False when the last answer cited nothing."""
    last = tracker.get_slot(dialogue.LAST_ANSWER)
    if not isinstance(last, dict) or not last.get("lead"):
        return False
    quoted = law_quoted(last, whole=common.channel(tracker) == "web")
    if not quoted:
        return False
    common.send_text(dispatcher, tracker, "\n".join([verdict_turned(last, common.text_of(tracker)), quoted[0]]
                                                    + quoted[1:2]))
    return True


def verdict_turned(last: dict, text: str) -> str:
    """The last answer's lead for "is that illegal?" asked of it: a verdict's "Yes: at 10:00 a.m. ..." leads "No, it
    is allowed: ...", its "No: that is after sunset ..." "Yes: ..." (forbidden_asked); any other lead as it was."""
    lead = str(last.get("lead") or "")
    verdict = True if lead.startswith("Yes") else False if lead.startswith("No: ") else None
    said = Answer(topic=str(last.get("topic") or ""), result=lead, lead=lead, value=verdict)
    return forbidden_asked(said, text).lead


def law_quoted(last: dict, whole: bool = False) -> list[str]:
    """The last answer's sections with the law's words ("From 7.02-9: “...”"), at most three; ``whole``: the
    words in full (on the web), else cut to one SMS page each."""
    sources = [s for s in (last.get("sources") or []) if s.get("label")]
    lead = last.get("lead") or ""
    cited = re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\.?\s*$", lead)  # "(7.10(1))." at the lead's end
    if cited:  # the section the lead cites first: "why?" is asked of the lead
        ref = cited[0].split(";")[0].split(" (")[0].strip()
        sources.sort(key=lambda s: not s["label"].replace(" (section number derived)", "").endswith(ref))
    quoted = [f"{s['label']}: \u201c{' '.join(s['quote'].split()) if whole else _quote(s['quote'])}\u201d"
              for s in sources[:3] if s.get("quote")]
    if quoted:
        quoted[0] = "From " + quoted[0]
    return quoted


class ActionWhy(Action):
    """"Why?", "which section is that?", "source?": the sections of the last answer and the law's words."""

    def name(self) -> Text:
        return "action_why"

    async def run(self, dispatcher, tracker, domain):
        last = tracker.get_slot(dialogue.LAST_ANSWER)
        sources = [s for s in (last.get("sources") or []) if s.get("label")] if isinstance(last, dict) else []
        if not sources:
            t = common.town()
            common.send_text(dispatcher, tracker, "Ask me a question about the "
                             f"{t.code_name} and I'll show the section the answer comes from.")
            return []
        quoted = law_quoted(last, whole=common.channel(tracker) == "web") or [
            "That comes from " + _and(list(dict.fromkeys(s["label"] for s in sources))[:3]) + "."]
        common.send_text(dispatcher, tracker, "\n".join(quoted))
        return []


WHY_QUOTE = 240  # characters of the law's words in one SMS page with the section's label


def _quote(words: str) -> str:
    """The law's words as quoted, or their first words up to WHY_QUOTE characters ending on a word, with an
    ellipsis marking the cut (the rest is in the section, which the chat links)."""
    words = " ".join(words.split())
    if len(words) <= WHY_QUOTE:
        return words
    cut = words[:WHY_QUOTE].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " \u2026"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
