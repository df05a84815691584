"""Strict loading of a town's knowledge folder (format: knowledge/DATA.md).

Anything malformed fails here, at load, with a ``KnowledgeError`` naming the file, the key and the problem:
an unknown key, a missing citation, a citation to a section that does not exist, a quote that is not in the
cited text, a bad date, a negative amount, a placeholder naming no parameter. This module reads town.yml and
puts the town together; knowledge/load_law.py, load_topics.py and load_scheme.py read the rest.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import contacts, settings
from .errors import KnowledgeError, NeedsClarification
from .load_law import (ROOT, File, apply_fee_schedule, add_state_rules, cite, file_name, load_notes, load_parameters,
                       load_sections)
from .load_law import resolve, state_notes, state_parameters  # noqa: F401 - importable from here
from .load_scheme import load_burning_scheme
from .load_topics import load_definitions, load_gaps, load_materials, load_topics
from .model import Contact, Parameter, Town
from .strict_yaml import SAFE_LOADER, DuplicateKey, StrictLoader, read_yaml  # noqa: F401 - importable from here

TOWN_KEY = re.compile(r"^[a-z][a-z0-9_-]*$")


def _contact(f: File, raw: Any, key: str, hours: str = "") -> Contact:
    """An office's contact (knowledge/DATA.md "Contacts"): name required; phone, email, hours may be blank
    (left out of answers). A phone is checked and written the usual way ("(608) 555-0100")."""
    c = f.mapping(raw, key, {"name"}, {"phone", "email", "hours"})
    phone = f.text("" if c.get("phone") is None else str(c["phone"]), f"{key}.phone", True).strip()
    email = f.text(c.get("email"), f"{key}.email", True).strip()
    for field, message in contacts.problems(phone, email).items():
        raise f.fail(f"{key}.{field}", message)
    phone = contacts.usual_phone(phone) if phone else ""
    return Contact(f.text(c["name"], f"{key}.name"), phone, email,
                   f.text(c.get("hours"), f"{key}.hours", True).strip() or hours)


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
    f = File(folder / "town.yml")
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
    state_sections, _ = load_sections(ROOT / "state" / "sections.yml", "Wisconsin Statutes")
    add_state_rules(state_sections)
    sections, meta = load_sections(folder / "sections.yml", t["code_name"])
    all_sections = {**state_sections, **sections}
    params: dict[str, Parameter] = {}
    load_parameters(ROOT / "state" / "parameters.yml", state_sections, params)
    param_dir = folder / "parameters"
    for path in sorted(param_dir.glob("*.yml")) if param_dir.is_dir() else []:
        load_parameters(path, all_sections, params)
    for p in params.values():
        if p.minimum and p.minimum not in params:
            raise KnowledgeError(f"knowledge/towns/{key}/parameters", f"{p.name}.delegated.minimum",
                                 f"names no parameter: {p.minimum!r}")
    apply_fee_schedule(folder / "fees.yml", params)
    topics = load_topics(folder / "topics.yml", all_sections, params)
    gaps = load_gaps(folder / "gaps.yml", all_sections, params)
    materials = load_materials(folder / "materials.yml", all_sections)
    definitions = load_definitions(folder / "definitions.yml", all_sections)
    scheme = load_burning_scheme(f, t.get("burning"), all_sections, params, topics,
                                 file_name(folder / "topics.yml"))
    if "scope" not in t:
        raise f.fail("scope", "missing: cite the words that say what the code covers")
    scope = cite(f, all_sections, t["scope"], "scope")
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
