"""The knowledge base's objects: sections, citations, parameters, topics, towns and answers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from . import timewords
from .errors import KnowledgeError

MONTHS = tuple(m.capitalize() for m in timewords.MONTHS)  # "January" ... "December"


@dataclass(frozen=True)
class Paragraph:
    path: str
    text: str


@dataclass(frozen=True)
class Section:
    number: str
    title: str
    paragraphs: tuple[Paragraph, ...]
    code: str  # the code it belongs to, e.g. "Dunkirk Code" or "Wisconsin Statutes"
    derived: bool = False  # the number is inferred, not printed in our copy
    history: str = ""
    gap: str = ""

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.paragraphs)

    def has_path(self, path: str) -> bool:
        return path == "" or any(_under(p.path, path) for p in self.paragraphs)

    def text_at(self, path: str) -> str:
        """The text of paragraph ``path`` and every paragraph under it (the whole section for "")."""
        return "\n\n".join(p.text for p in self.paragraphs if _under(p.path, path))


def _under(path: str, parent: str) -> bool:
    """Is ``path`` the paragraph ``parent`` or one under it? ("b.1" is not under "b.10", nor "b.10" under "b.1")."""
    if not path.startswith(parent):
        return False
    rest = path[len(parent):]
    return not (rest and parent and parent[-1].isalnum() and rest[0].isalnum())


@dataclass(frozen=True)
class Citation:
    section: Section
    path: str
    quote: str

    @property
    def ref(self) -> str:
        return f"{self.section.number}{self.path}"

    @property
    def label(self) -> str:
        if self.section.code.startswith("Wisconsin"):
            return self.ref
        derived = " (section number derived)" if self.section.derived else ""
        return f"{self.section.code} {self.ref}{derived}"

    def __str__(self) -> str:
        return f'{self.label}: "{self.quote}"'


@dataclass(frozen=True)
class Value:
    since: date
    value: Any
    source: str = ""  # for fee-schedule amounts: the resolution or notice that set it


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    unit: str
    values: tuple[Value, ...]
    reference: Citation
    delegated_to: str = ""
    minimum: str = ""  # name of a state-law minimum parameter
    note: str = ""
    from_fee_schedule: bool = False
    verified_on: date | None = None  # the day a person checked the value and quote against the ordinance text
    #: "at_least" (a setback: what is measured must be this or more), "at_most" (a leash: this or less), or ""
    bound: str = ""

    def at(self, day: date) -> Value | None:
        """The value in force on ``day``, or None where no amount is published for that day.

        A value the code itself sets also answers for days before its `since` (our copies give no adoption
        dates, so `since` is the date of our copy); a delegated amount answers only from its own date.
        """
        current = [v for v in self.values if v.since <= day]
        if current:
            return current[-1]
        return self.values[0] if self.values and not self.delegated_to else None

    def format(self, value: Any) -> str:
        return format_quantity(value, self.unit)


def format_quantity(value: Any, unit: str) -> str:
    """Words a resident reads: "$5.00", "10 days", "April 1", "10:00 p.m."."""
    if unit == "USD":
        return f"${value:,.2f}"
    if unit == "month_day":
        month, day = (int(x) for x in str(value).split("-"))
        return f"{MONTHS[month - 1]} {day}"
    if unit == "time_of_day":
        t = value if isinstance(value, time) else time.fromisoformat(str(value))
        hour = t.hour % 12 or 12
        return f"{hour}:{t.minute:02d} {'a.m.' if t.hour < 12 else 'p.m.'}"
    if unit == "count":
        return f"{value:g}" if isinstance(value, float) else str(value)
    words = {"square_feet": "square feet", "cubic_feet": "cubic feet"}.get(unit, unit)
    number = f"{value:,g}" if isinstance(value, float) else f"{value:,}"
    if value == 1 and words.endswith("s"):
        words = {"feet": "foot", "inches": "inch"}.get(words, words[:-1])
    return f"{number} {words}"


@dataclass(frozen=True)
class Topic:
    key: str
    title: str
    covered: bool
    summary: str = ""
    citations: tuple[Citation, ...] = ()
    caveats: tuple[str, ...] = ()
    note: str = ""
    handler: str | None = None
    #: named statements a handler uses in its answer, each with its citation ("other_animal": TopicRule)
    rules: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class TopicRule:
    """A statement of the town's code a handler puts in an answer (data, not Python), with its citation."""

    text: str
    citation: Citation


