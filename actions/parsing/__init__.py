"""Reading residents' words: plain functions over text and entity lists, no Rasa.

Each function answers one question about a message or a reply ("is this only a time of day?", "which fields
does this correction name?", "which phone number is in it?"); the readers and forms call them as
``parsing.<name>``, and tests/actions/test_parsing.py checks them directly. By subject:

- counts.py: how many of which animal, spayed or neutered, service dogs, ages and litters
- fines.py: the rule a penalty question names, a question about the household limit
- licensing.py: the day a dog came or was bought, reaches the licensable age, a move into town; deadline or total
- incidents.py: a bite or an exposure, and what is asked of its quarantine
- burning.py: the time phrase, material, distance and weather of a burning question
- notice.py: the burn notice's fields (name, address, phone, place) and a correction naming one
- terms.py: a defined term asked, "which section is that?", an unsure intent its words confirm
"""
from .burning import *  # noqa: F401,F403
from .counts import *  # noqa: F401,F403
from .fines import *  # noqa: F401,F403
from .incidents import *  # noqa: F401,F403
from .licensing import *  # noqa: F401,F403
from .notice import *  # noqa: F401,F403
from .terms import *  # noqa: F401,F403
