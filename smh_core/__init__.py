"""SMH core: the HomeEnv simulator, agent, memory module, synthesizer and benchmark.

Layering (no upward imports, checked by tests/test_layers.py): ``homeenv`` (pure pydantic model +
engine) and ``llm`` at the bottom; ``sim``, ``memory``, ``voice`` and the device catalog above them;
``homes``, ``agent``, ``backends``; then ``bench``; then ``ha`` and ``perf``; ``cli`` on top. Home
Assistant code never appears in this package.
"""

__version__ = "0.1.0"
