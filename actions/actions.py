"""Entry point of the action package (rasa run actions --actions actions): imports every action so that
rasa_sdk registers it.

- answers.py: single questions (one intent -> one handler -> one message)
- license_form.py, burn_form.py: the two forms (form_base.py: what they share; parsing.py: reading replies)
- form_control.py: cancelling or leaving a form
- questions.py: the forms' questions
"""
# loaded at start, not on a resident's first date phrase (knowledge.when imports it lazily, for the alert sender)
import dateparser  # noqa: F401,E402

from .answers import (ActionAnswer, ActionClarify, ActionGreet, ActionHandoff, ActionHelp, ActionMore,  # noqa: F401
                      ActionNote, ActionOutOfScope, ActionWhy)
from .burn_form import ActionAskBurnConfirmed, ActionStartBurn, ActionSubmitBurn, ValidateBurnForm  # noqa: F401
from .form_control import ActionCancelForm, ActionLeaveLicenseForm  # noqa: F401
from .license_form import ActionLicenseAnswer, ValidateLicenseForm  # noqa: F401
from .questions import ASK_ACTIONS  # noqa: F401
from . import meaning

meaning.install()  # the action server ranks a topic's rules by meaning as well as by words (#21)
