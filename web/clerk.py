"""The clerk quick reference (login required): the code, calculators, burn notifications, the no-burning
order, unanswered questions, the fee schedule, stored SMS."""

from __future__ import annotations

import csv
import functools
import io
import re
from datetime import date, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import click
from flask import (Blueprint, Flask, Response, abort, current_app, flash, g, redirect, render_template, request,
                   session, url_for)
from flask_wtf import FlaskForm
from wtforms import (DateField, IntegerField, PasswordField, SelectField, StringField,
                     TextAreaField, TimeField)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from records import utcnow

from . import get_store, get_town

bp = Blueprint("clerk", __name__, url_prefix="/clerk")


# ---- time --------------------------------------------------------------------------------------------


def local_now() -> datetime:
    """Now in the town's time zone (ASSISTANT_NOW pins it)."""
    return utcnow().astimezone(ZoneInfo(get_town().timezone))


# ---- login -------------------------------------------------------------------------------------------


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired(), Length(max=80)],
                           render_kw={"autocomplete": "username"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)],
                             render_kw={"autocomplete": "current-password"})


def login_required(view):
    @functools.wraps(view)
    def wrapped(**kwargs):
        if g.get("clerk") is None:
            return redirect(url_for("clerk.login", next=request.full_path.rstrip("?")))
        return view(**kwargs)
    return wrapped


@bp.before_app_request
def load_clerk():
    cid = session.get("clerk_id")
    try:
        g.clerk = get_store().get_clerk(cid) if isinstance(cid, int) else None
    except Exception:  # noqa: BLE001 - the database cannot be read: public pages and the webhooks still work
        current_app.logger.exception("could not load the signed-in clerk")
        g.clerk = None


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
            return redirect(_safe_next(request.args.get("next")))
        error = "Wrong username or password."
    elif request.method == "POST":
        error = "Enter your username and password."
    return render_template("clerk/login.html", form=form, error=error), (401 if error else 200)


class EmptyForm(FlaskForm):
    pass


@bp.post("/logout")
def logout():
    form = EmptyForm()
    if form.validate_on_submit():
        session.clear()
    return redirect(url_for("clerk.login"))


# ---- home --------------------------------------------------------------------------------------------


@bp.get("/")
@login_required
def home():
    store = get_store()
    today = local_now().date()
    t = get_town()
    return render_template("clerk/home.html", town=t, today=today, order=store.burning_order(t.key),
                           burns_today=store.list_burn_notifications(t.key, today, today),
                           upcoming=store.list_burn_notifications(t.key, today + timedelta(days=1),
                                                                  today + timedelta(days=14)),
                           unanswered=store.list_unanswered(t.key, limit=5))


# ---- the code ----------------------------------------------------------------------------------------


def _terms(q: str) -> list[str]:
    return [w for w in re.findall(r"[\w.\-()]+", q.lower()) if len(w) > 1][:8]


