"""Chinese wording of the ``simuhome`` suite (Mainland, Simplified), with the lists of
:mod:`.en` and as many phrasings in each: no articles, a device named after its room with 的
(``卫生间的洗衣机1``), the 把-construction for changes, full-width punctuation, times as
people say them (``下午3点40分``), ``45%`` and ``21.5°C`` without a space.
"""

from __future__ import annotations

from datetime import datetime

from smh_core.languages.names.zh import KINDS, ROOMS

from . import forms_named

VARIABLES = {
    "temperature": ("温度", "°C"),
    "humidity": ("湿度", "%"),
    "illuminance": ("亮度", "勒克斯"),
    "pm25": ("PM2.5浓度", "微克/立方米"),
    "pm10": ("PM10浓度", "微克/立方米"),
}
_KIND_NAMES = {
    "dimmable_light": "Dimmable Light",
    "fan": "Fan",
    "air_purifier": "Air Purifier",
    "humidifier": "Humidifier",
    "dehumidifier": "Dehumidifier",
    "air_conditioner": "Air Conditioner",
    "on_off_light": "On/Off Light",
}


def room(name: str) -> dict[str, str]:
    return forms_named(ROOMS, name)


def device(name: str, room_name: str) -> str:
    """A device after its room (``客厅的空调1``)."""
    return f"{room_name}的{name}"


def device_subject(name: str, room_name: str) -> str:
    return device(name, room_name)


def label(kind: str) -> dict[str, str]:
    """A kind of device the room lacks, by the home's own noun for it (``空气净化器``)."""
    return {"label": KINDS[_KIND_NAMES[kind]][0]}


def number(value: float) -> str:
    return f"{value:g}"


def clock(t: datetime) -> str:
    period = "上午" if t.hour < 12 else "中午" if t.hour < 13 else "下午" if t.hour < 19 else "晚上"
    hour = t.hour if t.hour <= 12 else t.hour - 12
    return f"{period}{hour}点" + (f"{t.minute:02d}分" if t.minute else "")


def sentence(text: str) -> str:
    return text + "。"


# QT1
NO_DEVICE_REASON = "{room}没有{label}"
QT1_MISSING = (
    "{room}的{label}1现在风速是多少？",
    "{room}的{label}的厂商ID是多少？",
    "{room}的{label}1开着吗？",
)
QT1_MISSING_SORRY = "抱歉，{room}没有{label}，所以没法告诉你。"
QT1_ASK = (
    "我准备做饭了，{room}现在{words}怎么样？",
    "{room}的{words}是多少？",
    "帮我看看{room}的{words}？我想知道待着舒不舒服。",
)
QT1_ANSWER = "{room}的{words}是{value}{unit}。"

# QT2
COMPLAINTS = {
    "humidifier": ("{room}太干了，手都发紧", "嗓子好痒，{room}的空气太干了"),
    "dehumidifier": ("{room}又潮又黏", "{room}好闷，感觉什么都是湿的"),
    "air_purifier": ("{room}灰好大，眼睛好痒", "{room}空气里都是灰，喘不过气来"),
    "air_conditioner": ("{room}热得像桑拿房", "{room}实在太热了"),
}
FIX = {
    "humidifier": "让{room}的空气更快变湿润",
    "dehumidifier": "让{room}更快除湿",
    "air_purifier": "让{room}的空气更快变干净",
    "air_conditioner": "让{room}更快降温",
}
AT_LIMIT_REASON = "{device}已经在全速运行"
AT_LIMIT_SORRY = "抱歉，{device}已经在全速运行了，没法{fix}。"
NO_HELPER_REASON = "{room}没有{label}，无法调节{words}"
NO_HELPER_SORRY = "抱歉，{room}没有{label}，所以没法调节{words}。"
TURNED_ON = "好的，{device}已经打开了。"

# QT3
QT3_MISSING = ("把{room}的{label}1打开，调到百分之八十。", "打开{room}的{label}1，今天早上有点闷。")
QT3_MISSING_SORRY = "抱歉，{room}没有{label}，这个我做不到。"
LEVEL = ("把{device}打开，亮度调到{level}级", "把{device}调到{level}级")
FAN = ("打开{device}，风速调到{pct}%", "把{device}开到{pct}%的风速")
MODES = {3: "制冷", 4: "制热"}
AC = ("打开{device}，切换到{mode}模式，风速调到{pct}%", "把{device}开成{mode}模式，风速{pct}%")
TURN_ON = "打开{device}"
TURN_OFF = "关掉{device}"
QT3_OPENINGS = ("请", "麻烦", "")
AND = "，再"
END = "。"
DONE = "好的，已完成。"

# QT4
SCHEDULED = "已安排在{clock}。"
WRONG_CLOCK = "现在是{claimed}吧？{minutes}分钟后，也就是{said}，{words}。"
WRONG_CLOCK_REASON = "说的时间和实际时间对不上"
WRONG_CLOCK_SORRY = "抱歉，现在其实是{now}，{minutes}分钟后并不是{said}。你指的是哪个时间？"
LATER = (
    "{minutes}分钟后{words}。",
    "过{minutes}分钟{words}。",
    "我马上回来：{minutes}分钟后{words}。",
)
AFTER = ("{app}一结束就{words}。", "{app}结束{delay}分钟后{words}。")
WRONG_FINISH = "我记得{app}{finish}结束，那就提前{before}分钟，{at}的时候{words}。"
WRONG_FINISH_REASON = "以为的结束时间不对"
WRONG_FINISH_SORRY = "抱歉，对不上：{app}实际是{real}结束，不是{finish}。"
DEADLINE = "客人快到了：确保{first}和{second}在{deadline}之前都运行完。"
DEADLINE_REASON = "第一台设备单独运行就会超过截止时间"
DEADLINE_SORRY = "抱歉，做不到：光是{first}就要运行到{until}。"
THEN = (
    "{first}结束后，启动{second}{extra}。",
    "{first}结束后，等{wait}分钟再启动{second}{extra}。",
)
DRYNESS = "，烘干等级设为{level}"
