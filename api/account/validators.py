"""Spec business-domain section 5: user names, passwords, phones, emails."""

from __future__ import annotations

import re

import marshmallow as ma
import phonenumbers
from flask_babel import gettext

# Letters, digits, underscore; Chinese characters too; never starting with a digit or underscore,
# so a user name can never be mistaken for a phone number at sign-in.
USER_NAME = re.compile(r"^[A-Za-z\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]{5,49}$")
PASSWORD_CLASSES = (re.compile(r"[0-9]"), re.compile(r"[A-Za-z]"), re.compile(r"[^0-9A-Za-z\s]"))
DEFAULT_PHONE_REGION = "CN"


def validate_user_name(value: str) -> None:
    if not USER_NAME.match(value or ""):
        raise ma.ValidationError(
            gettext("6-50 letters, digits, underscores or Chinese characters, not starting with a digit or underscore.")
        )


def validate_password(value: str) -> None:
    if not 6 <= len(value or "") <= 20 or any(ch.isspace() for ch in value):
        raise ma.ValidationError(gettext("The password must be 6-20 characters without spaces."))
    if sum(1 for pattern in PASSWORD_CLASSES if pattern.search(value)) < 2:
        raise ma.ValidationError(gettext("The password must contain at least two of digits, letters and symbols."))


def normalize_phone(value: str) -> str | None:
    """E.164 (+8613800138000) for a valid number, else None. Numbers without + are Chinese."""
    try:
        number = phonenumbers.parse((value or "").strip(), DEFAULT_PHONE_REGION)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


class Phone(ma.fields.String):
    """A phone number, loaded as E.164."""

    def _deserialize(self, value, attr, data, **kwargs):
        normalized = normalize_phone(super()._deserialize(value, attr, data, **kwargs))
        if normalized is None:
            raise ma.ValidationError(gettext("Please enter a valid phone number."))
        return normalized


class LowerEmail(ma.fields.Email):
    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip().lower()


def confirm_matches(data: dict, password_field: str = "password", confirm_field: str = "confirmPassword") -> None:  # noqa: S107
    if data.get(password_field) != data.get(confirm_field):
        raise ma.ValidationError(gettext("The two passwords do not match."), confirm_field)