def highlight(text: str, terms: list[str]) -> list[tuple[str, bool]]:
    """Split ``text`` into (piece, matched) for <mark>; the template escapes every piece."""
    if not terms:
        return [(text, False)]
    pat = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.I)
    out, pos = [], 0
    for m in pat.finditer(text):
        out.append((text[pos:m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    out.append((text[pos:], False))
    return [p for p in out if p[0]]


def search_sections(t, q: str):
    terms = _terms(q)
    if not terms:
        return []
    hits = []
    for sec in t.sections.values():
        hay = f"{sec.number} {sec.title} {sec.text}".lower()
        if all(term in hay for term in terms):
            score = sum(hay.count(term) for term in terms) + (5 if any(term in sec.title.lower()
                                                                       for term in terms) else 0)
            paras = [p for p in sec.paragraphs if any(term in p.text.lower() for term in terms)][:3]
            hits.append((score, sec, [(p.path, highlight(p.text, terms)) for p in paras]))
    hits.sort(key=lambda h: -h[0])
    return hits


def params_for(t, number: str):
    return [p for p in t.parameters.values() if p.reference.section.number == number]


@bp.get("/code")
@login_required
def code():
    t = get_town()
    q = request.args.get("q", "")[:200]
    groups: dict[str, list] = {}
    for sec in t.sections.values():
        groups.setdefault(sec.code, []).append(sec)
    return render_template("clerk/code.html", town=t, q=q, hits=search_sections(t, q) if q else None,
                           groups=groups, gaps=t.gaps)


@bp.get("/code/<path:number>")
@login_required
def section(number: str):
    t = get_town()
    sec = t.sections.get(number)
    if sec is None:
        abort(404, "No such section in our copy of the code.")
    today = local_now().date()
    topics = [tp for tp in t.topics.values() if any(c.section.number == number for c in tp.citations)]
    return render_template("clerk/section.html", town=t, section=sec, params=params_for(t, number), today=today,
                           gaps=[g_ for g_ in t.gaps if g_.section.split("(")[0] == number], topics=topics)


# ---- calculators -------------------------------------------------------------------------------------


class LicenseForm(FlaskForm):
    on = DateField("Date the license is bought", validators=[InputRequired()])
    dogs = IntegerField("Number of dogs", default=1, validators=[InputRequired(), NumberRange(0, 200)])
    neutered = IntegerField("How many are spayed or neutered (leave empty if not known)",
                            validators=[Optional(), NumberRange(0, 200)])
    service_dogs = IntegerField("Service dogs among them", default=0, validators=[Optional(), NumberRange(0, 200)])
    acquired = DateField("Date a dog was acquired (optional)", validators=[Optional()])
    moved_in = DateField("Date the owner moved into the town (optional)", validators=[Optional()])
    licensable_age_on = DateField("Date a dog reached licensable age (optional)", validators=[Optional()])


class QuarantineForm(FlaskForm):
    incident = DateField("Date of the bite or exposure", validators=[InputRequired()])
    today = DateField("Today's date", validators=[InputRequired()])
    kind = SelectField("What happened", choices=[("bite", "The animal bit someone"),
                                                 ("exposure", "The animal was exposed to a rabid animal")])
    animal = SelectField("Animal", choices=[("dog", "Dog"), ("cat", "Cat"), ("other", "Other")])
    vaccinated = SelectField("Vaccinated against rabies", choices=[("unknown", "Not known"), ("yes", "Yes"),
                                                                  ("no", "No")])


class BurningForm(FlaskForm):
    day = DateField("Date", validators=[InputRequired()])
    at = TimeField("Time", validators=[InputRequired()])
    material = StringField("What will be burned (optional)", validators=[Optional(), Length(max=100)])


def _run(fn):
    """Call a handler; NeedsClarification becomes a message for the form."""
    from knowledge.errors import NeedsClarification
    try:
        return fn(), None
    except NeedsClarification as exc:
        return None, getattr(exc, "message", str(exc))


@bp.route("/calc/license", methods=["GET", "POST"])
@login_required
def calc_license():
    from knowledge import handlers
    t = get_town()
    form = LicenseForm()
    if request.method == "GET":
        form.on.data = local_now().date()
    answer = problem = None
    if form.validate_on_submit():
        answer, problem = _run(lambda: handlers.license_cost(
            t, on=form.on.data, dogs=form.dogs.data, neutered=form.neutered.data,
            service_dogs=form.service_dogs.data or 0, acquired=form.acquired.data, moved_in=form.moved_in.data,
            licensable_age_on=form.licensable_age_on.data))
    return render_template("clerk/calc.html", town=t, form=form, answer=answer, problem=problem,
                           title="Dog license cost", action=url_for("clerk.calc_license"))


@bp.route("/calc/quarantine", methods=["GET", "POST"])
@login_required
def calc_quarantine():
    from knowledge import handlers
    t = get_town()
    form = QuarantineForm()
    if request.method == "GET":
        form.today.data = local_now().date()
    answer = problem = None
    if form.validate_on_submit():
        vacc = {"yes": True, "no": False}.get(form.vaccinated.data)
        answer, problem = _run(lambda: handlers.quarantine(
            t, incident=form.incident.data, today=form.today.data, kind=form.kind.data, animal=form.animal.data,
            vaccinated=vacc))
    return render_template("clerk/calc.html", town=t, form=form, answer=answer, problem=problem,
                           title="Quarantine dates", action=url_for("clerk.calc_quarantine"))


@bp.route("/calc/burning", methods=["GET", "POST"])
@login_required
def calc_burning():
    from knowledge import handlers
    t = get_town()
    form = BurningForm()
    if request.method == "GET":
        now = local_now()
        form.day.data, form.at.data = now.date(), now.time().replace(second=0, microsecond=0)
    answer = problem = None
    if form.validate_on_submit():
        moment = datetime.combine(form.day.data, form.at.data, tzinfo=ZoneInfo(t.timezone))
        order = get_store().burning_order(t.key)
        answer, problem = _run(lambda: handlers.burning(t, at=moment, order=order,
                                                        material=(form.material.data or None)))
    return render_template("clerk/calc.html", town=t, form=form, answer=answer, problem=problem,
                           title="Is burning allowed at a given time?", action=url_for("clerk.calc_burning"))


# ---- burn notifications ------------------------------------------------------------------------------


def _date_arg(name: str) -> date | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        abort(400, f"{name} must be a date like 2026-12-01.")


def _burn_filter():
    today = local_now().date()
    if request.args.get("all") == "1":
        return None, None
    start = _date_arg("from") if "from" in request.args else today
    end = _date_arg("to")
    return start, end


@bp.get("/burns")
@login_required
def burns():
    t = get_town()
    start, end = _burn_filter()
    q = request.args.get("q", "").strip().lower()[:100]
    rows = get_store().list_burn_notifications(t.key, start, end)
    if q:
        rows = [r for r in rows if q in f"{r.name} {r.address} {r.location} {r.phone} {r.reference}".lower()]
    return render_template("clerk/burns.html", town=t, rows=rows, start=start, end=end, q=q,
                           today=local_now().date())


def _csv_cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text  # no spreadsheet formulas


@bp.get("/burns.csv")
@login_required
def burns_csv():
    t = get_town()
    start, end = _burn_filter()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["reference", "burn_date", "approx_time", "name", "address", "location", "phone", "channel",
                "received_utc"])
    for r in get_store().list_burn_notifications(t.key, start, end):
        w.writerow([_csv_cell(x) for x in (r.reference, r.burn_date.isoformat(), r.approx_time, r.name, r.address,
                                           r.location, r.phone, r.channel, r.created_at.isoformat())])
    name = f"burn-notifications-{t.key}-{local_now().date().isoformat()}.csv"
    return Response(buf.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


# ---- the no-burning order ----------------------------------------------------------------------------


class OrderForm(FlaskForm):
    action = SelectField("Order", choices=[("set", "Set a no-burning order"), ("clear", "Clear the order")])
    reason = TextAreaField("Reason", validators=[DataRequired(), Length(max=500)])


@bp.route("/order", methods=["GET", "POST"])
@login_required
def order():
    t = get_town()
    store = get_store()
    form = OrderForm()
    if form.validate_on_submit():
        store.set_burning_order(t.key, form.action.data == "set", form.reason.data, g.clerk.username)
        flash("The no-burning order is now " + ("in force." if form.action.data == "set" else "cleared."))
        return redirect(url_for("clerk.order"))
    return render_template("clerk/order.html", town=t, form=form, order=store.burning_order(t.key),
                           history=store.order_history(t.key))


# ---- unanswered questions, fees, SMS -----------------------------------------------------------------


@bp.get("/unanswered")
@login_required
def unanswered():
    t = get_town()
    return render_template("clerk/unanswered.html", town=t, rows=get_store().list_unanswered(t.key, limit=500))


@bp.get("/fees")
@login_required
def fees():
    t = get_town()
    today = local_now().date()
    rows = []
    for p in t.parameters.values():
        if p.unit != "USD":
            continue
        v = p.at(today)
        rows.append({"param": p, "value": None if v is None or v.value is None else p.format(v.value),
                     "since": v.since if v else None, "source": (v.source if v and v.source else "")})
    return render_template("clerk/fees.html", town=t, rows=rows, today=today)


@bp.get("/sms")
@login_required
def sms_inbox():
    return render_template("clerk/sms.html", town=get_town(), rows=get_store().list_inbound_sms(limit=300))


@bp.get("/status")
@login_required
def status():
    """System status: live checks of Rasa, the action server, the database (does it take a write?) and the SMS
    spool, and the failures the web front recorded recently (kept outside the database)."""
    from . import health
    checks = health.checks(get_store())
    return render_template("clerk/status.html", town=get_town(), checks=checks,
                           all_ok=all(c["ok"] for c in checks), failures=health.recent_failures(50))


@bp.get("/records")
@login_required
def records_policy():
    return render_template("clerk/records.html", town=get_town(), days=current_app.config["RETENTION_DAYS"])


# ---- commands ----------------------------------------------------------------------------------------


def init_app(app: Flask) -> None:
    @app.cli.command("create-clerk")
    @click.argument("username")
    @click.password_option("--password", prompt="Password (12+ characters)")
    def create_clerk(username: str, password: str):
        """Create a clerk account (there is no default account or password)."""
        try:
            get_store().create_clerk(username, password)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"Clerk {username} created.")

    @app.cli.command("purge")
    @click.option("--days", type=int, default=None, help="retention in days (default RECORDS_RETENTION_DAYS)")
    def purge(days: int | None):
        """Delete records older than the retention period, except those under legal hold."""
        result = get_store().purge(days if days is not None else app.config["RETENTION_DAYS"])
        click.echo(f"Records created before {result.cutoff.isoformat()}:")
        for name, n in result.deleted.items():
            click.echo(f"  {name}: {n} deleted, {result.held[name]} kept under legal hold")

    @app.context_processor
    def inject():
        return {"clerk": g.get("clerk"), "logout_form": EmptyForm() if g.get("clerk") else None}
