"""Clerk accounts: argon2-hashed passwords (argon2-cffi defaults), checked in the same time for unknown names."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import schema as s
from . import settings
from .clock import utcnow

MIN_PASSWORD = 12

_hasher = PasswordHasher()


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """A hash to check unknown names against (same timing as a real account); made on first use, not at import
    (argon2 takes about a second on a busy machine, which every process importing the records paid)."""
    return _hasher.hash(secrets.token_hex(16))


@dataclass(frozen=True)
class Clerk:
    id: int
    username: str
    created_at: datetime
    last_login: datetime | None = None
    role: str = "clerk"  # "clerk" | "fire" (the Fire Department's view only)
    session_generation: int = 0
    town: str = ""  # the town the account works for: it signs in on that town's site only


ROLES = ("clerk", "fire")


class ClerkAccounts:
    """The ``Store`` methods for clerk accounts."""

    engine: Engine

    def create_clerk(self, username: str, password: str, now: datetime | None = None, role: str = "clerk",
                     town: str | None = None) -> Clerk:
        """A new account of ``town`` (default TOWN). Usernames are unique across the database."""
        town = settings.town() if town is None else town
        username = username.strip()
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}")
        if not username:
            raise ValueError("username is required")
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"password must be at least {MIN_PASSWORD} characters")
        row = dict(username=username, password_hash=_hasher.hash(password), created_at=now or utcnow(), role=role,
                   town=town)
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(insert(s.clerks).values(**row)).inserted_primary_key[0]
        except IntegrityError:
            raise ValueError(f"clerk {username!r} already exists") from None
        return Clerk(id=new_id, username=username, created_at=row["created_at"], role=role, town=town)

    def verify_clerk(self, username: str, password: str, now: datetime | None = None,
                     town: str | None = None) -> Clerk | None:
        """The clerk if the password matches (and, with ``town``, the account is that town's); the hash is checked
        even for unknown names and other towns' accounts (same timing)."""
        t = s.clerks
        q = select(t).where(t.c.username == (username or "").strip())
        if town is not None:
            q = q.where(t.c.town == town)
        with self.engine.connect() as conn:
            r = conn.execute(q).first()
        stored = r.password_hash if r else _dummy_hash()
        try:
            _hasher.verify(stored, password or "")
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if r is None:
            return None
        with self.engine.begin() as conn:
            values: dict[str, Any] = {"last_login": now or utcnow()}
            if _hasher.check_needs_rehash(stored):
                values["password_hash"] = _hasher.hash(password)
            conn.execute(update(t).where(t.c.id == r.id).values(**values))
        return Clerk(id=r.id, username=r.username, created_at=r.created_at, last_login=values["last_login"],
                     role=r.role, session_generation=r.session_generation, town=r.town)

    def get_clerk(self, clerk_id: int) -> Clerk | None:
        t = s.clerks
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.id == clerk_id)).first()
        return (Clerk(id=r.id, username=r.username, created_at=r.created_at, last_login=r.last_login, role=r.role,
                      session_generation=r.session_generation, town=r.town) if r else None)

    def set_clerk_town(self, username: str, town: str) -> bool:
        """Give an account its town (one made before towns were recorded, in a database several towns share)."""
        t = s.clerks
        with self.engine.begin() as conn:
            return conn.execute(update(t).where(t.c.username == username.strip()).values(town=town)).rowcount > 0

    def end_clerk_sessions(self, clerk_id: int) -> None:
        """Every session of this clerk ends (logout, password change): the generation they carry is now old."""
        t = s.clerks
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.id == clerk_id).values(session_generation=t.c.session_generation + 1))

    def set_clerk_password(self, username: str, password: str) -> bool:
        """A new password for an existing clerk; ends every session of the account. False: no such clerk."""
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"password must be at least {MIN_PASSWORD} characters")
        t = s.clerks
        with self.engine.begin() as conn:
            n = conn.execute(update(t).where(t.c.username == username.strip()).values(
                password_hash=_hasher.hash(password), session_generation=t.c.session_generation + 1)).rowcount
        return n > 0
