//! The exhaustive endgame search: when few mine placements remain, the guess that wins most often.
//!
//! Every placement of the remaining mines that agrees with the board is listed (all equally
//! likely). Revealing a cell splits them: those with a mine there lose, the others are grouped by
//! the number the cell would show. The chance of winning from a set of placements is 1 when one
//! placement is left; otherwise the cells safe in all of them are revealed first (free
//! information), then the best guess is the cell whose groups have the highest total chance
//! (Tu et al. 2017's endgame search, JSMinesweeper's brute-force analysis); of equally good
//! guesses, the first cell.
//!
//! Pruning, none of which changes the answer: guesses are tried safest first, and one safe in
//! fewer placements than the best so far wins is not tried; a guess's largest groups are searched
//! first, and once what they lose rules it out the others are not (a search below a threshold
//! only proves that the chance falls short of it, and that bound is remembered too); a cell the
//! same in every placement of a set (a mine, or one number) is not looked at in its subsets.
//! Chances are counted as whole numbers of placements won, so no cut or tie is decided by a
//! rounded product. Sets already seen are remembered; budgets of nodes and of work bound the search, and beyond
//! them it gives up (the player then guesses by probabilities). The test
//! `the_endgame_search_finds_the_chance_of_best_play_on_300_random_positions` holds it to the
//! plain recursion.

use super::board::{Cell, Layout};
use super::solver::Analysis;
use crate::hash::FastMap;

/// Searched by default only when at most this many placements remain ([`super::Strategy`]).
pub const MAX_PLACEMENTS: usize = 1000;
/// Search nodes (sets of placements evaluated) a placement allowed, before giving up.
const NODES_PER_PLACEMENT: usize = 100;
/// Cells times placements the search may look at in all, before giving up (a few tens of
/// milliseconds): a node looks at each of its cells in each of its placements (about twice),
/// so the node budget alone would let a node-rich position search for seconds.
const WORK: usize = 10_000_000;
/// Steps the listing of placements may take (a few milliseconds).
const STEPS: usize = 1_000_000;

/// Value shown by a cell in a placement: 0–8, or `MINE`.
const MINE: u8 = u8::MAX;

struct Search {
    /// `values[cell][s]`: what candidate `cell` shows in placement `s` (or `MINE`).
    values: Vec<Vec<u8>>,
    /// Sets and how many of their placements best play wins.
    memo: FastMap<Vec<u16>, u32>,
    /// Sets whose wins are known to be at most this (found below a threshold).
    bounds: FastMap<Vec<u16>, u32>,
    nodes: usize,
    budget: usize,
    /// Cells times placements looked at so far.
    work: usize,
}

/// `set` split by the value `cell` shows (`values[cell]`), mines left out, each part in the order
/// of `set`, the parts by value.
fn split(values: &[u8], set: &[u16], parts: &mut Vec<Vec<u16>>) {
    let mut by_value: [Vec<u16>; 9] = Default::default();
    for &s in set {
        let v = values[s as usize];
        if v != MINE {
            by_value[v as usize].push(s);
        }
    }
    parts.extend(by_value.into_iter().filter(|part| !part.is_empty()));
}

impl Search {
    /// The cells of `cells` that can still tell placements of `set` apart or be guessed: not the
    /// same (a mine, or one number) in all of them. Subsets of `set` need look at no others.
    fn living(&self, set: &[u16], cells: &[usize]) -> Vec<usize> {
        cells
            .iter()
            .copied()
            .filter(|&c| {
                let v = &self.values[c];
                let first = v[set[0] as usize];
                set.iter().any(|&s| v[s as usize] != first)
            })
            .collect()
    }

    /// How many of the placements `set` (sorted) best play wins, where only `cells` may tell
    /// them apart, or `None` past the budget. Only a count of at least `alpha` matters: the
    /// answer is `(wins, true)`, or `(bound, false)` when the count is at most `bound` and
    /// `bound < alpha`. Counts are whole numbers, so no comparison here rounds.
    fn value(&mut self, set: &[u16], cells: &[usize], alpha: i64) -> Option<(i64, bool)> {
        let n = set.len() as i64;
        if n <= 1 {
            return Some((n, true));
        }
        if alpha > n {
            return Some((n, false));
        }
        if let Some(&wins) = self.memo.get(set) {
            return Some((wins as i64, true));
        }
        if let Some(&bound) = self.bounds.get(set) {
            if (bound as i64) < alpha {
                return Some((bound as i64, false));
            }
        }
        self.nodes += 1;
        self.work += cells.len() * set.len();
        if self.nodes > self.budget || self.work > WORK {
            return None;
        }
        let living = self.living(set, cells);
        // Cells safe in every placement that tell them apart: reveal them all for free, splitting
        // the set by what each shows in turn.
        let mut parts: Vec<Vec<u16>> = vec![set.to_vec()];
        let mut informative = false;
        for &c in &living {
            let v = &self.values[c];
            if set.iter().any(|&s| v[s as usize] == MINE) {
                continue;
            }
            informative = true;
            let mut finer = Vec::with_capacity(parts.len() + 1);
            for part in &parts {
                split(v, part, &mut finer);
            }
            parts = finer;
        }
        let result = if informative {
            self.sum(&parts, set.len(), &living, alpha)?
        } else {
            let (_, wins, exact) = self.best_guess(set, &living, alpha)?;
            (wins, exact)
        };
        if result.1 {
            self.memo.insert(set.to_vec(), result.0 as u32);
        } else {
            let bound = self.bounds.entry(set.to_vec()).or_insert(result.0 as u32);
            *bound = (*bound).min(result.0 as u32);
        }
        Some(result)
    }

