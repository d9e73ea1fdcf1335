"""HA's deprecation and usage reports about SMH fail the test, before they break SMH for users.

Home Assistant announces what will stop working by logging it (``frame.report_usage``,
``helpers.deprecation``) and through Python's ``DeprecationWarning`` (see
:mod:`tests.support.deprecations`); none of that fails anything by itself. Here every path SMH
offers inside HA runs under a watch that collects what HA says about SMH: the config flow and
entry set-up, the options flow (which reloads the entry), a
conversation turn through SMH's agent, each tool of the ``smh`` LLM API as HA's own agents call
it (through a chat log), a Matter round trip (SMH's entity of a Matter light, and HA's own
``matter`` integration against SMH's Matter bridge) and unload. Run on the newest HA the test
plugin supports (``make test-ha-current``), it warns while the old way still works; on the
oldest (``make test``) it holds SMH to what that release says. The real ``hass`` of the newest
release is watched the same way in ``tests/e2e/test_real_hass_deprecations.py``, and importing
the integration in ``tests/test_ha_deprecations.py`` (what HA reports at import comes once per
process, before any watch).
"""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path

import pytest
from homeassistant import config_entries, loader
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import frame, llm

from custom_components.smh.compat import result_data, tool_named
from custom_components.smh.const import DOMAIN
from sim_devices.catalog import instantiate
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import FIXTURES, setup_home_entry
from tests.matter.conftest import matter_light
from tests.matter.ha_setup import ha_matter, wait_for
from tests.support.deprecations import Watch, smh_tool_calls, watched_home
from tests.support.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
AGENT_ID = "conversation.some_ha_agent"


@pytest.fixture
def watch(caplog: pytest.LogCaptureFixture) -> Watch:
    caplog.set_level(logging.WARNING)  # every logger, WARNING and above
    return Watch(caplog)


# ---------------------------------------------------------------------------- the detector itself
@pytest.mark.parametrize(
    ("integration_frame_path", "caught"),
    [
        ("custom_components/smh", True),
        ("homeassistant/components/hue", False),
        ("custom_components/other", False),
    ],
)
async def test_a_usage_report_about_smh_is_caught_and_no_other(
    hass: HomeAssistant, mock_integration_frame, watch: Watch, caught: bool
) -> None:
    """HA's own test fixture puts an integration's file on the stack; ``report_usage`` then logs
    what it logs for that integration's call."""
    with watch.phase("report"):
        frame.report_usage(
            "calls something deprecated",
            breaks_in_ha_version="2099.1",
            core_behavior=frame.ReportBehavior.LOG,
        )
    assert bool(watch.found) is caught, watch.found
    if caught:
        with pytest.raises(
            AssertionError,
            match="report: WARNING .*Detected that custom integration 'smh' calls "
            "something deprecated at custom_components/smh/light.py",
        ):
            watch.check()
    else:
        watch.check()


async def test_a_report_naming_smh_as_its_domain_is_caught(
    hass: HomeAssistant, watch: Watch
) -> None:
    """The LLM helper's way: no frame (the tool has returned), the integration named."""
    await loader.async_get_integration(hass, DOMAIN)  # HA names a known integration only
    with watch.phase("tools"):
        frame.report_usage(
            "returns a JSON object from a tool, which is deprecated",
            breaks_in_ha_version="2099.1",
            integration_domain=DOMAIN,
        )
    assert [line.split(" [")[0] for line in watch.found["tools"]] == ["WARNING"]


async def test_a_deprecation_warning_from_smh_code_is_caught_and_no_other(
    hass: HomeAssistant, watch: Watch
) -> None:
    smh_file = str(ROOT / "custom_components" / "smh" / "light.py")
    with watch.phase("warnings"):
        for category, filename in [
            (DeprecationWarning, smh_file),
            (PendingDeprecationWarning, str(ROOT / "smh_core" / "agent" / "tools.py")),
            (DeprecationWarning, "/site-packages/homeassistant/components/http/__init__.py"),
            (UserWarning, smh_file),
        ]:
            warnings.warn_explicit("old API", category, filename, 1)
    assert [r.split(" at ")[0] for r in watch.found["warnings"]] == [
        "DeprecationWarning",
        "PendingDeprecationWarning",
    ]


# ---------------------------------------------------------------------------- SMH's paths, watched
async def _flow_creates_entry(hass: HomeAssistant, home_file: str) -> config_entries.ConfigEntry:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "file"}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"file": home_file, "time_scale": 1.0}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await hass.async_block_till_done()
    (entry,) = hass.config_entries.async_entries(DOMAIN)
    assert entry.state is ConfigEntryState.LOADED
    return entry


async def _options_set_agent(
    hass: HomeAssistant, entry: config_entries.ConfigEntry, home_file: str, server: FakeOpenAI
) -> None:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    done = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            "source": "file",
            "file": home_file,
            "seed": 0,
            "time_scale": 1.0,
            "agent": {
                "base_url": server.base_url,
                "model": "fake-model",
                "api_key": "k",
                "tool_budget": 5,
            },
        },
    )
    assert done["type"] is FlowResultType.CREATE_ENTRY, done
    await hass.async_block_till_done()  # the entry reloads with its agent
    assert entry.state is ConfigEntryState.LOADED


def _entity(
    hass: HomeAssistant, entry: config_entries.ConfigEntry, domain: str, unique_id: str
) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(
        domain, DOMAIN, f"{entry.entry_id}_{unique_id}"
    )
    assert entity_id is not None, (domain, unique_id)
    return entity_id


