//! SameGame's Monte Carlo searches: nested Monte Carlo search (Cazenave 2009) with the
//! "tabu colour" playouts, and nested rollout policy adaptation (NRPA, Rosin 2011) with the same
//! bias, both with a time budget, keeping the best game found.
//!
//! They play on a compact copy of the board ([`Fast`]: columns bottom first, groups found by
//! flood fill with a stamp array, no allocation in a playout) and return the moves as
//! `(column, row)` of the board before each move, row 0 at the top, which [`Board::click`] replays.

use super::board::{group_score, Board, Closing, Objective, CLEAR_BONUS};
use crate::rng::Rng;

/// Seconds since a start.
struct Clock(f64);

impl Clock {
    fn start() -> Clock {
        Clock(crate::clock::seconds())
    }
    fn seconds(&self) -> f64 {
        crate::clock::seconds() - self.0
    }
}

/// The searches' limits.
#[derive(Clone, Copy, Debug)]
pub struct McLimits {
    /// Seconds the search may run (it stops at the first check past it and returns the best game
    /// found so far, completed by following it).
    pub seconds: f64,
    /// Nesting level (NMCS: 1 = one playout a move; NRPA: levels of adaptation).
    pub level: u32,
    /// NRPA's iterations a level (Rosin's 100).
    pub iterations: u32,
    /// The seed of the playouts.
    pub seed: u64,
    /// NRPA: added to the weight of every move of the tabu colour (negative: played later).
    pub tabu_bias: f64,
}

impl McLimits {
    /// `seconds` at `level`, Rosin's 100 iterations, seed 1, tabu bias −6 (chosen on random
    /// boards: −1.5, −3, −6, −10, −20 gave 11,262, 12,106, 14,246, 13,679, 13,456 on four boards
    /// of seed 7 at 15 s each).
    pub fn new(seconds: f64, level: u32) -> McLimits {
        McLimits {
            seconds,
            level,
            iterations: 100,
            seed: 1,
            tabu_bias: -6.0,
        }
    }
}

/// The best game a search found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct McResult {
    /// Its score ((n − 2)² a group, +1,000 for clearing).
    pub score: u32,
    /// Its moves, `(column, row)`, row 0 at the top of the board before the move.
    pub moves: Vec<(usize, usize)>,
    /// Whether it clears the board.
    pub cleared: bool,
    /// Playouts run.
    pub playouts: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// What a search tells its caller about every quarter of a second.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct McProgress {
    /// The best score of a whole game found so far.
    pub best: u32,
    /// Playouts so far.
    pub playouts: u64,
    /// Seconds so far.
    pub seconds: f64,
}

/// What both searches share while they run: the random numbers, the scratch space, the clock and
/// the time budget, and the caller's `progress`, called every quarter of a second with the best
/// score found (returning `false` stops the search, which then returns the best game found).
struct Run<'a> {
    rng: Rng,
    scratch: Scratch,
    playouts: u64,
    clock: Clock,
    seconds: f64,
    progress: &'a mut dyn FnMut(McProgress) -> bool,
    best: u32,
    last: f64,
    stopped: bool,
}

impl<'a> Run<'a> {
    fn new(
        start: &Fast,
        limits: &McLimits,
        progress: &'a mut dyn FnMut(McProgress) -> bool,
    ) -> Self {
        Run {
            rng: Rng::new(limits.seed),
            scratch: Scratch::new(start.cells.len()),
            playouts: 0,
            clock: Clock::start(),
            seconds: limits.seconds,
            progress,
            best: 0,
            last: 0.0,
            stopped: false,
        }
    }

    fn out_of_time(&self) -> bool {
        self.stopped || self.clock.seconds() >= self.seconds
    }

    fn found(&mut self, score: u32) {
        self.best = self.best.max(score);
    }

    fn tick(&mut self) {
        let now = self.clock.seconds();
        if now - self.last >= 0.25 {
            self.last = now;
            let go_on = (self.progress)(McProgress {
                best: self.best,
                playouts: self.playouts,
                seconds: now,
            });
            self.stopped |= !go_on;
        }
    }
}

