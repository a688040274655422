//! A game of 2048 as an [`Environment`]: the rules that may vary ([`Game2048Config`]: new tiles,
//! reward), the score and move count, the one-hot observation, and the DQN's shaped reward
//! ([`Reward2048::WeightedFeatures`], after Mehta's RL paper for constraint-satisfaction games).

use super::{Board, Move, Slide};
use crate::env::{Environment, Step};
use crate::rng::Rng;

/// The reward a step reports. Serialized (manifests' `training_rules`) by its kebab-case name;
/// the name written before the rename, `seed004`, still reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reward2048 {
    /// The score the move gained (the sum of the merged tiles' values): the game's own score,
    /// the reward of the n-tuple papers.
    #[default]
    Score,
    /// A weighted sum of four features of the board after the move's slide, R = 4·x0 + 3·x1 +
    /// 1·x2 + 1·x3, with x0 the maximum tile, x1 the free cells, x2 the pairs of adjacent equal
    /// tiles and x3 "the sum of neighbouring cells": the shaped reward of Mehta's RL paper for
    /// constraint-satisfaction games (docs/sources.md). The paper gives no units, so puzzlelab
    /// reads x0 as the maximum tile's exponent (log2) and x3 as the score the move gained (the
    /// merged neighbours' sum) divided by 2^x0, which keeps the four terms of the same size. A
    /// move that changes nothing earns 0.
    #[serde(alias = "seed004")]
    WeightedFeatures,
}

impl Reward2048 {
    /// `score` or `weighted-features` (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Reward2048::Score => "score",
            Reward2048::WeightedFeatures => "weighted-features",
        }
    }
}

/// The weighted-features reward of the afterstate `slide` (see [`Reward2048::WeightedFeatures`]).
pub fn weighted_features_reward(slide: Slide) -> f32 {
    let board = slide.board;
    let max_exponent = board.max_exponent() as f32;
    let free = board.empty_cells() as f32;
    let mut pairs = 0u32;
    for row in 0..4 {
        for col in 0..4 {
            let e = board.exponent(4 * row + col);
            if e == 0 {
                continue;
            }
            if col < 3 && board.exponent(4 * row + col + 1) == e {
                pairs += 1;
            }
            if row < 3 && board.exponent(4 * (row + 1) + col) == e {
                pairs += 1;
            }
        }
    }
    let merged = slide.score as f32 / board.max_tile().max(1) as f32;
    4.0 * max_exponent + 3.0 * free + pairs as f32 + merged
}

/// The rules that may vary: how new tiles are drawn and what a step rewards.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Game2048Config {
    /// Probability that a new tile is a 4 rather than a 2 (original game: 0.1;
    /// Mehta's RL paper: 0).
    pub four_probability: f64,
    /// What a step rewards.
    pub reward: Reward2048,
}

impl Default for Game2048Config {
    fn default() -> Self {
        Game2048Config {
            four_probability: 0.1,
            reward: Reward2048::Score,
        }
    }
}

impl Game2048Config {
    /// The rule of Mehta's RL paper: every new tile is a 2.
    pub fn always_two() -> Self {
        Game2048Config {
            four_probability: 0.0,
            ..Default::default()
        }
    }
}

/// A game of 2048: the board, the score, the move count and the game's own random generator.
#[derive(Clone, Debug)]
pub struct Game2048 {
    config: Game2048Config,
    board: Board,
    score: u64,
    moves: u64,
    rng: Rng,
}

impl Game2048 {
    /// A new game (two starting tiles drawn with seed 0; call [`Environment::reset`] to reseed).
    pub fn new(config: Game2048Config) -> Self {
        let mut game = Game2048 {
            config,
            board: Board::EMPTY,
            score: 0,
            moves: 0,
            rng: Rng::new(0),
        };
        game.reset(0);
        game
    }

    /// A game that goes on from `board` (score 0), its new tiles drawn with `seed`.
    pub fn from_board(config: Game2048Config, board: Board, seed: u64) -> Self {
        Game2048 {
            config,
            board,
            score: 0,
            moves: 0,
            rng: Rng::new(seed),
        }
    }

    /// The rules this game follows.
    pub fn config(&self) -> Game2048Config {
        self.config
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The score so far: the sum of all merged tiles' values.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Moves that changed the board so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The largest tile's value.
    pub fn max_tile(&self) -> u32 {
        self.board.max_tile()
    }

    /// Plays `direction`: slides, adds the score and, when the board changed, a new tile. Returns
    /// the slide (its `score` is the points gained; 0 and the same board when illegal).
    pub fn play(&mut self, direction: Move) -> Slide {
        let slide = self.board.slide(direction);
        if slide.board != self.board {
            self.score += slide.score as u64;
            self.moves += 1;
            self.board = slide
                .board
                .spawn(&mut self.rng, self.config.four_probability);
        }
        slide
    }
}

impl Environment for Game2048 {
    type State = Board;

