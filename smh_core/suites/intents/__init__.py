"""The ``intents`` suite: tasks from Home Assistant's own sentence templates, per language
(see :mod:`.suite`)."""
