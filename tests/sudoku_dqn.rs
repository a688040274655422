//! Deep Q-learning on Sudoku (`agent::dqn::sudoku`): Mehta's network has the paper's shape,
//! puzzlelab's network is one small network shared by all 810 actions, greedy play is judged
//! on puzzles binned by guesses, models load back exactly, and a short training run solves more
//! puzzles than the untrained network.
#![cfg(feature = "learn")]

use burn::tensor::Device;
use puzzlelab::agent::dqn::sudoku::{
    cells_config, cells_env, dense_config, dense_env, env_for, evaluate_bins, evaluate_policy,
};
use puzzlelab::agent::dqn::{Dqn, DqnConfig, QNetworkConfig, QPolicy};
use puzzlelab::env::sudoku::{binned_puzzles, training_puzzles, Grid, GuessBin, FEATURES};
use puzzlelab::env::Environment;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

#[test]
fn the_dense_network_is_one_layer_from_810_to_810() {
    let config = dense_config();
    let env = dense_env(vec![Grid::parse(EASY).unwrap()]);
    assert_eq!((env.observation_len(), env.num_actions()), (810, 810));
    let network = QNetworkConfig {
        observation_len: 810,
        hidden: config.hidden.clone(),
        num_actions: 810,
        conv: None,
        grid: None,
    };
    // "a fully connected 810 state value that connects an 810 action output with a matmul".
    assert_eq!(network.layer_sizes(), [(810, 810)]);
    assert_eq!(network.num_params(), 810 * 810 + 810);
    assert_eq!(config.gamma, 0.0);
    assert_eq!(config.learning_rate, 1e-3);
    assert_eq!(config.replay_capacity, 100_000);
    assert_eq!(config.max_episode_steps, 162);
}

#[test]
fn the_shared_network_has_the_same_few_weights_for_every_action() {
    let config = cells_config(2, 32);
    let grid = config.grid.clone().unwrap();
    assert_eq!((grid.channels, grid.height, grid.width), (FEATURES, 81, 10));
    assert!(grid.per_cell && grid.layers.iter().all(|&[_, k]| k == 1));
    let network = QNetworkConfig {
        observation_len: FEATURES * 810,
        hidden: vec![],
        num_actions: 810,
        conv: None,
        grid: Some(grid),
    };
    // 11 → 32 → 32 → 1, whatever the number of actions.
    assert_eq!(
        network.num_params(),
        (11 * 32 + 32) + (32 * 32 + 32) + (32 + 1)
    );
    let env = cells_env(vec![Grid::parse(EASY).unwrap()]);
    assert_eq!(env.puzzle_id(), "sudoku-9x9-features");
    assert_eq!(env.observation_len(), network.observation_len);
}

fn short_run(steps: usize, seed: u64) -> Dqn<puzzlelab::env::sudoku::SudokuEnv> {
    let pool = training_puzzles(1_000 + seed, 60, &[24, 26]);
    let config = DqnConfig {
        seed,
        batch_size: 8,
        ..cells_config(2, 16)
    };
    let mut dqn = Dqn::new(|| cells_env(pool.clone()), config, &Device::flex()).unwrap();
    dqn.train_steps(steps);
    dqn
}

#[test]
fn a_short_training_run_solves_more_puzzles_than_the_untrained_network() {
    let bins = binned_puzzles(77, 20, &[24, 26], 5_000);
    let untrained = short_run(0, 3).policy();
    let trained_dqn = short_run(300, 3);
    let trained = trained_dqn.policy();
    let before = evaluate_bins(&untrained, &bins, 20).unwrap();
    let after = evaluate_bins(&trained, &bins, 20).unwrap();
    let (b, a) = (&before[0].1, &after[0].1);
    eprintln!("easy solved: {} untrained, {} trained", b.solved, a.solved);
    assert_eq!(before[0].0, GuessBin::Easy);
    assert_eq!(a.puzzles, 20);
    // The untrained network guesses among candidates; the trained one has learnt the singles.
    assert!(
        a.solved >= b.solved + 6 && a.solved_rate >= 0.5,
        "easy: {} solved before, {} after",
        b.solved,
        a.solved
    );
    assert!(a.filled_fraction > b.filled_fraction);
    // The model loads back exactly and plays the same.
    let bytes = trained.to_bytes();
    let back = QPolicy::from_bytes(&bytes, &Device::flex()).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let again = evaluate_policy(&back, &bins[0], 7).unwrap();
    assert_eq!(
        again.solved, a.solved,
        "the batch does not change greedy play"
    );
    // Made for the features: the paper's environment refuses it.
    let dense = dense_config();
    let wrong = Dqn::new(
        || dense_env(vec![Grid::parse(EASY).unwrap()]),
        dense,
        &Device::flex(),
    )
    .unwrap()
    .policy();
    assert!(env_for(&wrong, bins[0].clone()).is_ok());
    assert_eq!(wrong.puzzle_id(), "sudoku-9x9");
}

