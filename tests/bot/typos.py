"""A seeded typo generator: the misspelled version of a Rasa NLU test file, for measuring only.

    python -m tests.bot.typos tests/bot/nlu_dev.yml results/typos/nlu_dev_typos.yml [--seed 12] [--rate 0.25]

Each word of an example (outside entity annotations, which keep their text so entity figures stay
comparable) is changed with probability `rate` by one of the ways residents really mistype:
keyboard-neighbour swaps, dropped letters, doubled letters, swapped neighbours, phonetic spellings
("license" -> "lisence", "quarantine" -> "quarentine") and SMS shorthand ("tonight" -> "2nite",
"you" -> "u", "because" -> "bc"). The same seed and input always give the same output; the generator is
never used to make training data (the misspelled sets measure text nobody tuned on).
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

# QWERTY neighbours of each letter (same row and the rows above/below).
KEYBOARD = {
    "q": "wa", "w": "qeas", "e": "wrds", "r": "etdf", "t": "ryfg", "y": "tugh", "u": "yihj", "i": "uojk",
    "o": "ipkl", "p": "ol", "a": "qwsz", "s": "awedxz", "d": "serfcx", "f": "drtgvc", "g": "ftyhbv",
    "h": "gyujnb", "j": "huikmn", "k": "jiolm", "l": "kop", "z": "asx", "x": "zsdc", "c": "xdfv",
    "v": "cfgb", "b": "vghn", "n": "bhjm", "m": "njk",
}

# Whole-word SMS shorthand residents use.
SMS = {
    "you": ["u"], "your": ["ur", "yr"], "you're": ["ur"], "are": ["r"], "tonight": ["2nite", "tonite"],
    "tomorrow": ["tmrw", "tmr", "2morrow"], "today": ["2day"], "because": ["bc", "cuz", "b/c"],
    "please": ["pls", "plz"], "thanks": ["thx", "ty"], "with": ["w", "w/"], "without": ["w/o"],
    "for": ["4"], "to": ["2"], "before": ["b4"], "okay": ["ok", "k"], "people": ["ppl"],
    "about": ["abt"], "know": ["kno"], "what": ["wat", "wut"], "how": ["hw"], "and": ["n", "&"],
    "really": ["rly"], "probably": ["prob", "prolly"], "weekend": ["wknd"], "message": ["msg"],
    "neighbor": ["nbr", "neighbr"], "neighbour": ["nbr"], "minutes": ["mins"], "hours": ["hrs"],
    "license": ["lic"], "years": ["yrs"], "saturday": ["sat"], "sunday": ["sun"], "doing": ["doin"],
    "burning": ["burnin"], "going": ["goin", "gonna"], "something": ["smth", "sth"], "right": ["rite"],
    "night": ["nite"], "though": ["tho"], "through": ["thru"], "have": ["hav"], "the": ["da", "teh"],
}

# Phonetic spellings: a substring and the ways people write it by ear.
PHONETIC = [
    ("ense", ["ence", "ens"]), ("cense", ["sence", "cence"]), ("tion", ["shun", "sion"]), ("ph", ["f"]),
    ("antine", ["entine", "inteen"]), ("ould", ["ud"]), ("ight", ["ite"]), ("ough", ["uff", "o"]),
    ("ck", ["k"]), ("ee", ["ea"]), ("ea", ["ee"]), ("ie", ["ei"]), ("ei", ["ie"]), ("ous", ["us"]),
    ("er", ["ur"]), ("ence", ["ance"]), ("ance", ["ence"]), ("able", ["ible"]), ("ss", ["s"]),
    ("ll", ["l"]), ("z", ["s"]), ("s", ["z"]), ("c", ["k"]), ("ing", ["in"]),
]

ANNOTATION = re.compile(r"\[[^\]]*\](?:\([^)]*\)|\{[^}]*\})")
WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def keyboard_swap(word: str, rng: random.Random) -> str:
    spots = [i for i, ch in enumerate(word) if ch.lower() in KEYBOARD]
    if not spots:
        return word
    i = rng.choice(spots)
    return word[:i] + rng.choice(KEYBOARD[word[i].lower()]) + word[i + 1:]


def drop_letter(word: str, rng: random.Random) -> str:
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word))
    return word[:i] + word[i + 1:]


def double_letter(word: str, rng: random.Random) -> str:
    i = rng.randrange(len(word))
    return word[:i + 1] + word[i] + word[i + 1:]


def swap_neighbours(word: str, rng: random.Random) -> str:
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def phonetic(word: str, rng: random.Random) -> str:
    options = [(a, b) for a, bs in PHONETIC if a in word.lower() for b in bs]
    if not options:
        return drop_letter(word, rng)
    a, b = rng.choice(options)
    i = word.lower().index(a)
    return word[:i] + b + word[i + len(a):]


def sms(word: str, rng: random.Random) -> str | None:
    forms = SMS.get(word.lower())
    return rng.choice(forms) if forms else None


MISTAKES = [keyboard_swap, drop_letter, double_letter, swap_neighbours, phonetic]


def misspell_word(word: str, rng: random.Random) -> str:
    """One resident-style mistake in one word (short words only get SMS shorthand)."""
    short = sms(word, rng)
    if short is not None and rng.random() < 0.7:
        return short
    if len(word) < 3:
        return word
    return rng.choice(MISTAKES)(word, rng)


def misspell(text: str, rng: random.Random, rate: float) -> str:
    """The example text with words outside entity annotations misspelled at `rate`."""
    parts, last = [], 0
    for m in ANNOTATION.finditer(text):
        parts.append(_misspell_plain(text[last:m.start()], rng, rate))
        parts.append(m.group(0))
        last = m.end()
    parts.append(_misspell_plain(text[last:], rng, rate))
    return "".join(parts)


def _misspell_plain(text: str, rng: random.Random, rate: float) -> str:
    def one(m: re.Match) -> str:
        return misspell_word(m.group(0), rng) if rng.random() < rate else m.group(0)
    return WORD.sub(one, text)


EXAMPLE = re.compile(r"^(\s+- )(.*)$")


def misspell_file(src: str, rate: float = 0.25, seed: int = 12) -> str:
    """The NLU file's text with every example line misspelled (comments and structure unchanged)."""
    rng = random.Random(seed)
    out, in_examples = [], False
    for line in src.splitlines():
        stripped = line.strip()
        if stripped.startswith("examples:"):
            in_examples = True
        elif stripped.startswith("- intent:") or stripped.startswith("- synonym:") or not line.startswith(" "):
            in_examples = False
        m = EXAMPLE.match(line)
        if in_examples and m:
            line = m.group(1) + misspell(m.group(2), rng, rate)
        out.append(line)
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--rate", type=float, default=0.25)
    a = p.parse_args(argv)
    Path(a.dst).parent.mkdir(parents=True, exist_ok=True)
    Path(a.dst).write_text(misspell_file(Path(a.src).read_text(), a.rate, a.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
