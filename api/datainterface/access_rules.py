"""The data interface's object kind: a connector, reached by its owner only."""

from __future__ import annotations

from api.access.gate import register_kind
from api.datainterface.services import load_connector


def register() -> None:
    register_kind("connector", load_connector)
