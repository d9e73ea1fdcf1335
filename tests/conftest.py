"""Shared test setup.

``custom_components`` is imported here, before any Home Assistant fixture runs, so that this
repository's package wins over the test plugin's own ``testing_config/custom_components``
(which would otherwise shadow it and make HA report "Integration not found").

Hypothesis runs under one profile: no per-example deadline and no "input generation is slow"
health check. Both measure the machine, not the code: on a busy CI machine (two test workers,
a model server, HA beside them) one stalled draw took 1.01 s and failed a property that holds.
The properties themselves and their example counts are unchanged.
"""

import pytest
from hypothesis import HealthCheck, settings

import custom_components  # noqa: F401

settings.register_profile("smh", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("smh")


@pytest.fixture(autouse=True)
def _fresh_endpoint_capabilities() -> None:
    """Each test's fake server starts unknown: what an earlier server on a reused loopback port
    answered (tools native, a response format refused) must not leak into the next test."""
    from smh_core.llm.capabilities import forget_capabilities

    forget_capabilities()
