"""The Agent protocol. Agents see a seat's view and its legal actions, never a state."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from skydeck.core.action import Action


@runtime_checkable
class Agent(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        """Pick one of ``legal_actions`` for ``seat`` knowing only ``view``."""
        ...
