"""Bites and exposures in residents' words: the kind of incident, and whether the consequence or the length
of a quarantine is asked."""
from __future__ import annotations

import re
from typing import Iterable, Optional


_EXPOSURE = re.compile(r"\bexpos|\brabid\b|positive for rabies|\b(has|had|with|carrying|carried|for) rabies\b|"
                       r"\brabies (test|positive)", re.I)
_WILD = re.compile(r"\b(skunk|raccoon|racoon|bat|fox|coyote|wild animal|wildlife|possum|opossum|woodchuck|"
                   r"groundhog)s?\b", re.I)


def incident_kind(text: str, said: Iterable[str] = ()) -> Optional[str]:
    """ "exposure" (contact with an animal that may have rabies: "a skunk that tested positive for rabies"),
    "bite" (the animal bit someone), or None when a wild animal is named without saying which: asked back,
    never guessed (an exposed pet is confined far longer than a biting one)."""
    said = {str(v).lower() for v in said}
    if "exposure" in said or _EXPOSURE.search(text or ""):
        return "exposure"
    if _WILD.search(text or ""):
        return None
    return "bite"


def names_an_exposure(text: str) -> bool:
    """"a rabid skunk", "tested positive for rabies": contact with an animal that may have rabies."""
    return bool(_EXPOSURE.search(text or ""))


def asks_consequence(text: str) -> bool:
    """ "What happens if I don't keep him quarantined?", "the fine for ...": a question about the penalty."""
    return bool(re.search(r"\b(fined|penalt\w*|jail|ticket\w*|forfeit\w*|punish\w*|consequences?)\b|"
                          r"\bwhat happens if\b|\b(a|the) fine\b|\bfine for\b", text or "", re.I))


def asks_how_long(text: str) -> bool:
    """ "How long is the quarantine?", "how many days", "when can she come out": a question about the period."""
    return bool(re.search(r"\bhow (long|many (days|weeks))\b|\b(days?|weeks?)\b|quarant|isolat|confine|observ|"
                          r"\bwhen (can|will|does|do)\b|\brelease|\bend\b|\bover\b", text or "", re.I))
