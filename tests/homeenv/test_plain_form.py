"""The home model's plain form (issue 37: Home Assistant's set-up without pydantic) reads every
home as the pydantic models do: the same values, defaults and dumps, the same errors for the
same bad input, and the engine and simulator run it to the same states."""

from __future__ import annotations

import copy
import json
import pickle
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from smh_core.homeenv import plain, plain_build
from smh_core.homeenv.engine import HomeEngine, dump_compact, dump_home, load_home
from smh_core.homeenv.model import Home
from smh_core.homeenv.rules import Rule
from smh_core.homeenv.shapes import DeviceShape, HomeShape, RuleShape
from smh_core.homes.generator import generate_home
from smh_core.homes.simulated import generate_matter_home, simulated_home
from smh_core.sim.simulator import Simulator

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tasks" / "homes").glob("*.json")) + sorted(
    (ROOT / "custom_components" / "smh" / "sample_homes").glob("*.json")
)
DUMPS: list[dict[str, Any]] = [
    {},
    {"mode": "json", "by_alias": True, "exclude_none": True},
    {"mode": "json", "by_alias": True, "exclude_none": True, "exclude_defaults": True},
    {"exclude_unset": True},
]


def _generated() -> list[Home]:
    return [
        generate_home("simple", 0),
        generate_home("complex", 3),
        generate_matter_home(1),
        simulated_home("medium", 2),
    ]


def test_the_written_schema_is_what_pydantic_generates_now() -> None:
    """Fails when a model changed and ``python -m smh_core.homeenv.plain_build`` was not run."""
    import pydantic_core

    from smh_core.homeenv.plain_schemas import WRITTEN_FOR

    text = plain_build.render()
    name = WRITTEN_FOR.get(pydantic_core.__version__)
    assert name == plain_build.target(text).stem, "run: python -m smh_core.homeenv.plain_build"
    assert plain_build.target(text).read_text(encoding="utf-8") == text
    assert set(plain.CLASSES) == set(plain_build.model_classes())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_home_file_reads_the_same_in_both_forms(path: Path) -> None:
    pydantic_home = load_home(path)
    plain_home = load_home(path, plain=True)
    assert plain.is_plain(plain_home) and not plain.is_plain(pydantic_home)
    assert isinstance(plain_home, HomeShape) and isinstance(pydantic_home, HomeShape)
    assert all(plain.is_plain(d) and isinstance(d, DeviceShape) for d in plain_home.devices)
    for options in DUMPS:
        assert plain_home.model_dump(**options) == pydantic_home.model_dump(**options), options
    assert dump_home(plain_home) == dump_home(pydantic_home)
    assert dump_compact(plain_home) == dump_compact(pydantic_home)
    for a, b in zip(plain_home.devices, pydantic_home.devices, strict=True):
        assert a.did == b.did
        assert [loc for loc, _ in a.attributes_by_locator()] == [
            loc for loc, _ in b.attributes_by_locator()
        ]
        if a.dynamics is not None:
            assert a.dynamics.locators() == b.dynamics.locators()


def test_generated_homes_read_the_same_in_both_forms() -> None:
    for home in _generated():
        text = dump_home(home)
        again = plain.validate_json("Home", text)
        assert dump_home(again) == text
        for options in DUMPS[1:3]:
            assert again.model_dump(**options) == home.model_dump(**options)
        assert plain.validate("Home", home).model_dump() == home.model_dump()  # from a model


BAD: list[tuple[str, Any]] = [
    ("unknown field", {"rooms": [], "devices": [], "colour": 1}),
    ("missing rooms", {"devices": []}),
    ("bad schema version", {"schema_version": 2, "rooms": [], "devices": []}),
    (
        "room parent cycle",
        {
            "rooms": [
                _r := {"id": "a", "type": "t", "name": "A", "parent": "b"},
                {"id": "b", "type": "t", "name": "B", "parent": "a"},
            ],
            "devices": [],
        },
    ),
    ("duplicate room", {"rooms": [_r, {**_r, "parent": None}], "devices": []}),
]


def _device(**overrides: Any) -> dict[str, Any]:
    device: dict[str, Any] = {
        "name": "Lamp",
        "attributes": [{"name": "state", "type": "enum", "options": ["on", "off"], "value": "on"}],
        "services": [
            {"name": "turn_on", "effects": [{"set": "state", "value": "on"}]},
        ],
        "userdata": {"did": "lamp", "spid": "x", "category": "light", "subcategory": "lamp"},
    }
    device.update(overrides)
    return device


