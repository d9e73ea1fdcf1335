"""English wording of the ``sage`` suite: the shipped suite's (``tasks/sage.jsonl`` and its homes
are generated from it, byte for byte). Every other language's module has these names and as many
phrasings in each list."""

from __future__ import annotations

# ----------------------------------------------------------------------------- homes
ROOMS = {
    "living_room": "Living Room",
    "bedroom": "Bedroom",
    "dining_room": "Dining Room",
    "kitchen": "Kitchen",
    "hallway": "Hallway",
}
"""Room id -> the room's name."""

NAMES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("Samsung TV", "TV 1", "Living Room TV"),
    "tv_plant": ("LG TV", "TV 2", "Frame TV"),
    "living_light": ("Living Room Light", "Ceiling Light", "Main Light"),
    "fireplace_light": ("Fireplace Light", "Mantel Light", "Hearth Lamp"),
    "living_blind": ("Living Room Blinds", "Window Blind", "Blinds"),
    "bed_lamp": ("Floor Lamp", "Reading Lamp", "Lamp"),
    "bedroom_ceiling": ("Bedroom Light", "Ceiling Light", "Main Light"),
    "bedroom_curtain": ("Bedroom Curtains", "Curtains", "Drapes"),
    "dining_pendant": ("Dining Light", "Pendant Light", "Chandelier"),
    "dining_wall": ("Wall Lights", "Sconces", "Dining Wall Light"),
    "dining_blind": ("Dining Room Blinds", "Blind", "Patio Blinds"),
    "kitchen_light": ("Kitchen Light", "Kitchen Ceiling Light", "Counter Light"),
    "dishwasher": ("Dishwasher", "Bosch Dishwasher", "Dishwasher"),
    "fridge": ("Fridge", "Refrigerator", "Kitchen Fridge"),
    "freezer": ("Freezer", "Chest Freezer", "Deep Freezer"),
    "hall_light": ("Hallway Light", "Hall Light", "Entry Light"),
}
"""Device role -> its name in home 0, 1 and 2."""

PLACES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": (
        "TV on the credenza",
        "TV standing on the wooden credenza",
        "TV on the credenza by the wall",
    ),
    "tv_plant": (
        "TV next to the big plant",
        "TV beside the large potted plant",
        "TV next to the big fig plant",
    ),
    "living_light": ("ceiling light in the middle of the living room",) * 3,
    "fireplace_light": (
        "light above the fireplace",
        "lamp on the mantelpiece over the fireplace",
        "light over the fireplace",
    ),
    "living_blind": ("blinds on the big living room window",) * 3,
    "bed_lamp": (
        "floor lamp on the nightstand next to the bed",
        "lamp on the nightstand beside the bed",
        "reading lamp on the bedside table",
    ),
    "bedroom_ceiling": ("ceiling light in the middle of the bedroom",) * 3,
    "bedroom_curtain": ("curtains on the bedroom window",) * 3,
    "dining_pendant": ("pendant light above the dining table",) * 3,
    "dining_wall": ("wall sconces in the dining room",) * 3,
    "dining_blind": ("blinds on the dining room window",) * 3,
    "kitchen_light": ("light over the kitchen counter",) * 3,
    "dishwasher": ("dishwasher under the kitchen counter",) * 3,
    "fridge": ("fridge in the kitchen",) * 3,
    "freezer": ("freezer in the kitchen corner",) * 3,
    "hall_light": ("light in the hallway by the front door",) * 3,
}
"""Device role -> where it is, in home 0, 1 and 2 (the first sentence of its description)."""

DESCRIPTION = "{place}. {description}"
"""A device's description: its place (first letter capitalised), then the catalog's notes."""

CHANNELS = {5: "News", 7: "Sports", 9: "Movies", 11: "Kids", 13: "Music"}
"""Channel number -> the channel's name in the TVs' channel list."""


def number(value: float) -> str:
    """A decimal number as written in English (``-18.4``)."""
    return f"{value:g}"


