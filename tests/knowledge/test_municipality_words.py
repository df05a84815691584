"""Every word that names the municipality comes from the town's own data (issue #25): Mequon is a City whose
Common Council sets its fees by resolution, Dunkirk a Town with a Town Board. Every line the engine writes for
a town -- lead, result, steps, sources, the "Not in our copy" gap lines and the notes -- is rendered and must
hold no other municipality's words: no "Town", "Town Board" or "Dunkirk" in Mequon's, no "City", "Common
Council" or "Mequon" in Dunkirk's."""

from __future__ import annotations

import itertools
import re
import shutil
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

import knowledge
from knowledge import NeedsClarification, handlers, load_town, render, town as shared_town
from knowledge.loader import MUNICIPALITIES, ROOT
from knowledge.model import BurningOrder

from .test_cases import _all_cases, _call

#: what each kind of Wisconsin municipality calls its governing body
BODIES = {"Town": "Town Board", "City": "Common Council", "Village": "Village Board"}
TOWNS = knowledge.town_keys()


def foreign_words(key: str) -> re.Pattern:
    """Words only another municipality would use: the other kinds and their governing bodies, the other towns'
    names."""
    own = shared_town(key)
    kinds = [k for k in MUNICIPALITIES if k != own.municipality]
    names = [shared_town(k).short_name for k in TOWNS if k != key]
    return re.compile(r"\b(" + "|".join(kinds + [BODIES[k] for k in kinds] + names) + r")\b")


def _with_fee_schedule(tmp_path, key: str):
    """The town with a fee-schedule amount for its neutered-dog license tax (fees.yml), as the Clerk would set."""
    root = tmp_path / "knowledge"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (root / "towns" / key / "fees.yml").write_text(
        'dog_license.tax.neutered:\n  value: 10.00\n  since: 2026-01-01\n  source: "resolution 2026-1"\n')
    return load_town(key, root=root)


def every_answer(key: str, tmp_path):
    """Every kind of answer the engine gives town ``key``, over a spread of inputs."""
    t = shared_town(key)
    on, tz = date(2026, 12, 1), ZoneInfo(t.timezone)
    for case in _all_cases():
        c = case.values[0]
        if c["town"] == key and c["handler"] != "when" and "raises" not in c["expect"]:
            yield _call(c)
    for topic_key, topic in t.topics.items():
        yield handlers.topic(t, topic_key, on=on, cross=False)
        for name in topic.rules:
            yield handlers.topic(t, topic_key, on=on, aspect=name)
    for on_, dogs, neutered, acquired, moved_in, option in itertools.product(
            (date(2026, 1, 10), date(2026, 5, 15)), (1, 2, 13), (None, 1), (None, date(2026, 1, 5)),
            (None, date(2026, 2, 1)), (None, "multiple")):
        try:
            yield handlers.license_cost(t, on=on_, dogs=dogs, neutered=neutered, service_dogs=1,
                                        acquired=acquired, moved_in=moved_in, option=option)
        except NeedsClarification:
            pass
        yield handlers.license_deadline(t, on=on_, moved_in=moved_in, acquired=acquired)
    yield handlers.license_cost(_with_fee_schedule(tmp_path, key), on=date(2026, 5, 15), dogs=2, neutered=1)
    for kind, animal, vaccinated in itertools.product(("bite", "exposure"), ("dog", "cat", "other"), (None, False)):
        yield handlers.quarantine(t, incident=date(2026, 11, 20), today=on, kind=kind, animal=animal,
                                  vaccinated=vaccinated)
    yield handlers.animal_limits(t, on=on, dogs=7, cats=6, puppies=4)
    yield handlers.burn_setback(t, distance_feet=50, on=on)
    orders = [BurningOrder(True, start=datetime(2026, 12, 7, 8, tzinfo=tz), end=datetime(2026, 12, 7, 12, tzinfo=tz))]
    for at in (datetime(2026, 12, 7, 10, tzinfo=tz), datetime(2026, 12, 7, 14, tzinfo=tz)):
        yield handlers.burning(t, at=at, orders=orders, material="tires")
        yield handlers.burn_window(t, day=at.date(), orders=orders)
        yield handlers.burning_order_status(t, now=at, orders=orders)
    for term in sorted({d.term for d in t.definitions.values()}) + ["zoning"]:
        yield handlers.definition(t, term)
    yield handlers.search(t, "fee for a dog", on=on)


def lines(answer) -> list[str]:
    """Every line a resident may read of ``answer``: the whole text and the parts the channels show."""
    parts = render.payload(answer)
    return [render.text(answer), *parts["gaps"], *parts["caveats"], *(s["text"] for s in parts["steps"])]


@pytest.mark.parametrize("key", TOWNS)
def test_no_engine_line_names_another_municipality(key, tmp_path):
    # the check is not vacuous: Mequon's words flag the line the engine used to write, Dunkirk's a council
    assert foreign_words("mequon").search("Part of this fee is set by the Town and isn't in our copy")
    assert foreign_words("dunkirk").search("The Common Council sets the fee by resolution.")
    assert not foreign_words("mequon").search("Part of this fee is set by the Common Council by resolution.")
    foreign = foreign_words(key)
    found, count = {}, 0
    for answer in every_answer(key, tmp_path):
        for text in lines(answer):
            count += 1
            for sentence in render.sentences(text):
                m = foreign.search(sentence)
                if m:
                    found.setdefault(m.group(0), sentence)
    assert count > 1000
    assert not found, "\n".join(f"{word!r}: {sentence}" for word, sentence in found.items())


def test_the_fee_gap_names_who_sets_the_fee_from_the_towns_data(tmp_path):
    mequon = handlers.license_cost(shared_town("mequon"), on=date(2026, 5, 15), dogs=1, neutered=1)
    assert ("Part of this fee is set by the Common Council by resolution and isn't in our copy of the code - the "
            "Clerk can tell you the exact amount.") in render.gap_lines(mequon)
    dunkirk = handlers.license_cost(shared_town("dunkirk"), on=date(2026, 5, 15), dogs=1, neutered=1)
    assert "Part of this fee is set by the Town and isn't in our copy" in " ".join(render.gap_lines(dunkirk))
    scheduled = handlers.license_cost(_with_fee_schedule(tmp_path, "mequon"), on=date(2026, 5, 15), dogs=1,
                                      neutered=1)
    assert any("from the City's fee schedule (resolution 2026-1)" in c for c in scheduled.caveats)

