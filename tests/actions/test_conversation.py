"""A follow-up read against the last question (actions/conversation/): what it replaces, what it keeps."""
from __future__ import annotations

from actions import parsing
from actions.conversation import Said, facts_in, merge, noted


def said(text: str, *spans: tuple[str, str]) -> Said:
    ents = []
    for words, entity in spans:
        start = text.index(words)
        ents.append({"entity": entity, "value": words, "start": start, "end": start + len(words)})
    return Said(text, ents)


def test_a_corrected_clock_keeps_the_day_and_the_half_of_the_day_asked_about():
    last = said("can i burn tomorrow at 5:30pm", ("tomorrow at 5:30pm", "when"))
    merged, _ = merge(last, said("i mean 4:30", ("4:30", "when")))
    assert merged.text.startswith("can i burn tomorrow at 4:30pm")
    merged, _ = merge(said("can i burn at 7 tonight", ("at 7 tonight", "when")), said("what about 9?", ("9", "when")))
    assert merged.text == "can i burn at 9 tonight"
    merged, _ = merge(said("can i burn on december 5 at 4:30pm", ("december 5 at 4:30pm", "when")),
                      said("sorry i meant 3:30", ("3:30", "when")))
    assert merged.entities[0]["value"] == "december 5 at 3:30pm"


def test_a_corrected_day_replaces_the_whole_time():
    merged, _ = merge(said("can i burn sat at 3", ("sat at 3", "when")), said("no i mean sunday at 3",
                                                                              ("sunday at 3", "when")))
    assert merged.text.startswith("can i burn sunday at 3")


def test_materials_said_in_a_correction_replace_the_ones_asked_about_and_a_denied_one_is_dropped():
    last = said("can i burn trash in a barrel today", ("trash", "material"), ("today", "when"))
    new = said("sorry not trash, just dry leaves and sticks", ("trash", "material"), ("leaves", "material"),
               ("sticks", "material"))
    merged, _ = merge(last, new)
    assert "trash" not in merged.text
    assert [e["value"] for e in merged.entities if e["entity"] == "material"] == ["leaves", "sticks"]
    assert [e["value"] for e in merged.entities if e["entity"] == "when"] == ["today"]


def test_none_fixed_is_noted_as_not_spayed_or_neutered():
    facts = facts_in(said("3 dogs, none fixed", ("3", "count"), ("dogs", "animal"), ("fixed", "neutered")))
    facts[0]["entities"] = [dict(e, value="neutered") if e["entity"] == "neutered" else e
                            for e in facts[0]["entities"]]
    assert "not spayed or neutered" in noted(facts)


def test_about_fourteen_dogs_is_a_count_not_a_time():
    s = said("we live on a farm w/ about 14 dogs", ("about 14", "when"), ("dogs", "animal"))
    s.entities[1]["value"] = "dog"
    assert parsing.animals_counted(s.entities) == {"dog": 14}
    assert noted(facts_in(s)) == "Noted: 14 dogs."


def test_another_animal_asked_after_a_household_of_two_kinds_adds_one_of_its_kind():
    last = said("i have 2 dogs and 4 cats", ("2", "count"), ("dogs", "animal"), ("4", "count"), ("cats", "animal"))
    for e, v in zip(last.entities, ("2", "dog", "4", "cat")):
        e["value"] = v
    new = said("can i get another cat", ("cat", "animal"))
    merged, _ = merge(last, new)
    assert merged.text.startswith("i have 2 dogs and 4 cats")
    assert parsing.animals_and_young(merged.entities, merged.text) == {"dogs": 2, "cats": 5}


def test_another_kind_of_animal_asked_after_one_takes_its_place():
    merged, _ = merge(said("can my dog be off leash", ("dog", "animal")), said("what about my cat", ("cat", "animal")))
    assert merged.text.startswith("can my cat be off leash")