    fn num_actions(&self) -> usize {
        4
    }

    fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.score = 0;
        self.moves = 0;
        let p = self.config.four_probability;
        self.board = Board::EMPTY.spawn(&mut self.rng, p).spawn(&mut self.rng, p);
    }

    fn state(&self) -> Board {
        self.board
    }

    fn action_mask(&self, mask: &mut [bool]) {
        for (m, slot) in Move::ALL.iter().zip(mask.iter_mut()) {
            *slot = self.board.can_move(*m);
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let direction = Move::from_index(action).expect("2048 has actions 0..4");
        let before = self.board;
        let slide = self.play(direction);
        let reward = if slide.board == before {
            0.0
        } else {
            match self.config.reward {
                Reward2048::Score => slide.score as f32,
                Reward2048::WeightedFeatures => weighted_features_reward(slide),
            }
        };
        Step {
            reward,
            terminated: self.board.is_game_over(),
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.board.is_game_over()
    }

    fn validate(&self) -> Result<(), String> {
        let tiles = 16 - self.board.empty_cells();
        if tiles < 2 {
            return Err(format!("{tiles} tiles: a game always has at least two"));
        }
        if self.score % 2 == 1 {
            return Err(format!("odd score {}", self.score));
        }
        Ok(())
    }

    fn observation_len(&self) -> usize {
        256
    }

    fn write_observation(&self, out: &mut [f32]) {
        out[..256].fill(0.0);
        for cell in 0..16 {
            out[16 * cell + self.board.exponent(cell) as usize] = 1.0;
        }
    }

    fn puzzle_id(&self) -> String {
        "2048 4x4".to_string()
    }

    fn distance_to_goal(&self) -> Option<f32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::check_env;
    use crate::env::game2048::board::tests::board;
    use crate::env::game2048::{random_move, Move};

    #[test]
    fn a_new_tile_appears_only_after_a_move_that_changes_the_board() {
        let start = board("2 4 8 16 / . . . . / . . . . / . . . .");
        let mut game = Game2048::from_board(Game2048Config::default(), start, 5);
        // Left and up change nothing: no tile, no score, no move counted.
        for m in [Move::Left, Move::Up] {
            let step = game.step(m.index());
            assert_eq!(game.board(), start);
            assert_eq!(step.reward, 0.0);
        }
        assert_eq!(game.moves(), 0);
        let step = game.step(Move::Down.index());
        assert_eq!(step.reward, 0.0);
        assert_eq!(game.moves(), 1);
        let after = game.board();
        assert_eq!(
            16 - after.empty_cells(),
            5,
            "four tiles slid plus one new one:\n{after}"
        );
        let bottom: Vec<u32> = (12..16).map(|c| after.tile(c)).collect();
        assert_eq!(bottom, [2, 4, 8, 16]);
    }

    #[test]
    fn score_accumulates_merged_values_and_the_reward_is_the_gain() {
        let start = board("2 2 4 4 / 8 8 . . / . . . . / . . . .");
        let mut game = Game2048::from_board(Game2048Config::always_two(), start, 1);
        let step = game.step(Move::Left.index());
        assert_eq!(step.reward, (4 + 8 + 16) as f32);
        assert_eq!(game.score(), 28);
        assert_eq!(game.max_tile(), 16);
    }

    #[test]
    fn game_over_exactly_when_no_move_changes_the_board() {
        let stuck = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2");
        assert!(stuck.is_game_over());
        let full_but_mergeable = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 8 8");
        assert!(!full_but_mergeable.is_game_over());
        let mut game = Game2048::from_board(Game2048Config::default(), full_but_mergeable, 3);
        let mut mask = [false; 4];
        game.action_mask(&mut mask);
        assert_eq!(
            mask,
            [false, true, false, true],
            "only right and left merge the 8s"
        );
        // The game may or may not end after left, but `terminated` must agree with the board.
        let step = game.step(Move::Left.index());
        assert_eq!(step.reward, 16.0);
        assert_eq!(step.terminated, game.board().is_game_over());
        assert_eq!(game.board().max_tile(), 16);
    }

    #[test]
    fn the_mask_agrees_with_the_moves_that_change_the_board() {
        let mut game = Game2048::new(Game2048Config::default());
        let mut rng = Rng::new(9);
        let mut mask = [false; 4];
        for seed in 0..20 {
            game.reset(seed);
            while !game.is_terminal() {
                game.action_mask(&mut mask);
                for m in Move::ALL {
                    assert_eq!(mask[m.index()], game.board().slide(m).board != game.board());
                }
                let m = random_move(game.board(), &mut rng).unwrap();
                game.play(m);
            }
            game.action_mask(&mut mask);
            assert_eq!(mask, [false; 4]);
        }
    }

    #[test]
    fn same_seed_same_game_and_two_starting_tiles() {
        let play = |seed| {
            let mut game = Game2048::new(Game2048Config::default());
            game.reset(seed);
            assert_eq!(16 - game.board().empty_cells(), 2);
            let mut rng = Rng::new(seed);
            let mut boards = vec![game.board()];
            while let Some(m) = random_move(game.board(), &mut rng) {
                game.play(m);
                boards.push(game.board());
            }
            (boards, game.score())
        };
        assert_eq!(play(4), play(4));
        assert_ne!(play(4), play(5));
    }

    #[test]
    fn new_tiles_are_twos_and_fours_in_about_nine_to_one() {
        let mut rng = Rng::new(1);
        let (mut twos, mut fours) = (0, 0);
        for _ in 0..10_000 {
            match Board::EMPTY.spawn(&mut rng, 0.1).max_exponent() {
                1 => twos += 1,
                2 => fours += 1,
                e => panic!("spawned exponent {e}"),
            }
        }
        assert!((800..1200).contains(&fours), "{twos} twos, {fours} fours");
        let mut only_two = Game2048::new(Game2048Config::always_two());
        for seed in 0..50 {
            only_two.reset(seed);
            assert_eq!(only_two.board().max_exponent(), 1);
        }
    }

    #[test]
    fn observation_is_one_hot_per_cell() {
        let game = Game2048::from_board(
            Game2048Config::default(),
            board("2 . . . / . 4 . . / . . . . / . . . 32768"),
            0,
        );
        let mut out = vec![9.0; game.observation_len()];
        game.write_observation(&mut out);
        assert_eq!(out.iter().sum::<f32>(), 16.0);
        assert_eq!(out[1], 1.0);
        assert_eq!(out[16], 1.0);
        assert_eq!(out[16 * 5 + 2], 1.0);
        assert_eq!(out[16 * 15 + 15], 1.0);
        assert_eq!(game.puzzle_id(), "2048 4x4");
        assert_eq!(game.distance_to_goal(), None);
    }

    #[test]
    fn weighted_features_reward_counts_its_four_features() {
        // Afterstate "4 4 . . / ...": max exponent 2, 14 free, 1 adjacent pair, merged 8 / 4.
        let slide = board("2 2 2 2 / . . . . / . . . . / . . . .").slide(Move::Left);
        assert_eq!(
            weighted_features_reward(slide),
            4.0 * 2.0 + 3.0 * 14.0 + 1.0 + 2.0
        );
        let mut game = Game2048::from_board(
            Game2048Config {
                reward: Reward2048::WeightedFeatures,
                ..Game2048Config::always_two()
            },
            board("2 2 2 2 / . . . . / . . . . / . . . ."),
            0,
        );
        assert_eq!(game.step(Move::Left.index()).reward, 53.0);
    }

    #[test]
    fn rules_serialize_the_reward_by_its_behaviour_and_read_its_older_name() {
        let rules = Game2048Config {
            reward: Reward2048::WeightedFeatures,
            ..Game2048Config::default()
        };
        let json = serde_json::to_value(rules).unwrap();
        assert_eq!(json["reward"], "weighted-features");
        assert_eq!(Reward2048::WeightedFeatures.name(), "weighted-features");
        // Manifests written before the rename say `seed004`.
        let old = serde_json::json!({"fourProbability": 0.1, "reward": "seed004"});
        let old: Game2048Config = serde_json::from_value(old).unwrap();
        assert_eq!(old, rules);
    }

    #[test]
    fn the_environment_contract_holds() {
        check_env(|| Game2048::new(Game2048Config::default()), 20, 2000).unwrap();
        check_env(|| Game2048::new(Game2048Config::always_two()), 10, 300).unwrap();
        check_env(
            || {
                Game2048::new(Game2048Config {
                    reward: Reward2048::WeightedFeatures,
                    four_probability: 0.1,
                })
            },
            10,
            300,
        )
        .unwrap();
    }
}