BAD += [
    (
        "enum without options",
        {"rooms": [], "devices": [_device(attributes=[{"name": "s", "type": "enum"}])]},
    ),
    (
        "unknown type",
        {"rooms": [], "devices": [_device(attributes=[{"name": "s", "type": "colour"}])]},
    ),
    (
        "range upside down",
        {
            "rooms": [],
            "devices": [_device(attributes=[{"name": "s", "type": "int", "range": [5, 1]}])],
        },
    ),
    (
        "effect with two sources",
        {
            "rooms": [],
            "devices": [
                _device(
                    services=[{"name": "x", "effects": [{"set": "state", "arg": "a", "attr": "b"}]}]
                )
            ],
        },
    ),
    (
        "requirement without a test",
        {
            "rooms": [],
            "devices": [_device(services=[{"name": "x", "requires": [{"attr": "state"}]}])],
        },
    ),
    (
        "device in unknown room",
        {
            "rooms": [],
            "devices": [
                _device(
                    userdata={
                        "did": "l",
                        "spid": "x",
                        "category": "c",
                        "subcategory": "s",
                        "room": "nowhere",
                    }
                )
            ],
        },
    ),
    (
        "drive without a target",
        {
            "rooms": [],
            "devices": [_device(dynamics={"drives": [{"variable": "temperature", "rate": 0.1}]})],
        },
    ),
    (
        "drive rate above one",
        {
            "rooms": [],
            "devices": [
                _device(dynamics={"drives": [{"variable": "temperature", "rate": 2, "target": 20}]})
            ],
        },
    ),
    (
        "numeric trigger without a band",
        {
            "rooms": [],
            "devices": [],
            "automations": [
                {
                    "id": "r",
                    "triggers": [{"kind": "numeric", "did": "a", "locator": "b"}],
                    "actions": [{"did": "a", "locator": "b"}],
                }
            ],
        },
    ),
    (
        "unknown trigger kind",
        {
            "rooms": [],
            "devices": [],
            "automations": [
                {
                    "id": "r",
                    "triggers": [{"kind": "sun"}],
                    "actions": [{"did": "a", "locator": "b"}],
                }
            ],
        },
    ),
    (
        "bad time window",
        {
            "rooms": [],
            "devices": [],
            "automations": [
                {
                    "id": "r",
                    "triggers": [{"kind": "time", "cron": "* * * * *"}],
                    "conditions": [{"kind": "time", "after": "7pm"}],
                    "actions": [{"did": "a", "locator": "b"}],
                }
            ],
        },
    ),
    (
        "daylight of 23 hours",
        {
            "rooms": [],
            "devices": [],
            "simulation": {"now": "2025-01-01T00:00:00", "outdoor": {"daylight": [0] * 23}},
        },
    ),
    ("not an object", [1, 2]),
]


def _errors(error: ValidationError) -> list[dict[str, Any]]:
    """The errors, each exception in them as its text (exceptions never compare equal)."""
    return json.loads(error.json(include_url=False))


@pytest.mark.parametrize(("why", "data"), BAD, ids=[b[0] for b in BAD])
def test_bad_homes_fail_the_same_way_in_both_forms(why: str, data: Any) -> None:
    with pytest.raises(ValidationError) as by_pydantic:
        Home.model_validate(data)
    with pytest.raises(ValidationError) as by_plain:
        plain.validate("Home", data)
    assert _errors(by_plain.value) == _errors(by_pydantic.value)
    assert str(by_plain.value) == str(by_pydantic.value)


def test_a_bad_file_is_refused_in_the_plain_form_with_the_pydantic_form_message(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD[5][1]))
    with pytest.raises(ValueError) as pydantic_error:
        load_home(path)
    with pytest.raises(ValueError) as plain_error:
        load_home(path, plain=True)
    assert str(plain_error.value) == str(pydantic_error.value)
    assert str(plain_error.value).startswith(f"{path}: invalid home: ")


def test_copies_equality_and_pickling_behave_as_the_models_do() -> None:
    home = plain.validate_json("Home", dump_home(generate_home("simple", 1)))
    device = home.devices[0]
    moved = device.model_copy(update={"name": "Other"})
    assert moved.name == "Other" and device.name != "Other" and "name" in moved.model_fields_set
    assert moved.attributes is device.attributes  # shallow, as pydantic's
    deep = home.model_copy(deep=True)
    assert deep == home and deep is not home and deep.devices[0] is not home.devices[0]
    deep.devices[0].attributes[0].value = "changed"
    assert deep != home
    assert copy.deepcopy(home) == home
    assert pickle.loads(pickle.dumps(home)) == home
    assert home != Home.model_validate(home.model_dump(by_alias=True))  # forms never equal
    with pytest.raises(TypeError):
        hash(home)
    again = type(device)(**device.model_dump(by_alias=True))  # made as pydantic makes one
    assert again == device and repr(again).startswith("Device(name=")


