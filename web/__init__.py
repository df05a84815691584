"""The Flask front: the only process that faces the internet.

    create_app()  ->  blueprints: chat (residents' page, widget, public code pages), sms (Twilio webhook),
                      clerk (login-only quick reference; web/clerk/)

Configuration comes from the environment (see README): TOWN, DATABASE_URL, SECRET_KEY, RASA_PORT, RASA_URL,
TWILIO_AUTH_TOKEN, PUBLIC_URL, ASSISTANT_NOW, RECORDS_RETENTION_DAYS, EMBED_ORIGINS, COOKIE_SECURE, CHAT_RATE_LIMIT,
RATELIMIT_STORAGE_URI. RASA_URL may list several Rasa instances, comma-separated.
"""

from __future__ import annotations

import logging
import os
import secrets

from flask import Flask, current_app

from records import DEFAULT_RETENTION_DAYS, Store

from .rasa import parse_urls

log = logging.getLogger(__name__)


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    secret = os.environ.get("SECRET_KEY", "")
    if not secret:
        log.warning("SECRET_KEY is not set: using a random key (clerk sessions end when the app restarts)")
        secret = secrets.token_hex(32)
    rasa_port = os.environ.get("RASA_PORT", "5005")
    app.config.from_mapping(
        SECRET_KEY=secret,
        TOWN=os.environ.get("TOWN", "dunkirk"),
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),
        # one Rasa URL or several, comma-separated: each conversation is routed to one (web/rasa.py route)
        RASA_URL=parse_urls(os.environ.get("RASA_URL", "") or f"http://127.0.0.1:{rasa_port}"),
        RASA_TOKEN=os.environ.get("RASA_TOKEN", ""),
        RASA_TIMEOUT=float(os.environ.get("RASA_TIMEOUT", "8")),  # well inside Twilio's 15 s
        TWILIO_AUTH_TOKEN=os.environ.get("TWILIO_AUTH_TOKEN", ""),
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
        RETENTION_DAYS=int(os.environ.get("RECORDS_RETENTION_DAYS", DEFAULT_RETENTION_DAYS)),
        EMBED_ORIGINS=os.environ.get("EMBED_ORIGINS", "*"),  # sites allowed to frame the chat widget
        MAX_CONTENT_LENGTH=32 * 1024,  # requests larger than this get 413
        MAX_FORM_MEMORY_SIZE=32 * 1024,
        SESSION_COOKIE_NAME="clerk_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=_env_bool("COOKIE_SECURE", True),
        PERMANENT_SESSION_LIFETIME=8 * 3600,
        WTF_CSRF_TIME_LIMIT=8 * 3600,
        CHAT_RATE_LIMIT=os.environ.get("CHAT_RATE_LIMIT", "").strip(),  # "" = security.CHAT_LIMIT
        RATELIMIT_STORAGE_URI=os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        RATELIMIT_HEADERS_ENABLED=False,
        SMS_DUPLICATE_WAIT=10.0,  # seconds a retried webhook waits for the first attempt's reply
        STORE=None,
    )
    if test_config:
        app.config.update(test_config)
    proxies = int(app.config.get("TRUSTED_PROXIES") or os.environ.get("TRUSTED_PROXIES", "0") or 0)
    if proxies > 0:  # behind a reverse proxy: the resident's address (rate limits) from X-Forwarded-For
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)
    if not app.config["TWILIO_AUTH_TOKEN"]:
        log.warning("TWILIO_AUTH_TOKEN is not set: every SMS webhook request will be refused (403)")

    store = app.config["STORE"]
    if store is None:
        store = Store(app.config["DATABASE_URL"]) if app.config["DATABASE_URL"] else Store.from_env()
    app.extensions["records"] = store

    from . import chat, clerk, security, sms
    limiter = security.init_app(app)
    app.register_blueprint(chat.bp)
    app.register_blueprint(chat.api)
    app.register_blueprint(sms.bp)
    app.register_blueprint(clerk.bp)
    csrf = security.csrf
    csrf.exempt(sms.bp)  # Twilio signs its requests instead (X-Twilio-Signature)
    csrf.exempt(chat.api)  # the widget API uses no cookies: the server-issued conversation id is the only key
    limiter.exempt(sms.bp)  # Twilio must never see a 429
    # per address: generous for a person, a brake for a script (CHAT_RATE_LIMIT overrides it, e.g. for load runs)
    limiter.limit(security.chat_limit(app.config["CHAT_RATE_LIMIT"]))(chat.api)
    clerk.init_app(app, limiter)  # the login throttle, the CLI commands

    @app.context_processor
    def town_context():
        try:
            return {"town": get_town()}
        except Exception:  # an error page must render even if the knowledge base does not load
            log.exception("knowledge base did not load")
            return {"town": None}

    @app.get("/healthz")
    def healthz():
        return {"ok": True}

    return app


def get_store() -> Store:
    return current_app.extensions["records"]


def contacts() -> tuple[str, str]:
    """(the clerk, the fire department) as words for fallback replies: the office with what town.yml sets of
    its phone/email/hours, never a placeholder; works even if the knowledge base does not load."""
    try:
        t = get_town()
        fd = t.fire_department
        return str(t.clerk), (str(fd) if fd and not fd.placeholder else "the fire department (911 in an emergency)")
    except Exception:
        log.exception("knowledge base did not load; contacts fall back to generic words")
        return "the Town Clerk", "the fire department (911 in an emergency)"


def get_town():
    from knowledge import load_town
    key = current_app.config["TOWN"]
    cache = current_app.extensions.setdefault("towns", {})
    if key not in cache:
        cache[key] = load_town(key)
    return cache[key]
