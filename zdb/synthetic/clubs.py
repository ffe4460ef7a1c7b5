"""The federation tree and its clubs: DSB -> 17 regional federations -> districts -> clubs.

Club codes (ZPS) nest the tree: the first character names the regional federation, the first
three the district ("C0327" is club 27 of district C03 of region C). Regions get clubs in
proportion to the real federations' sizes, and every region has at least one club, so that the
tree keeps its shape at any scale.
"""

from __future__ import annotations

from random import Random

from zdb.synthetic.model import Club, Federation, FederationLevel
from zdb.synthetic.names import club_name, town_name

__all__ = ["NATIONAL", "REGIONS", "apportion", "build_clubs"]

NATIONAL = Federation("000", "Deutscher Schachbund", FederationLevel.NATIONAL, None)

#: (region character, federation name, short name, relative size by members)
REGIONS: tuple[tuple[str, str, str, int], ...] = (
    ("1", "Badischer Schachverband", "Baden", 65),
    ("2", "Bayerischer Schachbund", "Bayern", 160),
    ("3", "Berliner Schachverband", "Berlin", 40),
    ("4", "Landesschachbund Brandenburg", "Brandenburg", 15),
    ("5", "Landesschachbund Bremen", "Bremen", 7),
    ("6", "Hamburger Schachverband", "Hamburg", 30),
    ("7", "Hessischer Schachverband", "Hessen", 60),
    ("8", "Landesschachverband Mecklenburg-Vorpommern", "Mecklenburg-Vorpommern", 10),
    ("9", "Niedersächsischer Schachverband", "Niedersachsen", 60),
    ("A", "Schachbund Nordrhein-Westfalen", "NRW", 170),
    ("B", "Schachbund Rheinland-Pfalz", "Rheinland-Pfalz", 40),
    ("C", "Sächsischer Schachverband", "Sachsen", 40),
    ("D", "Saarländischer Schachverband", "Saarland", 15),
    ("E", "Landesschachverband Sachsen-Anhalt", "Sachsen-Anhalt", 15),
    ("F", "Schachverband Schleswig-Holstein", "Schleswig-Holstein", 25),
    ("G", "Thüringer Schachbund", "Thüringen", 20),
    ("H", "Schachverband Württemberg", "Württemberg", 100),
)

FULL_CLUBS = 2500
CLUBS_PER_DISTRICT = 22
MAX_PER_DISTRICT = 99  # two digits of the ZPS
MAX_DISTRICTS = 99  # two digits of the ZPS


def apportion(total: int, weights: list[int]) -> list[int]:
    """``total`` split by ``weights`` (largest remainders), at least 1 each."""
    rest = total - len(weights)
    whole = sum(weights)
    exact = [rest * w / whole for w in weights]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(len(weights)), key=lambda k: counts[k] - exact[k])
    for k in by_remainder[: rest - sum(counts)]:
        counts[k] += 1
    return [c + 1 for c in counts]


def build_clubs(rng: Random, scale: float) -> tuple[tuple[Federation, ...], tuple[Club, ...]]:
    """The federation tree (national, regional, district nodes) and the clubs, ordered by code."""
    federations = [NATIONAL]
    clubs: list[Club] = []
    names: set[str] = set()
    total = max(len(REGIONS), round(FULL_CLUBS * scale))
    for (char, name, _, _), count in zip(REGIONS, apportion(total, [w for *_, w in REGIONS]), strict=True):
        region = Federation(char + "00", name, FederationLevel.REGIONAL, NATIONAL.code)
        federations.append(region)
        # Above about scale 4.5 the largest region (NRW) would need a 100th district: its districts
        # grow instead (the ZPS has two digits for each).
        districts = max(1, min(MAX_DISTRICTS, round(count / CLUBS_PER_DISTRICT)), -(-count // MAX_PER_DISTRICT))
        for d, size in enumerate(apportion(count, [1] * districts), start=1):
            code = f"{char}{d:02d}"
            federations.append(
                Federation(code, f"Schachbezirk {town_name(rng)}", FederationLevel.DISTRICT, region.code)
            )
            # real club numbers have gaps where clubs were dissolved or merged
            for number in sorted(rng.sample(range(1, MAX_PER_DISTRICT + 1), size)):
                clubs.append(Club(f"{code}{number:02d}", _unique_club_name(rng, names), code))
    return tuple(federations), tuple(clubs)


def _unique_club_name(rng: Random, taken: set[str]) -> str:
    while True:
        name = club_name(rng, town_name(rng))
        if name not in taken:
            taken.add(name)
            return name