async def _conversation_turn(
    hass: HomeAssistant, entry: config_entries.ConfigEntry, server: FakeOpenAI
) -> None:
    """SMH's agent (tools ``ha``, the default: HA's exposed entities) turns the lamp on."""
    from homeassistant.components import conversation

    lamp = _entity(hass, entry, "light", "1001_light")
    (agent,) = [
        e.entity_id
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        if e.domain == "conversation"
    ]
    server.script = [
        {"tool_calls": [("control_device", json.dumps({"did": lamp, "locator": "turn_on"}))]},
        {"content": "The lamp is on."},
    ]
    result = await conversation.async_converse(
        hass, "Turn on the lamp", None, Context(), agent_id=agent
    )
    assert result.response.speech["plain"]["speech"] == "The lamp is on."
    await hass.async_block_till_done()
    assert hass.states.get(lamp).state == "on"


async def _each_llm_tool(hass: HomeAssistant, entry: config_entries.ConfigEntry) -> dict[str, dict]:
    """Each tool of the ``smh`` API once, as HA's own LLM agents call tools: the model's tool
    calls added to the chat log of a conversation, which runs them through the API."""
    from homeassistant.components import conversation
    from homeassistant.helpers import chat_session

    for state in hass.states.async_all():
        if "did" in state.attributes:
            async_expose_entity(hass, "conversation", state.entity_id, True)
    done: dict[str, dict] = {}
    with chat_session.async_get_chat_session(hass, None) as session:
        user_input = conversation.ConversationInput(
            text="Tidy up the lamp's schedule",
            context=Context(),
            conversation_id=session.conversation_id,
            device_id=None,
            satellite_id=None,
            language="en",
            agent_id=AGENT_ID,
        )
        with conversation.async_get_chat_log(hass, session, user_input) as chat_log:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(AGENT_ID), DOMAIN, None, None
            )
            names = [t.name for t in chat_log.llm_api.tools]
            for tool, args in smh_tool_calls(
                entry.runtime_data.clock.sim.now, lamp="1001", room="r3"
            ):
                args = args(done) if callable(args) else args
                call = llm.ToolInput(tool_named(tool, names), args)
                content = conversation.AssistantContent(agent_id=AGENT_ID, tool_calls=[call])
                (done[tool],) = [
                    result_data(r) async for r in chat_log.async_add_assistant_content(content)
                ]
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id=AGENT_ID, content="Done.")
            )
    assert {tool_named(t, names) for t in done} == set(names), (
        "each tool of the API: add one to smh_tool_calls"
    )
    return done


async def _matter_round_trip(hass: HomeAssistant) -> list[config_entries.ConfigEntry]:
    """A Matter dimmable light as SMH's own entity (a second SMH entry), and a Matter light served
    by SMH's bridge to HA's own ``matter`` integration: each turned on from HA, each engine change
    back in HA. Returns the SMH entry made here."""
    home = Home(
        name="matter-one",
        rooms=[Room(id="living", type="living_room", name="Living Room")],
        devices=[instantiate("dimmable_light", did="100", room="living", kind="matter")],
    )
    entry = await setup_home_entry(hass, home, time_scale=0.0, file="matter_home.json")
    light = _entity(hass, entry, "light", "100_light")
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": light, "brightness": 255}, blocking=True
    )
    assert entry.runtime_data.engine.value("100", "1.LevelControl.CurrentLevel") == 254
    assert hass.states.get(light).state == "on"

    engine = HomeEngine(
        Home.model_validate(
            {
                "name": "bridged",
                "devices": [matter_light()],
                "rooms": [{"id": "living", "type": "living_room", "name": "Living Room"}],
            }
        )
    )
    bridge = MatterBridge(engine)
    async with ha_matter(hass, bridge) as matter_entry:
        (bridged,) = [
            e.entity_id
            for e in er.async_entries_for_config_entry(er.async_get(hass), matter_entry.entry_id)
            if e.domain == "light"
        ]
        await hass.services.async_call(
            "light", "turn_on", {"entity_id": bridged, "brightness": 128}, blocking=True
        )
        assert engine.status("1201")["1.OnOff.OnOff"] is True
        engine.execute("1201", "1.OnOff.Off")
        assert await wait_for(hass, lambda: hass.states.get(bridged).state == "off", seconds=2.0)
    return [entry]


@pytest.fixture
def home_file(hass: HomeAssistant) -> str:
    """:func:`~tests.support.deprecations.watched_home` in HA's config dir; its relative name."""
    home = watched_home(FIXTURES / "tiny_home.json")
    (Path(hass.config.config_dir) / "watched_home.json").write_text(
        json.dumps(home), encoding="utf-8"
    )
    return "watched_home.json"


async def test_smh_in_home_assistant_uses_nothing_deprecated(
    hass: HomeAssistant, conversation: None, home_file: str, server: FakeOpenAI, watch: Watch
) -> None:
    with watch.phase("config flow and setup"):
        entry = await _flow_creates_entry(hass, home_file)
    with watch.phase("options flow"):
        await _options_set_agent(hass, entry, home_file, server)
    with watch.phase("conversation turn"):
        await _conversation_turn(hass, entry, server)
    with watch.phase("smh LLM API tools"):
        results = await _each_llm_tool(hass, entry)
    with watch.phase("Matter round trip"):
        entries = [entry, *await _matter_round_trip(hass)]
    with watch.phase("unload"):
        for each in entries:
            assert await hass.config_entries.async_unload(each.entry_id)
        await hass.async_block_till_done()
    assert all(e.state is ConfigEntryState.NOT_LOADED for e in entries)
    refused = {
        tool: r for tool, r in results.items() if isinstance(r, dict) and r.get("ok") is False
    }
    assert refused == {}, "every tool ran its own code, not an early refusal"
    assert watch.phases == [
        "config flow and setup",
        "options flow",
        "conversation turn",
        "smh LLM API tools",
        "Matter round trip",
        "unload",
    ]
    watch.check()
