"""The budget area's object kind: a storage's lot, reached through its storage."""

from api.budget.lots import register

__all__ = ["register"]
