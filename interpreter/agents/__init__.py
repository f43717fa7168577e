"""Agents answer decisions. Each gets the Decision (with its legal options) and its seat's view only."""
from .base import Agent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent, ScriptExhausted

__all__ = ["Agent", "RandomAgent", "ScriptedAgent", "ScriptExhausted"]
