"""CSRF, rate limiting, security headers and error pages that never show a stack trace."""

from __future__ import annotations

import functools
import ipaddress
import logging
import re

from flask import Flask, abort, jsonify, make_response, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFError, CSRFProtect
from itsdangerous import SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from limits import parse_many
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)

csrf = CSRFProtect()

#: Failed logins (401) allowed, POST only; a throttled client gets 429 and its password is not even checked.
#: Per client address (an IPv6 client by its /64) and username: one person guessing one account.
LOGIN_LIMIT = "5 per minute;30 per hour"
#: Per client address, whatever the username: one address trying many accounts. Looser, so that clerks behind
#: a proxy that is not trusted (TRUSTED_PROXIES unset: everyone has the proxy's address) are not all locked
#: out by one person's typos.
LOGIN_ADDRESS_LIMIT = "30 per minute;200 per hour"
#: Per username, from every address: a botnet guessing one account.
LOGIN_USERNAME_LIMIT = "20 per hour;100 per day"
#: Every failed login together: the last brake.
LOGIN_GLOBAL_LIMIT = "100 per minute;1000 per hour"
#: Chat API requests per client address (the default; CHAT_RATE_LIMIT overrides it, see chat_limit).
CHAT_LIMIT = "60 per minute"

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors {ancestors}")


def chat_limit(override: str = "") -> str:
    """The chat API's per-address limit: CHAT_RATE_LIMIT when set (Flask-Limiter notation, e.g.
    "100000 per minute" for a load run where every simulated resident comes from 127.0.0.1), else CHAT_LIMIT.
    A value Flask-Limiter cannot parse stops the app at start, not at the first request."""
    value = (override or "").strip() or CHAT_LIMIT
    try:
        if not parse_many(value):
            raise ValueError(value)
    except ValueError as exc:
        raise ValueError(f"CHAT_RATE_LIMIT {value!r} is not a rate limit like '60 per minute'") from exc
    return value


#: Seconds a signature's time may lie in the future: the clerk's session is signed on one web host and read on
#: another, whose clock may be a little behind (itsdangerous refuses any negative age: a one-second difference
#: ended the session). Also the login's own allowance (web/clerk/auth.py).
CLOCK_SKEW = 300