def test_a_bare_number_said_alone_is_a_count_even_when_read_as_a_time():
    from actions.dialogue import said_of
    from tests.actions.action_helpers import ent, make_tracker
    s = said_of(make_tracker("what about 16?", "followup", [ent("what about 16?", "16", "when")]))
    assert [(e["entity"], e["value"]) for e in s.entities] == [("count", "16")]
    last = said("how much is a multiple dog license for 10 dogs", ("10", "count"), ("dogs", "animal"))
    merged, _ = merge(last, s)
    assert "for 16 dogs" in merged.text
    nine = said_of(make_tracker("what about 9?", "followup", [ent("what about 9?", "9", "when")]))
    merged, _ = merge(said("can i burn at 7 tonight", ("at 7 tonight", "when")), nine)
    assert merged.text.startswith("can i burn at 9 tonight")  # after a clock time, the hour


def test_only_a_question_about_the_rule_just_given_gets_it_again():
    from actions.conversation import asks_the_rule_again
    assert asks_the_rule_again("is that against the rules")
    assert asks_the_rule_again("any rules on that?")
    for text in ("is that right?", "is that true", "is that correct?", "really? is that the rule"):
        assert asks_the_rule_again(text), text  # a claim checked: the rule again with the law's words
    assert not asks_the_rule_again("right now?") and not asks_the_rule_again("you're right, thanks")
    for text in ("what's the fine for that?", "what about now?", "can i do it now?", "ok", "thanks"):
        assert not asks_the_rule_again(text), text
    for text in ("that is correct", "yes that is right", "you are right", "ok thats correct", "that's right"):
        assert not asks_the_rule_again(text), text  # agreeing with the answer asks nothing
    assert asks_the_rule_again("ok so is that legal")


def test_a_material_added_in_a_follow_up_joins_the_ones_asked_about():
    last = said("can i burn leaves and some plastic bags today", ("leaves", "material"), ("plastic bags", "material"),
                ("today", "when"))
    merged, _ = merge(last, said("what if i add some brush?", ("brush", "material")))
    assert [e["value"] for e in merged.entities if e["entity"] == "material"] == ["leaves", "plastic bags", "brush"]


def test_a_far_hour_is_not_given_the_half_of_the_day_of_the_last_one():
    merged, _ = merge(said("can i burn brush tomorrow at 10am", ("tomorrow at 10am", "when")),
                      said("what about 2?", ("2", "when")))
    assert "2am" not in merged.text and "tomorrow at 2" in merged.text


def test_an_hour_after_a_part_of_the_day_is_put_in_it():
    from actions.dialogue import said_of
    from tests.actions.action_helpers import make_tracker
    seven = said_of(make_tracker("what about 7?", "followup"))
    merged, _ = merge(said("can i burn brush tonight", ("tonight", "when")), seven)
    assert merged.text.startswith("can i burn brush at 7 tonight"), merged.text
    assert merged.entities[-1]["value"] == "at 7 tonight"


def test_another_counts_one_more_only_when_it_is_asked_for():
    assert parsing.animals_and_young(
        said("we have 5 dogs now that we got a new puppy", ("5", "count"), ("dogs", "animal")).entities,
        "we have 5 dogs now that we got a new puppy") == {"dogs": 5}


def test_a_tag_bought_is_no_dog_coming():
    assert not parsing.ACQUIRED_CUE.search("I bought a new tag on March 20")
    assert parsing.ACQUIRED_CUE.search("We bought a 2 year old dog on June 10")


def _valued(text: str, words: str, entity: str, value: str) -> Said:
    start = text.index(words)
    return Said(text, [{"entity": entity, "value": value, "start": start, "end": start + len(words)}])


