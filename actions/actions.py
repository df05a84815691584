"""Entry point of the action package (rasa run actions --actions actions): imports every action so that
rasa_sdk registers it.

- answers.py: single questions (one intent -> its reader in readers/ -> one handler -> one message)
- last_answer.py: "why?", "more", "is that illegal?" asked of the answer just given
- note.py: facts stated without a question; replies.py: greeting, help, handoff, out of scope, unsure
- license_form.py, burn_form.py: the two forms' validation (license_reading.py, burn_reading.py: reading the
  residents' answers; form_base.py: what they share; license_answer.py: the cost computed from the form; burn_times.py, burn_notice.py: the notice's times, its read-back and storing; parsing/:
  reading residents' words)
- form_control.py: cancelling or leaving a form
- questions.py: the forms' questions
"""
# loaded at start, not on a resident's first date phrase (knowledge.when_parse imports it lazily, for the alert sender)
import dateparser  # noqa: F401,E402

from .answers import ActionAnswer  # noqa: F401
from .last_answer import ActionMore, ActionWhy  # noqa: F401
from .note import ActionNote  # noqa: F401
from .replies import ActionClarify, ActionGreet, ActionHandoff, ActionHelp, ActionOutOfScope  # noqa: F401
from .burn_form import ValidateBurnForm  # noqa: F401
from .burn_notice import ActionAskBurnConfirmed, ActionStartBurn, ActionSubmitBurn  # noqa: F401
from .form_control import ActionCancelForm, ActionLeaveLicenseForm  # noqa: F401
from .license_answer import ActionLicenseAnswer  # noqa: F401
from .license_form import ValidateLicenseForm  # noqa: F401
from .questions import ASK_ACTIONS  # noqa: F401
from . import meaning

meaning.install()  # the action server ranks a topic's rules by meaning as well as by words (#21)
