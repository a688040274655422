//! Expectimax search for 2048 over any evaluation of afterstates.
//!
//! Expectimax (Michie 1966; for 2048, nneonneo's 2048-ai and Szubert & Jaśkowski 2014's
//! comparison) alternates max nodes — the player picks the move with the best reward plus the value
//! of what follows — and chance nodes — the afterstate's value is the expectation over the new
//! tile: every empty cell equally likely, a 2 with probability 0.9 and a 4 with 0.1. At the depth
//! limit an afterstate is scored by the evaluation function (an n-tuple network's value, or any
//! heuristic): depth 1 is the greedy 1-ply policy, depth 2 looks one new tile and one more move
//! ahead, and so on. A transposition table keyed by (afterstate, depth left) shares the chance
//! nodes reached by different move orders; it is cleared before each decision.

use super::{Board, Move};
use crate::hash::FastMap;

/// An expectimax player of 2048 with evaluation `evaluate` of afterstates.
pub struct Expectimax<F> {
    evaluate: F,
    depth: u32,
    four_probability: f32,
    cache: FastMap<(u64, u32), f32>,
    nodes: u64,
}

impl<F: FnMut(Board) -> f32> Expectimax<F> {
    /// A search `depth` moves deep (at least 1) where new tiles are 4s with `four_probability`.
    pub fn new(evaluate: F, depth: u32, four_probability: f64) -> Self {
        Expectimax {
            evaluate,
            depth: depth.max(1),
            four_probability: four_probability as f32,
            cache: FastMap::default(),
            nodes: 0,
        }
    }

    /// The search depth in moves.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Chance nodes evaluated so far (cache hits not counted), over all decisions.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The move with the highest expected reward plus value, and that value; `None` when no move
    /// changes the board (the game is over).
    pub fn best_move(&mut self, board: Board) -> Option<(Move, f32)> {
        self.cache.clear();
        self.max_node(board, self.depth)
    }

    /// Max node: the best move's reward + expected value of its afterstate, `depth` moves deep.
    fn max_node(&mut self, board: Board, depth: u32) -> Option<(Move, f32)> {
        let mut best: Option<(Move, f32)> = None;
        for m in Move::ALL {
            let slide = board.slide(m);
            if slide.board == board {
                continue;
            }
            let value = slide.score as f32 + self.chance_node(slide.board, depth - 1);
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((m, value));
            }
        }
        best
    }

    /// Chance node: the expected value of an afterstate over the new tile, or its evaluation when
    /// no depth is left.
    fn chance_node(&mut self, afterstate: Board, depth: u32) -> f32 {
        if depth == 0 {
            return (self.evaluate)(afterstate);
        }
        if let Some(&value) = self.cache.get(&(afterstate.0, depth)) {
            return value;
        }
        self.nodes += 1;
        let empty = afterstate.empty_cells();
        let p4 = self.four_probability;
        let mut total = 0.0f32;
        for cell in 0..16 {
            if afterstate.exponent(cell) != 0 {
                continue;
            }
            // A board with no move left is worth nothing more.
            let two = self.max_node(afterstate.with(cell, 1), depth);
            total += (1.0 - p4) * two.map_or(0.0, |(_, v)| v);
            if p4 > 0.0 {
                let four = self.max_node(afterstate.with(cell, 2), depth);
                total += p4 * four.map_or(0.0, |(_, v)| v);
            }
        }
        let value = if empty == 0 {
            0.0
        } else {
            total / empty as f32
        };
        self.cache.insert((afterstate.0, depth), value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::ntuple::{NTupleNetwork, TdConfig, TdLearner, TupleSet};
    use crate::env::game2048::{play_games, Game2048Config};

    /// A plain heuristic: room to move is worth a lot.
    fn empty_cells_value(board: Board) -> f32 {
        10.0 * board.empty_cells() as f32
    }

    #[test]
    fn depth_one_is_the_greedy_policy() {
        let network = NTupleNetwork::new(TupleSet::FiveFourTuples);
        let mut search = Expectimax::new(|b| network.value(b), 1, 0.1);
        let board = Board::parse("2 2 4 8 / . . . 8 / . . . . / 2 . . .").unwrap();
        let (m, v) = search.best_move(board).unwrap();
        let (gm, gv, _) = network.best_move(board).unwrap();
        assert_eq!((m, v), (gm, gv));
        assert_eq!(
            search.best_move(Board::parse("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2").unwrap()),
            None
        );
    }

    #[test]
    fn depth_two_plays_legal_games_and_beats_the_greedy_baseline() {
        let config = Game2048Config::default();
        let greedy = play_games(config, 6, 7, |b| {
            Expectimax::new(empty_cells_value, 1, 0.1)
                .best_move(b)
                .unwrap()
                .0
        });
        let mut search = Expectimax::new(empty_cells_value, 2, 0.1);
        // play_games asserts that every chosen move is legal.
        let deeper = play_games(config, 6, 7, |b| search.best_move(b).unwrap().0);
        assert!(search.nodes() > 0);
        assert!(
            deeper.mean_score() > greedy.mean_score(),
            "depth 2: {}, greedy: {}",
            deeper.mean_score(),
            greedy.mean_score()
        );
    }

    #[test]
    fn depth_two_over_a_trained_network_beats_its_greedy_policy() {
        let mut learner = TdLearner::new(
            NTupleNetwork::new(TupleSet::FiveFourTuples),
            TdConfig {
                seed: 21,
                ..TdConfig::default()
            },
        );
        learner.train_games(1000);
        let network = learner.network;
        let config = Game2048Config::default();
        let greedy = play_games(config, 10, 8, |b| network.best_move(b).unwrap().0);
        let mut search = Expectimax::new(|b| network.value(b), 2, 0.1);
        let deeper = play_games(config, 10, 8, |b| search.best_move(b).unwrap().0);
        assert!(
            deeper.mean_score() > 1.2 * greedy.mean_score(),
            "depth 2: {}, greedy: {}",
            deeper.mean_score(),
            greedy.mean_score()
        );
    }
}
