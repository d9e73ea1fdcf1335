"""Chinese names of rooms and devices, shared by every suite written in Chinese (:mod:`smh_core.languages.names`): the
names a Chinese-speaking household gives its rooms and devices, and how a request names
a device (:func:`the`)."""

from __future__ import annotations

ROOMS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "living_room": (("客厅", "客厅", "客厅"),),
    "kitchen": (("厨房", "厨房", "厨房"), ("西厨", "西厨", "西厨")),
    "master_bedroom": (("主卧", "主卧", "主卧"),),
    "bathroom": (
        ("卫生间", "卫生间", "卫生间"),
        ("主卫", "主卫", "主卫"),
        ("客卫", "客卫", "客卫"),
        ("二楼卫生间", "二楼卫生间", "二楼卫生间"),
    ),
    "bedroom": (("次卧", "次卧", "次卧"), ("北卧", "北卧", "北卧"), ("南卧", "南卧", "南卧")),
    "balcony": (
        ("阳台", "阳台", "阳台"),
        ("主卧阳台", "主卧阳台", "主卧阳台"),
        ("生活阳台", "生活阳台", "生活阳台"),
    ),
    "foyer": (("玄关", "玄关", "玄关"),),
    "dining_room": (("餐厅", "餐厅", "餐厅"),),
    "staircase": (("楼梯", "楼梯", "楼梯"), ("二楼楼梯", "二楼楼梯", "二楼楼梯")),
    "study": (("书房", "书房", "书房"),),
    "kids_room": (("儿童房", "儿童房", "儿童房"), ("女儿房", "女儿房", "女儿房")),
    "guest_room": (("客房", "客房", "客房"),),
    "storage": (("储物间", "储物间", "储物间"),),
    "cloakroom": (("衣帽间", "衣帽间", "衣帽间"), ("主卧衣帽间", "主卧衣帽间", "主卧衣帽间")),
    "laundry": (("洗衣房", "洗衣房", "洗衣房"),),
    "entertainment_room": (("影音室", "影音室", "影音室"),),
    "hallway": (("走廊", "走廊", "走廊"), ("二楼走廊", "二楼走廊", "二楼走廊")),
    "garage": (("车库", "车库", "车库"),),
    "parents_room": (("老人房", "老人房", "老人房"),),
    "gym": (("健身房", "健身房", "健身房"),),
    "utility_room": (("设备间", "设备间", "设备间"),),
    "office": (("办公室", "办公室", "办公室"),),
    "*": (("房间", "房间", "房间"),),
}
"""Per room type: the names a home's rooms of that type take in turn, numbered past the list
(``卫生间 5``)."""
KINDS: dict[str, tuple[str, str]] = {
    "Air Conditioner": ("空调", ""),
    "Air Purifier": ("空气净化器", ""),
    "Dehumidifier": ("除湿机", ""),
    "Dimmable Light": ("调光灯", ""),
    "Dishwasher": ("洗碗机", ""),
    "Dryer": ("烘干机", ""),
    "Electrical Sensor": ("电量计", ""),
    "Fan": ("风扇", ""),
    "Freezer": ("冰柜", ""),
    "Heat Pump": ("热泵", ""),
    "Humidifier": ("加湿器", ""),
    "On/Off Light": ("灯", ""),
    "Refrigerator": ("冰箱", ""),
    "Robot Vacuum": ("扫地机器人", ""),
    "TV": ("电视", ""),
    "Washer": ("洗衣机", ""),
    "Window Covering": ("卷帘", ""),
    "Air Cube": ("移动空调扇", ""),
    "Ambient Light": ("氛围灯", ""),
    "Blind": ("百叶帘", ""),
    "Ceiling Light": ("吸顶灯", ""),
    "Central AC": ("中央空调", ""),
    "Color Light": ("彩光灯", ""),
    "Cove Light Strip": ("吊顶灯带", ""),
    "Curtain": ("窗帘", ""),
    "Door Lock": ("门锁", ""),
    "Downlight": ("筒灯", ""),
    "Fan Light": ("风扇灯", ""),
    "Floor AC": ("立式空调", ""),
    "Floor Lamp": ("落地灯", ""),
    "Light Strip": ("灯带", ""),
    "Motion Sensor": ("人体传感器", ""),
    "Robot Cleaner": ("洗地机器人", ""),
    "Sheer Curtain": ("纱帘", ""),
    "Smart Screen": ("智慧屏", ""),
    "Speaker": ("音箱", ""),
    "Spotlight": ("射灯", ""),
    "Steam Oven": ("蒸烤箱", ""),
    "Temperature-Humidity Sensor": ("温湿度计", ""),
    "Vacuum": ("吸尘器", ""),
    "Wall Lamp": ("壁灯", ""),
    "Washer-Dryer": ("洗烘一体机", ""),
    "Water Heater": ("热水器", ""),
}
"""Per kind of device (the English name's part after the room): the Chinese noun (no gender)."""
NAMED = {"Front Door Lock": ("入户门锁", "")}
"""Devices whose whole English name has a Chinese name of its own."""
DEVICE_NAME = "{room}{kind}"
NUMBERED_NAME = "{kind}{n}"


def the(name: str) -> str:
    """A device's name as a request's object: Chinese has no article."""
    return name
