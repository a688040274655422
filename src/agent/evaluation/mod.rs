//! How well a trained Q-network solves sliding puzzles, measured against exact optimal distances
//! (the trainer, `puzzlelab sliding eval` and `puzzlelab sliding solve --algo dqn` share it).
//!
//! Positions are fresh and grouped by their optimal distance: on boards of at most 9 cells,
//! [`exact_positions`] draws them uniformly at each distance from the exact table; on larger boards
//! [`OptimalLengths`] solves random walks over pattern databases the caller loads. For each group
//! the table gives
//! - the greedy policy's solved rate within [`EvaluationSettings::greedy_max_moves`] moves (it stops
//!   as soon as a state repeats), and its mean extra moves over the optimum;
//! - a model-guided beam search ([`beam_search`]): the network's value `max_a Q(s, a)` ranks the
//!   frontier, so `−max Q` serves as the heuristic; its solved rate within a node budget and its
//!   mean extra moves.
//!
//! Beside this file: `positions.rs` (where positions and their optimal lengths come from),
//! `model_bwas.rs` (batch-weighted A* over a model, and its report), `every_position.rs` (the
//! greedy policy scored on every position of a small board), `model.rs` (a model with its
//! puzzle, as the CLI's and the page's solves use it).

mod every_position;
mod model;
mod model_bwas;
mod positions;

pub use every_position::{score_every_position, EveryPositionScore};
pub use model::{ExactSource, SlidingModel, TimedSolve, DEFAULT_LAMBDA_Q, DEFAULT_LAMBDA_VALUES};
pub use model_bwas::{bwas_report, model_bwas, BwasReport};
pub use positions::{exact_positions, OptimalLengths, LARGE_BOARD_DIFFICULTIES};

use crate::agent::dqn::QPolicy;
use crate::agent::q_table::Rollout;
use crate::env::sliding::{Board, Direction, SlidingEnv, StartRule};
use crate::env::Environment;
use std::collections::HashSet;
use std::fmt::Write as _;

/// How an evaluation runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EvaluationSettings {
    /// Positions drawn at each optimal distance (boards of at most 9 cells).
    pub per_distance: usize,
    /// Seed of the positions (kept apart from training's seeds by the caller).
    pub seed: u64,
    /// Moves the greedy policy may make (the thesis's episode limit: 50).
    pub greedy_max_moves: usize,
    /// Nodes the beam search keeps at each depth.
    pub beam_width: usize,
    /// Nodes the beam search may expand in all.
    pub max_nodes: usize,
    /// Depth at which the beam search gives up.
    pub max_depth: usize,
}

impl Default for EvaluationSettings {
    fn default() -> Self {
        EvaluationSettings {
            per_distance: 20,
            seed: 0xE7A1,
            greedy_max_moves: 50,
            beam_width: 64,
            max_nodes: 20_000,
            max_depth: 200,
        }
    }
}

impl EvaluationSettings {
    /// The defaults for a board of `cells` cells: up to 9 cells, a beam of 64 and 20,000 nodes
    /// (enough for the 8-puzzle); above, a beam of 1,024 and a million nodes, which a 15-puzzle
    /// model needs to solve uniformly random positions (optimal lengths around 52).
    pub fn for_cells(cells: usize) -> Self {
        if cells <= crate::env::sliding::solve::MAX_EXACT_CELLS {
            EvaluationSettings::default()
        } else {
            EvaluationSettings {
                beam_width: 1024,
                max_nodes: 1_000_000,
                ..EvaluationSettings::default()
            }
        }
    }
}

/// One row of the table: the positions at one optimal distance.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DistanceRow {
    /// The optimal number of moves of these positions.
    pub optimal: u32,
    /// Positions evaluated.
    pub positions: usize,
    /// Solved by the greedy policy within the move limit.
    pub greedy_solved: usize,
    /// `greedy_solved / positions`, in percent.
    pub greedy_solved_percent: f32,
    /// Mean moves over the optimum of the greedy solutions.
    pub greedy_mean_extra: Option<f32>,
    /// Solved by the model-guided beam search within its budget.
    pub search_solved: usize,
    /// `search_solved / positions`, in percent.
    pub search_solved_percent: f32,
    /// Mean moves over the optimum of the search's solutions.
    pub search_mean_extra: Option<f32>,
}

