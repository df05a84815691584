"""The clerk's Flask CLI commands: ``flask create-clerk USERNAME [--role fire]``, ``flask create-fire-account
USERNAME``, ``flask set-password USERNAME``, ``flask purge [--days N]`` and ``flask send-alerts [--once]``."""

from __future__ import annotations

import click
from flask import Flask

from .. import get_store


def init_app(app: Flask) -> None:
    def _create(username: str, password: str, role: str) -> None:
        try:
            get_store().create_clerk(username, password, role=role, town=app.config["TOWN"])
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"{'Fire Department account' if role == 'fire' else 'Clerk'} {username} created.")

    @app.cli.command("create-clerk")
    @click.argument("username")
    @click.option("--role", type=click.Choice(["clerk", "fire"]), default="clerk",
                  help="fire: the Fire Department's view only")
    @click.password_option("--password", prompt="Password (12+ characters)")
    def create_clerk(username: str, password: str, role: str):
        """Create a clerk account (there is no default account or password)."""
        _create(username, password, role)

    @app.cli.command("create-fire-account")
    @click.argument("username")
    @click.password_option("--password", prompt="Password (12+ characters)")
    def create_fire_account(username: str, password: str):
        """Create a Fire Department account: it sees the burn notifications page only."""
        _create(username, password, "fire")

    @app.cli.command("set-password")
    @click.argument("username")
    @click.password_option("--password", prompt="New password (12+ characters)")
    def set_password(username: str, password: str):
        """Change a clerk's password; every session of the account ends."""
        try:
            if not get_store().set_clerk_password(username, password):
                raise click.ClickException(f"no clerk {username!r}")
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"Password of {username} changed; signed out everywhere.")

    @app.cli.command("send-alerts")
    @click.option("--once", is_flag=True, help="send what is due now, then stop")
    def send_alerts(once: bool):
        """Send the queued SMS alerts about no-burning orders (records/alert_sender.py)."""
        from records.alert_sender import Sender
        sender = Sender(get_store())
        if sender.gateway is None:
            msg = ", ".join(sender.cfg.missing()) + " not set: alerts stay queued, nothing is sent"
            if once:
                raise click.ClickException(msg)
            click.echo(msg)
        if once:
            total: dict[str, int] = {}
            try:
                while any((counts := sender.run_once()).values()):
                    for k, v in counts.items():
                        total[k] = total.get(k, 0) + v
            finally:
                sender.close()
            if sender.waiting:
                raise click.ClickException("another alert sender holds the lock: nothing sent")
            click.echo(" ".join(f"{k}={v}" for k, v in total.items()) or "nothing due")
        else:
            sender.run()

    @app.cli.command("purge")
    @click.option("--days", type=int, default=None, help="retention in days (default RECORDS_RETENTION_DAYS)")
    def purge(days: int | None):
        """Delete records older than the retention period, except those under legal hold."""
        result = get_store().purge_all(days if days is not None else app.config["RETENTION_DAYS"])
        click.echo(f"Records created before {result.cutoff.isoformat()}:")
        for name, n in result.deleted.items():
            click.echo(f"  {name}: {n} deleted, {result.held[name]} kept under legal hold")
