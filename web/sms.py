"""The SMS webhook, Twilio conventions: form POST (From, To, Body, MessageSid), X-Twilio-Signature checked,
TwiML reply. Every message is stored by MessageSid before anything else; a retry gets the same reply.

If the database cannot take the message, it is spooled durably (web/spool.py) and answered with the fallback
text; if it cannot be spooled either, the answer is 503 so that Twilio retries it. Nothing is acknowledged
(HTTP 200) that is not stored or spooled."""

from __future__ import annotations

import logging
import time
import unicodedata
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, request
from twilio.twiml.messaging_response import MessagingResponse

from knowledge import offer

from . import contacts, get_store, get_town, twilio_auth
from records.failure_log import describe, record_failure
from .keys import sms_sender_id
from .rasa import PAYLOAD, RasaUnavailable, clean_user_text, send
from .text import answer_details, reply_pages, sms_pages, to_gsm7

log = logging.getLogger(__name__)

bp = Blueprint("sms", __name__)

STOP_WORDS = {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"}
START_WORDS = {"START", "UNSTOP", "OPTIN"}  # and YES, but only from an opted-out number
HELP_WORDS = {"HELP", "INFO"}
MORE_WORDS = {"MORE", "NEXT"}


def keyword(body: str) -> str:
    """The message as a keyword (STOP, START, HELP, MORE, a number): NFKC-folded (fullwidth letters), without
    invisible format characters (a byte-order mark, zero-width spaces and joiners: some phones put one before
    the text), spaces and trailing . or !, upper-cased. "\ufeffStop" is a STOP."""
    text = unicodedata.normalize("NFKC", body or "")
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return text.strip().strip(".!").strip().upper()


def sender_id(phone: str) -> str:
    """The Rasa sender for a phone number: a keyed hash (the SMS id key, web/keys.py), not the number itself."""
    return sms_sender_id(current_app.config["SMS_ID_KEY"], phone)


def twiml(text: str | None) -> Response:
    resp = MessagingResponse()
    if text:
        resp.message(text)
    return Response(str(resp), mimetype="application/xml")


def _with_query(url: str) -> str:
    return url + "?" + request.query_string.decode("latin-1") if url and request.query_string else url


def check_signature() -> None:
    """The webhook request is Twilio's, signed for PUBLIC_URL; else 403, logged and counted (web/twilio_auth.py)."""
    twilio_auth.verify("SMS webhook", _with_query(webhook_url(current_app.config["PUBLIC_URL"])))


def webhook_url(public_url: str) -> str:
    """The URL Twilio signed: PUBLIC_URL may be the public base URL (``https://host`` or ``https://host/prefix``)
    or the full webhook URL (``https://host/sms``); either way, the URL of this request as Twilio called it."""
    base = public_url.strip().split("?", 1)[0].rstrip("/")
    if not base:
        return ""
    path = request.path.rstrip("/")
    return base if urlsplit(base).path.rstrip("/").endswith(path) else base + request.path


def help_text() -> str:
    """HELP: what the town's code covers and whom to contact (knowledge/offer.yml), one SMS."""
    clerk, fire = contacts()
    return sms_pages(offer.sms_help(get_town(), clerk, fire))[0]


def stop_text() -> str:
    return to_gsm7(f"You are unsubscribed from {get_town().short_name} ordinance assistant messages and will "
                   "receive no more. Reply START to resubscribe.")


def start_text() -> str:
    return to_gsm7(f"You are subscribed again to the {get_town().short_name} ordinance assistant. "
                   "Reply HELP for help, STOP to opt out.")


def unavailable_text() -> str:
    clerk, fire = contacts()
    try:
        town = get_town()
    except Exception:
        town = None
    services = offer.unavailable(town, fire)
    return sms_pages(f"Sorry, the assistant can't answer right now. {services + ' ' if services else ''}"
                     f"Your message is saved for the Clerk ({clerk}).")[0]


@bp.record_once
def _replay_spool_at_start(state) -> None:
    """Messages spooled before a restart are replayed when the web process starts."""
    from . import spool
    if spool.pending_count():
        spool.start_replayer(state.app.extensions["records"])


@bp.post("/sms/status")
def delivery_status():
    """Twilio's status callback for an alert (records/alert_sender.py sets it to /sms/status?alert=ID):
    delivered, failed or undelivered is recorded; the clerk sees who could not be reached."""
    from records.alert_sender import status_callback_url
    alert = request.args.get("alert", "")
    url = status_callback_url(current_app.config["PUBLIC_URL"], 0).rsplit("?", 1)[0]
    twilio_auth.verify("status callback", _with_query(url))
    sid, status = request.form.get("MessageSid", ""), request.form.get("MessageStatus", "")
    if not (alert.isascii() and alert.isdigit()) or len(alert) > 12 or not sid or len(sid) > 64 or len(status) > 20:
        abort(400, "alert, MessageSid and MessageStatus are required.")
    code = request.form.get("ErrorCode", "")[:10]
    get_store().alert_delivery(int(alert), sid, status, f"Twilio error {code}" if code else "")
    return Response("", status=204)


@bp.post("/sms")
def inbound():
    check_signature()
    form = request.form
    sid, from_, to, body = (form.get("MessageSid", ""), form.get("From", ""), form.get("To", ""),
                            form.get("Body", ""))
    if (not sid or not from_ or len(sid) > 64 or len(from_) > 40 or len(to) > 40
            or "\x00" in sid + from_ + to):
        abort(400, "MessageSid and From are required; From and To are phone numbers.")
    store = get_store()
    try:
        record, created = store.save_inbound_sms(sid, from_, to, body, town=current_app.config["TOWN"],
                                                 conversation_id=sender_id(from_))  # before anything else
    except Exception as exc:  # noqa: BLE001 - locked, read-only, full or down: spool it or refuse it
        return _spool_or_refuse(sid, from_, to, body, exc)
    if not created:
        try:
            return twiml(_reply_of_first_attempt(sid))
        except Exception as exc:  # noqa: BLE001 - the message is stored; the retry gets the fallback
            log.error("SMS %s: could not read the first attempt's reply (%s)", sid, describe(exc))
            record_failure("database", "could not read a stored SMS reply", exc)
            return twiml(unavailable_text())
    try:
        reply = answer(from_, body)
    except Exception as exc:  # noqa: BLE001 - the resident still gets an answer within Twilio's 15 s
        log.error("SMS %s: could not answer (%s)", sid, describe(exc))
        record_failure("database" if _is_db_error(exc) else "web", "could not answer an SMS", exc)
        reply = unavailable_text()
    try:
        store.set_sms_reply(sid, reply or "")
    except Exception as exc:  # noqa: BLE001 - the message itself is stored; only the reply is not kept
        log.error("SMS %s: could not store the reply (%s)", sid, describe(exc))
        record_failure("database", "could not store an SMS reply", exc)
    return twiml(reply)


def _reply_of_first_attempt(sid: str) -> str | None:
    """A retried webhook: the reply the first attempt gave (waiting briefly if it is still being worked on).
    The message is never sent to Rasa twice."""
    store = get_store()
    deadline = time.monotonic() + current_app.config["SMS_DUPLICATE_WAIT"]
    while True:
        rec = store.get_inbound_sms(sid)
        if rec and rec.reply is not None:
            return rec.reply or None
        if time.monotonic() >= deadline:
            return unavailable_text()
        time.sleep(0.2)


def _is_db_error(exc: Exception) -> bool:
    from sqlalchemy.exc import SQLAlchemyError
    return isinstance(exc, SQLAlchemyError)


def _spool_or_refuse(sid: str, from_: str, to: str, body: str, exc: Exception) -> Response:
    """The database cannot take the message. Acknowledge it only once it is durable somewhere: in the spool
    (replayed into the database when it is back), with the fallback reply; if even the spool cannot be
    written, 503 -- Twilio then does not count it as delivered and retries it."""
    from . import spool
    log.error("SMS %s: the database did not take it (%s); spooling it", sid, describe(exc))
    record_failure("database", "an inbound SMS could not be stored; spooled", exc)
    reply = unavailable_text()
    try:
        spool.write(sid, from_, to, body, reply, town=current_app.config["TOWN"], conversation_id=sender_id(from_))
    except Exception as spool_exc:  # noqa: BLE001
        log.error("SMS %s: could not spool it either (%s); answering 503", sid, describe(spool_exc))
        record_failure("spool", "an inbound SMS could be neither stored nor spooled; answered 503",
                       spool_exc)
        return Response("Temporarily unable to accept the message.", status=503, headers={"Retry-After": "60"},
                        mimetype="text/plain")
    spool.start_replayer(get_store())
    return twiml(reply)


def answer(from_: str, body: str) -> str | None:
    """The reply text (None: send no message)."""
    store = get_store()
    town = current_app.config["TOWN"]
    cid = sender_id(from_)
    store.ensure_conversation(cid, town, "sms")
    word = keyword(body)
    store.log_message(cid, town, "sms", "user", body)
    if word in STOP_WORDS:
        store.set_sms_opt_out(from_, True)
        return _log(cid, stop_text())
    if word in START_WORDS or (word == "YES" and store.sms_opted_out(from_)):
        store.set_sms_opt_out(from_, False)
        return _log(cid, start_text())
    if word in HELP_WORDS:
        return _log(cid, help_text())
    if store.sms_opted_out(from_):
        return None  # opted out: keep the message for the clerk, send nothing
    if word in MORE_WORDS:
        page = store.pop_pending_page(cid)
        if page:
            return _log(cid, page)
        # no page left: Rasa's "more" says that is all

    offered = store.offered(cid)
    if word.isascii() and word.isdigit() and len(word) <= 2 and 1 <= int(word) <= len(offered):
        payload = offered[int(word) - 1]["payload"]
        message = payload if PAYLOAD.match(payload) else clean_user_text(payload)
    else:
        message = clean_user_text(body)
    if not message:
        return _log(cid, help_text())
    try:
        replies = send(current_app.config["RASA_URL"], cid, message, {"channel": "sms"},
                       current_app.config["RASA_TIMEOUT"])
    except RasaUnavailable as exc:
        record_failure("rasa", "Rasa did not answer an SMS (down, slow, or the action server is down)", str(exc))
        store.set_offered(cid, [])
        store.set_pending_pages(cid, [])
        return _log(cid, unavailable_text())
    buttons = [b for m in replies for b in m.buttons][:9]
    # an answer's lead now, its details on "MORE" (the pages are kept here, the one place that pages answers)
    text = "\n".join(m.answer["lead"] if m.answer else m.text for m in replies if m.answer or m.text)
    details = "\n".join(answer_details(m.answer) for m in replies if m.answer)
    if buttons:
        text += "\nReply " + ", ".join(f"{i} for {b.title}" for i, b in enumerate(buttons, 1)) + "."
    pages = reply_pages(text, details)
    store.set_offered(cid, [b.as_dict() for b in buttons])
    store.set_pending_pages(cid, pages[1:])
    return _log(cid, pages[0])


def _log(cid: str, text: str) -> str:
    get_store().log_message(cid, current_app.config["TOWN"], "sms", "bot", text)
    return text
