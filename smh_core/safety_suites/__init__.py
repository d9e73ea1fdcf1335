"""The safety suites: tasks that check the action guard (high-risk actions need the user's consent),
their wording, the adversarial and composed generators, and the measurement of their runs.

Why a package of their own: they are a third of the suite generators, they change with the
guard (issue 34) rather than with the benchmark's task classes, and they sit one layer above
:mod:`smh_core.suites`, whose draw helpers (``common``) they use."""
