"""What verification brings (api/hooks.py): its tables."""

from api.hooks import Manifest
from api.verification import models

MANIFEST = Manifest(area="verification", models=(models,))