def test_the_engine_and_the_simulator_run_a_plain_home_as_a_pydantic_one() -> None:
    source = simulated_home("medium", 4)
    text = dump_home(source)
    runs = []
    for home in (Home.model_validate_json(text), plain.validate_json("Home", text)):
        engine = HomeEngine(home)
        results = []
        for did in engine.device_ids():
            for service in engine.services(did)[:3]:
                results.append(engine.execute(did, service, {}).ok)
        sim = Simulator(engine)
        sim.add_rule(
            {
                "id": "r1",
                "triggers": [{"kind": "time", "cron": "0 30 * * * ?"}],
                "actions": [
                    {
                        "did": engine.device_ids()[0],
                        "locator": engine.services(engine.device_ids()[0])[0],
                    }
                ],
            }
        )
        sim.schedule(
            sim.now + timedelta(minutes=5),
            [
                {
                    "did": engine.device_ids()[1],
                    "locator": engine.services(engine.device_ids()[1])[0],
                }
            ],
        )
        sim.advance(2 * 3600)
        after = sim.to_home()
        assert plain.is_plain(after) == plain.is_plain(home)  # the form is kept throughout
        assert all(
            isinstance(r, RuleShape) and plain.is_plain(r) == plain.is_plain(home)
            for r in sim.rules()
        )
        runs.append((results, engine.snapshot(), dump_home(after)))
    assert runs[0] == runs[1]


def test_a_rule_of_the_other_form_is_stored_in_the_home_s_form() -> None:
    home = plain.validate_json("Home", dump_home(simulated_home("simple", 0)))
    sim = Simulator(HomeEngine(home))
    did = sim.engine.device_ids()[0]
    rule = Rule.model_validate(
        {
            "id": "r",
            "triggers": [{"kind": "time", "cron": "0 0 7 * * ?"}],
            "actions": [{"did": did, "locator": sim.engine.services(did)[0]}],
        }
    )
    stored = sim.add_rule(rule)
    assert plain.is_plain(stored) and stored.model_dump() == rule.model_dump()
    assert dump_home(sim.to_home())  # a plain home with it writes (pydantic would refuse a mix)


def test_another_pydantic_core_reads_homes_with_the_pydantic_models(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The written schema is pydantic's for one pydantic-core; under another (another Home
    Assistant release) nothing is read in the plain form: the pydantic models are used."""
    path = FILES[0]
    assert plain.usable() and plain.is_plain(load_home(path, plain=True))
    monkeypatch.setattr(plain, "WRITTEN", None)
    assert not plain.usable()
    home = load_home(path, plain=True)
    assert isinstance(home, Home) and home == load_home(path)
    attribute = plain.model("Attribute", {"name": "t", "type": "float"})
    assert not plain.is_plain(attribute) and attribute.type == "float"
    with pytest.raises(RuntimeError, match="no plain schema of the home model is written for"):
        plain.validate("Home", {"rooms": [], "devices": []})


def test_the_plain_form_loads_pydantic_core_s_compiled_module_alone_and_the_package_agrees() -> (
    None
):
    """Reading a home needs pydantic-core's validator, not the package's typed-dict module
    (``core_schema``, ~8 ms of HA's start): the compiled module is loaded by itself; the
    package, imported later (an error's text, a serializer, pydantic), takes that same module."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from smh_core.homeenv import plain\n"
        f"home = plain.validate_json('Home', open({str(FILES[0])!r}).read())\n"
        "assert home.devices and 'pydantic_core.core_schema' not in sys.modules, 'package ran'\n"
        "try:\n"
        "    plain.validate('Home', {'rooms': 1})\n"
        "except ValueError as err:\n"
        "    assert 'Input should be a valid list' in str(err)\n"
        "import pydantic_core\n"
        "assert pydantic_core.SchemaValidator is plain._core.SchemaValidator\n"
        "assert isinstance(home.model_dump(mode='json'), dict)\n"
        "import pydantic\n"
        "from smh_core.homeenv.model import Home\n"
        "assert Home.model_validate(home.model_dump(by_alias=True)).model_dump() == home.model_dump()\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
