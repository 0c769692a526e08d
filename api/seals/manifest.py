"""What seals brings (api/hooks.py): its tables."""

from api.hooks import Manifest
from api.seals import models

MANIFEST = Manifest(area="seals", models=(models,))
