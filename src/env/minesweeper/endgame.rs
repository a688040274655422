//! The exhaustive endgame search: when few mine placements remain, the guess that wins most often.
//!
//! Every placement of the remaining mines that agrees with the board is listed (all equally
//! likely). Revealing a cell splits them: those with a mine there lose, the others are grouped by
//! the number the cell would show. The chance of winning from a set of placements is 1 when one
//! placement is left; otherwise the cells safe in all of them are revealed first (free
//! information), then the best guess is the cell whose groups have the highest total chance
//! (Tu et al. 2017's endgame search, JSMinesweeper's brute-force analysis). Sets already seen are
//! remembered; budgets of nodes and of work bound the search, and beyond them it gives up (the
//! player then guesses by probabilities).

use super::board::{Cell, Layout};
use super::solver::Analysis;
use std::collections::HashMap;

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
    memo: HashMap<Vec<u16>, f64>,
    nodes: usize,
    budget: usize,
    /// Cells times placements looked at so far.
    work: usize,
}

impl Search {
    /// The chance of winning from the placements `set` (sorted), or `None` past the budget.
    fn value(&mut self, set: &[u16]) -> Option<f64> {
        if set.len() <= 1 {
            return Some(1.0);
        }
        if let Some(&v) = self.memo.get(set) {
            return Some(v);
        }
        self.nodes += 1;
        self.work += self.values.len() * set.len();
        if self.nodes > self.budget || self.work > WORK {
            return None;
        }
        // Cells safe in every placement that tell them apart: reveal them all for free.
        let mut key: HashMap<Vec<u8>, Vec<u16>> = HashMap::new();
        let informative: Vec<usize> = (0..self.values.len())
            .filter(|&c| {
                let v = &self.values[c];
                set.iter().all(|&s| v[s as usize] != MINE)
                    && set.iter().any(|&s| v[s as usize] != v[set[0] as usize])
            })
            .collect();
        let result = if !informative.is_empty() {
            for &s in set {
                let signature: Vec<u8> = informative
                    .iter()
                    .map(|&c| self.values[c][s as usize])
                    .collect();
                key.entry(signature).or_default().push(s);
            }
            // Summed in a fixed order (a map's order changes from run to run, and so would the
            // last bit of the sum and the choice between tied guesses).
            let mut parts: Vec<Vec<u16>> = key.into_values().collect();
            parts.sort_unstable_by_key(|part| part[0]);
            let mut total = 0.0;
            for part in parts {
                total += part.len() as f64 * self.value(&part)?;
            }
            total / set.len() as f64
        } else {
            let (_, best) = self.best_guess(set)?;
            best
        };
        self.memo.insert(set.to_vec(), result);
        Some(result)
    }

    /// The guess with the best chance of winning from `set`: (cell index, chance).
    fn best_guess(&mut self, set: &[u16]) -> Option<(usize, f64)> {
        let mut best = (usize::MAX, -1.0);
        for c in 0..self.values.len() {
            let safe = set
                .iter()
                .filter(|&&s| self.values[c][s as usize] != MINE)
                .count();
            // A cell that is a mine everywhere, safe everywhere (then it tells nothing: `value`
            // reveals those that do), or that cannot beat the best even if every safe outcome
            // were won, is not worth searching.
            if safe == 0 || safe == set.len() || (safe as f64) / (set.len() as f64) <= best.1 {
                continue;
            }
            let mut parts: Vec<Vec<u16>> = vec![Vec::new(); 9];
            for &s in set {
                let v = self.values[c][s as usize];
                if v != MINE {
                    parts[v as usize].push(s);
                }
            }
            let mut total = 0.0;
            for part in parts.iter().filter(|p| !p.is_empty()) {
                total += part.len() as f64 * self.value(part)?;
            }
            let chance = total / set.len() as f64;
            if chance > best.1 {
                best = (c, chance);
            }
        }
        Some(best)
    }
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
    // Unsettled covered cells, and the mines left for them.
    let unknown: Vec<usize> = (0..cells.len())
        .filter(|&c| {
            !matches!(cells[c], Cell::Revealed(_))
                && analysis.probabilities[c] > 0.0
                && analysis.probabilities[c] < 1.0
        })
        .collect();
    let mines_left = layout.mines - analysis.mines.len();
    let index: HashMap<usize, usize> = unknown.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    // Numbers: how many mines they still need among unknown cells.
    let mut constraints: Vec<(i32, Vec<usize>)> = Vec::new();
    for (cell, &look) in cells.iter().enumerate() {
        if let Cell::Revealed(n) = look {
            let mut need = n as i32;
            let mut around = Vec::new();
            for x in layout.neighbours(cell).iter() {
                if let Some(&i) = index.get(&x) {
                    around.push(i);
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
    let mut need: Vec<i32> = constraints.iter().map(|c| c.0).collect();
    let mut free: Vec<i32> = constraints.iter().map(|c| c.1.len() as i32).collect();
    let mut current = vec![false; unknown.len()];
    let mut out: Vec<Vec<bool>> = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        i: usize,
        left: usize,
        of_cell: &[Vec<usize>],
        need: &mut [i32],
        free: &mut [i32],
        current: &mut Vec<bool>,
        out: &mut Vec<Vec<bool>>,
        limit: usize,
        steps: &mut usize,
    ) -> bool {
        // Independent parts of the frontier multiply the partial placements the backtracking
        // visits, most of which the mine count rules out only at the end: past the budget,
        // give up (as when there are too many placements).
        *steps += 1;
        if *steps > STEPS {
            return false;
        }
        let n = current.len();
        if left > n - i {
            return true;
        }
        if i == n {
            if left == 0 {
                if out.len() >= limit {
                    return false;
                }
                out.push(current.clone());
            }
            return true;
        }
        for mine in [false, true] {
            if mine && left == 0 {
                continue;
            }
            let ok = of_cell[i].iter().all(|&k| {
                let need_after = need[k] - mine as i32;
                need_after >= 0 && need_after < free[k]
            });
            if !ok {
                continue;
            }
            for &k in &of_cell[i] {
                need[k] -= mine as i32;
                free[k] -= 1;
            }
            current[i] = mine;
            let keep_going = go(
                i + 1,
                left - mine as usize,
                of_cell,
                need,
                free,
                current,
                out,
                limit,
                steps,
            );
            current[i] = false;
            for &k in &of_cell[i] {
                need[k] += mine as i32;
                free[k] += 1;
            }
            if !keep_going {
                return false;
            }
        }
        true
    }
    if !go(
        0,
        mines_left,
        &of_cell,
        &mut need,
        &mut free,
        &mut current,
        &mut out,
        limit,
        &mut 0,
    ) {
        return None;
    }
    Some((unknown, out))
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
    // What each unknown cell shows in each placement (mines around it: the known ones, and the
    // unknown ones of that placement).
    let position: HashMap<usize, usize> =
        unknown.iter().enumerate().map(|(i, &c)| (c, i)).collect();
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
                                .filter(|x| position.get(x).is_some_and(|&j| placement[j]))
                                .count() as u8
                    }
                })
                .collect()
        })
        .collect();
    let mut search = Search {
        values,
        memo: HashMap::new(),
        nodes: 0,
        work: 0,
        budget: limit * NODES_PER_PLACEMENT,
    };
    let all: Vec<u16> = (0..list.len() as u16).collect();
    let (best, chance) = search.best_guess(&all)?;
    (best != usize::MAX).then(|| (unknown[best], chance))
}
