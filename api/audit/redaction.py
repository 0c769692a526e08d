"""What the operation log may keep of a value: secrets never, at any depth.

A key names a secret when one of its words (camelCase, snake_case, kebab-case or dotted) is a
secret word (secret, password, token, hash, credential ...), or it ends in "key" / "keys" (apiKey,
apiV3Key, privateKey, app_private_key), apart from the few keys that are plain identifiers
(paramKey). Values under such keys are replaced by REDACTED wherever they sit: in a column, inside
a JSON column, inside JSON written into a string, inside lists. A PEM private key is redacted
wherever it appears. The trail still says WHICH secrets an update set, changed or removed
(`changed_secrets`: "config.clientSecret: changed"), never their values.
"""

from __future__ import annotations

import json
import re
from typing import Any

REDACTED = "***"
SECRET_WORDS = frozenset(
    {"secret", "secrets", "password", "passwd", "pwd", "passphrase", "token", "tokens", "hash", "credential"}
)
SECRET_WORDS |= {"credentials", "pin", "privatekey", "apikey", "cookie", "authorization"}
KEY_WORDS = frozenset({"key", "keys"})
# Keys ending in "key" that are identifiers, not secrets (a device type's parameter key, 0x0001 ...).
NOT_SECRET = frozenset({"paramkey", "minparamkey", "maxparamkey", "dedupekey"})
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_PEM_PRIVATE = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(-----END [A-Z ]*PRIVATE KEY-----|$)", re.S)
# Strings longer than this are not parsed for JSON inside (they are still checked for a PEM key).
MAX_JSON_STRING = 100_000


def words_of(key: str) -> list[str]:
    return [word.lower() for part in re.split(r"[^A-Za-z0-9]+", key) for word in _WORD.findall(part)]


def is_secret_key(key: Any) -> bool:
    if not isinstance(key, str):
        return False
    words = words_of(key)
    if not words or "".join(words) in NOT_SECRET:
        return False
    return bool(SECRET_WORDS.intersection(words)) or words[-1] in KEY_WORDS


def _json_inside(value: str) -> Any | None:
    """The JSON object or array a string holds, else None."""
    text = value.strip()
    if len(text) < 2 or len(text) > MAX_JSON_STRING or text[0] not in "{[" or text[-1] not in "}]":
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict | list) else None


def redact(value: Any, depth: int = 0) -> Any:
    """A copy of `value` with every secret replaced by REDACTED (None stays None: "not set")."""
    if depth > 64:  # deeper than any stored document: keep nothing rather than recurse on
        return REDACTED
    if isinstance(value, dict):
        return {
            key: (REDACTED if item is not None else None) if is_secret_key(key) else redact(item, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(item, depth + 1) for item in value]
    if isinstance(value, str):
        inside = _json_inside(value)
        if inside is not None:
            cleaned = redact(inside, depth + 1)
            return value if cleaned == inside else json.dumps(cleaned, ensure_ascii=False)
        return _PEM_PRIVATE.sub(REDACTED, value) if "PRIVATE KEY-----" in value else value
    return value


def redact_field(key: str, value: Any) -> Any:
    """A column's value as the log keeps it."""
    if is_secret_key(key):
        return REDACTED if value is not None else None
    return redact(value)


def _secrets(value: Any, path: str, depth: int = 0) -> dict[str, Any]:
    """Every secret under `value`: {dotted path: its value}."""
    found: dict[str, Any] = {}
    if depth > 64:
        return found
    if isinstance(value, str):
        inside = _json_inside(value)
        if inside is not None:
            return _secrets(inside, path, depth + 1)
        if "PRIVATE KEY-----" in value and _PEM_PRIVATE.search(value):
            found[path] = value
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if is_secret_key(key):
                if item is not None:
                    found[here] = item
            else:
                found.update(_secrets(item, here, depth + 1))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found.update(_secrets(item, f"{path}[{index}]", depth + 1))
    return found


def changed_secrets(key: str, before: Any, after: Any) -> list[str]:
    """Which secrets under a column an update set, changed or removed: "oauth.wechat.clientSecret: changed"."""
    if is_secret_key(key):
        old, new = ({key: before} if before is not None else {}), ({key: after} if after is not None else {})
    else:
        old, new = _secrets(before, key), _secrets(after, key)
    lines = []
    for path in sorted(set(old) | set(new)):
        if path not in old:
            lines.append(f"{path}: set")
        elif path not in new:
            lines.append(f"{path}: removed")
        elif old[path] != new[path]:
            lines.append(f"{path}: changed")
    return lines


def set_secrets(key: str, value: Any) -> list[str]:
    """The secrets a new row holds under a column: "config.privateKey: set"."""
    return changed_secrets(key, None, value)
