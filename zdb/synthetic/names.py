"""Small name lists and the samplers that turn them into people, towns and clubs.

The lists are short on purpose: common names must repeat (a real register has many a "Thomas
Müller"), and they carry umlauts, ß and foreign accents (Weiß, Çelik, Dvořák, Jørgensen) so that
search and sorting features meet the characters they will meet in production.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from random import Random

__all__ = ["NATIONS", "NameSampler", "club_name", "town_name"]


def _words(text: str) -> tuple[str, ...]:
    """The names in ``text``; a particle ("von", "van der") belongs to the name that follows."""
    names: list[str] = []
    particles: list[str] = []
    for word in text.split():
        if word[0].islower():
            particles.append(word)
        else:
            names.append(" ".join([*particles, word]))
            particles = []
    return tuple(names)


_GERMAN_MALE = _words(
    "Thomas Michael Andreas Stefan Peter Frank Klaus Jürgen Wolfgang Uwe Christian Markus Matthias Martin "
    "Jörg Ralf Dieter Bernd Günter Hans Sven Björn Sören Lukas Leon Jonas Felix Maximilian Paul Niklas Tim "
    "Jan David Elias Noah Finn Ben Luca Moritz Tobias Florian Alexander Sebastian Daniel Philipp Simon "
    "Julian Fabian René André Günther Horst Helmut Heinz Karl-Heinz Hans-Jürgen Ömer Mehmet Emre Ivan "
    "Dmitri Paweł Tomasz Noël Jérôme"
)
_GERMAN_FEMALE = _words(
    "Sabine Petra Claudia Andrea Susanne Monika Birgit Ute Katrin Anja Julia Anna Laura Lena Lea Hannah "
    "Sophie Marie Emma Mia Lina Clara Johanna Charlotte Luisa Jana Nina Sarah Elisabeth Ursula Renate "
    "Brigitte Gisela Jutta Bärbel Käthe Zoë Chloé Renée Özlem Çağla Ayşe Elif Olga Agnieszka Małgorzata"
)
_GERMAN_LAST = _words(
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter "
    "Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner "
    "Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser "
    "Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank Berger "
    "Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster Simon Ludwig Böhm Winter Kraus Martin "
    "Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas Schreiber Graf "
    "Schulte Dietrich Ziegler Kuhn Kühn Pohl Engel Horn Busch Bergmann Voigt Sauer Arnold Pfeiffer "
    "Düring Gößling Straßer Nußbaum Öztürk Yılmaz Çelik Kaya Şahin Nowak Kowalski Wójcik Petrović Đorđević "
    "Ivanov Popescu Müller-Lüdenscheid Schmidt-Rößler von Bülow"
)

#: nation -> (male first names, female first names, last names)
_FOREIGN: dict[str, tuple[str, str, str]] = {
    "AUT": ("Florian Lukas Matthias Stefan Markus", "Katharina Theresa Verena", "Gruber Huber Pichler Moser Hölzl"),
    "SUI": ("Reto Urs Beat Lukas Noah", "Rahel Seraina Nadine Corinne", "Meier Brunner Zürcher Hänni Käser"),
    "NED": ("Jeroen Sjoerd Bram Daan Ruud", "Anouk Femke Sanne Lieke", "de Vries Jansen Bakker van der Berg Visser"),
    "DEN": ("Søren Jesper Rasmus Mads Bjørn", "Mette Sørine Line Ida", "Jørgensen Sørensen Nielsen Østergaard Kjær"),
    "CZE": ("Jiří Petr Tomáš Lukáš Jan", "Lenka Petra Tereza Zuzana", "Dvořák Novák Svoboda Černý Procházka Kučera"),
    "POL": ("Łukasz Paweł Michał Krzysztof", "Agnieszka Małgorzata Zofia", "Kowalski Wiśniewski Wójcik Kamiński"),
    "FRA": ("François Jérôme Benoît Étienne Loïc", "Bérénice Élodie Maëlle Hélène", "Lefèvre Dubois Moreau Lemaître"),
    "LUX": ("Luc Gilles Yves Tom", "Anne Nathalie Mireille", "Schmit Weber Hoffmann Muller Reuter"),
    "TUR": ("Emre Mehmet Burak Oğuz Çağrı", "Ayşe Elif Zeynep Şule", "Çelik Yılmaz Öztürk Şahin Doğan Aydın"),
    "UKR": ("Oleksandr Andriy Dmytro Yuriy", "Olena Kateryna Iryna", "Kovalenko Shevchenko Bondarenko Kravchuk"),
    "ESP": ("José Álvaro Íñigo Martín", "Lucía Inés María", "Núñez Peña Muñoz García Ibáñez"),
}


def _czech_female(last: str) -> str:
    if last.endswith("ý"):
        return last[:-1] + "á"
    return (last[:-1] if last.endswith("a") else last) + "ová"


def _polish_female(last: str) -> str:
    return last[:-1] + "a" if last.endswith(("ski", "cki")) else last


_FEMALE_LAST = {"CZE": _czech_female, "POL": _polish_female}
#: the nations a visitor to a German open comes from, with weights
NATIONS: tuple[tuple[str, int], ...] = (
    ("AUT", 14),
    ("SUI", 8),
    ("NED", 12),
    ("DEN", 7),
    ("CZE", 10),
    ("POL", 10),
    ("FRA", 9),
    ("LUX", 4),
    ("TUR", 6),
    ("UKR", 12),
    ("ESP", 3),
)

_TOWN_ROOTS = _words(
    "Linden Eich Buch Mühl Kirch Rosen Schön Wald Stein Hasel Fürsten Königs Lauter Weißen Grün Roth Oster "
    "Wester Sonnen Frei Hoch Tann Erl Birk Löwen Göt Nürt Würz Düssel Sülz Bären Falken Wolfs Hirsch Rhein "
    "Main Elb Oder Isar Lahn Mosel Saal Neckar Ruhr Fulda Wupper Ems Weser Jäger Mönch Bischofs Markt Alten "
    "Neuen Ober Nieder Groß Klein"
)
_TOWN_SUFFIXES = (
    "bach",
    "berg",
    "burg",
    "dorf",
    "feld",
    "hausen",
    "heim",
    "ingen",
    "stadt",
    "stein",
    "tal",
    "hofen",
    "au",
    "brück",
    "furt",
    "weiler",
    "rode",
    "kirchen",
    "münster",
    "hagen",
    "born",
    "lingen",
    "städt",
    "sted",
    "ach",
)
_TOWN_PREFIXES = ("", "", "", "", "", "", "Bad ", "Neu-", "Alt-", "Sankt ")

_CLUB_PATTERNS = (
    "SK {t}",
    "SC {t}",
    "SV {t}",
    "Schachfreunde {t}",
    "SG {t}",
    "TSV {t}",
    "Schachclub {t} {y}",
    "SF {t}",
    "Schachverein {t} {y}",
    "SC Springer {t}",
    "SK Turm {t}",
    "SV Königsspringer {t}",
    "Post SV {t}",
    "TuS {t}",
    "SC Weiße Dame {t}",
    "SG Läufer {t}",
    "Schachgemeinschaft {t}-Süd",
    "SK Rochade {t}",
    "SC Bauer {t}",
    "Schachabteilung TV {t} {y}",
)


def _zipf(count: int) -> list[float]:
    """Cumulative weights that make the first names of a list the most common ones."""
    return list(accumulate(1.0 / (k + 3) for k in range(count)))


class NameSampler:
    """Draws first and last names; common names come up often, rare ones (accents) rarely."""

    def __init__(self, rng: Random) -> None:
        self._random = rng.random
        self._german = {
            "M": (_GERMAN_MALE, _zipf(len(_GERMAN_MALE))),
            "F": (_GERMAN_FEMALE, _zipf(len(_GERMAN_FEMALE))),
        }
        self._last = (_GERMAN_LAST, _zipf(len(_GERMAN_LAST)))
        self._foreign = {
            nation: (_words(male), _words(female), _words(last)) for nation, (male, female, last) in _FOREIGN.items()
        }

    def _pick(self, names: Sequence[str], cumulative: Sequence[float]) -> str:
        return names[bisect_right(cumulative, self._random() * cumulative[-1])]

    def person(self, sex: str, nation: str = "GER") -> tuple[str, str]:
        """(first name, last name) of a person of ``sex`` ("M" or "F") and ``nation``."""
        if nation in self._foreign:
            male, female, last_names = self._foreign[nation]
            first_names = male if sex == "M" else female
            first = first_names[int(self._random() * len(first_names))]
            last = last_names[int(self._random() * len(last_names))]
            female_form = _FEMALE_LAST.get(nation)
            if sex == "F" and female_form is not None:
                last = female_form(last)
            return first, last
        first = self._pick(*self._german[sex])
        return first, self._pick(*self._last)


def town_name(rng: Random) -> str:
    """A German-looking town name ("Bad Lindenau", "Neu-Eichhausen", "Göttingen")."""
    prefix = _TOWN_PREFIXES[rng.randrange(len(_TOWN_PREFIXES))]
    return prefix + rng.choice(_TOWN_ROOTS) + rng.choice(_TOWN_SUFFIXES)


def club_name(rng: Random, town: str) -> str:
    """A club name for ``town`` ("SK Lindenau", "Schachclub Eichhausen 1923")."""
    pattern = rng.choice(_CLUB_PATTERNS)
    return pattern.format(t=town, y=rng.randrange(1877, 1990))
