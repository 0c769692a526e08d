"""The keys a member holds through its roles, registered with the access layer."""

from __future__ import annotations

from api.access.keys import register_member_keys
from api.role.services import member_keys


def register() -> None:
    register_member_keys(member_keys)