/// The evaluation of one model: rows by optimal distance, then all positions together.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EvaluationTable {
    /// How it was run.
    pub settings: EvaluationSettings,
    /// One row per optimal distance, shortest first.
    pub rows: Vec<DistanceRow>,
    /// All positions together (its `optimal` is 0).
    pub overall: DistanceRow,
    /// Seconds the evaluation took.
    pub seconds: f32,
}

impl EvaluationTable {
    /// The table for people: one line per distance, then the total.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("optimal  positions  greedy solved  extra  |  search solved  extra\n");
        let extra = |e: Option<f32>| e.map_or("-".to_string(), |e| format!("{e:.2}"));
        let mut line = |label: String, r: &DistanceRow| {
            let _ = writeln!(
                out,
                "{label:>7}  {:>9}  {:>12.1}%  {:>5}  |  {:>12.1}%  {:>5}",
                r.positions,
                r.greedy_solved_percent,
                extra(r.greedy_mean_extra),
                r.search_solved_percent,
                extra(r.search_mean_extra),
            );
        };
        for row in &self.rows {
            line(row.optimal.to_string(), row);
        }
        line("all".into(), &self.overall);
        out
    }
}

/// An environment that starts at `board` (used to play and to write observations).
pub fn place(env: &mut SlidingEnv, board: Board) {
    env.set_start(StartRule::Fixed(board));
    env.reset(0);
}

/// The greedy policy's play from `start` (at most `max_moves` moves, stopping at a repeat).
pub fn greedy_solve(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    max_moves: usize,
) -> Rollout {
    if !policy.is_value_network() {
        place(env, start);
        return policy.greedy_rollout(env, max_moves);
    }
    // A value network: the move to the child with the fewest moves left by its estimate.
    let goal = *env.puzzle().goal();
    let (mut board, mut actions) = (start, Vec::new());
    let mut visited = HashSet::from([start]);
    while board != goal && actions.len() < max_moves {
        let children: Vec<(Direction, Board)> = Direction::ALL
            .into_iter()
            .filter_map(|d| board.moved(d).map(|child| (d, child)))
            .collect();
        let boards: Vec<Board> = children.iter().map(|&(_, b)| b).collect();
        let estimates = q_heuristic(policy, env, &boards);
        let best = (0..children.len())
            .map(|k| {
                (
                    if boards[k] == goal {
                        f32::NEG_INFINITY
                    } else {
                        estimates[k]
                    },
                    k,
                )
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, k)| k)
            .expect("every position has a move");
        let (d, child) = children[best];
        board = child;
        actions.push(d.index());
        if !visited.insert(board) {
            break;
        }
    }
    Rollout {
        actions,
        terminated: board == goal,
    }
}

/// What a beam search found.
#[derive(Clone, Debug, PartialEq)]
pub struct BeamSearch {
    /// The blank's moves to the goal; `None` when the search gave up.
    pub moves: Option<Vec<Direction>>,
    /// Nodes expanded.
    pub nodes: usize,
}