    /// How many placements best play wins from a set split into `parts` (`safe` placements in
    /// all, the others lose), as [`Search::value`] gives it for `alpha`: the largest parts are
    /// searched first, and once what they lose leaves less than `alpha`, the rest are not.
    fn sum(
        &mut self,
        parts: &[Vec<u16>],
        safe: usize,
        cells: &[usize],
        alpha: i64,
    ) -> Option<(i64, bool)> {
        let mut order: Vec<&Vec<u16>> = parts.iter().collect();
        order.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        let (mut won, mut rest) = (0i64, safe as i64);
        for part in order {
            rest -= part.len() as i64;
            // The part must win at least this for the set to reach `alpha`.
            let need = alpha - won - rest;
            let (wins, exact) = self.value(part, cells, need)?;
            won += wins;
            if !exact || won + rest < alpha {
                return Some((won + rest, false));
            }
        }
        Some((won, true))
    }

    /// The guess among `cells` that wins the most placements of `set`, as [`Search::value`]
    /// gives it for `alpha`: `(cell index, wins, true)`, or `(usize::MAX, bound, false)` when no
    /// guess reaches `alpha`. Of equally good guesses, the first cell.
    fn best_guess(
        &mut self,
        set: &[u16],
        cells: &[usize],
        alpha: i64,
    ) -> Option<(usize, i64, bool)> {
        // Cells by how many placements they are safe in, most first: a cell can win at most its
        // safe placements, so once a guess wins more the rest need no search.
        let mut by_safety: Vec<(usize, usize)> = cells
            .iter()
            .map(|&c| {
                let v = &self.values[c];
                let safe = set.iter().filter(|&&s| v[s as usize] != MINE).count();
                (safe, c)
            })
            // A cell that is a mine everywhere, or safe everywhere (then it tells nothing:
            // `value` reveals those that do), is not worth searching.
            .filter(|&(safe, _)| safe > 0 && safe < set.len())
            .collect();
        by_safety.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let (mut best, mut bar) = (usize::MAX, alpha);
        // The most any guess cut short could win (below `bar`).
        let mut ceiling = 0;
        let mut parts = Vec::with_capacity(9);
        for (safe, c) in by_safety {
            if (safe as i64) < bar {
                ceiling = ceiling.max(safe as i64);
                break;
            }
            parts.clear();
            split(&self.values[c], set, &mut parts);
            let (wins, exact) = self.sum(&parts, safe, cells, bar)?;
            if !exact {
                ceiling = ceiling.max(wins);
            } else if wins > bar || (wins == bar && (best == usize::MAX || c < best)) {
                (best, bar) = (c, wins);
            }
        }
        Some(if best != usize::MAX {
            (best, bar, true)
        } else {
            // No guess reaches `alpha` (with no threshold, there was no guess to make).
            (best, ceiling, alpha <= 0)
        })
    }
}

/// Covered cells whose fate the numbers did not settle.
fn unsettled(cells: &[Cell], analysis: &Analysis) -> Vec<usize> {
    (0..cells.len())
        .filter(|&c| {
            !matches!(cells[c], Cell::Revealed(_))
                && analysis.probabilities[c] > 0.0
                && analysis.probabilities[c] < 1.0
        })
        .collect()
}

/// Every placement of the layout's mines on the covered cells that agrees with the numbers, as
/// the list of covered cells holding a mine; `None` when there are more than `limit`, or when
/// listing them would take more than [`STEPS`] steps.
pub(super) fn placements(
    layout: &Layout,
    cells: &[Cell],
    analysis: &Analysis,
    limit: usize,
) -> Option<(Vec<usize>, Vec<Vec<bool>>)> {
    let unknown = unsettled(cells, analysis);
    let mines_left = layout.mines - analysis.mines.len();
    let list = list(layout, cells, analysis, &unknown, mines_left, limit)?;
    Some((unknown, list))
}

