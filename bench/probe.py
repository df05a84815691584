"""Timing probe for the Rasa server (measurement only; bench/bot_bench.py --probe uses it, the product never does).

    python -m bench.probe OUT.jsonl run --model ... (the usual `rasa run` arguments)

Wraps the parts of a turn and writes one JSON line per message: wall time, time spent in the tracker store
(retrieve, save), NLU parse, policy predictions, each action run (custom actions are HTTP calls to the
action server), and the number of events in the tracker. The wrapped calls run on Rasa's event loop, so the
synchronous ones (tracker store, predictions) block every other conversation while they run.
"""
from __future__ import annotations

import contextvars
import functools
import json
import sys
import time

_turn: contextvars.ContextVar[dict | None] = contextvars.ContextVar("turn", default=None)
_OUT = None


def _add(key: str, dt: float, name: str | None = None) -> None:
    rec = _turn.get()
    if rec is None:
        return
    rec[key] = rec.get(key, 0.0) + dt * 1000
    rec[key + "_n"] = rec.get(key + "_n", 0) + 1
    if name:
        rec.setdefault("actions", []).append([name, round(dt * 1000, 1)])


def _wrap_async(cls, meth: str, key: str, named: bool = False) -> None:
    orig = getattr(cls, meth)

    @functools.wraps(orig)
    async def wrapper(self, *a, **kw):
        t0 = time.perf_counter()
        try:
            return await orig(self, *a, **kw)
        finally:
            _add(key, time.perf_counter() - t0, self.name() if named else None)

    setattr(cls, meth, wrapper)


def _wrap_sync(cls, meth: str, key: str) -> None:
    orig = getattr(cls, meth)

    @functools.wraps(orig)
    def wrapper(self, *a, **kw):
        t0 = time.perf_counter()
        try:
            return orig(self, *a, **kw)
        finally:
            _add(key, time.perf_counter() - t0)

    setattr(cls, meth, wrapper)


def install(out_path: str) -> None:
    global _OUT
    _OUT = open(out_path, "a", buffering=1)
    from rasa.core.actions import action, loops
    from rasa.core.agent import Agent
    from rasa.core.processor import MessageProcessor

    orig_handle = Agent.handle_message

    @functools.wraps(orig_handle)
    async def handle_message(self, message):
        rec = {"sender": message.sender_id, "text": message.text, "t_start": time.time()}
        token = _turn.set(rec)
        t0 = time.perf_counter()
        try:
            return await orig_handle(self, message)
        finally:
            rec["wall"] = (time.perf_counter() - t0) * 1000
            _turn.reset(token)
            _OUT.write(json.dumps(rec) + "\n")

    Agent.handle_message = handle_message
    from rasa.core.lock_store import LockStore
    _wrap_async(MessageProcessor, "get_tracker", "retrieve")  # whichever tracker store is configured
    _wrap_async(MessageProcessor, "save_tracker", "save")
    _wrap_async(LockStore, "_acquire_lock", "lock_wait")
    _wrap_async(MessageProcessor, "parse_message", "parse")
    _wrap_sync(MessageProcessor, "_predict_next_with_tracker", "predict")
    _wrap_async(action.RemoteAction, "run", "remote", named=True)
    _wrap_async(loops.LoopAction, "run", "loop", named=True)
    _wrap_sync(action.RemoteAction, "_validate_action_result", "validate")

    from rasa.shared.core.trackers import DialogueStateTracker
    orig_from_dict = DialogueStateTracker.from_dict.__func__

    def from_dict(cls, sender_id, events_as_dict, slots=None, max_event_history=None):
        t0 = time.perf_counter()
        tr = orig_from_dict(cls, sender_id, events_as_dict, slots, max_event_history)
        _add("replay", time.perf_counter() - t0)
        rec = _turn.get()
        if rec is not None:
            rec["events"] = len(events_as_dict)
        return tr

    DialogueStateTracker.from_dict = classmethod(from_dict)

    import gc
    gc_start = [0.0]

    def on_gc(phase, info):
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            _add(f"gc{info['generation']}", time.perf_counter() - gc_start[0])

    gc.callbacks.append(on_gc)


def main() -> None:
    out = sys.argv[1]
    install(out)
    sys.argv = ["rasa"] + sys.argv[2:]
    from rasa.__main__ import main as rasa_main
    rasa_main()


if __name__ == "__main__":
    main()
