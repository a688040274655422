//! Batch-weighted A* (DeepCubeA's search, [`crate::agent::bwas`]) over a model's estimate of the
//! moves left, and its report on positions with known optimal lengths.

use super::{q_heuristic, ModelSolution};
use crate::agent::bwas::{bwas, BwasSettings};
use crate::agent::dqn::QPolicy;
use crate::env::sliding::{Board, SlidingEnv};

/// Solves `start` by batch-weighted A* over the network's estimate of the moves left
/// ([`q_heuristic`]).
pub fn model_bwas(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    start: Board,
    settings: &BwasSettings,
) -> ModelSolution {
    let goal = *env.puzzle().goal();
    let found = bwas(start, &goal, settings, |boards| {
        q_heuristic(policy, env, boards)
    });
    ModelSolution {
        method: "bwas",
        moves: found.moves,
        nodes: found.nodes,
    }
}

/// Batch-weighted A* over a network's estimate on positions with known optimal lengths
/// ([`bwas_report`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct BwasReport {
    /// The search's settings.
    pub settings: BwasSettings,
    /// Positions searched.
    pub positions: usize,
    /// Solved within the node budget.
    pub solved: usize,
    /// Solved in the fewest moves.
    pub optimal: usize,
    /// `optimal / positions`.
    pub optimal_rate: f64,
    /// Mean moves over the optimum of the solved positions.
    pub mean_extra_moves_when_solved: f64,
    /// Mean nodes expanded a position.
    pub mean_nodes: f64,
    /// Mean, median and longest milliseconds a position.
    pub mean_ms: f64,
    /// See `mean_ms`.
    pub median_ms: Option<f64>,
    /// See `mean_ms`.
    pub max_ms: Option<f64>,
}

/// Solves each of `positions` (with its optimal length) by [`model_bwas`]: solved, optimal,
/// extra moves, nodes and time.
pub fn bwas_report(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    positions: &[(Board, u32)],
    settings: &BwasSettings,
) -> BwasReport {
    let (mut solved, mut optimal, mut extra, mut nodes) = (0, 0, 0, 0);
    let mut ms: Vec<f64> = Vec::new();
    for &(start, length) in positions {
        let started = web_time::Instant::now();
        let found = model_bwas(policy, env, start, settings);
        ms.push(started.elapsed().as_secs_f64() * 1e3);
        nodes += found.nodes;
        if let Some(moves) = found.moves {
            solved += 1;
            let over = moves.len() - length as usize;
            extra += over;
            optimal += usize::from(over == 0);
        }
    }
    let n = positions.len().max(1) as f64;
    ms.sort_by(f64::total_cmp);
    BwasReport {
        settings: *settings,
        positions: positions.len(),
        solved,
        optimal,
        optimal_rate: optimal as f64 / n,
        mean_extra_moves_when_solved: extra as f64 / (solved.max(1) as f64),
        mean_nodes: nodes as f64 / n,
        mean_ms: ms.iter().sum::<f64>() / n,
        median_ms: ms.get(ms.len() / 2).copied(),
        max_ms: ms.last().copied(),
    }
}
