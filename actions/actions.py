"""Entry point of the action package (rasa run actions --actions actions)."""
from .answers import (ActionAnswer, ActionClarify, ActionGreet, ActionHandoff, ActionHelp, ActionMore,  # noqa: F401
                      ActionOutOfScope)
from .forms import (ActionAskBurnConfirmed, ActionCancelForm, ActionLicenseAnswer, ActionStartBurn,  # noqa: F401
                    ActionSubmitBurn, ValidateBurnForm, ValidateLicenseForm)
from .questions import ASK_ACTIONS  # noqa: F401,E402
from .switch import ActionLeaveLicenseForm  # noqa: F401,E402
