"""The ``smh`` suite in Chinese (Mandarin, simplified): no articles, a device named by its room
and kind (``客厅吸顶灯``), the attribute after ``的`` or directly after the device, measure words
when counting (``几盏灯``, ``几台空调``), full-width punctuation, numbers in digits with a decimal
point, no space before a unit (``40%``, ``26度``)."""

from __future__ import annotations

import sys
from typing import Any

from smh_core.languages.names import zh as NAMES  # noqa: F401 (render.room_parts reads it)

from . import render

DONE = "好的，已经弄好了。"
FILLERS = ("呃", "嗯", "那个", "就是", "这个", "啊")
SET_CLEAR = (
    "把{of_dev}{attr}设为{val}。",
    "请把{of_dev}{attr}调到{val}。",
    "将{of_dev}{attr}改成{val}。",
)
SET_COLLOQUIAL = (
    "能帮我把{of_dev}{attr}调成{val}吗？",
    "嘿，{Dev}的{attr}弄到{val}吧。",
    "我想让{of_dev}{attr}是{val}，谢谢。",
    "{Dev}{attr}调到{val}行不？",
)
SET_NOISY_DECOY = (
    "{F}，把{decoy}……不对，等一下，是{dev}，{attr}调到{val}。",
    "把{decoy}，不好意思，我是说{dev}，{f}，{attr}调到{val}。",
)
SET_NOISY = "{F}，{f}，{dev}……{attr}调到{val}，{attr}调到{val}，拜托了。"
SWITCH_CLEAR = {
    "on": ("打开{dev}。", "开启{dev}。"),
    "off": ("关闭{dev}。", "把{dev}关掉。"),
}
SWITCH_COLLOQUIAL = {
    "on": ("能帮我开一下{dev}吗？", "来，把{dev}开起来。", "{Dev}，开一下，谢谢。"),
    "off": ("能帮我关一下{dev}吗？", "把{dev}关了吧。", "{Dev}，关一下，谢谢。"),
}
SWITCH_NOISY_DECOY = {
    "on": "{F}，打开{decoy}，不不不，是{dev}。",
    "off": "{F}，关闭{decoy}，不不不，是{dev}。",
}
SWITCH_NOISY = {
    "on": "{F}……打开，{f}，打开{dev}。",
    "off": "{F}……关闭，{f}，关闭{dev}。",
}
STATUS = (
    "查一下{of_dev}{attr}。",
    "告诉我{of_dev}{attr}。",
    "{of_dev}{attr}目前是什么情况？",
)
STATUS_ANSWER = "{of_dev}{attr}是{value}。"
QUANTITY_ROOM = ("{room}里有几{measure}{kind}？", "帮我数一下{room}里的{kind}。")
QUANTITY_ON = ("现在有几{measure}{kind}开着？", "目前开着的{kind}有几{measure}？")
QUANTITY_ANSWER = "一共有{n}个。"
ALIASES = ("{room}{kind}", "{my_kind}", "窗边的{kind}", "{big_kind}")
DECIMAL = "."
ON_OFF = ("开", "关")
QUOTE = "“{}”"
UNITS = {
    "Celsius": "{n}度",
    "percentage": "{n}%",
    "Kelvin": "{n}K",
    "second": "{n}秒",
    "liter": "{n}升",
    "degree": "{n}度",
    "lux": "{n}勒克斯",
}
ATTRS = {
    key: (word, word)
    for key, word in {
        "ac_mode": "模式", "alarm_volume": "闹钟音量", "alias": "名称", "battery_level": "电量",
        "breathing_light_enabled": "呼吸灯", "brightness": "亮度", "clean_mode": "清扫模式",
        "color": "颜色", "color_mode": "颜色模式", "color_temperature": "色温",
        "current_direction": "转向", "current_humidity": "当前湿度",
        "current_temperature": "当前温度", "current_water_temperature": "当前水温",
        "defend_enabled": "布防", "drying_enabled": "烘干", "effect": "灯效",
        "fan_level": "风量档位", "fan_speed": "风速", "favorite_level": "最爱档位",
        "filter_life": "滤芯剩余寿命", "human_detected": "有人状态", "illuminance": "光照度",
        "intensity": "强度", "media_name": "曲目名称", "media_track": "曲目序号",
        "no_move_duration": "无人移动时长", "oscillation_enabled": "摇头",
        "pm25": "细颗粒物浓度", "position": "开合位置", "preset_mode": "预设模式",
        "remaining_running_time": "剩余运行时间", "remaining_time": "剩余时间",
        "sleep_state": "睡眠状态", "speed_level": "速度档位", "state": "状态",
        "suction": "吸力", "swing_enabled": "扫风", "target_cooking_time": "烹饪时长",
        "target_humidity": "目标湿度", "target_temperature": "目标温度",
        "target_water_quantity": "出水量", "target_water_temperature": "目标水温",
        "tilt_angle": "倾斜角度", "volume_level": "音量", "volume_muted_enabled": "静音",
        "water_level": "水位", "water_tank_full": "水箱满提醒", "work_mode": "工作模式",
        "work_state": "工作状态",
    }.items()
}  # fmt: skip
"""Per attribute (the locator's last part): its name (one form; Chinese has no articles)."""
VALUES = {
    "heat": "制热", "cool": "制冷", "auto": "自动", "heat_cool": "冷暖", "dry": "除湿", "fan_only": "送风",
    "sweep": "扫地", "mop": "拖地", "sweep_and_mop": "扫拖", "color": "彩光",
    "color_temperature": "白光", "forward": "正转", "reverse": "反转", "static": "常亮",
    "breathing": "呼吸", "rainbow": "彩虹", "flowing": "流光", "music_sync": "音乐律动",
    "low": "低档", "medium": "中档", "high": "高档", "normal": "标准", "natural": "自然风",
    "sleep": "睡眠", "awake": "清醒", "fall_asleep": "入睡中", "deep_sleep": "深睡",
    "on": "开启", "off": "关闭", "standby": "待机", "cooking": "烹饪中", "paused": "暂停",
    "idle": "空闲", "cleaning": "清扫中", "returning": "回充中", "docked": "已回座",
    "locked": "已上锁", "unlocked": "已开锁", "charging": "充电中", "yes": "有人",
    "no": "无人", "favorite": "最爱", "eco": "节能", "quick_heat": "速热",
    "microwave": "微波", "steam": "蒸汽", "bake": "烘烤", "steam_bake": "蒸烤",
    "reheating": "复热", "defrost": "解冻", "continuous": "持续", "dry_clothes": "干衣",
    "standard": "标准洗", "quick": "快洗", "cotton": "棉麻", "wool": "羊毛",
    "synthetic": "化纤", "playing": "播放中", "washing": "洗涤中", "rinsing": "漂洗中",
    "spinning": "脱水中", "drying": "烘干中", "done": "已完成", "heating": "加热中",
    "keep_warm": "保温",
}  # fmt: skip
"""Per named value of an attribute (a mode, a state): how a Chinese speaker says it."""
SUBCATS = {
    "ac_gateway": ("空调网关", "空调网关", "个"),
    "air_cube": ("空气魔方", "空气魔方", "个"),
    "air_purifier": ("空气净化器", "空气净化器", "台"),
    "blind": ("百叶帘", "百叶帘", "幅"),
    "builtin_microwave_steam_oven": ("蒸烤箱", "蒸烤箱", "台"),
    "climate_sensor": ("温湿度传感器", "温湿度传感器", "个"),
    "color_light": ("彩光灯", "彩光灯", "盏"),
    "color_temperature_light": ("色温灯", "色温灯", "盏"),
    "compound_washer": ("洗烘一体机", "洗烘一体机", "台"),
    "curtain": ("窗帘", "窗帘", "幅"),
    "dehumidifier": ("除湿机", "除湿机", "台"),
    "electric_water_heater": ("电热水器", "电热水器", "台"),
    "fan_light": ("风扇灯", "风扇灯", "盏"),
    "floor_ac": ("立式空调", "立式空调", "台"),
    "human_sensor": ("人体传感器", "人体传感器", "个"),
    "humidifier": ("加湿器", "加湿器", "台"),
    "light": ("灯", "灯", "盏"),
    "light_strip": ("灯带", "灯带", "条"),
    "robot_cleaner": ("扫拖机器人", "扫拖机器人", "台"),
    "smart_fan": ("风扇", "风扇", "台"),
    "smart_lock": ("门锁", "门锁", "把"),
    "smart_screen": ("智能屏", "智能屏", "块"),
    "universal_speaker": ("音箱", "音箱", "个"),
    "vacuum_cleaner": ("吸尘器", "吸尘器", "台"),
}
"""Per kind of device of the home model: the noun (Chinese has no plural) and its measure word."""


