"""What the identity floor brings (api/hooks.py): the accounts' and sessions' tables."""

from api.hooks import Manifest
from api.identity import models

MANIFEST = Manifest(area="identity", models=(models,))
