"""Undo and redo: the graph states of each browser session, kept on the server.

Every change of the graph (an element added, a bond drawn, a value edited, a file opened)
pushes the new state; undo steps back, redo forward, and a change after an undo drops
the states ahead (the usual linear history).  A session is one page load (a random id
the page keeps); the server keeps at most :data:`SESSIONS` sessions and
:data:`DEPTH` states per session, dropping the least recently used.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

__all__ = ["History", "history_of", "DEPTH", "SESSIONS"]

#: states kept per session
DEPTH = 100
#: sessions kept
SESSIONS = 64


class History:
    """A linear undo/redo history of graph states."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.states = [copy.deepcopy(state)]
        self.index = 0

    @property
    def current(self) -> dict[str, Any]:
        return copy.deepcopy(self.states[self.index])

    def push(self, state: dict[str, Any]) -> None:
        """Record ``state`` as the newest (nothing when it equals the current one)."""
        if state == self.states[self.index]:
            return
        del self.states[self.index + 1:]
        self.states.append(copy.deepcopy(state))
        if len(self.states) > DEPTH:
            del self.states[0]
        self.index = len(self.states) - 1

    def replace(self, state: dict[str, Any]) -> None:
        """Change the current state in place (positions after a drag: not a step)."""
        self.states[self.index] = copy.deepcopy(state)

    def undo(self) -> dict[str, Any] | None:
        """The previous state, or ``None`` at the start of the history."""
        if self.index == 0:
            return None
        self.index -= 1
        return self.current

    def redo(self) -> dict[str, Any] | None:
        """The next state, or ``None`` at its end."""
        if self.index + 1 >= len(self.states):
            return None
        self.index += 1
        return self.current


_SESSIONS: OrderedDict[str, History] = OrderedDict()
_LOCK = threading.Lock()


def history_of(session: str, state: dict[str, Any]) -> History:
    """The history of ``session``, started with ``state`` when it is new."""
    with _LOCK:
        h = _SESSIONS.pop(session, None) or History(state)
        _SESSIONS[session] = h
        while len(_SESSIONS) > SESSIONS:
            _SESSIONS.popitem(last=False)
        return h
