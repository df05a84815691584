"""The license and burn forms: extraction, validation, read-back, storage, Mequon."""
from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta, timezone

from rasa_sdk.executor import CollectingDispatcher

from actions import common
from actions.burn_form import ValidateBurnForm
from actions.burn_notice import ActionAskBurnConfirmed, ActionStartBurn, ActionSubmitBurn
from actions.license_answer import ActionLicenseAnswer
from actions.license_form import ValidateLicenseForm, license_inputs
from tests.actions.action_helpers import ent, make_tracker, texts

LICENSE_DOMAIN = {"forms": {"license_form": {"required_slots": ["dog_count", "dogs_neutered", "service_dog",
                                                                "acquired", "purchase_day"]}},
                  "slots": {s: {"type": "text", "mappings": [{"type": "custom"}]}
                            for s in ["dog_count", "dogs_neutered", "service_dog", "acquired", "purchase_day"]}}
BURN_SLOTS = ["burner_name", "burn_address", "burn_phone", "burn_date", "burn_time", "burn_location",
              "burn_confirmed"]
BURN_DOMAIN = {"forms": {"burn_form": {"required_slots": BURN_SLOTS}},
               "slots": {s: {"type": "text", "mappings": [{"type": "custom"}]} for s in BURN_SLOTS}}


def run(action, tracker, domain):
    d = CollectingDispatcher()
    events = asyncio.run(action.run(d, tracker, domain))
    return d, {e["name"]: e["value"] for e in events if e.get("event") == "slot"}


def test_license_everything_in_one_message_fills_every_slot():
    text = "how much for 2 spayed dogs, got them in May, buying the license today"
    tr = make_tracker(text, "ask_license_cost", [
        ent(text, "2", "count"), ent(text, "spayed", "neutered", "neutered"), ent(text, "dogs", "animal", "dog"),
        ent(text, "in May", "when"), ent(text, "today", "when")], active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["dog_count"] == 2.0
    assert slots["dogs_neutered"] == "2"  # 2 of the 2 dogs
    assert slots["acquired"] == "got:2026-05-01"
    assert slots["purchase_day"] == "2026-07-02"


def test_license_asks_only_for_what_is_missing():
    text = "how much to license my dog"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "dog", "animal")], active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots.get("dog_count") == 1.0
    assert "dogs_neutered" not in slots  # still missing: the form will ask for it next


def test_license_reply_by_text_to_the_question_asked():
    tr = make_tracker("three", "inform", [ent("three", "three", "count")],
                      slots={"requested_slot": "dog_count"}, active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["dog_count"] == 3.0



def test_service_dogs_are_counted_when_said_and_never_asked():
    tr = make_tracker("how much is a license for 2 dogs", "ask_license_cost", [
        ent("how much is a license for 2 dogs", "2", "count"), ent("how much is a license for 2 dogs", "dogs", "animal")],
        active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["service_dog"] == "0" and slots["purchase_day"] is not None
    assert slots.get("requested_slot") != "service_dog"
    text = "2 dogs, one is a guide dog"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "2", "count"), ent(text, "dogs", "animal"),
                                                 ent(text, "guide dog", "service_dog")], active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["service_dog"] == "1"


def test_license_answer_is_computed_and_slots_reset():
    tr = make_tracker("today", "inform", slots={"dog_count": 2.0, "dogs_neutered": "1", "service_dog": "0",
                                               "acquired": "long ago", "purchase_day": "2026-07-02"})
    assert license_inputs(tr)["neutered"] == 1
    d, slots = run(ActionLicenseAnswer(), tr, {})
    out = texts(d)[0]
    assert "7.02-3" in out or "7.02-4" in out
    assert slots["dog_count"] is None and slots["purchase_day"] is None


def test_service_dog_digression_question_is_not_a_value():
    tr = make_tracker("wait, what can't I burn?", "ask_prohibited_materials",
                      slots={"requested_slot": "burner_name"}, active_loop="burn_form")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert "burner_name" not in slots or slots.get("burner_name") is None


