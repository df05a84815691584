"""The residents' chat: a standalone page, an embeddable widget (one script tag), the JSON API the page
talks to, and public pages for each code section (where citations link)."""

from __future__ import annotations

import logging
import re

from flask import Blueprint, abort, current_app, jsonify, render_template, request, url_for

from knowledge import offer

from . import contacts, get_store, get_town
from records.failure_log import record_failure
from .rasa import PAYLOAD, BotMessage, Button, RasaUnavailable, clean_user_text, send
from .text import segments

log = logging.getLogger(__name__)

bp = Blueprint("chat", __name__)
api = Blueprint("chat_api", __name__, url_prefix="/chat/api")

MAX_TEXT = 500
#: the ids new_conversation() issues are URL-safe tokens
CONVERSATION_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")

def section_numbers() -> tuple[str, ...]:
    try:
        return tuple(get_town().sections)
    except Exception:  # no links rather than no answer
        log.exception("knowledge base did not load")
        return ()


def section_href(number: str) -> str:
    return url_for("chat.section", number=number)


def answer_view(answer: dict, nums: tuple[str, ...]) -> dict:
    """An answer's parts for the chat page: the lead is the message; the steps, the sources and what our copy
    does not say go in disclosures (closed), each text as link segments."""
    def segs(text: str) -> list[dict]:
        return segments(text, nums, section_href)
    sources = []
    for s in answer["sources"]:
        item = {"label": s["label"], "ref": s["ref"], "quote": s["quote"]}
        if s["section"] in nums:
            item["href"] = section_href(s["section"])
        sources.append(item)
    return {"lead": segs(answer["lead"]), "rest": segs(answer["rest"]) if answer["rest"] else [],
            "steps": [segs(s["text"]) for s in answer["steps"]], "sources": sources, "gaps": answer["gaps"],
            "caveats": [segs(c) for c in answer["caveats"]]}


def render_messages(messages: list[BotMessage]) -> list[dict]:
    nums = section_numbers()
    out = []
    for m in messages:
        item = {"parts": segments(m.answer["lead"] if m.answer else m.text, nums, section_href), "text": m.text,
                "buttons": [b.as_dict() for b in m.buttons]}
        if m.answer:
            item["answer"] = answer_view(m.answer, nums)
        out.append(item)
    return out


def unavailable_message() -> BotMessage:
    clerk, fire = contacts()
    try:
        town = get_town()
        who = town.contact_line()
    except Exception:
        town, who = None, f"Town Clerk: {clerk}"
    return BotMessage(text=("Sorry, the assistant is not answering right now. Please try again in a few minutes, "
                            f"or contact the {who}. {offer.unavailable(town, fire)}").strip())


def greeting() -> BotMessage:
    """The first message: what the town's code covers (knowledge/offer.yml), with starter questions on those
    topics only, sent as the resident's own words (never as an intent)."""
    try:
        town = get_town()
    except Exception:
        log.exception("knowledge base did not load")
        return BotMessage(text="Hello! I answer questions about the local ordinances. Type a question.")
    return BotMessage(text=offer.greeting(town), buttons=[Button(s.title, s.ask) for s in offer.starters(town)])


# ---- pages -------------------------------------------------------------------------------------------


@bp.get("/")
@bp.get("/chat")
def page():
    embed = request.args.get("embed") == "1"
    town = get_town()
    return render_template("chat/page.html", town=town, embed=embed, subjects=offer.subjects(town),
                           examples=offer.examples(town))


@bp.get("/widget.js")
def widget():
    resp = current_app.send_static_file("widget.js")
    resp.headers["Access-Control-Allow-Origin"] = "*"
    resp.headers["Cache-Control"] = "public, max-age=3600"
    return resp


@bp.get("/code/")
def code_index():
    t = get_town()
    return render_template("chat/code_index.html", town=t, sections=list(t.sections.values()))


