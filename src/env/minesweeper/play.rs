//! The probability solver as a player: which cell to reveal next ([`choose`]), whole games
//! ([`play_solver_game`]) and seeded batches of them ([`evaluate`]).
//!
//! A move reveals every cell the numbers prove safe. When there is none it guesses: among the
//! cells whose chance of being safe is within [`Strategy::tolerance`] of the best, it prefers the
//! one most likely to make progress, looking one reveal ahead (PSEQ's idea, Tu et al. 2017): for
//! each number the cell may show, how likely that number is and whether it then proves another
//! cell safe. The score is `safety × (1 + progress_weight × progress)`. Two refinements from
//! JSMinesweeper: a forced 50/50 (two cells nothing can ever tell apart, [`super::fifty`]) is
//! guessed at once, since the safe cell's number can only help later guesses; and a *dead*
//! candidate (one that can show a single number if safe, so revealing it teaches nothing) comes
//! after every living one.

use super::board::{Cell, FirstClick, Layout, Minefield, MinesError, Status};
use super::endgame::{endgame_guess, MAX_PLACEMENTS};
use super::fifty::forced_fifty;
use super::solver::{analyse, certain_safe, Analysis, Inconsistent};
use crate::clock;
use crate::rng::Rng;

/// Where the first click goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstCell {
    /// The top-left corner (Tu et al.'s classic start).
    Corner,
    /// The middle of the board.
    Centre,
    /// A given cell (`col`, `row`), 0-based.
    At(usize, usize),
}

impl FirstCell {
    /// `corner`, `centre` (or `center`) or `X,Y` (0-based column and row).
    pub fn parse(text: &str) -> Option<FirstCell> {
        match text {
            "corner" => Some(FirstCell::Corner),
            "centre" | "center" => Some(FirstCell::Centre),
            _ => {
                let (x, y) = text.split_once(',')?;
                Some(FirstCell::At(
                    x.trim().parse().ok()?,
                    y.trim().parse().ok()?,
                ))
            }
        }
    }

    /// The cell on `layout`, or `Err` when it is off the board.
    pub fn cell(self, layout: &Layout) -> Result<usize, MinesError> {
        let (col, row) = match self {
            FirstCell::Corner => (0, 0),
            FirstCell::Centre => (layout.width / 2, layout.height / 2),
            FirstCell::At(col, row) => (col, row),
        };
        if col >= layout.width || row >= layout.height {
            return Err(MinesError::Cell(row * layout.width + col));
        }
        Ok(layout.cell(col, row))
    }
}

/// How the solver guesses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strategy {
    /// Cells within this much safety of the safest are weighed by their progress.
    pub tolerance: f64,
    /// How much a sure step of progress is worth against safety.
    pub progress_weight: f64,
    /// At most this many candidates are looked ahead (the safest first).
    pub candidates: usize,
    /// Score a guess by the chance of surviving it and the move after it.
    pub two_step: bool,
    /// Search the endgame exhaustively when at most this many placements remain
    /// ([`super::endgame_guess`]; 0: never).
    pub endgame: usize,
}

impl Default for Strategy {
    fn default() -> Self {
        Strategy {
            tolerance: 0.05,
            progress_weight: 0.25,
            candidates: 6,
            two_step: false,
            endgame: MAX_PLACEMENTS,
        }
    }
}

/// Why the solver picked a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// The numbers prove it safe.
    Certain,
    /// No cell is certain; this one is the best guess.
    Guess,
}

/// The cell to reveal next and why.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Choice {
    /// The cell.
    pub cell: usize,
    /// Its mine probability.
    pub probability: f64,
    /// Certain or a guess.
    pub reason: Reason,
    /// For a guess: the chance that revealing it proves another cell safe (when looked ahead).
    pub progress: Option<f64>,
    /// For an endgame guess: the chance of winning the game from here with best play.
    pub win_chance: Option<f64>,
}