/// A group found on a [`Fast`] board.
#[derive(Clone, Copy, Debug)]
struct Group {
    colour: u8,
    /// The rightmost column it reaches.
    last_col: u8,
    /// Its first cell in column-major order (leftmost column, lowest cell): where it is clicked.
    anchor: u16,
}

/// A compact SameGame board: column-major, each column bottom first, with a border of empty
/// cells all round so that neighbours need no bounds checks.
#[derive(Clone)]
struct Fast {
    w: usize,
    h: usize,
    /// The distance between columns (`h + 2`).
    stride: usize,
    /// `cells[(col + 1) * stride + level + 1]`, level 0 at the bottom; 0 is empty.
    cells: Vec<u8>,
    heights: Vec<u8>,
    min_group: usize,
    closing: Closing,
    colours: usize,
}

/// Scratch space for group finding.
struct Scratch {
    stamp: Vec<u32>,
    now: u32,
    stack: Vec<u16>,
    groups: Vec<Group>,
}

impl Scratch {
    fn new(cells: usize) -> Scratch {
        Scratch {
            stamp: vec![0; cells],
            now: 0,
            stack: Vec::with_capacity(cells),
            groups: Vec::with_capacity(cells),
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
        self.now
    }
}

impl Fast {
    fn from_board(board: &Board) -> Fast {
        let r = board.rules();
        let (w, h) = (r.width, r.height);
        let stride = h + 2;
        let mut cells = vec![0u8; (w + 2) * stride];
        let mut heights = vec![0u8; w];
        for col in 0..w {
            for level in 0..h {
                let c = board.get(col, h - 1 - level);
                if c != 0 {
                    cells[(col + 1) * stride + level + 1] = c;
                    heights[col] = level as u8 + 1;
                }
            }
        }
        Fast {
            w,
            h,
            stride,
            cells,
            heights,
            min_group: r.min_group,
            closing: r.closing,
            colours: r.colours as usize,
        }
    }

    fn is_empty(&self) -> bool {
        self.heights.iter().all(|&x| x == 0)
    }

    /// Floods the group at `start` (marking it with `stamp`); returns its size, its first cell
    /// (the smallest index: leftmost column, lowest cell) and its rightmost column.
    fn flood(&self, start: usize, stamp: u32, s: &mut Scratch) -> (usize, usize, usize) {
        let colour = self.cells[start];
        let st = self.stride;
        s.stamp[start] = stamp;
        s.stack.clear();
        s.stack.push(start as u16);
        let (mut size, mut first, mut last) = (0, start, start);
        while let Some(j) = s.stack.pop() {
            size += 1;
            let j = j as usize;
            first = first.min(j);
            last = last.max(j);
            for k in [j + 1, j - 1, j + st, j - st] {
                if self.cells[k] == colour && s.stamp[k] != stamp {
                    s.stamp[k] = stamp;
                    s.stack.push(k as u16);
                }
            }
        }
        (size, first, last / st - 1)
    }

    /// Finds every group of at least the smallest size into `s.groups`.
    fn groups(&self, s: &mut Scratch) {
        s.groups.clear();
        self.scan(s, 0, self.w.saturating_sub(1));
    }

    /// Brings `s.groups` up to date after a move that changed only columns `lo..=hi` (and
    /// closed none): groups with no pile there are kept, the rest found again.
    fn regroup(&self, s: &mut Scratch, changed: Option<(usize, usize)>) {
        let Some((lo, hi)) = changed else {
            return self.groups(s);
        };
        let st = self.stride;
        s.groups
            .retain(|g| (g.last_col as usize) < lo || (g.anchor as usize / st - 1) > hi);
        self.scan(s, lo, hi);
    }

