"""Loading the law's text and numbers: sections (and the citations checked against them), parameters, notes
and the Clerk's fee schedule; and ``File``, the one YAML file every loader reads through, whose every error names
the file and the key. knowledge/loader.py puts a town together (format: knowledge/DATA.md)."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import yaml

from . import fee_schedule
from .errors import KnowledgeError
from .model import Citation, Note, Paragraph, Parameter, Section, Value
from .strict_yaml import SAFE_LOADER, DuplicateKey

ROOT = Path(__file__).resolve().parent
UNITS = {"USD", "dogs", "cats", "animals", "days", "weeks", "months", "years", "feet", "inches",
         "square_feet", "cubic_feet", "pounds", "hours", "acres", "month_day", "time_of_day", "count", "ratio"}
NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")


def file_name(path: Path) -> str:
    """How errors name a file: relative to the repository where it lies inside it."""
    return str(path.relative_to(ROOT.parent)) if path.is_relative_to(ROOT.parent) else str(path)


class File:
    """One YAML file being read; every check names this file."""

    def __init__(self, path: Path):
        self.path = path
        self.name = file_name(path)
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
        return tuple(norm(self.text(q, f"{key}[{i}]")) for i, q in enumerate(self.listing(value, key)))

    def listing(self, value: Any, key: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(key, "must be a list")
        return value

    def note(self, raw: dict, key: str) -> str:
        """An optional `note:` (how we read the law there; docs/interpretations.md is generated from the notes):
        non-empty text when given, its spaces tidied."""
        return norm(self.text(raw["note"], key)) if "note" in raw else ""


def norm(text: str) -> str:
    return " ".join(text.split())


# -- sections -------------------------------------------------------------------------------------

def load_sections(path: Path, code: str) -> tuple[dict[str, Section], dict]:
    f = File(path)
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


def add_state_rules(state_sections: dict[str, Section]) -> None:
    """knowledge/state/admin_code.yml: Wisconsin Administrative Code rules (NR 429.04) beside the statutes."""
    path = ROOT / "state" / "admin_code.yml"
    if not path.exists():
        return
    rules, _ = load_sections(path, "Wisconsin Administrative Code")
    for number in rules:
        if number in state_sections:
            raise KnowledgeError("knowledge/state/admin_code.yml", number, "also a section of state/sections.yml")
    state_sections.update(rules)


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
    if norm(quote) not in norm(section.text_at(path)):
        raise ValueError(f"quote is not in the text of {ref}: {quote!r}")
    return Citation(section, path, norm(quote))


def cite(f: File, sections: dict[str, Section], raw: Any, key: str) -> Citation:
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

def _check_value(f: File, unit: str, value: Any, key: str) -> Any:
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


def load_parameters(path: Path, sections: dict[str, Section], into: dict[str, Parameter]) -> None:
    f = File(path)
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
        note = f.note(p, f"{key}.note")
        into[key] = Parameter(
            name=key, description=f.text(p["description"], f"{key}.description"), unit=unit,
            values=tuple(values), reference=cite(f, sections, p["reference"], f"{key}.reference"),
            delegated_to=delegated_to, minimum=minimum, note=note, bound=bound,
            verified_on=_verified_on(f, p["verified_on"], f"{key}.verified_on"))


#: a parameter's `bound`: what the law requires of what a resident measures against it (knowledge/DATA.md)
BOUNDS = ("", "at_least", "at_most")


def load_notes(f: File, raw: Any, key: str, sections: dict[str, Section]) -> tuple[Note, ...]:
    """A `notes:` list (town.yml, knowledge/state/notes.yml): readings that concern no single parameter, rule
    or definition. Each has a `subject`, the `note` and optionally the `sections` it concerns (each must exist)."""
    notes = []
    for i, n in enumerate(f.listing(raw, key)):
        n = f.mapping(n, f"{key}[{i}]", {"subject", "note"}, {"sections"})
        refs = tuple(f.text(str(r), f"{key}[{i}].sections") for r in f.listing(n.get("sections"), f"{key}[{i}].sections"))
        for ref in refs:
            if resolve(sections, ref) is None:
                raise f.fail(f"{key}[{i}].sections", f"{ref!r} is not a section or paragraph of the code")
        notes.append(Note(norm(f.text(n["subject"], f"{key}[{i}].subject")), norm(f.text(n["note"], f"{key}[{i}].note")),
                          refs))
    return tuple(notes)


def _state_sections() -> dict[str, Section]:
    sections, _ = load_sections(ROOT / "state" / "sections.yml", "Wisconsin Statutes")
    add_state_rules(sections)
    return sections


def state_parameters() -> dict[str, Parameter]:
    """knowledge/state/parameters.yml, checked as load_town checks it."""
    params: dict[str, Parameter] = {}
    load_parameters(ROOT / "state" / "parameters.yml", _state_sections(), params)
    return params


def state_notes() -> tuple[Note, ...]:
    """knowledge/state/notes.yml: readings that concern every town (state law, the words residents use)."""
    path = ROOT / "state" / "notes.yml"
    if not path.exists():
        return ()
    state_sections = _state_sections()
    f = File(path)
    top = f.mapping(f.data, "(top)", {"notes"})
    return load_notes(f, top["notes"], "notes", state_sections)


def _verified_on(f: File, value: Any, key: str) -> date:
    """The day a person checked a parameter's value and quote against the ordinance text: a date, not in the future."""
    if isinstance(value, datetime) or not isinstance(value, (date, str)) or \
            (isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        raise f.fail(key, f"not a date (YYYY-MM-DD): {value!r}")
    day = f.day(value, key)
    if day > date.today():
        raise f.fail(key, f"in the future: {day.isoformat()} (the day the value and quote were checked)")
    return day


def apply_fee_schedule(path: Path, params: dict[str, Parameter]) -> None:
    """The Clerk's fees.yml: amounts for parameters the code delegates (see docs/clerk.md, "How a clerk updates a
    fee"), checked as the clerk's web page checks them (knowledge/fee_schedule.py)."""
    if not path.exists():
        return
    f = File(path)
    if f.data is None:
        return
    if not isinstance(f.data, dict):
        raise f.fail("(top)", "must be a mapping of parameter names to amounts")
    for name, raw in f.data.items():
        key = str(name)
        entries = []
        for i, e in enumerate(raw if isinstance(raw, list) else [raw]):
            e = f.mapping(e, f"{key}[{i}]", {"value", "since", "source"})
            since = f.day(e["since"], f"{key}[{i}].since")
            value = e["value"]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise f.fail(f"{key}[{i}].value", f"must be a number, not {value!r}")
            found = fee_schedule.problems(params, key, value, since, e["source"])
            if found:
                field, message = next(iter(found.items()))
                raise f.fail(key if field == "parameter" else f"{key}[{i}].{field}", message)
            entries.append(fee_schedule.entry(params, key, value, since, e["source"]))
        params[key] = fee_schedule.with_values(params[key], entries)

