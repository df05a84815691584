"""The clerk's calculators: dog license cost, quarantine dates, and whether burning is allowed at a given time.
Each calls one knowledge handler; a question the handler asks back (NeedsClarification) shows on the form."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, SelectField, StringField, TimeField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import get_store, get_town
from .auth import login_required
from .local_time import local_now

bp = Blueprint("calc", __name__, url_prefix="/calc")


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


def _calculator(form: FlaskForm, title: str, prefill, compute):
    """The calculator page: ``prefill(form)`` on GET; on a valid POST ``compute(town, form)`` gives the answer, or
    the handler's NeedsClarification gives the message shown instead."""
    from knowledge.errors import NeedsClarification
    t = get_town()
    if request.method == "GET":
        prefill(form)
    answer = problem = None
    if form.validate_on_submit():
        try:
            answer = compute(t, form)
        except NeedsClarification as exc:
            problem = getattr(exc, "message", str(exc))
    return render_template("clerk/calc.html", town=t, form=form, answer=answer, problem=problem, title=title,
                           action=url_for(request.endpoint))


def _prefill_license(form: LicenseForm) -> None:
    form.on.data = local_now().date()


def _license(t, form: LicenseForm):
    from knowledge import handlers
    return handlers.license_cost(
        t, on=form.on.data, dogs=form.dogs.data, neutered=form.neutered.data,
        service_dogs=form.service_dogs.data or 0, acquired=form.acquired.data, moved_in=form.moved_in.data,
        licensable_age_on=form.licensable_age_on.data)


def _prefill_quarantine(form: QuarantineForm) -> None:
    form.today.data = local_now().date()


def _quarantine(t, form: QuarantineForm):
    from knowledge import handlers
    vaccinated = {"yes": True, "no": False}.get(form.vaccinated.data)
    return handlers.quarantine(t, incident=form.incident.data, today=form.today.data, kind=form.kind.data,
                               animal=form.animal.data, vaccinated=vaccinated)


def _prefill_burning(form: BurningForm) -> None:
    now = local_now()
    form.day.data, form.at.data = now.date(), now.time().replace(second=0, microsecond=0)


def _burning(t, form: BurningForm):
    from knowledge import handlers
    moment = datetime.combine(form.day.data, form.at.data, tzinfo=ZoneInfo(t.timezone))
    orders = get_store().no_burning_orders(t.key)  # the engine picks the one in force at ``moment``
    return handlers.burning(t, at=moment, orders=orders, material=(form.material.data or None))


@bp.route("/license", methods=["GET", "POST"], endpoint="license")
@login_required
def license_cost():
    return _calculator(LicenseForm(), "Dog license cost", _prefill_license, _license)


@bp.route("/quarantine", methods=["GET", "POST"])
@login_required
def quarantine():
    return _calculator(QuarantineForm(), "Quarantine dates", _prefill_quarantine, _quarantine)


@bp.route("/burning", methods=["GET", "POST"])
@login_required
def burning():
    return _calculator(BurningForm(), "Is burning allowed at a given time?", _prefill_burning, _burning)
