"""The ``smh`` command line. Each subcommand group lives in its own module."""
