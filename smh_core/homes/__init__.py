"""Homes built from the device catalog: the seeded HomeEnv generator (`generator`) and the
simulated homes (`simulated`: room climates and a clock for HomeEnv homes, SimuHome-style homes
of Matter devices).

It sits above the catalog (`sim_devices.catalog`) and the home model/engine (`smh_core.homeenv`),
which is why it is its own package: the engine runs any home file without it.
"""
