"""Shared test setup.

``custom_components`` is imported here, before any Home Assistant fixture runs, so that this
repository's package wins over the test plugin's own ``testing_config/custom_components``
(which would otherwise shadow it and make HA report "Integration not found").
"""

import custom_components  # noqa: F401