def burn_reply(text, intent="inform", entities=None, **slots):
    return make_tracker(text, intent, entities, slots=slots, active_loop="burn_form")


def test_burn_form_takes_a_stated_name_whatever_the_intent():
    # the trained model reads "My name is Parker Hanson" as out_of_scope; the form asked for the name forever
    for intent in ("out_of_scope", "ask_burning_rules", "greet"):
        _, slots = run(ValidateBurnForm(), burn_reply("My name is Parker Hanson", intent,
                                                      requested_slot="burner_name"), BURN_DOMAIN)
        assert slots["burner_name"] == "Parker Hanson", intent
    # not when the form asked something else, and not a question about names
    _, slots = run(ValidateBurnForm(), burn_reply("My name is Parker Hanson", "out_of_scope",
                                                  requested_slot="burn_address"), BURN_DOMAIN)
    assert slots.get("burner_name") is None
    _, slots = run(ValidateBurnForm(), burn_reply("what name is on the license?", "ask_burning_rules",
                                                  requested_slot="burner_name"), BURN_DOMAIN)
    assert slots.get("burner_name") is None


def test_burn_form_open_answers_read_as_out_of_scope_are_the_answer():
    for slot, text in (("burner_name", "Parker Hanson"), ("burn_address", "N1096 County Road K"),
                       ("burn_location", "the back field behind barn 96")):
        _, slots = run(ValidateBurnForm(), burn_reply(text, "out_of_scope", requested_slot=slot), BURN_DOMAIN)
        assert slots[slot] == text, slot
    # a question is still a digression, answered, with the form's question asked again
    _, slots = run(ValidateBurnForm(), burn_reply("can you tell me a joke?", "out_of_scope",
                                                  requested_slot="burn_location"), BURN_DOMAIN)
    assert slots.get("burn_location") is None


def test_burn_form_validates_each_fact():
    _, slots = run(ValidateBurnForm(), burn_reply("my name is Pat Olson", requested_slot="burner_name"), BURN_DOMAIN)
    assert slots["burner_name"] == "Pat Olson"
    d, slots = run(ValidateBurnForm(), burn_reply("somewhere", requested_slot="burn_address"), BURN_DOMAIN)
    assert slots["burn_address"] is None and "house number" in texts(d)[0]
    _, slots = run(ValidateBurnForm(), burn_reply("N1234 County Road K", requested_slot="burn_address"), BURN_DOMAIN)
    assert slots["burn_address"] == "N1234 County Road K"
    d, slots = run(ValidateBurnForm(), burn_reply("555-12", requested_slot="burn_phone"), BURN_DOMAIN)
    assert slots["burn_phone"] is None
    _, slots = run(ValidateBurnForm(), burn_reply("(608) 555-0142", requested_slot="burn_phone"), BURN_DOMAIN)
    assert slots["burn_phone"] == "(608) 555-0142"


def test_burn_date_in_the_past_is_refused():
    text = "last tuesday"
    d, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                  requested_slot="burn_date"), BURN_DOMAIN)
    assert slots["burn_date"] is None
    assert "passed" in texts(d)[0]


def test_burn_date_with_time_sets_both_and_time_must_be_daylight():
    text = "tomorrow at 10pm"
    d, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                  requested_slot="burn_date"), BURN_DOMAIN)
    assert slots["burn_date"] == "2026-07-03"
    assert slots["burn_time"] is None  # 10 p.m. is after sunset in July
    assert "sunset" in " ".join(texts(d))
    text = "at 10am"
    _, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                  requested_slot="burn_time", burn_date="2026-07-03"), BURN_DOMAIN)
    assert slots["burn_time"] == "10:00"


def test_the_form_refuses_only_a_day_an_order_covers():
    cdt = timezone(timedelta(hours=-5))  # NOW is Thursday, July 2, 2026; sunset July 3 is 8:38 p.m.
    common.store().record_order("dunkirk", datetime(2026, 7, 2, 8, tzinfo=cdt), datetime(2026, 7, 3, 21, tzinfo=cdt),
                                reason="dry", board_action="Board meeting 7/1", recorded_by="clerk")
    for text, refused in (("tomorrow", True), ("saturday", False), ("next tuesday", False)):
        d, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                      requested_slot="burn_date"), BURN_DOMAIN)
        assert (slots["burn_date"] is None) is refused, (text, slots, texts(d))
        assert ("no-burning order" in " ".join(texts(d))) is refused