def test_and_if_it_doesnt_turns_over_the_one_yes_or_no_fact_of_the_last_question():
    last = _valued("how many days is the bite quarantine if the dog has its shots", "has its shots",
                   "vaccinated", "vaccinated")
    for follow_up in ("and if it doesnt?", "what if he isn't", "but if she hasn't?", "and if not?"):
        merged, rest = merge(last, Said(follow_up, []))
        assert [e["value"] for e in merged.entities] == ["unvaccinated"], follow_up
        assert "not vaccinated" in merged.text and rest == "", follow_up
    spayed = _valued("how much is a license for my dog, she's spayed", "spayed", "neutered", "neutered")
    merged, _ = merge(spayed, Said("what if she wasn't", []))
    assert [e["value"] for e in merged.entities] == ["unneutered"]


def test_and_if_it_doesnt_changes_nothing_when_two_such_facts_were_said_or_none():
    both = Said("my spayed dog has her shots", [
        {"entity": "neutered", "value": "neutered", "start": 3, "end": 9},
        {"entity": "vaccinated", "value": "vaccinated", "start": 14, "end": 27}])
    merged, _ = merge(both, Said("and if she doesnt?", []))
    assert [e["value"] for e in merged.entities[:2]] == ["neutered", "vaccinated"]
    merged, _ = merge(Said("how long is the quarantine", []), Said("and if it doesnt?", []))
    assert not merged.entities


def test_a_day_said_of_the_rabies_shot_is_not_taken_as_the_day_of_the_bite():
    last = _valued("my dog bit my neighbors kid, he has his shots", "has his shots", "vaccinated", "vaccinated")
    text = "actually his rabies shot expired last year"
    new = Said(text, [{"entity": "vaccinated", "value": "unvaccinated", "start": text.index("rabies shot expired"),
                       "end": text.index(" last year")},
                      {"entity": "when", "value": "last year", "start": text.index("last year"), "end": len(text)}])
    merged, _ = merge(last, new)
    assert [e["value"] for e in merged.entities] == ["unvaccinated"]
    assert "last year" not in merged.text


def test_a_day_said_after_the_shots_status_with_a_comma_or_without_a_linking_word_is_the_bites_day():
    last = Said("how long is the quarantine for my dog", [])
    for text, when in (("he's vaccinated, may 3", "may 3"), ("he has his shots. it happened may 3", "may 3"),
                       ("he's vaccinated may 3", "may 3")):
        shot = text.index("vaccinated") if "vaccinated" in text else text.index("has his shots")
        end = shot + (len("vaccinated") if "vaccinated" in text else len("has his shots"))
        new = Said(text, [{"entity": "vaccinated", "value": "vaccinated", "start": shot, "end": end},
                          {"entity": "when", "value": when, "start": text.index(when), "end": len(text)}])
        merged, _ = merge(last, new)
        assert [e["entity"] for e in merged.entities] == ["vaccinated", "when"], text
    text = "he was vaccinated in 2020"
    new = Said(text, [{"entity": "vaccinated", "value": "vaccinated", "start": 7, "end": 17},
                      {"entity": "when", "value": "2020", "start": 21, "end": 25}])
    merged, _ = merge(last, new)
    assert [e["entity"] for e in merged.entities] == ["vaccinated"]  # "in 2020": the shot's year


def test_what_to_do_is_the_complaint_procedure_only_as_the_whole_message_after_a_neighbours_animal_nuisance():
    from actions.conversation import asks_what_to_do_about_another as asks
    barking = {"intent": "ask_barking", "text": "my neighbors dog has barked every night for 2 weeks"}
    for text in ("what can i do about it", "OK so what can we do?", "who do i call", "what are my options now"):
        assert asks(text, barking), text
    for text in ("what should we do with a stray cat", "who do i call about a dead deer",
                 "what can i do about my own dog barking at night, is there a fine"):
        assert not asks(text, barking), text  # a question of its own
    burning = {"intent": "ask_can_burn", "text": "my neighbor burns trash every weekend"}
    assert not asks("what can i do about it", burning)  # a burning question, not a neighbour's animal
    own = {"intent": "ask_barking", "text": "my dog barks when the mail comes"}
    assert not asks("what can i do about it", own)  # one's own animal: the rule itself
    bite = {"intent": "ask_bites", "text": "the neighbor's dog bit my son"}
    assert not asks("what do we have to do", bite)  # after a bite: the duties the bite brings