# ----------------------------------------------------------------------------- replies
DONE = "Done."
RULE_DONE = "Done, I set that up."

# ----------------------------------------------------------------------------- device resolution
BED_LIGHT = (
    "Turn on the light by the bed.",
    "Switch on the lamp next to my bed, please.",
    "Can you put the light on the nightstand on?",
)
CREDENZA_ON = (
    "Is the TV by the credenza on?",
    "Is the television on the credenza switched on right now?",
    "Quick question: is the credenza TV on?",
)
CREDENZA_IS_ON = "Yes, the credenza TV is on."
CREDENZA_IS_OFF = "No, the credenza TV is off."
FREEZER_TEMP = (
    "What is the freezer's temperature?",
    "How cold is it in the freezer right now?",
    "Tell me the freezer temperature.",
)
FREEZER_IS = "The freezer is at {celsius} °C."
PLANT_CHANNEL = (
    "What channel is on the TV by the plant?",
    "Which channel is the TV next to the plant showing?",
    "What's playing on the telly beside the big plant? Which channel?",
)
PLANT_CHANNEL_IS = "The TV next to the plant is on channel {number}, {name}."
FIREPLACE_DIM = (
    "Dim the light over the fireplace to {level}%.",
    "Set the fireplace lamp to {level} percent brightness.",
    "Put the mantel light above the fireplace at {level}%.",
)
PLANT_TV_OFF = (
    "Turn off the TV next to the plant.",
    "Switch off the television by the big plant.",
    "Nobody's watching the plant TV, turn it off.",
)

# ----------------------------------------------------------------------------- intent resolution
DINING_BRIGHT = (
    "It is too bright in the dining room.",
    "The dining room is way too bright, my eyes hurt.",
    "Ugh, the dining room is blinding right now.",
)
DINING_DIMMED = "I dimmed the dining room lights to 40%."
GREASY_HEAVY = (
    "The dishes are really greasy, pick a suitable dishwasher mode.",
    "The pans from the roast are caked in grease; set the dishwasher to the right programme.",
)
GREASY_LIGHT = (
    "It's only a few lightly used glasses, choose a fitting dishwasher programme.",
    "The dishwasher is barely full and the cups are hardly dirty, pick a suitable mode.",
)
PICKED_HEAVY = "I picked the Heavy programme."
PICKED_LIGHT = "I picked the Light programme."
PHONE_CALL = (
    "I'm getting a call, do something about the TV.",
    "My phone is ringing, deal with the telly!",
    "Incoming call, can you handle the TV?",
)
PAUSED = "I paused the TV."
TOO_DARK = (
    "It's too dark in here to read.",
    "I can barely see my book in here.",
    "Way too dark in here, I'm trying to read.",
)
BED_LAMP_ON = "I turned on the lamp by the bed."
GLARE = (
    "The sun is glaring on the TV screen.",
    "I can't see the TV, there's sun all over the screen.",
    "There's so much glare on the telly.",
)
BLINDS_LOWERED = "I lowered the living room blinds."

# ----------------------------------------------------------------------------- personalization
COZY_MEMORY = (
    "For a cozy bedroom the user likes the bedroom lights warm white ({kelvin} K) at {level}%.",
    "The user prefers the living room blinds open during the day.",
    "The user's favourite channel is Sports.",
)
COZY = (
    "Make the bedroom cozy.",
    "Let's get the bedroom cozy for the evening.",
    "Cozy mode in the bedroom, please.",
)
USERS = ("Alex", "Sam", "Maria", "Jonas")
CHANNEL_MEMORY = (
    "{user}'s favourite channel is {name} (channel {number}).",
    "Both users like the living room light at 60% in the evening.",
)
CHANNEL_REQUEST = (
    "This is {user}. Put my favourite channel on the TV by the credenza.",
    "Hi, {user} here: switch the credenza TV to my favourite channel.",
    "It's {user}. I want my favourite channel on the TV on the credenza.",
)
FRIDGE_MEMORY = (
    "The user keeps the fridge at {usual} °C.",
    "The user keeps the freezer at -18 °C.",
)
FRIDGE = (
    "Set the fridge to my usual temperature.",
    "Put the fridge back where I like it.",
    "The fridge setting is off, set it the way I always have it.",
)
CURTAIN_MEMORY = (
    "In the morning the user likes the bedroom curtains {level}% open.",
    "The user likes the dining room blinds fully closed at night.",
)
CURTAINS = (
    "Good morning! Open the curtains the way I like.",
    "Morning. Curtains, my usual way please.",
    "I'm up, set the bedroom curtains like I prefer in the morning.",
)
MOVIE_MEMORY = (
    "For movie night the user wants the living room ceiling light off, the living room blinds "
    "closed and the TV next to the plant on channel {number} ({name}).",
    "The user likes the fireplace light on at 20% when reading.",
)
MOVIE = (
    "Movie night!",
    "Set things up for movie night.",
    "It's movie night, get the living room ready.",
)

