"""A message as the conversation keeps it (Said: its text and entities), joining messages, and the readings'
words (actions/conversation.yml, loaded once)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from knowledge.loader import read_yaml


CONFIG = Path(__file__).resolve().parents[1] / "conversation.yml"


@lru_cache(maxsize=1)
def config() -> dict:
    data = read_yaml(CONFIG)
    return {"uses": {k: frozenset(v) for k, v in data["uses"].items()},
            "topics": [(re.compile(r"\b(?:" + "|".join(g["words"].split()) + r")\b", re.I), frozenset(g["intents"]))
                       for g in data["topic_words"]],
            "filler": frozenset(data["filler"].split()),
            "reported_claim": re.compile(r"\b(?:%s)(?:'s|\s+\S+){0,5}?\s+(?:%s)\b" % (
                "|".join(data["claim_by"]), "|".join(data["claim_verb"])), re.I),
            "other_senses": re.compile(r"\b(?:" + "|".join(data["other_senses"]) + r")\b", re.I),
            "rule_again": frozenset(data["rule_again"].split()),
            "rule_asked": frozenset(data["rule_asked"].split()),
            "question_openers": frozenset(data["question_openers"].split()),
            "question_lead_in": frozenset(data["question_lead_in"].split()),
            "burning": re.compile(r"\b(?:" + "|".join(data["burning_words"].split()) + r")\b", re.I),
            "what_to_do": re.compile(r"(?:%s )*(?:%s)(?: %s)?" % (
                data["what_to_do_opening"], "|".join(data["what_to_do"]), data["what_to_do_closing"]), re.I),
            "complaint_topics": frozenset(data["complaint_topics"]),
            "duty_rules": dict(data["duty_rules"]),
            "duty_incident": data["duty_incident"],
            "duty_intent": data["duty_intent"],
            "not_a_time": frozenset(data["not_a_time"]),
            "other_animal_topics": tuple(data["other_animal_topics"]),
            "unannounced_burn": re.compile(r"\b(?:" + "|".join(data["unannounced_burn"]) + r")\b", re.I),
            "counted_animals": re.compile(r"\b(?:" + "|".join(data["counted_animals"].split()) + r")\b", re.I),
            "forbidden_asked": re.compile(r"(?:^|[.!?]\s+|\b(?:%s)\s+)(?:%s)\b[^.!?]*\b(?:%s)\b" % (
                data["forbidden_sentence_starts"], data["forbidden_openers"], "|".join(data["forbidden_words"])), re.I),
            "forbidden_other_conditions": re.compile(r"\b(?:%s)\b" % data["forbidden_other_conditions"], re.I),
            "verdict_topics": frozenset(data["verdict_topics"]),
            "permitting_leads": re.compile(data["permitting_leads"]),
            "silence_topics": frozenset(data["silence_topics"]),
            "points_back": re.compile(data["points_back"], re.I),
            "shot_words": re.compile(r"\b(?:" + "|".join(data["shot_words"]) + r")\b", re.I),
            "others_animal": re.compile(r"\b(?:" + "|".join(data["others_animal"]) + r")\b", re.I)}


@dataclass
class Said:
    """A message, or the joined messages a question is answered from: text and entities (offsets into it)."""

    text: str
    entities: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"text": self.text, "entities": self.entities}

    @classmethod
    def of(cls, value) -> "Said | None":
        if isinstance(value, dict) and isinstance(value.get("text"), str):
            return cls(value["text"], [e for e in value.get("entities") or [] if isinstance(e, dict)])
        return None


def _entity_copy(e: dict, shift: int) -> dict:
    keep = {k: e[k] for k in ("entity", "value", "start", "end") if k in e}
    keep["start"] = int(e.get("start", 0)) + shift
    keep["end"] = int(e.get("end", 0)) + shift
    return keep


def joined(*parts: Said, sep: str = " ") -> Said:
    """The parts one after the other, their entities moved to the joined text."""
    text, ents = "", []
    for part in parts:
        if part is None or not part.text.strip():
            continue
        if text:
            text = text.rstrip()
            text += ("" if text[-1:] in ".?!;," else ".") + sep
        shift = len(text)
        text += part.text.strip()
        lead = len(part.text) - len(part.text.lstrip())
        ents += [_entity_copy(e, shift - lead) for e in part.entities]
    return Said(text, ents)
