//! The n-tuple network (Szubert & Jaśkowski 2014): the value of a 2048 afterstate as a sum of
//! table look-ups over every tuple in all 8 symmetries, and the greedy 1-ply move it implies.

use super::tuples::{symmetric_cell, Image, TupleSet};
use crate::env::game2048::{Board, Move, Slide};

/// An n-tuple network: the value function of 2048 afterstates.
#[derive(Clone, Debug)]
pub struct NTupleNetwork {
    pub(super) set: TupleSet,
    images: Vec<Image>,
    pub(super) weights: Vec<f32>,
    pub(super) games_trained: u64,
}

impl NTupleNetwork {
    /// A network of `set` with every weight 0 (an untrained network values every afterstate 0).
    pub fn new(set: TupleSet) -> Self {
        let mut images = Vec::new();
        let mut offset = 0;
        for tuple in set.tuples() {
            for symmetry in 0..8 {
                let mut cells = [0u8; 6];
                for (k, &cell) in tuple.iter().enumerate() {
                    cells[k] = symmetric_cell(cell, symmetry);
                }
                images.push(Image {
                    offset,
                    len: tuple.len(),
                    cells,
                });
            }
            offset += 1 << (4 * tuple.len());
        }
        NTupleNetwork {
            set,
            images,
            weights: vec![0.0; offset],
            games_trained: 0,
        }
    }

    /// The tuple set.
    pub fn tuple_set(&self) -> TupleSet {
        self.set
    }

    /// Training games played so far (over all resumed runs).
    pub fn games_trained(&self) -> u64 {
        self.games_trained
    }

    /// All weights, tuple by tuple.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Weights one evaluation touches (tuples × 8 symmetries).
    pub fn weights_per_value(&self) -> usize {
        self.images.len()
    }

    /// The value of an afterstate: the sum of its tuples' weights over the 8 symmetries.
    #[inline]
    pub fn value(&self, board: Board) -> f32 {
        self.images
            .iter()
            .map(|image| self.weights[image.index(board.0)])
            .sum()
    }

    /// Adds `delta` to every weight the afterstate `board` touches.
    #[inline]
    pub(super) fn adjust(&mut self, board: Board, delta: f32) {
        for image in &self.images {
            let i = image.index(board.0);
            self.weights[i] += delta;
        }
    }

    /// The greedy (1-ply) move: the legal move maximising reward + V(afterstate), with that sum
    /// and the slide; `None` when the game is over.
    #[inline]
    pub fn best_move(&self, board: Board) -> Option<(Move, f32, Slide)> {
        let mut best: Option<(Move, f32, Slide)> = None;
        for m in Move::ALL {
            let slide = board.slide(m);
            if slide.board == board {
                continue;
            }
            let value = slide.score as f32 + self.value(slide.board);
            if best.is_none_or(|(_, v, _)| value > v) {
                best = Some((m, value, slide));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_value_is_the_same_on_all_eight_symmetric_boards() {
        let mut network = NTupleNetwork::new(TupleSet::FiveFourTuples);
        let mut rng = Rng::new(3);
        for w in network.weights.iter_mut() {
            *w = rng.unit() as f32;
        }
        let board = Board::parse("2 4 8 . / 16 . 2 . / . 4 . 64 / 2 . . 1024").unwrap();
        let v = network.value(board);
        let mut b = board;
        for _ in 0..4 {
            b = b.transpose().mirror(); // a quarter turn
            assert!((network.value(b) - v).abs() < 1e-3);
            assert!((network.value(b.mirror()) - v).abs() < 1e-3);
        }
    }
}