# ----------------------------------------------------------------------------- persistence
TV_OFF_BED_LIGHT = (
    "When the TV turns off, turn on the light by the bed.",
    "Whenever the telly goes off, switch on the lamp next to the bed.",
    "Once the TV is switched off, put the nightstand light on.",
)
LAMP_CURTAINS = (
    "Whenever the lamp by the bed turns on, close the bedroom curtains.",
    "From now on, when the nightstand lamp comes on, draw the curtains in the bedroom.",
    "Set it up so the bedroom curtains close when I switch on the bedside lamp.",
)
FREEZER_WARM = (
    "If the freezer gets warmer than {limit} °C, switch it to rapid freeze.",
    "Whenever the freezer temperature goes above {limit} degrees, put it on rapid freeze.",
)
AFTER_DISHWASHER = "I'll do that when the dishwasher is done."
DISHWASHER_NIGHTSTAND = (
    "Turn on the nightstand light when the dishwasher is done.",
    "Once the dishwasher finishes, switch on the lamp by the bed.",
    "When the dishes are done, put the bedside lamp on.",
)
DISHWASHER_DINING = (
    "When the dishwasher is finished, turn off the dining room lights.",
    "Switch the dining room lights off once the dishwasher has finished.",
)
PLANT_TV_LATER = (
    "Turn off the TV by the plant in {minutes} minutes.",
    "In {minutes} minutes, switch off the television next to the big plant.",
    "Give it {minutes} minutes and then turn the plant TV off.",
)
PLANT_TV_GOES_OFF = "The TV by the plant goes off in {minutes} minutes."

# ----------------------------------------------------------------------------- command chaining
TVS_FIREPLACE = (
    "Turn off all the TVs and switch on the fireplace light.",
    "Kill both TVs and put the light over the fireplace on.",
    "Switch every TV off, then turn on the fireplace lamp.",
)
DARKEN = ("Darken the entire house.", "Make the whole house dark.", "Black out the house, please.")
DIM_OFF = (
    "Turn off all the lights that are dim.",
    "Switch off every light that's only dimly lit.",
    "Any light that's dimmed right now, turn it off.",
)
OFF_TO_WORK = (
    "Heading off to work, turn off everything non-essential.",
    "I'm leaving for work. Switch off whatever doesn't need to stay on.",
    "Off to the office now, power down everything that isn't essential.",
)
OFF_TO_WORK_DONE = "Everything non-essential is off; the fridge and freezer keep running."
MOVE_CHANNEL = (
    "Move this channel to the other TV and turn this one off.",
    "Put what's on this TV on the other one, then switch this one off.",
    "Send this channel over to the other telly and turn this one off.",
)
MOVED = (
    "Moved channel {number} to the other TV and turned the one by the credenza off.",
    "Moved channel {number} to the other TV and turned the one next to the plant off.",
)
"""The reply when the channel moved away from the TV on the credenza, and from the one by the
plant."""
COVERS_LAMP = (
    "Close all the blinds and curtains and turn on the lamp by the bed.",
    "Shut every blind and curtain in the house, then switch on the nightstand lamp.",
)
