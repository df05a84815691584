"""Closed word lists for the entity ruler. Keys are the canonical entity values (mapped by the synonyms in
data/nlu.yml); the surface forms are what residents type, typos included."""

ANIMALS = {
    "dog": ["dog", "dogs", "puppy", "puppies", "pup", "pups", "doggy", "doggie", "doggo", "pooch", "dgo",
            "dogg", "pupper", "puppys", "dogs'", "dog's"],
    "cat": ["cat", "cats", "kitten", "kittens", "kitty", "kitties", "kat", "cta", "cats'", "cat's"],
}
# Other animals keep their own word as the value.
OTHER_ANIMALS = [
    "chicken", "chickens", "chiken", "chikens", "hen", "hens", "rooster", "roosters", "chick", "chicks",
    "duck", "ducks", "ducklings", "goose", "geese", "turkey", "turkeys", "fowl", "poultry", "quail",
    "bee", "bees", "honeybees", "honey bees", "beehive", "beehives", "hive", "hives",
    "horse", "horses", "pony", "ponies", "donkey", "donkeys", "mule", "cow", "cows", "cattle", "calf",
    "goat", "goats", "pig", "pigs", "potbellied pig", "pot bellied pig", "pot-bellied pig", "sheep",
    "lamb", "lambs", "llama", "llamas", "alpaca", "alpacas", "rabbit", "rabbits", "bunny", "bunnies",
    "ferret", "ferrets", "snake", "snakes", "python", "boa", "lizard", "iguana", "turtle", "tortoise",
    "bird", "birds", "parrot", "parrots", "parakeet", "pigeon", "pigeons", "peacock", "peacocks",
    "hamster", "hamsters", "guinea pig", "guinea pigs", "gerbil", "mice", "rat", "rats",
    "raccoon", "raccoons", "skunk", "skunks", "bat", "bats", "fox", "foxes", "coyote", "coyotes",
    "deer", "wolf", "wolves", "wolf hybrid", "bear", "monkey", "monkeys", "tiger", "lion",
    "emu", "emus", "ostrich", "livestock", "farm animals", "pheasant", "pheasants", "mink", "squirrel",
]
NEUTERED = {
    "neutered": ["spayed", "neutered", "fixed", "altered", "spayed or neutered", "spayed/neutered",
                 "spayed and neutered", "spay", "neuter", "nuetered", "neuterd", "spayd", "spade", "fixd",
                 "sterilized", "spayed / neutered", "spayed-neutered", "neutered/spayed", "desexed",
                 "castrated"],
    "unneutered": ["not fixed", "not spayed", "not neutered", "n't fixed", "n't spayed", "n't neutered",
                   "not altered", "unneutered", "unspayed", "unaltered", "intact", "not spayed or neutered",
                   "not spayed/neutered", "never fixed", "never spayed", "never neutered", "not been fixed",
                   "n't been fixed", "not been spayed", "n't been spayed", "not been neutered",
                   "n't been neutered", "not yet fixed", "not yet spayed", "not yet neutered", "un-neutered",
                   "unfixed", "un fixed", "non neutered", "non-neutered", "nt fixed",
                   # apostrophes left out, as residents text them
                   "isnt spayed", "isnt neutered", "isnt fixed", "arent spayed", "arent neutered", "arent fixed",
                   "hasnt been spayed", "hasnt been neutered", "hasnt been fixed", "wasnt spayed", "wasnt fixed",
                   "havent been fixed", "havent been spayed", "not spayed yet", "not neutered yet", "not fixed yet"],
}
SERVICE_DOG = {
    "service dog": ["service dog", "service dogs", "service animal", "service animals", "guide dog",
                    "guide dogs", "seeing eye dog", "seeing-eye dog", "seeing eye dogs", "assistance dog",
                    "assistance dogs", "servcie dog", "service dgo", "sevice dog", "service pup",
                    "hearing dog", "hearing dogs", "psychiatric service dog", "mobility dog"],
}
VACCINATED = {
    "vaccinated": ["vaccinated", "vaccinted", "vacinated", "vaccinatd", "vaxxed", "vaxed",
                   "up to date on shots", "up to date on his shots", "up to date on her shots",
                   "up to date on its shots", "up to date on rabies", "up to date on her rabies",
                   "up to date on his rabies", "up-to-date on shots", "current on shots",
                   "current on rabies", "current on his shots", "current on her shots", "had his shots",
                   "had her shots", "has his shots", "has her shots", "has had shots", "had shots",
                   "has shots", "has its shots", "had its shots", "up to date on vaccines",
                   "up to date on vaccinations", "rabies vaccinated", "has a rabies shot", "had a rabies shot"],
    "unvaccinated": ["not vaccinated", "n't vaccinated", "unvaccinated", "un-vaccinated", "no shots",
                     "not up to date", "never vaccinated", "not vaxxed", "unvaxxed", "not been vaccinated",
                     "n't been vaccinated", "not current on shots", "no rabies shot", "no rabies shots",
                     "not had shots", "n't had shots", "n't had his shots", "n't had her shots",
                     "not up to date on shots", "not up to date on rabies", "behind on shots",
                     "overdue on shots", "not vacinated", "not vaccinted", "n't had any shots",
                     "never had shots", "never been vaccinated", "no vaccines", "no vaccinations",
                     "n't up to date", "nt vaccinated",
                     "isnt vaccinated", "arent vaccinated", "hasnt been vaccinated", "hasnt had shots",
                     "hasnt had his shots", "hasnt had her shots", "havent had shots", "wasnt vaccinated",
                     "shots lapsed", "shots expired", "rabies shot expired", "rabies expired", "shot expired",
                     "shot lapsed", "rabies lapsed", "shots not current", "shots are not current", "shots aren't current",
                     "shots arent current", "shot not current", "shot is not current", "shot isn't current",
                     "shot isnt current", "rabies not current", "rabies is not current", "rabies isn't current",
                     "rabies isnt current", "vaccination not current", "vaccination is not current",
                     "vaccination isn't current", "vaccinations not current", "vaccinations aren't current",
                     "not current on rabies", "not current on his rabies", "not current on her rabies",
                     "not current on vaccinations", "not current on his shots", "not current on her shots",
                     "shots are expired", "expired shots", "lapsed shots", "shots ran out", "out of date on shots",
                     "not up to date on his shots", "not up to date on her shots", "no rabies papers",
                     "no proof of rabies", "no proof of vaccination", "no rabies certificate", "cant find his rabies papers",
                     "can't find his rabies papers", "cant find her rabies papers", "can't find her rabies papers",
                     "cant find the rabies papers", "can't find the rabies papers", "lost his rabies papers",
                     "lost her rabies papers", "lost the rabies certificate", "cant find his rabies certificate",
                     "can't find his rabies certificate"],
}
INCIDENT = {
    "bite": ["bit", "bite", "bites", "bitten", "biting", "bitt", "nipped", "nip"],
    "exposure": ["exposed", "exposure", "rabid", "expose", "exposd"
                 ],
}
MATERIALS = [
    "brush", "leaves", "leafs", "leaf", "tires", "tire", "garbage", "trash", "rubbish", "plastic", "plastics",
    "yard waste", "yard debris", "yard wast", "grass clippings", "grass", "clippings", "branches", "branch",
    "sticks", "twigs", "limbs", "tree limbs", "logs", "firewood", "wood", "clean wood", "dry wood",
    "untreated wood", "treated wood", "painted wood", "stained wood", "pressure treated wood", "lumber",
    "scrap lumber", "pallets", "pallet", "stumps", "stump", "tree stumps", "paper", "newspaper",
    "cardboard", "boxes", "shingles", "roofing", "asphalt", "rubber", "oil", "used oil", "motor oil",
    "household trash", "household garbage", "construction debris", "demolition debris",
    "demolition waste", "construction waste", "building materials", "drywall", "insulation", "furniture",
    "couch", "mattress", "carpet", "appliances", "batteries", "electronics", "chemicals", "paint",
    "pesticide containers", "herbicide containers", "feed bags", "plastic bags", "styrofoam", "foam",
    "wire", "vinyl", "vinyl siding", "siding", "asbestos", "dead animals", "animal carcass", "manure",
    "corn stalks", "crop residue", "prairie", "marsh", "weeds", "pine needles", "christmas tree",
    "brush pile", "leaf pile", "burn barrel", "food waste", "diapers", "tyres", "brsh", "leves",
    "garbge", "plastik", "campfire wood", "charcoal", "hay", "straw",
]
NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                "twenty", "thirty", "a couple", "a few", "several", "both", "single", "couple", "too",
                "to", "for", "tree", "fiv", "thre", "a", "an", "another", "dozen", "a dozen"]
