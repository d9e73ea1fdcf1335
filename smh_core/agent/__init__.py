"""The SMH agent: LLM access, tool loop (EIA), direct reasoning (DR), memory, synthesizer.

Agent code reaches the home only through a backend interface; it never imports the simulator.
"""
