//! Deep Q-learning on Minesweeper (`agent::dqn::minesweeper`): Mehta's network has the paper's
//! shape, the fully convolutional one plays any board size with the same weights, backups of
//! visited states need γ = 0, models load back exactly, and a short training run wins more
//! games than the untrained network on the same boards.
#![cfg(feature = "learn")]

use burn::tensor::Device;
use puzzlelab::agent::dqn::minesweeper::{
    cells_config, cells_rules, conv_dense_config, fit_policy, PolicyGames,
};
use puzzlelab::agent::dqn::{Dqn, DqnConfig, DqnError, GridConvConfig, QNetworkConfig, QPolicy};
use puzzlelab::env::minesweeper::{FirstCell, FirstClick, Level, Minesweeper};
use puzzlelab::env::Environment;

fn learner(config: DqnConfig, level: Level) -> Dqn<Minesweeper> {
    let rules = cells_rules(level.layout(), FirstClick::Safe);
    Dqn::new(|| Minesweeper::new(rules).unwrap(), config, &Device::flex()).unwrap()
}

fn small_cells(seed: u64) -> DqnConfig {
    DqnConfig {
        seed,
        num_envs: 16,
        ..cells_config(&Level::Beginner.layout(), 3, 16)
    }
}

#[test]
fn the_conv_dense_network_flattens_three_convolutions_into_a_dense_layer() {
    let layout = Level::Intermediate.layout();
    let config = conv_dense_config(&layout);
    let network = QNetworkConfig {
        observation_len: 2 * 256,
        hidden: config.hidden.clone(),
        num_actions: 256,
        conv: None,
        grid: config.grid.clone(),
    };
    assert_eq!(network.check(), Ok(()));
    // 4×4×16, 3×3×32, 2×2×64 with 'same' padding, flattened to 16,384, dense to 256.
    let convolutions = (2 * 16 * 16 + 16) + (16 * 32 * 9 + 32) + (32 * 64 * 4 + 64);
    assert_eq!(network.layer_sizes(), [(16_384, 256)]);
    assert_eq!(network.num_params(), convolutions + 16_384 * 256 + 256);
    assert_eq!(config.gamma, 0.0, "the paper's γ");
    // The network runs on a batch and gives one value per cell.
    let policy = network.init(&Device::flex(), 1);
    let values = policy.forward(burn::tensor::Tensor::zeros([3, 512], &Device::flex()));
    assert_eq!(values.dims(), [3, 256]);
    let wrong = QNetworkConfig {
        observation_len: 2 * 81,
        ..network
    };
    assert!(wrong.check().unwrap_err().contains("cannot read"));
}

#[test]
fn backups_of_visited_states_need_gamma_zero() {
    let config = DqnConfig {
        gamma: 0.9,
        ..small_cells(0)
    };
    let rules = cells_rules(Level::Beginner.layout(), FirstClick::Safe);
    let refused = Dqn::new(|| Minesweeper::new(rules).unwrap(), config, &Device::flex());
    assert!(
        matches!(refused, Err(DqnError::InvalidConfig(ref why)) if why.contains("γ = 0")),
        "{:?}",
        refused.err()
    );
    let per_cell_with_hidden = QNetworkConfig {
        observation_len: 162,
        hidden: vec![10],
        num_actions: 81,
        conv: None,
        grid: small_cells(0).grid,
    };
    assert!(per_cell_with_hidden
        .check()
        .unwrap_err()
        .contains("per-cell"));
}

#[test]
fn a_fully_convolutional_model_plays_any_board_with_the_same_weights() {
    let dqn = learner(small_cells(2), Level::Beginner);
    let policy = dqn.policy();
    let bytes = policy.to_bytes();
    let back = QPolicy::from_bytes(&bytes, &Device::flex()).unwrap();
    assert_eq!(back.to_bytes(), bytes, "a model loads back exactly");

    let expert = Minesweeper::new(cells_rules(Level::Expert.layout(), FirstClick::Safe)).unwrap();
    assert!(policy.check_fits(&expert).is_err(), "made for 9×9");
    let resized = fit_policy(&policy, &expert).unwrap();
    assert_eq!(resized.network_config().num_actions, 480);
    assert_eq!(resized.puzzle_id(), expert.puzzle_id());
    let grid: &GridConvConfig = resized.network_config().grid.as_ref().unwrap();
    assert_eq!((grid.height, grid.width), (16, 30));
    // A cell's value depends on its neighbourhood only: the top-left corner of an untouched
    // board is valued the same on both sizes.
    let corner = |p: &QPolicy, env: &Minesweeper| {
        let mut observation = vec![0.0; env.observation_len()];
        env.write_observation(&mut observation);
        p.q_values(&observation)[0]
    };
    let beginner =
        Minesweeper::new(cells_rules(Level::Beginner.layout(), FirstClick::Safe)).unwrap();
    assert!((corner(&policy, &beginner) - corner(&resized, &expert)).abs() < 1e-5);

    // Mehta's network is tied to its board.
    let conv_dense = Dqn::new(
        || Minesweeper::new(cells_rules(Level::Beginner.layout(), FirstClick::Safe)).unwrap(),
        DqnConfig {
            replay_capacity: 100,
            ..conv_dense_config(&Level::Beginner.layout())
        },
        &Device::flex(),
    )
    .unwrap()
    .policy();
    assert!(matches!(
        fit_policy(&conv_dense, &expert),
        Err(DqnError::Mismatch { .. })
    ));
}

