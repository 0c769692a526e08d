"""Social sign-in (WeChat web, QQ web, Facebook web) with Authlib's OAuth 2 client.

Each platform carries its own app credentials in its tenant definition (`oauth.<provider>`:
clientId, clientSecret, and optionally the endpoint URLs, which the tests point at a local fake).
The redirect URI is the site's own /user/login-result page; it is stored with the state and sent
again when the code is exchanged, so a code minted for another site or URI is refused.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

import requests
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc6749 import OAuth2Error
from flask import request
from flask_babel import gettext
from sqlalchemy import delete, select

from api.extensions import outbound
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.identity import sessions
from api.identity.models import Account, OAuthState, SocialIdentity
from api.tenancy import current_platform

log = logging.getLogger(__name__)
STATE_TTL = timedelta(minutes=10)
BINDING_TTL = timedelta(minutes=10)
HTTP_TIMEOUT = 15


@dataclass(frozen=True)
class Provider:
    name: str
    authorize_url: str
    token_url: str
    userinfo_url: str
    scope: str
    token_method: str = "POST"
    # WeChat names the client id `appid` and the secret `secret`.
    param_names: dict[str, str] = field(default_factory=dict)


PROVIDERS = {
    "wechat": Provider(
        "wechat",
        "https://open.weixin.qq.com/connect/qrconnect",
        "https://api.weixin.qq.com/sns/oauth2/access_token",
        "https://api.weixin.qq.com/sns/userinfo",
        "snsapi_login",
        token_method="GET",
        param_names={"client_id": "appid", "client_secret": "secret"},
    ),
    "qq": Provider(
        "qq",
        "https://graph.qq.com/oauth2.0/authorize",
        "https://graph.qq.com/oauth2.0/token",
        "https://graph.qq.com/oauth2.0/me",
        "get_user_info",
        token_method="GET",
    ),
    "facebook": Provider(
        "facebook",
        "https://www.facebook.com/v19.0/dialog/oauth",
        "https://graph.facebook.com/v19.0/oauth/access_token",
        "https://graph.facebook.com/me",
        "public_profile email",
    ),
}


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _settings(provider: Provider) -> dict:
    config = (current_platform().oauth or {}).get(provider.name) or {}
    if not config.get("clientId") or not config.get("clientSecret"):
        raise ApiError(gettext("This sign-in method is not available on this site."), code=1010)
    return config


def _rename(provider: Provider, params: dict) -> dict:
    return {provider.param_names.get(key, key): value for key, value in params.items()}


def redirect_uri(provider: Provider) -> str:
    return f"{request.scheme}://{request.host}/user/login-result?provider={provider.name}"


def authorization_url(provider_name: str) -> str:
    provider = PROVIDERS[provider_name]
    config = _settings(provider)
    state = secrets.token_urlsafe(24)
    uri = redirect_uri(provider)
    db.session.execute(delete(OAuthState).where(OAuthState.expires_at < utcnow()))
    db.session.add(
        OAuthState(
            state_hash=_digest(state),
            provider=provider.name,
            platform_id=current_platform().id,
            redirect_uri=uri,
            expires_at=utcnow() + STATE_TTL,
        )
    )
    db.session.commit()
    client = OAuth2Session(config["clientId"], scope=provider.scope, redirect_uri=uri)
    url, _ = client.create_authorization_url(config.get("authorizeUrl", provider.authorize_url), state=state)
    if provider.param_names:
        url = url.replace("client_id=", f"{provider.param_names['client_id']}=", 1)
    return url + ("#wechat_redirect" if provider.name == "wechat" else "")


def _consume_state(provider: Provider, state: str) -> OAuthState:
    row = db.session.get(OAuthState, _digest(state or ""))
    if row is not None:
        db.session.delete(row)
        db.session.commit()
    if (
        row is None
        or row.expires_at < utcnow()
        or row.provider != provider.name
        or row.platform_id != current_platform().id
    ):
        raise ApiError(gettext("The sign-in request has expired or is not valid, please try again."), code=1011)
    return row


def _subject(provider: Provider, config: dict, token: dict) -> tuple[str, str | None]:
    """The provider's stable user id (and a display name) for this access token."""
    userinfo_url = config.get("userinfoUrl", provider.userinfo_url)
    params = {"access_token": token["access_token"]}
    if provider.name == "wechat":
        params["openid"] = token.get("openid", "")
    elif provider.name == "qq":
        params["fmt"] = "json"
    else:
        params["fields"] = "id,name"
    try:
        response = outbound.session().get(userinfo_url, params=params, timeout=HTTP_TIMEOUT)
        info = response.json()
    except (requests.RequestException, ValueError) as exc:
        raise ApiError(gettext("The sign-in provider did not answer, please try again."), code=1012) from exc
    subject = info.get("unionid") or info.get("openid") or info.get("id") or token.get("openid")
    if not subject:
        raise ApiError(gettext("The sign-in provider did not answer, please try again."), code=1012)
    return str(subject), info.get("nickname") or info.get("name")