    /// Adds the groups with a pile in columns `lo..=hi` to `s.groups`.
    fn scan(&self, s: &mut Scratch, lo: usize, hi: usize) {
        let stamp = s.next_stamp();
        let st = self.stride;
        for col in lo..=hi.min(self.w - 1) {
            let base = (col + 1) * st + 1;
            for i in base..base + self.heights[col] as usize {
                if s.stamp[i] == stamp {
                    continue;
                }
                let colour = self.cells[i];
                // A pile with no neighbour of its colour is a group of one.
                if self.cells[i + 1] != colour
                    && self.cells[i - 1] != colour
                    && self.cells[i + st] != colour
                    && self.cells[i - st] != colour
                {
                    if self.min_group <= 1 {
                        s.groups.push(Group {
                            colour,
                            last_col: col as u8,
                            anchor: i as u16,
                        });
                    }
                    continue;
                }
                let (size, first, last) = self.flood(i, stamp, s);
                if size >= self.min_group {
                    s.groups.push(Group {
                        colour,
                        last_col: last as u8,
                        anchor: first as u16,
                    });
                }
            }
        }
    }

    /// Removes the group at `anchor`; returns the points.
    fn play(&mut self, anchor: usize, s: &mut Scratch) -> u32 {
        self.play_changed(anchor, s).0
    }

    /// Removes the group at `anchor`; returns the points and the columns whose groups may have
    /// changed (`None` when a column closed: all of them).
    fn play_changed(&mut self, anchor: usize, s: &mut Scratch) -> (u32, Option<(usize, usize)>) {
        let st = self.stride;
        let stamp = s.next_stamp();
        let (size, _, _) = self.flood(anchor, stamp, s);
        let (mut lo, mut hi) = (usize::MAX, 0);
        // The flood left the group marked: clear it column by column while packing.
        let mut emptied = false;
        for col in 0..self.w {
            let base = (col + 1) * st + 1;
            let height = self.heights[col] as usize;
            let mut to = 0;
            let mut touched = false;
            for level in 0..height {
                let i = base + level;
                if s.stamp[i] == stamp {
                    touched = true;
                    continue;
                }
                if touched {
                    self.cells[base + to] = self.cells[i];
                }
                to += 1;
            }
            if touched {
                for level in to..height {
                    self.cells[base + level] = 0;
                }
                self.heights[col] = to as u8;
                emptied |= to == 0;
                lo = lo.min(col);
                hi = hi.max(col);
            }
        }
        if emptied {
            self.close();
        }
        let mut points = group_score(size);
        if self.is_empty() {
            points += CLEAR_BONUS;
        }
        let changed = (!emptied).then(|| (lo.saturating_sub(1), (hi + 1).min(self.w - 1)));
        (points, changed)
    }

    fn close(&mut self) {
        let filled: Vec<bool> = self.heights.iter().map(|&x| x > 0).collect();
        let target = super::board::closed_positions(self.closing, &filled);
        let st = self.stride;
        let mut cells = vec![0u8; self.cells.len()];
        let mut heights = vec![0u8; self.w];
        for (col, to) in target.iter().enumerate() {
            if let Some(to) = *to {
                let (from, into) = ((col + 1) * st, (to + 1) * st);
                cells[into..into + st].copy_from_slice(&self.cells[from..from + st]);
                heights[to] = self.heights[col];
            }
        }
        self.cells = cells;
        self.heights = heights;
    }

    /// The colour with the most piles (the playouts' tabu colour).
    fn most_common_colour(&self) -> u8 {
        let mut count = [0usize; 16];
        for &c in &self.cells {
            count[c as usize] += 1;
        }
        (1..=self.colours.min(15))
            .max_by_key(|&c| (count[c], std::cmp::Reverse(c)))
            .unwrap_or(1) as u8
    }

    /// `(column, row)` of a cell on this board, row 0 at the top.
    fn click_of(&self, anchor: usize) -> (usize, usize) {
        let col = anchor / self.stride - 1;
        let level = anchor % self.stride - 1;
        (col, self.h - 1 - level)
    }

    /// NRPA's code of a move: its colour and anchor.
    fn code(&self, g: &Group) -> usize {
        g.colour as usize * self.cells.len() + g.anchor as usize
    }

