"""Strict loading of a town's knowledge folder (format: knowledge/DATA.md).

Anything malformed fails here, at load, with a ``KnowledgeError`` naming the file, the key and the problem:
an unknown key, a missing citation, a citation to a section that does not exist, a quote that is not in the
cited text, a bad date, a negative amount, a placeholder naming no parameter.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from . import burn_hours, settings
from .errors import KnowledgeError, NeedsClarification
from .model import (MATERIAL_KINDS, PLACEHOLDER, Citation, Contact, Definition, Gap, MaterialGroup, Note, Paragraph,
                    Parameter, Section, Topic, Town, Value, material_words, term_key)
from .rules import Rule
from .rules import words as _words
from .strict_yaml import SAFE_LOADER, DuplicateKey, StrictLoader, read_yaml  # noqa: F401 - importable from here

ROOT = Path(__file__).resolve().parent
UNITS = {"USD", "dogs", "cats", "animals", "days", "weeks", "months", "years", "feet", "inches",
         "square_feet", "cubic_feet", "pounds", "hours", "acres", "month_day", "time_of_day", "count", "ratio"}
NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
TOWN_KEY = re.compile(r"^[a-z][a-z0-9_-]*$")

def _name(path: Path) -> str:
    """How errors name a file: relative to the repository where it lies inside it."""
    return str(path.relative_to(ROOT.parent)) if path.is_relative_to(ROOT.parent) else str(path)


class _File:
    """One YAML file being read; every check names this file."""

    def __init__(self, path: Path):
        self.path = path
        self.name = _name(path)
        try:
            with path.open(encoding="utf-8") as fh:
                self.data = yaml.load(fh, Loader=SAFE_LOADER)
        except FileNotFoundError:
            raise KnowledgeError(self.name, "-", "file is missing") from None
        except DuplicateKey as exc:
            raise KnowledgeError(self.name, str(exc.key), f"key said twice in one mapping (line {exc.line})") from None
        except yaml.YAMLError as exc:
            raise KnowledgeError(self.name, "-", f"not valid YAML: {exc}") from None

    def fail(self, key: str, problem: str) -> KnowledgeError:
        return KnowledgeError(self.name, key, problem)

    def mapping(self, value: Any, key: str, required: set[str], optional: set[str] = frozenset()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(key, "must be a mapping")
        unknown = set(value) - required - set(optional)
        if unknown:
            raise self.fail(key, f"unknown key(s): {', '.join(sorted(map(str, unknown)))}")
        missing = required - set(value)
        if missing:
            raise self.fail(key, f"missing key(s): {', '.join(sorted(missing))}")
        return value

    def text(self, value: Any, key: str, allow_empty: bool = False) -> str:
        if value is None and allow_empty:
            return ""
        if not isinstance(value, str) or (not allow_empty and not value.strip()):
            raise self.fail(key, "must be non-empty text")
        return value

    def day(self, value: Any, key: str) -> date:
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            raise self.fail(key, f"not a date (YYYY-MM-DD): {value!r}") from None

    def examples(self, value: Any, key: str) -> tuple[str, ...]:
        """An optional `examples:` list: questions residents might ask, each non-empty text (spaces tidied)."""
        return tuple(_norm(self.text(q, f"{key}[{i}]")) for i, q in enumerate(self.listing(value, key)))

    def listing(self, value: Any, key: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        return value


def _norm(text: str) -> str:
    return " ".join(text.split())


# -- sections -------------------------------------------------------------------------------------

def _load_sections(path: Path, code: str) -> tuple[dict[str, Section], dict]:
    f = _File(path)
    top = f.mapping(f.data, "(top)", {"document", "sections"})
    doc = f.mapping(top["document"], "document", {"title", "source", "numbering"},
                    {"numbering_note", "ocr_corrections"})
    if doc["numbering"] not in ("official", "derived"):
        raise f.fail("document.numbering", "must be 'official' or 'derived'")
    derived = doc["numbering"] == "derived"
    sections: dict[str, Section] = {}
    for i, raw in enumerate(f.listing(top["sections"], "sections")):
        key = f"sections[{i}]"
        s = f.mapping(raw, key, {"number", "title", "paragraphs"}, {"history", "gap"})
        number = f.text(str(s["number"]), f"{key}.number")
        key = f"sections[{number}]"
        if number in sections:
            raise f.fail(key, "section number appears twice")
        paragraphs = []
        seen_paths: set[str] = set()
        for j, p in enumerate(f.listing(s["paragraphs"], f"{key}.paragraphs")):
            p = f.mapping(p, f"{key}.paragraphs[{j}]", {"path", "text"})
            ppath = f.text(p["path"], f"{key}.paragraphs[{j}].path", allow_empty=True)
            if ppath in seen_paths:
                raise f.fail(f"{key}.paragraphs[{j}].path", f"path {ppath!r} appears twice in the section")
            seen_paths.add(ppath)
            paragraphs.append(Paragraph(ppath, f.text(p["text"], f"{key}.paragraphs[{j}].text")))
        if not paragraphs:
            raise f.fail(f"{key}.paragraphs", "a section needs at least one paragraph")
        sections[number] = Section(
            number=number, title=f.text(s["title"], f"{key}.title"), paragraphs=tuple(paragraphs),
            code=code, derived=derived, history=f.text(s.get("history"), f"{key}.history", True),
            gap=f.text(s.get("gap"), f"{key}.gap", True))
    if not sections:
        raise f.fail("sections", "no sections")
    corrections = []
    for i, c in enumerate(f.listing(doc.get("ocr_corrections"), "document.ocr_corrections")):
        c = f.mapping(c, f"document.ocr_corrections[{i}]", {"section", "was", "now"})
        if str(c["section"]) not in sections:
            raise f.fail(f"document.ocr_corrections[{i}].section", f"no section {c['section']!r}")
        corrections.append({k: str(v) for k, v in c.items()})
    meta = {"title": doc["title"], "numbering_note": doc.get("numbering_note") or "",
            "ocr_corrections": tuple(corrections)}
    return sections, meta


def resolve(sections: dict[str, Section], ref: str) -> tuple[Section, str] | None:
    """Split a reference like "7.02-5(d)(3)a" into its section and paragraph path."""
    ref = ref.strip()
    for number in sorted(sections, key=len, reverse=True):
        if ref.startswith(number):
            rest = ref[len(number):].strip()
            if rest and rest[0] not in "([":
                continue
            if sections[number].has_path(rest):
                return sections[number], rest
    return None


def citation(sections: dict[str, Section], ref: str, quote: str) -> Citation:
    """A checked citation: KeyError if ``ref`` names no section or paragraph, ValueError if the cited text
    does not contain ``quote`` (white space aside)."""
    found = resolve(sections, ref)
    if found is None:
        raise KeyError(f"cites {ref!r}, which is not a section or paragraph of the code")
    section, path = found
    if _norm(quote) not in _norm(section.text_at(path)):
        raise ValueError(f"quote is not in the text of {ref}: {quote!r}")
    return Citation(section, path, _norm(quote))


def _cite(f: _File, sections: dict[str, Section], raw: Any, key: str) -> Citation:
    c = f.mapping(raw, key, {"section", "quote"})
    ref = f.text(str(c["section"]), f"{key}.section")
    quote = f.text(c["quote"], f"{key}.quote")
    try:
        return citation(sections, ref, quote)
    except KeyError as exc:
        raise f.fail(f"{key}.section", exc.args[0]) from None
    except ValueError as exc:
        raise f.fail(f"{key}.quote", str(exc)) from None


# -- parameters -----------------------------------------------------------------------------------

def _check_value(f: _File, unit: str, value: Any, key: str) -> Any:
    if unit == "month_day":
        try:
            date.fromisoformat(f"2000-{value}")
        except (TypeError, ValueError):
            raise f.fail(key, f"not a month-day (MM-DD): {value!r}") from None
        return str(value)
    if unit == "time_of_day":
        try:
            return time.fromisoformat(str(value)).isoformat(timespec="minutes")
        except ValueError:
            raise f.fail(key, f"not a time of day (HH:MM): {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise f.fail(key, f"must be a number, not {value!r}")
    if value < 0:
        raise f.fail(key, f"must not be negative: {value}")
    return float(value) if unit == "USD" else value


def _load_parameters(path: Path, sections: dict[str, Section], into: dict[str, Parameter]) -> None:
    f = _File(path)
    if f.data is None:
        return
    if not isinstance(f.data, dict):
        raise f.fail("(top)", "must be a mapping of parameter names")
    for name, raw in f.data.items():
        key = str(name)
        if not NAME.match(key):
            raise f.fail(key, "parameter names are lowercase dotted words")
        if key in into:
            raise f.fail(key, "parameter is defined twice")
        p = f.mapping(raw, key, {"description", "unit", "reference", "verified_on"},
                      {"values", "delegated", "note", "bound"})
        bound = p.get("bound", "")
        if bound not in BOUNDS:
            raise f.fail(f"{key}.bound", f"must be one of {', '.join(sorted(b for b in BOUNDS if b))}")
        unit = p["unit"]
        if unit not in UNITS:
            raise f.fail(f"{key}.unit", f"unknown unit {unit!r}; one of {', '.join(sorted(UNITS))}")
        values = []
        for i, v in enumerate(f.listing(p.get("values"), f"{key}.values")):
            v = f.mapping(v, f"{key}.values[{i}]", {"since", "value"})
            values.append(Value(f.day(v["since"], f"{key}.values[{i}].since"),
                                _check_value(f, unit, v["value"], f"{key}.values[{i}].value")))
        if [v.since for v in values] != sorted(v.since for v in values):
            raise f.fail(f"{key}.values", "values must be in order of their `since` dates")
        delegated_to, minimum = "", ""
        if p.get("delegated") is not None:
            d = f.mapping(p["delegated"], f"{key}.delegated", {"to"}, {"minimum"})
            delegated_to = f.text(d["to"], f"{key}.delegated.to")
            minimum = str(d.get("minimum") or "")
        elif not values:
            raise f.fail(f"{key}.values", "a parameter the code sets needs at least one value")
        note = _note(f, p, f"{key}.note")
        into[key] = Parameter(
            name=key, description=f.text(p["description"], f"{key}.description"), unit=unit,
            values=tuple(values), reference=_cite(f, sections, p["reference"], f"{key}.reference"),
            delegated_to=delegated_to, minimum=minimum, note=note, bound=bound,
            verified_on=_verified_on(f, p["verified_on"], f"{key}.verified_on"))


#: a parameter's `bound`: what the law requires of what a resident measures against it (knowledge/DATA.md)
BOUNDS = ("", "at_least", "at_most")


def _note(f: _File, raw: dict, key: str) -> str:
    """An optional `note:` (how we read the law there; docs/interpretations.md is generated from the notes):
    non-empty text when given, its spaces tidied."""
    return _norm(f.text(raw["note"], key)) if "note" in raw else ""


def load_notes(f: _File, raw: Any, key: str, sections: dict[str, Section]) -> tuple[Note, ...]:
    """A `notes:` list (town.yml, knowledge/state/notes.yml): readings that concern no single parameter, rule
    or definition. Each has a `subject`, the `note` and optionally the `sections` it concerns (each must exist)."""
    notes = []
    for i, n in enumerate(f.listing(raw, key)):
        n = f.mapping(n, f"{key}[{i}]", {"subject", "note"}, {"sections"})
        refs = tuple(f.text(str(r), f"{key}[{i}].sections") for r in f.listing(n.get("sections"), f"{key}[{i}].sections"))
        for ref in refs:
            if resolve(sections, ref) is None:
                raise f.fail(f"{key}[{i}].sections", f"{ref!r} is not a section or paragraph of the code")
        notes.append(Note(_norm(f.text(n["subject"], f"{key}[{i}].subject")), _norm(f.text(n["note"], f"{key}[{i}].note")),
                          refs))
    return tuple(notes)


def _state_sections() -> dict[str, Section]:
    sections, _ = _load_sections(ROOT / "state" / "sections.yml", "Wisconsin Statutes")
    _add_state_rules(sections)
    return sections


def state_parameters() -> dict[str, Parameter]:
    """knowledge/state/parameters.yml, checked as load_town checks it."""
    params: dict[str, Parameter] = {}
    _load_parameters(ROOT / "state" / "parameters.yml", _state_sections(), params)
    return params


def state_notes() -> tuple[Note, ...]:
    """knowledge/state/notes.yml: readings that concern every town (state law, the words residents use)."""
    path = ROOT / "state" / "notes.yml"
    if not path.exists():
        return ()
    state_sections = _state_sections()
    f = _File(path)
    top = f.mapping(f.data, "(top)", {"notes"})
    return load_notes(f, top["notes"], "notes", state_sections)


def _verified_on(f: _File, value: Any, key: str) -> date:
    """The day a person checked a parameter's value and quote against the ordinance text: a date, not in the future."""
    if isinstance(value, datetime) or not isinstance(value, (date, str)) or \
            (isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        raise f.fail(key, f"not a date (YYYY-MM-DD): {value!r}")
    day = f.day(value, key)
    if day > date.today():
        raise f.fail(key, f"in the future: {day.isoformat()} (the day the value and quote were checked)")
    return day


def _apply_fee_schedule(path: Path, params: dict[str, Parameter]) -> None:
    """The Clerk's fees.yml: amounts for parameters the code delegates (see docs/clerk.md, "How a clerk updates a fee")."""
    if not path.exists():
        return
    f = _File(path)
    if f.data is None:
        return
    if not isinstance(f.data, dict):
        raise f.fail("(top)", "must be a mapping of parameter names to amounts")
    for name, raw in f.data.items():
        key = str(name)
        if key not in params:
            raise f.fail(key, "no such parameter (see the Clerk page 'Fee schedule' for the names)")
        p = params[key]
        if not p.delegated_to:
            raise f.fail(key, f"the code itself sets this amount ({p.reference.label}); it cannot be "
                              "overridden by the fee schedule")
        entries = raw if isinstance(raw, list) else [raw]
        values = list(p.values)
        for i, e in enumerate(entries):
            e = f.mapping(e, f"{key}[{i}]", {"value", "since", "source"})
            values.append(Value(f.day(e["since"], f"{key}[{i}].since"),
                                _check_value(f, p.unit, e["value"], f"{key}[{i}].value"),
                                source=f.text(e["source"], f"{key}[{i}].source")))
        values.sort(key=lambda v: v.since)
        params[key] = replace(p, values=tuple(values), from_fee_schedule=True)


def _check_placeholders(f: _File, text: str, key: str, params: dict[str, Parameter]) -> None:
    for m in PLACEHOLDER.finditer(text):
        if m.group(1) not in params:
            raise f.fail(key, f"placeholder {{{m.group(1)}}} names no parameter")


# -- topics, gaps, profile ------------------------------------------------------------------------

def _load_catalogue() -> dict[str, dict]:
    f = _File(ROOT / "topics.yml")
    for key, raw in f.data.items():
        f.mapping(raw, key, {"title", "handler"})
    return f.data


def _load_topics(path: Path, sections, params) -> dict[str, Topic]:
    f = _File(path)
    catalogue = _load_catalogue()
    data = f.mapping(f.data, "(top)", set(catalogue))
    topics = {}
    for key, raw in data.items():
        t = f.mapping(raw, key, {"covered"}, {"summary", "citations", "caveats", "note", "rules"})
        if not isinstance(t["covered"], bool):
            raise f.fail(f"{key}.covered", "must be true or false")
        citations = tuple(_cite(f, sections, c, f"{key}.citations[{i}]")
                          for i, c in enumerate(f.listing(t.get("citations"), f"{key}.citations")))
        summary = f.text(t.get("summary"), f"{key}.summary", allow_empty=not t["covered"])
        note = f.text(t.get("note"), f"{key}.note", allow_empty=t["covered"])
        if t["covered"] and not citations:
            raise f.fail(f"{key}.citations", "a covered topic needs at least one citation")
        caveats = tuple(f.text(c, f"{key}.caveats[{i}]") for i, c in enumerate(f.listing(t.get("caveats"), key)))
        for i, text in enumerate((summary, note, *caveats)):
            _check_placeholders(f, text, key, params)
        rules = {}
        raw_rules = t.get("rules") or {}
        if not isinstance(raw_rules, dict):
            raise f.fail(f"{key}.rules", "must be a mapping of rule names")
        for name, rule in raw_rules.items():
            r = f.mapping(rule, f"{key}.rules.{name}", {"text", "section", "quote"},
                          {"lead", "asks", "alone", "examples", "when_said", "note"})
            text = f.text(r["text"], f"{key}.rules.{name}.text")
            lead = f.text(r.get("lead"), f"{key}.rules.{name}.lead", allow_empty=True)
            asks = f.text(r.get("asks"), f"{key}.rules.{name}.asks", allow_empty=True)
            examples = f.examples(r.get("examples"), f"{key}.rules.{name}.examples")
            when_said = f.text(r["when_said"], f"{key}.rules.{name}.when_said") if "when_said" in r else ""
            if when_said and not all(_words(g) for g in when_said.split(";")):
                raise f.fail(f"{key}.rules.{name}.when_said",
                             "each group (between ';') must name a word of three letters or more that is not a stop "
                             "word (knowledge/rules.py STOPWORDS)")
            alone = r.get("alone", False)
            if not isinstance(alone, bool):
                raise f.fail(f"{key}.rules.{name}.alone", "must be true or false")
            for part in (text, lead):
                _check_placeholders(f, part, f"{key}.rules.{name}", params)
            rules[name] = Rule(text, _cite(f, sections, {"section": r["section"], "quote": r["quote"]},
                                           f"{key}.rules.{name}"), lead=" ".join(lead.split()), asks=asks, alone=alone,
                                           examples=examples, when_said=" ".join(when_said.split()),
                                           note=_note(f, r, f"{key}.rules.{name}.note"))
        topics[key] = Topic(key=key, title=catalogue[key]["title"], covered=t["covered"], summary=summary,
                            citations=citations, caveats=caveats, note=note,
                            handler=catalogue[key]["handler"], rules=rules)
    return topics


def _load_gaps(path: Path, sections) -> tuple[Gap, ...]:
    f = _File(path)
    catalogue = _load_catalogue()
    gaps = []
    for i, raw in enumerate(f.listing(f.data, "(top)")):
        g = f.mapping(raw, f"[{i}]", {"id", "section", "what", "affects"})
        ref = f.text(str(g["section"]), f"[{i}].section")
        if resolve(sections, ref) is None:
            raise f.fail(f"{g['id']}.section", f"{ref!r} is not a section of the code")
        affects = tuple(f.listing(g["affects"], f"{g['id']}.affects"))
        for a in affects:
            if a not in catalogue:
                raise f.fail(f"{g['id']}.affects", f"unknown topic {a!r}")
        gaps.append(Gap(f.text(g["id"], f"[{i}].id"), ref, f.text(g["what"], f"{g['id']}.what"), affects))
    return tuple(gaps)


def _load_materials(path: Path, sections) -> dict | None:
    """Optional materials.yml: names residents use for materials, grouped by the rule that governs them
    (format: knowledge/DATA.md). A name may appear in one group only."""
    if not path.exists():
        return None
    f = _File(path)
    top = f.mapping(f.data, "(top)", {"prohibited"}, set(MATERIAL_KINDS))
    groups: dict[str, list[MaterialGroup]] = {}
    seen: dict[tuple[str, ...], str] = {}
    for kind in MATERIAL_KINDS:
        groups[kind] = []
        for i, raw in enumerate(f.listing(top.get(kind), kind)):
            key = f"{kind}[{i}]"
            g = f.mapping(raw, key, {"what", "names", "rule", "citations"})
            names = []
            for n in f.listing(g["names"], f"{key}.names"):
                words = material_words(f.text(str(n), f"{key}.names"))
                if not words:
                    raise f.fail(f"{key}.names", f"{n!r} has no words")
                if words in seen:
                    raise f.fail(f"{key}.names", f"{n!r} is also a name in {seen[words]}")
                seen[words] = key
                names.append(words)
            if not names:
                raise f.fail(f"{key}.names", "a group needs at least one name")
            citations = tuple(_cite(f, sections, c, f"{key}.citations[{j}]")
                              for j, c in enumerate(f.listing(g["citations"], f"{key}.citations")))
            if not citations:
                raise f.fail(f"{key}.citations", "a group needs at least one citation")
            groups[kind].append(MaterialGroup(kind, f.text(g["what"], f"{key}.what"), tuple(names),
                                              " ".join(f.text(g["rule"], f"{key}.rule").split()), citations))
    return groups


def _add_state_rules(state_sections: dict[str, Section]) -> None:
    """knowledge/state/admin_code.yml: Wisconsin Administrative Code rules (NR 429.04) beside the statutes."""
    path = ROOT / "state" / "admin_code.yml"
    if not path.exists():
        return
    rules, _ = _load_sections(path, "Wisconsin Administrative Code")
    for number in rules:
        if number in state_sections:
            raise KnowledgeError("knowledge/state/admin_code.yml", number, "also a section of state/sections.yml")
    state_sections.update(rules)


def _load_definitions(path: Path, sections) -> dict[str, Definition]:
    """Optional definitions.yml: every term the code defines, the words residents use for it, the defining
    paragraph quoted (checked like every citation) and, where the definition points elsewhere, ``see``."""
    if not path.exists():
        return {}
    f = _File(path)
    found: dict[str, Definition] = {}
    for i, raw in enumerate(f.listing(f.data, "(top)")):
        d = f.mapping(raw, f"[{i}]", {"term", "words", "section", "quote"}, {"see", "lead", "examples", "note"})
        term = f.text(d["term"], f"[{i}].term")
        words = tuple(f.text(w, f"{term}.words") for w in f.listing(d["words"], f"{term}.words"))
        see = _cite(f, sections, d["see"], f"{term}.see") if d.get("see") is not None else None
        lead = " ".join(f.text(d.get("lead"), f"{term}.lead", True).split())
        examples = f.examples(d.get("examples"), f"{term}.examples")
        entry = Definition(term, words, _cite(f, sections, {"section": d["section"], "quote": d["quote"]}, term), see,
                           lead, examples, note=_note(f, d, f"{term}.note"))
        for word in (term, *words):
            key = term_key(word)
            if key in found and found[key].term != term:
                raise f.fail(f"{term}.words", f"{word!r} already stands for {found[key].term!r}")
            found[key] = entry
    return found


def _contact(f: _File, raw: Any, key: str, hours: str = "") -> Contact:
    """An office's contact (knowledge/DATA.md "Contacts"): name required; phone, email, hours may be blank
    (left out of answers). A phone is checked and written the usual way ("(608) 555-0100")."""
    c = f.mapping(raw, key, {"name"}, {"phone", "email", "hours"})
    phone = f.text("" if c.get("phone") is None else str(c["phone"]), f"{key}.phone", True).strip()
    if phone:
        import phonenumbers
        try:
            number = phonenumbers.parse(phone, "US")
        except phonenumbers.NumberParseException:
            number = None
        if number is None or not phonenumbers.is_possible_number(number):
            raise f.fail(f"{key}.phone", f"not a phone number: {phone!r} (leave it blank if not known)")
        phone = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    email = f.text(c.get("email"), f"{key}.email", True).strip()
    if email and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", email):
        raise f.fail(f"{key}.email", f"not an email address: {email!r} (leave it blank if not known)")
    return Contact(f.text(c["name"], f"{key}.name"), phone, email,
                   f.text(c.get("hours"), f"{key}.hours", True).strip() or hours)


def _load_burning_scheme(f: _File, raw: Any, sections, params, topics, topics_file: str):
    """town.yml `burning:` (knowledge/DATA.md "Burning scheme"): the hours (daylight or clock), their parameters,
    closed days and legal holidays, what comes before a burn (notify or permit), and the rules each needs; None
    for a town that covers no burning."""
    covered = "burning_hours" in topics and topics["burning_hours"].covered
    if raw is None:
        if covered:
            raise f.fail("burning", "missing: a town that covers burning names its hours (daylight or clock)")
        return None
    b = f.mapping(raw, "burning", {"hours", "before"}, {"start", "end", "closed", "legal_holidays", "orders_by"})
    kind = b["hours"]
    if kind not in burn_hours.SCHEME_RULES:
        raise f.fail("burning.hours", f"must be one of {', '.join(burn_hours.SCHEME_RULES)}, not {kind!r}")
    before = b["before"]
    if before not in burn_hours.BEFORE_RULES:
        raise f.fail("burning.before", f"must be one of {', '.join(burn_hours.BEFORE_RULES)}, not {before!r}")
    ends = {}
    for end in ("start", "end"):
        if kind == "daylight":
            if end in b:
                raise f.fail(f"burning.{end}", "a daylight scheme runs from sunrise to sunset: no clock times")
            continue
        if end not in b:
            raise f.fail(f"burning.{end}", "missing: a clock scheme names the time_of_day parameter of "
                                                 f"its window's {end}")
        name = f.text(b[end], f"burning.{end}")
        if name not in params:
            raise f.fail(f"burning.{end}", f"names no parameter: {name!r}")
        if params[name].unit != "time_of_day" or not params[name].values:
            raise f.fail(f"burning.{end}", f"{name!r} must be a time_of_day parameter with a value")
        ends[end] = name
    if ends:
        days = sorted({v.since for n in ends.values() for v in params[n].values})
        for day in days:
            opens, closes = (getattr(params[ends[e]].at(day), "value", None) for e in ("start", "end"))
            if opens is not None and closes is not None and not opens < closes:  # "HH:MM": compared as text
                raise f.fail("burning.end", f"the window must end after it starts: {opens} to {closes} from {day}")
    closed = tuple(f.listing(b.get("closed"), "burning.closed"))
    for c in closed:
        if c not in burn_hours.CLOSED_DAY_RULES:
            raise f.fail("burning.closed", f"unknown closed day {c!r}; one of "
                                                 f"{', '.join(burn_hours.CLOSED_DAY_RULES)}")
    holidays, cited = (), None
    if "legal_holidays" in closed:
        if b.get("legal_holidays") is None:
            raise f.fail("burning.legal_holidays", "missing: closed on legal holidays needs their dates")
        h = f.mapping(b["legal_holidays"], "burning.legal_holidays", {"reference", "days"})
        cited = _cite(f, sections, h["reference"], "burning.legal_holidays.reference")
        text = _norm(cited.section.text_at(cited.path))
        days = []
        for i, d in enumerate(f.listing(h["days"], "burning.legal_holidays.days")):
            key = f"burning.legal_holidays.days[{i}]"
            d = f.mapping(d, key, {"date", "name"})
            name = f.text(d["name"], f"{key}.name")
            if _norm(name) not in text:
                raise f.fail(f"{key}.name", f"{name!r} is not named in {cited.label}")
            days.append((f.day(d["date"], f"{key}.date"), name))
        holidays = tuple(days)
    elif b.get("legal_holidays") is not None:
        raise f.fail("burning.legal_holidays", "dates given but `closed` does not name legal_holidays")
    who, who_cited = "", None
    if b.get("orders_by") is not None:
        o = f.mapping(b["orders_by"], "burning.orders_by", {"who", "reference"})
        who = f.text(o["who"], "burning.orders_by.who").strip()
        who_cited = _cite(f, sections, o["reference"], "burning.orders_by.reference")
        if _norm(who) not in _norm(who_cited.section.text_at(who_cited.path)):
            raise f.fail("burning.orders_by.who", f"{who!r} is not named in {who_cited.label}")
    elif covered and "no_burning_order" in topics and topics["no_burning_order"].covered:
        raise f.fail("burning.orders_by", "missing: a town with no-burning orders names who issues them")
    scheme = burn_hours.Scheme(kind, ends.get("start", ""), ends.get("end", ""), closed, holidays, cited, before,
                               who, who_cited)
    if covered:
        needed = {t: set(n) for t, n in burn_hours.BURNING_RULES.items()}
        needed["burning_hours"] |= set(burn_hours.SCHEME_RULES[kind]) | {burn_hours.CLOSED_DAY_RULES[c] for c in closed}
        needed["burn_notification"] |= {burn_hours.BEFORE_RULES[before]}
        for topic, names in needed.items():
            have = topics[topic].rules if topic in topics else {}
            for name in sorted(names - set(have)):
                raise KnowledgeError(topics_file, f"{topic}.rules.{name}",
                                     f"the burning scheme of town.yml ({kind} hours, {before} before) needs this rule")
        if not topics["burning_penalties"].rules:
            raise KnowledgeError(topics_file, "burning_penalties.rules", "the burning handler states these: give one")
    return scheme


#: the kinds of Wisconsin municipality a town.yml may name (its `municipality:`)
MUNICIPALITIES = ("Town", "City", "Village")


def load_town(key: str, root: Path | None = None) -> Town:
    """Load and check one town's folder; ``root`` is the knowledge folder (tests pass broken copies) or a
    folder of town folders (tests/fixtures/towns)."""
    root = Path(root) if root else ROOT
    ok = isinstance(key, str) and TOWN_KEY.match(key)
    folder = root / "towns" / key if ok and (root / "towns" / key).is_dir() else root / str(key)
    if not ok or not (folder / "town.yml").is_file() and not (root / "towns" / key).is_dir():
        raise NeedsClarification(f"I don't have the code of a town called {key!r}.", field="town")
    f = _File(folder / "town.yml")
    t = f.mapping(f.data, "(top)", {"name", "short_name", "county", "state", "timezone", "latitude",
                                    "longitude", "code_name", "clerk", "municipality", "fees_set_by"},
                  {"fire_department", "website", "scope", "office_hours", "notes", "burning"})
    try:
        from zoneinfo import ZoneInfo
        ZoneInfo(t["timezone"])
    except Exception:
        raise f.fail("timezone", f"unknown time zone {t['timezone']!r}") from None
    if t["municipality"] not in MUNICIPALITIES:
        raise f.fail("municipality", f"must be one of {', '.join(MUNICIPALITIES)}")
    for axis, limit in (("latitude", 90), ("longitude", 180)):
        if not isinstance(t[axis], (int, float)) or abs(t[axis]) > limit:
            raise f.fail(axis, f"must be a number within ±{limit}")
    state_sections, _ = _load_sections(ROOT / "state" / "sections.yml", "Wisconsin Statutes")
    _add_state_rules(state_sections)
    sections, meta = _load_sections(folder / "sections.yml", t["code_name"])
    all_sections = {**state_sections, **sections}
    params: dict[str, Parameter] = {}
    _load_parameters(ROOT / "state" / "parameters.yml", state_sections, params)
    param_dir = folder / "parameters"
    for path in sorted(param_dir.glob("*.yml")) if param_dir.is_dir() else []:
        _load_parameters(path, all_sections, params)
    for p in params.values():
        if p.minimum and p.minimum not in params:
            raise KnowledgeError(f"knowledge/towns/{key}/parameters", f"{p.name}.delegated.minimum",
                                 f"names no parameter: {p.minimum!r}")
    _apply_fee_schedule(folder / "fees.yml", params)
    topics = _load_topics(folder / "topics.yml", all_sections, params)
    gaps = _load_gaps(folder / "gaps.yml", all_sections)
    materials = _load_materials(folder / "materials.yml", all_sections)
    definitions = _load_definitions(folder / "definitions.yml", all_sections)
    scheme = _load_burning_scheme(f, t.get("burning"), all_sections, params, topics,
                                  _name(folder / "topics.yml"))
    if "scope" not in t:
        raise f.fail("scope", "missing: cite the words that say what the code covers")
    scope = _cite(f, all_sections, t["scope"], "scope")
    clerk = _contact(f, t["clerk"], "clerk", f.text(t.get("office_hours"), "office_hours", True).strip())
    notes = load_notes(f, t.get("notes"), "notes", all_sections)
    return Town(
        key=key, name=t["name"], short_name=t["short_name"], county=t["county"], timezone=t["timezone"],
        latitude=float(t["latitude"]), longitude=float(t["longitude"]),
        clerk=clerk,
        fire_department=_contact(f, t["fire_department"], "fire_department") if t.get("fire_department") else None,
        office_hours=clerk.hours, code_title=meta["title"],
        code_name=t["code_name"], municipality=t["municipality"],
        fees_set_by=f.text(t["fees_set_by"], "fees_set_by"), numbering_note=meta["numbering_note"],
        ocr_corrections=meta["ocr_corrections"], sections=all_sections, parameters=params, topics=topics,
        gaps=gaps, materials=materials, scope=scope, definitions=definitions, notes=notes, burning_scheme=scheme)


@lru_cache(maxsize=None)
def town(key: str | None = None) -> Town:
    """The town named by ``key`` or the ``TOWN`` environment variable (default dunkirk), loaded once."""
    return load_town(key or settings.town_key())


def town_keys(root: Path | None = None) -> list[str]:
    return sorted(p.name for p in ((root or ROOT) / "towns").iterdir() if (p / "town.yml").exists())
