"""The hash that binds an e-signature to its record (21 CFR 11.70): HMAC-SHA256 with the installation's
key (api/extensions/hashkeys.py) over the record's hash, the file, the signer, the time and the meaning.
The signature cannot be moved to another record or altered without it changing, and someone without the
key cannot compute it again; signatures made before keys existed keep their plain SHA-256 (up to the
cutoff of migration 0035, api/audit/keyed.py)."""

from __future__ import annotations

from datetime import UTC

from api.audit import keyed
from api.extensions import hashkeys
from api.fda.models import Signature


def signature_content(signature: Signature) -> bytes:
    """What the signature hash binds: the record's hash, the file, the signer, the time, the meaning and
    the step of the sequence."""
    parts = (
        signature.record_hash,
        str(signature.file_id),
        signature.user_name,
        signature.printed_name,
        signature.meaning,
        str(int(signature.signed_at.astimezone(UTC).timestamp() * 1000)),
        signature.time_zone,
    )
    # The step and role of a signing sequence (a one-step signature made before sequences existed has
    # neither, and keeps the content it was hashed with).
    role = getattr(signature.role, "value", signature.role) or ""
    if (signature.step or 1) > 1 or role:
        parts += (f"step={signature.step or 1}", f"role={role}")
    return "|".join(parts).encode()


def seal_signature(signature: Signature) -> None:
    """Set the signature's keyed hash and the id of the key it was made with."""
    signature.signature_hash, signature.hash_key_id = hashkeys.keyed(signature_content(signature))


def signature_valid(signature: Signature) -> bool:
    """The stored hash is this signature's, made with the installation's key (or, signed before keys
    existed, its plain SHA-256): a signature copied onto another file and rehashed is not."""
    return keyed.holds(
        "fda_signature", signature.id, signature_content(signature), signature.hash_key_id, signature.signature_hash
    )