def device_parts(name: str) -> dict[str, str]:
    """A device's name as the templates use it: bare, and with ``的`` before an attribute."""
    return {
        "dev": name,
        "dev_nom": name,
        "Dev": name,
        "name": name,
        "of_dev": f"{name}的",
        "at_dev": name,
    }


def kind_parts(sub: str) -> dict[str, str]:
    """A kind of device as the templates use it, with its measure word for counting."""
    one, _, measure = SUBCATS[sub]
    return {
        "kind": one,
        "kinds": one,
        "measure": measure,
        "my_kind": f"我的{one}",
        "big_kind": f"大{one}",
    }


# ---------------------------------------------------------------------------------- scheduling
SCHEDULED = "好的，已经设置好了。"
TONIGHT = ("今天{clock}", "今天{clock}的时候", "到了今天{clock}")
TOMORROW = ("明天{clock}", "明天{clock}的时候")
DAILY = ("每天{clock}", "每天到了{clock}", "天天{clock}")
WEEKDAYS = ("工作日{clock}", "周一到周五{clock}")
WEEKEND = ("周末{clock}", "每周六和周日{clock}")
NO_MOVE = ("{room}{minutes}分钟没人活动的时候", "{room}连续{minutes}分钟没有人走动时")
HOT = ("{room}温度超过{t}度时", "{room}热到{t}度以上的时候")
COLD = "{room}温度低于{t}度时"
HUMID = ("{room}湿度超过{h}%时", "{room}湿度高过{h}%的时候")
DUSTY = "{room}细颗粒物浓度超过{level}时"
TURNS = {
    "on": ("{dev}打开时", "每次{dev}被打开的时候"),
    "off": ("{dev}关闭时", "每次{dev}被关掉的时候"),
}
BECOMES = ("{dev}变成“{shown}”时", "一旦{dev}处于“{shown}”状态")
IF_HOT = ("如果{room}还在{t}度以上", "但只在{room}温度高于{t}度的情况下")
IF_HUMID = "如果{room}湿度高于{h}%"
IF_STATE = "如果{dev}是“{shown}”状态"
WHEN_IF = "{when}，{cond}"
RULE = "{when}，{actions}。"
SWITCH_ACTION = {"on": "打开{dev}", "off": "关闭{dev}"}
SET_ACTION = "把{of_dev}{attr}调到{val}"
COMMA, AND = "，", "，再"
_PERIODS = ((6, "早上"), (9, "上午"), (12, "中午"), (13, "下午"), (18, "晚上"))


