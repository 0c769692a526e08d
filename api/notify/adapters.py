"""Provider adapters: email over SMTP, SMS and voice over an HTTP provider API.

With no provider configured in development, messages are written to the log instead (that is how a
developer reads a verification code); production refuses to pretend (DeliveryError).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

import requests
from flask import current_app

from api.notify.models import Channel

log = logging.getLogger(__name__)


class DeliveryError(Exception):
    """The provider refused or could not be reached; the job retries."""


@dataclass(frozen=True)
class Outgoing:
    channel: Channel
    recipient: str
    subject: str | None
    body: str
    sender_name: str
    # Stable per outbox row: a delivery retried after a crash carries the same key, so the mail store
    # (Message-ID) or the provider (Idempotency-Key) recognises the repeat instead of showing it twice.
    key: str | None = None


def _console(message: Outgoing) -> str:
    if current_app.config.get("APP_ENV_PRODUCTION"):
        raise DeliveryError(f"no {message.channel} provider configured")
    log.warning(
        "[%s not configured] to %s: %s %s", message.channel, message.recipient, message.subject or "", message.body
    )
    return "console"


def send_email(message: Outgoing) -> str:
    config = current_app.config
    if not config["SMTP_HOST"]:
        return _console(message)
    email = EmailMessage()
    email["From"] = formataddr((message.sender_name, config["MAIL_FROM"]))
    email["To"] = message.recipient
    email["Subject"] = message.subject or message.sender_name
    domain = config["MAIL_FROM"].rpartition("@")[2] or "localhost"
    email["Message-ID"] = f"<{message.key}@{domain}>" if message.key else make_msgid(domain=domain)
    email.set_content(message.body)
    try:
        with smtplib.SMTP(config["SMTP_HOST"], config["SMTP_PORT"], timeout=20) as smtp:
            if config["SMTP_STARTTLS"]:
                smtp.starttls()
            if config["SMTP_USER"]:
                smtp.login(config["SMTP_USER"], config["SMTP_PASSWORD"])
            smtp.send_message(email)
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(f"SMTP: {exc}") from exc
    return email["Message-ID"]


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def send_via_http_provider(message: Outgoing) -> str:
    """SMS and voice: POST {channel, to, text} signed with HMAC-SHA256 over `timestamp.body`."""
    config = current_app.config
    if not config["SMS_API_URL"]:
        return _console(message)
    body = json.dumps(
        {"channel": str(message.channel), "to": message.recipient, "text": message.body, "sign": message.sender_name},
        ensure_ascii=False,
    ).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "X-Api-Key": config["SMS_API_KEY"],
        "X-Timestamp": timestamp,
        "X-Signature": sign(config["SMS_API_SECRET"], timestamp, body),
    }
    if message.key:
        headers["Idempotency-Key"] = message.key
    try:
        response = requests.post(config["SMS_API_URL"], data=body, headers=headers, timeout=15)
    except requests.RequestException as exc:
        raise DeliveryError(f"SMS provider unreachable: {exc}") from exc
    if response.status_code != 200:
        raise DeliveryError(f"SMS provider answered {response.status_code}: {response.text[:200]}")
    return str(response.json().get("id", ""))[:100]


ADAPTERS = {Channel.EMAIL: send_email, Channel.SMS: send_via_http_provider, Channel.VOICE: send_via_http_provider}