def test_the_form_offers_the_part_of_a_day_an_order_leaves_open():
    """7.10(4) forbids burning only while the order is in effect: an order ending at 8:00 a.m. on Friday leaves
    Friday open from 8:00 a.m. until sunset (7.11), as the engine answers "can I burn Friday?"."""
    cdt = timezone(timedelta(hours=-5))  # NOW is Thursday, July 2, 2026
    common.store().record_order("dunkirk", datetime(2026, 7, 1, 8, tzinfo=cdt), datetime(2026, 7, 3, 8, tzinfo=cdt),
                                reason="dry", board_action="Board meeting 6/30", recorded_by="clerk")
    d, slots = run(ValidateBurnForm(), burn_reply("friday", entities=[ent("friday", "friday", "when")],
                                                  requested_slot="burn_date"), BURN_DOMAIN)
    assert slots["burn_date"] == "2026-07-03", texts(d)
    for said, refused in (("at 7:30am", True), ("at 8am", False), ("at 9am", False)):
        d, slots = run(ValidateBurnForm(), burn_reply(said, entities=[ent(said, said, "when")],
                                                      requested_slot="burn_time", burn_date="2026-07-03"), BURN_DOMAIN)
        assert (slots["burn_time"] is None) is refused, (said, slots, texts(d))
        if refused:
            assert "from 8:00 a.m. CDT (when the order ends) until sunset (8:38 p.m. CDT)" in texts(d)[0]


def test_the_saved_notice_says_to_stop_when_an_order_begins_that_day():
    cdt = timezone(timedelta(hours=-5))
    common.store().record_order("dunkirk", datetime(2026, 7, 3, 14, tzinfo=cdt), None,
                                reason="dry", board_action="Board meeting 7/2", recorded_by="clerk")
    d, _ = run(ActionSubmitBurn(), burn_reply("yes", "affirm", **FILLED, burn_confirmed=True), {})
    assert "Burn only until 2:00 p.m. CDT (when the order begins)" in texts(d)[0]


def test_no_burning_order_blocks_the_form():
    common.store().set_burning_order("dunkirk", True, reason="dry conditions", set_by="chief")
    text = "saturday"
    d, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                  requested_slot="burn_date"), BURN_DOMAIN)
    assert slots["burn_date"] is None
    assert "no-burning order" in texts(d)[0]


FILLED = {"burner_name": "Pat Olson", "burn_address": "N1234 County Road K", "burn_phone": "(608) 555-0142",
          "burn_date": "2026-07-03", "burn_time": "10:00", "burn_location": "behind the barn"}


def test_read_back_then_correction_of_the_phone():
    d, _ = run(ActionAskBurnConfirmed(), burn_reply("", **FILLED, requested_slot="burn_confirmed"), {})
    assert "Friday, July 3, 2026" in texts(d)[0] and "(608) 555-0142" in texts(d)[0]
    tr = burn_reply("no, the phone is 608-555-0199", "deny", **FILLED, requested_slot="burn_confirmed")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots["burn_phone"] == "(608) 555-0199"
    assert slots["burn_confirmed"] is None


def test_correction_by_naming_the_field_clears_it():
    tr = burn_reply("change the address", "deny", **FILLED, requested_slot="burn_confirmed")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots["burn_address"] is None
    assert slots["burn_confirmed"] is None  # the form asks for the address again, then reads back


def test_submit_stores_with_a_reference():
    tr = burn_reply("yes", "affirm", **FILLED, burn_confirmed=True)
    d, slots = run(ActionSubmitBurn(), tr, {})
    out = texts(d)[0]
    rows = common.store().list_burn_notifications("dunkirk")
    assert len(rows) == 1 and rows[0].reference in out
    assert rows[0].phone == "(608) 555-0142" and str(rows[0].burn_date) == "2026-07-03"
    assert all(v is None for v in slots.values())


