"""Every ``smh.*`` service is registered from one table (:mod:`custom_components.smh.services`,
issue 36 item 2): each exactly once, placeholder and real registration alike, with the admin
flag and response mode it had before the table (pinned here, not read from the table)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.const import EVENT_SERVICE_REGISTERED
from homeassistant.core import Context, Event, HomeAssistant, SupportsResponse, callback
from homeassistant.exceptions import HomeAssistantError, Unauthorized
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from custom_components.smh.const import DOMAIN
from custom_components.smh.services import OWN, SERVICES

OPTIONAL, ONLY = SupportsResponse.OPTIONAL, SupportsResponse.ONLY
BEFORE = {
    "execute": (False, OPTIONAL),
    "snapshot": (False, ONLY),
    "verify": (False, ONLY),
    "agent_trace": (False, ONLY),
    "load_task": (True, OPTIONAL),
    "restore_state": (True, OPTIONAL),
    "advance_time": (True, OPTIONAL),
    "create_automation": (True, OPTIONAL),
    "call_tools": (True, OPTIONAL),
}
"""Each service's (admin, responses) as the four modules registered them before the table."""
TASK = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "tasks_tiny.jsonl").read_text().splitlines()[0]
)
VALID = {
    "execute": {"did": "1001", "locator": "turn_on"},
    "snapshot": {},
    "verify": {},
    "agent_trace": {"conversation_id": "nobody"},
    "load_task": {"task": TASK},
    "restore_state": {"devices": {}},
    "advance_time": {"seconds": 1},
    "create_automation": {"text": "every night at 1:00 turn on the bedroom lamp"},
    "call_tools": {"calls": []},
}
"""Data each service's schema accepts (HA checks the schema before the admin check)."""
INTEGRATION = Path(__file__).resolve().parents[2] / "custom_components" / "smh"


def test_the_table_keeps_every_service_as_it_was() -> None:
    names = [s.name for s in SERVICES]
    assert len(names) == len(set(names))
    assert {s.name: (s.admin, s.responses) for s in SERVICES} == BEFORE


def test_no_other_module_registers_a_service() -> None:
    """The table is the only place: no module but services.py calls HA's registration."""
    calls = re.compile(r"\basync_register(_admin_service)?\(")
    found = [
        p.name
        for p in sorted(INTEGRATION.glob("*.py"))
        if p.name != "services.py" and calls.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []


async def _call_all(hass: HomeAssistant, user_id: str | None) -> dict[str, bool]:
    """Call every service as ``user_id``: whether each refused the caller (``Unauthorized``)."""
    refused = {}
    for name in BEFORE:
        try:
            await hass.services.async_call(
                DOMAIN,
                name,
                VALID[name],
                blocking=True,
                context=Context(user_id=user_id),
                return_response=BEFORE[name][1] is ONLY,
            )
            refused[name] = False
        except Unauthorized:
            refused[name] = True
        except HomeAssistantError:  # no task loaded, no model, no such LLM API ...
            refused[name] = False
    return refused


async def test_each_service_registered_once_and_admin_as_before(
    hass: HomeAssistant,
    tiny_home_file: str,
    hass_admin_user: MockUser,
    local_auth: Any,
    conversation: None,
) -> None:
    """An ordinary user (not admin, allowed to control entities) is refused exactly the admin
    services, before and after the first call put the real services in place."""
    user = MockUser(name="Ordinary", groups=[await hass.auth.async_get_group(GROUP_ID_USER)])
    user.add_to_hass(hass)
    registered: list[str] = []

    @callback
    def count(event: Event[Any]) -> None:
        if event.data["domain"] == DOMAIN:
            registered.append(event.data["service"])

    hass.bus.async_listen(EVENT_SERVICE_REGISTERED, count)
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={"source": "file", "file": tiny_home_file, "level": "medium", "seed": 0},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert sorted(registered) == sorted(BEFORE)  # once each, placeholders included
    admin = {name for name, (is_admin, _) in BEFORE.items() if is_admin}
    # placeholders: a non-admin is refused exactly where the real service would refuse them
    assert {n for n, r in (await _call_all(hass, user.id)).items() if r} == admin
    # an admin's call imports every module, which registers its services once more, over the
    # placeholders, with the same admin flag and response mode
    assert not any((await _call_all(hass, hass_admin_user.id)).values())
    await hass.async_block_till_done()
    lazy = sorted(s.name for s in SERVICES if s.module != OWN)
    assert sorted(registered) == sorted([*BEFORE, *lazy])
    services = hass.services.async_services_for_domain(DOMAIN)
    assert {n: services[n].supports_response for n in BEFORE} == {
        n: r for n, (_, r) in BEFORE.items()
    }
    assert {n for n, r in (await _call_all(hass, user.id)).items() if r} == admin