#[test]
fn greedy_play_from_a_grid_judges_every_move_against_the_solution() {
    use puzzlelab::agent::dqn::sudoku::play_from;
    use puzzlelab::agent::dqn::DqnError;
    let puzzle = Grid::parse(EASY).unwrap();
    let untrained = |cells: bool| {
        let (config, make): (_, fn(Vec<Grid>) -> puzzlelab::env::sudoku::SudokuEnv) = match cells {
            true => (cells_config(1, 8), cells_env),
            false => (dense_config(), dense_env),
        };
        Dqn::new(|| make(vec![puzzle.clone()]), config, &Device::flex())
            .unwrap()
            .policy()
    };
    for cells in [true, false] {
        let play = play_from(&untrained(cells), &puzzle).unwrap();
        let solution = Grid::parse(&play.solution).unwrap();
        assert!(solution.is_solved());
        assert!(["solved", "mistake", "stuck", "limit"].contains(&play.outcome));
        for (i, step) in play.moves.iter().enumerate() {
            if step.digit != 0 {
                assert_eq!(
                    step.right,
                    step.digit == solution.get(step.cell),
                    "move {i}"
                );
            }
        }
        let first_wrong = play.moves.iter().position(|m| m.digit != 0 && !m.right);
        assert_eq!(play.first_mistake, first_wrong);
        if cells {
            // The cells network places legal digits only, and a wrong one ends the game.
            assert!(play
                .moves
                .iter()
                .all(|m| m.digit != 0 && puzzle.get(m.cell) == 0));
            assert_eq!(play.outcome == "mistake", first_wrong.is_some());
        }
    }
    let policy = untrained(true);
    let small = Grid::parse("1...............").unwrap();
    let refused = play_from(&policy, &small).unwrap_err();
    assert!(matches!(refused, DqnError::InvalidPosition(_)));
    assert_eq!(
        refused.to_string(),
        "the model plays 9 × 9 Sudoku, not 4 × 4"
    );
    let empty = Grid::parse(&".".repeat(81)).unwrap();
    let refused = play_from(&policy, &empty).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "this position has more than one solution"
    );
}

/// The page's evaluation, drawn and played a few puzzles at a time, comes to what `puzzlelab
/// sudoku eval` finds on the same seed: the same puzzles in each bin, the same ones solved.
#[test]
fn the_stepwise_evaluation_matches_the_whole_one() {
    use puzzlelab::agent::dqn::sudoku::{BinsEvaluation, SudokuBins, SudokuLearner, SudokuSetup};
    use puzzlelab::agent::dqn::PuzzleLearner;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/sudoku-cells.dqn");
    let policy = QPolicy::from_bytes(&std::fs::read(path).unwrap(), &Device::flex()).unwrap();
    let setup = SudokuSetup::default();
    let (per_bin, seed) = (3, 11);
    let bins = SudokuLearner::validation(&setup, per_bin, seed).unwrap();
    let whole = SudokuBins::of(&policy, &bins).unwrap();
    let mut stepped = BinsEvaluation::new(policy, &setup, per_bin, seed).unwrap();
    let (mut steps, mut last_done) = (0, 0);
    assert_eq!((stepped.done(), stepped.total()), (0, 18));
    while !stepped.step(2).unwrap() {
        steps += 1;
        let (done, total) = (stepped.done(), stepped.total());
        assert!(
            done >= last_done && done <= total,
            "{done} of {total} after {last_done}"
        );
        last_done = done;
    }
    assert!(steps > 3, "drawn and played in several steps ({steps})");
    let kept: usize = bins.iter().map(Vec::len).sum();
    assert_eq!((stepped.done(), stepped.total()), (2 * kept, 2 * kept));
    let result = stepped.result();
    for (a, b) in [
        (&result.easy, &whole.easy),
        (&result.medium, &whole.medium),
        (&result.hard, &whole.hard),
    ] {
        let (a, b) = (&a.evaluation, &b.evaluation);
        assert_eq!((a.puzzles, a.solved), (b.puzzles, b.solved));
        assert_eq!(a.solved_rate_95, b.solved_rate_95);
        assert!((a.filled_fraction - b.filled_fraction).abs() < 1e-12);
    }
    assert_eq!(result.easy.published_solved_rate, 0.07);
}
