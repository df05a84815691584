"""What the town's materials.yml says of the material a resident names (Dunkirk Code 7.10, with the state rule
of Wis. Admin. Code NR 429.04 in knowledge/state), as cited steps of a burning answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..model import MATERIAL_KINDS, Answer, MaterialGroup, Town, material_words
from .burn_rules import rule_step


@dataclass(frozen=True)
class MaterialMatch:
    """How the town's materials.yml reads what the resident named: the kind that decides the answer
    ("prohibited", "permit_required", "conditional", "allowed" or "not_listed") and the groups that say so."""

    said: str
    kind: str
    groups: tuple[MaterialGroup, ...] = ()


def material_rule(town: Town, material: str) -> MaterialMatch:
    """Match ``material`` (the resident's words) against the town's material names (knowledge/DATA.md).

    A name inside a longer matched name does not count ("wood" in "painted wood"); of the rest, the strictest
    kind wins (prohibited, then permit_required, conditional, allowed). No match: "not_listed".
    """
    said = " ".join(str(material).split())
    words = material_words(said)
    found = []  # (start, end, group)
    for kind in MATERIAL_KINDS:
        for group in (town.materials or {}).get(kind, []):
            for name in group.names:
                n = len(name)
                for i in range(len(words) - n + 1):
                    if words[i:i + n] == name:
                        found.append((i, i + n, group))
    kept = [f for f in found
            if not any(o[0] <= f[0] and f[1] <= o[1] and o[1] - o[0] > f[1] - f[0] for o in found)]
    for kind in MATERIAL_KINDS:
        groups = tuple(dict.fromkeys(g for _, _, g in kept if g.kind == kind))
        if groups:
            return MaterialMatch(said, kind, groups)
    return MaterialMatch(said, "not_listed")


def material_steps(answer: Answer, town: Town, match: MaterialMatch, day: date) -> None:
    """The steps for ``match``: what the town's lists say of the material, the state rules clause where the
    state's rule decides, and, for a material not named, what the lists name as allowed."""
    for g in match.groups:
        answer.step(f"I read \u201c{match.said}\u201d as {g.what}. {g.rule}", *g.citations)
    if match.kind in ("prohibited", "permit_required") and any(
            c.section.code != town.code_name for g in match.groups for c in g.citations):
        rule_step(answer, town, "prohibited_materials", "state_rules_clause", day)
    if match.kind == "not_listed":
        rule_step(answer, town, "prohibited_materials", "not_listed", day, before=f"\u201c{match.said}\u201d: ")
        rule_step(answer, town, "prohibited_materials", "state_rules_clause", day)
    if match.kind in ("not_listed", "allowed", "conditional"):
        rule_step(answer, town, "burning_hours", "not_prohibited_permitted", day)
    if match.kind == "not_listed":
        for g in (town.materials or {}).get("allowed", []):
            answer.step(f"What the rules name as allowed: {g.what}. {g.rule}", *g.citations)

