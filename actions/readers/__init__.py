"""Single questions: one intent -> the first topic reader that computes its answer -> one handler in knowledge/.

A reader takes the question (base.Asked) and returns the handler's answer, or None when the question is not one
it computes; the topic's own ranking of its rules answers the rest (base.topic_answer). Each topic's readers are
in its module, in the order they are tried:

- lookup.py: the rule a turn chose, a section asked by number, the code's definitions
- animals.py: the animal limits, fines, bites and quarantine, when a rabies shot is due
- licenses.py: license deadlines, the late fee on the days said, several dogs' licenses
- burning.py: burning at a time, of a material, at a distance, in the wind; no-burning orders
- clauses.py: which rule, defined term or topic a question means (the sentence encoder, #21)
"""
from __future__ import annotations

from knowledge.model import Answer

from . import animals, burning, licenses, lookup
from .base import Asked, topic_answer

#: the readers in the order tried: the rule a turn chose and the code's own words first; the topics' readers
#: answer disjoint intents, so their order among themselves does not matter
READERS = lookup.READERS + animals.READERS + licenses.READERS + burning.READERS


def answer_for(intent: str, tracker, t, now) -> Answer:
    """The answer to ``intent``'s question in ``tracker``'s latest message, in town ``t`` at ``now``."""
    asked = Asked.of(intent, tracker, t, now)
    for reader in READERS:
        answer = reader(asked)
        if answer is not None:
            return answer
    return topic_answer(asked)
