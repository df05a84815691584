"""No-burning orders as the Town Board issued them (Dunkirk 7.09(4); who issues them is town.yml
`burning.orders_by`, web/alerts.py order_words): record one (from, until or until lifted,
reason, the Board action; the signed-in clerk is who recorded it), extend one, lift the one in force early;
every change is in the history. A change queues, in its own transaction, the texts it owes (web/alerts.py,
records/outbox.py): the notifiers whose burn day it covers, the all-clear to those whose day it frees, the
Fire Department's copy of a recorded order. The page shows who could not be reached, to call them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateTimeLocalField, HiddenField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from .. import alerts, get_store, get_town
from .auth import login_required
from .local_time import local_now

bp = Blueprint("order", __name__)

FORMAT = "%Y-%m-%dT%H:%M"


class RecordForm(FlaskForm):
    start = DateTimeLocalField("In force from (town time)", format=FORMAT, validators=[InputRequired()])
    end = DateTimeLocalField("Until (town time; leave empty with \u201cuntil lifted\u201d)", format=FORMAT,
                             validators=[Optional()])
    until_lifted = BooleanField("Until lifted (no end date)")
    board_action = StringField("Board action that issued it (meeting, date, motion)",
                               validators=[DataRequired(), Length(max=300)])
    reason = TextAreaField("Reason", validators=[DataRequired(), Length(max=500)])


class ExtendForm(FlaskForm):
    order_id = HiddenField(validators=[DataRequired()])
    end = DateTimeLocalField("New end (town time)", format=FORMAT, validators=[Optional()])
    until_lifted = BooleanField("Until lifted (no end date)")
    board_action = StringField("Board action that extended it", validators=[DataRequired(), Length(max=300)])


class LiftForm(FlaskForm):
    at = DateTimeLocalField("Lifted at (town time)", format=FORMAT, validators=[InputRequired()])
    board_action = StringField("Board action that lifted it", validators=[DataRequired(), Length(max=300)])
    reason = TextAreaField("Reason", validators=[Optional(), Length(max=500)])


def _local(naive: datetime | None) -> datetime | None:
    return None if naive is None else naive.replace(tzinfo=ZoneInfo(get_town().timezone))


def _end(form) -> tuple[bool, datetime | None]:
    """(valid, end): exactly one of a date-time and "until lifted"."""
    if form.until_lifted.data and form.end.data:
        form.end.errors = [*form.end.errors, "Give an end or tick \u201cuntil lifted\u201d, not both."]
        return False, None
    if not form.until_lifted.data and not form.end.data:
        form.end.errors = [*form.end.errors, f"Give the end the {alerts.order_words(get_town())['action']} set, "
                                             "or tick \u201cuntil lifted\u201d."]
        return False, None
    return True, _local(form.end.data)


def _done(result):
    """After a change, back to the page with the span whose status changed in the address: the page lists the
    burn notifications on those days from the records (the list once went into the session cookie as a flash
    message, which browsers drop past 4 KB, about 200 notices)."""
    until = result.changed_until.isoformat() if result.changed_until else ""
    return redirect(url_for("clerk.order.index", affected_from=result.changed_from.isoformat(),
                            affected_until=until))


def _aware_arg(name: str) -> datetime | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        t = datetime.fromisoformat(raw)
    except ValueError:
        abort(400, f"{name} must be a date-time like 2026-12-01T14:00:00+00:00.")
    if t.tzinfo is None:
        abort(400, f"{name} must carry its UTC offset.")
    return t


def _affected() -> list | None:
    """The burn notifications on the days (town time, from today) of the span in the address, or None."""
    start = _aware_arg("affected_from")
    if start is None:
        return None
    t = get_town()
    return get_store().notifications_affected(t.key, start, _aware_arg("affected_until"), ZoneInfo(t.timezone),
                                              today=local_now().date())


def _page(record=None, extend=None, lift=None, status=200):
    t = get_town()
    store = get_store()
    now = local_now()
    default = now.replace(second=0, microsecond=0, tzinfo=None)
    record = record or RecordForm(formdata=None, start=default)
    lift = lift or LiftForm(formdata=None, at=default)
    orders = list(reversed(store.orders(t.key)))
    extend = extend or ExtendForm(formdata=None)
    words = alerts.order_words(t)
    for form in (record, extend, lift):  # "Board action that issued it" (Dunkirk), "Department action ..."
        label = form.board_action.label
        label.text = f"{words['action']} action" + label.text.removeprefix("Board action")
    return render_template("clerk/order.html", town=t, record=record, lift=lift, extend=extend, order_words=words,
                           current=store.order_at(t.key, now), orders=orders, now=now,
                           history=store.order_history(t.key), tz=ZoneInfo(t.timezone),
                           alerts=alerts.summary(), affected=_affected() if status == 200 else None), status


@bp.get("/order")
@login_required
def index():
    return _page()


@bp.post("/order")
@login_required
def record():
    form = RecordForm()
    valid = form.validate()
    ok, end = _end(form)
    if not (valid and ok):
        return _page(record=form, status=400)
    try:
        result = get_store().record_order(get_town().key, _local(form.start.data), end, reason=form.reason.data,
                                          board_action=form.board_action.data, recorded_by=g.clerk.username,
                                          alerts=alerts.plan(local_now().date()))
    except ValueError as exc:
        form.end.errors = [*form.end.errors, str(exc)[:1].upper() + str(exc)[1:] + "."]
        return _page(record=form, status=400)
    superseded = [e for e in result.events if e.kind == "superseded"]
    flash(f"Order {result.order.id} recorded." + (" It supersedes order(s) "
          + ", ".join(str(e.order_id) for e in superseded) + " from its start." if superseded else ""))
    return _done(result)


@bp.post("/order/extend")
@login_required
def extend():
    form = ExtendForm()
    valid = form.validate()
    ok, end = _end(form)
    if not (valid and ok) or not form.order_id.data.isdigit():
        return _page(extend=form, status=400)
    try:
        result = get_store().extend_order(int(form.order_id.data), end, board_action=form.board_action.data,
                                          recorded_by=g.clerk.username, alerts=alerts.plan(local_now().date()),
                                          town=get_town().key)
    except LookupError:
        abort(404)
    except ValueError as exc:
        form.end.errors = [*form.end.errors, str(exc)[:1].upper() + str(exc)[1:] + "."]
        return _page(extend=form, status=400)
    flash(f"Order {result.order.id} extended.")
    return _done(result)


@bp.post("/order/lift")
@login_required
def lift():
    form = LiftForm()
    if not form.validate():
        return _page(lift=form, status=400)
    t = get_town()
    result = get_store().lift_order(t.key, _local(form.at.data), board_action=form.board_action.data,
                                    recorded_by=g.clerk.username, reason=form.reason.data or "",
                                    alerts=alerts.plan(local_now().date()))
    if result is None:
        form.at.errors = [*form.at.errors, "No order is in force at that time, so there is nothing to lift."]
        return _page(lift=form, status=400)
    flash(f"Order {result.order.id} lifted.")
    return _done(result)
