"""The strict loader: a malformed knowledge base fails at load, naming the file, the key and the problem."""

from datetime import date, timedelta

import pytest

import knowledge
from knowledge import NeedsClarification, load_town

from tests.knowledge.broken_copy import edit, fails


def test_both_towns_load_cleanly():
    for key in knowledge.town_keys():
        town = load_town(key)
        assert town.sections and town.parameters and town.topics


def test_an_unknown_key_in_a_parameter_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].update(colour="red"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee", "unknown key(s): colour")


def test_a_missing_citation_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].pop("reference"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee", "missing key(s): reference")


def test_a_citation_to_a_missing_section_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"]["reference"].update(section="7.99"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.reference.section", "not a section")


def test_a_quote_not_in_the_cited_text_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"]["reference"].update(quote="a late fee of Ten Dollars ($10.00)"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.reference.quote", "quote is not in the text")


def test_a_bad_date_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"]["values"][0].update(since="2026-13-45"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.values[0].since", "not a date")


def test_a_negative_amount_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"]["values"][0].update(value=-5))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.values[0].value", "must not be negative")


def test_an_unknown_unit_is_named(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].update(unit="euros"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.unit", "unknown unit")


def test_a_topic_missing_from_a_town_is_named(kb):
    edit(kb / "towns/dunkirk/topics.yml", lambda d: d.pop("barking"))
    fails(kb, "topics.yml", "(top)", "missing key(s): barking")


def test_a_placeholder_naming_no_parameter_is_named(kb):
    edit(kb / "towns/dunkirk/topics.yml",
         lambda d: d["barking"].update(summary="Wait {no_such.parameter} days.", covered=True))
    fails(kb, "topics.yml", "barking", "placeholder {no_such.parameter} names no parameter")


def test_a_fee_schedule_cannot_override_an_amount_the_code_sets(kb):
    (kb / "towns/dunkirk/fees.yml").write_text(
        "dog_license.late_fee:\n  value: 10\n  since: 2027-01-01\n  source: Resolution 1\n")
    fails(kb, "fees.yml", "dog_license.late_fee", "the code itself sets this amount")


@pytest.mark.parametrize("entry, key, says", [
    ("value: 10.005\n  since: 2027-01-01\n  source: Resolution 1", "dog_license.tax.neutered[0].value", "whole cents"),
    ("value: 10\n  since: 2027-01-01\n  source: ' '", "dog_license.tax.neutered[0].source", "name the resolution"),
    ("value: '10'\n  since: 2027-01-01\n  source: Resolution 1", "dog_license.tax.neutered[0].value", "a number"),
])
def test_a_fee_schedule_entry_the_clerk_s_page_would_refuse_is_refused_at_load_naming_its_key(kb, entry, key, says):
    (kb / "towns/dunkirk/fees.yml").write_text(f"dog_license.tax.neutered:\n  {entry}\n")
    fails(kb, "fees.yml", key, says)


def test_a_broken_yaml_file_is_named(kb):
    (kb / "towns/dunkirk/gaps.yml").write_text("- id: [unclosed\n")
    fails(kb, "gaps.yml", "-", "not valid YAML")


def test_an_unknown_town_is_a_question_to_clarify():
    with pytest.raises(NeedsClarification) as err:
        load_town("springfield")
    assert err.value.field == "town"


def test_the_clerks_fee_schedule_sets_the_local_amounts(kb):
    """docs/clerk.md "How a clerk updates a fee": the Clerk's amounts replace the state minimum from their date on."""
    (kb / "towns/dunkirk/fees.yml").write_text(
        "dog_license.tax.neutered:\n  value: 10.00\n  since: 2027-01-01\n  source: Board resolution 2026-14\n"
        "dog_license.tax.unneutered:\n  value: 15.00\n  since: 2027-01-01\n  source: Board resolution 2026-14\n"
        "dog_license.administrative_fee:\n  value: 2.50\n  since: 2027-01-01\n  source: Board resolution 2026-14\n")
    from datetime import date
    from knowledge import handlers
    town = load_town("dunkirk", root=kb)
    # 2027: $10 + $5 late + $2.50 administrative = $17.50, exact.
    late = handlers.license_cost(town, on=date(2027, 5, 1), dogs=1, neutered=1)
    assert late.value["total"] == 17.50 and late.value["exact"] is True
    assert any("Board resolution 2026-14" in c for c in late.caveats)
    # Before the resolution takes effect, the state minimum still applies.
    before = handlers.license_cost(town, on=date(2026, 2, 1), dogs=1, neutered=1)
    assert before.value["total"] == 3.00 and before.value["exact"] is False


def test_a_topic_rule_whose_quote_is_not_in_the_cited_text_is_named(kb):
    edit(kb / "towns" / "dunkirk" / "topics.yml",
         lambda d: d["quarantine"]["rules"]["report_bite"].update(quote="shall report within a week"))
    fails(kb, "topics.yml", "quarantine.rules.report_bite.quote", "not in the text")


def test_a_topic_rule_with_an_unknown_key_is_named(kb):
    edit(kb / "towns" / "dunkirk" / "topics.yml",
         lambda d: d["quarantine"]["rules"]["report_bite"].update(days=14))
    fails(kb, "topics.yml", "quarantine.rules.report_bite", "unknown key")


def test_a_definition_whose_quote_is_not_in_the_defining_paragraph_is_named(kb):
    def change(data):
        data[0]["quote"] = "Owner means whoever feeds the dog."
    edit(kb / "towns" / "dunkirk" / "definitions.yml", change)
    fails(kb, "definitions.yml", "owner", "quote is not in the text")


def test_a_resident_word_standing_for_two_defined_terms_is_named(kb):
    def change(data):
        data[1]["words"].append("owners")  # "owners" already stands for "owner"
    edit(kb / "towns" / "dunkirk" / "definitions.yml", change)
    fails(kb, "definitions.yml", "at large.words", "already stands for 'owner'")


def test_a_municipality_other_than_a_town_city_or_village_is_named(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d.update(municipality="Borough"))
    fails(kb, "town.yml", "municipality", "must be one of Town, City, Village")


def test_a_town_that_does_not_say_who_sets_its_fees_is_named(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d.pop("fees_set_by"))
    fails(kb, "town.yml", "(top)", "missing key(s): fees_set_by")


def test_a_key_said_twice_in_one_mapping_is_named(kb):
    """YAML would keep the second silently; a fee pasted twice must fail at load instead."""
    path = kb / "towns/dunkirk/fees.yml"
    path.write_text("dog_license.late_fee:\n  value: 10\n  value: 12\n  since: 2027-01-01\n  source: Resolution 1\n")
    fails(kb, "fees.yml", "value", "key said twice in one mapping (line 3)")


def test_an_empty_when_said_is_named(kb):
    def change(d):
        d["quarantine"]["rules"]["area_quarantine"]["when_said"] = " "
    edit(kb / "towns/dunkirk/topics.yml", change)
    fails(kb, "topics.yml", "quarantine.rules.area_quarantine.when_said", "non-empty")


def test_a_when_said_group_with_no_word_is_named(kb):
    def change(d):
        d["quarantine"]["rules"]["area_quarantine"]["when_said"] = "neighborhood; ; district"
    edit(kb / "towns/dunkirk/topics.yml", change)
    fails(kb, "topics.yml", "quarantine.rules.area_quarantine.when_said", "each group")


def test_a_parameter_without_verified_on_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].pop("verified_on"))
    fails(kb, "parameters/license.yml", "dog_license.late_fee", "missing key(s): verified_on")