/// The placements of `mines` mines on the `unknown` cells (every unsettled cell) that agree with
/// the numbers. `None` past `limit` placements or [`STEPS`] steps.
fn list(
    layout: &Layout,
    cells: &[Cell],
    analysis: &Analysis,
    unknown: &[usize],
    mines: usize,
    limit: usize,
) -> Option<Vec<Vec<bool>>> {
    let mut index = vec![usize::MAX; cells.len()];
    for (i, &c) in unknown.iter().enumerate() {
        index[c] = i;
    }
    // Numbers: how many mines they still need among unknown cells.
    let mut constraints: Vec<(i32, Vec<usize>)> = Vec::new();
    for (cell, &look) in cells.iter().enumerate() {
        if let Cell::Revealed(n) = look {
            let mut need = n as i32;
            let mut around = Vec::new();
            for x in layout.neighbours(cell).iter() {
                if index[x] != usize::MAX {
                    around.push(index[x]);
                } else if analysis.mines.binary_search(&x).is_ok() {
                    need -= 1;
                }
            }
            if !around.is_empty() {
                constraints.push((need, around));
            }
        }
    }
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); unknown.len()];
    for (k, (_, around)) in constraints.iter().enumerate() {
        for &i in around {
            of_cell[i].push(k);
        }
    }
    struct Listing<'a> {
        of_cell: &'a [Vec<usize>],
        need: Vec<i32>,
        free: Vec<i32>,
        current: Vec<bool>,
        out: Vec<Vec<bool>>,
        limit: usize,
        steps: usize,
    }
    impl Listing<'_> {
        /// Places cells `i..` with `left` mines to go; false to give up.
        fn go(&mut self, i: usize, left: usize) -> bool {
            // Independent parts of the frontier multiply the partial placements the backtracking
            // visits, most of which the mine count rules out only at the end: past the budget,
            // give up (as when there are too many placements).
            self.steps += 1;
            if self.steps > STEPS {
                return false;
            }
            let n = self.current.len();
            if left > n - i {
                return true;
            }
            if i == n {
                if left == 0 {
                    if self.out.len() >= self.limit {
                        return false;
                    }
                    self.out.push(self.current.clone());
                }
                return true;
            }
            for mine in [false, true] {
                if mine && left == 0 {
                    continue;
                }
                let ok = self.of_cell[i].iter().all(|&k| {
                    let need_after = self.need[k] - mine as i32;
                    need_after >= 0 && need_after < self.free[k]
                });
                if !ok {
                    continue;
                }
                for &k in &self.of_cell[i] {
                    self.need[k] -= mine as i32;
                    self.free[k] -= 1;
                }
                self.current[i] = mine;
                let keep_going = self.go(i + 1, left - mine as usize);
                self.current[i] = false;
                for &k in &self.of_cell[i] {
                    self.need[k] += mine as i32;
                    self.free[k] += 1;
                }
                if !keep_going {
                    return false;
                }
            }
            true
        }
    }
    let mut listing = Listing {
        of_cell: &of_cell,
        need: constraints.iter().map(|c| c.0).collect(),
        free: constraints.iter().map(|c| c.1.len() as i32).collect(),
        current: vec![false; unknown.len()],
        out: Vec::new(),
        limit,
        steps: 0,
    };
    listing.go(0, mines).then_some(listing.out)
}

/// The best guess among `unknown` cells and its chance of winning, from their `list` of
/// placements (all equally likely); `None` past the search's budgets.
fn search(
    layout: &Layout,
    analysis: &Analysis,
    unknown: &[usize],
    list: &[Vec<bool>],
) -> Option<(usize, f64)> {
    // What each unknown cell shows in each placement (mines around it: the known ones, and the
    // unknown ones of that placement).
    let mut position = vec![usize::MAX; analysis.probabilities.len()];
    for (i, &c) in unknown.iter().enumerate() {
        position[c] = i;
    }
    let values: Vec<Vec<u8>> = unknown
        .iter()
        .enumerate()
        .map(|(i, &cell)| {
            let around = layout.neighbours(cell);
            let known = around
                .iter()
                .filter(|x| analysis.mines.binary_search(x).is_ok())
                .count() as u8;
            list.iter()
                .map(|placement| {
                    if placement[i] {
                        MINE
                    } else {
                        known
                            + around
                                .iter()
                                .filter(|&x| position[x] != usize::MAX && placement[position[x]])
                                .count() as u8
                    }
                })
                .collect()
        })
        .collect();
    let mut search = Search {
        values,
        memo: FastMap::default(),
        bounds: FastMap::default(),
        nodes: 0,
        work: 0,
        budget: list.len() * NODES_PER_PLACEMENT,
    };
    let all: Vec<u16> = (0..list.len() as u16).collect();
    let cells: Vec<usize> = (0..unknown.len()).collect();
    let (best, wins, _) = search.best_guess(&all, &cells, 0)?;
    (best != usize::MAX).then(|| (unknown[best], wins as f64 / list.len() as f64))
}

/// The guess that wins most often when at most `limit` placements remain (and the listing and the
/// search fit their budgets: [`STEPS`]; 100 nodes a placement and [`WORK`]): `(cell, chance of
/// winning)`. `None` otherwise, or when a cell is certain (the search is for guesses).
pub fn endgame_guess(
    layout: &Layout,
    cells: &[Cell],
    analysis: &Analysis,
    limit: usize,
) -> Option<(usize, f64)> {
    if limit < 2
        || !analysis.safe.is_empty()
        || analysis.log10_placements > (limit as f64).log10() + 1e-9
    {
        return None;
    }
    // Placements are numbered with 16 bits.
    let limit = limit.min(u16::MAX as usize);
    let (unknown, list) = placements(layout, cells, analysis, limit)?;
    if list.len() < 2 {
        return None;
    }
    search(layout, analysis, &unknown, &list)
}
