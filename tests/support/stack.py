"""The real stack as separate processes on loopback, for end-to-end, load, durability and fault runs:
Rasa (one or more instances of the trained model), the action server and the web front, all sharing one
database. Any process can be killed (SIGKILL) and started again.

    with Stack(tmp, database_url=...) as s:   # s.web is the web front's base URL
        s.kill("actions"); s.start("actions")

Rasa instance i is named "rasa" (i = 0) or "rasa1", "rasa2", ...; the web front is given all their URLs in
RASA_URL (comma-separated). A lock_store_url (redis://...) switches Rasa to bot/endpoints-scale.yml.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from .services import free_port

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / ".venv" / "bin"
MODEL_DIR = REPO / "models"
TWILIO_TOKEN = "stack-twilio-token"
PUBLIC_URL = "https://assistant.example.gov"
RASA_TOKEN = "stack-rasa-token"


def have_model() -> bool:
    return any(MODEL_DIR.glob("*.tar.gz"))


class Stack:
    def __init__(self, tmp: Path, database_url: str | None = None, rasa_instances: int = 1,
                 lock_store_url: str | None = None, env: dict | None = None, now: str | None = None,
                 town: str = "dunkirk"):
        self.tmp = Path(tmp)
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.database_url = database_url or f"sqlite:///{self.tmp / 'stack.db'}"
        self.ports = {"actions": free_port(), "web": free_port()}
        self.rasa_names = ["rasa"] + [f"rasa{i}" for i in range(1, rasa_instances)]
        for name in self.rasa_names:
            self.ports[name] = free_port()
        rasa_urls = ",".join(f"http://127.0.0.1:{self.ports[n]}" for n in self.rasa_names)
        self.env = {**os.environ,
                    "DATABASE_URL": self.database_url, "TOWN": town,
                    "ACTION_PORT": str(self.ports["actions"]), "WEB_PORT": str(self.ports["web"]),
                    "RASA_PORT": str(self.ports["rasa"]), "RASA_URL": rasa_urls,
                    "PYTHONPATH": str(REPO), "RASA_TELEMETRY_ENABLED": "false",
                    "SQLALCHEMY_SILENCE_UBER_WARNING": "1", "SANIC_HOST": "127.0.0.1",
                    "TWILIO_AUTH_TOKEN": TWILIO_TOKEN, "PUBLIC_URL": PUBLIC_URL, "COOKIE_SECURE": "0",
                    "SECRET_KEY": "stack-secret", "RASA_TOKEN": RASA_TOKEN, "WEB_HOST": "127.0.0.1"}
        if now:
            self.env["ASSISTANT_NOW"] = now
        if lock_store_url:
            self.env["LOCK_STORE_URL"] = lock_store_url
            # bot/endpoints-scale.yml takes Rasa's RedisLockStore keys (host, port, db), not a URL
            from urllib.parse import urlsplit
            parts = urlsplit(lock_store_url)
            self.env.update({"LOCK_STORE_HOST": parts.hostname or "127.0.0.1",
                             "LOCK_STORE_PORT": str(parts.port or 6379),
                             "LOCK_STORE_DB": parts.path.strip("/") or "0"})
        self.env.update(env or {})
        self.endpoints = "bot/endpoints-scale.yml" if lock_store_url else "bot/endpoints.yml"
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, object] = {}

    # ---- addresses ---------------------------------------------------------------------------------

    @property
    def web(self) -> str:
        return f"http://127.0.0.1:{self.ports['web']}"

    def rasa_url(self, name: str = "rasa") -> str:
        return f"http://127.0.0.1:{self.ports[name]}"

    # ---- processes ---------------------------------------------------------------------------------

    def command(self, name: str) -> list[str]:
        if name == "actions":
            if (REPO / "actions" / "serve.py").exists():
                return [str(BIN / "python"), "-m", "actions.serve"]
            return [str(BIN / "rasa"), "run", "actions", "--actions", "actions", "--port", str(self.ports["actions"])]
        if name == "web":
            return [str(BIN / "python"), "-m", "web.serve"]
        # the token from RASA_TOKEN in the environment (tools/rasa_run.py), not on the command line
        return [str(BIN / "python"), "-m", "tools.rasa_run", "--model", str(MODEL_DIR), "--endpoints", self.endpoints,
                "--credentials", "bot/credentials.yml", "--interface", "127.0.0.1", "--port", str(self.ports[name]),
                "--enable-api"]

    def start(self, name: str, wait: bool = True) -> None:
        if name in self.procs and self.procs[name].poll() is None:
            raise RuntimeError(f"{name} is already running")
        log = self.logs.get(name)
        if log is None:
            log = self.logs[name] = open(self.tmp / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(self.command(name), cwd=REPO, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        if wait:
            self.wait_ready(name)

    def wait_ready(self, name: str, timeout: float | None = None) -> None:
        if name == "actions":
            self._wait(f"http://127.0.0.1:{self.ports['actions']}/health", name, timeout or 120)
        elif name == "web":
            self._wait(f"{self.web}/healthz", name, timeout or 60)
        else:
            self._wait(f"{self.rasa_url(name)}/status?token={RASA_TOKEN}", name, timeout or 300,
                       lambda body: bool(json.loads(body).get("model_file")))

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """SIGKILL (by default) the process and its children; returns once it is gone."""
        proc = self.procs.get(name)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        proc.wait(30)

    def restart(self, name: str) -> None:
        self.kill(name)
        self.start(name)

    def running(self, name: str) -> bool:
        proc = self.procs.get(name)
        return proc is not None and proc.poll() is None

    def start_all(self) -> None:
        self.start("actions", wait=False)
        for name in self.rasa_names:
            self.start(name, wait=False)
        self.start("web", wait=False)
        for name in ["actions", *self.rasa_names, "web"]:
            self.wait_ready(name)

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.kill(name, signal.SIGTERM) if self.running(name) else None
        for f in self.logs.values():
            f.close()
        self.logs.clear()

    def log_tail(self, name: str, chars: int = 4000) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def __enter__(self):
        try:
            self.start_all()
        except Exception:
            for name in self.procs:
                sys.stderr.write(f"--- {name} log ---\n{self.log_tail(name)}\n")
            self.stop_all()
            raise
        return self

    def __exit__(self, *exc):
        self.stop_all()

    # ---- waiting -----------------------------------------------------------------------------------

    def _wait(self, url: str, name: str, timeout: float, check=lambda body: True) -> None:
        deadline = time.monotonic() + timeout
        proc = self.procs[name]
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{self.log_tail(name)}")
            try:
                with urllib.request.urlopen(url, timeout=3) as r:
                    if r.status == 200 and check(r.read()):
                        return
            except (urllib.error.URLError, OSError, ValueError):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"{name}: {url} not ready after {timeout} s:\n{self.log_tail(name)}")
