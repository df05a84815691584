"""What residents sent for the clerk to read: questions the assistant could not answer, and the stored SMS."""

from __future__ import annotations

from flask import Blueprint, render_template

from .. import get_store, get_town
from .auth import login_required

bp = Blueprint("inbox", __name__)


@bp.get("/unanswered")
@login_required
def unanswered():
    t = get_town()
    return render_template("clerk/unanswered.html", town=t, rows=get_store().list_unanswered(t.key, limit=500))


@bp.get("/sms")
@login_required
def sms():
    t = get_town()
    return render_template("clerk/sms.html", town=t, rows=get_store().list_inbound_sms(limit=300, town=t.key))
