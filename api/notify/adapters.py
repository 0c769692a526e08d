"""Provider adapters: email over SMTP, SMS and voice over an HTTP provider API, webhooks.

With no provider configured in development, messages are written to the log instead (that is how a
developer reads a verification code); production refuses to pretend (DeliveryError).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

import requests
from flask import current_app

from api.extensions import outbound
from api.notify.models import Channel

log = logging.getLogger(__name__)


# What an adapter returns when no provider is configured and it only wrote the message to the log.
NOT_CONFIGURED = "console"


def message_id(idempotency_key: str, domain: str) -> str:
    """The Message-ID of an email: stable per outbox row, so a repeat after a crash folds in the mail store."""
    return f"<{hashlib.sha256(idempotency_key.encode()).hexdigest()[:32]}@{domain}>"


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
    idempotency_key: str | None = None
    secret: str | None = None  # the webhook's signing secret
    attachment: str | None = None  # a file path; email only


def _console(message: Outgoing) -> str:
    if current_app.config.get("APP_ENV_PRODUCTION"):
        raise DeliveryError(f"no {message.channel} provider configured")
    log.warning(
        "[%s not configured] to %s: %s %s", message.channel, message.recipient, message.subject or "", message.body
    )
    return NOT_CONFIGURED


def send_email(message: Outgoing, settings: dict | None = None) -> str:
    """`settings` (SMTP_HOST ...): a platform's own provider instead of the app's (the test message
    of /operation/system/manage)."""
    config = settings or current_app.config
    if not config["SMTP_HOST"]:
        return _console(message)
    email = EmailMessage()
    email["From"] = formataddr((message.sender_name, config["MAIL_FROM"]))
    email["To"] = message.recipient
    email["Subject"] = message.subject or message.sender_name
    domain = config["MAIL_FROM"].rpartition("@")[2] or "localhost"
    email["Message-ID"] = (
        message_id(message.idempotency_key, domain) if message.idempotency_key else make_msgid(domain=domain)
    )
    email.set_content(message.body)
    if message.attachment:
        attach_file(email, message.attachment)
    check_target(mail_host=(config["SMTP_HOST"], config["SMTP_PORT"]))
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


def attach_file(email: EmailMessage, path: str) -> None:
    """Attach a generated file (a scheduled report); a file already removed is a delivery failure."""
    kinds = {".pdf": ("application", "pdf"), ".csv": ("text", "csv"), ".xlsx": ("application", "octet-stream")}
    maintype, subtype = kinds.get(os.path.splitext(path)[1].lower(), ("application", "octet-stream"))
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise DeliveryError(f"attachment unavailable: {exc}") from exc
    email.add_attachment(data, maintype=maintype, subtype=subtype, filename=os.path.basename(path))


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def send_via_http_provider(message: Outgoing, settings: dict | None = None) -> str:
    """SMS and voice: POST {channel, to, text} signed with HMAC-SHA256 over `timestamp.body`."""
    config = settings or current_app.config
    if not config["SMS_API_URL"]:
        return _console(message)
    body = json.dumps(
        {"channel": str(message.channel), "to": message.recipient, "text": message.body, "sign": message.sender_name},
        ensure_ascii=False,
    ).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "X-Idempotency-Key": message.idempotency_key or "",
        "X-Api-Key": config["SMS_API_KEY"],
        "X-Timestamp": timestamp,
        "X-Signature": sign(config["SMS_API_SECRET"], timestamp, body),
    }
    if message.idempotency_key:
        headers["Idempotency-Key"] = message.idempotency_key
    check_target(config["SMS_API_URL"])
    try:
        response = outbound.session().post(config["SMS_API_URL"], data=body, headers=headers, timeout=15)
    except requests.RequestException as exc:
        raise DeliveryError(f"SMS provider unreachable: {exc}") from exc
    if response.status_code != 200:
        raise DeliveryError(f"SMS provider answered {response.status_code}: {response.text[:200]}")
    return str(response.json().get("id", ""))[:100]


class UnsafeTargetError(DeliveryError):
    """An address that points inside our network (SSRF): refused, never retried."""


def check_target(url: str | None = None, *, mail_host: tuple[str, int] | None = None) -> None:
    """The outbound check (api/extensions/outbound.py) at use: a refused address is an
    UnsafeTargetError (never retried); a host name that does not resolve now may later (retried)."""
    try:
        if mail_host is not None:
            outbound.check_mail_host(*mail_host)
        else:
            outbound.check_url(url)
    except outbound.OutboundRefusedError as refused:
        error = DeliveryError if refused.reason == "unresolved" else UnsafeTargetError
        raise error(f"outbound address refused ({refused})") from None


def send_webhook(message: Outgoing, settings: dict | None = None) -> str:
    """POST the JSON body with X-Timestamp and X-Signature = HMAC-SHA256(secret, "timestamp.body").
    (`settings` is for the adapters' common shape: a webhook's target is its own provider.)"""
    check_target(message.recipient)
    body = message.body.encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "coldchain-webhook/1",
        "X-Idempotency-Key": message.idempotency_key or "",
        "X-Timestamp": timestamp,
        "X-Signature": "sha256=" + sign(message.secret or "", timestamp, body),
    }
    try:
        # Redirects are not followed: a redirect could point the request back inside.
        response = outbound.session().post(
            message.recipient, data=body, headers=headers, timeout=10, allow_redirects=False
        )
    except requests.RequestException as exc:
        raise DeliveryError(f"webhook unreachable: {exc}") from exc
    if not 200 <= response.status_code < 300:
        raise DeliveryError(f"webhook answered {response.status_code}")
    return f"webhook {response.status_code}"


ADAPTERS = {
    Channel.EMAIL: send_email,
    Channel.SMS: send_via_http_provider,
    Channel.VOICE: send_via_http_provider,
    Channel.WEBHOOK: send_webhook,
}
