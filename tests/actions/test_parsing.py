"""Reading residents' replies (actions/parsing/): plain functions over text, no Tracker needed."""
from __future__ import annotations

import pytest

from actions import parsing


def ents(text: str, *spans: tuple[str, str] | tuple[str, str, str]) -> list[dict]:
    """Entities as NLU gives them: (words, entity) or (words, entity, canonical value)."""
    out = []
    for span in spans:
        words, entity = span[0], span[1]
        start = text.index(words)
        out.append({"entity": entity, "value": span[2] if len(span) > 2 else words, "start": start,
                    "end": start + len(words)})
    return out


def test_each_count_goes_with_the_animal_after_it():
    text = "2 dogs and a cat"
    found = ents(text, ("dogs", "animal", "dog"), ("2", "count"), ("a", "count"), ("cat", "animal"))
    assert parsing.animals_counted(found) == {"dog": 2, "cat": 1}


def test_a_service_dog_counts_as_a_dog_and_an_animal_without_a_count_counts_nothing():
    text = "two service dogs and my cat"
    found = ents(text, ("two", "count"), ("service dogs", "service_dog"), ("cat", "animal"))
    assert parsing.animals_counted(found) == {"dog": 2}
    assert parsing.names_a_dog(found)
    assert not parsing.names_a_dog(ents("my cat", ("cat", "animal")))


def test_my_dog_is_one_dog_but_my_dog_license_is_not():
    assert parsing.says_one_dog("how much to license my dog")
    assert parsing.says_one_dog("our new puppy")
    assert not parsing.says_one_dog("how much is my dog license")


@pytest.mark.parametrize("text, said", [
    ("both are spayed", "all"), ("all of them are neutered", "all"), ("both are not fixed", "none"),
    ("none are fixed", "none"), ("2 are neutered", "2"), ("two are spayed", "2"), ("2 are not fixed", None),
    ("they are great dogs", None)])
def test_how_many_are_spayed_or_neutered(text, said):
    assert parsing.neutered_said(text) == said


@pytest.mark.parametrize("text, said", [
    ("no service dogs", "0"), ("it isn't a service dog", "0"), ("both are service dogs", "2"),
    ("one of them is a service dog", "1"), ("she is a service dog", "1")])
def test_how_many_service_dogs(text, said):
    assert parsing.service_dogs_said(text) == said


def test_none_and_nope():
    assert parsing.says_none("none of them") and parsing.says_none("no")
    assert not parsing.says_none("nope") and parsing.says_none("nope", nope=True)


def test_a_date_is_the_day_acquired_or_the_day_of_purchase_by_the_words_before_it():
    text = "got him in May and buying the license today"
    assert parsing.cue_before(text, text.index("in May"), parsing.ACQUIRED_CUE)
    assert not parsing.cue_before(text, text.index("in May"), parsing.BUY_CUE)
    assert parsing.cue_before(text, text.index("today"), parsing.BUY_CUE)


def test_long_ago_and_moving_to_town():
    assert parsing.says_long_ago("a couple years ago") and parsing.says_long_ago("forever")
    assert not parsing.says_long_ago("in May")
    assert parsing.says_had_long("we have had her for years")
    assert not parsing.says_had_long("for years I wanted a dog") and not parsing.says_had_long("we had her in May")
    assert parsing.acquired_kind("we moved here in May") == "moved"
    assert parsing.acquired_kind("got her in May") == "got"


@pytest.mark.parametrize("said, only_time", [
    ("3pm", True), ("at 10:30", True), ("around noon", True), ("10 a.m.", True),
    ("tomorrow", False), ("saturday at 3pm", False), ("7/4", False)])
def test_a_time_of_day_without_a_day(said, only_time):
    assert parsing.is_time_only(said) is only_time


@pytest.mark.parametrize("said, has", [
    ("tomorrow at 10am", True), ("noon", True), ("3pm", True), ("7/4", False), ("july 4th", False),
    ("saturday", False)])
def test_a_when_phrase_that_carries_a_time(said, has):
    assert parsing.has_time(said) is has


def test_stored_values_are_recognised():
    assert parsing.is_clock_time("14:30") and not parsing.is_clock_time("2:30 pm")
    assert parsing.is_iso_date("2026-07-03") and not parsing.is_iso_date("July 3")


def test_a_correction_names_its_fields_and_may_carry_the_new_value():
    assert parsing.fields_named("no, the phone and the date are wrong") == ["burn_phone", "burn_date"]
    assert parsing.fields_named("yes that's right") == []
    assert parsing.new_value("burn_location", "no, the location is the north field by the pond.") == \
        "the north field by the pond"
    assert parsing.new_value("burner_name", "change the name") is None
    assert parsing.asks_a_change("actually, one thing is wrong") and not parsing.asks_a_change("yes")