def clock(hour: int, minute: int) -> str:
    """A time as said in Mandarin: the part of the day, the hour on the 12-hour clock, and
    ``半`` or the minutes (``晚上7点半``, ``早上6点45分``)."""
    period = [word for start, word in _PERIODS if hour >= start][-1]
    h12 = hour % 12 or 12
    tail = "点" if minute == 0 else "点半" if minute == 30 else f"点{minute}分"
    return f"{period}{h12}{tail}"


# ------------------------------------------------------------------------------------- memory
PHRASES = (
    ("sleep", ("该睡觉了。", "我去睡了。", "准备睡觉吧。", "好，睡眠模式。")),
    ("movie", ("看电影啦！", "我们看个电影吧。", "帮我准备一下看电影。")),
    ("reading", ("我要看会儿书。", "阅读时间。", "帮我弄成看书的环境吧。")),
    ("wake-up", ("早上好！", "我起床了。", "开始早晨模式吧。")),
    ("guests", ("有客人要来了。", "马上有人来做客，把家里准备一下。")),
    ("work", ("该专心工作了。", "我现在开始工作。")),
)
SCENES = {
    "sleep": "睡觉",
    "movie": "看电影",
    "reading": "看书",
    "wake-up": "起床",
    "guests": "来客人",
    "work": "工作",
}
MEMORY_TARGET = "我说“{scene}”的时候，希望{desc}。"
MEMORY_OTHER = "{scene}的时候，我要{desc}。"
DESCRIBE_SWITCH = {"on": "打开{dev}", "off": "关掉{dev}"}
DESCRIBE_SET = "{of_dev}{attr}是{val}"
LONG_DONE = "好了，按你喜欢的设置好了。"
SAME = (
    "{dev}也照这样弄。",
    "现在{dev}也一样，同样的设置。",
    "把{dev}设成和刚才一样。",
    "{dev}也来一样的，谢谢。",
    "还有{dev}，调成一样的。",
)
HISTORY_USER = "把{of_dev}{attr}调到{val}。"
HISTORY_DONE = "好了，{of_dev}{attr}现在是{val}。"
SAME_DONE = "好了，{dev}也调成一样了。"


