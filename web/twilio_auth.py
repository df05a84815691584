"""Twilio's signature on the SMS webhook and the status callback (X-Twilio-Signature, ``RequestValidator``),
and what happens to a request that fails it: 403, a log line with the reason (never the body, the sender or
the signature), a count by reason, and an entry in the failure log (records/failure_log.py), which the clerk's
System status page turns into a red line. Twilio does not retry a 403, so a PUBLIC_URL that is not exactly the
address Twilio signs (http for https, a missing path prefix) loses every text silently unless it is shown.

Diagnosis: when the signature fails for PUBLIC_URL, the same signature is tried against the other scheme and
against the address this request arrived at; a match means the token is right and PUBLIC_URL is wrong, and the
log says which address Twilio signed. Those addresses are tried for the diagnosis only, never accepted.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit, urlunsplit

from flask import abort, current_app, request
from twilio.request_validator import RequestValidator

from records.failure_log import record_failure

log = logging.getLogger(__name__)

COMPONENT = "twilio-webhook"
#: reasons, by the kind a refusal is counted under
NO_TOKEN, NO_URL, UNSIGNED, URL_MISMATCH, BAD_SIGNATURE = ("no-token", "no-public-url", "unsigned",
                                                           "public-url-mismatch", "bad-signature")
#: refusals that a real Twilio request meets when the deployment is misconfigured (an unsigned request is not
#: from Twilio: internet noise, counted but not shown red)
MISCONFIGURED = (NO_TOKEN, NO_URL, URL_MISMATCH, BAD_SIGNATURE)
WINDOW = timedelta(hours=24)

_lock = threading.Lock()


def _state() -> dict:
    """This app's counts: refusals by kind, the misconfigured refusals of the last 24 h, the last accepted."""
    with _lock:
        return current_app.extensions.setdefault("twilio_auth", {"refused": Counter(), "recent": deque(maxlen=1000),
                                                                 "accepted": None})


def refusals() -> Counter:
    """This process's refused requests by kind (no-token, no-public-url, unsigned, public-url-mismatch,
    bad-signature)."""
    return Counter(_state()["refused"])


def _flip_scheme(url: str) -> str:
    parts = urlsplit(url)
    other = {"https": "http", "http": "https"}.get(parts.scheme)
    return urlunsplit(parts._replace(scheme=other)) if other else ""


def _without_query(url: str) -> str:
    return url.split("?", 1)[0]


def _diagnose(validator: RequestValidator, url: str, params: dict, signature: str) -> tuple[str, str]:
    """(kind, reason) of a signature that did not match ``url``."""
    query = ("?" + request.query_string.decode("latin-1")) if request.query_string else ""
    seen = request.base_url + query
    for candidate in (_flip_scheme(url), seen, _flip_scheme(seen)):
        if candidate and candidate != url and validator.validate(candidate, params, signature):
            return URL_MISMATCH, (f"PUBLIC_URL gives {_without_query(url)} but Twilio signed "
                                  f"{_without_query(candidate)}: set PUBLIC_URL to the address Twilio posts to")
    return BAD_SIGNATURE, (f"the signature does not match {_without_query(url)} (a wrong TWILIO_AUTH_TOKEN or "
                           "PUBLIC_URL, or a forged request)")


def refuse(what: str, kind: str, reason: str):
    """Count, log and record one refused request, then answer 403. ``what``: "SMS webhook" / "status callback"."""
    state = _state()
    with _lock:
        state["refused"][kind] += 1
        total = state["refused"][kind]
        if kind in MISCONFIGURED:
            state["recent"].append((datetime.now(timezone.utc), f"{what} refused: {reason}"))
    log.warning("%s refused (403, %s #%d in this process): %s", what, kind, total, reason)
    record_failure(COMPONENT, f"{what} refused: {reason}", kind)
    abort(403, "Invalid or missing signature.")


def verify(what: str, url: str) -> None:
    """The request is signed by Twilio for ``url`` (the address it was called at, with its query), or 403."""
    token = current_app.config["TWILIO_AUTH_TOKEN"]
    signature = request.headers.get("X-Twilio-Signature", "")
    if not token:
        refuse(what, NO_TOKEN, "TWILIO_AUTH_TOKEN is not set, so no request can be checked")
    if not url:
        refuse(what, NO_URL, "PUBLIC_URL is not set, so the address Twilio signed is not known")
    if not signature:
        refuse(what, UNSIGNED, "no X-Twilio-Signature header (not sent by Twilio)")
    params = request.form.to_dict(flat=True)
    validator = RequestValidator(token)
    if not validator.validate(url, params, signature):
        refuse(what, *_diagnose(validator, url, params, signature))
    state = _state()
    with _lock:
        state["accepted"] = datetime.now(timezone.utc)


def status(now: datetime | None = None) -> tuple[bool, str]:
    """For the System status page: (ok, detail). Not ok while TWILIO_AUTH_TOKEN or PUBLIC_URL is missing, or when
    this process refused a request as misconfigured in the last 24 hours and none has passed the check since
    (the refusals are also in the failure log, which outlives a restart)."""
    cfg = current_app.config
    missing = [n for n in ("TWILIO_AUTH_TOKEN", "PUBLIC_URL") if not cfg.get(n)]
    if missing:
        return False, f"{' and '.join(missing)} not set: every text message from residents is refused (403)"
    now = now or datetime.now(timezone.utc)
    state = _state()
    with _lock:
        accepted = state["accepted"]
        recent = [(at, what) for at, what in state["recent"] if at >= now - WINDOW and (not accepted or at > accepted)]
        unsigned = state["refused"][UNSIGNED]
    noise = f" ({unsigned} unsigned request(s) refused: not from Twilio)" if unsigned else ""
    if recent:
        return False, (f"{len(recent)} request(s) from Twilio refused in the last 24 hours, none accepted since; "
                       f"latest: {recent[-1][1]}. Twilio does not retry: those texts are lost.{noise}")
    return True, ("signatures checked" + (f"; last accepted {accepted:%Y-%m-%d %H:%M} UTC" if accepted else "")
                  + noise)
