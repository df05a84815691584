"""One measured speed fix for Rasa 3.6.21, applied when the Rasa server loads our pipeline.

Rasa checks every action-server response with ``jsonschema.validate(result, schema)``, which re-checks the
*schema itself* against the JSON-Schema meta-schema on every call: ~25 ms per custom action on our 2-core
machine, more than the rest of the turn (measured with cProfile; bench/bot_bench.py shows the effect).
``RemoteAction._validate_action_result`` is replaced by the same validation with a validator built once:
the response is still validated against the same schema and the same error is raised.
"""
from __future__ import annotations

from typing import Any, Dict

_VALIDATOR = None


def _validate_action_result(self, result: Dict[str, Any]) -> bool:
    global _VALIDATOR
    from jsonschema import exceptions, validators

    from rasa.core.actions.action import DOCS_BASE_URL

    if _VALIDATOR is None:
        schema = self.action_response_format_spec()
        cls = validators.validator_for(schema)
        cls.check_schema(schema)
        _VALIDATOR = cls(schema)
    error = exceptions.best_match(_VALIDATOR.iter_errors(result))
    if error is not None:
        error.message += (". Failed to validate Action server response from API, make sure your response from "
                          f"the Action endpoint is valid. For more information about the format visit "
                          f"{DOCS_BASE_URL}/custom-actions")
        raise error
    return True


def apply() -> None:
    from rasa.core.actions.action import RemoteAction

    if getattr(RemoteAction._validate_action_result, "__module__", "") != __name__:
        RemoteAction._validate_action_result = _validate_action_result