# ------------------------------------------- compositional control (issue 41: multi_device, batch)
# One request over several devices. Chinese verbs have one form, so a phrasing serves the
# imperative and the question frames alike ("打开{obj}", "能不能打开{obj}？"); {obj} is a device
# or a group, its place said before it ("客厅里的所有灯"), with the kind's measure word where
# it is counted ("每一盏灯"). As many phrasings per operation as English has (the draws are the
# same).
def _same(*says: str) -> tuple[tuple[str, str], ...]:
    """Phrasings whose imperative and infinitive are one (Chinese verbs do not change)."""
    return tuple((say, say) for say in says)


def _on_off() -> dict[Any, tuple[tuple[str, str], ...]]:
    return {
        ("state", "on"): _same("打开{obj}", "开启{obj}", "把{obj}打开"),
        ("state", "off"): _same("关闭{obj}", "关掉{obj}", "把{obj}关了"),
    }


COMP_OPS: dict[str, dict[Any, tuple[Any, ...]]] = {
    "lights": {
        **_on_off(),
        "brightness": _same("把{obj}的亮度调到{v}%", "把{obj}调到{v}%", "将{obj}的亮度设为{v}%"),
        ("color_temperature", 2700): _same("把{obj}调成暖白光（2700K）", "把{obj}切换到最暖的白光"),
        ("color_temperature", 6500): _same("把{obj}调成冷白光（6500K）", "把{obj}切换到最冷的白光"),
        ("color_temperature", 4000): _same("把{obj}调成4000K的中性白光"),
    },
    "fans": {
        **_on_off(),
        "speed_level": _same("把{obj}调到{v}", "把{obj}切换到{v}"),
        "preset_mode": _same("把{obj}设为{v}", "把{obj}切换到{v}"),
        ("oscillation_enabled", True): _same("打开{obj}的摇头", "让{obj}摇头"),
        ("oscillation_enabled", False): _same("关闭{obj}的摇头", "让{obj}停止摇头"),
    },
    "acs": {
        **_on_off(),
        "ac_mode": _same("把{obj}设为{v}模式", "把{obj}切换到{v}模式"),
        "target_temperature": _same("把{obj}设到{v}度", "把{obj}调到{v}度"),
    },
    "covers": {
        ("position", 0): _same("关上{obj}", "把{obj}拉上", "把{obj}完全合上"),
        ("position", 100): _same("打开{obj}", "把{obj}完全打开", "把{obj}全部拉开"),
        ("position", 50): _same("把{obj}打开一半", "把{obj}拉开一半"),
        "position": _same("把{obj}开到{v}%", "把{obj}打开到{v}%"),
    },
    "media": {
        **_on_off(),
        "volume_level": _same("把{obj}的音量调到{v}", "把{obj}的音量设为{v}"),
        ("work_state", "paused"): _same("暂停{obj}", "把{obj}正在播放的内容暂停"),
        ("volume_muted_enabled", True): _same("把{obj}静音"),
    },
    "water_heaters": {
        **_on_off(),
        "target_water_temperature": _same("把{obj}设到{v}度", "让{obj}加热到{v}度"),
        ("work_mode", "eco"): _same("把{obj}设为节能模式", "把{obj}切换到节能模式"),
    },
    "dehumidifiers": {
        **_on_off(),
        "target_humidity": _same("把{obj}的湿度设为{v}%", "让{obj}把湿度控制在{v}%"),
    },
    "humidifiers": {
        **_on_off(),
        "target_humidity": _same("把{obj}的湿度设为{v}%", "让{obj}把湿度控制在{v}%"),
    },
    "purifiers": {
        **_on_off(),
        "work_mode": _same("把{obj}设为{v}模式", "把{obj}切换到{v}模式"),
    },
}
"""Per kind of device the compositional requests name: its operations' phrasings, by
(attribute, value) or by attribute (with {v}, the value)."""
COMP_VALUES = {
    "fans": {"low": "低速", "medium": "中速", "high": "高速", "normal": "标准模式",
             "natural": "自然风模式", "sleep": "睡眠模式"},
    "acs": {"cool": "制冷", "heat": "制热", "dry": "除湿", "auto": "自动"},
    "purifiers": {"sleep": "睡眠", "auto": "自动"},
}  # fmt: skip
"""Per kind: the named values its phrasings say ({v})."""
_COMP_KINDS = {
    "lights": (("灯", "灯具"), "盏", "灯"),
    "fans": (("风扇",), "台", "风扇"),
    "acs": (("空调", "空调设备"), "台", "空调"),
    "covers": (("窗帘和百叶帘", "窗帘"), "幅", "窗帘"),
    "media": (("音箱和智能屏", "播放设备"), "台", "播放设备"),
    "water_heaters": (("热水器",), "台", "热水器"),
    "dehumidifiers": (("除湿机",), "台", "除湿机"),
    "humidifiers": (("加湿器",), "台", "加湿器"),
    "purifiers": (("空气净化器", "净化器"), "台", "空气净化器"),
}  # fmt: skip
"""Per kind: its nouns for the group (as many as English has), its measure word and the noun
one of them is counted by."""
COMP_ALL = (
    "{where}所有{kinds}",
    "{where}全部{kinds}",
    "{where}每一{measure}{one}",
    "{where}每{measure}{one}",
)
COMP_THEM = "它们"
COMP_IN_ROOM = ("{room}的", "{room}里的", "{room}那边的")
COMP_IN_HOME = ("", "家里的", "全屋的", "家里各处的")
COMP_REQUEST = ("{imp}。", "请{imp}。", "能不能{inf}？", "可以帮我{inf}吗？", "麻烦你{inf}。")
COMP_THEN = "先{first}，然后{rest}。"
COMP_ALSO = "{first}。另外，{rest}，谢谢。"
COMP_DONE = ("好了。", "都设置好了。", "好了，已经更新了。", "好的，搞定了。")
_RANK_WORDS = {
    "lights": (("最亮的", "亮度最高的"), ("最暗的", "亮度最低的")),
    "fans": (("转得最快的", "风速档位最高的"), ("转得最慢的", "风速档位最低的")),
    "acs": (("设置最暖的", "目标温度最高的"), ("设置最冷的", "目标温度最低的")),
    "covers": (("开得最大的", "开合度最大的"), ("关得最严的", "开合度最小的")),
    "media": (("声音最大的", "音量最高的"), ("声音最小的", "音量最低的")),
    "water_heaters": (("水温最高的", "设定温度最高的"), ("水温最低的", "设定温度最低的")),
}
COMP_RANKS = {
    kind: {
        way: tuple(
            ("{where}" + said + "那{measure}{one}", "{where}" + said + "{n}{measure}{kinds}")
            for said in words
        )
        for way, words in zip(("high", "low"), both, strict=True)
    }
    for kind, both in _RANK_WORDS.items()
}
"""Per kind that can be ranked: the highest and the lowest, each phrasing for one device
("最亮的那盏灯") and for {n} of them ("最亮的两盏灯"), with the kind's measure word."""
COMP_NUMBERS = {2: "两", 3: "三"}
COMP_ONLY = "{imp}，只要这{n}{measure}。"
_RUNNING = ("正在运行的{kinds}", "目前开着的{kinds}", "还在运行的{kinds}")
COMP_PREDS = {
    "lights": {
        ("brightness", ">"): ("亮度高于{t}%的{kinds}", "比{t}%更亮的{kinds}", "亮度设在{t}%以上的{kinds}"),
        ("brightness", "<"): ("亮度低于{t}%的{kinds}", "比{t}%更暗的{kinds}", "亮度设在{t}%以下的{kinds}"),
        ("state", "=="): ("开着的{kinds}", "还开着的{kinds}", "目前开着的{kinds}"),
    },
    "fans": {
        ("speed_level", "=="): ("开在高速的{kinds}", "正以高速运转的{kinds}", "设为高速的{kinds}"),
        ("preset_mode", "=="): ("处于睡眠模式的{kinds}", "正以睡眠模式运行的{kinds}"),
        ("state", "=="): _RUNNING,
    },
    "acs": {
        ("ac_mode", "=="): ("处于制热模式的{kinds}", "设为制热的{kinds}"),
        ("target_temperature", "<"): ("设定温度低于{t}度的{kinds}", "目标温度在{t}度以下的{kinds}"),
        ("state", "=="): _RUNNING,
    },
    "covers": {
        ("position", ">"): ("开了一半以上的{kinds}", "开合度超过一半的{kinds}"),
        ("position", "=="): ("完全关着的{kinds}", "关着的{kinds}"),
    },
    "media": {
        ("volume_level", ">"): ("音量高于{t}的{kinds}", "音量大于{t}的{kinds}"),
        ("state", "=="): ("开着的{kinds}", "还开着的{kinds}", "目前开着的{kinds}"),
    },
    "water_heaters": {
        ("target_water_temperature", ">"): ("设定温度高于{t}度的{kinds}", "水温设在{t}度以上的{kinds}"),
    },
}  # fmt: skip
"""Per kind with state predicates, by (attribute, comparison): the group that satisfies it, its
modifier before the noun ({t}: the threshold)."""
COMP_WHICH = ("{x}", "所有{x}", "全部{x}", "每一{measure}{x}")
COMP_ROOM_SAID = ("{room}：{text}", "{room}里，{text}")
COMP_COND = {
    "current_humidity": ("湿度超过{t}%的房间里", "湿度传感器读数超过{t}%的房间里", "湿度高于{t}%的房间里"),
    "current_temperature": ("温度超过{t}度的房间里", "温度高于{t}度的房间里", "传感器读数超过{t}度的房间里"),
    "human_detected": ("检测到有人活动的房间里", "有人走动的房间里", "人体传感器检测到有人的房间里"),
    "state": ("开着空调的房间里", "空调正在运行的房间里", "空调开着的房间里"),
}  # fmt: skip
"""Per room condition (the sensed attribute): the rooms that meet it ({t}: the threshold)."""
COMP_COND_SAID = ("{where}的{kinds}", "{where}，{imp}", "{where}的所有{kinds}", "{kinds}")
"""The clause about such rooms: the group there, the rooms put first, all of the group there,
and the group alone (for the rooms put first)."""
COMP_EXCEPT = ("除了{room}，{clause}。", "{clause}，但别动{room}的。", "{clause}，{room}除外。")
COMP_ALL_BUT = (
    "除了{room}以外的所有{kinds}",
    "除{room}外各处的{kinds}",
    "{room}以外每个房间的{kinds}",
)
COMP_STOP = "。"


