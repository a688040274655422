//! The techniques of the logical solver, one finder each: each returns the first place on the
//! board where its technique applies, as a [`Step`], or `None`.

use super::{Board, Step, Technique};

fn digits_of(mask: u16) -> impl Iterator<Item = u8> {
    (1..16u8).filter(move |d| mask & (1 << d) != 0)
}

/// Every subset of `k` items of `items` (in order), passed to `visit` until it returns `Some`.
fn subsets<T: Copy, R>(
    items: &[T],
    k: usize,
    visit: &mut impl FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[T],
        k: usize,
        start: usize,
        chosen: &mut Vec<T>,
        visit: &mut impl FnMut(&[T]) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return visit(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            let found = go(items, k, i + 1, chosen, visit);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    go(items, k, 0, &mut Vec::with_capacity(k), visit)
}

impl Board {
    pub(super) fn hidden_single(&self, in_box: bool) -> Option<Step> {
        let n = self.shape.size;
        let range = if in_box { 2 * n..3 * n } else { 0..2 * n };
        for unit in range {
            for digit in 1..=n as u8 {
                let places = self.places(unit, digit);
                if places.len() == 1 {
                    let mut step = Board::step(if in_box {
                        Technique::HiddenSingleBox
                    } else {
                        Technique::HiddenSingleLine
                    });
                    step.placements.push((places[0], digit));
                    step.cells = places;
                    step.units.push(unit);
                    step.digits.push(digit);
                    return Some(step);
                }
            }
        }
        None
    }

    pub(super) fn naked_single(&self) -> Option<Step> {
        let cell = (0..self.cells.len())
            .find(|&c| self.cells[c] == 0 && self.candidates[c].count_ones() == 1)?;
        let digit = self.candidates[cell].trailing_zeros() as u8;
        let mut step = Board::step(Technique::NakedSingle);
        step.placements.push((cell, digit));
        step.cells.push(cell);
        step.digits.push(digit);
        Some(step)
    }

    /// A hidden single the eliminations leave (for the "direct" techniques): the placement.
    pub(super) fn single_after(&self, eliminations: &[(usize, u8)]) -> Option<(usize, u8, usize)> {
        let mut after = self.clone();
        for &(c, d) in eliminations {
            after.candidates[c] &= !(1 << d);
        }
        let mut digits: Vec<u8> = eliminations.iter().map(|&(_, d)| d).collect();
        digits.sort_unstable();
        digits.dedup();
        for unit in 0..self.units.len() {
            for &d in &digits {
                let places = after.places(unit, d);
                if places.len() == 1 && self.places(unit, d).len() > 1 {
                    return Some((places[0], d, unit));
                }
            }
        }
        // The eliminations may also leave a cell one candidate (then a naked single follows,
        // which is not "direct" in SE's sense): not counted.
        None
    }

    /// Pointing (`from_box`: a box's digit on one line) and claiming (a line's digit in one box).
    pub(super) fn locked(&self, from_box: bool, direct: bool) -> Option<Step> {
        let n = self.shape.size;
        let (bases, targets) = if from_box {
            (2 * n..3 * n, 0..2 * n)
        } else {
            (0..2 * n, 2 * n..3 * n)
        };
        for base in bases {
            for digit in 1..=n as u8 {
                let places = self.places(base, digit);
                if places.len() < 2 {
                    continue;
                }
                for target in targets.clone() {
                    if !places.iter().all(|c| self.units[target].contains(c)) {
                        continue;
                    }
                    let eliminations: Vec<(usize, u8)> = self
                        .places(target, digit)
                        .into_iter()
                        .filter(|c| !places.contains(c))
                        .map(|c| (c, digit))
                        .collect();
                    if eliminations.is_empty() {
                        continue;
                    }
                    let technique = match (from_box, direct) {
                        (true, false) => Technique::Pointing,
                        (false, false) => Technique::Claiming,
                        (true, true) => Technique::DirectPointing,
                        (false, true) => Technique::DirectClaiming,
                    };
                    let mut step = Board::step(technique);
                    if direct {
                        let Some(single) = self.single_after(&eliminations) else {
                            continue;
                        };
                        step.placements.push((single.0, single.1));
                    }
                    step.eliminations = eliminations;
                    step.cells = places.clone();
                    step.units = vec![base, target];
                    step.digits.push(digit);
                    return Some(step);
                }
            }
        }
        None
    }

    pub(super) fn naked_subset(&self, k: usize) -> Option<Step> {
        for (u, unit) in self.units.iter().enumerate() {
            let open: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| self.cells[c] == 0 && self.candidates[c].count_ones() as usize <= k)
                .collect();
            let empties = unit.iter().filter(|&&c| self.cells[c] == 0).count();
            if empties <= k {
                continue;
            }
            let found = subsets(&open, k, &mut |chosen: &[usize]| {
                let union = chosen.iter().fold(0u16, |m, &c| m | self.candidates[c]);
                if union.count_ones() as usize != k {
                    return None;
                }
                let eliminations: Vec<(usize, u8)> = unit
                    .iter()
                    .copied()
                    .filter(|c| !chosen.contains(c))
                    .flat_map(|c| digits_of(self.candidates[c] & union).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Board::step(match k {
                    2 => Technique::NakedPair,
                    3 => Technique::NakedTriple,
                    _ => Technique::NakedQuad,
                });
                step.eliminations = eliminations;
                step.cells = chosen.to_vec();
                step.units.push(u);
                step.digits = digits_of(union).collect();
                Some(step)
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    pub(super) fn hidden_subset(&self, k: usize, direct: bool) -> Option<Step> {
        let n = self.shape.size;
        for (u, unit) in self.units.iter().enumerate() {
            let open: Vec<u8> = (1..=n as u8)
                .filter(|&d| {
                    let p = self.places(u, d).len();
                    p >= 1 && p <= k
                })
                .collect();
            let empties = unit.iter().filter(|&&c| self.cells[c] == 0).count();
            if empties <= k {
                continue;
            }
            let found = subsets(&open, k, &mut |chosen: &[u8]| {
                let mut cells: Vec<usize> =
                    chosen.iter().flat_map(|&d| self.places(u, d)).collect();
                cells.sort_unstable();
                cells.dedup();
                if cells.len() != k {
                    return None;
                }
                let keep = chosen.iter().fold(0u16, |m, &d| m | 1 << d);
                let eliminations: Vec<(usize, u8)> = cells
                    .iter()
                    .flat_map(|&c| digits_of(self.candidates[c] & !keep).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Board::step(match (k, direct) {
                    (2, false) => Technique::HiddenPair,
                    (3, false) => Technique::HiddenTriple,
                    (2, true) => Technique::DirectHiddenPair,
                    (3, true) => Technique::DirectHiddenTriple,
                    _ => Technique::HiddenQuad,
                });
                if direct {
                    let single = self.single_after(&eliminations)?;
                    step.placements.push((single.0, single.1));
                }
                step.eliminations = eliminations;
                step.cells = cells;
                step.units.push(u);
                step.digits = chosen.to_vec();
                Some(step)
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// X-wing (k = 2), swordfish (3), jellyfish (4): rows as bases, then columns.
    pub(super) fn fish(&self, k: usize) -> Option<Step> {
        let n = self.shape.size;
        for digit in 1..=n as u8 {
            for rows_are_bases in [true, false] {
                let (base_range, cover_offset) = if rows_are_bases {
                    (0..n, n)
                } else {
                    (n..2 * n, 0)
                };
                // For each base line, the set of cover lines (as a bit mask) the digit lies in.
                let lines: Vec<(usize, u32)> = base_range
                    .filter_map(|b| {
                        let places = self.places(b, digit);
                        if places.len() < 2 || places.len() > k {
                            return None;
                        }
                        let mask = places.iter().fold(0u32, |m, &c| {
                            m | 1 << if rows_are_bases { c % n } else { c / n }
                        });
                        Some((b, mask))
                    })
                    .collect();
                let found = subsets(&lines, k, &mut |chosen: &[(usize, u32)]| {
                    let covers = chosen.iter().fold(0u32, |m, &(_, mask)| m | mask);
                    if covers.count_ones() as usize != k {
                        return None;
                    }
                    let bases: Vec<usize> = chosen.iter().map(|&(b, _)| b).collect();
                    let mut eliminations = Vec::new();
                    for line in 0..n {
                        if covers & (1 << line) == 0 {
                            continue;
                        }
                        for c in self.places(cover_offset + line, digit) {
                            let base = if rows_are_bases { c / n } else { n + c % n };
                            if !bases.contains(&base) {
                                eliminations.push((c, digit));
                            }
                        }
                    }
                    if eliminations.is_empty() {
                        return None;
                    }
                    let mut step = Board::step(match k {
                        2 => Technique::XWing,
                        3 => Technique::Swordfish,
                        _ => Technique::Jellyfish,
                    });
                    step.eliminations = eliminations;
                    step.cells = bases.iter().flat_map(|&b| self.places(b, digit)).collect();
                    step.units = bases;
                    step.digits.push(digit);
                    Some(step)
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    pub(super) fn xy_wing(&self) -> Option<Step> {
        let bivalue: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.candidates[c].count_ones() == 2)
            .collect();
        for &pivot in &bivalue {
            let pm = self.candidates[pivot];
            let wings: Vec<usize> = bivalue
                .iter()
                .copied()
                .filter(|&w| self.sees(pivot, w) && (self.candidates[w] & pm).count_ones() == 1)
                .collect();
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (ma, mb) = (self.candidates[a], self.candidates[b]);
                    let z = (ma & mb) & !pm;
                    // a = xz, b = yz with x ≠ y: they share z only, and cover the pivot's two.
                    if z.count_ones() != 1 || (ma | mb) & pm != pm || ma == mb {
                        continue;
                    }
                    let digit = z.trailing_zeros() as u8;
                    // The pivot holds no z: only cells that see both pincers lose it.
                    let eliminations = self.seen_by_all(digit, &[a, b]);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Board::step(Technique::XyWing);
                    step.eliminations = eliminations;
                    step.cells = vec![pivot, a, b];
                    step.digits = digits_of(pm).chain([digit]).collect();
                    return Some(step);
                }
            }
        }
        None
    }

    pub(super) fn xyz_wing(&self) -> Option<Step> {
        for pivot in 0..self.cells.len() {
            let pm = self.candidates[pivot];
            if pm.count_ones() != 3 {
                continue;
            }
            let wings: Vec<usize> = (0..self.cells.len())
                .filter(|&w| {
                    let m = self.candidates[w];
                    m.count_ones() == 2 && m & pm == m && self.sees(pivot, w)
                })
                .collect();
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (ma, mb) = (self.candidates[a], self.candidates[b]);
                    let z = ma & mb;
                    if z.count_ones() != 1 || ma | mb != pm {
                        continue;
                    }
                    let digit = z.trailing_zeros() as u8;
                    let eliminations = self.seen_by_all(digit, &[pivot, a, b]);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Board::step(Technique::XyzWing);
                    step.eliminations = eliminations;
                    step.cells = vec![pivot, a, b];
                    step.digits = digits_of(pm & !z).chain([digit]).collect();
                    return Some(step);
                }
            }
        }
        None
    }

    /// Unique rectangle type 1 (assumes the puzzle has one solution, as rated puzzles do).
    pub(super) fn unique_rectangle(&self) -> Option<Step> {
        let n = self.shape.size;
        let s = self.shape;
        for r1 in 0..n {
            for r2 in r1 + 1..n {
                for c1 in 0..n {
                    for c2 in c1 + 1..n {
                        let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                        let boxes = {
                            let mut b: Vec<usize> = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                                .iter()
                                .map(|&(r, c)| s.box_of(r, c))
                                .collect();
                            b.sort_unstable();
                            b.dedup();
                            b.len()
                        };
                        if boxes != 2 || corners.iter().any(|&c| self.cells[c] != 0) {
                            continue;
                        }
                        let pairs: Vec<usize> = corners
                            .iter()
                            .copied()
                            .filter(|&c| self.candidates[c].count_ones() == 2)
                            .collect();
                        if pairs.len() != 3 {
                            continue;
                        }
                        let ab = self.candidates[pairs[0]];
                        if pairs.iter().any(|&c| self.candidates[c] != ab) {
                            continue;
                        }
                        let fourth = *corners.iter().find(|c| !pairs.contains(c))?;
                        if self.candidates[fourth] & ab != ab {
                            continue;
                        }
                        let mut step = Board::step(Technique::UniqueRectangle);
                        step.eliminations = digits_of(ab).map(|d| (fourth, d)).collect();
                        step.cells = corners.to_vec();
                        step.digits = digits_of(ab).collect();
                        return Some(step);
                    }
                }
            }
        }
        None
    }

    pub(super) fn bug(&self) -> Option<Step> {
        let open: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c] == 0)
            .collect();
        let triple: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| self.candidates[c].count_ones() != 2)
            .collect();
        if triple.len() != 1 || self.candidates[triple[0]].count_ones() != 3 {
            return None;
        }
        let cell = triple[0];
        let row = self.shape.units_of(cell)[0];
        let digit = digits_of(self.candidates[cell]).find(|&d| self.places(row, d).len() == 3)?;
        let mut step = Board::step(Technique::BivalueUniversalGrave);
        step.placements.push((cell, digit));
        step.cells.push(cell);
        step.digits.push(digit);
        Some(step)
    }

    /// Assumes each candidate in turn (cells with fewest candidates first) and propagates: with
    /// singles only (`nested` false), or with every technique up to the bivalue grave. A
    /// contradiction removes the candidate; the step's rating grows with the chain's length.
    pub(super) fn forcing_chain(&self, nested: bool) -> Option<Step> {
        let mut order: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c] == 0)
            .collect();
        order.sort_by_key(|&c| (self.candidates[c].count_ones(), c));
        let mut best: Option<(usize, Step)> = None;
        for &cell in &order {
            for digit in digits_of(self.candidates[cell]) {
                let mut trial = self.clone();
                trial.place(cell, digit);
                let mut length = 1;
                let contradiction = loop {
                    if trial.is_broken() {
                        break true;
                    }
                    let hardest = if nested {
                        Technique::BivalueUniversalGrave
                    } else {
                        Technique::NakedSingle
                    };
                    let step = if nested {
                        trial.next_step(hardest)
                    } else {
                        trial
                            .find(Technique::HiddenSingleBox)
                            .or_else(|| trial.find(Technique::HiddenSingleLine))
                            .or_else(|| trial.find(Technique::NakedSingle))
                    };
                    match step {
                        Some(step) => {
                            trial.apply(&step);
                            length += 1;
                        }
                        None => break false,
                    }
                };
                if contradiction && best.as_ref().is_none_or(|(l, _)| length < *l) {
                    let technique = if nested {
                        Technique::NestedForcingChain
                    } else {
                        Technique::ForcingChain
                    };
                    let mut step = Board::step(technique);
                    step.rating = if nested {
                        (9.0 + 0.1 * (length as f32 / 4.0).floor()).min(10.5)
                    } else {
                        (6.6 + 0.1 * (length as f32 / 3.0).floor()).min(8.0)
                    };
                    step.eliminations.push((cell, digit));
                    step.cells.push(cell);
                    step.digits.push(digit);
                    best = Some((length, step));
                }
            }
        }
        best.map(|(_, step)| step)
    }
}