def complete(provider_name: str, code: str, state: str) -> dict:
    """Exchange the code; a bound identity signs in, a new one gets a binding ticket."""
    provider = PROVIDERS[provider_name]
    config = _settings(provider)
    pending = _consume_state(provider, state)
    client = OAuth2Session(
        config["clientId"],
        config["clientSecret"],
        redirect_uri=pending.redirect_uri,
        token_endpoint_auth_method="client_secret_post",
    )
    outbound.guard(client)  # the token request checks the address it connects to
    if provider.param_names:
        client.register_client_auth_method(("renamed_secret_post", _renamed_secret_post(provider)))
        client.token_endpoint_auth_method = "renamed_secret_post"
    try:
        token_url = outbound.check_url(config.get("tokenUrl", provider.token_url))
        outbound.check_url(config.get("userinfoUrl", provider.userinfo_url))
    except outbound.OutboundRefusedError as refused:
        log.warning("%s sign-in: provider address refused (%s)", provider.name, refused)
        raise ApiError(gettext("The sign-in provider refused the request, please try again."), code=1012) from None
    try:
        token = client.fetch_token(
            token_url,
            method=provider.token_method,
            code=code,
            grant_type="authorization_code",
            timeout=HTTP_TIMEOUT,
        )
    except (OAuthError, OAuth2Error, requests.RequestException, ValueError) as exc:
        raise ApiError(gettext("The sign-in provider refused the request, please try again."), code=1012) from exc
    subject, display_name = _subject(provider, config, token)
    platform = current_platform()
    identity = db.session.scalar(
        select(SocialIdentity).where(
            SocialIdentity.platform_id == platform.id,
            SocialIdentity.provider == provider.name,
            SocialIdentity.subject == subject,
        )
    )
    if identity is None:
        identity = SocialIdentity(platform_id=platform.id, provider=provider.name, subject=subject)
        db.session.add(identity)
    identity.display_name = display_name
    account = db.session.get(Account, identity.account_id) if identity.account_id else None
    if account is not None and account.is_active:
        db.session.commit()
        return {"token": sessions.issue_token(account, platform), "bindingTicket": None}
    ticket = secrets.token_urlsafe(24)
    identity.binding_ticket_hash = _digest(ticket)
    identity.binding_expires_at = utcnow() + BINDING_TTL
    db.session.commit()
    return {"token": None, "bindingTicket": ticket}


def _renamed_secret_post(provider: Provider):
    def auth(client_auth, method, uri, headers, body):
        from authlib.common.encoding import to_unicode
        from authlib.common.urls import add_params_to_qs

        extra = _rename(provider, {"client_id": client_auth.client_id, "client_secret": client_auth.client_secret})
        return uri, headers, to_unicode(add_params_to_qs(body or "", extra))

    return auth


def bind(ticket: str, account: Account) -> str:
    """Attach the identity behind `ticket` to an account the caller has just proved to own."""
    identity = db.session.scalar(select(SocialIdentity).where(SocialIdentity.binding_ticket_hash == _digest(ticket)))
    if (
        identity is None
        or identity.binding_expires_at is None
        or identity.binding_expires_at < utcnow()
        or identity.platform_id != current_platform().id
    ):
        raise ApiError(gettext("The sign-in request has expired or is not valid, please try again."), code=1011)
    identity.account_id = account.id
    identity.binding_ticket_hash = None
    identity.binding_expires_at = None
    db.session.commit()
    return sessions.issue_token(account, current_platform())