def comp_kind(kind: str, noun: int) -> dict[str, str]:
    """A kind's words for a group request: its ``noun``-th noun and its measure word."""
    kinds, measure, one = _COMP_KINDS[kind]
    return {"kinds": kinds[noun], "measure": measure, "one": one}


def tidy(text: str) -> str:
    """Chinese needs no elision."""
    return text


globals().update(render.interface(sys.modules[__name__]))  # the functions of .en


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
# continuation, topic_shift: the previous turn (a request and what the assistant said), the next
# request about the same device, a new topic after a marker.
SHIFTS = (
    "",
    "",
    "哦，还有件别的事：",
    "换个事儿：",
    "跟这个没关系，不过",
    "对了，",
    "好，下一个：",
)
"""How a user marks a new topic (empty: none)."""
SHIFT_LOWER = False
PARTS = {
    "fan": {"part": "风扇", "its_part": "它的风扇"},
    "light": {"part": "灯", "its_part": "它的灯"},
}
"""The fan and the light of a fan light."""
PART_SWITCH = {
    "on": ("打开{dev}的{part}。", "把{dev}的{part}打开。"),
    "off": ("关闭{dev}的{part}。", "把{dev}的{part}关掉。"),
}
SAID_SWITCH = {
    "on": ("好了，{dev}已经打开了。", "好的，我把{dev}打开了。"),
    "off": ("好了，{dev}已经关了。", "好的，我把{dev}关掉了。"),
}
SAID_SET = ("好了，{of_dev}{attr}现在是{val}。", "好的，我把{of_dev}{attr}改成了{val}。")
CONT_PART = {
    "on": ("把{its_part}也打开。", "再把{its_part}也开一下。"),
    "off": ("把{its_part}也关上。", "再把{its_part}也关掉。"),
}
CONT_SWITCH = {
    "on": ("现在把它打开。", "好，那现在打开它。"),
    "off": ("现在把它关掉。", "好，那现在关掉它。"),
}
CONT_ALIAS = ("把它的名字也改成{val}。", "再给它改名叫{val}。")
CONT_SET = (
    "再把它的{attr}设为{val}。",
    "现在把它的{attr}调成{val}。",
    "顺便把它的{attr}改成{val}。",
    "还是这个设备，{attr}调到{val}，谢谢。",
    "好，再把它的{attr}调到{val}。",
)


