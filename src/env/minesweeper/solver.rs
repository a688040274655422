//! Exact mine probabilities for what a player sees ([`analyse`]).
//!
//! The method of the strongest published solvers (Tu et al. 2017's PSEQ, JSMinesweeper):
//! 1. Certain deductions: a number with as many covered neighbours as mines still missing makes
//!    them all mines; one whose mines are all known makes the rest safe (repeated until nothing
//!    changes).
//! 2. The remaining *frontier* (covered cells next to a number) is split into independent
//!    components (cells linked through the numbers they share). Inside a component, cells that
//!    touch exactly the same numbers form a *group*: a group of g cells holding j mines counts
//!    C(g, j) ways, so the enumeration runs over groups, not cells.
//! 3. Each component's mine configurations are enumerated by backtracking (a number's remaining
//!    mines must fit in its unassigned neighbours) and counted by how many mines they use.
//! 4. Components are combined with the global mine count: a choice of k frontier mines leaves
//!    M − k mines for the R covered cells off the frontier, C(R, M − k) ways. Every cell's
//!    probability is its share of all these weighted configurations; cells off the frontier
//!    share their expected mines evenly.
//!
//! Certainty is decided on integer counts (a cell is safe when no consistent configuration puts
//! a mine there), never on a rounded probability. The tests check every probability against
//! brute-force enumeration of whole boards.

use super::board::{Cell, Layout};

/// Why a position has no consistent mine placement.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no placement of {mines} mines agrees with the numbers shown")]
pub struct Inconsistent {
    /// The mine count of the layout.
    pub mines: usize,
}

/// What the numbers say about every covered cell.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// Per cell: the probability that it holds a mine (0 for revealed cells).
    pub probabilities: Vec<f64>,
    /// Covered cells that are certainly safe.
    pub safe: Vec<usize>,
    /// Covered cells that are certainly mines.
    pub mines: Vec<usize>,
    /// Covered cells next to a revealed number whose fate the numbers did not settle.
    pub frontier: usize,
    /// Independent components of that frontier.
    pub components: usize,
    /// Covered cells no number touches.
    pub outside: usize,
    /// Mine probability of a cell no number touches (0 when there is none).
    pub outside_probability: f64,
    /// log10 of the number of mine placements consistent with the board.
    pub log10_placements: f64,
}

/// A number and the covered cells around it (what is left after certain deductions).
#[derive(Clone, Debug)]
struct Constraint {
    need: i32,
    cells: Around,
}

/// Up to eight cells, without allocating (a number's covered neighbours).
#[derive(Clone, Copy, Debug)]
struct Around {
    cells: [u16; 8],
    len: u8,
}

impl Around {
    fn new() -> Around {
        Around {
            cells: [0; 8],
            len: 0,
        }
    }
    fn push(&mut self, cell: usize) {
        self.cells[self.len as usize] = cell as u16;
        self.len += 1;
    }
    fn len(&self) -> usize {
        self.len as usize
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells[..self.len as usize].iter().map(|&c| c as usize)
    }
    fn clear(&mut self) {
        self.len = 0;
    }
}

/// Cells of one component that touch the same numbers.
#[derive(Clone, Debug)]
struct Group {
    cells: Vec<usize>,
    constraints: Vec<usize>,
}

/// A component's configurations counted by mines used: `count[k]` weighted configurations with
/// `k` mines, `mines[k][g]` the sum over them of group g's mines, `low[k][g]` and `high[k][g]`
/// the fewest and most mines group g holds in them (exact certainty, whatever the rounding).
#[derive(Clone, Debug)]
struct Counts {
    count: Vec<f64>,
    mines: Vec<Vec<f64>>,
    low: Vec<Vec<u8>>,
    high: Vec<Vec<u8>>,
}

/// Certain mines and safe cells found by the deduction of single numbers; the rest of the
/// position as constraints on unsettled cells. Works on cells where `known[c]` is `Some(mine)`.
struct Deduced {
    known: Vec<Option<bool>>,
    constraints: Vec<Constraint>,
}

