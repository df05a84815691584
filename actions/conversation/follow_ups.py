"""Does a message go on from the last question? The topics its words name, a follow-up ("and if she's
spayed?", "how long?"), a claim someone else made, the rule asked again ("is that against the rules?")."""
from __future__ import annotations

import re
from typing import Iterable

from .facts import clauses, kinds_of
from .said import Said, config


_OPENER = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|what about|how about|what if|wat about|wht about|and if|if|"
                     r"same|but)\b", re.I)
_WORD = re.compile(r"[a-z0-9']+", re.I)


def _straight(text: str) -> str:
    """The message with typographic apostrophes made plain ("he\u2019s" -> "he's")."""
    return (text or "").replace("\u2019", "'")


def _plain(text: str) -> str:
    """The message as topic words are looked for in it: plain apostrophes, and the words that only look like a
    topic's taken out ("he's fine": well, no penalty; actions/conversation.yml `other_senses`)."""
    return config()["other_senses"].sub(" ", _straight(text))


def topics_named(text: str) -> frozenset:
    """The intents whose topic the message names by its words (actions/conversation.yml `topic_words`)."""
    out = frozenset()
    text = _plain(text)
    for words, intents in config()["topics"]:
        if words.search(text):
            out |= intents
    return out


def burns_unannounced(text: str) -> bool:
    """"so i can just burn it today without telling anyone?": a burn asked of without the notice or permit that
    must come first (actions/conversation.yml `unannounced_burn`)."""
    return bool(config()["unannounced_burn"].search(_straight(text)))


def other_animals_topic(text: str) -> str | None:
    """"we have chickens, maybe 20. is there a limit on how many?": the one topic of the animals named when the
    message names none the household limit counts (actions/conversation.yml `other_animal_topics`); else None."""
    cfg = config()
    text = _plain(text)
    if cfg["counted_animals"].search(text):
        return None
    # by the animals' own words: "permit" names the chickens, bees and wild animals alike
    named = {i for words, intents in cfg["topics"] if words.search(text)
             for i in intents & set(cfg["other_animal_topics"]) if len(intents & set(cfg["other_animal_topics"])) == 1}
    return named.pop() if len(named) == 1 else None


def family(intent: str) -> frozenset:
    """The intents that share a group of topic words with ``intent`` (the burning questions, the license
    questions, the quarantine and bite questions ...)."""
    out = frozenset({intent})
    for _, intents in config()["topics"]:
        if intent in intents:
            out |= intents
    return out


def names_only(text: str, intent: str) -> bool:
    """Does every group of topic words the message says include ``intent`` ("and for a rabies exposure?" names
    only the quarantine's own words; "and what's the fine for burning trash?" names the penalties too)?"""
    text = _plain(text)
    return all(intent in intents for words, intents in config()["topics"] if words.search(text))


def brings_facts_for(said: Said, intent: str, last_intent: str) -> bool:
    """Does the message state a fact that ``intent`` uses and ``last_intent`` does not ("tomorrow at 9" after the
    burning rules: a question whether one may burn then)?"""
    uses = config()["uses"]
    kinds = {k for c in clauses(said) for k in kinds_of(c)}
    return any(intent in uses.get(k, ()) and last_intent not in uses.get(k, ()) for k in kinds)


def about_burning(text: str) -> bool:
    """"can I burn the old coop boards?": words that can only be about burning (actions/conversation.yml)."""
    return bool(config()["burning"].search(text or ""))


def names_a_topic(text: str) -> bool:
    return bool(topics_named(text))


def supports(intent: str, text: str) -> bool:
    """Do the message's words name ``intent``'s topic? A late-fee reading of "how late can it go?" (after a
    bonfire) or a burning reading of a question about dogs is not supported by the words."""
    return intent in topics_named(text)


def residue(said: Said, drop: Iterable[dict] = ()) -> str:
    """The message's words without the spans in ``drop`` and without filler: what it asks beyond its values."""
    text = said.text
    for e in sorted(drop, key=lambda e: -e["start"]):
        text = text[:e["start"]] + " " + text[e["end"]:]
    words = [w for w in _WORD.findall(text) if w.lower() not in config()["filler"]]
    return " ".join(words)


_CONDITION = re.compile(r"^\s*(?:and |but |so )?(?:what )?if\b|^\s*(?:and|but) (?:he|she|it|they|hes|shes|its)\b|"
                        r"^\s*(?:oops|sorry|actually|correction|no wait|wait|i mean|i meant|no,)", re.I)
_NEW_TOPIC = re.compile(r"\b(?:diff|different|another|other|new|unrelated|separate|next) (?:topic|question|q|thing|"
                        r"subject)\b|\bchang\w* (?:the )?subject\b|\bone more question\b", re.I)


