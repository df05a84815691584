"""Reading a resident's answers to the burn notification form (Dunkirk 7.12(1)): name, address, phone, the
day and time, where on the property, and yes or a change at the read-back, from entities and the words of the
reply (a name or an address listed in the opening message, a correction naming its field). Validation is
burn_form.py's."""
from __future__ import annotations

from rasa_sdk import Tracker

from . import common, parsing
from .form_base import free_text, takes_values


class BurnFormReading:
    """The burn form's extract_<slot> methods (rasa_sdk calls them by name)."""

    async def extract_burner_name(self, dispatcher, tracker, domain):
        text = free_text(tracker, "burner_name", open_answer=True)
        said = parsing.stated_name(common.text_of(tracker) or "")
        if text is None and said and tracker.get_slot("requested_slot") == "burner_name":
            # "My name is Parker Hanson" answering "your full name?" is the name whatever intent NLU gave it
            # (that one was read as out_of_scope, and the resident was asked for the name again and again)
            return {"burner_name": said}
        if text is None:
            name = parsing.name_in(common.text_of(tracker)) or self._listed(tracker).get("name")
            if name is None:
                name = _changed(tracker, "burner_name")
            return {"burner_name": name} if name and takes_values(tracker) else {}
        return {"burner_name": parsing.name_from_reply(text)}

    async def extract_burn_address(self, dispatcher, tracker, domain):
        text = free_text(tracker, "burn_address", open_answer=True)
        if text is None:
            address = parsing.address_in(common.text_of(tracker)) or self._listed(tracker).get("address") or \
                _changed(tracker, "burn_address")
            return {"burn_address": address} if address and takes_values(tracker) else {}
        return {"burn_address": parsing.address_from_reply(text)}

    @staticmethod
    def _listed(tracker) -> dict:
        """Name and address listed in the message that opens the form ("burn notice: tom berg, N1234 Hwy 51,
        608 555 0199"), when the form asks nothing yet."""
        if tracker.get_slot("requested_slot") or common.intent_of(tracker) != "notify_burn":
            return {}
        return parsing.details_in(common.text_of(tracker))

    async def extract_burn_phone(self, dispatcher, tracker, domain):
        text = common.text_of(tracker)
        asked = tracker.get_slot("requested_slot") == "burn_phone"
        if not asked and not takes_values(tracker):
            return {}
        phone = parsing.phone_in(text)
        if phone and (asked or tracker.get_slot("burn_phone") or "burn_phone" in parsing.fields_named(text)
                      or self._listed(tracker)):  # "burn notice: tom berg, N1234 Hwy 51, 608 555 0199"
            return {"burn_phone": phone}
        if asked and free_text(tracker, "burn_phone") and not common.entities(tracker, "when"):
            return {"burn_phone": f"invalid:{text}"}
        return {}  # "sat morning around 9" in reply to the phone question: the day and time are taken, not refused

    async def extract_burn_date(self, dispatcher, tracker, domain):
        if not takes_values(tracker, "burn_date", "burn_time"):
            return {}
        said = common.when_text(tracker)
        if said and not parsing.is_time_only(said):
            return {"burn_date": said}
        text = free_text(tracker, "burn_date")
        return {"burn_date": text} if text else {}

    async def extract_burn_time(self, dispatcher, tracker, domain):
        if not takes_values(tracker, "burn_date", "burn_time"):
            return {}
        said = common.when_text(tracker)
        if said and parsing.has_time(said):
            return {"burn_time": said}
        text = free_text(tracker, "burn_time")
        return {"burn_time": text} if text else {}

    async def extract_burn_location(self, dispatcher, tracker, domain):
        text = free_text(tracker, "burn_location", open_answer=True)
        if text:
            return {"burn_location": text}
        place = _changed(tracker, "burn_location")
        if place is None and not tracker.get_slot("requested_slot") and common.intent_of(tracker) == "notify_burn":
            place = parsing.place_in(common.text_of(tracker))  # "... a brush pile behind the barn tomorrow"
        return {"burn_location": place} if place else {}

    async def extract_burn_confirmed(self, dispatcher, tracker, domain):
        if tracker.get_slot("requested_slot") != "burn_confirmed":
            return {}
        intent = common.intent_of(tracker)
        if intent == "affirm":
            return {"burn_confirmed": True}
        if intent in ("deny", "inform", "nlu_fallback") or parsing.asks_a_change(common.text_of(tracker)):
            return {"burn_confirmed": False}
        return {}


def _changed(tracker: Tracker, slot: str) -> str | None:
    """The new value of ``slot`` a correction gives while the form asks something else ("change the address to
    N1243 Hwy 51")."""
    asked = tracker.get_slot("requested_slot")
    if not asked or asked in (slot, "burn_confirmed") or tracker.get_slot(slot) is None:
        return None
    return parsing.new_value(slot, common.text_of(tracker))
