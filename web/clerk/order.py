"""The no-burning order: set or clear it with a reason (recorded with the clerk's name), and its history."""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import SelectField, TextAreaField
from wtforms.validators import DataRequired, Length

from .. import get_store, get_town
from .auth import login_required

bp = Blueprint("order", __name__)


class OrderForm(FlaskForm):
    action = SelectField("Order", choices=[("set", "Set a no-burning order"), ("clear", "Clear the order")])
    reason = TextAreaField("Reason", validators=[DataRequired(), Length(max=500)])


@bp.route("/order", methods=["GET", "POST"])
@login_required
def index():
    t = get_town()
    store = get_store()
    form = OrderForm()
    if form.validate_on_submit():
        store.set_burning_order(t.key, form.action.data == "set", form.reason.data, g.clerk.username)
        flash("The no-burning order is now " + ("in force." if form.action.data == "set" else "cleared."))
        return redirect(url_for("clerk.order.index"))
    return render_template("clerk/order.html", town=t, form=form, order=store.burning_order(t.key),
                           history=store.order_history(t.key))
