"""Agents answer decisions from their seat's observation and the legal action descriptors only."""

from .base import Agent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent, ScriptExhausted

__all__ = ["Agent", "RandomAgent", "ScriptedAgent", "ScriptExhausted"]
