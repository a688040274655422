//! The greedy policy of a Q-network scored on every position of a board of at most 9 cells,
//! against the exact table.

use super::place;
use crate::agent::dqn::{best_allowed, QPolicy};
use crate::env::sliding::solve::ExactDistances;
use crate::env::sliding::{Board, Direction, SlidingEnv};
use crate::env::Environment;

/// The greedy policy's play from every position that can reach the goal (181,440 on the
/// 8-puzzle), scored against the exact table ([`score_every_position`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EveryPositionScore {
    /// Positions played: every one that can reach the goal, the goal included.
    pub positions: usize,
    /// Solved within `max_moves` moves.
    pub solved: usize,
    /// `solved / positions`, in percent.
    pub solved_percent: f64,
    /// Solved in the fewest moves.
    pub optimal: usize,
    /// Mean moves over the optimum of the solved positions.
    pub mean_extra_moves: f64,
    /// The solved positions' moves over the optimum, in percent of their optimal moves.
    pub extra_moves_percent: f64,
    /// `extra_moves[k]`: solved positions solved with `k` moves over the optimum.
    pub extra_moves: Vec<usize>,
    /// Per optimal distance (index): `[positions, solved]`.
    pub by_distance: Vec<[usize; 2]>,
    /// The greedy play's move limit (as in [`EvaluationSettings::greedy_max_moves`]).
    pub max_moves: usize,
    /// Seconds the scoring took.
    pub seconds: f64,
}

/// Plays `policy` (a Q-network) greedily from every position of `exact`'s puzzle that can reach
/// the goal, exactly as [`greedy_solve`] plays one (the best allowed move, at most `max_moves`
/// moves, a repeated position ends the play), and scores it against the exact distances. The
/// policy is deterministic, so it is read once for every position (batched forward passes) and
/// each position's play follows the chain of greedy moves, each resolved once.
pub fn score_every_position(
    policy: &QPolicy,
    env: &mut SlidingEnv,
    exact: &ExactDistances,
    max_moves: usize,
) -> Result<EveryPositionScore, String> {
    const BATCH: usize = 4096;
    if policy.is_value_network() {
        return Err(
            "scoring every position plays a Q-network's greedy moves, not a value network's".into(),
        );
    }
    let clock = web_time::Instant::now();
    let ranks: usize = (1..=exact.goal().len()).product();
    let positions: Vec<(usize, Board, u32)> = (0..ranks)
        .filter_map(|rank| {
            let board = exact.unrank(rank);
            exact.distance(&board).map(|d| (rank, board, d))
        })
        .collect();
    // The rank each position's greedy move leads to (its own when the move meets a wall).
    let mut next = vec![usize::MAX; ranks];
    let (observation_len, actions) = (env.observation_len(), env.num_actions());
    let mut observations = Vec::with_capacity(BATCH * observation_len);
    let mut mask = vec![true; actions];
    for chunk in positions.chunks(BATCH) {
        observations.resize(chunk.len() * observation_len, 0.0);
        for (&(_, board, _), out) in chunk.iter().zip(observations.chunks_mut(observation_len)) {
            place(env, board);
            env.write_observation(out);
        }
        let values = policy.q_values(&observations);
        for (&(rank, board, _), values) in chunk.iter().zip(values.chunks(actions)) {
            place(env, board);
            if policy.mask_actions {
                env.action_mask(&mut mask);
            }
            let direction = Direction::ALL[best_allowed(values, &mask)];
            next[rank] = exact.rank(&board.moved(direction).unwrap_or(board));
        }
    }
    // Moves to the goal along the greedy chain (`usize::MAX`: it loops, or meets a wall).
    const UNKNOWN: usize = usize::MAX - 1;
    let mut moves = vec![UNKNOWN; ranks];
    moves[exact.rank(exact.goal())] = 0;
    let mut chain = Vec::new();
    for &(rank, _, _) in &positions {
        let mut at = rank;
        while moves[at] == UNKNOWN {
            moves[at] = usize::MAX; // on the chain: met again, it loops
            chain.push(at);
            at = next[at];
        }
        let mut known = moves[at];
        while let Some(done) = chain.pop() {
            known = known.saturating_add(1);
            moves[done] = known;
        }
    }
    let mut score = EveryPositionScore {
        positions: positions.len(),
        solved: 0,
        solved_percent: 0.0,
        optimal: 0,
        mean_extra_moves: 0.0,
        extra_moves_percent: 0.0,
        extra_moves: Vec::new(),
        by_distance: vec![[0, 0]; exact.max_distance() as usize + 1],
        max_moves,
        seconds: 0.0,
    };
    let (mut extra_sum, mut optimal_sum) = (0usize, 0usize);
    for &(rank, _, distance) in &positions {
        let row = &mut score.by_distance[distance as usize];
        row[0] += 1;
        if moves[rank] > max_moves {
            continue;
        }
        row[1] += 1;
        let extra = moves[rank] - distance as usize;
        score.solved += 1;
        score.optimal += usize::from(extra == 0);
        if score.extra_moves.len() <= extra {
            score.extra_moves.resize(extra + 1, 0);
        }
        score.extra_moves[extra] += 1;
        extra_sum += extra;
        optimal_sum += distance as usize;
    }
    score.solved_percent = 100.0 * score.solved as f64 / score.positions.max(1) as f64;
    score.mean_extra_moves = extra_sum as f64 / score.solved.max(1) as f64;
    score.extra_moves_percent = 100.0 * extra_sum as f64 / optimal_sum.max(1) as f64;
    score.seconds = clock.elapsed().as_secs_f64();
    Ok(score)
}
