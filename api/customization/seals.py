"""A site's seal on the customization page: which certificate seals its documents, and the operator's
upload of the site's own certificate (api/seals/uploads.py checks it; the trail records the change
with the key redacted)."""

from __future__ import annotations

from api.customization.services import get as get_platform
from api.extensions.smorest import field_error
from api.identity.staff import StaffScope
from api.seals import certificates, uploads
from api.seals.models import SealKey


def current(scope: StaffScope, platform_id: int) -> SealKey:
    """The site's active seal (generated on first use)."""
    get_platform(scope, platform_id)
    return certificates.site_seal(platform_id)


def upload(scope: StaffScope, args: dict) -> SealKey:
    get_platform(scope, args["platformId"])
    try:
        key, cert, chain = uploads.parse(
            certificate=args.get("certificate"),
            private_key=args.get("privateKey"),
            key_password=args.get("keyPassword"),
            pkcs12_base64=args.get("pkcs12"),
        )
    except uploads.UploadRefusedError as refused:
        raise field_error(refused.field, refused.message) from None
    return uploads.install(args["platformId"], key, cert, chain, scope.account.id)
