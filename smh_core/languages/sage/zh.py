"""Chinese wording of the ``sage`` suite, written for Mainland speakers in Simplified Chinese, as
people talk to a voice assistant at home, with the lists of :mod:`.en` and as many phrasings in
each.

No articles; devices are named by where they are with 的 (``边柜上的电视``, ``植物旁边的电视``,
``床头柜上的灯``) and commands use the 把-construction. Brands are written as in China (三星,
博世; LG stays LG). Numbers: ``40%``, ``-18.4℃``, ``5分钟``; full-width punctuation. The stored
preferences speak of 用户, as an assistant's notes do.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- homes
ROOMS = {
    "living_room": "客厅",
    "bedroom": "卧室",
    "dining_room": "餐厅",
    "kitchen": "厨房",
    "hallway": "走廊",
}
NAMES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("三星电视", "电视1", "客厅电视"),
    "tv_plant": ("LG电视", "电视2", "第二台电视"),
    "living_light": ("客厅灯", "吸顶灯", "主灯"),
    "fireplace_light": ("壁炉灯", "壁炉台灯", "壁炉上方灯"),
    "living_blind": ("客厅百叶窗", "窗户百叶窗", "百叶窗"),
    "bed_lamp": ("落地灯", "阅读灯", "台灯"),
    "bedroom_ceiling": ("卧室灯", "吸顶灯", "主灯"),
    "bedroom_curtain": ("卧室窗帘", "窗帘", "布帘"),
    "dining_pendant": ("餐厅灯", "吊灯", "水晶灯"),
    "dining_wall": ("壁灯", "墙壁灯", "餐厅壁灯"),
    "dining_blind": ("餐厅百叶窗", "百叶帘", "阳台百叶窗"),
    "kitchen_light": ("厨房灯", "厨房吸顶灯", "台面灯"),
    "dishwasher": ("洗碗机", "博世洗碗机", "洗碗机"),
    "fridge": ("冰箱", "电冰箱", "厨房冰箱"),
    "freezer": ("冷柜", "卧式冷柜", "立式冰柜"),
    "hall_light": ("走廊灯", "过道灯", "玄关灯"),
}
PLACES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("边柜上的电视", "木质边柜上的电视", "靠墙边柜上的电视"),
    "tv_plant": ("大盆栽旁边的电视", "大盆绿植旁边的电视", "大琴叶榕旁边的电视"),
    "living_light": ("客厅正中的吸顶灯",) * 3,
    "fireplace_light": ("壁炉上方的灯", "壁炉台上的灯", "壁炉上面的灯"),
    "living_blind": ("客厅大窗户上的百叶窗",) * 3,
    "bed_lamp": ("床边床头柜上的落地灯", "床旁床头柜上的灯", "床头柜上的阅读灯"),
    "bedroom_ceiling": ("卧室正中的吸顶灯",) * 3,
    "bedroom_curtain": ("卧室窗户上的窗帘",) * 3,
    "dining_pendant": ("餐桌上方的吊灯",) * 3,
    "dining_wall": ("餐厅墙上的壁灯",) * 3,
    "dining_blind": ("餐厅窗户上的百叶窗",) * 3,
    "kitchen_light": ("厨房台面上方的灯",) * 3,
    "dishwasher": ("厨房台面下的洗碗机",) * 3,
    "fridge": ("厨房里的冰箱",) * 3,
    "freezer": ("厨房角落的冷柜",) * 3,
    "hall_light": ("走廊里靠大门的灯",) * 3,
}
DESCRIPTION = "{place}。{description}"
CHANNELS = {5: "新闻", 7: "体育", 9: "电影", 11: "少儿", 13: "音乐"}


def number(value: float) -> str:
    """A decimal number as written in Chinese (``-18.4``)."""
    return f"{value:g}"


# ----------------------------------------------------------------------------- replies
DONE = "好了。"
RULE_DONE = "好了，已经设置好了。"

# ----------------------------------------------------------------------------- device resolution
BED_LIGHT = ("把床边的灯打开。", "帮我把床旁边的台灯打开。", "能把床头柜上的灯打开吗？")
CREDENZA_ON = (
    "边柜上的电视开着吗？",
    "边柜上那台电视现在是开着的吗？",
    "问一下，边柜上的电视开了没？",
)
CREDENZA_IS_ON = "是的，边柜上的电视开着。"
CREDENZA_IS_OFF = "没有，边柜上的电视关着。"
FREEZER_TEMP = ("冷柜现在多少度？", "冷柜里现在有多冷？", "告诉我冷柜的温度。")
FREEZER_IS = "冷柜现在是{celsius}℃。"
PLANT_CHANNEL = (
    "植物旁边的电视在放哪个台？",
    "盆栽旁边那台电视现在是哪个频道？",
    "大盆栽旁边的电视在放什么？哪个台？",
)
PLANT_CHANNEL_IS = "植物旁边的电视在{number}频道，{name}。"
FIREPLACE_DIM = (
    "把壁炉上方的灯调暗到{level}%。",
    "把壁炉灯的亮度调成{level}%。",
    "把壁炉台上的灯调到{level}%。",
)
PLANT_TV_OFF = (
    "把植物旁边的电视关掉。",
    "关掉大盆栽旁边的电视。",
    "盆栽旁边的电视没人看，关了吧。",
)

# ----------------------------------------------------------------------------- intent resolution
DINING_BRIGHT = ("餐厅里太亮了。", "餐厅亮得过分了，眼睛都疼了。", "哎，餐厅现在亮得晃眼。")
DINING_DIMMED = "我把餐厅的灯调暗到40%了。"
GREASY_HEAVY = ("碗盘特别油，选个合适的洗碗模式。", "烤肉的锅上全是油垢，把洗碗机调到合适的程序。")
GREASY_LIGHT = (
    "就几个没怎么用过的杯子，选个合适的洗碗程序。",
    "洗碗机没装满，杯子也不怎么脏，选个合适的模式。",
)
PICKED_HEAVY = "我选了强力洗程序。"
PICKED_LIGHT = "我选了轻柔洗程序。"
PHONE_CALL = (
    "我来电话了，电视那边处理一下。",
    "我手机响了，快管管电视！",
    "有电话进来，你能处理一下电视吗？",
)
PAUSED = "我把电视暂停了。"
TOO_DARK = ("这里太暗了，没法看书。", "这儿我几乎看不清书上的字。", "这里也太暗了，我正想看书呢。")
BED_LAMP_ON = "我把床边的灯打开了。"
GLARE = ("太阳照在电视屏幕上，好刺眼。", "电视看不清了，屏幕上全是阳光。", "电视反光太厉害了。")
BLINDS_LOWERED = "我把客厅的百叶窗放下来了。"

# ----------------------------------------------------------------------------- personalization
COZY_MEMORY = (
    "想要卧室温馨的时候，用户喜欢卧室灯用暖白光（{kelvin} K），亮度{level}%。",
    "用户白天喜欢把客厅百叶窗打开。",
    "用户最喜欢的频道是体育。",
)
COZY = ("把卧室弄得温馨一点。", "晚上了，把卧室布置得温馨些。", "卧室开温馨模式。")
USERS = ("小雨", "阿明", "丽丽", "志强")
CHANNEL_MEMORY = (
    "{user}最喜欢的频道是{name}（{number}频道）。",
    "两个人晚上都喜欢把客厅灯开到60%。",
)
CHANNEL_REQUEST = (
    "我是{user}。把边柜上的电视调到我最喜欢的频道。",
    "你好，我是{user}：把边柜上的电视换到我最爱的频道。",
    "我是{user}，我要在边柜上那台电视看我最喜欢的频道。",
)
FRIDGE_MEMORY = ("用户的冰箱一般设在{usual}℃。", "用户的冷柜一般设在-18℃。")
FRIDGE = (
    "把冰箱调到我平时的温度。",
    "把冰箱调回我喜欢的样子。",
    "冰箱温度不对，按我一直用的设置调回来。",
)
CURTAIN_MEMORY = ("早上用户喜欢卧室窗帘开到{level}%。", "用户晚上喜欢把餐厅百叶窗全部关上。")
CURTAINS = (
    "早上好！按我喜欢的样子拉开窗帘。",
    "早。窗帘照老样子。",
    "我起床了，把卧室窗帘调成我早上喜欢的样子。",
)
MOVIE_MEMORY = (
    "电影之夜时，用户希望客厅吸顶灯关掉、客厅百叶窗关上，植物旁边的电视调到{number}频道（{name}）。",
    "用户看书时喜欢壁炉灯开着，亮度20%。",
)
MOVIE = ("电影之夜！", "准备一下电影之夜。", "今晚是电影之夜，把客厅准备好。")

# ----------------------------------------------------------------------------- persistence
TV_OFF_BED_LIGHT = (
    "电视关了以后，把床边的灯打开。",
    "每次电视一关，就把床旁边的台灯打开。",
    "等电视关掉，就把床头柜的灯打开。",
)
LAMP_CURTAINS = (
    "每次床边的灯一开，就把卧室窗帘拉上。",
    "以后床头灯一亮，就把卧室的窗帘拉上。",
    "设置一下：我一开床头灯，卧室窗帘就自动关上。",
)
FREEZER_WARM = ("如果冷柜温度高于{limit}℃，就切换到速冻。", "只要冷柜温度超过{limit}度，就开速冻。")
AFTER_DISHWASHER = "等洗碗机洗完我就去办。"
DISHWASHER_NIGHTSTAND = (
    "洗碗机洗完以后把床头柜的灯打开。",
    "洗碗机一结束，就把床边的台灯打开。",
    "碗洗好了就把床头灯打开。",
)
DISHWASHER_DINING = ("洗碗机洗完后，把餐厅的灯关掉。", "等洗碗机洗好了，把餐厅的灯都关了。")
PLANT_TV_LATER = (
    "{minutes}分钟后把植物旁边的电视关掉。",
    "过{minutes}分钟，把大盆栽旁边的电视关了。",
    "再放{minutes}分钟，然后把盆栽那边的电视关掉。",
)
PLANT_TV_GOES_OFF = "植物旁边的电视会在{minutes}分钟后关闭。"

# ----------------------------------------------------------------------------- command chaining
TVS_FIREPLACE = (
    "把所有电视都关了，再把壁炉灯打开。",
    "两台电视都关掉，壁炉上方的灯打开。",
    "每台电视都关掉，然后开壁炉灯。",
)
DARKEN = ("把整个房子弄暗。", "让全屋都暗下来。", "全屋熄灯遮光。")
DIM_OFF = ("把所有调暗了的灯都关掉。", "只是微微亮着的灯都关了。", "现在调暗着的灯，全部关掉。")
OFF_TO_WORK = (
    "我去上班了，不需要的都关了。",
    "我要出门上班了。不用一直开着的都关掉。",
    "去公司了，把不必要的都关掉。",
)
OFF_TO_WORK_DONE = "不必要的都关了；冰箱和冷柜照常运行。"
MOVE_CHANNEL = (
    "把这个台转到另一台电视上，这台关掉。",
    "把这台电视正在放的换到另一台上，然后把这台关了。",
    "这个频道挪到另一台电视上放，这台关掉。",
)
MOVED = (
    "已把{number}频道转到另一台电视上，并关掉了边柜上的那台。",
    "已把{number}频道转到另一台电视上，并关掉了植物旁边的那台。",
)
COVERS_LAMP = (
    "把所有百叶窗和窗帘都关上，再打开床边的灯。",
    "把家里的百叶窗和窗帘全部关好，然后打开床头灯。",
)
