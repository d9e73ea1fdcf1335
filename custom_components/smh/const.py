"""Constants of the SMH integration."""

from homeassistant.const import Platform

DOMAIN = "smh"

CONF_SOURCE = "source"
CONF_LEVEL = "level"
CONF_SEED = "seed"
CONF_FILE = "file"
CONF_TIME_SCALE = "time_scale"
CONF_AREA_PREFIX = (
    "area_prefix"  # namespace of the entry's floors, areas and device names ("" = none)
)

SOURCE_GENERATED = "generated"  # SMH-Bench preset: level + seed
SOURCE_MATTER = "matter"  # SimuHome-style home of Matter devices: seed only
SOURCE_FILE = "file"  # a HomeEnv JSON file under the HA config dir
SOURCES = [SOURCE_GENERATED, SOURCE_MATTER, SOURCE_FILE]
LEVELS = ["simple", "medium", "complex"]
DEFAULT_LEVEL = "medium"
DEFAULT_SEED = 0
DEFAULT_TIME_SCALE = 1.0
CONF_RESUME_ADVANCE = "resume_advance"  # an smh.advance_time a restart interrupted goes on after it
DEFAULT_RESUME_ADVANCE = True

SERVICE_EXECUTE = "execute"
SERVICE_SNAPSHOT = "snapshot"
SERVICE_LOAD_TASK = "load_task"
SERVICE_RESTORE_STATE = "restore_state"
SERVICE_VERIFY = "verify"
SERVICE_ADVANCE_TIME = "advance_time"
SERVICE_AGENT_TRACE = "agent_trace"
SERVICE_CREATE_AUTOMATION = "create_automation"
SERVICE_CALL_TOOLS = "call_tools"

# The conversation agent (options flow, section "agent"); no model, no agent entity.
CONF_AGENT = "agent"
CONF_BASE_URL = "base_url"
CONF_MODEL = "model"
CONF_API_KEY = "api_key"
CONF_AGENT_MODE = "agent_mode"
CONF_TOOL_BUDGET = "tool_budget"

AGENT_EIA = "eia"  # tool loop under partial observability
AGENT_DR = "dr"  # one call with the whole home serialized
AGENT_MODES = [AGENT_EIA, AGENT_DR]
DEFAULT_AGENT_MODE = AGENT_EIA
DEFAULT_TOOL_BUDGET = 10
CONF_TOOLS = "tools"  # what the agent's tools control
TOOLS_HA = "ha"  # HA's entities exposed to Assist, real and simulated (HaBackend)
TOOLS_HOME = "home"  # the entry's simulated home through the engine (the benchmark's contract)
TOOL_TARGETS = [TOOLS_HA, TOOLS_HOME]
DEFAULT_TOOLS = TOOLS_HA
CONF_ACTION_GUARD = (
    "action_guard"  # high-risk actions only on the user's own words (smh_core.agent.safety)
)
DEFAULT_ACTION_GUARD = True
CONF_CHECK_REPLIES = "check_replies"  # said versus did: correct a reply the turn contradicts
DEFAULT_CHECK_REPLIES = True
CONF_MODEL_TIMEOUT = "model_timeout"  # seconds per model call
AGENT_TIMEOUT = 60  # the default: a voice user will not wait longer for a fast endpoint
MAX_MODEL_TIMEOUT = 600  # a small local model on a busy CPU can take minutes a call
AGENT_MAX_RETRIES = 2

# every platform an entry may use (an entry sets up those its home needs)
PLATFORMS = [
    Platform.BINARY_SENSOR,
    Platform.BUTTON,
    Platform.CLIMATE,
    Platform.CONVERSATION,
    Platform.COVER,
    Platform.FAN,
    Platform.HUMIDIFIER,
    Platform.LIGHT,
    Platform.LOCK,
    Platform.MEDIA_PLAYER,
    Platform.NUMBER,
    Platform.SELECT,
    Platform.SENSOR,
    Platform.SWITCH,
    Platform.TEXT,
    Platform.TODO,
    Platform.VACUUM,
    Platform.VALVE,
    Platform.WATER_HEATER,
]
