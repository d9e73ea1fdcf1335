"""Simulated device types for HomeEnv: the YAML catalog and the few coded behaviours.

Importing the package registers the behaviours with the engine, so any code that builds
devices from the catalog (the generator, tests) gets a consistent engine without extra set-up.
"""

from . import behaviors  # noqa: F401  (registers behaviours on import)