MATERIAL_KINDS = ("prohibited", "permit_required", "conditional", "allowed")


@dataclass(frozen=True)
class MaterialGroup:
    """Names residents use for materials one rule governs (materials.yml): prohibited, permit_required,
    conditional (depends on what exactly it is) or allowed; ``rule`` states the law and ``citations`` back it."""

    kind: str
    what: str
    names: tuple[tuple[str, ...], ...]  # each name as its words, from material_words()
    rule: str
    citations: tuple[Citation, ...]


def material_words(text: str) -> tuple[str, ...]:
    """Lower-case words of ``text`` with a plural ending dropped ("Old Tires!" -> ("old", "tire"))."""
    words = []
    for w in re.sub(r"[^a-z0-9]+", " ", str(text).lower()).split():
        if len(w) > 3 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith(("ches", "shes", "xes", "sses")):
            w = w[:-2]
        elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        words.append(w)
    return tuple(words)


@dataclass(frozen=True)
class Definition:
    """A term the town's code defines (definitions.yml): the words residents use for it and the defining text."""

    term: str
    words: tuple[str, ...]
    citation: Citation
    see: Citation | None = None  # the section the definition points to ("has the meaning given in ...")
    #: the definition in one shorter sentence, for a lead, where its first sentence is too long for one
    lead: str = ""
    #: questions residents might ask that the definition answers (definitions.yml `examples:`)
    examples: tuple[str, ...] = ()
    #: how we read the definition (definitions.yml `note:`); never said in an answer (docs/interpretations.md)
    note: str = ""


@dataclass(frozen=True)
class Note:
    """A reading of the law that concerns no single parameter, rule or definition (town.yml `notes:`,
    knowledge/state/notes.yml): its subject, the reading, and the sections it concerns."""

    subject: str
    note: str
    sections: tuple[str, ...] = ()


def term_key(text: str) -> str:
    """How a term is looked up: lower case, letters, digits and single spaces ("Off-leash?" -> "off leash")."""
    return " ".join("".join(ch if ch.isalnum() else " " for ch in str(text).lower()).split())


@dataclass(frozen=True)
class Gap:
    id: str
    section: str
    what: str
    affects: tuple[str, ...]
    #: delegated amounts the gap is about (gaps.yml `filled_by`): once the fee schedule gives each of them an
    #: amount on the day asked, answers say `filled` instead of `what` (nothing when `filled` is "")
    filled_by: tuple[str, ...] = ()
    filled: str = ""


@dataclass(frozen=True)
class Contact:
    """An office residents are sent to (town.yml; knowledge/DATA.md "Contacts"). A value the town has not
    given is "" and is left out: the office is named without it, never with a placeholder."""

    name: str  # "Town Clerk/Treasurer, Town of Dunkirk"
    phone: str = ""
    email: str = ""
    hours: str = ""

    @property
    def placeholder(self) -> bool:
        """No way to reach the office is set (only its name)."""
        return not (self.phone or self.email)

    def unset(self) -> list[str]:
        return [k for k in ("phone", "email", "hours") if not getattr(self, k)]

    def __str__(self) -> str:
        line = ", ".join(b for b in (self.name, self.phone, self.email) if b)
        return line + (f" ({self.hours})" if self.hours else "")


