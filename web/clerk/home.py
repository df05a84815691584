"""The clerk's front page: today's and the next two weeks' burn notifications, the no-burning order, the latest
unanswered questions."""

from __future__ import annotations

from datetime import timedelta

from flask import render_template

from .. import get_store, get_town
from . import bp
from .auth import login_required
from .local_time import local_now


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
