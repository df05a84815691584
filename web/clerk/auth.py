"""Clerk login and logout on the clerk blueprint, the clerk loaded for every request, ``login_required`` for
every clerk page, and the login throttle (web/security.py throttle_login: failed POSTs only)."""

from __future__ import annotations

import functools
import time
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, redirect, render_template, request, session, url_for
from flask_limiter import Limiter
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Length

from .. import get_store, security
from . import bp


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired(), Length(max=80)],
                           render_kw={"autocomplete": "username"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)],
                             render_kw={"autocomplete": "current-password"})


class EmptyForm(FlaskForm):
    """A form with only the CSRF token (logout)."""


def login_required(view):
    """A clerk page: clerk accounts only (a Fire Department account gets 403)."""
    return role_required("clerk")(view)


def role_required(*roles: str):
    """A page for signed-in accounts of ``roles`` ("clerk", "fire"); others get 403, no one signed in the login."""
    def decorate(view):
        @functools.wraps(view)
        def wrapped(**kwargs):
            if g.get("clerk") is None:
                return redirect(url_for("clerk.login", next=request.full_path.rstrip("?")))
            if getattr(g.clerk, "role", "clerk") not in roles:
                abort(403)
            return view(**kwargs)
        return wrapped
    return decorate


#: Seconds a login time may lie in the future: the web hosts' clocks differ a little (the session was signed on
#: one, is read on another); a login stamped further ahead than this is refused.
CLOCK_SKEW = security.CLOCK_SKEW


def _session_valid(clerk) -> bool:
    """The session is of the account's current generation (no logout or password change since it was made) and
    younger than SESSION_MAX_HOURS since the login, however much it was used (CLOCK_SKEW allowed either way)."""
    login_at = session.get("login_at")
    if clerk is None or session.get("gen") != clerk.session_generation or not isinstance(login_at, (int, float)):
        return False
    return -CLOCK_SKEW <= time.time() - login_at < float(current_app.config["SESSION_MAX_HOURS"]) * 3600


@bp.before_app_request
def load_clerk():
    cid = session.get("clerk_id")
    try:
        clerk = get_store().get_clerk(cid) if isinstance(cid, int) else None
    except Exception:  # noqa: BLE001 - the database cannot be read: public pages and the webhooks still work
        current_app.logger.error("could not load the signed-in clerk")
        clerk = None
    if cid is not None and clerk is not None and (not _session_valid(clerk)
                                                  or clerk.town != current_app.config["TOWN"]):
        session.clear()  # expired, ended, or an account of another town sharing the database
        clerk = None
    g.clerk = clerk


@bp.app_context_processor
def signed_in_clerk():
    return {"clerk": g.get("clerk"), "logout_form": EmptyForm() if g.get("clerk") else None}


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/clerk") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("clerk.home")


def _malformed_next(target: str | None) -> bool:
    """A ``next`` with a control character (CR/LF would split the Location header: a 500) is refused (400)."""
    return bool(target) and any(ord(c) < 32 or ord(c) == 127 for c in target)


@bp.route("/login", methods=["GET", "POST"])
def login():
    if _malformed_next(request.args.get("next")):
        abort(400, "The page to go to after signing in is not a valid address.")
    form = LoginForm()
    error = None
    if form.validate_on_submit():
        clerk = get_store().verify_clerk(form.username.data, form.password.data, town=current_app.config["TOWN"])
        if clerk:
            session.clear()  # no session fixation
            session.permanent = True
            session["clerk_id"] = clerk.id
            session["gen"] = clerk.session_generation
            session["login_at"] = int(time.time())
            if clerk.role == "fire" and not request.args.get("next", "").startswith("/clerk/fire"):
                return redirect(url_for("clerk.fire.index"))
            return redirect(_safe_next(request.args.get("next")))
        error = "Wrong username or password."
    elif request.method == "POST":
        error = "Enter your username and password."
    return render_template("clerk/login.html", form=form, error=error), (401 if error else 200)


@bp.post("/logout")
def logout():
    form = EmptyForm()
    if form.validate_on_submit():
        if g.get("clerk") is not None:
            get_store().end_clerk_sessions(g.clerk.id)  # a copy of the cookie made before logout is dead too
        session.clear()
    return redirect(url_for("clerk.login"))


def throttle_login(app: Flask, limiter: Limiter) -> None:
    """Limit failed login POSTs per address and username, per address, per username and overall
    (security.LoginThrottle: throttled, never locked out); one limiter per app, so the wrapped view replaces the
    registered one."""
    app.view_functions["clerk.login"] = security.throttle_login(limiter, login)