@dataclass
class Town:
    key: str
    name: str  # "Town of Dunkirk"
    short_name: str  # "Dunkirk"
    county: str
    timezone: str
    latitude: float
    longitude: float
    clerk: Contact
    fire_department: Contact | None
    office_hours: str  # the clerk's hours (clerk.hours in town.yml)
    code_title: str
    code_name: str  # used in citations: "Dunkirk Code"
    #: how answers name the municipality (town.yml): "Town", "City" or "Village" ("the City's fee schedule")
    municipality: str = "Town"
    #: who sets the amounts the code leaves to a fee schedule or resolution: "the Common Council by resolution"
    fees_set_by: str = ""
    numbering_note: str = ""
    ocr_corrections: tuple[dict, ...] = ()
    sections: dict[str, Section] = field(default_factory=dict)
    parameters: dict[str, Parameter] = field(default_factory=dict)
    topics: dict[str, Topic] = field(default_factory=dict)
    gaps: tuple[Gap, ...] = ()
    materials: dict | None = None  # materials.yml: {kind: [MaterialGroup, ...]} by the rule that governs them
    scope: Citation | None = None  # the words that say what the code covers
    #: definitions.yml: every defined term, by term_key of the term and of each word residents use for it
    definitions: dict[str, Definition] = field(default_factory=dict)
    #: town.yml `notes:`: readings that concern no single parameter, rule or definition
    notes: tuple[Note, ...] = ()
    #: town.yml `burning:` (knowledge.burn_hours.Scheme): daylight or a clock window, closed days, notify or permit
    burning_scheme: Any = None

    def param(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise KnowledgeError(f"knowledge/towns/{self.key}", name, "parameter is not defined") from None

    def has_param(self, name: str) -> bool:
        return name in self.parameters

    def value(self, name: str, day: date) -> Any:
        """The value of parameter ``name`` in force on ``day`` (None where the amount is not published)."""
        v = self.param(name).at(day)
        return None if v is None else v.value

    def covers(self, topic: str) -> bool:
        return self.topics[topic].covered

    def gaps_for(self, topic: str) -> list[Gap]:
        return [g for g in self.gaps if topic in g.affects]

    def contact_line(self) -> str:
        """The clerk's office with what the town has set of phone, email and hours: "Town Clerk/Treasurer,
        Town of Dunkirk, (608) 555-0100 (Mon-Thu 9-12)"; only the office's name when none is set."""
        return str(self.clerk)

    def render(self, text: str, day: date) -> str:
        """Fill ``{parameter.name}`` placeholders with the values in force on ``day``.

        The unit is written out ("5 months") unless the text already names it right after the placeholder
        ("{x} months old") or the unit is a bare count.
        """
        def fill(m: re.Match) -> str:
            p = self.param(m.group(1))
            v = p.at(day)
            if v is None:
                return "an amount not published in our copy"
            words = p.format(v.value)
            if p.unit in ("USD", "month_day", "time_of_day"):
                return words
            number, _, unit = words.partition(" ")
            following = text[m.end():].lstrip().lower()
            stem = p.unit.replace("_", " ").rstrip("s")
            names_unit = following.startswith(stem) or (unit and following.startswith(unit)) or \
                re.match(r"or (more|fewer|less)\b", following)
            if p.unit == "count" or names_unit:
                return number
            return words
        return PLACEHOLDER.sub(fill, text)


PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)\}")


@dataclass(frozen=True)
class Step:
    """One step of how an answer was reached, with the citations that back that step."""

    text: str
    citations: tuple[Citation, ...] = ()

    def __str__(self) -> str:
        return self.text

    def endswith(self, suffix) -> bool:
        return self.text.endswith(suffix)


@dataclass
class Answer:
    """What every handler returns: the result first, then how it was reached and where it comes from."""

    topic: str
    result: str
    value: Any = None
    steps: list[Step | str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    town: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    #: the one or two sentences (at most 160 GSM-7 characters) that answer the question asked, with the section
    #: in short form; "" until a handler sets it (knowledge.render.lead then derives it from ``result``)
    lead: str = ""

    def cite(self, citation: Citation) -> None:
        if all(c.ref != citation.ref or c.quote != citation.quote for c in self.citations):
            self.citations.append(citation)

    def step(self, text: str, *citations: Citation) -> Step:
        """Add a step backed by ``citations`` (each also joins the answer's sources)."""
        step = Step(text, tuple(citations))
        self.steps.append(step)
        for citation in citations:
            self.cite(citation)
        return step


@dataclass(frozen=True)
class BurningOrder:
    """The town's no-burning order as the records store holds it (Dunkirk 7.09(4), 7.10(4))."""

    active: bool
    reason: str = ""
    since: datetime | None = None
    set_by: str = ""
    #: a dated order as the Board issued it: in force from ``start`` until ``end`` (None: until lifted; an order
    #: lifted early has ``end`` at the lifting); an order without ``start`` is in force whenever ``active``
    start: datetime | None = None
    end: datetime | None = None
    board_action: str = ""
    order_id: int | None = None

    def overlaps(self, start: datetime, end: datetime | None = None) -> bool:
        """Is the order in force at any moment of [start, end] (``end`` None: the instant ``start``)?"""
        if not self.active:
            return False
        end = start if end is None or end < start else end
        if self.start is not None and end < self.start:
            return False
        return self.end is None or start < self.end

    def covers(self, at: datetime) -> bool:
        """Is the order in force at the instant ``at``?"""
        return self.overlaps(at)
