"""The answer engine: each handler is a pure function of (town, inputs, date/time) returning an Answer."""

from .age import licensable_age_months, licensable_on
from .burn_materials import material_rule
from .burn_window import burn_window, burning_order_status
from .burning import burning
from .license import license_cost
from .license_dates import late_fee_due, license_deadline
from .limits import animal_limits
from .lookup import definition, search, section, topic
from .measure import measured
from .quarantine import quarantine
from .setback import burn_setback
from .vaccination import vaccination_due

__all__ = ["animal_limits", "definition", "burn_setback", "burn_window", "burning", "burning_order_status", "late_fee_due", "licensable_age_months", "licensable_on", "license_cost", "license_deadline", "material_rule", "measured", "quarantine", "search",
           "section", "topic", "vaccination_due"]