fn covered(cell: Cell) -> bool {
    !matches!(cell, Cell::Revealed(_))
}

/// Certain deductions from single numbers, repeated until nothing changes. `Err` when a number
/// cannot be satisfied.
fn deduce(layout: &Layout, cells: &[Cell]) -> Result<Deduced, Inconsistent> {
    let inconsistent = Inconsistent {
        mines: layout.mines,
    };
    let mut known: Vec<Option<bool>> = cells
        .iter()
        .map(|&c| if covered(c) { None } else { Some(false) })
        .collect();
    let mut constraints: Vec<Constraint> = Vec::new();
    for (cell, &c) in cells.iter().enumerate() {
        if let Cell::Revealed(n) = c {
            let mut around = Around::new();
            for x in layout.neighbours(cell).iter() {
                if covered(cells[x]) {
                    around.push(x);
                }
            }
            if around.is_empty() {
                if n != 0 {
                    return Err(inconsistent);
                }
                continue;
            }
            constraints.push(Constraint {
                need: n as i32,
                cells: around,
            });
        }
    }
    loop {
        let mut changed = false;
        for constraint in &mut constraints {
            let mut unknown = Around::new();
            for c in constraint.cells.iter() {
                match known[c] {
                    Some(true) => constraint.need -= 1,
                    Some(false) => {}
                    None => unknown.push(c),
                }
            }
            constraint.cells = unknown;
            if constraint.need < 0 || constraint.need as usize > constraint.cells.len() {
                return Err(inconsistent);
            }
            if !constraint.cells.is_empty()
                && (constraint.need == 0 || constraint.need as usize == constraint.cells.len())
            {
                let mine = constraint.need > 0;
                for c in constraint.cells.iter() {
                    known[c] = Some(mine);
                }
                constraint.need = 0;
                constraint.cells.clear();
                changed = true;
            }
        }
        constraints.retain(|c| !c.cells.is_empty());
        if !changed {
            break;
        }
    }
    Ok(Deduced { known, constraints })
}

/// Covered cells that single numbers prove safe (the first step of [`analyse`], cheap): what a
/// player reveals before anything needs enumerating.
pub fn certain_safe(layout: &Layout, cells: &[Cell]) -> Vec<usize> {
    match deduce(layout, cells) {
        Ok(d) => (0..cells.len())
            .filter(|&c| d.known[c] == Some(false) && covered(cells[c]))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// ln(k!) for k = 0..=MAX_SIDE² (computed once).
fn ln_factorials() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let n = super::board::MAX_SIDE * super::board::MAX_SIDE;
        let mut out = Vec::with_capacity(n + 1);
        let mut value = 0.0f64;
        out.push(value);
        for k in 1..=n {
            value += (k as f64).ln();
            out.push(value);
        }
        out
    })
}

/// ln C(n, k) (`k <= n <= MAX_SIDE²`).
fn ln_binomial(n: usize, k: usize) -> f64 {
    let f = ln_factorials();
    f[n] - f[k] - f[n - k]
}

/// C(n, k) as a float (small n: group sizes).
fn binomial(n: usize, k: usize) -> f64 {
    let mut value = 1.0;
    for i in 0..k {
        value = value * (n - i) as f64 / (i + 1) as f64;
    }
    value.round()
}

