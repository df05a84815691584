"""Single questions written from the law by a separate author (tests/bot/clause_questions.yml: never tuned on),
each with the section its answer must cite first and the fact its lead must hold, through the whole dialogue: NLU
and Rasa Core (the trained model, in this process) and the action server (started here on loopback). Measures
whether the assistant answers the clause asked (#21), not only the chapter.

    PYTHONPATH=$PWD .venv/bin/python -m tests.bot.run_clause_questions [FILE] [--only TEXT] [--show]

FILE defaults to tests/bot/clause_questions.yml; tests/bot/lead_facts.yml (the development labels, no sections)
works too. Prints "fact in lead: N/M" and "section top-1: N/M" (and the misses with --show); exit 0.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_NOW = "2026-05-15T10:00"
#: the first section a lead cites: "(7.02-5(d)(2))", "(58-521(a)(2)c)", "(Wis. Stat. 174.05(2))"
_REF = re.compile(r"(?<=\()((?:Wis\. Stat\. |Wis\. Admin\. Code NR )?\d+[.-]\d+(?:-\d+)?(?:\([0-9a-z]+\))*[a-z]?)")


def first_ref(lead: str) -> str | None:
    m = _REF.search(lead or "")
    return m.group(1) if m else None


def section_right(expected, lead: str) -> bool:
    """Does the lead cite the expected section (or a paragraph of it) first? "none": it cites nothing of the code
    or says the code does not cover it."""
    wanted = expected if isinstance(expected, list) else [expected]
    ref = first_ref(lead)
    for w in (str(x) for x in wanted):
        if w.lower() == "none":
            if ref is None or re.search(r"(?i)does not cover|not cover|no .*rules", lead):
                return True
            continue
        if ref and ref.replace(" ", "").startswith(w.replace(" ", "")):
            return True
    return False


async def _run(items: list[dict]) -> list[tuple[dict, str]]:
    from rasa.core.agent import Agent
    from rasa.core.channels.channel import CollectingOutputChannel, UserMessage
    from rasa.utils.endpoints import EndpointConfig
    from rasa_sdk.endpoint import create_app

    from knowledge import loader
    from tests.scenarios.run_chat import free_port

    port = free_port()
    app = create_app(action_package_name="actions")
    server = await app.create_server(host="127.0.0.1", port=port, return_asyncio_server=True, access_log=False)
    await server.startup()
    agent = Agent.load(str(ROOT / "models" / "ordinance.tar.gz"),
                       action_endpoint=EndpointConfig(f"http://127.0.0.1:{port}/webhook"))
    out = []
    for i, item in enumerate(items):
        os.environ["TOWN"], os.environ["ASSISTANT_NOW"] = item["town"], str(item.get("now") or DEFAULT_NOW)
        loader.town.cache_clear()
        channel = CollectingOutputChannel()
        try:
            await agent.handle_message(UserMessage(item["question"], channel, f"clause-{i}",
                                                   metadata={"channel": "web"}))
        except Exception as exc:  # a crash is a miss, not the end of the run
            out.append((item, f"[error: {exc!r}]"))
            continue
        leads = []
        for m in channel.messages:
            custom = m.get("custom") if isinstance(m.get("custom"), dict) else {}
            answer = custom.get("answer") if isinstance(custom, dict) else None
            leads.append(answer["lead"] if answer else (m.get("text") or ""))
        out.append((item, next((x for x in leads if x), "")))
    server.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "tests" / "bot" / "clause_questions.yml"))
    parser.add_argument("--only")
    parser.add_argument("--show", action="store_true", help="print every miss")
    opts = parser.parse_args(argv)
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("DATABASE_URL", "sqlite:///" + str(Path(tempfile.mkdtemp()) / "clauses.db"))
    logging.basicConfig(level=logging.WARNING)
    for name in ("rasa", "sanic", "tensorflow", "absl"):
        logging.getLogger(name).setLevel(logging.ERROR)
    items = [q for q in yaml.safe_load(Path(opts.file).read_text())
             if not opts.only or opts.only.lower() in q["question"].lower()]
    results = asyncio.run(_run(items))
    facts = sections = with_section = 0
    for item, lead in results:
        fact = bool(re.search(item["fact"], lead))
        facts += fact
        right = None
        if "section" in item:
            with_section += 1
            right = section_right(item["section"], lead)
            sections += right
        if opts.show and (not fact or right is False):
            print(f"MISS [{item['town']}] {item['question']}\n   want {item.get('section', '')} /{item['fact']}/"
                  f"\n   lead {lead[:300]}")
    n = len(results)
    print(f"fact in lead: {facts}/{n} = {facts / max(n, 1):.1%}")
    if with_section:
        print(f"section top-1: {sections}/{with_section} = {sections / with_section:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