def pronoun_parts(name: str) -> dict[str, str]:
    """Chinese names the device again by 它, the same for every device."""
    return {}


CORRECTION = (
    "哎呀，我说的是{new_dev}。把{old_dev}恢复原样吧。",
    "不好意思，弄错了：不是{old_dev}，是{new_dev}。",
)
"""Correcting the previous turn's device (the old one goes back as it was)."""
CORRECTION_ROOMS = (
    "不对，不是{old_room}，是{new_room}。",
    "等等，房间错了：我说的是{new_dev}，不是{old_room}那个。",
    "{old_room}的别动，改成{new_dev}。",
)
"""When both are the same kind of device: the rooms tell them apart."""
CORRECTION_DONE = "抱歉：{old_dev}已经恢复原样，{new_dev}也弄好了。"

SAME_ROOM_TOO = {
    "on": (
        "把{dev}也打开。",
        "还有{dev}也是。",
        "那里的{dev}也开一下，谢谢。",
        "能把{dev}也打开吗？",
    ),
    "off": (
        "把{dev}也关掉。",
        "还有{dev}也是。",
        "那里的{dev}也关一下，谢谢。",
        "能把{dev}也关掉吗？",
    ),
}
"""A device of the previous one's room, named by its kind only, switched the same way."""
SAME_ROOM_NOW = {
    "on": (
        "现在把那里的{dev}打开。",
        "再把那个房间的{dev}打开。",
        "还有那个房间的{dev}，打开吧，谢谢。",
    ),
    "off": (
        "现在把那里的{dev}关掉。",
        "再把那个房间的{dev}关掉。",
        "还有那个房间的{dev}，关掉吧，谢谢。",
    ),
}
"""... switched the other way than the previous one."""
ANYTHING_ON = ("{room}还有什么开着吗？", "{room}现在有哪些开着？")
ONLY_ON = ("只有{dev}开着。", "只有{dev}，那里别的都关了。")
THAT_ONE_OFF = ("把那个关了。", "好，那就关掉它吧。", "帮我把它关了，谢谢。", "那就关掉吧。")


