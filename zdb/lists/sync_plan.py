"""What a rating list changes in the register: computed from the read list and the stored
state in a few set-based reads, without writing (a dry run stops here).

The choices where the issue is silent, as a rating officer would expect them:

- **Who is who.** A person is found by the list's person id (``external_id``); a record
  without one that carries the same FIDE id is taken over (linked), so a person a referee
  entered before the list arrived is not doubled. The older DeWIS layout has no person id: its
  lines with equal person data (name, birth year, DWZ, index, FIDE data) are one person, found
  again by a current membership number in one of his clubs.
- **What the list governs.** The memberships of the clubs its ``vereine.csv`` names: a current
  membership there that the list does not repeat has ended (the day before the list's date; a
  leaver is never deleted). Clubs and federations are added or renamed, never removed.
- **A value the list leaves empty** (birth year, sex, FIDE id, nation) tells nothing: the
  record keeps what it knows (a birth year learned from a tournament, say).
- **Ratings.** A person the list brings in gets its DWZ and index as his start rating at the
  list's date (spec §2; no DWZ: no start rating) and that date as his epoch. A later list
  never overwrites a rating: a DWZ that differs from ZDB's is counted (``ratings_differ``)
  and left for a deliberate re-baseline.
- **Person numbers.** The ``ID`` of a DeWIS layout is the federation's person number (PKZ):
  a person it brings in keeps that number where it is free, so that club software, which
  links its members by that number, finds them again after the move (and a list ZDB wrote
  comes back with the same numbers). A number already given to someone else, or the portal's
  ``NU…`` ids, leave the person the next free number; the id is kept as his external id.
- **ZDB's own people in the portal's layout.** A person ZDB created (from a tournament file)
  has no portal id; ZDB's portal export writes his person number as his ``ID``
  (``zdb.formats.portal_files``), which no ``NU…`` id can be. So a digit ``ID`` in the portal's
  layout finds the person with that number who has no external id — a re-import of ZDB's own
  file does not create him twice — and a database that does not know him gives him that number
  where it is free, as for a DeWIS list.
- **ZDB's own DeWIS files.** The DeWIS layout's ``ID`` is the federation's number, not
  necessarily ZDB's: it finds the person with that number only if he is the one the line
  describes (the same name, folded, and no other birth year) and no other DeWIS list numbered
  him (his external id is not another number). So ZDB's DeWIS export of people who came with
  the portal's ``NU…`` ids finds each of them again instead of creating him twice.
- **A person's facts that differ between his lines.** The list has one line per membership
  and repeats the person's data on each; the federation keeps his main membership's line up to
  date, a passive line may lag (an older "Letzte Auswertung", say). So the line that counts is
  his active membership's, else his most recent one (``ListPerson.member``); what another line
  says differently is a warning naming the person, the column and both values, never a reason
  to refuse the list or to leave a line out.
- **What the answer counts.** ``stored_lines``: the lines of ``spieler.csv`` whose membership
  the register holds after the import (new, changed or already so); ``skipped``: every line of
  the three files that was read and left out (a problem on it, or a person left out with an
  earlier line's problem), so that stored + left out are the list's membership lines exactly.
- **A status or number change** of a current membership is written in place (audited with
  before, after and the list's date); a transfer is the end of one membership and the
  beginning of another.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.common.names import fold_name
from zdb.federations.models import Club, Federation
from zdb.formats.list_layouts import layout
from zdb.formats.list_model import PERSON_FIELDS, ListFederation, ListMember, Problem, RatingList
from zdb.lists.codes import ROOT_CODE, prefix_of_code
from zdb.lists.difference import Difference
from zdb.lists.models import ListBaseline
from zdb.lists.problem_texts import PlacedText
from zdb.messages import Message
from zdb.players.merged import follow_merges
from zdb.players.models import Membership, Player
from zdb.timeline.models import PlayerRating, StartRatingRow

__all__ = ["Facts", "Plan", "PlannedPerson", "plan_sync"]

_SPIELER = "spieler.csv"
#: the root's name where a layout does not list it (DeWIS names it only as the states' parent)
ROOT_NAME = "Deutscher Schachbund"


@dataclass(frozen=True, slots=True)
class Facts:
    """What the register keeps of a person."""

    surname: str
    given_name: str
    sex: str | None
    birth_year: int | None
    fide_id: int | None
    nation: str | None
    guest: bool = False


@dataclass(frozen=True, slots=True)
class PlannedPerson:
    """A person the list brings in: ``ref`` is negative (``-1`` the first) until he is stored."""

    ref: int
    external_id: str | None
    facts: Facts
    member: ListMember
    #: the person number he keeps (a DeWIS list's ``ID``), or None: the next free one
    number: int | None = None


#: the range of person numbers (``players.pkz``): eight digits, as the DSB gives them
_PERSON_NUMBERS = range(10_000_000, 100_000_000)


def _kept_number(person_id: str | None) -> int | None:
    if person_id is None or not person_id.isascii() or not person_id.isdigit():
        return None
    number = int(person_id)
    return number if number in _PERSON_NUMBERS else None


def _own_person(stored: _Stored, person_id: str) -> int | None:
    """The person ZDB numbered so, without an external id (see "ZDB's own people" above)."""
    number = _kept_number(person_id)
    if number is None or number not in stored.people or stored.people[number][0] is not None:
        return None
    return number


def _numbered_alike(stored: _Stored, person_id: str, listed: Facts) -> int | None:
    """The person a DeWIS ``ID`` numbers, if the line describes him (see "ZDB's own DeWIS
    files" above)."""
    number = _kept_number(person_id)
    if number is None or number not in stored.people:
        return None
    external, facts = stored.people[number]
    if external is not None and _kept_number(external) is not None:
        return None  # numbered by another DeWIS list: that list's id finds him
    same_name = (fold_name(facts.surname), fold_name(facts.given_name)) == (
        fold_name(listed.surname),
        fold_name(listed.given_name),
    )
    years = facts.birth_year is None or listed.birth_year is None or facts.birth_year == listed.birth_year
    return number if same_name and years else None


@dataclass(slots=True)
class Plan:
    list_date: date
    difference: Difference
    federations_new: list[tuple[str, str, int, str | None]] = field(default_factory=list)
    federations_changed: list[tuple[str, str, int, str | None]] = field(default_factory=list)
    clubs_new: list[tuple[str, str, str]] = field(default_factory=list)
    clubs_changed: list[tuple[str, str, str]] = field(default_factory=list)
    people_new: list[PlannedPerson] = field(default_factory=list)
    #: pkz, facts after, facts before
    people_changed: list[tuple[int, Facts, Facts]] = field(default_factory=list)
    people_linked: list[tuple[int, str]] = field(default_factory=list)
    #: person ref (pkz, or a new person's negative ref), club, member number, status
    memberships_new: list[tuple[int, str, int | None, str]] = field(default_factory=list)
    #: membership id, pkz, club, member number, status; number and status before
    memberships_changed: list[tuple[int, int, str, int | None, str, int | None, str]] = field(default_factory=list)
    #: membership id, pkz, club, last day
    memberships_ended: list[tuple[int, int, str, date]] = field(default_factory=list)
    #: new person's ref, rating, index
    start_ratings: list[tuple[int, int, int]] = field(default_factory=list)
    #: new person's ref, last evaluation (YYYYWW)
    baselines: list[tuple[int, str | None]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: a person's fact another line of his says differently (file, line, column, text)
    warnings: list[PlacedText] = field(default_factory=list)
    #: (file, line) of every line whose value the plan takes (a stored membership, club or federation)
    taken: set[tuple[str, int]] = field(default_factory=set)
    #: (file, line) of every line read and not taken
    left_out: set[tuple[str, int]] = field(default_factory=set)

    @property
    def stored_lines(self) -> int:
        """The lines of ``spieler.csv`` whose membership the register holds afterwards."""
        return sum(1 for file, _ in self.taken if file == _SPIELER)


@dataclass(slots=True)
class _Stored:
    federations: dict[str, tuple[str, int, str | None]]
    clubs: dict[str, tuple[str, str]]
    people: dict[int, tuple[str | None, Facts]]
    by_external: dict[str, int]
    by_fide: dict[int, int]
    #: absorbed person number → survivor (``zdb.players.merged``): an id that finds one finds him
    merged_into: dict[int, int]
    #: current memberships: id, pkz, club, member number, status, valid from
    memberships: list[tuple[int, int, str, int | None, str, date]]
    ratings: dict[int, tuple[int | None, int]]
    baselines: set[int]


def _stored(session: Session) -> _Stored:
    connection = session.connection()  # Core rows: a hundred thousand people without the ORM's loading
    federations = {
        f.prefix: (f.name, f.level, f.parent_prefix)
        for f in connection.execute(
            select(Federation.prefix, Federation.name, Federation.level, Federation.parent_prefix)
        )
    }
    clubs = {
        c.code: (c.name, c.federation_prefix)
        for c in connection.execute(select(Club.code, Club.name, Club.federation_prefix))
    }
    p = Player
    people: dict[int, tuple[str | None, Facts]] = {}
    by_external: dict[str, int] = {}
    by_fide: dict[int, int] = {}
    merged_into: dict[int, int] = {}
    rows = connection.execute(
        select(
            p.pkz,
            p.external_id,
            p.surname,
            p.given_name,
            p.sex,
            p.birth_year,
            p.fide_id,
            p.nation,
            p.guest,
            p.merged_into,
        )
    )
    for pkz, external, surname, given, sex, year, fide, nation, guest, survivor in rows:
        # An absorbed record stays in ``people``: its number is taken for good.
        people[pkz] = (external, Facts(surname, given, sex, year, fide, nation, guest))
        if survivor is not None:
            merged_into[pkz] = survivor
        if external is not None:
            by_external[external] = pkz
        if fide is not None:
            by_fide[fide] = pkz
    m = Membership
    memberships = [
        (r.id, r.player_pkz, r.club_code, r.member_no, r.status, r.valid_from)
        for r in connection.execute(
            select(m.id, m.player_pkz, m.club_code, m.member_no, m.status, m.valid_from).where(m.valid_until.is_(None))
        )
    ]
    ratings: dict[int, tuple[int | None, int]] = {}
    s = StartRatingRow
    for number, rating, index in connection.execute(
        select(s.player_pkz, s.rating, s.rating_index).order_by(s.rating_date)
    ):
        ratings[number] = (rating, index)  # the latest start rating, until a run has evaluated it
    r = PlayerRating
    for number, current_rating, index in connection.execute(select(r.player_pkz, r.rating, r.rating_index)):
        ratings[number] = (current_rating, index)
    baselines = set(connection.execute(select(ListBaseline.player_pkz)).scalars())
    return _Stored(federations, clubs, people, by_external, by_fide, merged_into, memberships, ratings, baselines)


def _name(facts: Facts) -> str:
    return f"{facts.surname}, {facts.given_name}" if facts.given_name else facts.surname


def _plan_tree(rating_list: RatingList, stored: _Stored, plan: Plan) -> dict[str, str]:
    """Federations and clubs; answers the listed clubs' codes and their prefixes."""
    listed: dict[str, ListFederation] = {}
    for federation in rating_list.federations:  # a repeated number: the first line counts
        listed.setdefault(federation.code, federation)
    wanted: dict[str, tuple[str, str | None]] = {}
    if "" not in stored.federations and ROOT_CODE not in listed:
        wanted[""] = (ROOT_NAME, None)
    for code, federation in listed.items():
        parent = None if code == ROOT_CODE or not federation.parent else prefix_of_code(federation.parent)
        wanted[prefix_of_code(code)] = (federation.name, parent)
    file = "verbaende.csv"
    levels: dict[str, int] = {prefix: level for prefix, (_, level, _) in stored.federations.items()}

    def level_of(prefix: str, seen: frozenset[str] = frozenset()) -> int | None:
        if prefix in wanted:
            parent = wanted[prefix][1]
            if parent is None:
                return 0
            if parent in seen:
                return None
            above = level_of(parent, seen | {prefix})
            return None if above is None else min(3, above + 1)
        return levels.get(prefix)

    new = []
    for prefix, (name, parent) in wanted.items():
        level = level_of(prefix)
        line = next((f.line for f in rating_list.federations if prefix_of_code(f.code) == prefix), 0)
        if level is None:
            plan.problems.append(
                Problem.of(file, line, "", "the parent federation {parent} is not known", parent=repr(parent))
            )
            continue
        if len(prefix) > 4:
            plan.problems.append(Problem.of(file, line, "", "a code of at most 4 characters"))
            continue
        row = (prefix, name, level, parent)
        if line:
            plan.taken.add((file, line))
        before = stored.federations.get(prefix)
        if before is None:
            new.append(row)
            plan.difference.add("federations_new", _as_is(f"{prefix or ROOT_CODE} {name}"))
        elif before != (name, level, parent):
            plan.federations_changed.append(row)
            plan.difference.add("federations_changed", _as_is(f"{prefix or ROOT_CODE} {before[0]} → {name}"))
    plan.federations_new = sorted(new, key=lambda row: row[2])  # parents first
    known = set(stored.federations) | {row[0] for row in new}
    clubs: dict[str, str] = {}
    for club in rating_list.clubs:
        if club.is_federation:
            continue
        prefix = prefix_of_code(club.parent)
        if len(club.code) != 5:
            plan.problems.append(
                Problem.of("vereine.csv", club.line, "", "a club code has 5 characters: {code}", code=repr(club.code))
            )
            continue
        if prefix not in known:
            plan.problems.append(
                Problem.of("vereine.csv", club.line, "", "the federation {code} is not known", code=repr(club.parent))
            )
            continue
        clubs[club.code] = prefix
        plan.taken.add(("vereine.csv", club.line))
        before_club = stored.clubs.get(club.code)
        if before_club is None:
            plan.clubs_new.append((club.code, club.name, prefix))
            plan.difference.add("clubs_new", _as_is(f"{club.code} {club.name}"))
        elif before_club != (club.name, prefix):
            plan.clubs_changed.append((club.code, club.name, prefix))
            plan.difference.add("clubs_changed", _as_is(f"{club.code} {before_club[0]} → {club.name}"))
    return clubs


def _groups(rating_list: RatingList) -> list[tuple[str | None, ListMember, tuple[ListMember, ...]]]:
    """The list's people: by person id, or (older DeWIS layout) by equal person data."""
    if rating_list.people:
        return [(p.person_id, p.member, p.memberships) for p in rating_list.people]
    grouped: dict[tuple[object, ...], list[ListMember]] = {}
    for member in rating_list.members:
        grouped.setdefault(member.person_data(), []).append(member)
    people: list[tuple[str | None, ListMember, tuple[ListMember, ...]]] = []
    for lines in grouped.values():
        active = [m for m in lines if m.status == "active"]
        people.append((None, (active or lines)[0], tuple(lines)))
    return people


def _merged(listed: Facts, before: Facts) -> Facts:
    """The record after the list: a value the list leaves empty keeps the record's."""
    return Facts(
        listed.surname,
        listed.given_name,
        listed.sex or before.sex,
        listed.birth_year or before.birth_year,
        listed.fide_id or before.fide_id,
        listed.nation or before.nation,
        False,
    )


def _facts_of(member: ListMember) -> Facts:
    return Facts(member.surname, member.given_name, member.sex, member.birth_year, member.fide_id, member.fide_nation)


#: a person's facts as a sample of a correction names them
_FACT_WORDS = {
    "surname": Message("surname"),
    "given_name": Message("given_name"),
    "sex": Message("sex"),
    "birth_year": Message("birth_year"),
    "fide_id": Message("fide_id"),
    "nation": Message("nation"),
    "guest": Message("guest"),
}


def _changed_fields(after: Facts, before: Facts) -> Message:
    """``surname 'Maier' → 'Meier', sex None → 'M'``: each fact that changes, before and after."""
    changes = [
        Message("{fact} {before} → {after}", fact=word, before=repr(getattr(before, n)), after=repr(getattr(after, n)))
        for n, word in _FACT_WORDS.items()
        if getattr(before, n) != getattr(after, n)
    ]
    joined = changes[0]
    for change in changes[1:]:
        joined = Message("{earlier}, {later}", earlier=joined, later=change)
    return joined


def _as_is(text: str) -> Message:
    """A sample without words to translate (codes, names, ratings)."""
    return Message("{text}", text=text)


def plan_sync(session: Session, rating_list: RatingList, list_date: date, file: str, *, dry_run: bool) -> Plan:
    """The difference between the register and ``rating_list`` taken at ``list_date``."""
    plan = Plan(list_date, Difference(file, list_date, dry_run))
    plan.problems.extend(rating_list.problems)
    stored = _stored(session)
    clubs = _plan_tree(rating_list, stored, plan)
    known_clubs = set(stored.clubs) | set(clubs)
    governed = set(clubs)
    current: dict[int, dict[str, tuple[int, int | None, str, date]]] = {}
    by_number: dict[tuple[str, int], int] = {}
    by_name: dict[tuple[str, str, str, int | None], int] = {}
    for membership_id, holder, club, number, status, since in stored.memberships:
        current.setdefault(holder, {})[club] = (membership_id, number, status, since)
        if number is not None:
            by_number[(club, number)] = holder
        facts = stored.people[holder][1]
        by_name[(club, facts.surname, facts.given_name, facts.birth_year)] = holder
    fide_owner: dict[int, int] = dict(stored.by_fide)
    fide_line: dict[int, int] = {}
    numbers_taken: dict[tuple[str, int], int] = {}
    seen: set[int] = set()
    numbers_given: set[int] = set()
    layout = next((f.layout for f in rating_list.formats if f.name == "spieler.csv"), None)
    keeps_numbers = layout in ("dewis", "portal")
    numbers_are_ours = layout == "portal"
    ended_day = list_date - timedelta(days=1)
    file_name = _SPIELER
    headers = _headers(rating_list)
    for person_id, chosen, lines in _groups(rating_list):
        wanted, doubtful = _wanted_memberships(plan, lines, known_clubs, numbers_taken)
        listed = _facts_of(chosen)
        pkz: int | None = None
        if person_id is not None:
            pkz = stored.by_external.get(person_id)
            if pkz is None and numbers_are_ours:
                pkz = _own_person(stored, person_id)
            elif pkz is None and layout == "dewis":
                pkz = _numbered_alike(stored, person_id, listed)
            if pkz is None and listed.fide_id is not None:
                candidate = stored.by_fide.get(listed.fide_id)
                if candidate is not None and stored.people[candidate][0] is None and candidate not in seen:
                    pkz = candidate
                    plan.people_linked.append((pkz, person_id))
                    text = Message(
                        "line {line}: {person} is {pkz} {name}",
                        line=chosen.line,
                        person=person_id,
                        pkz=pkz,
                        name=_name(listed),
                    )
                    plan.difference.add("people_linked", text)
        else:
            # the older DeWIS layout: a current membership number, else name and birth year in a club
            found = [by_number.get((m.club_code, m.member_no)) for m in lines if m.member_no is not None]
            found += [by_name.get((m.club_code, m.surname, m.given_name, m.birth_year)) for m in lines]
            pkz = next((number for number in found if number is not None), None)
        if pkz is not None:
            # A list's id of a record a merge absorbed (its external id, or its number) names
            # the surviving person: never the absorbed record, never a new one.
            pkz = follow_merges(pkz, stored.merged_into)
        if pkz is not None and pkz in seen:
            plan.problems.append(
                Problem.of(file_name, chosen.line, "", "the same person ({pkz}) as an earlier line", pkz=pkz)
            )
            continue
        if pkz is None and not wanted:
            continue  # every line of a new person has a problem: he is left out with them
        ref = pkz if pkz is not None else -(len(plan.people_new) + 1)
        fide = listed.fide_id
        if fide is not None:
            owner = fide_owner.get(fide)
            if owner is not None and owner != pkz:
                if owner > 0:
                    problem = Problem.of(
                        file_name,
                        chosen.line,
                        "FIDE-ID",
                        "FIDE id {fide} is already the id of person {owner}; the line is taken without it",
                        fide=fide,
                        owner=owner,
                    )
                else:
                    problem = Problem.of(
                        file_name,
                        chosen.line,
                        "FIDE-ID",
                        "FIDE id {fide} is already the id of line {other}; the line is taken without it",
                        fide=fide,
                        other=fide_line[fide],
                    )
                plan.problems.append(problem)
                listed = Facts(listed.surname, listed.given_name, listed.sex, listed.birth_year, None, listed.nation)
            else:
                fide_owner[fide] = ref
                fide_line[fide] = chosen.line
        if pkz is None:
            number = _kept_number(person_id) if keeps_numbers else None
            if number is not None and (number in stored.people or number in numbers_given):
                number = None
            if number is not None:
                numbers_given.add(number)
            plan.people_new.append(PlannedPerson(ref, person_id, listed, chosen, number))
            label = f"{person_id} {_name(listed)}" if person_id else _name(listed)
            plan.difference.add("people_new", Message("line {line}: {person}", line=chosen.line, person=label))
            if chosen.rating is not None:
                plan.start_ratings.append((ref, chosen.rating, chosen.rating_index or 0))
                rating = f"{_name(listed)}: {chosen.rating}-{chosen.rating_index or 0}"
                plan.difference.add("start_ratings", _as_is(rating))
            week = None if chosen.last_evaluation is None else str(chosen.last_evaluation)
            plan.baselines.append((ref, week))
        else:
            seen.add(pkz)
            before = stored.people[pkz][1]
            after = _merged(listed, before)
            if after != before:
                plan.people_changed.append((pkz, after, before))
                changes = _changed_fields(after, before)
                text = Message("line {line}: {pkz} {changes}", line=chosen.line, pkz=pkz, changes=changes)
                plan.difference.add("people_changed", text)
            else:
                plan.difference.counts["people_unchanged"] += 1
            ours = stored.ratings.get(pkz)
            if ours is not None and chosen.rating is not None and ours[0] != chosen.rating:
                listed_rating, our_rating = f"{chosen.rating}-{chosen.rating_index or 0}", f"{ours[0]}-{ours[1]}"
                differ = Message(
                    "{pkz} {name}: list {listed}, ZDB {ours}",
                    pkz=pkz,
                    name=_name(after),
                    listed=listed_rating,
                    ours=our_rating,
                )
                plan.difference.add("ratings_differ", differ)
        plan.taken.update((file_name, m.line) for m in wanted.values())
        if person_id is not None:
            label = f"{person_id} {_name(_facts_of(chosen))}"
            plan.warnings.extend(_differing_facts(label, chosen, lines, headers))
        _plan_memberships(
            plan, ref, wanted, current.get(ref, {}), governed=governed, keep_held=doubtful, ended_day=ended_day
        )
    plan.left_out = _left_out(rating_list, plan)
    listed_people = seen
    for holder, held in current.items():
        if holder in listed_people:
            continue
        for club, (membership_id, _, _, since) in held.items():
            if club in governed:
                plan.memberships_ended.append((membership_id, holder, club, max(since, ended_day)))
                left = Message("{pkz} {name} left {club}", pkz=holder, name=_name(stored.people[holder][1]), club=club)
                plan.difference.add("memberships_ended", left)
    return plan


def _headers(rating_list: RatingList) -> dict[str, str]:
    """The header of ``spieler.csv`` naming each value, as the file wrote it."""
    found = rating_list.format_of(_SPIELER)
    if found is None:
        return {}
    columns = layout(_SPIELER, found.layout)
    named: dict[str, str] = {}
    for header in found.columns:
        key = columns.key_of(header)
        if key is not None:
            named.setdefault(key, header)
    if "full_name" in named:  # one column holds both names: it is the one to correct
        named.setdefault("surname", named["full_name"])
        named.setdefault("given_name", named["full_name"])
    return named


def _differing_facts(
    label: str, chosen: ListMember, lines: Iterable[ListMember], headers: dict[str, str]
) -> list[PlacedText]:
    """A warning per line and column where another line of the person says something else of
    him than the line that counts (see "A person's facts that differ" above)."""
    why = Message("his active membership") if chosen.status == "active" else Message("his most recent line")
    warnings = []
    for other in lines:
        if other is chosen:
            continue
        for name, theirs, ours in zip(PERSON_FIELDS, other.person_data(), chosen.person_data(), strict=True):
            if theirs != ours:
                text = Message(
                    "{person}: {theirs} here, {ours} on line {line} ({why}), which counts",
                    person=label,
                    theirs=_shown(theirs),
                    ours=_shown(ours),
                    line=chosen.line,
                    why=why,
                )
                warnings.append(PlacedText(_SPIELER, other.line, headers.get(name, name), text))
    return warnings


def _shown(value: object) -> Message | str:
    return Message("empty") if value is None else repr(str(value))


def _left_out(rating_list: RatingList, plan: Plan) -> set[tuple[str, int]]:
    """Every line read (with a value, or a problem on its line) whose value the plan does not take."""
    read = {(_SPIELER, m.line) for m in rating_list.members}
    read |= {(p.file, p.line) for p in plan.problems if p.line}
    return read - plan.taken


def _wanted_memberships(
    plan: Plan, lines: Iterable[ListMember], known_clubs: set[str], numbers_taken: dict[tuple[str, int], int]
) -> tuple[dict[str, ListMember], bool]:
    """A person's memberships the list wants (by club), and whether a line of his had a problem."""
    file = "spieler.csv"
    wanted: dict[str, ListMember] = {}
    count = 0
    for member in lines:
        count += 1
        if member.club_code not in known_clubs:
            plan.problems.append(
                Problem.of(file, member.line, "", "the club {club} is not known", club=member.club_code)
            )
            continue
        if member.club_code in wanted:
            problem = Problem.of(
                file,
                member.line,
                "",
                "a second membership in {club} (line {first})",
                club=member.club_code,
                first=wanted[member.club_code].line,
            )
            plan.problems.append(problem)
            continue
        if member.member_no is not None:
            key = (member.club_code, member.member_no)
            if key in numbers_taken:
                problem = Problem.of(
                    file,
                    member.line,
                    "",
                    "member number {number} of {club} again (line {first})",
                    number=member.member_no,
                    club=member.club_code,
                    first=numbers_taken[key],
                )
                plan.problems.append(problem)
                continue
            numbers_taken[key] = member.line
        wanted[member.club_code] = member
    return wanted, len(wanted) < count


def _plan_memberships(
    plan: Plan,
    ref: int,
    wanted: dict[str, ListMember],
    held: dict[str, tuple[int, int | None, str, date]],
    *,
    governed: set[str],
    keep_held: bool,
    ended_day: date,
) -> None:
    """``keep_held``: a line of the person had a problem, so no membership of his ends."""
    who: Message | int = ref if ref > 0 else Message("new")
    for club, member in wanted.items():
        before = held.get(club)
        if before is None:
            plan.memberships_new.append((ref, club, member.member_no, member.status))
            text = Message(
                "line {line}: {person} in {club} ({status})",
                line=member.line,
                person=who,
                club=club,
                status=Message(member.status),
            )
            plan.difference.add("memberships_new", text)
        elif (before[1], before[2]) != (member.member_no, member.status):
            plan.memberships_changed.append(
                (before[0], ref, club, member.member_no, member.status, before[1], before[2])
            )
            changed = Message(
                "line {line}: {pkz} in {club}: {number} {status} → {new_number} {new_status}",
                line=member.line,
                pkz=ref,
                club=club,
                number=str(before[1]),
                status=Message(before[2]),
                new_number=str(member.member_no),
                new_status=Message(member.status),
            )
            plan.difference.add("memberships_changed", changed)
    moved = False
    for club, (membership_id, _, _, since) in held.items():
        if club in governed and club not in wanted and not keep_held:
            plan.memberships_ended.append((membership_id, ref, club, max(since, ended_day)))
            plan.difference.add("memberships_ended", Message("{pkz} left {club}", pkz=ref, club=club))
            moved = True
    if moved and any(club not in held for club in wanted):
        left, joined = ", ".join(c for c in held if c not in wanted), ", ".join(c for c in wanted if c not in held)
        plan.difference.add("transfers", _as_is(f"{ref}: {left} → {joined}"))


def search_name(facts: Facts) -> str:
    return fold_name(f"{facts.given_name} {facts.surname}".strip())