# words that may sit between a count and its animal: "2 spayed female dogs", "three more cats"
COUNT_GAP = {"more", "other", "small", "big", "large", "little", "old", "young", "new", "female", "male",
             "adult", "rescue", "senior", "extra", "additional", "of", "my", "our", "spayed", "neutered",
             "fixed", "unneutered", "intact", "unspayed", "altered", "indoor", "outdoor", "german", "lab",
             "grown", "baby", "pet", "house", "farm", "barn", "unfixed", "vaccinated", "hunting", "sled", "show",
             "working", "herding", "breeding", "family", "rescued", "foster"}
WEAK_COUNTS = {"a", "an", "too", "to", "for", "tree", "both", "single", "another", "couple"}
# "dog license", "dog run", "dog house": the animal word names a thing, not an animal the resident has
COMPOUND_HEADS = {"license", "licence", "licenses", "licences", "licensing", "licence's", "tag", "tags", "run", "runs",
                  "house", "houses", "pen", "pens", "kennel", "kennels", "daycare", "day", "boarding", "breeder",
                  "breeders", "grooming", "groomer", "park", "warden", "pound", "catcher", "fee", "fees", "tax",
                  "ordinance", "law", "laws", "rule", "rules", "permit", "coop", "coops", "food", "door", "sitter"}