def test_mequon_never_runs_the_burn_form(mequon):
    d, _ = run(ActionStartBurn(), make_tracker("i want to notify a burn", "notify_burn"), {})
    assert "Clerk" in texts(d)[0]
    _, slots = run(ValidateBurnForm(), make_tracker("i want to notify a burn", "notify_burn",
                                                    active_loop="burn_form"), BURN_DOMAIN)
    assert slots.get("requested_slot") is None


def test_form_activation_with_cleared_slots_says_nothing():
    """Slots cleared to None (a new form) are not 'invalid answers': no error message, nothing filled."""
    tr = make_tracker("i want to notify the fire department of a burn", "notify_burn", active_loop="burn_form")
    tr.events.extend({"event": "slot", "name": s, "value": None} for s in BURN_SLOTS)
    d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert texts(d) == []
    assert all(v is None for k, v in slots.items() if k != "requested_slot")


def test_questions_are_one_message_each():
    from actions.questions import ASK_ACTIONS
    names = set()
    for cls in ASK_ACTIONS:
        d, _ = run(cls(), make_tracker("", "inform"), {})
        assert len(texts(d)) == 1 and texts(d)[0].endswith("?") or ")" in texts(d)[0]
        names.add(cls().name())
    assert "action_ask_burn_form_burn_phone" in names and "action_ask_license_form_dog_count" in names


def test_question_mid_form_is_answered_and_the_form_asks_again():
    tr = make_tracker("wait, what can't I burn?", "ask_prohibited_materials",
                      slots={"requested_slot": "burn_phone", "burner_name": "Pat Olson"}, active_loop="burn_form")
    d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert "7.10" in texts(d)[0]
    assert "burn_phone" in slots and slots["burn_phone"] is None  # a SlotSet: the form continues, asks again
    tr = make_tracker("is there a late fee?", "ask_late_fee", slots={"requested_slot": "dogs_neutered",
                                                                     "dog_count": 2.0}, active_loop="license_form")
    d, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert "7.02-4" in texts(d)[0]
    assert slots.get("dogs_neutered") is None and slots.get("dog_count", 2.0) == 2.0


def test_value_reply_read_as_another_intent_is_still_a_value():
    text = "got them in May"
    tr = make_tracker(text, "ask_multiple_dog_license", [ent(text, "in May", "when")],
                      slots={"requested_slot": "acquired", "dog_count": 2.0}, active_loop="license_form")
    d, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["acquired"] == "got:2026-05-01"
    assert texts(d) == []


def test_a_correction_that_carries_the_new_time_needs_no_second_question():
    tr = burn_reply("no the time is 3pm", "deny", **FILLED, requested_slot="burn_confirmed",
                    entities=[ent("no the time is 3pm", "3pm", "when")])
    d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots["burn_time"] == "15:00" and slots["burn_confirmed"] is None  # read back again, not re-asked


def test_a_correction_that_carries_the_new_location_is_taken():
    tr = burn_reply("no, the location is the north field by the pond", "deny", **FILLED,
                    requested_slot="burn_confirmed")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots["burn_location"] == "the north field by the pond"


def test_a_time_that_is_not_a_time_is_asked_again_in_words_about_time():
    tr = burn_reply("yes", "affirm", **{k: v for k, v in FILLED.items() if k != "burn_time"},
                    requested_slot="burn_time")
    d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots.get("burn_time") is None
    # the engine's own words for what it could not read, then how to say a time
    assert any("you mean by \"yes\"" in t and "a time like '10 am'" in t for t in texts(d)), texts(d)


def test_the_opening_request_sent_again_is_not_taken_as_the_name():
    tr = burn_reply("I want to notify the fire department of a burn", "notify_burn", requested_slot="burner_name")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert not slots.get("burner_name")
    tr = burn_reply("I want to notify the fire department of a burn", "notify_burn",
                    **{k: v for k, v in FILLED.items() if k != "burn_location"}, requested_slot="burn_location")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert not slots.get("burn_location")
    tr = burn_reply("Pat Olson", "inform", requested_slot="burner_name")
    _, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
    assert slots["burner_name"] == "Pat Olson"