def test_a_state_parameter_without_verified_on_is_refused_naming_file_and_key(kb):
    from knowledge import KnowledgeError
    from knowledge.load_law import load_parameters, load_sections  # the state folder is always the package's

    edit(kb / "state/parameters.yml", lambda d: d["wi.dog_license.year_start"].pop("verified_on"))
    sections, _ = load_sections(kb / "state/sections.yml", "Wisconsin Statutes")
    with pytest.raises(KnowledgeError) as err:
        load_parameters(kb / "state/parameters.yml", sections, {})
    e = err.value
    assert "state/parameters.yml" in e.file and e.key == "wi.dog_license.year_start" \
        and "missing key(s): verified_on" in e.problem, str(e)


@pytest.mark.parametrize("bad", ["2026-13-45", "last week", "2026-1-5", 20261203, True])
def test_a_verified_on_that_is_not_a_date_is_refused_naming_file_and_key(kb, bad):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].update(verified_on=bad))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.verified_on", "not a date", exact_key=True)


def test_a_verified_on_in_the_future_is_refused_naming_file_and_key(kb):
    tomorrow = date.today() + timedelta(days=1)
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"].update(verified_on=tomorrow))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.verified_on", "in the future", exact_key=True)


def test_a_verified_on_of_today_is_accepted_and_kept_on_the_parameter(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml",
         lambda d: d["dog_license.late_fee"].update(verified_on=date.today()))
    assert load_town("dunkirk", root=kb).param("dog_license.late_fee").verified_on == date.today()


def test_every_parameter_of_every_town_says_when_it_was_verified():
    for key in knowledge.town_keys():
        for p in load_town(key).parameters.values():
            assert p.verified_on is not None and p.verified_on <= date.today(), p.name


def test_an_empty_parameter_note_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/parameters/license.yml", lambda d: d["dog_license.late_fee"].update(note=" "))
    fails(kb, "parameters/license.yml", "dog_license.late_fee.note", "must be non-empty text", exact_key=True)


def test_an_empty_rule_note_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/topics.yml", lambda d: d["barking"]["rules"]["answer"].update(note=""))
    fails(kb, "topics.yml", "barking.rules.answer.note", "must be non-empty text", exact_key=True)


def test_an_empty_definition_note_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/definitions.yml", lambda d: d[0].update(note=None))
    fails(kb, "definitions.yml", "owner.note", "must be non-empty text", exact_key=True)


def test_a_town_note_citing_no_section_of_the_code_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d["notes"][0].update(sections=["7.99"]))
    fails(kb, "town.yml", "notes[0].sections", "'7.99' is not a section", exact_key=True)


def test_a_town_note_without_a_subject_is_refused_naming_file_and_key(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d["notes"][0].pop("subject"))
    fails(kb, "town.yml", "notes[0]", "missing key(s): subject", exact_key=True)


def test_notes_are_kept_on_rules_definitions_and_the_town(kb):
    edit(kb / "towns/dunkirk/definitions.yml", lambda d: d[0].update(note="How we read  it."))
    town = load_town("dunkirk", root=kb)
    assert town.definitions["owner"].note == "How we read it."
    assert town.topics["no_burning_order"].rules["order_in_effect"].note.startswith("An order covering part")
    assert [n.subject for n in town.notes] == ["Chickens", "Defined terms"]


def test_an_unknown_bound_is_named_with_the_bounds_allowed(kb):
    edit(kb / "towns/dunkirk/parameters/burning.yml", lambda d: d["open_burning.setback_feet"].update(bound="over"))
    fails(kb, "parameters/burning.yml", "open_burning.setback_feet.bound", "at_least, at_most")