/// Enumerates one component's configurations (groups `groups`, numbers `constraints`).
fn enumerate(groups: &[Group], constraints: &[Constraint]) -> Counts {
    let total: usize = groups.iter().map(|g| g.cells.len()).sum();
    let mut counts = Counts {
        count: vec![0.0; total + 1],
        mines: vec![vec![0.0; groups.len()]; total + 1],
        low: vec![vec![u8::MAX; groups.len()]; total + 1],
        high: vec![vec![0; groups.len()]; total + 1],
    };
    let mut need: Vec<i32> = constraints.iter().map(|c| c.need).collect();
    let mut free: Vec<i32> = vec![0; constraints.len()];
    for g in groups {
        for &c in &g.constraints {
            free[c] += g.cells.len() as i32;
        }
    }
    let mut values = vec![0usize; groups.len()];
    let choose: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| {
            (0..=g.cells.len())
                .map(|j| binomial(g.cells.len(), j))
                .collect()
        })
        .collect();
    struct Search<'a> {
        groups: &'a [Group],
        choose: &'a [Vec<f64>],
        need: &'a mut [i32],
        free: &'a mut [i32],
        values: &'a mut [usize],
        counts: &'a mut Counts,
    }
    fn visit(s: &mut Search, i: usize, weight: f64, mines: usize) {
        if i == s.groups.len() {
            s.counts.count[mines] += weight;
            for (g, &v) in s.values.iter().enumerate() {
                s.counts.mines[mines][g] += weight * v as f64;
                let low = &mut s.counts.low[mines][g];
                *low = (*low).min(v as u8);
                let high = &mut s.counts.high[mines][g];
                *high = (*high).max(v as u8);
            }
            return;
        }
        let group = &s.groups[i];
        let size = group.cells.len() as i32;
        // The values every number of this group still allows.
        let (mut low, mut high) = (0i32, size);
        for &c in &group.constraints {
            low = low.max(s.need[c] - (s.free[c] - size));
            high = high.min(s.need[c]);
        }
        if low > high {
            return;
        }
        for &c in &group.constraints {
            s.free[c] -= size;
        }
        for j in low..=high {
            for &c in &group.constraints {
                s.need[c] -= j;
            }
            s.values[i] = j as usize;
            let w = weight * s.choose[i][j as usize];
            visit(s, i + 1, w, mines + j as usize);
            for &c in &group.constraints {
                s.need[c] += j;
            }
        }
        for &c in &group.constraints {
            s.free[c] += size;
        }
    }
    let mut search = Search {
        groups,
        choose: &choose,
        need: &mut need,
        free: &mut free,
        values: &mut values,
        counts: &mut counts,
    };
    visit(&mut search, 0, 1.0, 0);
    counts
}

/// Splits the unsettled constraints into components of groups, each in an order where a
/// number's cells come close together (breadth first through shared numbers).
fn components(constraints: &[Constraint], cells: usize) -> Vec<(Vec<Group>, Vec<Constraint>)> {
    // Which constraints each cell is in.
    let mut touches: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, c) in constraints.iter().enumerate() {
        for cell in c.cells.iter() {
            touches[cell].push(i);
        }
    }
    let mut seen = vec![false; constraints.len()];
    let mut out = Vec::new();
    for start in 0..constraints.len() {
        if seen[start] {
            continue;
        }
        // Breadth first over constraints; cells in the order first met.
        let mut order = vec![start];
        seen[start] = true;
        let mut cell_order: Vec<usize> = Vec::new();
        let mut cell_seen = std::collections::HashSet::new();
        let mut head = 0;
        while head < order.len() {
            let c = order[head];
            head += 1;
            for cell in constraints[c].cells.iter() {
                if cell_seen.insert(cell) {
                    cell_order.push(cell);
                }
                for &other in &touches[cell] {
                    if !seen[other] {
                        seen[other] = true;
                        order.push(other);
                    }
                }
            }
        }
        let local: std::collections::HashMap<usize, usize> =
            order.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let component_constraints: Vec<Constraint> =
            order.iter().map(|&c| constraints[c].clone()).collect();
        let mut groups: Vec<Group> = Vec::new();
        let mut by_signature: std::collections::HashMap<Vec<usize>, usize> =
            std::collections::HashMap::new();
        for cell in cell_order {
            let mut signature: Vec<usize> = touches[cell].iter().map(|c| local[c]).collect();
            signature.sort_unstable();
            match by_signature.get(&signature) {
                Some(&g) => groups[g].cells.push(cell),
                None => {
                    by_signature.insert(signature.clone(), groups.len());
                    groups.push(Group {
                        cells: vec![cell],
                        constraints: signature,
                    });
                }
            }
        }
        out.push((groups, component_constraints));
    }
    out
}

