"""The template's AI: its own agents by spec name (``AGENTS``) and what the generic
searches need to know of it (``SUPPORT``)."""

from .heuristic import AGENTS
from .support import SUPPORT

__all__ = ["AGENTS", "SUPPORT"]
