"""Run the web front: ``python -m web.serve`` (WEB_HOST, default 127.0.0.1; WEB_PORT, default 8000).

Served by waitress, a production WSGI server (pure Python, threads); put a TLS reverse proxy (nginx, Caddy)
in front of it on the public host and set PUBLIC_URL to the public https address.
"""

from __future__ import annotations

import logging

from waitress import serve

from records import settings

from . import create_app
from .keys import SecretKeyError


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        app = create_app()
    except SecretKeyError as exc:  # a clear message, not a traceback
        raise SystemExit(f"web: {exc}") from None
    serve(app, host=settings.web_host(), port=settings.web_port(), threads=settings.env_int("WEB_THREADS", 8),
          ident="ordinance-assistant")


if __name__ == "__main__":
    main()