AGE_DOMAIN = {"forms": LICENSE_DOMAIN["forms"],
              "slots": {**LICENSE_DOMAIN["slots"], "licensable_age_on": {"type": "text", "mappings": [{"type": "custom"}]}}}


def test_the_puppys_five_months_day_is_asked_only_when_the_answer_depends_on_it():
    filled = {"dog_count": 1.0, "dogs_neutered": "none", "service_dog": "0", "purchase_day": "2026-07-02"}
    got_this_year = make_tracker("today", "inform", slots={**filled, "acquired": "got:2026-06-20",
                                                           "requested_slot": "purchase_day"},
                                 active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), got_this_year, AGE_DOMAIN)
    assert slots["requested_slot"] == "licensable_age_on"
    had_long = make_tracker("today", "inform", slots={**filled, "acquired": "long ago",
                                                      "requested_slot": "purchase_day"}, active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), had_long, AGE_DOMAIN)
    assert slots.get("requested_slot") is None


def test_the_five_months_day_said_in_the_question_is_used():
    text = "our female puppy (not spayed) turns 5 months on sept 10. how much is her license?"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "on sept 10", "when")], active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, AGE_DOMAIN)
    assert slots["licensable_age_on"] == "2026-09-10"
    tr = make_tracker("", slots={"dog_count": 1.0, "dogs_neutered": "none", "service_dog": "0",
                                 "acquired": "long ago", "purchase_day": "2026-07-02",
                                 "licensable_age_on": "2026-09-10"})
    assert license_inputs(tr)["licensable_age_on"].isoformat() == "2026-09-10"


def test_never_got_licenses_this_year_is_not_the_day_the_dog_came():
    text = "I have 2 dogs, I never got licenses this year. What do I owe now?"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "2", "count"), ent(text, "dogs", "animal", "dog"),
                                                 ent(text, "this year", "when")])
    d, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots.get("acquired") is None and texts(d) == []  # asked next, not read from "got licenses"
    text = "we got her this year in March"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "in March", "when")])
    d, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["acquired"].startswith("got:2026-03")


def burn_questions(tracker) -> list:
    """The slots the burn form will ask for, for this tracker."""
    return asyncio.run(ValidateBurnForm().required_slots(BURN_SLOTS, CollectingDispatcher(), tracker, BURN_DOMAIN))


def test_a_question_about_how_to_notify_is_answered_and_the_form_asks_and_stores_nothing():
    text = "what number do i call to notify the fire department of a burn"
    d, _ = run(ActionStartBurn(), make_tracker(text, "notify_burn"), {})
    assert "7.12(1)" in texts(d)[0] and "I'll record" not in texts(d)[0]
    assert burn_questions(make_tracker(text, "notify_burn", active_loop="burn_form")) == []  # the form ends at once
    d, _ = run(ActionSubmitBurn(), make_tracker(text, "notify_burn"), {})
    assert texts(d) == []  # not "Nothing was saved.": nothing was being recorded
    d, _ = run(ActionStartBurn(), make_tracker("I want to notify the fire department of a burn", "notify_burn"), {})
    assert "I'll record" in texts(d)[0]  # the notice itself still opens the form


def test_a_how_to_question_that_carries_the_facts_of_a_burn_is_a_notice():
    for text in ("who do I tell, I'm burning Saturday at 10 at 123 Main St",
                 "how do i let the fire dept know i'm burning tomorrow at 10 at 55 Oak Rd",
                 "what's the number to notify the fire dept? i want to burn brush on July 4th around noon at my farm",
                 "who do we contact? we plan to burn the brush pile 7/4 in the back field"):
        d, _ = run(ActionStartBurn(), make_tracker(text, "notify_burn"), {})
        assert "I'll record" in texts(d)[0], text
        assert burn_questions(make_tracker(text, "notify_burn", active_loop="burn_form")), text  # asks what is missing