def test_the_opening_request_sent_again():
    assert parsing.asks_to_notify("I want to notify the fire department of a burn")
    assert parsing.asks_to_notify("burn notification report")
    assert not parsing.asks_to_notify("Pat Olson")


def test_names():
    assert parsing.stated_name("My name is Parker Hanson.") == "Parker Hanson"
    assert parsing.stated_name("what name is on the license?") is None
    assert parsing.name_in("hi, my name is Pat Olson") == "Pat Olson"
    assert parsing.name_from_reply("I'm Pat Olson.") == "Pat Olson"
    assert parsing.clean_name("  Pat   Olson ") == "Pat Olson"
    for not_a_name in ("608 555 0142", "P", "12", "x" * 81):
        assert parsing.clean_name(not_a_name) is None, not_a_name


def test_addresses_need_a_house_number_and_a_street():
    assert parsing.address_in("ok my address is N1234 County Road K") == "N1234 County Road K"
    assert parsing.address_from_reply("I live at 2345 Hwy 51") == "2345 Hwy 51"
    assert parsing.street_address("N1234  County Road K") == "N1234 County Road K"
    assert parsing.street_address("somewhere") is None
    assert parsing.street_address("County Road K") is None


def test_places_on_the_property():
    assert parsing.clean_place(" behind   the barn ") == "behind the barn"
    assert parsing.clean_place("it") is None and parsing.clean_place("x" * 201) is None


def test_phone_numbers():
    assert parsing.phone_in("no, the phone is 608-555-0199") == "(608) 555-0199"
    assert parsing.phone_in("call me tomorrow") is None
    assert parsing.valid_phone("608.555.0142") == "(608) 555-0142"
    assert parsing.valid_phone("555-12") is None and parsing.valid_phone("not a number") is None


def test_the_date_that_goes_with_each_question():
    text = "got them in May, buying today"
    whens = ents(text, ("in May", "when"), ("today", "when"))
    assert parsing.when_after(whens, text, parsing.ACQUIRED_CUE, parsing.BUY_CUE, asked=False)["value"] == "in May"
    assert parsing.when_after(whens, text, parsing.BUY_CUE, parsing.ACQUIRED_CUE, asked=False)["value"] == "today"
    bare = "in May"
    assert parsing.when_after(ents(bare, ("in May", "when")), bare, parsing.BUY_CUE, parsing.ACQUIRED_CUE,
                              asked=False) is None
    assert parsing.when_after(ents(bare, ("in May", "when")), bare, parsing.BUY_CUE, parsing.ACQUIRED_CUE,
                              asked=True)["value"] == "in May"


@pytest.mark.parametrize("text, feet", [
    ("is 50 ft from my house far enough for a brush fire?", 50.0),
    ("my pile is 30' from the barn", 30.0),
    ("fifty feet from the house ok?", 50.0),
    ("forty five feet from the shed", 45.0),
    ("about 20 yards from the shed", 60.0),
    ("15 m from the garage", 49.2),
    ("can i burn 3 tires 10 feet from my house", 10.0),
    ("can i burn tonight", None),
    ("i have 2 dogs and a foot of snow", None),
    ("is forty feet enough", 40.0),
    ("ten yards from my shed", 30.0),
])
def test_the_distance_a_resident_gives_is_read_in_feet(text, feet):
    assert parsing.distance_feet(text) == feet


@pytest.mark.parametrize("text, feet", [
    ("can i burn brush 20 feet from my garage", 20.0),
    ("can i burn the pile 30 ft away from the shed", 30.0),
    ("can i burn within 40 ft of the house", 40.0),
    ("can i burn a 10 foot pile of brush", None),
    ("can i burn 2 ft of brush tonight", None),
    ("my pile is 6 feet high, can i burn it", None),
    ("can I burn twenty feet from the barn", 20.0),  # the word before a number word is not part of it
    ("can i burn two feet of brush", None),
])
def test_a_burn_question_reads_only_a_distance_said_as_one(text, feet):
    assert parsing.distance_feet(text, away=True) == feet


@pytest.mark.parametrize("text, said, kind", [
    ("our dog fought a skunk that tested positive for rabies", [], "exposure"),
    ("my dog was exposed to a rabid raccoon", ["bite"], "exposure"),
    ("my dog bit the neighbor", ["bite"], "bite"),
    ("how long is the quarantine", [], "bite"),
    ("my cat tangled with a raccoon", [], None),  # asked back: bite or possible rabies?
])
def test_the_kind_of_incident_is_read_and_a_wild_animal_alone_is_asked_back(text, said, kind):
    assert parsing.incident_kind(text, said) == kind