/// What revealing a safe `cell` is likely to lead to, looking one reveal ahead: for each number
/// it can show, how likely that number is and what the position then offers.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lookahead {
    /// The chance that another cell is then certainly safe.
    progress: f64,
    /// The expected safety of the next move (1 when a cell is certain, else the best guess's).
    next_safety: f64,
    /// How many numbers the cell can show when safe (1: it is dead, revealing it tells nothing).
    values: usize,
}

fn look_ahead(layout: &Layout, cells: &mut [Cell], cell: usize) -> Lookahead {
    let covered_around = layout
        .neighbours(cell)
        .iter()
        .filter(|&n| !matches!(cells[n], Cell::Revealed(_)))
        .count();
    let before = cells[cell];
    // Per number: log10 of its placements, whether it proves a cell safe, the next safety.
    let mut outcomes: Vec<(f64, bool, f64)> = Vec::with_capacity(covered_around + 1);
    for number in 0..=covered_around as u8 {
        cells[cell] = Cell::Revealed(number);
        if let Ok(a) = analyse(layout, cells) {
            let progress = !a.safe.is_empty();
            let next_safety = if progress {
                1.0
            } else {
                let best = (0..cells.len())
                    .filter(|&c| !matches!(cells[c], Cell::Revealed(_)))
                    .map(|c| a.probabilities[c])
                    .fold(1.0, f64::min);
                1.0 - best
            };
            outcomes.push((a.log10_placements, progress, next_safety));
        }
    }
    cells[cell] = before;
    let values = outcomes.len();
    let top = outcomes
        .iter()
        .map(|o| o.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let (mut total, mut progress, mut next_safety) = (0.0, 0.0, 0.0);
    for (log10, p, s) in outcomes {
        let w = 10f64.powf(log10 - top);
        total += w;
        if p {
            progress += w;
        }
        next_safety += w * s;
    }
    if total > 0.0 {
        Lookahead {
            progress: progress / total,
            next_safety: next_safety / total,
            values,
        }
    } else {
        Lookahead {
            progress: 0.0,
            next_safety: 1.0,
            values,
        }
    }
}

/// The next cell to reveal on the board `cells` (flags are ignored), or `Err` when the numbers
/// contradict the layout's mine count. `None` when no cell is covered.
pub fn choose(
    layout: &Layout,
    cells: &[Cell],
    strategy: &Strategy,
) -> Result<Option<Choice>, Inconsistent> {
    match proven_safe(layout, cells)? {
        (safe, _) if !safe.is_empty() => Ok(Some(Choice {
            cell: safe[0],
            probability: 0.0,
            reason: Reason::Certain,
            progress: None,
            win_chance: None,
        })),
        (_, analysis) => Ok(analysis.and_then(|a| choose_from(layout, cells, &a, strategy))),
    }
}

/// The covered cells proven safe: by single numbers first (cheap), by the exact analysis only
/// when those prove none. The analysis, when one was made, comes back for a guess.
fn proven_safe(
    layout: &Layout,
    cells: &[Cell],
) -> Result<(Vec<usize>, Option<Analysis>), Inconsistent> {
    let safe = certain_safe(layout, cells);
    if !safe.is_empty() {
        return Ok((safe, None));
    }
    let analysis = analyse(layout, cells)?;
    Ok((analysis.safe.clone(), Some(analysis)))
}

/// [`choose`] once the position has been analysed.
pub fn choose_from(
    layout: &Layout,
    cells: &[Cell],
    analysis: &Analysis,
    strategy: &Strategy,
) -> Option<Choice> {
    if let Some(&cell) = analysis.safe.first() {
        return Some(Choice {
            cell,
            probability: 0.0,
            reason: Reason::Certain,
            progress: None,
            win_chance: None,
        });
    }
    if strategy.endgame > 0 {
        if let Some((cell, chance)) = endgame_guess(layout, cells, analysis, strategy.endgame) {
            return Some(Choice {
                cell,
                probability: analysis.probabilities[cell],
                reason: Reason::Guess,
                progress: None,
                win_chance: Some(chance),
            });
        }
    }
    if let Some(cell) = forced_fifty(layout, cells, analysis) {
        return Some(Choice {
            cell,
            probability: analysis.probabilities[cell],
            reason: Reason::Guess,
            progress: None,
            win_chance: None,
        });
    }
    let covered: Vec<usize> = (0..cells.len())
        .filter(|&c| !matches!(cells[c], Cell::Revealed(_)))
        .collect();
    let best = covered
        .iter()
        .map(|&c| analysis.probabilities[c])
        .fold(f64::INFINITY, f64::min);
    if best == f64::INFINITY {
        return None;
    }
    // Candidates: the safest cells within the tolerance, the safest first; among equally safe
    // cells those with fewer covered neighbours first (likelier to open up), then those with
    // more neighbours on the frontier (the number they show is likelier to settle it).
    let revealed = |c: usize| matches!(cells[c], Cell::Revealed(_));
    // Covered cells next to a number (once for the position, not per candidate).
    let on_frontier: Vec<bool> = (0..cells.len())
        .map(|c| !revealed(c) && layout.neighbours(c).iter().any(revealed))
        .collect();
    let around = |c: usize, keep: &dyn Fn(usize) -> bool| {
        layout.neighbours(c).iter().filter(|&n| keep(n)).count()
    };
    // (probability, covered neighbours, frontier neighbours, cell)
    let mut candidates: Vec<(f64, usize, usize, usize)> = covered
        .iter()
        .filter(|&&c| analysis.probabilities[c] <= best + strategy.tolerance)
        .map(|&c| {
            let covered_around = around(c, &|n| !revealed(n));
            let frontier_around = around(c, &|n| on_frontier[n]);
            (
                analysis.probabilities[c],
                covered_around,
                frontier_around,
                c,
            )
        })
        .collect();
    candidates.sort_by(|a, b| {
        (a.0.total_cmp(&b.0))
            .then(a.1.cmp(&b.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
    });
    let (p0, _, _, c0) = candidates[0];
    if strategy.candidates == 0 || candidates.len() == 1 {
        return Some(Choice {
            cell: c0,
            probability: p0,
            reason: Reason::Guess,
            progress: None,
            win_chance: None,
        });
    }
    // Cells off the frontier with the same probability and neighbourhood are alike: look
    // ahead at one of each kind.
    let mut seen = std::collections::HashSet::new();
    let mut board = cells.to_vec();
    // The best (living, score) so far: a living candidate beats any dead one.
    let mut chosen: Option<((bool, f64), Choice)> = None;
    for &(p, around, _, cell) in &candidates {
        if seen.len() >= strategy.candidates {
            break;
        }
        // Off the frontier, cells alike in safety and covered neighbours are looked at once: the
        // first of them, the one with most frontier neighbours.
        let kind = if on_frontier[cell] {
            (p.to_bits(), cell, true)
        } else {
            (p.to_bits(), around, false)
        };
        if !seen.insert(kind) {
            continue;
        }
        let ahead = look_ahead(layout, &mut board, cell);
        let progress = ahead.progress;
        let score = if strategy.two_step {
            (1.0 - p) * ahead.next_safety * (1.0 + strategy.progress_weight * progress)
        } else {
            (1.0 - p) * (1.0 + strategy.progress_weight * progress)
        };
        let rank = (ahead.values > 1, score);
        if chosen.as_ref().is_none_or(|(r, _)| rank > *r) {
            chosen = Some((
                rank,
                Choice {
                    cell,
                    probability: p,
                    reason: Reason::Guess,
                    progress: Some(progress),
                    win_chance: None,
                },
            ));
        }
    }
    chosen.map(|(_, c)| c)
}

/// Whether the game, already started, can be won from here by certain moves alone (it is
/// played on: `game` ends won, or where a guess would be needed).
pub(super) fn solves_without_guessing(game: &mut Minefield) -> bool {
    let layout = game.layout();
    while game.status() == Status::Playing {
        let safe = match proven_safe(&layout, game.cells()) {
            Ok((safe, _)) if !safe.is_empty() => safe,
            _ => return false,
        };
        for cell in safe {
            if game.reveal(cell).is_err() {
                return false;
            }
        }
    }
    game.status() == Status::Won
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// Whether every safe cell was revealed.
    pub won: bool,
    /// Reveals that were guesses (the first click not counted).
    pub guesses: usize,
    /// Reveals in all (the first click counted).
    pub moves: usize,
    /// The guess that lost the game, where the player knows it.
    pub fatal: Option<Fatal>,
}

/// The guess that lost a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fatal {
    /// Which guess of the game it was (1: the first after the first click).
    pub guess: usize,
    /// The mine probability the exact analysis gave the cell.
    pub risk: f64,
}

/// Where a batch's lost games were lost (the games whose [`GameResult::fatal`] is known).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Losses {
    /// Lost games whose fatal guess is known.
    pub games: usize,
    /// Of those, the games lost on their first guess.
    pub on_first_guess: usize,
    /// Lost on a guess at even odds (a mine probability of one half, within 0.005).
    pub at_even_odds: usize,
    /// By the fatal guess's mine probability, in tenths: [0, 0.1), [0.1, 0.2), …, [0.9, 1].
    pub by_risk_tenths: [usize; 10],
}

impl Losses {
    fn add(&mut self, fatal: Fatal) {
        self.games += 1;
        self.on_first_guess += usize::from(fatal.guess == 1);
        self.at_even_odds += usize::from((fatal.risk - 0.5).abs() <= 0.005);
        self.by_risk_tenths[((fatal.risk * 10.0) as usize).min(9)] += 1;
    }

    fn merge(&mut self, other: &Losses) {
        self.games += other.games;
        self.on_first_guess += other.on_first_guess;
        self.at_even_odds += other.at_even_odds;
        for (a, b) in self.by_risk_tenths.iter_mut().zip(other.by_risk_tenths) {
            *a += b;
        }
    }
}

/// Plays one seeded game with the solver from `first`.
pub fn play_solver_game(
    layout: Layout,
    rule: FirstClick,
    first: usize,
    seed: u64,
    strategy: &Strategy,
) -> Result<GameResult, MinesError> {
    let mut game = Minefield::new(layout, rule, seed)?;
    game.reveal(first)?;
    let mut result = GameResult {
        won: false,
        guesses: 0,
        moves: 1,
        fatal: None,
    };
    while game.status() == Status::Playing {
        let (safe, analysis) =
            proven_safe(&layout, game.cells()).expect("a real game's numbers are consistent");
        if !safe.is_empty() {
            for cell in safe {
                game.reveal(cell)?;
                result.moves += 1;
            }
            continue;
        }
        let analysis = analysis.expect("made when single numbers prove nothing");
        let choice = choose_from(&layout, game.cells(), &analysis, strategy)
            .expect("a game being played has covered cells");
        game.reveal(choice.cell)?;
        result.moves += 1;
        result.guesses += 1;
        if matches!(game.status(), Status::Lost(_)) {
            result.fatal = Some(Fatal {
                guess: result.guesses,
                risk: choice.probability,
            });
        }
    }
    result.won = game.status() == Status::Won;
    Ok(result)
}

/// Win rate and cost of a batch of seeded games.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Evaluation {
    /// Games played.
    pub games: usize,
    /// Games won.
    pub wins: usize,
    /// `wins / games`.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_95: [f64; 2],
    /// Mean guesses a game (the first click not counted).
    pub guesses_per_game: f64,
    /// Mean wall time a game, in milliseconds.
    pub ms_per_game: f64,
    /// The longest game, in milliseconds.
    pub ms_longest_game: f64,
    /// Where the lost games were lost, when the player records it (the solver does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<Losses>,
}

