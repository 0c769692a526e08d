from tests.api.account_helpers import providers  # noqa: F401
from tests.api.device_helpers import guids, stranger  # noqa: F401
from tests.api.org_helpers import enterprise  # noqa: F401
