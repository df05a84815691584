"""The words of a dog license cost answer: its first sentence (the total, for whom, with which license, the
late fee), what our copy lacks when the total is a minimum, and the lead that fits in one SMS segment.

The amounts and their sections are computed in license.py (Dunkirk Code 7.02-3, 7.02-4; Mequon Code 58-533);
this only words them.
"""

from __future__ import annotations

from ..model import Answer
from ..rules import short_ref
from .common import LEAD_LIMIT, fmt, lead_from_result, plural


def cost_result(town, on, dogs, taxed, total, exact, chosen, individual_words, late, late_fee, rates_exact) -> str:
    """The answer's first sentence (the total), and what our copy lacks when the total is a minimum."""
    text = _total(town, on, dogs, taxed, total, exact, chosen, individual_words, late, late_fee)
    if not exact:
        missing = []
        if not rates_exact and chosen == "individual" and taxed:
            missing.append("the per-dog tax (the state minimum is used)")
        if town.has_param("dog_license.administrative_fee"):
            missing.append(town.param("dog_license.administrative_fee").description.lower())
        if late is None:
            missing.append("whether a late fee applies")
        if missing:
            text += f" Our copy of the code lacks {'; '.join(missing)}: the Clerk can tell you the exact amount."
    return text


def set_cost_lead(answer: Answer, facts, *, chosen: str, taxed: int, exact: bool) -> None:
    """The lead: the total cut from the result, citing the license tax's section; for a minimum, who has the
    exact amount when a shorter wording leaves room for it."""
    words = ("multiple dog license", "$35") if chosen == "multiple" else ("exempt",) if taxed == 0 else \
        ("license tax", "minimum dog license tax")
    tax_refs = [c for c in answer.citations if any(w in c.quote.lower() for w in words)]
    answer.lead = lead_from_result(answer, prefer=tax_refs[0] if tax_refs else None,
                                   shorter=(_total(*facts, counts=False), _total(*facts, counts=False, bought=False)))
    if not exact:  # a minimum: who has the exact amount, in the lead when a shorter wording leaves room
        answer.lead = _with_clerk(answer, tax_refs[0] if tax_refs else None, facts)


def _total(town, on, dogs, taxed, total, exact, chosen, individual_words, late, late_fee, *, counts: bool = True,
           bought: bool = True) -> str:
    """The answer's first sentence: the total, for whom, with which license, bought when, the late fee; without
    the dogs counted by kind (``counts``) or the day bought (``bought``) for a lead that must be shorter."""
    who = plural(dogs, "dog") + (f" ({individual_words})" if counts and individual_words and taxed
                                 and chosen == "individual" else "")
    late_words = ""
    if late:
        late_words = (f", including the {fmt(town, 'dog_license.late_fee', late_fee)} late fee" if late_fee is not None
                      else ", plus a late fee whose amount is not in our copy")
    elif late is False:
        late_words = ", on time: no late fee"
    option_words = ("an individual license" if dogs == 1 else "individual licenses") if chosen == "individual" \
        else "a multiple dog license"
    prefix = "" if exact else "At least "
    day = f", bought {on:%B %-d, %Y}" if bought else ""
    return f"{prefix}${total:,.2f} for {who} with {option_words}{day}{late_words}."


CLERK_HAS_IT = "The Clerk can tell you the exact amount."


def _with_clerk(answer: Answer, prefer, facts) -> str:
    """The lead of a total that is a minimum, followed by CLERK_HAS_IT: the longest wording of the total that
    leaves room for it in one SMS segment; the lead unchanged when none does."""
    ref = prefer or (answer.citations[0] if answer.citations else None)
    cited = (lambda w: f"{w.rstrip('.')} ({short_ref(ref)}).") if ref is not None else (lambda w: w)
    for lead in (answer.lead, cited(_total(*facts, counts=False)), cited(_total(*facts, counts=False, bought=False))):
        text = f"{lead} {CLERK_HAS_IT}"
        if len(text) <= LEAD_LIMIT:
            return text
    return answer.lead