    fn codes(&self) -> usize {
        (self.colours + 1) * self.cells.len()
    }
}

/// Plays a tabu-colour random playout from `board` to the end: moves of the most common colour
/// (at the playout's start) are played only when nothing else is left. Returns the points and
/// the anchors played.
fn playout(board: &mut Fast, rng: &mut Rng, s: &mut Scratch, moves: &mut Vec<u16>) -> u32 {
    let tabu = board.most_common_colour();
    let mut score = 0;
    let mut changed = None;
    loop {
        board.regroup(s, changed);
        if s.groups.is_empty() {
            return score;
        }
        let allowed = s
            .groups
            .iter()
            .filter(|g| g.colour != tabu || board.colours == 1)
            .count();
        let pick = if allowed > 0 {
            let k = rng.below(allowed);
            *s.groups
                .iter()
                .filter(|g| g.colour != tabu || board.colours == 1)
                .nth(k)
                .unwrap()
        } else {
            s.groups[rng.below(s.groups.len())]
        };
        moves.push(pick.anchor);
        let (points, zone) = board.play_changed(pick.anchor as usize, s);
        score += points;
        changed = zone;
    }
}

fn check_score_rules(board: &Board) {
    assert_eq!(
        board.rules().objective,
        Objective::Score,
        "the Monte Carlo searches play for the score"
    );
}

/// Replays anchors on a copy of `start` to name them as clicks of the board text's geometry.
fn result(start: &Fast, anchors: &[u16], playouts: u64, clock: &Clock) -> McResult {
    let mut b = start.clone();
    let mut s = Scratch::new(b.cells.len());
    let mut moves = Vec::with_capacity(anchors.len());
    let mut score = 0;
    for &a in anchors {
        moves.push(b.click_of(a as usize));
        score += b.play(a as usize, &mut s);
    }
    McResult {
        score,
        moves,
        cleared: b.is_empty(),
        playouts,
        seconds: clock.seconds(),
    }
}

struct Nmcs<'a> {
    run: Run<'a>,
    /// The level the search was started at (its totals are whole games).
    top: u32,
}

impl Nmcs<'_> {
    fn out_of_time(&self) -> bool {
        self.run.out_of_time()
    }

    /// Nested search at `level` from `board`; returns the best score and moves from here.
    fn search(&mut self, board: &Fast, level: u32) -> (u32, Vec<u16>) {
        let mut pos = board.clone();
        let mut best: (u32, Vec<u16>) = (0, Vec::new());
        let mut played: Vec<u16> = Vec::new();
        let mut gained = 0u32;
        let mut have_best = false;
        loop {
            pos.groups(&mut self.run.scratch);
            if self.run.scratch.groups.is_empty() {
                break;
            }
            let groups = self.run.scratch.groups.clone();
            if !(have_best && self.out_of_time()) {
                for g in &groups {
                    let mut child = pos.clone();
                    let points = child.play(g.anchor as usize, &mut self.run.scratch);
                    let (rest, seq) = if level <= 1 {
                        let mut seq = Vec::new();
                        self.run.playouts += 1;
                        let r = playout(
                            &mut child,
                            &mut self.run.rng,
                            &mut self.run.scratch,
                            &mut seq,
                        );
                        self.run.tick();
                        (r, seq)
                    } else {
                        self.search(&child, level - 1)
                    };
                    let total = gained + points + rest;
                    if level == self.top {
                        self.run.found(total);
                    }
                    if !have_best || total > best.0 {
                        have_best = true;
                        let mut line = played.clone();
                        line.push(g.anchor);
                        line.extend(seq);
                        best = (total, line);
                    }
                    if self.out_of_time() {
                        break;
                    }
                }
            }
            // Follow the best line one move.
            let next = best.1[played.len()];
            gained += pos.play(next as usize, &mut self.run.scratch);
            played.push(next);
        }
        // Every line kept starts with the moves played, so the game followed is the best line.
        debug_assert!(!have_best || (gained == best.0 && played == best.1));
        (gained, played)
    }
}

/// Nested Monte Carlo search at `limits.level` (Cazenave 2009) with tabu-colour playouts,
/// restarted with new playouts until the time is up (or `progress` returns `false`); the best
/// game found.
pub fn nested_search(
    board: &Board,
    limits: McLimits,
    progress: &mut dyn FnMut(McProgress) -> bool,
) -> McResult {
    restarted_search(board, &limits, progress, |run| Nmcs {
        run,
        top: limits.level.max(1),
    })
}

