"""SMH core: the HomeEnv simulator, agent, memory module, synthesizer and benchmark.

Layering (no upward imports): ``homeenv`` (pure pydantic model + engine) is the bottom;
everything else builds on it. Home Assistant code never appears in this package.
"""

__version__ = "0.1.0"
