"""knowledge/vocabulary/time.yml is checked at load: a malformed file fails naming the file and the key."""

import pytest
import yaml

from knowledge import timewords
from knowledge.errors import KnowledgeError


def _broken(tmp_path, change):
    data = yaml.safe_load(timewords.FILE.read_text())
    change(data)
    path = tmp_path / "time.yml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize("change, key", [
    (lambda d: d["weekdays"].pop("sunday"), "weekdays"),
    (lambda d: d["months"].update(june=["Jun"]), "months.june[0]"),
    (lambda d: d["parts_of_day"]["night"].update({"from": "6pm"}), "parts_of_day.night.from"),
    (lambda d: d["parts_of_day"]["night"].update(pm=["5-13"]), "parts_of_day.night.pm[0]"),
    (lambda d: d["parts_of_day"]["morning"].update(colour="red"), "parts_of_day.morning"),
    (lambda d: d["part_phrases"][0].update(part="brunch"), "part_phrases[0].part"),
    (lambda d: d["sun_words"].update(dusk="evening"), "sun_words.dusk"),
    (lambda d: d.pop("shorthand"), "(file)"),
])
def test_a_malformed_vocabulary_fails_naming_the_file_and_the_key(tmp_path, change, key):
    path = _broken(tmp_path, change)
    with pytest.raises(KnowledgeError) as err:
        timewords.load(path)
    assert err.value.file == str(path) and err.value.key == key


def test_the_vocabulary_loads():
    assert timewords.load()["weekdays"]["tuesday"] == ("tue", "tues")
    assert timewords.MONTH_NUMBER["sept"] == 9 and timewords.WEEKDAY_SHORT["thurs"] == 3


def test_a_word_said_twice_fails(tmp_path):
    path = tmp_path / "time.yml"
    path.write_text(timewords.FILE.read_text().replace("  tmr: tomorrow\n", "  tmr: tomorrow\n  tmr: tomorrow\n"))
    with pytest.raises(KnowledgeError, match="duplicate key 'tmr'") as err:
        timewords.load(path)
    assert err.value.file == str(path)