/// A Monte Carlo search that starts again until its time is up.
trait Restarted<'a> {
    /// Its run: the clock, the playouts, the time budget.
    fn run(&self) -> &Run<'a>;
    /// One search from `start`: the best game's score and clicks.
    fn once(&mut self, start: &Fast) -> (u32, Vec<u16>);
}

impl<'a> Restarted<'a> for Nmcs<'a> {
    fn run(&self) -> &Run<'a> {
        &self.run
    }

    fn once(&mut self, start: &Fast) -> (u32, Vec<u16>) {
        self.search(start, self.top)
    }
}

/// The search `make` builds over a run of `limits` on `board` (SameGame's scoring rules), restarted
/// until its time is up ([`best_of_restarts`]); the best game found.
fn restarted_search<'a, S: Restarted<'a>>(
    board: &Board,
    limits: &McLimits,
    progress: &'a mut dyn FnMut(McProgress) -> bool,
    make: impl FnOnce(Run<'a>) -> S,
) -> McResult {
    check_score_rules(board);
    let start = Fast::from_board(board);
    let mut search = make(Run::new(&start, limits, progress));
    best_of_restarts(&start, &mut search)
}

/// Runs `search` again and again from `start` until its time is up; the best game found.
fn best_of_restarts<'a>(start: &Fast, search: &mut impl Restarted<'a>) -> McResult {
    let mut best: Option<(u32, Vec<u16>)> = None;
    loop {
        let found = search.once(start);
        if best.as_ref().is_none_or(|b| found.0 > b.0) {
            best = Some(found);
        }
        if search.run().out_of_time() {
            break;
        }
    }
    let (_, anchors) = best.expect("one search ran");
    result(start, &anchors, search.run().playouts, &search.run().clock)
}

struct Nrpa<'a> {
    run: Run<'a>,
    /// The level the search is started at.
    top: u32,
    iterations: u32,
    /// `exp` of the bias added to the weight of a move of the tabu colour.
    tabu_factor: f64,
    probs: Vec<f64>,
    /// `exp` of every code's weight under the policy being played or adapted.
    exp: Vec<f64>,
}

/// A game played by NRPA, with what adapting the policy toward it needs: the code chosen and the
/// codes of every legal move at each step (bit 31 set on the tabu colour's), so that adapting
/// does not replay the board.
#[derive(Default)]
struct Line {
    score: u32,
    anchors: Vec<u16>,
    chosen: Vec<u32>,
    legal: Vec<u32>,
    /// Where each step's legal codes start in `legal` (one more entry than steps).
    offsets: Vec<u32>,
}

const TABU: u32 = 1 << 31;

