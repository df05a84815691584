"""The clerk's desk (login required): the quick reference to the code, calculators, burn notifications, the
no-burning order, unanswered questions and stored SMS, the fee schedule and contacts, system status, and the CLI commands.

    bp (/clerk)     auth: login, logout, the signed-in clerk; home: the front page
      code          browse and search the code, one section with its parameters
      calc          dog license cost, quarantine dates, is burning allowed
      burns         burn notifications, and as CSV
      order         record, extend and lift dated no-burning orders
      fire          the Fire Department's view (role "fire"): the coming days' burns, sunset, orders; CSV
      inbox         unanswered questions, stored SMS
      fees          the fee schedule: the amounts the code delegates, set, previewed, undone
      contacts      the offices' phone, email and hours residents are given
      system        system status, the records policy
    commands        flask create-clerk [--role fire], flask create-fire-account, flask purge, flask send-alerts
"""

from __future__ import annotations

from flask import Blueprint, Flask
from flask_limiter import Limiter

bp = Blueprint("clerk", __name__, url_prefix="/clerk")

from . import auth, burns, calc, code, commands, contacts, fees, fire, home, inbox, order, system  # noqa: E402,F401 - they use bp; home and auth add routes to it

for _feature in (code, calc, burns, order, fire, inbox, fees, contacts, system):
    bp.register_blueprint(_feature.bp)


def init_app(app: Flask, limiter: Limiter) -> None:
    """After the factory registered ``bp``: throttle the login form, add the CLI commands."""
    auth.throttle_login(app, limiter)
    commands.init_app(app)
