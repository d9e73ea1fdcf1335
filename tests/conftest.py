"""Shared test setup.

``custom_components`` is imported here, before any Home Assistant fixture runs, so that this
repository's package wins over the test plugin's own ``testing_config/custom_components``
(which would otherwise shadow it and make HA report "Integration not found").
"""

import pytest

import custom_components  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_endpoint_capabilities() -> None:
    """Each test's fake server starts unknown: what an earlier server on a reused loopback port
    answered (tools native, a response format refused) must not leak into the next test."""
    from smh_core.llm.capabilities import forget_capabilities

    forget_capabilities()
