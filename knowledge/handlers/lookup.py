"""What the code says: a topic's answer, a section's text, and search over both.

Every topic a town's code is silent on answers "not covered" with the clerk's contact; a topic is never
answered from another town's code.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date

from ..errors import NeedsClarification
from ..loader import resolve
from .. import rules
from ..render import sentences
from ..model import Answer, Citation, Town, term_key
from .common import a_day, add_contact, add_gaps, not_covered, with_lead

STOPWORDS = set("""a an and are as at be by can do does for from have how i if in is it its may me my of on or
our shall so that the their there this to what when where which who will with would you your about any
code say says section sec town city rule rules tell please""".split())


def topic(town: Town, key: str, *, on: date, animal: str | None = None, question: str | None = None,
          aspect: str | None = None, cross: bool = True) -> Answer:
    """What the town's code says on topic ``key`` (a key of knowledge/topics.yml), led by the rule that
    answers what was asked: the rule named ``aspect``, else the topic's rule that best matches ``question``
    (the resident's words), or another topic's rule that matches it clearly better (``cross``; see
    knowledge/rules.py). Asked about one kind of animal ("do cats need a license?"), a topic rule
    ``for_<animal>`` answers first, the summary follows."""
    on = a_day(on, "on")
    if key not in town.topics:
        raise NeedsClarification("I'm not sure which topic you mean. Could you say it another way?",
                                 field="topic")
    t = town.topics[key]
    rule = t.rules.get(f"for_{animal}") if animal else None
    chosen = None if rule is not None else rules.pick(town, key, question, aspect, cross=cross)
    if chosen is not None and chosen.crossed:
        answer = topic(town, chosen.topic, on=on, aspect=chosen.name, cross=False)
        answer.data["asked_topic"] = key
        return answer
    if not t.covered:
        return not_covered(town, key, on)
    if chosen is not None and chosen.rule.alone:
        answer = Answer(topic=key, town=town.key, result=town.render(chosen.rule.text, on))
        answer.lead = rules.lead_of(town, chosen.rule, on)
        answer.data["rule"] = f"{chosen.topic}.{chosen.name}"
        answer.step(answer.result, chosen.rule.citation)
        add_gaps(answer, town, key, on)
        add_contact(answer, town)
        return answer
    if rule is not None:
        answer = Answer(topic=key, town=town.key, result=town.render(rule.text, on))
        answer.cite(rule.citation)
        answer.step(town.render(t.summary, on), *t.citations)
        if getattr(rule, "lead", ""):
            answer.lead = rules.lead_of(town, rule, on)
    else:
        answer = Answer(topic=key, town=town.key, result=town.render(t.summary, on))
    if chosen is not None:
        answer.lead = answer.lead or rules.lead_of(town, chosen.rule, on)
        answer.data["rule"] = f"{chosen.topic}.{chosen.name}"
        for _, _, r in ((chosen.topic, chosen.name, chosen.rule), *chosen.others):
            answer.step(town.render(r.text, on), r.citation)
    for c in t.citations:
        answer.cite(c)
    answer.caveats.extend(town.render(c, on) for c in t.caveats)
    add_gaps(answer, town, key, on)
    add_contact(answer, town)
    return answer


def _first_sentence(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    cut = re.split(r"(?<=[.;:])\s", flat, maxsplit=1)[0]
    return cut if len(cut) <= limit else flat[:limit].rsplit(" ", 1)[0]


@with_lead
def section(town: Town, ref: str) -> Answer:
    """The text of section or paragraph ``ref`` ("7.02-6", "7.02-5(d)(2)", "58-527")."""
    cleaned = re.sub(r"(?i)^\s*(sec(tion)?\.?|§)\s*", "", str(ref or "")).strip().rstrip(".?")
    cleaned = re.sub(r"\s*-\s*", "-", cleaned)
    found = resolve(town.sections, cleaned) if cleaned else None
    if found is None or found[0].code != town.code_name:
        raise NeedsClarification(f"I can't find section {ref!r} in the {town.code_name}. Section numbers look "
                                 f"like {_example(town)}.", field="section")
    s, path = found
    text = s.text_at(path)
    answer = Answer(topic="section", town=town.key, result=f"{town.code_name} {s.number}{path} — {s.title}",
                    value=text)
    answer.step(text, Citation(s, path, _first_sentence(text)))
    if s.gap:
        answer.caveats.append(f"Our copy of this section is incomplete: {s.gap}")
    if s.derived:
        answer.caveats.append("Section numbers in our copy of this code were stripped; this number is derived "
                              "from the order and cross-references of the text.")
    add_contact(answer, town)
    return answer


def _example(town: Town) -> str:
    own = [n for n, s in town.sections.items() if s.code == town.code_name]
    return ", ".join(f'"{n}"' for n in own[1:3])


def _words(text: str) -> list[str]:
    out = []
    for w in re.findall(r"[a-z]+", text.lower()):
        if w in STOPWORDS or len(w) < 3:
            continue
        out.append(re.sub(r"(ies|es|s|ing|ed)$", "", w) if len(w) > 4 else w)
    return out


@with_lead
def search(town: Town, query: str, *, on: date, limit: int = 3) -> Answer:
    """The best matching sections of the town's code for free text ``query`` (Okapi BM25 over paragraphs)."""
    on = a_day(on, "on")
    terms = _words(query or "")
    if not terms:
        raise NeedsClarification("What would you like me to look up in the code?", field="query")
    own = [s for s in town.sections.values() if s.code == town.code_name]
    docs = {s.number: Counter(_words(s.title) * 3 + _words(s.text)) for s in own}
    n = len(docs)
    df = Counter(t for counts in docs.values() for t in set(counts))
    avg = sum(sum(c.values()) for c in docs.values()) / max(n, 1)
    scores = {}
    for number, counts in docs.items():  # Okapi BM25 (k1 = 1.2, b = 0.75)
        length = sum(counts.values()) or 1
        score = 0.0
        for t in set(terms):
            if counts[t]:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * counts[t] * 2.2 / (counts[t] + 1.2 * (0.25 + 0.75 * length / avg))
        if score > 0:
            scores[number] = score
    best = sorted(scores, key=scores.get, reverse=True)[:limit]
    if not best:
        answer = Answer(topic="search", town=town.key,
                        result=f"I found nothing in the {town.code_name} about \"{query.strip()}\".")
        answer.caveats.append(f"The code may not cover it. Ask: {town.contact_line()}.")
        answer.value = []
        return answer
    answer = Answer(topic="search", town=town.key, value=best,
                    result=f"The {town.code_name} sections that best match \"{query.strip()}\": "
                           + "; ".join(f"{b} {town.sections[b].title}" for b in best) + ".")
    top = town.sections[best[0]]
    also = f"Best match: {top.number} {top.title}; also {', '.join(best[1:])}."
    answer.lead = next(x for x in (also if len(best) > 1 else "", f"Best match: {top.number} {top.title}.",
                                   f"Best match: {top.number}.") if x and len(x) <= 160)
    for b in best:
        s = town.sections[b]
        para = max(s.paragraphs, key=lambda p: sum(1 for t in _words(p.text) if t in terms))
        answer.step(f"{s.number} {s.title}: {_first_sentence(para.text, 240)}",
                    Citation(s, para.path, _first_sentence(para.text)))
    add_contact(answer, town)
    return answer


_LEAD = re.compile(r"^(what (is|are|does|do)|what s|whats|define|definition of|meaning of|the meaning of|"
                   r"who is|who counts as|is|an?|the)\s+")
_TAIL = re.compile(r"\s+(mean|means|meaning|defined|definition)$")


def _term_candidates(term: str) -> list[str]:
    key = term_key(term)
    for _ in range(3):
        key = _TAIL.sub("", _LEAD.sub("", key))
    out = [key]
    if key.endswith("s"):
        out.append(key[:-1])
    return out


def _definition_lead(found) -> str:
    """The definition's words as a lead, whole: the quote, else its first sentence(s) that fit, else the shorter
    sentence definitions.yml gives (`lead:`), with the section in short form. Never cut mid-phrase."""
    tail = f" ({rules.short_ref(found.citation)})."
    quote = " ".join(re.sub(r"^[(][0-9a-z]+[)] ", "", found.citation.quote).split())
    head = ""
    for s in sentences(quote):
        if len(f"{head} {s}".strip().rstrip(".") + tail) > 160:
            break
        head = f"{head} {s}".strip()
    words = head or found.lead or quote
    return words.rstrip(".") + tail


@with_lead
def definition(town: Town, term: str) -> Answer:
    """What one term means in the town's code ("owner", "at large", "loose", "bonfire"), quoted and cited from
    definitions.yml; a term the code does not define says so. ``data``: term, defined (bool), asked."""
    if not isinstance(term, str) or not term_key(term):
        raise NeedsClarification("Which word would you like defined?", field="term")
    said = " ".join(term.split())
    asked = said[:80]
    found = next((town.definitions[k] for k in _term_candidates(term) if k in town.definitions), None)
    if found is None:  # a term is named as said (never cut mid-word); a whole sentence is never repeated back
        words = f'"{said}"' if len(said.split()) <= 4 and len(said) <= 40 else "the term you asked about"
        answer = Answer(topic="definitions", town=town.key, value=None,
                        result=f"The {town.code_name} does not define {words}.")
        answer.data.update(term=None, defined=False, asked=asked)
        add_contact(answer, town)
        return answer
    c = found.citation
    via = "" if term_key(found.term) in _term_candidates(term) else f' (the code\'s term for "{asked}")'
    answer = Answer(topic="definitions", town=town.key, value=found.term,
                    result=f'{c.label} defines "{found.term}"{via}: "{c.quote}"')
    answer.cite(c)
    answer.lead = _definition_lead(found)
    full = c.section.text_at(c.path)
    if " ".join(full.split()) != c.quote:
        answer.step(full, Citation(c.section, c.path, c.quote))
    if found.see is not None:
        answer.step(found.see.section.text_at(found.see.path), found.see)
    answer.data.update(term=found.term, defined=True, asked=asked)
    add_contact(answer, town)
    return answer
