"""Chinese (Mainland, Simplified) wording of the ``memhome`` suite: no articles, the 把
construction for settings (``把客厅吸顶灯的亮度调到50%``), a scene as ``……的时候``, full-width
punctuation, ``25度``, ``50%``. Rooms and devices are named by :mod:`smh_core.languages.names.zh`
(``主卧吸顶灯``)."""

from __future__ import annotations

from typing import Any

from . import Said

SCENES = (
    ("电影之夜", "电影之夜的时候"),
    ("睡觉", "睡觉的时候"),
    ("看书", "看书的时候"),
    ("起床", "起床的时候"),
    ("吃晚饭", "吃晚饭的时候"),
    ("健身", "健身的时候"),
    ("工作", "工作的时候"),
    ("午睡", "午睡的时候"),
    ("游戏之夜", "游戏之夜的时候"),
    ("约会之夜", "约会之夜的时候"),
    ("大扫除", "大扫除的时候"),
    ("冥想", "冥想的时候"),
    ("家庭早餐", "家庭早餐的时候"),
    ("学习", "学习的时候"),
    ("派对之夜", "派对之夜的时候"),
    ("下雨天", "下雨天的时候"),
)
"""Per scene: its name (the key term) and "at" form."""

ATTRS = {
    "ac mode": "模式",
    "alarm volume": "闹钟音量",
    "breathing light": "呼吸灯",
    "brightness": "亮度",
    "clean mode": "清扫模式",
    "color temperature": "色温",
    "current direction": "转向",
    "drying": "烘干",
    "effect": "灯效",
    "fan": "风量档位",
    "fan speed": "风速",
    "favorite": "自定义档位",
    "intensity": "强度",
    "oscillation": "摇头",
    "position": "开合度",
    "preset mode": "预设模式",
    "sleep state": "睡眠状态",
    "speed": "转速",
    "suction": "吸力",
    "swing": "扫风",
    "target humidity": "目标湿度",
    "target temperature": "温度",
    "target water quantity": "水量",
    "target water temperature": "水温",
    "tilt angle": "倾斜角度",
    "volume level": "音量",
    "water": "水位",
    "work mode": "工作模式",
}
"""Per setting (its English words): the Chinese noun."""
OPTIONS = {
    "auto": "自动",
    "cool": "制冷",
    "dry": "除湿",
    "fan_only": "送风",
    "heat": "制热",
    "breathing": "呼吸",
    "music_sync": "音乐律动",
    "rainbow": "彩虹",
    "static": "常亮",
    "forward": "正转",
    "reverse": "反转",
    "natural": "自然风",
    "normal": "普通",
    "sleep": "睡眠",
    "high": "高",
    "low": "低",
    "medium": "中",
    "awake": "清醒",
    "deep_sleep": "深睡",
    "fall_asleep": "入睡",
    "continuous": "连续",
    "dry_clothes": "干衣",
    "eco": "节能",
    "favorite": "喜爱",
    "quick_heat": "速热",
    "synthetic": "化纤",
    "cotton": "棉麻",
    "flowing": "流水",
    "mop": "拖地",
    "quick": "快洗",
    "standard": "标准",
    "sweep": "只扫",
    "sweep_and_mop": "扫拖",
    "wool": "羊毛",
}
"""A setting's option values as a Chinese speaker says them."""
UNITS = {
    "Celsius": "{v}度",
    "percentage": "{v}%",
    "Kelvin": "{v}K",
    "second": "{v}秒",
    "liter": "{v}升",
    "degree": "{v}度",
}


def scene_words(scene: tuple[str, str]) -> dict[str, str]:
    """The template fields of a scene."""
    return {"scene": scene[0], "Scene": scene[0], "scene_at": scene[1]}


def name_words(name: str) -> dict[str, str]:
    """The template fields of a device's name (no article in Chinese)."""
    return {"name": name}


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def value_said(value: Any, unit: str | None) -> str:
    """A setting's value as said in Chinese (an option by :data:`OPTIONS`, else a number)."""
    if isinstance(value, str):
        return OPTIONS[value]
    return UNITS[unit].format(v=_number(value)) if unit in UNITS else _number(value)


def switch(name: str, on: bool) -> Said:
    """A device switched on or off."""
    state, verb = ("开着", "打开") if on else ("关着", "关掉")
    return Said(
        state,
        f"{name}{state}",
        f"把{name}{verb}。",
        f"把{name}{verb}",
        f"好了，{name}已经{verb}了。",
        state,
    )


def setting(name: str, attr: str, value: Any, unit: str | None, english: str) -> Said:
    """A device's setting at a value (a flag on or off, a number, an option); ``attr`` and
    ``english`` are the setting and its value in English words (the keys of the tables)."""
    attr = f"{name}的{ATTRS[attr]}"
    if isinstance(value, bool):
        state, verb = ("开着", "打开") if value else ("关着", "关闭")
        return Said(
            state,
            f"{attr}{state}",
            f"{verb}{attr}。",
            f"{verb}{attr}",
            f"好了，{attr}已经{verb}了。",
            state,
        )
    said = value_said(value, unit)
    return Said(
        said,
        f"{attr}调到{said}",
        f"把{attr}调到{said}。",
        f"把{attr}调到{said}",
        f"好了，{attr}已经调到{said}了。",
        said,
    )


