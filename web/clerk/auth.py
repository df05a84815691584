"""Clerk login and logout on the clerk blueprint, the clerk loaded for every request, ``login_required`` for
every clerk page, and the login throttle (security.LOGIN_LIMIT per address, POST only)."""

from __future__ import annotations

import functools
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


@bp.before_app_request
def load_clerk():
    cid = session.get("clerk_id")
    try:
        g.clerk = get_store().get_clerk(cid) if isinstance(cid, int) else None
    except Exception:  # noqa: BLE001 - the database cannot be read: public pages and the webhooks still work
        current_app.logger.exception("could not load the signed-in clerk")
        g.clerk = None


@bp.app_context_processor
def signed_in_clerk():
    return {"clerk": g.get("clerk"), "logout_form": EmptyForm() if g.get("clerk") else None}


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/clerk") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("clerk.home")


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    error = None
    if form.validate_on_submit():
        clerk = get_store().verify_clerk(form.username.data, form.password.data)
        if clerk:
            session.clear()  # no session fixation
            session.permanent = True
            session["clerk_id"] = clerk.id
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
        session.clear()
    return redirect(url_for("clerk.login"))


def throttle_login(app: Flask, limiter: Limiter) -> None:
    """Limit login POSTs per address; one limiter per app, so the wrapped view replaces the registered one."""
    app.view_functions["clerk.login"] = limiter.limit(security.LOGIN_LIMIT, methods=["POST"])(login)
