"""Run the web front: ``python -m web.serve`` (WEB_HOST, default 127.0.0.1; WEB_PORT, default 8000).

Uses Werkzeug's threaded server, which is what the pinned dependencies offer; put a TLS reverse proxy
(nginx, Caddy) in front of it on the public host and set PUBLIC_URL to the public https address.
"""

from __future__ import annotations

import logging
import os

from werkzeug.serving import run_simple

from . import create_app


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app()
    host = os.environ.get("WEB_HOST", "127.0.0.1")
    port = int(os.environ.get("WEB_PORT", "8000"))
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)


if __name__ == "__main__":
    main()
