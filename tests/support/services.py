"""Throw-away PostgreSQL and Redis servers on loopback, for the scale-out, durability and fault tests.

Debian's packages (postgresql, redis-server; `make system-deps` installs them). Each server lives in a
temporary directory on a free port and is stopped when the context ends.

    with postgres(tmp) as url:      # postgresql://postgres@127.0.0.1:PORT/postgres
    with redis(tmp) as url:         # redis://127.0.0.1:PORT/0
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def have_postgres() -> bool:
    return pg_bin() is not None


def have_redis() -> bool:
    return shutil.which("redis-server") is not None


def _as_postgres_user() -> dict:
    """initdb refuses to run as root: run the server as the 'postgres' system user when we are root."""
    if os.geteuid() != 0:
        return {}
    pw = pwd.getpwnam("postgres")

    def demote():
        os.setgid(pw.pw_gid)
        os.setuid(pw.pw_uid)
    return {"preexec_fn": demote}


def wait_port(port: int, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout} s")


@contextlib.contextmanager
def postgres(tmp: Path, port: int | None = None):
    """A fresh PostgreSQL cluster (trust auth, loopback only); yields its URL (database 'postgres')."""
    bindir = pg_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (make system-deps)")
    port = port or free_port()
    demote = _as_postgres_user()
    if demote:  # the postgres user must reach the data directory: not under a private (0700) test tmp dir
        import tempfile
        base = Path(tempfile.mkdtemp(prefix="ordinance-pg-"))
        os.chmod(base, 0o755)
        (Path(tmp) / f"pg{port}.path").write_text(str(base))
    else:
        base = Path(tmp)
    data = base / f"pg{port}"
    data.mkdir(parents=True)
    if demote:
        pw = pwd.getpwnam("postgres")
        os.chown(data, pw.pw_uid, pw.pw_gid)
        os.chmod(data, 0o700)
    done = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **demote)
    if done.returncode:
        raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace')[-2000:]}")
    log = open(data / "server.log", "wb")
    proc = subprocess.Popen([str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-h", "127.0.0.1",
                             "-k", str(data), "-c", "max_connections=200", "-c", "fsync=on"],
                            stdout=log, stderr=subprocess.STDOUT, **demote)
    try:
        wait_port(port, 60, proc)
        url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        _wait_pg_ready(url, 30)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if demote:
            shutil.rmtree(base, ignore_errors=True)


def _wait_pg_ready(url: str, timeout: float) -> None:
    import sqlalchemy as sa
    deadline = time.monotonic() + timeout
    while True:
        try:
            eng = sa.create_engine(url)
            with eng.connect() as c:
                c.execute(sa.text("select 1"))
            eng.dispose()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def create_database(url: str, name: str) -> str:
    """A new empty database on the server at url; returns its URL."""
    import sqlalchemy as sa
    eng = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with eng.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    eng.dispose()
    return url.rsplit("/", 1)[0] + "/" + name


@contextlib.contextmanager
def redis(tmp: Path, port: int | None = None):
    """A Redis server on loopback with no persistence; yields redis://127.0.0.1:PORT/0."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (make system-deps)")
    port = port or free_port()
    workdir = Path(tmp) / f"redis{port}"
    workdir.mkdir(parents=True)
    log = open(workdir / "server.log", "wb")
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(workdir), "--protected-mode", "yes"],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, 30, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
