"""French wording of the ``sage`` suite, written for speakers in France (tu, as people talk to a
voice assistant at home), with the lists of :mod:`.en` and as many phrasings in each.

People in France say "la télé" and "le frigo"; devices are named by where they are (``la télé
sur le buffet``, ``à côté de la plante``, ``la lampe de chevet``), with the elisions of the
language (``l'autre télé``, ``l'écran``). Numbers are written the French way: ``40 %`` with a
space, ``-18,4 °C`` with a decimal comma, and a space before ``?``, ``!``, ``:`` and ``;``. The
stored preferences speak of "l'utilisateur", as an assistant's notes do.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- homes
ROOMS = {
    "living_room": "Salon",
    "bedroom": "Chambre",
    "dining_room": "Salle à manger",
    "kitchen": "Cuisine",
    "hallway": "Couloir",
}
NAMES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("Télé Samsung", "Télé 1", "Télé du salon"),
    "tv_plant": ("Télé LG", "Télé 2", "Deuxième télé"),
    "living_light": ("Lumière du salon", "Plafonnier", "Lumière principale"),
    "fireplace_light": ("Lumière de la cheminée", "Lampe du manteau", "Lampe de la cheminée"),
    "living_blind": ("Store du salon", "Store de la fenêtre", "Stores"),
    "bed_lamp": ("Lampadaire", "Lampe de lecture", "Lampe"),
    "bedroom_ceiling": ("Lumière de la chambre", "Plafonnier", "Lumière principale"),
    "bedroom_curtain": ("Rideaux de la chambre", "Rideaux", "Voilages"),
    "dining_pendant": ("Lumière de la salle à manger", "Suspension", "Lustre"),
    "dining_wall": ("Appliques", "Appliques murales", "Applique de la salle à manger"),
    "dining_blind": ("Store de la salle à manger", "Store", "Store de la terrasse"),
    "kitchen_light": (
        "Lumière de la cuisine",
        "Plafonnier de la cuisine",
        "Éclairage du plan de travail",
    ),
    "dishwasher": ("Lave-vaisselle", "Lave-vaisselle Bosch", "Lave-vaisselle"),
    "fridge": ("Frigo", "Réfrigérateur", "Frigo de la cuisine"),
    "freezer": ("Congélateur", "Congélateur coffre", "Congélateur armoire"),
    "hall_light": ("Lumière du couloir", "Lumière de l'entrée", "Éclairage de l'entrée"),
}
PLACES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": (
        "télé sur le buffet",
        "télé posée sur le buffet en bois",
        "télé sur le buffet contre le mur",
    ),
    "tv_plant": (
        "télé à côté de la grande plante",
        "télé à côté de la grande plante en pot",
        "télé à côté du grand ficus",
    ),
    "living_light": ("plafonnier au milieu du salon",) * 3,
    "fireplace_light": (
        "lumière au-dessus de la cheminée",
        "lampe sur le manteau de la cheminée",
        "lumière au-dessus de l'âtre",
    ),
    "living_blind": ("store de la grande fenêtre du salon",) * 3,
    "bed_lamp": (
        "lampadaire sur la table de chevet à côté du lit",
        "lampe sur la table de chevet près du lit",
        "lampe de lecture sur la table de nuit",
    ),
    "bedroom_ceiling": ("plafonnier au milieu de la chambre",) * 3,
    "bedroom_curtain": ("rideaux de la fenêtre de la chambre",) * 3,
    "dining_pendant": ("suspension au-dessus de la table à manger",) * 3,
    "dining_wall": ("appliques murales de la salle à manger",) * 3,
    "dining_blind": ("store de la fenêtre de la salle à manger",) * 3,
    "kitchen_light": ("lumière au-dessus du plan de travail de la cuisine",) * 3,
    "dishwasher": ("lave-vaisselle sous le plan de travail",) * 3,
    "fridge": ("frigo de la cuisine",) * 3,
    "freezer": ("congélateur dans le coin de la cuisine",) * 3,
    "hall_light": ("lumière du couloir près de la porte d'entrée",) * 3,
}
DESCRIPTION = "{place}. {description}"
CHANNELS = {5: "Infos", 7: "Sport", 9: "Cinéma", 11: "Jeunesse", 13: "Musique"}


def number(value: float) -> str:
    """A decimal number as written in France (``-18,4``)."""
    return f"{value:g}".replace(".", ",")


# ----------------------------------------------------------------------------- replies
DONE = "C'est fait."
RULE_DONE = "C'est fait, je l'ai configuré."

# ----------------------------------------------------------------------------- device resolution
BED_LIGHT = (
    "Allume la lumière près du lit.",
    "Allume la lampe à côté de mon lit, s'il te plaît.",
    "Tu peux allumer la lumière sur la table de chevet ?",
)
CREDENZA_ON = (
    "La télé sur le buffet est allumée ?",
    "Est-ce que la télé posée sur le buffet est allumée en ce moment ?",
    "Petite question : la télé du buffet est allumée ?",
)
CREDENZA_IS_ON = "Oui, la télé du buffet est allumée."
CREDENZA_IS_OFF = "Non, la télé du buffet est éteinte."
FREEZER_TEMP = (
    "Quelle est la température du congélateur ?",
    "Il fait combien dans le congélateur en ce moment ?",
    "Dis-moi la température du congélateur.",
)
FREEZER_IS = "Le congélateur est à {celsius} °C."
PLANT_CHANNEL = (
    "Quelle chaîne passe sur la télé à côté de la plante ?",
    "La télé près de la plante, elle est sur quelle chaîne ?",
    "Qu'est-ce qui passe sur la télé à côté de la grande plante ? C'est quelle chaîne ?",
)
PLANT_CHANNEL_IS = "La télé à côté de la plante est sur la chaîne {number}, {name}."
FIREPLACE_DIM = (
    "Baisse la lumière au-dessus de la cheminée à {level} %.",
    "Mets la lampe de la cheminée à {level} pour cent de luminosité.",
    "Règle la lampe sur le manteau de la cheminée à {level} %.",
)
PLANT_TV_OFF = (
    "Éteins la télé à côté de la plante.",
    "Éteins la télévision près de la grande plante.",
    "Personne ne regarde la télé près de la plante, éteins-la.",
)

# ----------------------------------------------------------------------------- intent resolution
DINING_BRIGHT = (
    "Il y a trop de lumière dans la salle à manger.",
    "La salle à manger est bien trop éclairée, j'ai mal aux yeux.",
    "Pff, ça éblouit dans la salle à manger, là.",
)
DINING_DIMMED = "J'ai baissé les lumières de la salle à manger à 40 %."
GREASY_HEAVY = (
    "La vaisselle est vraiment grasse, choisis un programme adapté du lave-vaisselle.",
    "Les plats du rôti sont pleins de graisse cuite ; mets le lave-vaisselle sur le bon programme.",
)
GREASY_LIGHT = (
    "Il n'y a que quelques verres à peine utilisés, choisis un programme du lave-vaisselle qui "
    "convient.",
    "Le lave-vaisselle est presque vide et les tasses sont à peine sales, choisis un programme "
    "adapté.",
)
PICKED_HEAVY = "J'ai choisi le programme intensif."
PICKED_LIGHT = "J'ai choisi le programme délicat."
PHONE_CALL = (
    "Je reçois un appel, fais quelque chose pour la télé.",
    "Mon téléphone sonne, occupe-toi de la télé !",
    "J'ai un appel, tu peux gérer la télé ?",
)
PAUSED = "J'ai mis la télé en pause."
TOO_DARK = (
    "Il fait trop sombre ici pour lire.",
    "J'arrive à peine à voir mon livre ici.",
    "Il fait beaucoup trop sombre, j'essaie de lire.",
)
BED_LAMP_ON = "J'ai allumé la lampe près du lit."
GLARE = (
    "Le soleil tape sur l'écran de la télé.",
    "Je ne vois rien sur la télé, il y a du soleil partout sur l'écran.",
    "Il y a trop de reflets sur la télé.",
)
BLINDS_LOWERED = "J'ai baissé le store du salon."

# ----------------------------------------------------------------------------- personalization
COZY_MEMORY = (
    "Pour une chambre douillette, l'utilisateur aime les lumières de la chambre en blanc chaud "
    "({kelvin} K) à {level} %.",
    "L'utilisateur préfère le store du salon ouvert pendant la journée.",
    "La chaîne préférée de l'utilisateur est Sport.",
)
COZY = (
    "Rends la chambre douillette.",
    "Mets une ambiance douillette dans la chambre pour la soirée.",
    "Ambiance cocon dans la chambre, s'il te plaît.",
)
USERS = ("Léa", "Thomas", "Camille", "Julien")
CHANNEL_MEMORY = (
    "La chaîne préférée de {user} est {name} (chaîne {number}).",
    "Les deux aiment la lumière du salon à 60 % le soir.",
)
CHANNEL_REQUEST = (
    "C'est {user}. Mets ma chaîne préférée sur la télé du buffet.",
    "Salut, c'est {user} : mets la télé du buffet sur ma chaîne préférée.",
    "Ici {user}. Je veux ma chaîne préférée sur la télé posée sur le buffet.",
)
FRIDGE_MEMORY = (
    "L'utilisateur règle le frigo à {usual} °C.",
    "L'utilisateur règle le congélateur à -18 °C.",
)
FRIDGE = (
    "Règle le frigo à ma température habituelle.",
    "Remets le frigo comme je l'aime.",
    "Le frigo est mal réglé, remets-le comme je l'ai toujours.",
)
CURTAIN_MEMORY = (
    "Le matin, l'utilisateur aime les rideaux de la chambre ouverts à {level} %.",
    "L'utilisateur aime le store de la salle à manger complètement fermé la nuit.",
)
CURTAINS = (
    "Bonjour ! Ouvre les rideaux comme j'aime.",
    "Salut. Les rideaux, comme d'habitude s'il te plaît.",
    "Je suis levé, règle les rideaux de la chambre comme je les aime le matin.",
)
MOVIE_MEMORY = (
    "Pour la soirée film, l'utilisateur veut le plafonnier du salon éteint, le store du salon "
    "fermé et la télé à côté de la plante sur la chaîne {number} ({name}).",
    "L'utilisateur aime la lumière de la cheminée allumée à 20 % quand il lit.",
)
MOVIE = (
    "Soirée film !",
    "Prépare tout pour la soirée film.",
    "C'est soirée film, prépare le salon.",
)

# ----------------------------------------------------------------------------- persistence
TV_OFF_BED_LIGHT = (
    "Quand la télé s'éteint, allume la lumière près du lit.",
    "Chaque fois que la télé s'éteint, allume la lampe à côté du lit.",
    "Dès que la télé est éteinte, allume la lampe de chevet.",
)
LAMP_CURTAINS = (
    "Chaque fois que la lampe près du lit s'allume, ferme les rideaux de la chambre.",
    "Dorénavant, quand la lampe de chevet s'allume, tire les rideaux de la chambre.",
    "Fais en sorte que les rideaux de la chambre se ferment quand j'allume la lampe de chevet.",
)
FREEZER_WARM = (
    "Si le congélateur dépasse {limit} °C, passe-le en congélation rapide.",
    "Chaque fois que la température du congélateur monte au-dessus de {limit} degrés, mets-le en "
    "congélation rapide.",
)
AFTER_DISHWASHER = "Je le ferai quand le lave-vaisselle aura fini."
DISHWASHER_NIGHTSTAND = (
    "Allume la lampe de chevet quand le lave-vaisselle a fini.",
    "Dès que le lave-vaisselle se termine, allume la lampe près du lit.",
    "Quand la vaisselle est finie, allume la lampe de chevet.",
)
DISHWASHER_DINING = (
    "Quand le lave-vaisselle a terminé, éteins les lumières de la salle à manger.",
    "Éteins les lumières de la salle à manger une fois que le lave-vaisselle a fini.",
)
PLANT_TV_LATER = (
    "Éteins la télé près de la plante dans {minutes} minutes.",
    "Dans {minutes} minutes, éteins la télévision à côté de la grande plante.",
    "Laisse-la encore {minutes} minutes, puis éteins la télé de la plante.",
)
PLANT_TV_GOES_OFF = "La télé près de la plante s'éteindra dans {minutes} minutes."

# ----------------------------------------------------------------------------- command chaining
TVS_FIREPLACE = (
    "Éteins toutes les télés et allume la lumière de la cheminée.",
    "Coupe les deux télés et allume la lumière au-dessus de la cheminée.",
    "Éteins chaque télé, puis allume la lampe de la cheminée.",
)
DARKEN = (
    "Plonge toute la maison dans le noir.",
    "Fais le noir dans toute la maison.",
    "Mets la maison dans l'obscurité, s'il te plaît.",
)
DIM_OFF = (
    "Éteins toutes les lumières qui sont tamisées.",
    "Éteins chaque lumière qui n'éclaire que faiblement.",
    "Les lumières baissées en ce moment, éteins-les.",
)
OFF_TO_WORK = (
    "Je pars au travail, éteins tout ce qui n'est pas indispensable.",
    "Je m'en vais au boulot. Éteins tout ce qui n'a pas besoin de rester allumé.",
    "Je file au bureau, coupe tout ce qui n'est pas essentiel.",
)
OFF_TO_WORK_DONE = (
    "Tout ce qui n'est pas indispensable est éteint ; le frigo et le congélateur continuent de "
    "tourner."
)
MOVE_CHANNEL = (
    "Mets cette chaîne sur l'autre télé et éteins celle-ci.",
    "Passe ce qu'il y a sur cette télé sur l'autre, puis éteins celle-ci.",
    "Envoie cette chaîne sur l'autre télé et éteins celle-ci.",
)
MOVED = (
    "J'ai mis la chaîne {number} sur l'autre télé et éteint celle du buffet.",
    "J'ai mis la chaîne {number} sur l'autre télé et éteint celle près de la plante.",
)
COVERS_LAMP = (
    "Ferme tous les stores et les rideaux et allume la lampe près du lit.",
    "Ferme tous les stores et rideaux de la maison, puis allume la lampe de chevet.",
)
