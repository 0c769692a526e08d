"""Configuration classes, read from the environment.

Every setting an operator may change is an environment variable; the defaults are the safe ones
(captcha on, no trusted proxy, production-like host checking) except where a development default is
plainly harmless (a local SQLite file, loopback aliases for the demo sites).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
# Signs nothing users depend on yet; production refuses to start with it.
DEV_SECRET_KEY = "dev-only-change-me"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def parse_host_aliases(raw: str) -> dict[str, str]:
    """`localhost=default,junjia.localhost=junjia` -> {host: tenant slug}."""
    aliases: dict[str, str] = {}
    for pair in raw.split(","):
        host, sep, slug = pair.partition("=")
        if sep and host.strip() and slug.strip():
            aliases[host.strip().lower()] = slug.strip()
    return aliases


def parse_public_base_urls(raw: str) -> dict[str, str]:
    """`default=http://localhost:3000,junjia=https://junjia.example.com` -> {slug: base}; refuses any
    other scheme, a missing host, or a path, query or fragment."""
    bases: dict[str, str] = {}
    for pair in raw.split(","):
        slug, sep, base = pair.partition("=")
        if not sep or not slug.strip():
            continue
        base = base.strip().rstrip("/")
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query or parts.fragment:
            raise ValueError(f"PUBLIC_BASE_URLS: {base!r} is not an http(s) origin")
        bases[slug.strip()] = base
    return bases


class BaseConfig:
    TESTING = False
    SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)

    SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'coldchain.db'}")
    # No pool_pre_ping: create_app pings only connections idle for a second (db.ping_when_idle).
    # LIFO: a request takes the connection returned last, whose statements PostgreSQL has prepared
    # and cached, not the one idle longest. After a burst had opened the whole pool, gunicorn's large
    # batch uploads went through it in turn at a fifth below their rate (docs/scaling.md).
    SQLALCHEMY_ENGINE_OPTIONS: dict = {"pool_use_lifo": True}
    REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    MQTT_URL = os.environ.get("MQTT_URL", "mqtt://127.0.0.1:1883")
    # Ingest subscribers share the telemetry topics through this MQTT v5 shared-subscription group
    # ($share/<group>/devices/+/telemetry): the broker hands each message to one of them.
    MQTT_SHARE_GROUP = os.environ.get("MQTT_SHARE_GROUP", "ingest")
    # QoS 1 messages a subscriber may hold unacknowledged (MQTT v5 Receive Maximum): its batches.
    MQTT_RECEIVE_MAXIMUM = int(os.environ.get("MQTT_RECEIVE_MAXIMUM", "1000"))
    # Clean device uploads answered below Flask's request machinery (api/telemetry/fast_upload.py);
    # off, every upload goes through the route.
    DEVICE_UPLOAD_FAST_PATH = env_bool("DEVICE_UPLOAD_FAST_PATH", True)
    # Readings older than this many days are packed per device, sensor and UTC day by the nightly
    # compaction (api/telemetry/compaction.py); at least 1 (today is never packed).
    READING_PACK_AFTER_DAYS = max(1, int(os.environ.get("READING_PACK_AFTER_DAYS", "7")))

    # Tenancy: the directories of declarative tenants and style models, the loopback aliases that
    # map development hosts onto tenants, and the proxies whose X-Forwarded-* headers are believed.
    TENANTS_DIR = Path(os.environ.get("TENANTS_DIR", ROOT / "tenants"))
    THEMES_DIR = Path(os.environ.get("THEMES_DIR", ROOT / "themes"))
    HOST_ALIASES = parse_host_aliases(
        os.environ.get("HOST_ALIASES", "localhost=default,127.0.0.1=default,junjia.localhost=junjia")
    )
    TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
    # Where links in mail and SMS point, per tenant slug (api/platform/links.py); by default the
    # platform's top domain with the scheme of its https flag. Development: the web's address.
    PUBLIC_BASE_URLS = parse_public_base_urls(os.environ.get("PUBLIC_BASE_URLS", ""))
    OPERATOR_TENANT = os.environ.get("OPERATOR_TENANT", "default")

    # Languages and the overseas edition (English by default, spec console-shell section 1).
    OVERSEAS = env_bool("OVERSEAS", False)
    LANGUAGES = ("zh_CN", "en_US")
    # Babel resolves zh_CN to its CLDR name zh_Hans_CN, so the Chinese catalogue lives in that folder.
    BABEL_TRANSLATION_DIRECTORIES = str(ROOT / "api" / "translations")
    DEFAULT_TIMEZONE = os.environ.get("DEFAULT_TIMEZONE", "Asia/Shanghai")

    CAPTCHA_REQUIRED = env_bool("CAPTCHA_REQUIRED", True)

    # Providers: email over SMTP, SMS and voice over an HTTP API (empty in development: logged).
    SMTP_HOST = os.environ.get("SMTP_HOST", "")
    SMTP_PORT = int(os.environ.get("SMTP_PORT", "587"))
    SMTP_USER = os.environ.get("SMTP_USER", "")
    SMTP_PASSWORD = os.environ.get("SMTP_PASSWORD", "")
    SMTP_STARTTLS = env_bool("SMTP_STARTTLS", True)
    MAIL_FROM = os.environ.get("MAIL_FROM", "no-reply@coldtrace.example.com")
    SMS_API_URL = os.environ.get("SMS_API_URL", "")
    SMS_API_KEY = os.environ.get("SMS_API_KEY", "")
    SMS_API_SECRET = os.environ.get("SMS_API_SECRET", "")
    # Every outbound address (payment gateways, data-interface endpoints, webhooks, OAuth and message
    # providers) must be public HTTPS (api/extensions/outbound.py) except the hosts or networks
    # listed here, comma-separated: `127.0.0.1` (a host as written in the URL; plain http allowed)
    # or `10.8.0.0/16` (a network its host may resolve into). Cloud metadata addresses never pass.
    OUTBOUND_ALLOWED_HOSTS = tuple(
        entry.strip() for entry in os.environ.get("OUTBOUND_ALLOWED_HOSTS", "").split(",") if entry.strip()
    )
    # Device credentials are derived from the GUID with this key (defaults to SECRET_KEY).
    DEVICE_KEY_SECRET = os.environ.get("DEVICE_KEY_SECRET", "")
    # The demo's social sign-in provider (tests/demo_oauth.py), configured by `flask seed-demo` as the
    # default site's WeChat app when set (make run and the browser tests).
    DEMO_OAUTH_URL = os.environ.get("DEMO_OAUTH_URL", "")
    # The old platform whose users may sign in once and be moved here (login/toOldPaltform).
    OLD_PLATFORM_URL = os.environ.get("OLD_PLATFORM_URL", "")
    # Jobs run in-process only when Redis cannot be reached (the embedded default of make run).
    JOBS_INLINE_FALLBACK = env_bool("JOBS_INLINE_FALLBACK", True)

    # Exports and reports (download centre): where files are kept, for how many days, and when a
    # generating file whose job stopped beating (a killed worker) is started again.
    FILES_DIR = Path(os.environ.get("FILES_DIR", ROOT / "var" / "files"))
    # Seals (api/seals): signed FDA PDFs and sealed trail heads carry the site's seal (generated and
    # issued by the installation's seal root, or uploaded by the operator). Seal keys are kept
    # encrypted with a key-encryption key: SEAL_KEK, or the file SEAL_KEK_FILE (unset: a random one
    # is generated once into a 0600 file under var/, never under FILES_DIR). SEAL_TSA_URL: the
    # RFC 3161 timestamp authority that stamps every seal (unset: the installation's local authority,
    # for development and tests); SEAL_TSA_TRUST_FILE: PEM certificates its tokens chain to.
    SEAL_KEK = os.environ.get("SEAL_KEK", "")
    SEAL_KEK_FILE = Path(os.environ.get("SEAL_KEK_FILE", ROOT / "var" / "secrets" / "seal-kek"))
    SEAL_TSA_URL = os.environ.get("SEAL_TSA_URL", "")
    SEAL_TSA_TRUST_FILE = os.environ.get("SEAL_TSA_TRUST_FILE", "")
    # The key of the audit trail's and the e-signatures' hashes (HMAC-SHA256, api/extensions/hashkeys.py):
    # the secret itself or a file holding it; unset, one is generated into var/keys (demo and make run).
    # Retired keys (comma-separated files) keep the rows they hashed verifiable after a rotation.
    AUDIT_HMAC_KEY = os.environ.get("AUDIT_HMAC_KEY", "")
    AUDIT_HMAC_KEY_FILE = os.environ.get("AUDIT_HMAC_KEY_FILE", "")
    AUDIT_HMAC_RETIRED_KEY_FILES = env_list("AUDIT_HMAC_RETIRED_KEY_FILES")
    # The write-once folder the trail's signed chain heads are exported to (api/audit/heads.py);
    # unset: var/audit-heads. Point it at storage the database's administrators cannot rewrite.
    AUDIT_HEAD_EXPORT_DIR = os.environ.get("AUDIT_HEAD_EXPORT_DIR", "")
    # Wrong electronic-signature attempts (21 CFR 11.300(d)): this many within the window lock the
    # account's signing for the lock's minutes, sign it out and tell its owners' FDA contacts.
    FDA_SIGNING_TRIES = int(os.environ.get("FDA_SIGNING_TRIES", "5"))
    FDA_SIGNING_WINDOW_MINUTES = int(os.environ.get("FDA_SIGNING_WINDOW_MINUTES", "15"))
    FDA_SIGNING_LOCK_MINUTES = int(os.environ.get("FDA_SIGNING_LOCK_MINUTES", "30"))
    FILE_RETENTION_DAYS = int(os.environ.get("FILE_RETENTION_DAYS", "7"))
    EXPORT_STALE_SECONDS = int(os.environ.get("EXPORT_STALE_SECONDS", "120"))
    EXPORT_MAX_ATTEMPTS = int(os.environ.get("EXPORT_MAX_ATTEMPTS", "3"))
    # Uploaded files (generated names, one folder per platform) and the request-size cap behind 413
    # (the largest upload cap of the spec, 10 MB, plus multipart framing; see api/extensions/uploads.py).
    UPLOAD_DIR = Path(os.environ.get("UPLOAD_DIR", ROOT / "var" / "uploads"))
    MAX_CONTENT_LENGTH = 10 * 1024 * 1024 + 64 * 1024

    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "")
    RATELIMIT_HEADERS_ENABLED = True

    API_TITLE = "Cold-chain monitoring platform API"
    API_VERSION = "1.0"
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/api"
    OPENAPI_JSON_PATH = "openapi.json"
    OPENAPI_SWAGGER_UI_PATH = "/docs"
    # Served by the api from the installed swagger-ui-bundle package (api/extensions/docs_assets.py).
    OPENAPI_SWAGGER_UI_URL = os.environ.get("SWAGGER_UI_URL", "/api/docs/assets/")


class DevelopmentConfig(BaseConfig):
    pass


class TestConfig(BaseConfig):
    TESTING = True
    SQLALCHEMY_DATABASE_URI = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    CAPTCHA_REQUIRED = False
    # A fixed key, so the suite's hashes are reproducible (never used outside the tests).
    AUDIT_HMAC_KEY = "test-only-audit-hmac-key-0123456789abcdef"
    # Emptied before every test (tests/conftest.py): the database is, and old heads would contradict it.
    AUDIT_HEAD_EXPORT_DIR = str(BaseConfig.FILES_DIR.parent / "test-audit-heads")
    # The suite's local fakes (payment providers, OAuth provider, SMTP sink, webhook and province
    # receivers) listen on 127.0.0.1: listed, so the outbound check stays on for every other address.
    OUTBOUND_ALLOWED_HOSTS = ("127.0.0.1",)
    # Each test run has its own group, so test runs sharing one broker never take each other's messages.
    MQTT_SHARE_GROUP = os.environ.get("MQTT_SHARE_GROUP", f"ingest-test-{os.getpid()}")


class ProductionConfig(BaseConfig):
    APP_ENV_PRODUCTION = True
    HOST_ALIASES = parse_host_aliases(os.environ.get("HOST_ALIASES", ""))
    JOBS_INLINE_FALLBACK = env_bool("JOBS_INLINE_FALLBACK", False)


CONFIGS = {"development": DevelopmentConfig, "test": TestConfig, "production": ProductionConfig}


def config_from_env() -> type[BaseConfig]:
    return CONFIGS.get(os.environ.get("APP_ENV", "development"), DevelopmentConfig)