/// The page's worker plays an evaluation a batch at a time (progress and Cancel between batches):
/// batches of any sizes add up to the games played at once, game for game.
#[test]
fn an_evaluation_played_in_batches_finds_what_one_played_at_once_does() {
    let rules = cells_rules(Level::Beginner.layout(), FirstClick::Safe);
    let mut dqn = learner(small_cells(3), Level::Beginner);
    dqn.train_steps(300);
    let policy = dqn.policy();
    let games = || PolicyGames::new(&policy, rules, FirstCell::Corner, 120, 5, 100).unwrap();
    let at_once = games().played_out();
    let mut stepwise = games();
    let mut steps = 0;
    for count in [1, 7, 50, 1000] {
        steps += 1;
        if stepwise.play(count) {
            break;
        }
        assert_eq!(stepwise.evaluation().games, stepwise.played());
    }
    assert_eq!((steps, stepwise.played(), stepwise.games()), (4, 120, 120));
    let batched = stepwise.evaluation();
    assert_eq!(
        (batched.games, batched.wins, batched.guesses_per_game),
        (at_once.games, at_once.wins, at_once.guesses_per_game)
    );
    assert!(at_once.wins > 0 && at_once.wins < 120, "{at_once:?}");
}

#[test]
fn a_short_training_run_wins_more_games_than_the_untrained_network() {
    let rules = cells_rules(Level::Beginner.layout(), FirstClick::Safe);
    let mut dqn = learner(small_cells(7), Level::Beginner);
    let win_rate = |dqn: &Dqn<Minesweeper>| {
        (PolicyGames::new(&dqn.policy(), rules, FirstCell::Corner, 300, 99, 100).unwrap())
            .played_out()
            .win_rate
    };
    let before = win_rate(&dqn);
    let stats = dqn.train_steps(1000);
    assert!(stats.updates > 900, "{stats:?}");
    assert!(stats.td_loss.unwrap().is_finite());
    let after = win_rate(&dqn);
    assert!(
        after > before + 0.15,
        "won {:.1}% before training, {:.1}% after 1000 steps",
        100.0 * before,
        100.0 * after
    );
}

#[test]
fn an_opened_model_chooses_a_covered_cell_on_any_board_size_and_refuses_what_it_cannot_play() {
    use puzzlelab::agent::dqn::minesweeper::MinesweeperModel;
    use puzzlelab::env::minesweeper::{Cell, Layout};
    let model = MinesweeperModel::open(learner(small_cells(5), Level::Beginner).policy()).unwrap();
    assert_eq!(model.layout(), Level::Beginner.layout());
    assert!(model.any_size());
    // A 5 × 4 board (not the model's 9 × 9): a revealed corner, a flag, the rest covered.
    let layout = Layout::new(5, 4, 3);
    let mut cells = vec![Cell::Covered; 20];
    cells[0] = Cell::Revealed(1);
    cells[7] = Cell::Flagged;
    let (values, chosen) = model.choose(layout, &cells).unwrap();
    assert_eq!(values.len(), 20);
    let chosen = chosen.unwrap();
    assert_eq!(
        cells[chosen],
        Cell::Covered,
        "never a revealed cell or a flag"
    );
    let best = (0..20)
        .filter(|&c| cells[c] == Cell::Covered)
        .max_by(|&a, &b| values[a].total_cmp(&values[b]))
        .unwrap();
    assert_eq!(chosen, best, "the greedy cell");
    // Nothing left to reveal.
    let done = vec![Cell::Revealed(0); 20];
    assert_eq!(model.choose(layout, &done).unwrap().1, None);
    let short = model.choose(layout, &cells[..19]).unwrap_err();
    assert_eq!(short.to_string(), "a 5 × 4 board has 20 cells, not 19");
    let other = model.policy().resized(9, 9, "sudoku-9x9-features").unwrap();
    let refused = MinesweeperModel::open(other).err().unwrap();
    assert_eq!(
        refused.to_string(),
        "the model plays \"sudoku-9x9-features\", not Minesweeper"
    );
}
