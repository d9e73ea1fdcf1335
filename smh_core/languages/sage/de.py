"""German wording of the ``sage`` suite, written for German speakers: du-Form, as people talk to
a voice assistant at home, with the lists of :mod:`.en` and as many phrasings in each.

Devices are named by where they are, with the preposition's case (``auf der Anrichte``,
``neben der Pflanze``, ``am Bett``); German speakers say "Fernseher" or "Glotze", never "TV"
for the set itself. Numbers are written the German way: ``40 %`` with a space, ``-18,4 °C``
with a decimal comma. The stored preferences speak of "der Nutzer", as an assistant's notes do.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- homes
ROOMS = {
    "living_room": "Wohnzimmer",
    "bedroom": "Schlafzimmer",
    "dining_room": "Esszimmer",
    "kitchen": "Küche",
    "hallway": "Flur",
}
NAMES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("Samsung-Fernseher", "Fernseher 1", "Fernseher Wohnzimmer"),
    "tv_plant": ("LG-Fernseher", "Fernseher 2", "Zweitfernseher"),
    "living_light": ("Wohnzimmerlicht", "Deckenlampe", "Hauptlicht"),
    "fireplace_light": ("Kaminlicht", "Kaminsimslampe", "Kaminlampe"),
    "living_blind": ("Jalousie Wohnzimmer", "Fensterjalousie", "Jalousie"),
    "bed_lamp": ("Stehlampe", "Leselampe", "Lampe"),
    "bedroom_ceiling": ("Schlafzimmerlicht", "Deckenlampe", "Hauptlicht"),
    "bedroom_curtain": ("Vorhänge Schlafzimmer", "Vorhänge", "Gardinen"),
    "dining_pendant": ("Esszimmerlicht", "Pendelleuchte", "Kronleuchter"),
    "dining_wall": ("Wandleuchten", "Wandlampen", "Wandlicht Esszimmer"),
    "dining_blind": ("Jalousie Esszimmer", "Jalousie", "Terrassenjalousie"),
    "kitchen_light": ("Küchenlicht", "Küchendeckenlampe", "Arbeitsplattenlicht"),
    "dishwasher": ("Spülmaschine", "Bosch-Spülmaschine", "Spülmaschine"),
    "fridge": ("Kühlschrank", "Kühlgerät", "Küchenkühlschrank"),
    "freezer": ("Gefrierschrank", "Gefriertruhe", "Tiefkühler"),
    "hall_light": ("Flurlicht", "Dielenlicht", "Eingangslicht"),
}
PLACES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": (
        "Fernseher auf der Anrichte",
        "Fernseher auf der hölzernen Anrichte",
        "Fernseher auf der Anrichte an der Wand",
    ),
    "tv_plant": (
        "Fernseher neben der großen Pflanze",
        "Fernseher neben der großen Topfpflanze",
        "Fernseher neben dem großen Ficus",
    ),
    "living_light": ("Deckenlampe mitten im Wohnzimmer",) * 3,
    "fireplace_light": (
        "Licht über dem Kamin",
        "Lampe auf dem Kaminsims über dem Kamin",
        "Licht oberhalb des Kamins",
    ),
    "living_blind": ("Jalousie am großen Wohnzimmerfenster",) * 3,
    "bed_lamp": (
        "Stehlampe auf dem Nachttisch neben dem Bett",
        "Lampe auf dem Nachttisch neben dem Bett",
        "Leselampe auf dem Nachttisch",
    ),
    "bedroom_ceiling": ("Deckenlampe mitten im Schlafzimmer",) * 3,
    "bedroom_curtain": ("Vorhänge am Schlafzimmerfenster",) * 3,
    "dining_pendant": ("Pendelleuchte über dem Esstisch",) * 3,
    "dining_wall": ("Wandleuchten im Esszimmer",) * 3,
    "dining_blind": ("Jalousie am Esszimmerfenster",) * 3,
    "kitchen_light": ("Licht über der Arbeitsplatte in der Küche",) * 3,
    "dishwasher": ("Spülmaschine unter der Arbeitsplatte",) * 3,
    "fridge": ("Kühlschrank in der Küche",) * 3,
    "freezer": ("Gefrierschrank in der Küchenecke",) * 3,
    "hall_light": ("Licht im Flur an der Haustür",) * 3,
}
DESCRIPTION = "{place}. {description}"
CHANNELS = {5: "Nachrichten", 7: "Sport", 9: "Filme", 11: "Kinder", 13: "Musik"}


def number(value: float) -> str:
    """A decimal number as written in German (``-18,4``)."""
    return f"{value:g}".replace(".", ",")


# ----------------------------------------------------------------------------- replies
DONE = "Erledigt."
RULE_DONE = "Erledigt, ich habe das eingerichtet."

# ----------------------------------------------------------------------------- device resolution
BED_LIGHT = (
    "Mach das Licht am Bett an.",
    "Schalt bitte die Lampe neben meinem Bett ein.",
    "Kannst du das Licht auf dem Nachttisch anmachen?",
)
CREDENZA_ON = (
    "Ist der Fernseher auf der Anrichte an?",
    "Läuft der Fernseher auf der Anrichte gerade?",
    "Kurze Frage: Ist der Fernseher auf der Anrichte eingeschaltet?",
)
CREDENZA_IS_ON = "Ja, der Fernseher auf der Anrichte ist an."
CREDENZA_IS_OFF = "Nein, der Fernseher auf der Anrichte ist aus."
FREEZER_TEMP = (
    "Welche Temperatur hat der Gefrierschrank?",
    "Wie kalt ist es gerade im Gefrierschrank?",
    "Sag mir mal die Temperatur im Gefrierschrank.",
)
FREEZER_IS = "Im Gefrierschrank sind es {celsius} °C."
PLANT_CHANNEL = (
    "Welcher Sender läuft auf dem Fernseher neben der Pflanze?",
    "Was für ein Sender ist auf dem Fernseher neben der Pflanze?",
    "Was läuft da auf dem Fernseher bei der großen Pflanze? Welcher Sender?",
)
PLANT_CHANNEL_IS = "Der Fernseher neben der Pflanze ist auf Kanal {number}, {name}."
FIREPLACE_DIM = (
    "Dimm das Licht über dem Kamin auf {level} %.",
    "Stell die Kaminlampe auf {level} Prozent Helligkeit.",
    "Stell das Licht auf dem Kaminsims auf {level} %.",
)
PLANT_TV_OFF = (
    "Schalt den Fernseher neben der Pflanze aus.",
    "Mach den Fernseher bei der großen Pflanze aus.",
    "Beim Fernseher neben der Pflanze schaut keiner zu, mach ihn aus.",
)

# ----------------------------------------------------------------------------- intent resolution
DINING_BRIGHT = (
    "Im Esszimmer ist es zu hell.",
    "Das Esszimmer ist viel zu hell, mir tun die Augen weh.",
    "Boah, im Esszimmer blendet es gerade total.",
)
DINING_DIMMED = "Ich habe das Licht im Esszimmer auf 40 % gedimmt."
GREASY_HEAVY = (
    "Das Geschirr ist richtig fettig, such ein passendes Spülprogramm aus.",
    "Die Bräter vom Sonntagsbraten sind total verkrustet; stell die Spülmaschine aufs richtige "
    "Programm.",
)
GREASY_LIGHT = (
    "Sind nur ein paar kaum benutzte Gläser, wähl ein passendes Spülprogramm.",
    "Die Spülmaschine ist kaum voll und die Tassen sind fast sauber, such ein passendes "
    "Programm aus.",
)
PICKED_HEAVY = "Ich habe das Intensivprogramm gewählt."
PICKED_LIGHT = "Ich habe das Schonprogramm gewählt."
PHONE_CALL = (
    "Ich kriege einen Anruf, mach was mit dem Fernseher.",
    "Mein Handy klingelt, kümmer dich um die Glotze!",
    "Da kommt ein Anruf rein, kannst du dich um den Fernseher kümmern?",
)
PAUSED = "Ich habe den Fernseher pausiert."
TOO_DARK = (
    "Hier ist es zu dunkel zum Lesen.",
    "Ich kann mein Buch hier kaum erkennen.",
    "Viel zu dunkel hier drin, ich will lesen.",
)
BED_LAMP_ON = "Ich habe die Lampe am Bett eingeschaltet."
GLARE = (
    "Die Sonne blendet auf dem Fernseher.",
    "Ich sehe nichts auf dem Fernseher, die Sonne scheint voll auf den Bildschirm.",
    "Der Fernseher spiegelt total, so knallt die Sonne drauf.",
)
BLINDS_LOWERED = "Ich habe die Jalousie im Wohnzimmer heruntergelassen."

# ----------------------------------------------------------------------------- personalization
COZY_MEMORY = (
    "Für ein gemütliches Schlafzimmer mag der Nutzer das Licht dort warmweiß ({kelvin} K) auf "
    "{level} %.",
    "Der Nutzer hat die Jalousie im Wohnzimmer tagsüber gern offen.",
    "Der Lieblingssender des Nutzers ist Sport.",
)
COZY = (
    "Mach das Schlafzimmer gemütlich.",
    "Lass uns das Schlafzimmer für den Abend gemütlich machen.",
    "Gemütlicher Modus im Schlafzimmer, bitte.",
)
USERS = ("Lena", "Jonas", "Mia", "Felix")
CHANNEL_MEMORY = (
    "Der Lieblingssender von {user} ist {name} (Kanal {number}).",
    "Beide mögen das Wohnzimmerlicht abends auf 60 %.",
)
CHANNEL_REQUEST = (
    "Hier ist {user}. Mach meinen Lieblingssender auf dem Fernseher auf der Anrichte an.",
    "Hallo, {user} hier: Stell den Fernseher auf der Anrichte auf meinen Lieblingssender.",
    "Ich bin's, {user}. Ich will meinen Lieblingssender auf dem Fernseher auf der Anrichte.",
)
FRIDGE_MEMORY = (
    "Der Nutzer stellt den Kühlschrank immer auf {usual} °C.",
    "Der Nutzer stellt den Gefrierschrank immer auf -18 °C.",
)
FRIDGE = (
    "Stell den Kühlschrank auf meine übliche Temperatur.",
    "Stell den Kühlschrank wieder so ein, wie ich ihn mag.",
    "Der Kühlschrank ist verstellt, stell ihn so ein, wie ich ihn immer habe.",
)
CURTAIN_MEMORY = (
    "Morgens mag der Nutzer die Vorhänge im Schlafzimmer zu {level} % offen.",
    "Der Nutzer mag die Jalousie im Esszimmer nachts ganz geschlossen.",
)
CURTAINS = (
    "Guten Morgen! Mach die Vorhänge so auf, wie ich es mag.",
    "Morgen. Vorhänge bitte wie immer.",
    "Bin wach, stell die Vorhänge im Schlafzimmer so ein, wie ich sie morgens mag.",
)
MOVIE_MEMORY = (
    "Für den Filmabend will der Nutzer die Deckenlampe im Wohnzimmer aus, die Jalousie im "
    "Wohnzimmer zu und den Fernseher neben der Pflanze auf Kanal {number} ({name}).",
    "Beim Lesen mag der Nutzer das Kaminlicht an, auf 20 %.",
)
MOVIE = (
    "Filmabend!",
    "Mach alles für den Filmabend fertig.",
    "Heute ist Filmabend, mach das Wohnzimmer bereit.",
)

# ----------------------------------------------------------------------------- persistence
TV_OFF_BED_LIGHT = (
    "Wenn der Fernseher ausgeht, mach das Licht am Bett an.",
    "Immer wenn die Glotze ausgeht, schalt die Lampe neben dem Bett ein.",
    "Sobald der Fernseher aus ist, mach das Nachttischlicht an.",
)
LAMP_CURTAINS = (
    "Immer wenn die Lampe am Bett angeht, mach die Vorhänge im Schlafzimmer zu.",
    "Ab jetzt: Wenn die Nachttischlampe angeht, zieh die Vorhänge im Schlafzimmer zu.",
    "Richte es so ein, dass die Vorhänge im Schlafzimmer zugehen, wenn ich die Nachttischlampe "
    "einschalte.",
)
FREEZER_WARM = (
    "Wenn der Gefrierschrank wärmer als {limit} °C wird, schalt ihn auf Schnellgefrieren.",
    "Sobald die Temperatur im Gefrierschrank über {limit} Grad steigt, stell ihn auf "
    "Schnellgefrieren.",
)
AFTER_DISHWASHER = "Mach ich, sobald die Spülmaschine fertig ist."
DISHWASHER_NIGHTSTAND = (
    "Mach das Nachttischlicht an, wenn die Spülmaschine fertig ist.",
    "Sobald die Spülmaschine durch ist, schalt die Lampe am Bett ein.",
    "Wenn das Geschirr fertig ist, mach die Nachttischlampe an.",
)
DISHWASHER_DINING = (
    "Wenn die Spülmaschine fertig ist, mach das Licht im Esszimmer aus.",
    "Schalt das Licht im Esszimmer aus, sobald die Spülmaschine durchgelaufen ist.",
)
PLANT_TV_LATER = (
    "Mach den Fernseher neben der Pflanze in {minutes} Minuten aus.",
    "In {minutes} Minuten bitte den Fernseher neben der großen Pflanze ausschalten.",
    "Lass ihn noch {minutes} Minuten laufen und schalt dann den Fernseher bei der Pflanze aus.",
)
PLANT_TV_GOES_OFF = "Der Fernseher neben der Pflanze geht in {minutes} Minuten aus."

# ----------------------------------------------------------------------------- command chaining
TVS_FIREPLACE = (
    "Schalt alle Fernseher aus und mach das Kaminlicht an.",
    "Beide Fernseher aus und das Licht über dem Kamin an.",
    "Mach jeden Fernseher aus und dann die Kaminlampe an.",
)
DARKEN = ("Mach das ganze Haus dunkel.", "Verdunkle das ganze Haus.", "Bitte alles abdunkeln.")
DIM_OFF = (
    "Schalt alle Lampen aus, die gedimmt sind.",
    "Mach jedes Licht aus, das nur schwach leuchtet.",
    "Alle Lichter, die gerade gedimmt sind: aus damit.",
)
OFF_TO_WORK = (
    "Ich fahr zur Arbeit, schalt alles Unnötige aus.",
    "Ich geh jetzt zur Arbeit. Mach alles aus, was nicht anbleiben muss.",
    "Bin auf dem Weg ins Büro, schalt alles ab, was nicht wichtig ist.",
)
OFF_TO_WORK_DONE = "Alles Unnötige ist aus; Kühlschrank und Gefrierschrank laufen weiter."
MOVE_CHANNEL = (
    "Leg diesen Sender auf den anderen Fernseher und mach den hier aus.",
    "Mach das, was hier läuft, auf dem anderen Fernseher an und schalt diesen aus.",
    "Schick den Sender rüber auf die andere Glotze und mach die hier aus.",
)
MOVED = (
    "Kanal {number} läuft jetzt auf dem anderen Fernseher; den auf der Anrichte habe ich "
    "ausgeschaltet.",
    "Kanal {number} läuft jetzt auf dem anderen Fernseher; den neben der Pflanze habe ich "
    "ausgeschaltet.",
)
COVERS_LAMP = (
    "Mach alle Jalousien und Vorhänge zu und die Lampe am Bett an.",
    "Schließ alle Jalousien und Vorhänge im Haus und schalt dann die Nachttischlampe ein.",
)
