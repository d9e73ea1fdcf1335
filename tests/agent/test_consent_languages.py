"""The consent guard in languages it has no grammar for (issue 41, item 4): a request for a
high-risk action in German, Spanish, French, Italian, Portuguese, Dutch, Chinese, Japanese or
Russian grants nothing, so the guard asks; a confirmation in those languages ("ja", "sí", "是的")
confirms nothing, so it keeps asking. English wording around a device name in another language
(a German twin's "Haustür") is read as any English request is."""

from __future__ import annotations

import pytest

from smh_core.agent.safety import ActionGuard, DeviceIndex

LOCK = {"did": "l1", "name": "Haustür", "category": "lock", "room": "flur"}
LAMP = {"did": "p1", "name": "Stehlampe", "category": "light", "room": "wohnzimmer"}
ROOMS = [{"id": "flur", "name": "Flur"}, {"id": "wohnzimmer", "name": "Wohnzimmer"}]


def _guard(*turns: str) -> ActionGuard:
    guard = ActionGuard(list(turns))
    guard.index = DeviceIndex([LOCK, LAMP], ROOMS)
    return guard


@pytest.mark.parametrize(
    "said",
    [
        "Schließ bitte die Haustür auf",  # de
        "Entsperre die Haustür",  # de
        "Desbloquea la Haustür, por favor",  # es
        "Abre la cerradura de la Haustür",  # es
        "Déverrouille la Haustür s'il te plaît",  # fr
        "Sblocca la Haustür",  # it
        "Destranca a Haustür",  # pt
        "Ontgrendel de Haustür",  # nl
        "打开Haustür的锁",  # zh
        "Haustürの鍵を開けて",  # ja
        "Открой Haustür",  # ru
        "Please entsperre the Haustür",  # a word of another language inside English
        "unlock the Haustür bitte",
    ],
)
def test_a_request_in_another_language_asks(said: str) -> None:
    refusal = _guard(said).check(LOCK, "unlock", {})
    assert refusal is not None and refusal["error"]["code"] == "needs_confirmation"


@pytest.mark.parametrize(
    "reply",
    ["ja", "Ja, bitte", "sí", "oui, vas-y", "sì", "sim", "ja hoor", "是的", "好的", "はい", "да"],
)
def test_a_yes_in_another_language_confirms_nothing(reply: str) -> None:
    guard = _guard("Mach die Stehlampe an und schließ die Haustür auf")
    assert guard.check(LOCK, "unlock", {})["error"]["code"] == "needs_confirmation"
    assert not guard.answer(reply)
    assert guard.check(LOCK, "unlock", {})["error"]["code"] == "needs_confirmation"


def test_english_around_a_device_name_of_another_language_consents() -> None:
    assert _guard("Unlock the Haustür, please.").check(LOCK, "unlock", {}) is None
    assert _guard("Please unlock the Haustür in the Flur").check(LOCK, "unlock", {}) is None