impl Nrpa<'_> {
    /// Fills `self.exp` for `policy`.
    fn exponentiate(&mut self, policy: &[f64]) {
        self.exp.clear();
        self.exp.extend(policy.iter().map(|w| w.exp()));
    }

    /// A code's unnormalised probability (after [`Nrpa::exponentiate`]).
    fn weight(&self, code: u32) -> f64 {
        let w = self.exp[(code & !TABU) as usize];
        if code & TABU != 0 {
            w * self.tabu_factor
        } else {
            w
        }
    }

    /// One playout under `policy`.
    fn playout(&mut self, start: &Fast, policy: &[f64]) -> Line {
        self.run.playouts += 1;
        self.exponentiate(policy);
        let mut b = start.clone();
        let tabu = b.most_common_colour();
        let mut line = Line::default();
        line.offsets.push(0);
        let mut changed = None;
        loop {
            b.regroup(&mut self.run.scratch, changed);
            let n = self.run.scratch.groups.len();
            if n == 0 {
                return line;
            }
            self.probs.clear();
            let mut total = 0.0;
            for i in 0..n {
                let g = self.run.scratch.groups[i];
                let code = b.code(&g) as u32 | if g.colour == tabu { TABU } else { 0 };
                let p = self.weight(code);
                total += p;
                self.probs.push(p);
                line.legal.push(code);
            }
            line.offsets.push(line.legal.len() as u32);
            let mut x = self.run.rng.unit() * total;
            let mut k = n - 1;
            for (i, &p) in self.probs.iter().enumerate() {
                if x < p {
                    k = i;
                    break;
                }
                x -= p;
            }
            let g = self.run.scratch.groups[k];
            let at = line.offsets[line.offsets.len() - 2] as usize;
            line.chosen.push(line.legal[at + k]);
            line.anchors.push(g.anchor);
            let (points, zone) = b.play_changed(g.anchor as usize, &mut self.run.scratch);
            line.score += points;
            changed = zone;
        }
    }

    /// Moves `policy` toward `line` (Rosin's adapt, learning rate 1).
    fn adapt(&mut self, policy: &mut [f64], line: &Line) {
        self.exponentiate(policy);
        for (step, &chosen) in line.chosen.iter().enumerate() {
            let codes = &line.legal[line.offsets[step] as usize..line.offsets[step + 1] as usize];
            let total: f64 = codes.iter().map(|&c| self.weight(c)).sum();
            policy[(chosen & !TABU) as usize] += 1.0;
            for &c in codes {
                policy[(c & !TABU) as usize] -= self.weight(c) / total;
            }
        }
    }

    fn out_of_time(&self) -> bool {
        self.run.out_of_time()
    }

    fn level(&mut self, start: &Fast, level: u32, policy: &mut [f64]) -> Line {
        if level == 0 {
            let line = self.playout(start, policy);
            self.run.found(line.score);
            self.run.tick();
            return line;
        }
        let mut best: Option<Line> = None;
        for _ in 0..self.iterations {
            let mut child_policy = policy.to_vec();
            let found = self.level(start, level - 1, &mut child_policy);
            if best.as_ref().is_none_or(|b| found.score >= b.score) {
                best = Some(found);
            }
            if self.out_of_time() {
                break;
            }
            let best = best.as_ref().expect("one iteration ran");
            self.adapt(policy, best);
        }
        best.expect("one iteration ran")
    }
}

/// Nested rollout policy adaptation (Rosin 2011) at `limits.level` with `limits.iterations` a
/// level, playouts biased against the tabu colour (`limits.tabu_bias` added to its moves' weights), restarted
/// with a fresh policy until the time is up (or `progress` returns `false`); the best game found.
pub fn nrpa(
    board: &Board,
    limits: McLimits,
    progress: &mut dyn FnMut(McProgress) -> bool,
) -> McResult {
    restarted_search(board, &limits, progress, |run| Nrpa {
        run,
        top: limits.level.max(1),
        iterations: limits.iterations.max(1),
        tabu_factor: limits.tabu_bias.exp(),
        probs: Vec::new(),
        exp: Vec::new(),
    })
}

impl<'a> Restarted<'a> for Nrpa<'a> {
    fn run(&self) -> &Run<'a> {
        &self.run
    }

    fn once(&mut self, start: &Fast) -> (u32, Vec<u16>) {
        let mut policy = vec![0.0; start.codes()];
        let line = self.level(start, self.top, &mut policy);
        (line.score, line.anchors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::samegame::Rules;

    fn sorted(groups: &[Group]) -> Vec<(u8, u16, u8)> {
        let mut v: Vec<_> = groups
            .iter()
            .map(|g| (g.colour, g.anchor, g.last_col))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn groups_kept_up_to_date_equal_groups_found_afresh() {
        for seed in 0..40 {
            let rules = if seed % 2 == 0 {
                Rules::samegame()
            } else {
                Rules::samegame().with_size(9, 7)
            };
            let board = Board::random(rules, seed).unwrap();
            let mut b = Fast::from_board(&board);
            let mut s = Scratch::new(b.cells.len());
            let mut fresh = Scratch::new(b.cells.len());
            let mut rng = Rng::new(seed);
            let mut changed = None;
            loop {
                b.regroup(&mut s, changed);
                b.groups(&mut fresh);
                assert_eq!(sorted(&s.groups), sorted(&fresh.groups), "seed {seed}");
                if s.groups.is_empty() {
                    break;
                }
                let g = s.groups[rng.below(s.groups.len())];
                changed = b.play_changed(g.anchor as usize, &mut s).1;
            }
        }
    }
}