FILLERS = ("呃", "嗯", "那个", "就是", "啊", "这个")
NOISY = ("{Filler}，{text}", "{Filler}……{filler}，{text}", "{text_bare}，{filler}，就这样。")
ENTRY = ("{scene_at}，我喜欢{desc}。", "{scene_at}，我习惯{desc}。", "{scene}：{desc}。")

ADD_SETTING = (
    "{scene_at}就用这个设置，记住。",
    "很好。以后{scene_at}都这样，请记住。",
    "{scene_at}就这么设置，记在心里，我就喜欢这样。",
)
ADD_SETTING_COLLOQUIAL = (
    "不错，{scene_at}我每次都要这样，记住啊！",
    "嗯，{scene_at}就这样，记下来。",
)
ADD = (
    "记住，{scene_at}我喜欢{desc}。",
    "以后每到{scene_at}，我都要{desc}。",
    "请记住：{scene_at}，{desc}。",
    "你能帮我记一下吗？{scene_at}我要{desc}。",
)
ADD_COLLOQUIAL = (
    "嘿，记一下，{scene_at}我总是要{desc}，好吗？",
    "记住这个：{scene}就是{desc}。",
    "跟你说一声，以后{scene_at}我喜欢{desc}。记住哦。",
)
UPDATE = (
    "其实以后{scene_at}，我更想要{desc}。",
    "改一下我{scene_at}的设置：{name}用{said_new}，不要{said_old}了。",
    "更新一下你记的{scene}设置：我现在要{desc}。",
    "请记住新的{scene}偏好：{desc}，不再是{said_old}了。",
)
UPDATE_COLLOQUIAL = (
    "{scene_at}{said_old}已经不合适了，下次改成{said_new}，记住。",
    "{scene}的事我改主意了。改成记住{desc}。",
    "嘿，{scene}有变化：以后{name}调到{said_new}。",
)
DELETE = (
    "忘掉我跟你说过的{scene}设置。",
    "请删除我的{scene}偏好。",
    "{scene_at}我不需要{name}的那个设置了，从记忆里删掉吧。",
    "你不用再记住我{scene_at}喜欢{desc}了。",
)
DELETE_COLLOQUIAL = (
    "{scene}那个{name}的事就算了，删掉吧。",
    "把我的{scene}设置去掉，我不要了。",
    "那条{scene}的规则？忘了吧，忘了吧。",
)
USE = (
    "到{scene}的时间了。",
    "按{scene}的习惯布置一下。",
    "{scene}，老样子。",
    "把家里准备好，{scene}，跟平时一样。",
)
USE_COLLOQUIAL = (
    "好啦，{scene}！你知道我喜欢什么。",
    "开始吧，{scene}。照老规矩来。",
    "嘿，又到{scene}的时间了，按我喜欢的来。",
)
ONCE = (
    "就今晚，{request}。不用记住。",
    "只这一次：{command}",
    "先{request}，但别存成偏好。",
)
ONCE_COLLOQUIAL = ("能{request}吗？就这一次。", "暂时{request}。别记住。")
UNCOVERED = ("{command}",)
UNCOVERED_COLLOQUIAL = ("能{request}吗？", "{command_bare}，谢谢。")
OVERRIDE = ("{command}", "{scene}结束了。{command}")
OVERRIDE_COLLOQUIAL = ("可以{request}吗？", "现在就{request}。")

RESPONSES = {
    "add": "好的，我记住了：{content}",
    "update": "已更新：{content}",
    "delete": "已忘记：{content}",
    "use": "好了，都按你喜欢的设置好了。",
    "refuse": "抱歉，我只记和设备有关的偏好。",
    "execute": "好了。",
}

PHONE = "1{a[0]}{a[1]} {a[2]}{b} {c}"
"""A Chinese mobile number: eleven digits, 3-4-4."""
CARD = "{0} {1} {2} {3}"
EMAIL_NAMES = ("xiaoming", "lili", "zhangwei", "wangfang")
WIFI_WORDS = ("xiangrikui", "fengye", "laohu")
SENSITIVE = (
    "记住我的手机号：{phone}。",
    "请记一下，我的手机号码是{phone}。",
    "以后记住我的邮箱是{email}{d2}@qq.cn。",
    "记一下，我的银行卡号是{card}，记住啊。",
    "记住{name}的WiFi密码是{wifi}{d4}。",
    "你能记住我的门锁密码吗？是{pin}。",
    "呃，记住我的护照号，是E{passport}。",
    "嘿，帮我存一下：我妈的电话是{phone}。",
)
MONTHS = ("1月", "3月", "5月", "7月", "9月", "11月")
ALLERGENS = ("猫毛", "花生", "花粉", "海鲜")
TEAMS = ("国安", "申花", "泰山")
DOGS = ("旺财", "豆豆", "球球", "小白")
WEEKDAYS = ("周一", "周二", "周五")
WIVES = ("小丽", "晓燕", "王芳", "李娜")
CHITCHAT = (
    "记住，我姐姐的生日是{month}{day}日。",
    "请记住我对{allergen}过敏。",
    "记一下，我最喜欢的球队是{team}。",
    "以后记住，我家狗叫{dog}。",
    "记住我喜欢喝茶，不太喜欢咖啡。",
    "呃，记住我下{weekday}要去看牙医。",
    "跟你说一下，我吃素。记住哦，好吗？",
    "记住我老婆叫{wife}。",
)