def test_a_bare_hour_is_read_as_its_one_daylight_reading_else_asked_back():
    """'1' on a July day: 1 a.m. is before sunrise, so 1 p.m. (the read-back shows it); '7' could be 7 a.m. or
    7 p.m. (sunset 8:38), so the form asks which (7.11)."""
    d, slots = run(ValidateBurnForm(), burn_reply("1", requested_slot="burn_time", burn_date="2026-07-03"),
                   BURN_DOMAIN)
    assert slots["burn_time"] == "13:00", texts(d)
    d, slots = run(ValidateBurnForm(), burn_reply("7", requested_slot="burn_time", burn_date="2026-07-03"),
                   BURN_DOMAIN)
    assert slots["burn_time"] is None
    assert "morning" in texts(d)[0] and "evening" in texts(d)[0]
    assert slots["pending_when"] == {"phrase": "at 7"}


def test_a_time_after_sunset_is_refused_with_a_no_and_the_sunset():
    for said in ("at 10pm", "after dark"):
        d, slots = run(ValidateBurnForm(), burn_reply(said, entities=[ent(said, said, "when")],
                                                      requested_slot="burn_time", burn_date="2026-07-03"),
                       BURN_DOMAIN)
        assert slots["burn_time"] is None, said
        assert texts(d)[0].startswith("No: ") and "after sunset (8:38 p.m. CDT)" in texts(d)[0], texts(d)


