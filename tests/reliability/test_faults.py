"""Fault tests on private engines (never the machine's shared ones): nothing lost, nothing twice.

Run by `make bench-reliability` (about ten minutes on this machine, most of it the minute RQ waits
before it believes a killed worker is dead); `make reliability` runs just these tests.
"""

from __future__ import annotations

import pytest

from tests.reliability.scenarios import SCENARIOS


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_nothing_is_lost_or_duplicated(name):
    figures = SCENARIOS[name]()
    assert figures["lost"] == 0, figures
    assert figures["duplicated"] == 0, figures
    assert figures["stored"] == figures["sent"], figures
    assert figures["acknowledged"] == figures["sent"], figures
