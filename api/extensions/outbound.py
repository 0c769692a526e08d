"""Outbound addresses: the one check of every address the api connects to (payment gateways, the
data interface's endpoints, alarm webhooks, OAuth providers, the SMS / voice / mail providers, the
old platform), when it is saved and again when it is used.

An address passes when it is http(s) with a host and every address its host resolves to is public:
no loopback, link-local, private, carrier-grade NAT, unspecified, reserved or multicast address and
no cloud metadata endpoint (169.254.169.254, fd00:ec2::254, ...). Plain http is refused too. The
operator lists exceptions in OUTBOUND_ALLOWED_HOSTS (comma-separated): a host as written in the URL
(`127.0.0.1`, `sandbox.example.com`; http allowed to it, its addresses not checked) or a network
(`10.8.0.0/16`: a host resolving only into listed networks passes). The test suite and `make run`
list their local fakes (127.0.0.1) there, so the check is active everywhere and they are the
listed exceptions.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import marshmallow as ma
import requests
from flask import current_app, has_app_context
from flask_babel import gettext
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

from api.extensions.i18n import N_

SETTING = "OUTBOUND_ALLOWED_HOSTS"
# Cloud metadata endpoints (AWS, GCP and Azure share 169.254.169.254; AWS IPv6; Alibaba; Oracle):
# named so that no allow-listed network can let them through.
METADATA = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200", "192.0.0.192")
)
CARRIER_NAT = ipaddress.ip_network("100.64.0.0/10")

# Why an address is refused: msgid per reason, translated when shown.
REASONS = {
    "scheme": N_("Enter an http(s) address with a host."),
    "https": N_("This address must use HTTPS."),
    "unresolved": N_("This address's host name could not be resolved."),
    "internal": N_(
        "This address points inside the network (loopback, private, link-local or cloud metadata) and is not allowed."
    ),
}


class OutboundRefusedError(ValueError):
    """An address the api must not connect to; `reason` is a key of REASONS, `message` its translation."""

    def __init__(self, reason: str, target: str):
        super().__init__(f"{reason}: {target}")
        self.reason, self.target = reason, target

    @property
    def message(self) -> str:
        return gettext(REASONS[self.reason])


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (a module attribute, so a test can stand in for DNS)."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)]


def _plain(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address without its zone, an IPv4-mapped IPv6 address as the IPv4 address it is."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        return ip.ipv4_mapped
    return ip


def internal(address: str) -> bool:
    """Whether an address is one the api must not reach unless listed."""
    ip = _plain(address)
    return (
        ip in METADATA
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_private
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or ip in CARRIER_NAT
    )


def allowed(entries: Iterable[str] | str | None = None) -> tuple[frozenset[str], tuple]:
    """The listed hosts and networks (from the setting unless `entries` are given)."""
    if entries is None:
        entries = current_app.config.get(SETTING, ()) if has_app_context() else ()
    if isinstance(entries, str):
        entries = entries.split(",")
    hosts, networks = set(), []
    for entry in (e.strip().lower() for e in entries):
        if not entry:
            continue
        if "/" in entry:
            networks.append(ipaddress.ip_network(entry, strict=False))
        else:
            hosts.add(entry.strip("[]"))
    return frozenset(hosts), tuple(networks)


def check_host(host: str | None, port: int, *, secure: bool = True) -> None:
    """Refuse a host that is not listed and resolves to an internal address (or does not resolve).
    `secure`: the connection is encrypted (https); a plain one is allowed to listed hosts only."""
    if not host:
        raise OutboundRefusedError("scheme", "")
    name = host.strip("[]").lower().rstrip(".")
    hosts, networks = allowed()
    try:
        addresses = resolve(name, port)
    except (OSError, UnicodeError):
        addresses = []
    if name in hosts:  # listed: any address but a cloud metadata endpoint
        if any(_plain(address) in METADATA for address in addresses):
            raise OutboundRefusedError("internal", name)
        return
    if not addresses:
        raise OutboundRefusedError("unresolved" if secure else "https", name)
    for address in addresses:
        ip = _plain(address)
        listed = any(ip.version == n.version and ip in n for n in networks) and ip not in METADATA
        if internal(address) and not listed:
            raise OutboundRefusedError("internal", name)
    if not secure:
        raise OutboundRefusedError("https", name)


def check_url(url: str | None) -> str:
    """Refuse a URL the api must not connect to (OutboundRefusedError); answer it unchanged."""
    try:
        parts = urlsplit(url or "")
        port = parts.port
    except ValueError:
        raise OutboundRefusedError("scheme", str(url)) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OutboundRefusedError("scheme", str(url))
    check_host(parts.hostname, port or (443 if parts.scheme == "https" else 80), secure=parts.scheme == "https")
    return url


def check_mail_host(host: str, port: int) -> None:
    """A mail server: no scheme, so its host is checked as an encrypted connection's would be."""
    check_host(host, port)


def validate_url(value: str | None) -> None:
    """A marshmallow validator: the address is refused at save with the reason, naming the field."""
    if value in (None, ""):
        return
    try:
        check_url(value)
    except OutboundRefusedError as refused:
        raise ma.ValidationError(refused.message) from None


def validate_mail_host(value: str | None) -> None:
    if value in (None, ""):
        return
    try:
        check_mail_host(value, 25)
    except OutboundRefusedError as refused:
        raise ma.ValidationError(refused.message) from None


# ---- when connecting: the address actually connected to ------------------------------------------------
#
# A host name checked before a request may resolve elsewhere a moment later (DNS rebinding). The
# api's own HTTP calls go through `session()`, whose connections check the peer they reached once
# connected, by the same rule; through a proxy the proxy is the peer, so it is not judged.


def check_peer(host: str, address: str) -> None:
    """Refuse a connection made to an internal address (unless its host or network is listed)."""
    name = (host or "").strip("[]").lower().rstrip(".")
    ip = _plain(address)
    hosts, networks = allowed()
    if ip in METADATA or (
        name not in hosts and internal(address) and not any(ip.version == n.version and ip in n for n in networks)
    ):
        raise OutboundRefusedError("internal", name)


class _PeerChecked:
    def _new_conn(self):
        sock = super()._new_conn()
        if getattr(self, "proxy", None) is None and getattr(self, "_tunnel_host", None) is None:
            try:
                check_peer(self.host, sock.getpeername()[0])
            except OutboundRefusedError as refused:
                sock.close()
                raise NewConnectionError(self, f"outbound address refused ({refused})") from None
        return sock


class _CheckedHTTPConnection(_PeerChecked, HTTPConnection):
    pass


class _CheckedHTTPSConnection(_PeerChecked, HTTPSConnection):
    pass


class _CheckedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _CheckedHTTPConnection


class _CheckedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _CheckedHTTPSConnection


class CheckedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _CheckedHTTPPool, "https": _CheckedHTTPSPool}


def guard(session: requests.Session) -> requests.Session:
    """Make a session's direct connections check their peer (an OAuth client is a session too)."""
    adapter = CheckedAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def session() -> requests.Session:
    """A requests session for one outbound call: check_url before it, check_peer on connecting."""
    return guard(requests.Session())