def test_a_dog_license_priced_without_a_count_asks_how_many_dogs():
    """'a dog license' is the kind of license, not one dog: the form asks how many rather than assume one."""
    text = "how much is a dog license?"
    tr = make_tracker(text, "ask_license_cost", [], active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots.get("dog_count") is None
    text = "how much is my dog's license?"  # one dog said: counted as one
    _, slots = run(ValidateLicenseForm(), make_tracker(text, "ask_license_cost", [], active_loop="license_form"),
                   LICENSE_DOMAIN)
    assert slots.get("dog_count") == 1.0


def test_one_dog_gets_the_spay_question_in_the_singular():
    from actions.questions import question_for
    one = make_tracker("how much to license my dog", "ask_license_cost", slots={"dog_count": 1.0})
    two = make_tracker("how much to license my dogs", "ask_license_cost", slots={"dog_count": 2.0})
    assert question_for("license_form_dogs_neutered", one)[0] == "Is your dog spayed or neutered?"
    assert question_for("license_form_dogs_neutered", two)[0].startswith("Are they")


def test_a_count_said_in_reply_to_the_spay_question_is_not_the_spay_count():
    text = "2 dogs. one is my service dog"
    tr = make_tracker(text, "inform", [ent(text, "2", "count"), ent(text, "dogs", "animal", "dog"),
                                       ent(text, "service dog", "service_dog")],
                      slots={"requested_slot": "dogs_neutered", "dog_count": 1.0}, active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["dog_count"] == 2.0
    assert slots.get("dogs_neutered") is None
    assert slots["service_dog"] == "1"


def test_a_spay_correction_while_another_question_is_asked_replaces_the_answer():
    text = "neither is fixed"
    tr = make_tracker(text, "inform", [ent(text, "fixed", "neutered", "neutered")],
                      slots={"requested_slot": "acquired", "dog_count": 2.0, "dogs_neutered": "1"},
                      active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
    assert slots["dogs_neutered"] == "none"


def test_years_kept_are_read_as_before_this_license_year():
    for text in ("since before this year", "had her 3 yrs", "had them since 2023"):
        tr = make_tracker(text, "inform", [], slots={"requested_slot": "acquired", "dog_count": 1.0},
                          active_loop="license_form")
        d, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
        assert slots.get("acquired") == "long ago", (text, slots, texts(d))


def test_the_opening_message_s_listed_name_address_and_phone_are_all_taken():
    _, slots = run(ValidateBurnForm(), burn_reply("burn notice: tom berg, N1234 Hwy 51, 608 555 0199",
                                                  "notify_burn"), BURN_DOMAIN)
    assert slots["burner_name"].lower() == "tom berg"
    assert slots["burn_address"] == "N1234 Hwy 51"
    assert slots["burn_phone"] and "555" in slots["burn_phone"]


def test_a_day_and_time_said_when_the_phone_is_asked_are_taken_not_refused_as_a_phone():
    text = "sat morning around 9"
    d, slots = run(ValidateBurnForm(), burn_reply(text, entities=[ent(text, text, "when")],
                                                  requested_slot="burn_phone"), BURN_DOMAIN)
    assert "phone number" not in " ".join(texts(d))
    assert slots.get("burn_date") == "2026-07-04", (slots, texts(d))


def test_a_24_hour_time_is_taken_as_said():
    d, slots = run(ValidateBurnForm(), burn_reply("15", requested_slot="burn_time", burn_date="2026-07-03"),
                   BURN_DOMAIN)
    assert slots["burn_time"] == "15:00", texts(d)


def test_a_spay_answer_that_names_the_dogs_is_taken():
    for text, want in (("yes all 3 dogs", "all"), ("the 2 dogs yes", "all")):
        tr = make_tracker(text, "affirm", [ent(text, text.split()[-2] if text[0] == "y" else "2", "count"),
                                           ent(text, "dogs", "animal", "dog")],
                          slots={"requested_slot": "dogs_neutered", "dog_count": 3.0}, active_loop="license_form")
        _, slots = run(ValidateLicenseForm(), tr, LICENSE_DOMAIN)
        assert slots.get("dogs_neutered") == want, (text, slots)


def test_a_question_mid_burn_notice_naming_no_topic_is_asked_of_the_burn():
    for text, intent, answered in (("how far from the house does it have to be", "ask_burn_setbacks", True),
                                   ("how far from the house does the dog run have to be", "ask_burn_setbacks", False)):
        tr = make_tracker(text, intent, slots={"requested_slot": "burn_phone", "burner_name": "Ray Dombrowski"},
                          active_loop="burn_form")
        d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
        assert ("40 feet" in texts(d)[0] and "7.12" in texts(d)[0]) == answered, texts(d)  # a dog run: not burning
        assert "burn_phone" in slots and slots["burn_phone"] is None  # the form asks its question again


def test_a_question_mid_burn_notice_about_a_dog_or_a_time_is_never_answered_whether_one_may_burn():
    for text, intent, ents in (("can my dog come out with me", "ask_can_burn", [("dog", "animal", "dog")]),
                               ("can he stay out tonight", "ask_burning_hours", []),
                               ("what about later", "ask_can_burn", [])):
        tr = make_tracker(text, intent, [ent(text, *e) for e in ents],
                          slots={"requested_slot": "burn_phone", "burner_name": "Ray Dombrowski"},
                          active_loop="burn_form")
        d, slots = run(ValidateBurnForm(), tr, BURN_DOMAIN)
        assert not texts(d)[0].startswith(("Yes", "No")) and "sunset" not in texts(d)[0], (text, texts(d))
        assert "burn_phone" in slots and slots["burn_phone"] is None


def test_a_birth_day_said_gives_the_day_the_dog_reaches_the_licensable_age():
    text = "oops he was born jan 10"
    tr = make_tracker(text, "inform", [ent(text, "jan 10", "when")],
                      slots={"requested_slot": "licensable_age_on", "dog_count": 1.0, "dogs_neutered": "none",
                             "service_dog": "0", "acquired": "long ago", "purchase_day": "2026-03-12"},
                      active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, AGE_DOMAIN)
    assert slots["licensable_age_on"] == "2026-06-10"  # Jan 10 and Dunkirk's 5 months (7.02-1(a))


def test_my_puppys_license_is_one_dog():
    text = "how much will my puppys license be, born feb 10, not neutered"
    tr = make_tracker(text, "ask_license_cost", [ent(text, "puppys", "animal", "dog"), ent(text, "feb 10", "when")],
                      active_loop="license_form")
    _, slots = run(ValidateLicenseForm(), tr, AGE_DOMAIN)
    assert slots["dog_count"] == 1.0 and slots["licensable_age_on"] == "2026-07-10"


def test_a_birth_day_said_after_the_cost_moves_the_licensable_age_day():
    from datetime import datetime
    from actions.conversation import Said
    from actions.license_answer import changed_inputs
    from knowledge import load_town
    t = load_town("dunkirk")
    text = "oops he was born jan 10"
    inputs = {"on": datetime(2026, 3, 12).date(), "dogs": 1, "neutered": 0, "service_dogs": 0, "acquired": None,
              "moved_in": None, "licensable_age_on": datetime(2026, 7, 10).date()}
    from zoneinfo import ZoneInfo
    now = datetime(2026, 3, 12, 14, tzinfo=ZoneInfo("America/Chicago"))
    out = changed_inputs(inputs, Said(text, [ent(text, "jan 10", "when")]), t, now)
    assert out["licensable_age_on"].isoformat() == "2026-06-10" and out["dogs"] == 1


def _ask_acquired(tracker_factory, dispatcher, **slots):
    from actions.questions import _Ask

    class AskAcquired(_Ask):
        key = "license_form_acquired"
    asyncio.run(AskAcquired().run(dispatcher, tracker_factory("1", slots=slots, active_loop="license_form"), {}))
    return dispatcher.messages[-1]["text"]


def test_the_question_for_the_day_the_dog_came_first_gives_the_price_on_time_and_with_the_late_fee(
        tracker_factory, dispatcher, monkeypatch):
    from knowledge import handlers, town
    monkeypatch.setenv("ASSISTANT_NOW", "2026-05-15T10:00:00-05:00")  # before July 1: no half tax to ask about
    asked = _ask_acquired(tracker_factory, dispatcher, dog_count=1.0, dogs_neutered="all", service_dog=False,
                          purchase_day="2026-05-15")
    day = date(2026, 5, 15)
    on_time = handlers.license_cost(town("dunkirk"), on=day, dogs=1, neutered=1, acquired=day).value["total"]
    late = handlers.license_cost(town("dunkirk"), on=day, dogs=1, neutered=1).value["total"]
    assert late > on_time
    assert asked.startswith(f"At least ${on_time:,.2f} if licensed on time, ${late:,.2f} with the late fee ("), asked
    assert asked.endswith("(a date, or 'over a year ago')") and "When did you get the dog" in asked


def test_no_price_is_given_before_the_resident_says_whether_the_dog_is_spayed_or_neutered(
        tracker_factory, dispatcher):
    asked = _ask_acquired(tracker_factory, dispatcher, dog_count=1.0, purchase_day="2026-07-02")
    assert asked.startswith("When did you get the dog") and "$" not in asked


def test_a_puppy_not_yet_of_licensable_age_on_the_day_of_buying_is_never_priced_at_nothing(
        tracker_factory, dispatcher):
    asked = _ask_acquired(tracker_factory, dispatcher, dog_count=1.0, dogs_neutered="none", service_dog=False,
                          purchase_day="2026-09-01", licensable_age_on="2026-09-03")
    assert "$0.00" not in asked and "When did you get the dog" in asked


def test_no_price_is_given_before_asking_when_the_day_the_dog_reached_the_licensable_age_would_change_it(
        tracker_factory, dispatcher):
    asked = _ask_acquired(tracker_factory, dispatcher, dog_count=1.0, dogs_neutered="all", service_dog=False,
                          purchase_day="2026-09-15")
    assert asked.startswith("When did you get the dog") and "$" not in asked, asked


def test_no_price_is_given_where_the_late_fee_s_amount_is_not_in_our_copy(tracker_factory, dispatcher, monkeypatch):
    from knowledge import town
    monkeypatch.setenv("ASSISTANT_NOW", "2026-05-15T10:00:00-05:00")
    mequon = town("mequon")
    monkeypatch.setattr(common, "town", lambda: mequon)
    asked = _ask_acquired(tracker_factory, dispatcher, dog_count=1.0, dogs_neutered="all", service_dog=False,
                          purchase_day="2026-05-15")
    assert asked.startswith("When did you get the dog") and "$" not in asked, asked