/// The Wilson score interval (95%) of `wins` out of `games`.
pub fn wilson_95(wins: usize, games: usize) -> [f64; 2] {
    if games == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (games as f64, wins as f64 / games as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / (1.0 + z * z / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The seed of game `index` of a batch seeded `seed` (games are independent of the batch size).
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// Plays `games` games seeded from `seed` with `play` (which gets the game's seed) on `threads`
/// threads (1 in a browser) and sums up. The games and so the results do not depend on the
/// number of threads; `ms_per_game` is the mean time of one game.
pub fn evaluate(
    games: usize,
    seed: u64,
    threads: usize,
    play: impl Fn(u64) -> Result<GameResult, MinesError> + Sync,
) -> Result<Evaluation, MinesError> {
    let threads = threads.clamp(1, games.max(1));
    let run = |part: usize| -> Result<Tally, MinesError> {
        let mut tally = Tally::default();
        tally.play((part..games).step_by(threads), seed, &play)?;
        Ok(tally)
    };
    let parts: Vec<Result<Tally, MinesError>> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|part| {
                    let run = &run;
                    scope.spawn(move || run(part))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an evaluation thread panicked"))
                .collect()
        })
    };
    let mut tally = Tally::default();
    for part in parts {
        tally.merge(&part?);
    }
    Ok(tally.evaluation())
}

/// What the games played so far add up to: [`evaluate`] a part at a time (a thread's share, or
/// the page's worker's batches between which it reports progress).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    games: usize,
    wins: usize,
    guesses: usize,
    seconds: f64,
    longest: f64,
    losses: Losses,
}

