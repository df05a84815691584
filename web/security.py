"""CSRF, rate limiting, security headers and error pages that never show a stack trace."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)

csrf = CSRFProtect()

#: Login attempts allowed per client address (POST only).
LOGIN_LIMIT = "5 per minute;30 per hour"
#: Chat API requests per client address.
CHAT_LIMIT = "60 per minute"

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors {ancestors}")


def _wants_json() -> bool:
    return request.path.startswith("/chat/api") or request.path == "/sms"


def init_app(app: Flask) -> Limiter:
    """CSRF on every form, headers, error pages; returns this app's rate limiter (one per app)."""
    csrf.init_app(app)
    limiter = Limiter(app=app, key_func=get_remote_address, default_limits=[])
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
