"""Spec business-domain section 5: user names, passwords, phones, emails, colours."""

from __future__ import annotations

import marshmallow as ma
import phonenumbers
from flask import current_app, has_app_context
from flask_babel import gettext

from api.extensions.field_rules import clean_phone, is_phone_shape, is_user_name, password_problem

# The rules themselves are data shared with the web: rules/fields.json (api/extensions/field_rules.py).
DEFAULT_PHONE_REGION = "CN"


def _overseas() -> bool:
    return bool(has_app_context() and current_app.config.get("OVERSEAS"))


def validate_user_name(value: str) -> None:
    """Letters, digits, underscore (Chinese characters too outside the overseas edition); never
    starting with a digit or underscore, so a user name can never be mistaken for a phone number."""
    if is_user_name(value, overseas=_overseas()):
        return
    if _overseas():
        raise ma.ValidationError(gettext("6-50 letters, digits or underscores, starting with a letter."))
    raise ma.ValidationError(
        gettext("6-50 letters, digits, underscores or Chinese characters, not starting with a digit or underscore.")
    )


def validate_password(value: str) -> None:
    problem = password_problem(value)
    if problem in ("whitespace", "length"):
        raise ma.ValidationError(gettext("The password must be 6-20 characters without spaces."))
    if problem == "strength":
        raise ma.ValidationError(gettext("The password must contain at least two of digits, letters and symbols."))


def normalize_phone(value: str) -> str | None:
    """E.164 (+8613800138000) for a number of the shared shape (rules/fields.json) that is also a
    real number, else None. Numbers without + are Chinese."""
    if not is_phone_shape(value):
        return None
    try:
        number = phonenumbers.parse(clean_phone(value), DEFAULT_PHONE_REGION)
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
