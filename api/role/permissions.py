"""The permission-key tree roles grant from: api/access/keys.py owns it (one source of truth)."""

from __future__ import annotations

from api.access.keys import MEMBER_BASELINE, all_keys, key_passes, tree

__all__ = ["MEMBER_BASELINE", "all_keys", "key_passes", "tree"]
