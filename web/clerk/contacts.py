"""How residents reach the town's offices: the clerk's and the Fire Department's phone, email and hours, as
answers give them. The clerk changes them here (knowledge/contacts.py checks them as the loader checks
town.yml); each change is kept with who, when and why (records/contacts.py), may be undone, and reaches every
answer without a restart. The Fire Department's accounts read only."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional, Regexp

from knowledge import contacts

from .. import get_store, get_town
from .auth import login_required, role_required

bp = Blueprint("contacts", __name__)


class ContactForm(FlaskForm):
    office = SelectField("Office", validators=[DataRequired()])
    phone = StringField("Phone (leave empty if none)", validators=[Optional(), Length(max=40)])
    email = StringField("Email (leave empty if none)", validators=[Optional(), Length(max=200)])
    hours = StringField("Hours, as residents should read them (leave empty if none)",
                        validators=[Optional(), Length(max=contacts.HOURS_MAX)])
    reason = TextAreaField("Why you are changing it (kept in the history)", validators=[DataRequired(),
                                                                                        Length(max=500)])


class UndoForm(FlaskForm):
    change_id = HiddenField(validators=[DataRequired(), Regexp(r"^[0-9]{1,9}$")])
    reason = StringField("Why undo it", validators=[DataRequired(), Length(max=500)])


def _offices(t) -> list[tuple[str, object]]:
    """The town's offices, with what residents are told of each now."""
    return [("clerk", t.clerk)] + ([("fire_department", t.fire_department)] if t.fire_department else [])


def _choices(t, form) -> None:
    form.office.choices = [(key, office.name) for key, office in _offices(t)]


def _page(form=None, undo=None, status=200):
    t = get_town()
    if form is None:  # the office asked for (?office=fire_department), with what residents are given now
        offices = dict(_offices(t))
        key = request.args.get("office", "clerk")
        key = key if key in offices else "clerk"
        form = ContactForm(formdata=None, office=key, phone=offices[key].phone, email=offices[key].email,
                           hours=offices[key].hours)
    _choices(t, form)
    names = dict((key, office.name) for key, office in _offices(t))
    return render_template("clerk/contacts.html", town=t, offices=_offices(t), form=form,
                           undo=undo or UndoForm(formdata=None), names=names, editing=g.clerk.role == "clerk",
                           changes=list(reversed(get_store().contact_changes(t.key)))), status


@bp.get("/contacts")
@role_required("clerk", "fire")
def index():
    return _page()


@bp.post("/contacts")
@login_required
def save():
    t = get_town()
    form = ContactForm()
    _choices(t, form)
    if not form.validate():
        return _page(form=form, status=400)
    values = {k: getattr(form, k).data or "" for k in ("phone", "email", "hours")}
    for name, message in contacts.problems(**values).items():
        field = getattr(form, name)
        field.errors = [*field.errors, message[:1].upper() + message[1:] + "."]
    if any(getattr(form, k).errors for k in values):
        return _page(form=form, status=400)
    change = get_store().set_contact(town=t.key, office=form.office.data, reason=form.reason.data or "",
                                     entered_by=g.clerk.username, **values)
    office = dict(_offices(t))[change.office]
    given = ", ".join(v for v in (change.phone, change.email) if v) or "no phone or email"
    flash(f"Saved (change {change.id}): answers now give {office.name}, {given}"
          + (f" ({change.hours})." if change.hours else "."))
    return redirect(url_for("clerk.contacts.index"))


@bp.post("/contacts/undo")
@login_required
def undo():
    form = UndoForm()
    if not form.validate():
        return _page(undo=form, status=400)
    if not get_store().withdraw_contact(town=get_town().key, change_id=int(form.change_id.data),
                                        withdrawn_by=g.clerk.username, reason=form.reason.data):
        abort(404)
    flash(f"Change {form.change_id.data} undone.")
    return redirect(url_for("clerk.contacts.index"))
