"""The task: its format and loading (``model.py``), the home it names (``home.py``) and its
room climates and weather (``climate.py``). What every path that runs a task shares: the
embedded benchmark, the suite generators and importers, the benchmark inside Home Assistant and
the SMH integration."""
