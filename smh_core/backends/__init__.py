"""Implementations of :class:`smh_core.agent.backend.HomeBackend`."""