globals().update(render.dialogue_interface(sys.modules[__name__]))


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
# state_level, scene_level, slot_missing: a request the assistant must ask about, its question and
# the simulated user's reply. As many phrasings of each as English has (the draws are the same).
OPENERS = ("", "", "唉，", "天哪，", "说实话，", "喂，")
"""How a complaint may open (empty: plainly)."""
HERE = "这里"
COMPLAINTS = {
    "bright": ("{where}也太亮了。", "{where}的光刺得我眼睛疼。", "{where}亮得晃眼。"),
    "cold": ("{where}冷死了。", "{where}有点凉飕飕的。", "我在{where}觉得好冷。"),
    "dark": ("{where}太暗了。", "{where}我什么都看不清。", "{where}怎么这么暗？", "{where}跟山洞似的。"),
    "dry": ("{where}空气好干。", "在{where}待得我嗓子都干了。", "{where}干得要命。"),
    "hot": ("{where}跟蒸笼一样。", "{where}热死了。", "我在{where}热得满头大汗。", "{where}实在太热了。"),
    "humid": ("{where}好闷热。", "{where}什么都湿乎乎、黏糊糊的。", "{where}湿气太重了。"),
    "loud": ("{where}太吵了。", "{where}音乐开得震天响。", "{where}吵得我没法思考。"),
    "stuffy": ("{where}好闷。", "{where}空气不新鲜。", "{where}闷得我都快喘不过气了。"),
}  # fmt: skip
"""Per complaint: its phrasings ({where}: the room, or :data:`HERE`)."""
STATE_DONE = "好了，这样应该会好一些。"
STATE_ASK = ("你在哪个房间？", "你现在在哪儿？", "你说的是哪个房间？")
STATE_REPLY = ("我在{room}。", "{room}。", "在{room}。")
AT = "在{room}"
SCENE_PHRASES = {
    "dinner": ("晚饭好了，{at}开饭！", "我们{at}坐下吃饭了。", "{at}吃晚饭啦。"),
    "guests": ("待会儿朋友们要{at}聚会。", "今晚有客人来，{at}准备一下。", "{at}开派对啦！"),
    "movie": ("{at}看电影啦！", "我们{at}看部电影吧。", "帮我{at}营造一下看电影的氛围，好吗？", "我要{at}看点东西了，准备一下。"),
    "reading": ("我要{at}看一会儿书。", "{at}窝着看本书吧。", "我想{at}读会儿书。"),
    "rest": ("我要{at}休息一会儿。", "{at}小睡一下。", "我累坏了，要{at}躺一会儿。", "我要{at}眯一会儿。"),
    "wakeup": ("早上好，我{at}起床了！", "我{at}醒了，早安。", "我刚{at}睡醒。"),
    "workout": ("该{at}锻炼了。", "我要{at}开始运动了。", "{at}开练吧。"),
}  # fmt: skip
"""Per scene: its phrasings ({at}: "在主卧" before the verb where the room is named)."""
SCENE_DONE = "都准备好了，好好享受吧。"
SCENE_ASK = ("你会在哪个房间？", "好的，在哪个房间？", "要在哪里布置？")
SCENE_REPLY = ("在{room}。", "{room}，谢谢。", "我会在{room}。")
VALUE_ALIAS = ("给{dev}起个新名字。", "帮我把{dev}改个名。", "我想改一下{dev}的名字。")
VALUE_ALIAS_QUESTION = "要叫它什么？"
VALUE_ALIAS_REPLY = ("就叫{val}。", "改成{val}吧。")
VALUE_SET = (
    "调一下{of_dev}{attr}。",
    "你能调整一下{of_dev}{attr}吗？",
    "我想设置{of_dev}{attr}。",
    "请设置一下{of_dev}{attr}。",
)
VALUE_QUESTION = "要把{attr}设成什么？"
VALUE_REPLY = ("{val}。", "调到{val}。", "就{val}吧。", "{val}，谢谢。")
ROOM_SWITCH = {
    "on": ("打开{dev}。", "能把{dev}打开吗？", "{dev}开一下，谢谢。"),
    "off": ("关掉{dev}。", "能把{dev}关了吗？", "{dev}关一下，谢谢。"),
}
"""Switching a device named by its kind only ({dev}: "吸顶灯"), which several rooms have."""
ROOM_ASK = ("哪个房间的{dev}？", "好几个房间都有，你说的是哪一个？")
ROOM_REPLY = ("{room}那个。", "{room}的。", "我说的是{room}的{dev}。")
LIGHT_IN_ROOM = {
    "on": ("打开{room}的灯。", "把{room}的灯开一下。", "能把{room}的灯打开吗？"),
    "off": ("关掉{room}的灯。", "把{room}的灯关一下。", "能把{room}的灯关了吗？"),
}
"""Switching "the light" of a room that has several."""
LIGHT_WHICH = ("{room}有{n}盏灯，你说的是哪一盏？", "你说的是哪一盏？")
LIGHT_REPLY = ("{dev}。", "{dev}，谢谢。")
OVEN = "烤箱"
"""The oven, as the cooking requests name it."""
COOKING = {
    "defrost": ("解冻一下鸡肉", "把冻虾解冻"),
    "microwave": ("热一下咖啡", "把这碗米饭热一热"),
    "reheating": ("热一下午饭", "把剩菜热一热", "热一下汤"),
    "steam": ("蒸点饺子", "蒸一下鱼"),
}
"""Per cooking mode of the oven: the jobs a user asks it for."""
COOK_TEXT = ("用{oven}{task}。", "能用{oven}帮我{task}吗？", "我要{task}，把{oven}开起来。")
COOK_QUESTION = ("要多久？", "要运行多长时间？")
COOK_REPLY = ("{d}。", "大概{d}。", "就{d}吧。")
DURATIONS = {
    60: "一分钟",
    90: "一分半钟",
    120: "两分钟",
    180: "三分钟",
    300: "五分钟",
    600: "十分钟",
    900: "十五分钟",
    1200: "二十分钟",
    1800: "半小时",
}
"""The cooking times asked for, as said."""
HEATER = "热水器"
"""The only water heater, as a household calls it."""
HEAT_TEXT = (
    "用{heater}烧点水洗澡。",
    "把{heater}开起来加热。",
    "我待会儿想泡澡，用{heater}把水烧热。",
)
HEAT_QUESTION = ("要设成多少度？", "水要多热？")
HEAT_REPLY = ("{t}度。", "调到{t}度。", "大概{t}度吧。")


globals().update(render.ambiguous_interface(sys.modules[__name__]))