class _SkewTolerantSigner(TimestampSigner):
    """itsdangerous' timestamp signer, but a signature up to CLOCK_SKEW seconds "from the future" is valid."""

    def unsign(self, signed_value, max_age=None, return_timestamp=False):
        value, signed_at = super().unsign(signed_value, None, True)
        if max_age is not None:
            age = self.get_timestamp() - int(signed_at.timestamp())
            if age > max_age or age < -CLOCK_SKEW:
                raise SignatureExpired(f"Signature age {age} outside -{CLOCK_SKEW}..{max_age} seconds",
                                       payload=value, date_signed=signed_at)
        return (value, signed_at) if return_timestamp else value


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session with a signer that allows CLOCK_SKEW between web hosts."""

    def get_signing_serializer(self, app: Flask):
        if not app.secret_key:
            return None
        keys = [*(app.config.get("SECRET_KEY_FALLBACKS") or []), app.secret_key]
        return URLSafeTimedSerializer(keys, salt=self.salt, serializer=self.serializer, signer=_SkewTolerantSigner,
                                      signer_kwargs={"key_derivation": self.key_derivation,
                                                     "digest_method": self.digest_method})


#: Request JSON nested deeper than this is refused (the API's own bodies are one level deep).
MAX_JSON_DEPTH = 32
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestJSONProvider(DefaultJSONProvider):
    """Request bodies are parsed into valid Unicode or refused as malformed (``ValueError``, which
    ``request.get_json(silent=True)`` turns into None, so the view answers 400):

    - a ``\\ud800``-style escape of a lone surrogate decodes to a str that cannot be encoded as UTF-8 (the
      database, logs and Rasa all fail on it); it becomes U+FFFD, as Werkzeug does for form bodies;
    - deep nesting makes the json module raise RecursionError (not a ValueError: a 500); refused, as is any
      nesting deeper than MAX_JSON_DEPTH.
    """

    def loads(self, s, **kwargs):
        try:
            obj = super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        return _valid_unicode(obj)


def _valid_unicode(obj):
    def fix(v):
        return _LONE_SURROGATE.sub("\ufffd", v) if isinstance(v, str) else v

    root = [fix(obj)]
    todo = [(root, 0)]  # (container, depth); iterative, so no recursion limit
    while todo:
        box, depth = todo.pop()
        if depth > MAX_JSON_DEPTH:
            raise ValueError("JSON nested too deeply")
        if isinstance(box, list):
            for i, v in enumerate(box):
                box[i] = fix(v)
                if isinstance(v, (list, dict)):
                    todo.append((v, depth + 1))
        else:
            for k in [k for k in box if isinstance(k, str) and _LONE_SURROGATE.search(k)]:
                box[fix(k)] = box.pop(k)
            for k, v in box.items():
                box[k] = fix(v)
                if isinstance(v, (list, dict)):
                    todo.append((v, depth + 1))
    return root[0]


def _wants_json() -> bool:
    return request.path.startswith("/chat/api") or request.path == "/sms"


def client_key() -> str:
    """The client's address for rate limits: IPv4 as is, IPv6 by its /64 (one subscriber's whole prefix)."""
    raw = get_remote_address() or ""
    try:
        addr = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.ip_network(f"{addr}/64", strict=False))
    return str(addr)


def login_username() -> str:
    return (request.form.get("username") or "").strip().casefold()[:80]


#: An address with a failed login within this window is "failing" (see LoginThrottle).
LOGIN_FAILING_WINDOW = "1 per hour"

THROTTLED_MESSAGE = "Too many failed sign-ins. Please wait a few minutes and try again."


class LoginThrottle:
    """The login's four throttles, counting failed attempts only (NIST SP 800-63B 5.2.2: throttle, don't lock
    out), kept in the app's Flask-Limiter storage (memory, or Redis with RATELIMIT_STORAGE_URI):

    - per address and username (LOGIN_LIMIT) and per address (LOGIN_ADDRESS_LIMIT): over them, the address is
      refused (429) without its password being checked, right or wrong;
    - per username from every address (LOGIN_USERNAME_LIMIT) and every failure together (LOGIN_GLOBAL_LIMIT):
      over them, only an address that has not been failing (no failed login within LOGIN_FAILING_WINDOW) has its
      password checked: right, it signs in; wrong, it gets the same 429 and is failing from then on. So someone
      guessing the clerk's password from a few addresses, or failing at many accounts, no longer locks the real
      clerk (or every other clerk) out, and each further guess costs the guesser a fresh address.
    """

    def __init__(self, limiter: Limiter):
        self.limiter = limiter

    @staticmethod
    def _keys() -> list[tuple[str, str, str]]:
        addr, user = client_key(), login_username()
        return [(LOGIN_LIMIT, "addr-user", f"{addr}|{user}"), (LOGIN_ADDRESS_LIMIT, "addr", addr),
                (LOGIN_USERNAME_LIMIT, "user", user), (LOGIN_GLOBAL_LIMIT, "all", "all")]

    def _within(self, limit: str, scope: str, key: str) -> bool:
        return all(self.limiter.limiter.test(item, "login", scope, key) for item in parse_many(limit))

    def verdict(self) -> str:
        """"ok", "throttled" (refuse unchecked), or "clean-only" (check the password; a failure is refused)."""
        (al, ascope, akey), (bl, bscope, bkey), *accounts = self._keys()
        if not (self._within(al, ascope, akey) and self._within(bl, bscope, bkey)):
            return "throttled"
        if all(self._within(*k) for k in accounts):
            return "ok"
        return "clean-only" if self._within(LOGIN_FAILING_WINDOW, "failing", client_key()) else "throttled"

    def failed(self) -> None:
        for limit, scope, key in self._keys() + [(LOGIN_FAILING_WINDOW, "failing", client_key())]:
            for item in parse_many(limit):
                self.limiter.limiter.hit(item, "login", scope, key)


def throttle_login(limiter: Limiter, view):
    """The login view behind its throttles (LoginThrottle); a failed POST is the view's 401."""
    throttle = LoginThrottle(limiter)

    @functools.wraps(view)
    def wrapped(**kwargs):
        if request.method != "POST":
            return view(**kwargs)
        verdict = throttle.verdict()
        if verdict == "throttled":
            abort(429, THROTTLED_MESSAGE)
        response = make_response(view(**kwargs))
        if response.status_code == 401:
            throttle.failed()
            if verdict == "clean-only":
                abort(429, THROTTLED_MESSAGE)
        return response
    return wrapped


def init_app(app: Flask) -> Limiter:
    """CSRF on every form, headers, error pages; returns this app's rate limiter (one per app)."""
    csrf.init_app(app)
    app.session_interface = SessionInterface()
    app.json = RequestJSONProvider(app)
    limiter = Limiter(app=app, key_func=client_key, default_limits=[])
    app.extensions["web_limiter"] = limiter

    @app.after_request
    def headers(resp):
        embeddable = request.endpoint in ("chat.page",) and request.args.get("embed") == "1"
        origins = app.config["EMBED_ORIGINS"].strip() or "'none'"
        resp.headers.setdefault("Content-Security-Policy",
                                CSP.format(ancestors=origins if embeddable else "'none'"))
        if not embeddable:
            resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        resp.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if app.config["PUBLIC_URL"].startswith("https://"):
            resp.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        if request.path.startswith("/clerk"):
            resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return _error(400, "The form expired or was not sent from this site. Please go back and try again.")

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if e.code == 429 and request.path == "/sms":  # never; the SMS blueprint is exempt. Belt and braces.
            return _error(503, "Busy")
        return _error(e.code or 500, e.description or e.name, e)

    @app.errorhandler(Exception)
    def unhandled(e):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _error(500, InternalServerError.description)

    return limiter


def _error(code: int, message: str, exc: HTTPException | None = None):
    if _wants_json():
        resp = jsonify({"error": message})
    else:
        resp = render_template("error.html", code=code, message=message)
    if exc is not None and code == 405 and exc.get_response().headers.get("Allow"):
        return resp, code, {"Allow": exc.get_response().headers["Allow"]}
    return resp, code
