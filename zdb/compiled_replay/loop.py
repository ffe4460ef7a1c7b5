"""The time line in one pass: every event evaluated in order over state arrays.

``timeline_loop`` walks the events from a position on and applies each to the players' states,
which are arrays indexed by a dense player number (``arrays``): a tournament is evaluated with
every branch of spec §9 (stages, the joint iteration of first ratings, leftover games, FIDE
start values, Ausnahmespieler and the redo, performances and perfect scores, E or K), a
conversion rescales every DWZ, a start rating sets one state. Python builds the arrays before
and reads the results after; nothing in between runs once per tournament.

It is the twin of ``zdb.rating.tournament.evaluate_tournaments`` for one tournament at a time:
the same sums in the same order, so the same doubles. Where the engine decides a figure exactly
with fractions (a value within reach of a tie, spec §5) or a solver does not converge, the loop
stops before changing any state and reports the event: the driver evaluates that tournament
with the engine itself and resumes after it. E and K are computed exactly in integers, as the
rules define them (``solvers``), not read from the engine's tables.

The code runs interpreted or compiled (``machine``): only integer and float arithmetic,
``math`` and numpy arrays; tuples of arrays as arguments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zdb.compiled_replay.solvers import (
    classic_e,
    convert,
    denoised,
    expired,
    joint_solve,
    performance_search,
    round_float,
    round_to,
    solve_rating,
    wo2026_k,
)

__all__ = ["FALLBACK", "FINISHED", "GROW", "timeline_loop"]

# What the loop reports when it stops (``signal[0]``).
FINISHED = 0
FALLBACK = 1  # the engine must evaluate the event at signal[1]
GROW = 3  # the leftover pool is full

# Event kinds.
TOURNAMENT, CONVERSION, START_RATING = 0, 1, 2
# Stages, as ``columns.STAGE_CODES``.
ESTABLISHED, STAGE1, STAGE2, UNRATED = 0, 1, 2, 3
# Columns of the rule parameters (``arrays.rule_parameters``).
R_KIND, R_MIN_GAMES, R_SONDER, R_FIDE_ONLY, R_FIDE_INDEX, R_LEFTOVER_YEARS = 0, 1, 2, 3, 4, 5
R_PERFECT, R_FIRST_KIND, R_COEFF_FIDE_INDEX, R_YOUTH, R_JUNIOR, R_EMIN = 6, 7, 8, 9, 10, 11
R_CAP_PER_INDEX, R_CAP_INDEX_LIMIT, R_CAP, R_SBR_CAP, R_KFLOOR, R_TABLE_KEYS, R_SBR_BELOW = 12, 13, 14, 15, 16, 17, 18
# Integer report columns (``out_int``).
O_STAGE, O_MEMBER, O_FIDE_START, O_R0, O_HAS_R0, O_I0, O_HAS_I0, O_N, O_UNRATED = 0, 1, 2, 3, 4, 5, 6, 7, 8
O_HAS_WE, O_E, O_HAS_E, O_HAS_K, O_RH, O_HAS_RH, O_SONDER, O_RN, O_HAS_RN = 9, 10, 11, 12, 13, 14, 15, 16, 17
O_I_NEW, O_STORED, O_LO_USED, O_LO_STORED, O_BEFORE, O_HAS_BEFORE, O_BEFORE_INDEX = 18, 19, 20, 21, 22, 23, 24
O_AFTER, O_HAS_AFTER, O_AFTER_INDEX = 25, 26, 27
# the leftover games before and after: slots of the pool (a changed list is written anew)
O_BEFORE_LO_START, O_BEFORE_LO_LEN, O_AFTER_LO_START, O_AFTER_LO_LEN = 28, 29, 30, 31
INT_COLUMNS = 32
# Float report columns (``out_float``).
F_W, F_WE, F_K = 0, 1, 2
FLOAT_COLUMNS = 3
# Why the engine must decide a tournament (``signal[2]`` with FALLBACK).
JOINT, FIRST_RATING, PERFORMANCE, EXPECTATION, TABLE_RANGE, NEW_RATING, WE_ROUNDING = 1, 2, 3, 4, 5, 6, 7
#: the older performance rule for a 100 % score (spec §9.5)
PERFECT_MARGIN = 677
#: ratings from 0 up to this have E and K computed here (as the engine tabulates them)
RATING_LIMIT = 4096
#: W and We closer than this are compared exactly (spec §13.1): the engine decides
CLOSE = 1e-6


def timeline_loop(  # noqa: PLR0917 - a compiled call takes its arrays by position
    position: int,
    events: tuple[Any, ...],
    rules: tuple[Any, ...],
    state: tuple[Any, ...],
    out_int: Any,
    out_float: Any,
    signal: Any,
) -> None:
    """Apply events from ``position`` on until the end or a stop; ``signal`` says which
    (kind, event position, details)."""
    kinds, refs, event_rules, starts, conversions = events[0], events[1], events[2], events[3], events[4]
    st_rating, st_has, st_index, lo_start, lo_len = state[0], state[1], state[2], state[3], state[4]
    for at in range(position, kinds.size):
        kind = kinds[at]
        if kind == CONVERSION:
            conversion = conversions[refs[at]]
            for p in range(st_rating.size):
                if st_has[p]:
                    st_rating[p] = convert(st_rating[p], conversion)
                    st_index[p] += conversion[8]
        elif kind == START_RATING:
            row = starts[refs[at]]
            p = row[0]
            st_rating[p], st_has[p], st_index[p] = row[1], True, row[2]
            lo_len[p] = 0
            lo_start[p] = 0
        else:
            status = _tournament(refs[at], event_rules[at], events, rules, state, out_int, out_float, signal)
            if status != FINISHED:
                signal[0] = status
                signal[1] = at
                return
    signal[0] = FINISHED
    signal[1] = kinds.size


def _tournament(  # noqa: PLR0917
    t: int,
    r: int,
    events: tuple[Any, ...],
    rules: tuple[Any, ...],
    state: tuple[Any, ...],
    out_int: Any,
    out_float: Any,
    signal: Any,
) -> int:
    """Evaluate tournament ``t`` under rule set ``r`` (``evaluate_tournaments`` of one), write
    its report rows and, only if all of it could be decided here, the states after it."""
    t_pstart, t_gstart, t_year, t_ymd, t_id = events[5], events[6], events[7], events[8], events[9]
    p_player, p_birth, p_has_birth, p_member, p_fide, p_has_fide = (
        events[10],
        events[11],
        events[12],
        events[13],
        events[14],
        events[15],
    )
    g_white, g_black, g_code, conversions = events[16], events[17], events[18], events[4]
    params, first_params, at_table, half_table, limit, coef = rules[0], rules[1], rules[2], rules[3], rules[4], rules[5]
    st_rating, st_has, st_index, lo_start, lo_len = state[0], state[1], state[2], state[3], state[4]
    lo_tid, lo_ymd, lo_rating, lo_points, lo_fide, pool_used = (
        state[5],
        state[6],
        state[7],
        state[8],
        state[9],
        state[10],
    )
    rp = params[r]
    q0 = t_pstart[t]
    size = t_pstart[t + 1] - q0
    g0 = t_gstart[t]
    count = t_gstart[t + 1] - g0
    ymd = t_ymd[t]

    # ---- the field (``tournament._field``)
    member = np.zeros(size, dtype=np.bool_)
    r0 = np.zeros(size, dtype=np.int64)  # 0 where there is none
    established = np.zeros(size, dtype=np.bool_)
    r0_is_fide = np.zeros(size, dtype=np.bool_)
    fide_start = np.zeros(size, dtype=np.bool_)
    i0 = np.zeros(size, dtype=np.int64)
    has_i0 = np.zeros(size, dtype=np.bool_)
    ages = np.zeros(size, dtype=np.int64)
    # usable leftover games of newcomer candidates (spec §11): per player a slice of these
    usable_start = np.zeros(size + 1, dtype=np.int64)
    has_leftover_list = np.zeros(size, dtype=np.bool_)  # ``f.leftover`` holds the player
    total_leftover = 0
    for k in range(size):
        p = p_player[q0 + k]
        total_leftover += lo_len[p]
    usable_rating = np.empty(total_leftover)
    usable_points = np.empty(total_leftover)
    kept = np.empty(total_leftover, dtype=np.int64)  # pool slots of kept stored games
    kept_start = np.zeros(size + 1, dtype=np.int64)
    used = 0
    kept_used = 0
    for k in range(size):
        q = q0 + k
        p = p_player[q]
        ages[k] = t_year[t] - p_birth[q] if p_has_birth[q] else 99
        member[k] = p_member[q] or st_has[p] or lo_len[p] > 0  # spec §13.12
        if st_has[p]:
            r0[k], i0[k], has_i0[k], established[k] = st_rating[p], st_index[p], True, True
            if p_has_fide[q] and st_rating[p] >= rp[R_FIDE_ONLY]:
                r0[k], r0_is_fide[k] = p_fide[q], True  # spec §10, §13.10
        elif p_has_fide[q]:
            # spec §10: a FIDE rating is the start value, with index 6.
            r0[k], i0[k], has_i0[k], established[k] = p_fide[q], rp[R_FIDE_INDEX], True, True
            fide_start[k] = r0_is_fide[k] = True
        else:
            has_leftover_list[k] = True
            for slot in range(lo_start[p], lo_start[p] + lo_len[p]):
                if expired(lo_ymd[slot], ymd, rp[R_LEFTOVER_YEARS]):
                    continue  # spec §11: dropped
                kept[kept_used] = slot
                kept_used += 1
                rating = lo_rating[slot]
                if not lo_fide[slot]:  # spec §13.6
                    for c in range(conversions.shape[0]):
                        if lo_ymd[slot] <= conversions[c, 0] < ymd:
                            rating = convert(rating, conversions[c])
                usable_rating[used] = rating
                usable_points[used] = lo_points[slot]
                used += 1
        usable_start[k + 1] = used
        kept_start[k + 1] = kept_used

    # entries of games played at the board, in game order: (owner, opponent, owner's points)
    games = np.zeros(size, dtype=np.int64)
    played = 0
    for g in range(g0, g0 + count):
        games[g_white[g]] += 1
        games[g_black[g]] += 1
        if g_code[g] < 3:
            played += 1
    owner = np.empty(2 * played, dtype=np.int64)
    opponent = np.empty(2 * played, dtype=np.int64)
    points = np.empty(2 * played)
    e = 0
    for g in range(g0, g0 + count):
        code = g_code[g]
        if code < 3:
            white_points = 1.0 if code == 0 else (0.0 if code == 1 else 0.5)
            owner[e], opponent[e], points[e] = g_white[g], g_black[g], white_points
            owner[e + 1], opponent[e + 1], points[e + 1] = g_black[g], g_white[g], 1.0 - white_points
            e += 2

    # ---- stages (``tournament._select``)
    stage = np.zeros(size, dtype=np.int64)
    newcomers = np.empty(size, dtype=np.int64)
    newcomer_count = 0
    all_established = True
    for k in range(size):
        if not established[k]:
            stage[k] = UNRATED
            all_established = False
    if not all_established:
        pool = established.copy()
        for code in (STAGE1, STAGE2):
            stage_count = np.zeros(size, dtype=np.int64)
            stage_points = np.zeros(size)
            for e in range(owner.size):
                if stage[owner[e]] == UNRATED and pool[opponent[e]]:
                    stage_count[owner[e]] += 1
                    stage_points[owner[e]] += points[e]
            entering = np.zeros(size, dtype=np.bool_)
            for k in range(size):
                if stage[k] != UNRATED:
                    continue
                leftover_total = 0.0
                for a in range(usable_start[k], usable_start[k + 1]):
                    leftover_total += usable_points[a]
                games_here = stage_count[k] + usable_start[k + 1] - usable_start[k]
                score = stage_points[k] + leftover_total
                if games_here >= rp[R_MIN_GAMES] and score > 0 and score < games_here:
                    entering[k] = True
            for k in range(size):
                if entering[k]:
                    stage[k] = code
                    newcomers[newcomer_count] = k
                    newcomer_count += 1
                    pool[k] = True

    # rated entries: against Auswahl II only, as a stable counting sort by owner
    unrated = stage == UNRATED
    rated_start = np.zeros(size + 1, dtype=np.int64)
    for e in range(owner.size):
        if not unrated[owner[e]] and not unrated[opponent[e]]:
            rated_start[owner[e] + 1] += 1
    for k in range(size):
        rated_start[k + 1] += rated_start[k]
    fill = rated_start[:-1].copy()
    rated_opponent = np.empty(rated_start[size], dtype=np.int64)
    w = np.zeros(size)
    n = np.zeros(size, dtype=np.int64)
    for e in range(owner.size):
        if not unrated[owner[e]] and not unrated[opponent[e]]:
            k = owner[e]
            rated_opponent[fill[k]] = opponent[e]
            fill[k] += 1
            w[k] += points[e]
            n[k] += 1

    # ---- first ratings, performances, Ausnahmespieler (spec §13.2)
    anchor = r0.copy()  # R0 of an established player, Rh of an Ausnahmespieler
    ri = np.zeros(size)
    first = np.zeros(size, dtype=np.int64)
    if newcomer_count and not _joint_iteration(
        newcomers[:newcomer_count],
        anchor,
        established,
        rated_start,
        rated_opponent,
        w,
        usable_start,
        usable_rating,
        usable_points,
        ri,
    ):
        return _fallback(signal, JOINT)
    if not _first_ratings(newcomers[:newcomer_count], ri, first, first_params[r], rp[R_FIRST_KIND]):
        return _fallback(signal, FIRST_RATING)
    basis = r0.copy()
    for a in range(newcomer_count):
        basis[newcomers[a]] = first[newcomers[a]]
    rh = np.zeros(size, dtype=np.int64)
    has_rh = np.zeros(size, dtype=np.bool_)
    which = np.ones(size, dtype=np.bool_)
    if not _performances(
        which, stage, basis, ri, newcomers[:newcomer_count], usable_start, rated_start, rated_opponent, w, n, rp,
        half_table, limit, rh, has_rh,
    ):  # fmt: skip
        return _fallback(signal, PERFORMANCE)
    sonder = np.zeros(size, dtype=np.bool_)
    any_sonder = False
    for k in range(size):
        if established[k] and has_rh[k] and rh[k] - r0[k] > rp[R_SONDER]:
            sonder[k] = True
            any_sonder = True
    we_basis = basis
    if any_sonder:
        for k in range(size):
            if sonder[k]:
                anchor[k] = rh[k]
        if newcomer_count and not _joint_iteration(
            newcomers[:newcomer_count],
            anchor,
            established,
            rated_start,
            rated_opponent,
            w,
            usable_start,
            usable_rating,
            usable_points,
            ri,
        ):
            return _fallback(signal, JOINT)
        if not _first_ratings(newcomers[:newcomer_count], ri, first, first_params[r], rp[R_FIRST_KIND]):
            return _fallback(signal, FIRST_RATING)
        before_basis = basis
        basis = r0.copy()
        for a in range(newcomer_count):
            basis[newcomers[a]] = first[newcomers[a]]
        # Only newcomers' ratings moved: a performance against none of them stands.
        for k in range(size):
            which[k] = False
            if sonder[k]:
                continue
            against_moved = False
            for e in range(rated_start[k], rated_start[k + 1]):
                j = rated_opponent[e]
                against_moved = against_moved or basis[j] != before_basis[j]
            which[k] = not established[k] or against_moved
        if not _performances(
            which, stage, basis, ri, newcomers[:newcomer_count], usable_start, rated_start, rated_opponent, w, n,
            rp, half_table, limit, rh, has_rh,
        ):  # fmt: skip
            return _fallback(signal, PERFORMANCE)
        we_basis = basis.copy()
        for k in range(size):
            if sonder[k]:
                we_basis[k] = rh[k]  # We counts an Ausnahmespieler with his Rh (spec §9.6, §9.8)

    # ---- E or K and the new ratings (``tournament._conclude``)
    rn = np.zeros(size, dtype=np.int64)
    i_new = np.zeros(size, dtype=np.int64)
    has_rn = np.zeros(size, dtype=np.bool_)
    rated_after = np.zeros(size, dtype=np.bool_)
    stored = np.zeros(size, dtype=np.bool_)
    we = np.zeros(size)
    coefficient = np.zeros(size, dtype=np.int64)
    k_factor = np.zeros(size)
    for k in range(size):
        if not established[k]:
            continue
        if n[k] == 0:
            if not fide_start[k]:  # nothing rated: rating and index kept
                p = p_player[q0 + k]
                rn[k], i_new[k], has_rn[k] = st_rating[p], st_index[p], True
            continue
        expected = 0.0
        for e in range(rated_start[k], rated_start[k + 1]):
            slot = r0[k] - we_basis[rated_opponent[e]] + limit
            expected += at_table[min(max(slot, 0), 2 * limit)]
        at_least = w[k] > expected
        if abs(w[k] - expected) <= CLOSE:
            # W against We rounded to 9 decimals, exactly (spec §13.1); W is a multiple of ½.
            nines, ok = denoised(expected)
            if not ok:
                return _fallback(signal, EXPECTATION)
            at_least = w[k] * 1e9 >= nines
        index = max(i0[k], 1)  # spec §13.11
        rule_index = rp[R_COEFF_FIDE_INDEX] if fide_start[k] else index
        if r0[k] < 0 or r0[k] >= RATING_LIMIT:
            return _fallback(signal, TABLE_RANGE)  # beyond the range the integer arithmetic is shown for
        if rp[R_KIND] == 0:  # classic E (spec §6)
            group = rp[R_YOUTH] if ages[k] <= rp[R_YOUTH] else min(ages[k], rp[R_JUNIOR] + 1)
            cap = rp[R_CAP_PER_INDEX] * rule_index if rule_index <= rp[R_CAP_INDEX_LIMIT] else rp[R_CAP]
            unbounded, braked, ok = classic_e(r0[k], group, at_least, rp[R_YOUTH], rp[R_JUNIOR], coef[r])
            if not ok:
                return _fallback(signal, NEW_RATING)
            value = min(max(rp[R_EMIN], unbounded), rp[R_SBR_CAP] if braked else cap)
            rounded, ok = round_float(r0[k] + 800.0 * (w[k] - expected) / (value + n[k]))
            if not ok:
                return _fallback(signal, NEW_RATING)
            coefficient[k] = value
            rn[k] = rounded
        else:  # WO 2026 K (spec §7)
            group = rp[R_YOUTH] if ages[k] <= rp[R_YOUTH] else min(ages[k], rp[R_JUNIOR] + 1)
            column = min(max(rule_index, 2), 11) - 2
            factor = wo2026_k(r0[k], group, column, at_least, rp[R_YOUTH], rp[R_JUNIOR], coef[r])
            rounded, ok = round_float(r0[k] + factor * (w[k] - expected))
            if not ok:
                return _fallback(signal, NEW_RATING)
            k_factor[k] = factor
            rn[k] = max(rp[R_KFLOOR], rounded)
        published, ok = round_to(expected, 1e6, 1000)
        if not ok:
            return _fallback(signal, WE_ROUNDING)
        we[k] = published
        i_new[k], has_rn[k] = index + 1, True
        rated_after[k] = member[k]
        stored[k] = member[k]
    for a in range(newcomer_count):
        k = newcomers[a]
        rn[k], i_new[k], has_rn[k] = first[k], 1, True
        stored[k] = rated_after[k] = member[k]

    # new leftover games of members outside Auswahl II (spec §9.9), into the pool
    new_games = 0
    for k in range(size):
        if stage[k] == UNRATED and member[k]:
            new_games += kept_start[k + 1] - kept_start[k]
            for e in range(owner.size):
                if owner[e] == k and stage[opponent[e]] <= STAGE1:
                    new_games += 1
    if pool_used[0] + new_games > lo_tid.size:
        signal[2] = pool_used[0] + new_games
        return GROW

    # ---- everything is decided: the report rows and the states after it
    for k in range(size):
        q = q0 + k
        p = p_player[q]
        row = out_int[q]
        row[O_STAGE] = stage[k]
        row[O_MEMBER] = member[k]
        row[O_FIDE_START] = fide_start[k]
        row[O_R0], row[O_HAS_R0] = r0[k], established[k]
        row[O_I0], row[O_HAS_I0] = i0[k], has_i0[k]
        row[O_N] = n[k]
        row[O_UNRATED] = games[k] - n[k]
        live = established[k] and n[k] > 0
        row[O_HAS_WE] = live
        row[O_E], row[O_HAS_E] = coefficient[k], live and rp[R_KIND] == 0
        row[O_HAS_K] = live and rp[R_KIND] != 0
        row[O_RH], row[O_HAS_RH] = rh[k], has_rh[k]
        row[O_SONDER] = sonder[k]
        row[O_RN], row[O_HAS_RN], row[O_I_NEW] = rn[k], has_rn[k], i_new[k]
        row[O_STORED] = stored[k]
        row[O_LO_USED] = usable_start[k + 1] - usable_start[k] if stage[k] == STAGE1 or stage[k] == STAGE2 else 0
        row[O_LO_STORED] = 0
        row[O_BEFORE], row[O_HAS_BEFORE], row[O_BEFORE_INDEX] = st_rating[p], st_has[p], st_index[p]
        row[O_BEFORE_LO_START], row[O_BEFORE_LO_LEN] = lo_start[p], lo_len[p]
        out_float[q, F_W], out_float[q, F_WE], out_float[q, F_K] = w[k], we[k], k_factor[k]
        if rated_after[k]:
            st_rating[p], st_has[p], st_index[p] = rn[k], True, i_new[k]
            lo_len[p] = 0
            lo_start[p] = 0
        elif stage[k] == UNRATED and member[k]:
            start = pool_used[0]
            at = start
            for a in range(kept_start[k], kept_start[k + 1]):
                slot = kept[a]
                lo_tid[at], lo_ymd[at], lo_rating[at] = lo_tid[slot], lo_ymd[slot], lo_rating[slot]
                lo_points[at], lo_fide[at] = lo_points[slot], lo_fide[slot]
                at += 1
            for e in range(owner.size):
                if owner[e] != k:
                    continue
                j = opponent[e]
                if stage[j] == ESTABLISHED:
                    rating, fide = r0[j], r0_is_fide[j]
                elif stage[j] == STAGE1:
                    rating, fide = first[j], False
                else:
                    continue
                lo_tid[at], lo_ymd[at], lo_rating[at], lo_points[at], lo_fide[at] = (
                    t_id[t],
                    ymd,
                    rating,
                    points[e],
                    fide,
                )
                at += 1
            row[O_LO_STORED] = at - start - (kept_start[k + 1] - kept_start[k])
            lo_start[p], lo_len[p] = start, at - start
            pool_used[0] = at
        row[O_AFTER], row[O_HAS_AFTER], row[O_AFTER_INDEX] = st_rating[p], st_has[p], st_index[p]
        row[O_AFTER_LO_START], row[O_AFTER_LO_LEN] = lo_start[p], lo_len[p]
    return FINISHED


def _fallback(signal: Any, reason: int) -> int:
    signal[2] = reason
    return FALLBACK


def _joint_iteration(  # noqa: PLR0917
    newcomers: Any,
    anchor: Any,
    established: Any,
    rated_start: Any,
    rated_opponent: Any,
    w: Any,
    usable_start: Any,
    usable_rating: Any,
    usable_points: Any,
    ri: Any,
) -> bool:
    """spec §9.4 (``tournament._joint_iteration`` of one tournament): the newcomers' equations
    with established opponents at their anchors and usable leftover games, solved together."""
    count = newcomers.size
    unknown = np.full(anchor.size, -1, dtype=np.int64)
    for a in range(count):
        unknown[newcomers[a]] = a
    fixed_starts = np.zeros(count + 1, dtype=np.int64)
    coupled_starts = np.zeros(count + 1, dtype=np.int64)
    for a in range(count):
        k = newcomers[a]
        fixed_here = usable_start[k + 1] - usable_start[k]
        coupled_here = 0
        for e in range(rated_start[k], rated_start[k + 1]):
            if established[rated_opponent[e]]:
                fixed_here += 1
            else:
                coupled_here += 1
        fixed_starts[a + 1] = fixed_starts[a] + fixed_here
        coupled_starts[a + 1] = coupled_starts[a] + coupled_here
    fixed = np.empty(fixed_starts[count])
    coupled = np.empty(coupled_starts[count], dtype=np.int64)
    equation_points = np.empty(count)
    for a in range(count):
        k = newcomers[a]
        f, c = fixed_starts[a], coupled_starts[a]
        for e in range(rated_start[k], rated_start[k + 1]):
            j = rated_opponent[e]
            if established[j]:
                fixed[f] = anchor[j]
                f += 1
            else:
                coupled[c] = unknown[j]
                c += 1
        leftover_total = 0.0
        for u in range(usable_start[k], usable_start[k + 1]):
            fixed[f] = usable_rating[u]
            f += 1
            leftover_total += usable_points[u]
        equation_points[a] = w[k] + leftover_total
    x = np.empty(count)
    if not joint_solve(fixed, fixed_starts, coupled, coupled_starts, equation_points, x):
        return False
    for a in range(count):
        ri[newcomers[a]] = x[a]
    return True


def _first_ratings(newcomers: Any, ri: Any, first: Any, parameters: Any, kind: int) -> bool:
    """spec §9.7 (``rulesets.ClassicFirstRating`` or ``Wo2026FirstRating``)."""
    for a in range(newcomers.size):
        k = newcomers[a]
        value = ri[k]
        if kind == 0:
            below, base, divisor = parameters[0], parameters[1], parameters[2]
            rounded, ok = round_float(base + value / divisor if value < below else value)
            if not ok:
                return False
            first[k] = rounded
        else:
            keep_from, share, low_below, low_base = parameters[0], parameters[1], parameters[2], parameters[3]
            low_factor, low_divisor, floor = parameters[4], parameters[5], parameters[6]
            if value >= keep_from:
                moved = value
            elif value >= low_below:
                moved = value + share * (keep_from - value)
            else:
                moved = low_base + low_factor * value / low_divisor
            rounded, ok = round_float(moved)
            if not ok:
                return False
            first[k] = max(int(floor), rounded)
    return True


def _performances(  # noqa: PLR0917
    which: Any,
    stage: Any,
    basis: Any,
    ri: Any,
    newcomers: Any,
    usable_start: Any,
    rated_start: Any,
    rated_opponent: Any,
    w: Any,
    n: Any,
    rp: Any,
    half_table: Any,
    limit: int,
    rh: Any,
    has_rh: Any,
) -> bool:
    """spec §9.5, §13.3, §13.4 (``tournament._performances``): Rh of the players in ``which``."""
    size = which.size
    from_games = np.zeros(size, dtype=np.bool_)
    for k in range(size):
        if which[k]:
            has_rh[k] = False
            from_games[k] = stage[k] != UNRATED
    for a in range(newcomers.size):
        k = newcomers[a]
        if which[k] and usable_start[k + 1] == usable_start[k]:
            rounded, ok = round_float(ri[k])  # WO 3.6: a newcomer's Rh is his Ri
            if not ok:
                return False
            rh[k], has_rh[k] = rounded, True
            from_games[k] = False
    # every rated entry's opponent as performances count him; a player's are a slice (no copy)
    opponent_basis = np.empty(rated_opponent.size, dtype=np.int64)
    for e in range(rated_opponent.size):
        opponent_basis[e] = basis[rated_opponent[e]]
    for k in range(size):
        if not (from_games[k] and n[k] >= rp[R_MIN_GAMES] and w[k] > 0):
            continue
        value = 0
        ratings = opponent_basis[rated_start[k] : rated_start[k + 1]]
        if w[k] < n[k]:
            value, found = performance_search(ratings, w[k], half_table, limit)
            if not found:
                solved, ok = solve_rating(ratings.astype(np.float64), w[k])
                if not ok:
                    return False
                value, found = round_float(solved)
                if not found:
                    return False
        else:
            total = 0
            for rating in ratings:
                total += rating
            mean = total / ratings.size
            if rp[R_PERFECT] == 1:
                value, ok = round_float(mean + PERFECT_MARGIN)
            else:
                opponents = np.empty(ratings.size + 1)
                opponents[: ratings.size] = ratings
                opponents[ratings.size] = mean
                solved, ok = solve_rating(opponents, w[k] + 0.5)
                if ok:
                    value, ok = round_float(solved)
            if not ok:
                return False
        rh[k], has_rh[k] = value, True
    return True
