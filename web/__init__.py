"""The Flask front: the only process that faces the internet.

    create_app()  ->  blueprints: chat (residents' page, widget, public code pages), sms (Twilio webhook),
                      clerk (login-only quick reference; web/clerk/)

Configuration is read from the environment once, into the app's config (``config_from_env``; defaults in
records/settings.py; see docs/configuration.md). RASA_URL may list several Rasa instances, comma-separated.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from flask import Flask, current_app

from records import Store, settings

from . import keys
from .rasa import parse_urls

log = logging.getLogger(__name__)


def config_from_env() -> dict:
    """The app's configuration, read once from the environment (records/settings.py has the defaults)."""
    env, env_int, env_bool = settings.env, settings.env_int, settings.env_bool
    return dict(
        SECRET_KEY=env("SECRET_KEY"),  # "" = generated once into SECRET_KEY_FILE (web/keys.py)
        SECRET_KEY_FILE=str(settings.secret_key_file()),
        SESSION_KEY_VERSION=env_int("SESSION_KEY_VERSION", 1),  # raise it to end every clerk session
        TOWN=settings.town(),
        DATABASE_URL=settings.database_url(),
        # one Rasa URL or several, comma-separated: each conversation is routed to one (web/rasa.py route)
        RASA_URL=parse_urls(env("RASA_URL") or f"http://127.0.0.1:{settings.rasa_port()}"),
        RASA_TOKEN=env("RASA_TOKEN"),
        RASA_TIMEOUT=float(env("RASA_TIMEOUT", "8")),  # well inside Twilio's 15 s
        ACTION_URL=settings.action_url(),
        TWILIO_AUTH_TOKEN=env("TWILIO_AUTH_TOKEN"),
        TWILIO_ACCOUNT_SID=env("TWILIO_ACCOUNT_SID"),  # with TWILIO_FROM: the alert sender's (records/alert_sender.py)
        TWILIO_FROM=env("TWILIO_FROM"),
        FIRE_DEPARTMENT_SMS=env("FIRE_DEPARTMENT_SMS"),  # "" = town.yml fire_department.phone (web/alerts.py)
        PUBLIC_URL=env("PUBLIC_URL"),  # the public base URL, or the full webhook URL (.../sms)
        TRUSTED_PROXIES=env_int("TRUSTED_PROXIES", 0),
        RETENTION_DAYS=settings.retention_days(),
        PURGE_SCHEDULE=env_bool("PURGE_SCHEDULE", True),  # the daily retention purge from the web process
        EMBED_ORIGINS=os.environ.get("EMBED_ORIGINS", "*"),  # sites allowed to frame the chat widget
        SESSION_COOKIE_SECURE=env_bool("COOKIE_SECURE", True),
        SESSION_MAX_HOURS=float(env("SESSION_MAX_HOURS", str(settings.DEFAULT_SESSION_HOURS))),
        CHAT_RATE_LIMIT=env("CHAT_RATE_LIMIT"),  # "" = security.CHAT_LIMIT
        RATELIMIT_STORAGE_URI=env("RATELIMIT_STORAGE_URI", "memory://"),
    )


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    app.config.from_mapping(
        **config_from_env(),
        MAX_CONTENT_LENGTH=32 * 1024,  # requests larger than this get 413
        MAX_FORM_MEMORY_SIZE=32 * 1024,
        SESSION_COOKIE_NAME="clerk_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=8 * 3600,  # idle limit; SESSION_MAX_HOURS ends a session in any case
        # a form's token is good while its session is (8 h idle, SESSION_MAX_HOURS in all): no timestamp of its own,
        # which a web host whose clock is a second behind the one that rendered the form would refuse
        WTF_CSRF_TIME_LIMIT=None,
        RATELIMIT_HEADERS_ENABLED=False,
        SMS_DUPLICATE_WAIT=10.0,  # seconds a retried webhook waits for the first attempt's reply
        STORE=None,
    )
    if test_config:
        app.config.update(test_config)
    _derive_keys(app)
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:  # behind a reverse proxy: the resident's address (rate limits) from X-Forwarded-For
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)
    if not app.config["TWILIO_AUTH_TOKEN"]:
        log.warning("TWILIO_AUTH_TOKEN is not set: every SMS webhook request will be refused (403)")

    store = app.config["STORE"]
    if store is None:
        store = Store(app.config["DATABASE_URL"]) if app.config["DATABASE_URL"] else Store.from_env()
    app.extensions["records"] = store

    if app.config["PURGE_SCHEDULE"] and not app.config.get("TESTING"):
        from . import purge_schedule
        purge_schedule.start(store, int(app.config["RETENTION_DAYS"]))

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


def _derive_keys(app: Flask) -> None:
    """SECRET_KEY (or the generated one) is the master; the session and the SMS ids get keys of their own. An
    empty or short key file stops the start (keys.SecretKeyError): never a master key of ""."""
    master = (app.config["SECRET_KEY"] or "").strip()
    if master and len(master) < keys.MIN_KEY_CHARS:
        log.warning("SECRET_KEY is shorter than %d characters: use a long random value", keys.MIN_KEY_CHARS)
    master = master or keys.load_or_create_master(Path(app.config["SECRET_KEY_FILE"]))
    app.config["SECRET_KEY"] = keys.derive(master, keys.session_label(int(app.config["SESSION_KEY_VERSION"])))
    app.config["SMS_ID_KEY"] = keys.derive(master, keys.SMS_ID_LABEL)


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
    """The town this site serves, with the fee schedule and contacts the clerk keeps on the web (records/kept.py)."""
    from knowledge import load_town
    from records.kept import town_as_kept
    key = current_app.config["TOWN"]
    cache = current_app.extensions.setdefault("towns", {})
    if key not in cache:
        cache[key] = load_town(key)
    store = current_app.extensions.get("records")
    return town_as_kept(cache[key], store) if store is not None else cache[key]