impl Tally {
    /// Plays the games `indices` of the batch seeded `seed` with `play` (which gets the game's
    /// seed: [`game_seed`]) and adds them up.
    pub fn play(
        &mut self,
        indices: impl IntoIterator<Item = usize>,
        seed: u64,
        play: impl Fn(u64) -> Result<GameResult, MinesError>,
    ) -> Result<(), MinesError> {
        for i in indices {
            let started = clock::seconds();
            let result = play(game_seed(seed, i))?;
            let took = clock::seconds() - started;
            self.games += 1;
            self.seconds += took;
            self.longest = self.longest.max(took);
            self.wins += result.won as usize;
            self.guesses += result.guesses;
            if let Some(fatal) = result.fatal {
                self.losses.add(fatal);
            }
        }
        Ok(())
    }

    /// Adds another part's games.
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.guesses += other.guesses;
        self.seconds += other.seconds;
        self.longest = self.longest.max(other.longest);
        self.losses.merge(&other.losses);
    }

    /// Games played so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Their evaluation.
    pub fn evaluation(&self) -> Evaluation {
        let mut evaluation = Evaluation::from_totals(
            self.games,
            self.wins,
            self.guesses,
            self.seconds,
            self.longest,
        );
        if self.losses.games > 0 {
            evaluation.losses = Some(self.losses.clone());
        }
        evaluation
    }
}

impl Evaluation {
    /// The summary of `games` games that won `wins` times, guessed `guesses` times in all and took
    /// `seconds` in all, the longest `longest` seconds (`NaN`: not measured).
    pub fn from_totals(
        games: usize,
        wins: usize,
        guesses: usize,
        seconds: f64,
        longest: f64,
    ) -> Evaluation {
        let per_game = |x: f64| x / games.max(1) as f64;
        Evaluation {
            games,
            wins,
            win_rate: per_game(wins as f64),
            win_rate_95: wilson_95(wins, games),
            guesses_per_game: per_game(guesses as f64),
            ms_per_game: per_game(seconds * 1000.0),
            ms_longest_game: longest * 1000.0,
            losses: None,
        }
    }
}
