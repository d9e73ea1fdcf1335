"""Constants of the SMH integration."""

DOMAIN = "smh"

CONF_SOURCE = "source"
CONF_LEVEL = "level"
CONF_SEED = "seed"
CONF_FILE = "file"
CONF_TIME_SCALE = "time_scale"

SOURCE_GENERATED = "generated"
SOURCE_FILE = "file"
LEVELS = ["simple", "medium", "complex"]
DEFAULT_LEVEL = "medium"
DEFAULT_SEED = 0
DEFAULT_TIME_SCALE = 1.0

SERVICE_EXECUTE = "execute"
SERVICE_SNAPSHOT = "snapshot"