/// Beam search guided by the network: from the start, expand every node of the beam, drop states
/// seen before, and keep the `width` children with the highest value `max_a Q(child, a)` (all
/// children of one depth are valued in one batch). Finds the blank's moves to the goal, or gives
/// up when the beam empties, `max_depth` is reached or `max_nodes` nodes were expanded.
/// The solution is not optimal in general: the table measures how far from it.
pub fn beam_search(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    width: usize,
    max_nodes: usize,
    max_depth: usize,
) -> BeamSearch {
    let goal = *env.puzzle().goal();
    // Every node ever kept: its board, its parent's index and the move from the parent.
    let mut nodes: Vec<(Board, usize, Option<Direction>)> = vec![(start, 0, None)];
    let path_to = |nodes: &[(Board, usize, Option<Direction>)], mut i: usize| {
        let mut moves = Vec::new();
        while let Some(d) = nodes[i].2 {
            moves.push(d);
            i = nodes[i].1;
        }
        moves.reverse();
        Some(moves)
    };
    let observation_len = env.observation_len();
    let num_actions = policy.network_config().num_actions; // 1 for a value network
    let mut seen = HashSet::from([start]);
    let mut beam = vec![0usize];
    let mut expanded = 0usize;
    let mut observations = Vec::new();
    let moves = 'search: {
        if start == goal {
            break 'search Some(Vec::new());
        }
        for _ in 0..max_depth {
            let mut children = Vec::new();
            for &parent in &beam {
                if expanded >= max_nodes {
                    break 'search None;
                }
                expanded += 1;
                let board = nodes[parent].0;
                for d in Direction::ALL {
                    let Some(child) = board.moved(d) else {
                        continue;
                    };
                    if !seen.insert(child) {
                        continue;
                    }
                    nodes.push((child, parent, Some(d)));
                    if child == goal {
                        break 'search path_to(&nodes, nodes.len() - 1);
                    }
                    children.push(nodes.len() - 1);
                }
            }
            if children.len() > width {
                observations.clear();
                observations.resize(children.len() * observation_len, 0.0);
                for (k, &i) in children.iter().enumerate() {
                    place(env, nodes[i].0);
                    env.write_observation(
                        &mut observations[k * observation_len..][..observation_len],
                    );
                }
                let q = policy.q_values(&observations); // [children, num_actions]
                let mut ranked: Vec<(f32, usize)> = children
                    .iter()
                    .enumerate()
                    .map(|(k, &i)| {
                        let values = &q[k * num_actions..(k + 1) * num_actions];
                        (values.iter().copied().fold(f32::NEG_INFINITY, f32::max), i)
                    })
                    .collect();
                ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
                children = ranked.into_iter().take(width).map(|(_, i)| i).collect();
            }
            if children.is_empty() {
                break 'search None;
            }
            beam = children;
        }
        None
    };
    BeamSearch {
        moves,
        nodes: expanded,
    }
}

/// The network's estimate of the moves left for each board, −max_a Q(s, a) (with the steps
/// reward, −1 a move and γ = 1, max Q is minus the moves to the goal), all in one forward pass:
/// the heuristic of [`crate::agent::bwas::bwas`].
pub fn q_heuristic(policy: &QPolicy, env: &mut SlidingEnv, boards: &[Board]) -> Vec<f32> {
    let observation_len = env.observation_len();
    let num_actions = policy.network_config().num_actions; // 1 for a value network
    let mut observations = vec![0.0; boards.len() * observation_len];
    for (board, out) in boards.iter().zip(observations.chunks_mut(observation_len)) {
        place(env, *board);
        env.write_observation(out);
    }
    policy
        .q_values(&observations)
        .chunks(num_actions)
        .map(|values| -values.iter().copied().fold(f32::NEG_INFINITY, f32::max))
        .collect()
}

/// [`beam_search`] with the settings' width, node budget and depth.
fn beam_search_with(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    settings: &EvaluationSettings,
) -> BeamSearch {
    beam_search(
        policy,
        env,
        start,
        settings.beam_width,
        settings.max_nodes,
        settings.max_depth,
    )
}

/// How a model solved a position ([`model_solve`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSolution {
    /// `"greedy"` when the greedy policy solved it, else `"beam-search"`.
    pub method: &'static str,
    /// The blank's moves to the goal; `None` when neither found one.
    pub moves: Option<Vec<Direction>>,
    /// Nodes the beam search expanded (0 when greedy play sufficed).
    pub nodes: usize,
}

/// Solves `start` with a model as the CLI and the page do: greedy play within
/// `settings.greedy_max_moves` moves, and if that fails, the model-guided beam search.
pub fn model_solve(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    settings: &EvaluationSettings,
) -> ModelSolution {
    let greedy = greedy_solve(policy, env, start, settings.greedy_max_moves);
    if greedy.terminated {
        let moves = greedy.actions.iter().map(|&a| Direction::ALL[a]).collect();
        return ModelSolution {
            method: "greedy",
            moves: Some(moves),
            nodes: 0,
        };
    }
    let found = beam_search_with(policy, env, start, settings);
    ModelSolution {
        method: "beam-search",
        moves: found.moves,
        nodes: found.nodes,
    }
}