@pytest.mark.parametrize("text, asks", [
    ("what happens if i dont keep my dog quarantined", True),
    ("is there a fine for breaking quarantine", True),
    ("can i go to jail for this", True),
    ("is it fine to keep him at home", False),
    ("how long is the quarantine", False),
])
def test_a_question_about_the_penalty_is_told_from_one_about_the_rule(text, asks):
    assert parsing.asks_consequence(text) is asks


def test_one_neutered_one_not_says_one_is_neutered():
    from actions.parsing import neutered_said
    assert neutered_said("I have 2 dogs, one neutered one not") == "1"
    assert neutered_said("both are spayed") == "all" and neutered_said("2 are not fixed") is None


def test_part_of_the_dogs_neutered_is_not_read_as_the_whole_count():
    from actions.parsing import neutered_said
    # a spayed or neutered dog named without its number: not a count (the form reads the entity, "all", or asks)
    assert neutered_said("I have 3 dogs: 2 spayed females and a neutered male") is None
    assert neutered_said("I have 2 dogs, Max is a neutered male and Bella is spayed too") is None
    assert neutered_said("none of the 3 are neutered") == "none"
    assert neutered_said("two dogs, one spayed and one isn't") == "1"
    assert neutered_said("we have 3 dogs, one neutered, got them May 20") == "1"
    assert neutered_said("2 dogs, only one spayed") == "1" and neutered_said("both neutered") == "all"


def test_not_one_spayed_is_none_and_a_count_beside_an_uncounted_word_is_mixed():
    assert parsing.neutered_said("2 dogs, not one is neutered") == "none"
    assert parsing.neutered_said("one is neutered") == "1"
    assert parsing.neutered_mixed("2 are spayed and the male is not neutered")
    assert not parsing.neutered_mixed("both are spayed")
    assert not parsing.neutered_mixed("my dog is neutered")


def test_a_buying_day_is_to_come_only_with_a_future_word_at_its_verb():
    for text, later in (("will license her July 10", True), ("if we pay on July 20", True),
                        ("I wanted to pay right away but only paid on June 20", False),
                        ("we paid June 20", False), ("we plan to renew it May 3", True)):
        assert parsing.buys_later(text, text.index(text.split()[-2])) is later, text


def test_a_day_or_month_after_burn_is_no_material():
    from actions import parsing
    for text in ("can i burn may 16", "can i burn sat at 3", "can i burn march 3rd"):
        assert not parsing.names_a_material(text), text
    assert parsing.names_a_material("can i burn old boards")


def test_a_spay_word_said_only_in_the_negative_means_none_are():
    from actions import parsing
    assert parsing.neutered_said("license price for a female dog that isnt spayed?") == "none"
    assert parsing.neutered_said("she is not spayed") == "none"
    assert parsing.neutered_said("one neutered one not") == "1"
    assert parsing.neutered_said("she is spayed") is None  # the entity says it, the count is the form's


def test_a_quoted_term_is_never_the_s_of_what_s():
    from actions import parsing
    assert parsing.terms._QUOTED.search("what's 'the Department' the dog ordinance keeps mentioning?").group(1) == \
        "the Department"


def test_json_typed_as_words_lists_no_details():
    from actions import parsing
    assert parsing.details_in('notify_burn{"burn_phone":"608-555-0100","burner_name":"Eve","burn_address":"1 Main St"}') == {}
    assert parsing.details_in("burn notice: tom berg, N1234 Hwy 51, 608 555 0199") == {"name": "tom berg",
                                                                                        "address": "N1234 Hwy 51"}


def test_the_licensable_age_said_as_reached_is_read_only_at_the_towns_age():
    from actions.parsing import licensable_age_past, licensable_age_when
    assert licensable_age_past("he turned 5 months on may 1", 5) and not licensable_age_past("he turns 5 months", 5)
    said = "he turned five months on may 1"
    whens = [{"entity": "when", "value": "may 1", "start": said.index("may 1"), "end": len(said)}]
    assert licensable_age_when(whens, said, 5) is whens[0]
    assert licensable_age_when(whens, said, 6) is None and licensable_age_when(whens, said, None) is None
    assert not licensable_age_past("turns 3 months on may 1", 5)


def test_of_two_defined_terms_as_long_the_one_said_first_is_asked_whatever_the_hash_seed():
    import os
    import subprocess
    import sys
    code = ("from actions.parsing import defined_term; "
            "print(defined_term('can i keep 4 dogs and 2 cats', ['cats', 'dogs', 'owner']), "
            "defined_term('what about cats or dogs', ['dogs', 'cats']))")
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout.strip() for seed in range(6)}
    assert seen == {"dogs cats"}
