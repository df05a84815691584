"""The fee schedule: every amount in US dollars with its value today, since when and its source; the clerk sets
the amounts the code delegates (knowledge/fee_schedule.py checks them as the loader checks fees.yml), sees first
what a resident would be told, and may undo an entry. Each change is kept with who, when and why
(records/fees.py) and reaches every answer without a restart. The Fire Department's accounts read only."""

from __future__ import annotations

from datetime import date

import yaml
from flask import Blueprint, Response, abort, flash, g, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, Regexp

from knowledge import fee_schedule, handlers
from knowledge.fee_schedule import FeeEntry

from .. import get_store, get_town
from .auth import login_required, role_required
from .local_time import local_now

bp = Blueprint("fees", __name__)


class FeeForm(FlaskForm):
    parameter = SelectField("Fee", validators=[DataRequired()])
    value = StringField("Amount in dollars (for example 12.50)", validators=[DataRequired(), Length(max=20)])
    since = DateField("In force from", validators=[InputRequired()])
    source = StringField("Resolution or notice that set it", validators=[DataRequired(),
                                                                          Length(max=fee_schedule.SOURCE_MAX)])
    reason = TextAreaField("Why you are entering it (kept in the history)", validators=[DataRequired(),
                                                                                      Length(max=500)])


class UndoForm(FlaskForm):
    change_id = HiddenField(validators=[DataRequired(), Regexp(r"^[0-9]{1,9}$")])
    reason = StringField("Why undo it", validators=[DataRequired(), Length(max=500)])


def _delegated(t) -> list:
    return [p for p in t.parameters.values() if p.delegated_to and p.unit == "USD"]


def _rows(t, today: date) -> list[dict]:
    rows = []
    for p in t.parameters.values():
        if p.unit != "USD":
            continue
        v = p.at(today)
        rows.append({"param": p, "value": None if v is None or v.value is None else p.format(v.value),
                     "since": v.since if v else None, "source": (v.source if v and v.source else "")})
    return rows


def preview(t, entry: FeeEntry) -> list[tuple[str, str, str]]:
    """What residents would be told with ``entry``, as (situation, before, after), for the answers it changes:
    the sentences of the code's topics that name the amount, and the license cost of one dog today, on the day it
    takes effect and at the end of that year (late). Only what changes is listed."""
    after_town = fee_schedule.with_entries(t, [entry])
    day = entry.since
    out = []
    for topic in t.topics.values():
        texts = [topic.summary, *topic.caveats, *(r.text for r in topic.rules.values()),
                 *(getattr(r, "lead", "") for r in topic.rules.values())]
        for text in dict.fromkeys(x for x in texts if x and "{" + entry.parameter + "}" in x):
            before, after = t.render(text, day), after_town.render(text, day)
            if before != after:
                out.append((f"{topic.title}, on {day:%B} {day.day}, {day.year}", before, after))
    today = local_now().date()
    days = dict.fromkeys(d for d in (today, day, date(day.year, 12, 31)) if d >= min(today, day))
    for label, args in LICENSE_SAMPLES:
        for on in days:  # today, the day it takes effect, that year's last day (late)
            try:
                before = handlers.license_cost(t, on=on, **args).lead
                after = handlers.license_cost(after_town, on=on, **args).lead
            except Exception:  # a sample the town's code cannot answer: nothing to show for it
                continue
            if before != after:
                out.append((f"A license for {label}, bought {on:%B} {on.day}, {on.year}", before, after))
    return out


#: the license questions the preview asks (a situation, not law: the handler computes every amount)
LICENSE_SAMPLES = (("1 spayed or neutered dog", {"dogs": 1, "neutered": 1}),
                   ("1 dog, not spayed or neutered", {"dogs": 1, "neutered": 0}))


def _page(form=None, undo=None, shown=None, status=200):
    t = get_town()
    store = get_store()
    today = local_now().date()
    editing = g.clerk.role == "clerk"
    form = form or FeeForm(formdata=None, since=today)
    form.parameter.choices = [(p.name, p.description) for p in _delegated(t)]
    changes = list(reversed(store.fee_changes(t.key)))
    names = {p.name: p.description for p in t.parameters.values()}
    return render_template("clerk/fees.html", town=t, rows=_rows(t, today), today=today, form=form,
                           undo=undo or UndoForm(formdata=None), changes=changes, names=names, shown=shown,
                           editing=editing), status


@bp.get("/fees")
@role_required("clerk", "fire")
def index():
    return _page()


def _entry(form) -> FeeEntry | None:
    """The form's entry, checked as fees.yml is (errors put on the fields); None when refused."""
    t = get_town()
    form.parameter.choices = [(p.name, p.description) for p in _delegated(t)]
    if not form.validate():
        return None
    problems = fee_schedule.problems(t.parameters, form.parameter.data, form.value.data, form.since.data,
                                     form.source.data)
    for name, message in problems.items():
        field = getattr(form, name)
        field.errors = [*field.errors, message[:1].upper() + message[1:] + "."]
    if problems:
        return None
    return fee_schedule.entry(t.parameters, form.parameter.data, form.value.data, form.since.data, form.source.data)


@bp.post("/fees/preview")
@login_required
def show_preview():
    form = FeeForm()
    e = _entry(form)
    if e is None:
        return _page(form=form, status=400)
    return _page(form=form, shown={"entry": e, "lines": preview(get_town(), e),
                                   "description": get_town().param(e.parameter).description})


@bp.post("/fees")
@login_required
def save():
    form = FeeForm()
    e = _entry(form)
    if e is None:
        return _page(form=form, status=400)
    t = get_town()
    change = get_store().set_fee(town=t, parameter=e.parameter, value=e.value, since=e.since, source=e.source,
                                 reason=form.reason.data or "", entered_by=g.clerk.username)
    p = t.param(e.parameter)
    flash(f"Saved: {p.description}, {p.format(e.value)} from {e.since.isoformat()} (entry {change.id}). "
          "Answers use it from now on.")
    return redirect(url_for("clerk.fees.index"))


@bp.post("/fees/undo")
@login_required
def undo():
    form = UndoForm()
    if not form.validate():
        return _page(undo=form, status=400)
    if not get_store().withdraw_fee(town=get_town().key, change_id=int(form.change_id.data),
                                    withdrawn_by=g.clerk.username, reason=form.reason.data):
        abort(404)
    flash(f"Entry {form.change_id.data} undone. Answers no longer use it.")
    return redirect(url_for("clerk.fees.index"))


@bp.get("/fees.yml")
@role_required("clerk", "fire")
def export():
    """The entries in force in fees.yml's format (knowledge/DATA.md): to keep with the town's data folder."""
    t = get_town()
    out: dict[str, list] = {}
    for c in get_store().fee_changes(t.key, in_force=True):
        out.setdefault(c.parameter, []).append({"value": c.amount_cents / 100, "since": c.since,
                                                "source": c.source})
    body = f"# Fee schedule of the {t.name}, as the clerk set it on the web ({local_now():%Y-%m-%d %H:%M %Z})\n"
    body += yaml.safe_dump(out, sort_keys=False) if out else "{}\n"
    return Response(body, mimetype="text/yaml",
                    headers={"Content-Disposition": f"attachment; filename={t.key}-fees.yml"})