def states_a_condition(text: str) -> bool:
    """"what if he's vaccinated?", "sorry, it was my cat": a condition or a correction of the last question."""
    return bool(_CONDITION.match(text or ""))


def is_follow_up(said: Said, intent: str, last: Said | None, confidence: float = 0.0,
                 last_intent: str | None = None) -> bool:
    """A message that goes on from the last answer rather than asking a new question: the follow-up intent; a
    condition or correction of it ("what if she's vaccinated?", "and if it bit someone", "sorry, 15"); or a
    message that names no topic of its own and is short, opens like a follow-up ("and ...", "what about ...")
    or was not read confidently as a new question."""
    if last is None or _NEW_TOPIC.search(said.text):
        return False
    if intent == "followup" or _CONDITION.match(said.text) or asks_the_rule_again(said.text):
        return True
    uses = config()["uses"]
    named = topics_named(said.text)
    same = not named or last_intent in named
    if same and _OPENER.match(said.text) and any(last_intent in uses.get(k, ()) for c in clauses(said)
                                                 for k in kinds_of(c)):
        return True  # "and for a rabies exposure if he's not vaccinated?" after a quarantine answer
    short = len(_WORD.findall(said.text)) <= 4
    if named:  # "how long is it confined?" on the same topic; another topic's words start a new question
        return same and (short or intent == "nlu_fallback")
    if short or _OPENER.match(said.text):
        return True
    if intent in _NOT_GOING_ON:
        return False
    return not (intent.startswith("ask_") and confidence >= 0.8 and intent != last_intent and supports(intent,
                                                                                                        said.text))


#: intents that, said at length without a follow-up's opening, are their own request, not a follow-up
_NOT_GOING_ON = {"out_of_scope", "greet", "goodbye", "thank", "help", "bot_challenge", "human_handoff", "cancel",
                 "more", "notify_burn"}
_REFERS = re.compile(r"\b(?:that|this|it|doing that|those|these)\b\s*\??\s*$|\bfor (?:that|this|it)\b", re.I)


def asks_the_rule_again(text: str) -> bool:
    """"is that against the rules?", "any rules on that?", "what do I need to do?": a follow-up whose words ask
    about the rule just given and name nothing else (actions/conversation.yml `rule_again`)."""
    words = [w.lower() for w in _WORD.findall(text or "")]
    if not 3 <= len(words) <= 9:  # "ok" alone is a thanks, not a question
        return False
    cfg = config()
    opening = next((w for w in words if w not in cfg["question_lead_in"]), "")
    asked = "?" in text or opening in cfg["question_openers"]
    return asked and all(w in cfg["rule_again"] or w in cfg["filler"] for w in words) and any(
        w in cfg["rule_asked"] for w in words) and not names_a_topic(text)


def reports_a_claim(text: str) -> bool:
    """"my neighbor says you can have 6 dogs on a farm": what someone else said, which the resident asks us to
    check (actions/conversation.yml `reported_claim`)."""
    return bool(config()["reported_claim"].search(_straight(text)))


def asks_what_to_do(text: str) -> bool:
    """"what can I do about it?", "ok so what do we have to do now?": said as the whole message (after any "he's
    fine"), nothing else asked (actions/conversation.yml `what_to_do`)."""
    cfg = config()
    plain = " ".join(re.findall(r"[a-z']+", _plain(text).lower()))
    return bool(cfg["what_to_do"].fullmatch(plain))


def asks_what_to_do_about_another(text: str, last: dict) -> bool:
    """"what can I do about it?" after a question about a neighbour's animal and a nuisance a resident complains
    of (barking, a dog at large): how to have the rules enforced (`others_animal`, `complaint_topics`)."""
    cfg = config()
    return last.get("intent") in cfg["complaint_topics"] and asks_what_to_do(text) \
        and bool(cfg["others_animal"].search(last.get("text") or ""))


def duty_rule(text: str, last: dict) -> tuple[str, str] | None:
    """The topic and rule naming the owner's duties when "what do we have to do now?" follows a question on a
    topic that has them (a bite: report it and confine the animal; `duty_rules`), else None."""
    cfg = config()
    named = cfg["duty_rules"].get(last.get("intent"))
    incidents = {str(e.get("value")) for e in last.get("entities") or [] if e.get("entity") == "incident"}
    after = incidents == {cfg["duty_incident"]} or (not incidents and last.get("intent") == cfg["duty_intent"])
    return tuple(named.split(".", 1)) if named and after and asks_what_to_do(text) else None


def refers_back(text: str) -> bool:
    """"what's the fine for that?", "who enforces it?": a short question about what was just asked."""
    return len(_WORD.findall(text or "")) <= 8 and bool(_REFERS.search(text or ""))