/// A model's solution as the CLI and the page report it: the solve report (its moves checked by
/// replaying them), how it was found, and the optimum where it is known.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ModelSolveReport {
    /// The moves, their tiles and length, whether they reach the goal and are optimal.
    #[serde(flatten)]
    pub report: crate::env::sliding::solve::SolveReport,
    /// `greedy`, `beam-search` or `bwas`.
    pub method: &'static str,
    /// The position's optimal number of moves, where known (boards of at most 9 cells).
    pub optimal_length: Option<u32>,
    /// Moves over the optimum of a solution (`None`: not solved, or the optimum is unknown).
    pub extra_moves: Option<i64>,
}

impl ModelSolveReport {
    /// The report of `moves` (none: the search gave up) from `start` to `goal`, found by `method`
    /// after expanding `nodes`, against `optimal_length`.
    pub fn new(
        start: &Board,
        goal: &Board,
        (method, moves, nodes): (&'static str, Option<Vec<Direction>>, usize),
        optimal_length: Option<u32>,
    ) -> ModelSolveReport {
        use crate::env::sliding::solve::{SolveReport, SolveStatus};
        let mut report =
            SolveReport::from_moves(start, moves.unwrap_or_default(), goal, false, "dqn");
        report.nodes = nodes as u64;
        let solved = report.status == SolveStatus::Solved;
        report.optimal = solved && Some(report.length as u32) == optimal_length;
        let extra_moves =
            (optimal_length.filter(|_| solved)).map(|d| report.length as i64 - d as i64);
        ModelSolveReport {
            report,
            method,
            optimal_length,
            extra_moves,
        }
    }
}

impl ModelSolution {
    /// Its report from `start` to `goal` against `optimal_length` ([`ModelSolveReport::new`]).
    pub fn report(
        self,
        start: &Board,
        goal: &Board,
        optimal_length: Option<u32>,
    ) -> ModelSolveReport {
        ModelSolveReport::new(
            start,
            goal,
            (self.method, self.moves, self.nodes),
            optimal_length,
        )
    }
}

/// How a model did on one position: the greedy policy's and the model-guided solver's extra moves
/// over the optimum (`None`: not solved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionOutcome {
    /// The position's optimal number of moves.
    pub optimal: u32,
    /// Extra moves of the greedy solution.
    pub greedy_extra: Option<usize>,
    /// Extra moves of the model-guided solver's solution (the better of greedy and beam search).
    pub search_extra: Option<usize>,
}

/// Plays one position greedily and, unless greedy play was already optimal, by beam search.
pub fn evaluate_position(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    optimal: u32,
    settings: &EvaluationSettings,
) -> PositionOutcome {
    let greedy = greedy_solve(policy, env, start, settings.greedy_max_moves);
    let greedy_extra = greedy
        .terminated
        .then(|| greedy.actions.len().saturating_sub(optimal as usize));
    let search = if greedy.terminated && greedy.actions.len() == optimal as usize {
        Some(greedy.actions.len())
    } else {
        beam_search_with(policy, env, start, settings)
            .moves
            .map(|moves| moves.len())
            .map(|search| match greedy.terminated {
                // Both ran: the better of the two is what the model-guided solver returns.
                true => search.min(greedy.actions.len()),
                false => search,
            })
    };
    PositionOutcome {
        optimal,
        greedy_extra,
        search_extra: search.map(|length| length.saturating_sub(optimal as usize)),
    }
}

/// Sums position outcomes into an [`EvaluationTable`], one row per optimal distance, so that an
/// evaluation can run a few positions at a time (the page's worker reports progress between).
#[derive(Clone, Debug, Default)]
pub struct EvaluationTally {
    /// Per distance (sorted): the row so far, and the sums of greedy and search extra moves.
    rows: Vec<(DistanceRow, usize, usize)>,
    overall: (DistanceRow, usize, usize),
}