def test_now_in_a_follow_up_keeps_the_bites_day_but_moves_a_burning_time():
    bite = said("our cat bit my nephew yesterday", ("bit", "incident"), ("yesterday", "when"))
    merged, _ = merge(bite, said("what do we do now", ("now", "when")))
    assert [e["value"] for e in merged.entities if e["entity"] == "when"] == ["yesterday"]
    burn = said("can i burn tomorrow at 3", ("tomorrow at 3", "when"))
    merged, _ = merge(burn, said("what about now", ("now", "when")))
    assert "tomorrow" not in merged.text and "now" in merged.text


def test_what_do_we_have_to_do_after_a_bite_is_the_owners_duties_even_after_hes_fine():
    from actions.conversation import duty_rule
    bite = {"intent": "ask_bites", "text": "our cat bit my nephew yesterday"}
    assert duty_rule("hes fine. what do we have to do now", bite) == ("bites", "answer")
    assert duty_rule("what should we do?", {"intent": "ask_bites", "text": "how long is the quarantine"})
    assert duty_rule("what do we have to do to license him", bite) is None  # a question of its own
    assert duty_rule("what do we have to do now", {"intent": "ask_barking", "text": "my dog barks"}) is None
    exposure = {"intent": "ask_quarantine", "text": "my dog was exposed to a rabid raccoon",
                "entities": [{"entity": "incident", "value": "exposure", "start": 11, "end": 18}]}
    assert duty_rule("what do we have to do now", exposure) is None  # an exposure's duties are not a bite's
    assert duty_rule("he\u2019s fine. what do we do now", {**bite, "entities": [
        {"entity": "incident", "value": "bite", "start": 8, "end": 11}]}) == ("bites", "answer")


def test_and_if_she_was_turns_over_a_not_fact_only():
    last = _valued("how long is the quarantine, she's not vaccinated", "not vaccinated", "vaccinated", "unvaccinated")
    merged, _ = merge(last, Said("and if she was?", []))
    assert [e["value"] for e in merged.entities] == ["vaccinated"]
    last = _valued("how long is the quarantine, she's vaccinated", "vaccinated", "vaccinated", "vaccinated")
    merged, _ = merge(last, Said("and if she was?", []))
    assert [e["value"] for e in merged.entities] == ["vaccinated"]  # nothing to turn over
    last = _valued("a bat got in, my dog is not vaccinated", "not vaccinated", "vaccinated", "unvaccinated")
    merged, _ = merge(last, Said("and if it did?", []))
    assert [e["value"] for e in merged.entities] == ["unvaccinated"]  # "it" is the bat: nothing turned over


def test_a_birth_day_said_after_the_day_the_dog_came_is_added_not_put_in_its_place():
    last = said("got a puppy april 10, when is the license due", ("april 10", "when"))
    merged, _ = merge(last, said("correction, he was born feb 20", ("feb 20", "when")))
    assert [e["value"] for e in merged.entities] == ["april 10", "feb 20"], merged
    merged, _ = merge(last, said("sorry, april 12", ("april 12", "when")))
    assert [e["value"] for e in merged.entities] == ["april 12"]  # the same kind of day: corrected in place


def test_a_fact_carried_into_a_question_with_its_own_time_brings_no_day_and_no_stray_number():
    from actions.conversation import context_for
    fact = said("its really windy today, gusts like 35 mph", ("today", "when"), ("35", "count"))
    facts = facts_in(fact)
    question = said("ok to burn my leaf pile this afternoon?", ("this afternoon", "when"))
    context = context_for(facts, "ask_can_burn", question)
    assert context is not None and "windy" in context.text  # the weather is carried
    assert [e["entity"] for e in context.entities] == []  # "today" and "35" (no clock) are not
