"""tools/clause_coverage.py (#21): its report has one entry per town, with counts that add up and clauses that
name real paragraphs of the town's own code (never a Wisconsin statute); no threshold is asserted."""

import importlib.util
import sys
from pathlib import Path

import knowledge

PATH = Path(__file__).resolve().parents[2] / "tools" / "clause_coverage.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("clause_coverage", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_report_shape():
    tool = load_tool()
    results = tool.report()
    assert [r["town"] for r in results] == knowledge.town_keys()
    for r in results:
        town = knowledge.town(r["town"])
        assert 0 < r["covered"] <= r["covered_or_defined"] <= r["total"]
        assert 0.0 <= r["percent"] <= r["percent_or_defined"] <= 100.0
        assert len(r["uncovered"]) == r["total"] - r["covered"]
        for c in r["uncovered"]:
            section = town.sections[c.section]
            assert not section.code.startswith("Wisconsin")
            assert c.path in {p.path for p in section.paragraphs} and not c.covered_by


def test_covered_clauses_name_their_rules():
    tool = load_tool()
    town = knowledge.town("dunkirk")
    found = {c.ref: c for c in tool.clauses(town)}
    assert "7.02" not in found  # the list of section titles is a heading, not a clause
    assert "7.02-3(b)" not in found  # "(b) Multiple Dog Licenses." is only a heading
    rules = {f"{k}.rules.{n}" for k, t in town.topics.items() for n in t.rules}
    for clause in found.values():
        assert set(clause.covered_by) <= rules