impl EvaluationTally {
    /// Counts one position.
    pub fn add(&mut self, outcome: PositionOutcome) {
        let i = match self
            .rows
            .binary_search_by_key(&outcome.optimal, |(row, _, _)| row.optimal)
        {
            Ok(i) => i,
            Err(i) => {
                let row = DistanceRow {
                    optimal: outcome.optimal,
                    ..DistanceRow::default()
                };
                self.rows.insert(i, (row, 0, 0));
                i
            }
        };
        for (row, greedy_sum, search_sum) in [&mut self.rows[i], &mut self.overall] {
            row.positions += 1;
            if let Some(e) = outcome.greedy_extra {
                row.greedy_solved += 1;
                *greedy_sum += e;
            }
            if let Some(e) = outcome.search_extra {
                row.search_solved += 1;
                *search_sum += e;
            }
        }
    }

    /// Positions counted so far.
    pub fn positions(&self) -> usize {
        self.overall.0.positions
    }

    /// The table: rates and means of every row and of all positions together.
    pub fn table(&self, settings: &EvaluationSettings, seconds: f32) -> EvaluationTable {
        let finish = |(row, greedy_sum, search_sum): &(DistanceRow, usize, usize)| {
            let mut row = row.clone();
            let percent = |k: usize| 100.0 * k as f32 / row.positions.max(1) as f32;
            let mean = |sum: usize, k: usize| (k > 0).then(|| sum as f32 / k as f32);
            row.greedy_solved_percent = percent(row.greedy_solved);
            row.search_solved_percent = percent(row.search_solved);
            row.greedy_mean_extra = mean(*greedy_sum, row.greedy_solved);
            row.search_mean_extra = mean(*search_sum, row.search_solved);
            row
        };
        EvaluationTable {
            settings: settings.clone(),
            rows: self.rows.iter().map(finish).collect(),
            overall: finish(&self.overall),
            seconds,
        }
    }
}

/// Evaluates `policy` on `positions` (each with its optimal number of moves), greedy and by beam
/// search, grouped by optimal distance. `env` is any environment of the puzzle (a copy of it
/// plays).
pub fn evaluate_by_distance(
    policy: &QPolicy,
    env: &SlidingEnv,
    positions: &[(Board, u32)],
    settings: &EvaluationSettings,
) -> EvaluationTable {
    let mut evaluation = StepwiseEvaluation::new(policy, env, positions.to_vec(), settings);
    evaluation.step(usize::MAX);
    evaluation.table()
}

/// [`evaluate_by_distance`] a few positions at a time (the page's worker reports progress
/// between steps).
pub struct StepwiseEvaluation {
    positions: Vec<(Board, u32)>,
    policy: QPolicy,
    env: SlidingEnv,
    tally: EvaluationTally,
    settings: EvaluationSettings,
    clock: web_time::Instant,
}

impl StepwiseEvaluation {
    /// An evaluation of `policy` on `positions`, none played yet.
    pub fn new(
        policy: &QPolicy,
        env: &SlidingEnv,
        positions: Vec<(Board, u32)>,
        settings: &EvaluationSettings,
    ) -> Self {
        StepwiseEvaluation {
            positions,
            policy: policy.clone(),
            env: env.clone(),
            tally: EvaluationTally::default(),
            settings: settings.clone(),
            clock: web_time::Instant::now(),
        }
    }

    /// Plays up to `count` more positions; true once all are done.
    pub fn step(&mut self, count: usize) -> bool {
        let start = self.tally.positions();
        let end = start.saturating_add(count).min(self.positions.len());
        for &(board, optimal) in &self.positions[start..end] {
            let outcome =
                evaluate_position(&self.policy, &mut self.env, board, optimal, &self.settings);
            self.tally.add(outcome);
        }
        end == self.positions.len()
    }

    /// Positions played so far.
    pub fn done(&self) -> usize {
        self.tally.positions()
    }

    /// Positions in all.
    pub fn total(&self) -> usize {
        self.positions.len()
    }

    /// The table of the positions played so far.
    pub fn table(&self) -> EvaluationTable {
        self.tally
            .table(&self.settings, self.clock.elapsed().as_secs_f32())
    }
}