/// Convolution of two counts-by-mines vectors.
fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// Exact mine probabilities for the covered cells of `cells` on `layout` (flags and marks are
/// treated as covered: the solver does not trust them).
pub fn analyse(layout: &Layout, cells: &[Cell]) -> Result<Analysis, Inconsistent> {
    let inconsistent = Inconsistent {
        mines: layout.mines,
    };
    let n = layout.cells();
    assert_eq!(cells.len(), n, "one entry per cell");
    let deduced = deduce(layout, cells)?;
    let known_mines = deduced.known.iter().filter(|k| **k == Some(true)).count();
    if known_mines > layout.mines {
        return Err(inconsistent);
    }
    let remaining = layout.mines - known_mines;
    let parts = components(&deduced.constraints, n);
    let mut on_frontier = vec![false; n];
    for c in &deduced.constraints {
        for cell in c.cells.iter() {
            on_frontier[cell] = true;
        }
    }
    let outside: Vec<usize> = (0..n)
        .filter(|&c| deduced.known[c].is_none() && !on_frontier[c])
        .collect();
    let r = outside.len();
    // Each component's counts, scaled so that its largest count is 1 (a common factor cancels).
    let mut counts: Vec<Counts> = Vec::with_capacity(parts.len());
    for (groups, constraints) in &parts {
        let mut c = enumerate(groups, constraints);
        let top = c.count.iter().cloned().fold(0.0, f64::max);
        if top == 0.0 {
            return Err(inconsistent);
        }
        for k in 0..c.count.len() {
            c.count[k] /= top;
            for m in &mut c.mines[k] {
                *m /= top;
            }
        }
        counts.push(c);
    }
    let feasible_outside = |frontier_mines: usize| {
        remaining
            .checked_sub(frontier_mines)
            .is_some_and(|m| m <= r)
    };
    // Counts of all components but one (prefix and suffix products).
    let k = counts.len();
    let mut prefix: Vec<Vec<f64>> = vec![vec![1.0]];
    let mut prefix_ok: Vec<Vec<bool>> = vec![vec![true]];
    for c in &counts {
        prefix.push(convolve(prefix.last().unwrap(), &c.count));
        prefix_ok.push(convolve_ok(prefix_ok.last().unwrap(), &support(&c.count)));
    }
    let mut suffix: Vec<Vec<f64>> = vec![vec![1.0]; k + 1];
    let mut suffix_ok: Vec<Vec<bool>> = vec![vec![true]; k + 1];
    for i in (0..k).rev() {
        suffix[i] = convolve(&suffix[i + 1], &counts[i].count);
        suffix_ok[i] = convolve_ok(&suffix_ok[i + 1], &support(&counts[i].count));
    }
    let all = &prefix[k];
    let all_ok = &prefix_ok[k];
    // Weight of leaving m mines to the outside cells, relative to the largest reachable one.
    let top_ln = (0..all.len())
        .filter(|&f| all_ok[f] && feasible_outside(f))
        .map(|f| ln_binomial(r, remaining - f))
        .fold(f64::NEG_INFINITY, f64::max);
    if top_ln == f64::NEG_INFINITY {
        return Err(inconsistent);
    }
    let outside_weight = |frontier_mines: usize| -> f64 {
        match remaining.checked_sub(frontier_mines) {
            Some(m) if m <= r => (ln_binomial(r, m) - top_ln).exp(),
            _ => 0.0,
        }
    };
    // The outside weight of every total of frontier mines.
    let weights: Vec<f64> = (0..all.len()).map(outside_weight).collect();
    let mut z = 0.0;
    let mut outside_mines = 0.0;
    let mut any_ok = false;
    for (m, &w) in all.iter().enumerate() {
        let ow = weights[m];
        z += w * ow;
        outside_mines += w * ow * remaining.saturating_sub(m) as f64;
        any_ok |= all_ok[m] && feasible_outside(m);
    }
    if !any_ok || z <= 0.0 {
        return Err(inconsistent);
    }
    let mut probabilities = vec![0.0; n];
    let mut safe = Vec::new();
    let mut mines = Vec::new();
    for (cell, k) in deduced.known.iter().enumerate() {
        match k {
            Some(true) => {
                probabilities[cell] = 1.0;
                mines.push(cell);
            }
            Some(false) if covered(cells[cell]) => safe.push(cell),
            _ => {}
        }
    }
    let outside_probability = if r > 0 {
        outside_mines / z / r as f64
    } else {
        0.0
    };
    for &cell in &outside {
        probabilities[cell] = outside_probability;
    }
    // Outside cells are certain when every feasible total leaves them all or none of the mines.
    if r > 0 {
        let feasible: Vec<usize> = (0..all.len())
            .filter(|&m| all_ok[m] && feasible_outside(m))
            .collect();
        if feasible.iter().all(|&m| remaining == m) {
            safe.extend(&outside);
            for &cell in &outside {
                probabilities[cell] = 0.0;
            }
        } else if feasible.iter().all(|&m| remaining - m == r) {
            mines.extend(&outside);
            for &cell in &outside {
                probabilities[cell] = 1.0;
            }
        }
    }
    let mut frontier = 0;
    for (i, ((groups, _), c)) in parts.iter().zip(&counts).enumerate() {
        let others = convolve(&prefix[i], &suffix[i + 1]);
        let others_ok = convolve_ok(&prefix_ok[i], &suffix_ok[i + 1]);
        // Per count of this component's mines: the weight of everything else, and whether
        // anything else fits at all.
        let (factor, fits): (Vec<f64>, Vec<bool>) = (0..c.count.len())
            .map(|km| {
                let (mut factor, mut ok) = (0.0, false);
                for (ko, &w) in others.iter().enumerate() {
                    factor += w * weights[km + ko];
                    ok |= others_ok[ko] && feasible_outside(km + ko);
                }
                (factor, ok)
            })
            .unzip();
        for (g, group) in groups.iter().enumerate() {
            let (mut expected, mut possible_mine, mut possible_safe) = (0.0, false, false);
            for (km, row) in c.mines.iter().enumerate() {
                if c.count[km] == 0.0 {
                    continue;
                }
                expected += row[g] * factor[km];
                if fits[km] {
                    possible_mine |= c.high[km][g] > 0;
                    possible_safe |= (c.low[km][g] as usize) < group.cells.len();
                }
            }
            let p = (expected / z / group.cells.len() as f64).clamp(0.0, 1.0);
            for &cell in &group.cells {
                if !possible_mine {
                    probabilities[cell] = 0.0;
                    safe.push(cell);
                } else if !possible_safe {
                    probabilities[cell] = 1.0;
                    mines.push(cell);
                } else {
                    probabilities[cell] = p;
                    frontier += 1;
                }
            }
        }
    }
    safe.sort_unstable();
    mines.sort_unstable();
    let log10_placements = (z.ln()
        + top_ln
        + counts
            .iter()
            .map(|c| c.count.iter().cloned().fold(0.0, f64::max).ln())
            .sum::<f64>())
        / std::f64::consts::LN_10;
    Ok(Analysis {
        probabilities,
        safe,
        mines,
        frontier,
        components: parts.len(),
        outside: r,
        outside_probability,
        log10_placements,
    })
}

/// Which totals are reachable: the boolean convolution of two supports.
fn convolve_ok(a: &[bool], b: &[bool]) -> Vec<bool> {
    let mut out = vec![false; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x {
            for (j, &y) in b.iter().enumerate() {
                if y {
                    out[i + j] = true;
                }
            }
        }
    }
    out
}

/// The mine counts a component can use (those with a configuration).
fn support(counts: &[f64]) -> Vec<bool> {
    counts.iter().map(|&c| c > 0.0).collect()
}