@bp.get("/code/<path:number>")
def section(number: str):
    t = get_town()
    sec = t.sections.get(number)
    if sec is None:
        abort(404, "No such section in our copy of the code.")
    gaps = [g for g in t.gaps if g.section.split("(")[0] == number]
    return render_template("chat/section.html", town=t, section=sec, gaps=gaps)


# ---- API ---------------------------------------------------------------------------------------------


@api.post("/start")
def start():
    store = get_store()
    hello = greeting()
    try:
        cid = store.new_conversation(current_app.config["TOWN"], "web")
        store.set_offered(cid, [b.as_dict() for b in hello.buttons])
        store.log_message(cid, current_app.config["TOWN"], "web", "bot", hello.text)
    except Exception as exc:  # noqa: BLE001 - no conversation can be recorded: say so instead of a 500
        log.exception("chat: could not start a conversation")
        record_failure("database", "could not start a web chat conversation", exc)
        return jsonify({"conversation_id": None, "messages": render_messages([unavailable_message()])})
    return jsonify({"conversation_id": cid, "messages": render_messages([hello])})


@api.post("/message")
def message():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "Send JSON with conversation_id and text.")
    cid = data.get("conversation_id")
    store = get_store()
    try:
        known = isinstance(cid, str) and CONVERSATION_ID.fullmatch(cid) and store.conversation_exists(cid)
    except Exception as exc:  # noqa: BLE001
        return _store_failed("could not look up a web chat conversation", exc)
    if not known:
        abort(400, "Unknown conversation; start a new one.")
    town = current_app.config["TOWN"]

    if "payload" in data:
        payload = data.get("payload")
        try:
            offered = store.offered(cid)
        except Exception as exc:  # noqa: BLE001
            return _store_failed("could not read the offered buttons", exc, cid)
        chosen = next((b for b in offered if b.get("payload") == payload), None)
        if not isinstance(payload, str) or chosen is None:
            abort(400, "That choice is no longer offered.")
        shown = chosen.get("title", "")
        to_rasa = payload if PAYLOAD.match(payload) else clean_user_text(payload)
    else:
        raw = data.get("text")
        if not isinstance(raw, str):
            abort(400, "Send the question as text.")
        if len(raw) > MAX_TEXT:
            abort(400, f"Please keep questions under {MAX_TEXT} characters.")
        shown = raw.strip()
        to_rasa = clean_user_text(raw)
    try:  # the resident's words are a public record: a message we cannot record is not sent on
        store.log_message(cid, town, "web", "user", shown)
    except Exception as exc:  # noqa: BLE001
        return _store_failed("could not record a web chat message", exc, cid)
    if not to_rasa:
        replies = [BotMessage(text="Please type a question in words.")]
    else:
        try:
            replies = send(current_app.config["RASA_URL"], cid, to_rasa, {"channel": "web", "town": town},
                           current_app.config["RASA_TIMEOUT"])
        except RasaUnavailable as exc:
            record_failure("rasa", "Rasa did not answer a web chat message (down, slow, or the action server is "
                           "down)", str(exc))
            replies = [unavailable_message()]
    try:
        store.set_offered(cid, [b.as_dict() for m in replies for b in m.buttons])
        for m in replies:
            if m.text:
                store.log_message(cid, town, "web", "bot", m.text)
    except Exception as exc:  # noqa: BLE001 - the answer exists; only its transcript line is missing
        log.exception("chat: could not record the reply")
        record_failure("database", "could not record a web chat reply", exc)
        replies = [BotMessage(text=m.text) for m in replies]  # buttons not on the allow-list: do not offer them
    return jsonify({"conversation_id": cid, "messages": render_messages(replies)})


def _store_failed(what: str, exc: Exception, cid: str | None = None):
    """The records store failed: the fallback message, as a normal answer (200), never a 500."""
    log.exception("chat: %s", what)
    record_failure("database", what, exc)
    return jsonify({"conversation_id": cid, "messages": render_messages([unavailable_message()])})
