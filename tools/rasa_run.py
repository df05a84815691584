"""``rasa run`` with its HTTP API token kept off the command line (a command line is visible to every user in
``ps``): ``python -m tools.rasa_run [rasa run options]`` reads the token from RASA_TOKEN (the environment is
readable by the owner only) or from RASA_TOKEN_FILE (default instance/rasa_auth_token) and adds
``--auth-token`` to Rasa's argument list inside this process. Rasa 3.6 has no environment variable or file
option for the token."""

from __future__ import annotations

import sys

from records import settings


def token() -> str:
    value = settings.env("RASA_TOKEN")
    if value:
        return value
    path = settings.rasa_token_file()
    try:
        value = path.read_text(encoding="utf-8").strip()
    except OSError:
        value = ""
    if not value:
        sys.exit(f"rasa_run: no RASA_TOKEN and no token in {path}")
    return value


def main() -> None:
    sys.argv = ["rasa", "run", *sys.argv[1:], "--auth-token", token()]
    from rasa.__main__ import main as rasa_main
    rasa_main()


if __name__ == "__main__":
    main()
