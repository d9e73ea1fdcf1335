"""Simulated devices: the YAML device catalog (HomeEnv and Matter-style types, `catalog`) and
the Matter bridge that serves a home over python-matter-server's protocol (`matter_bridge`).

The coded behaviours the catalog's types name live beside the engine
(:mod:`smh_core.homeenv.behaviors`), so a home file runs without this package.
"""
