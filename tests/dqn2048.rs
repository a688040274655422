//! Mehta's RL paper's deep Q-network on 2048 (`agent::dqn::game2048`): the network has the seed's shape,
//! its models load back exactly and are refused by the wrong puzzle, batched greedy play is the
//! same as one game at a time, and a short training run learns what a move earns.
#![cfg(feature = "learn")]

use burn::tensor::Device;
use puzzlelab::agent::dqn::game2048::{pair_conv_config, play_greedy_games, training_rules};
use puzzlelab::agent::dqn::sliding::training_env;
use puzzlelab::agent::dqn::{Dqn, DqnConfig, PairConvConfig, QNetworkConfig, QPolicy};
use puzzlelab::env::game2048::{play_games, Board, Game2048, Game2048Config, Move, Reward2048};
use puzzlelab::env::sliding::SlidingPuzzle;
use puzzlelab::env::Environment;
use puzzlelab::rng::Rng;

/// Mehta's RL paper's design made small enough for a test: 8 filters on both levels, 32 hidden units.
fn small_config(seed: u64) -> DqnConfig {
    DqnConfig {
        conv: Some(PairConvConfig {
            filters1: 8,
            filters2: 8,
            ..PairConvConfig::game2048()
        }),
        hidden: vec![32],
        batch_size: 32,
        learning_rate: 1e-3,
        warmup_episodes: 2,
        seed,
        ..pair_conv_config()
    }
}

fn observation(board: Board) -> Vec<f32> {
    let game = Game2048::from_board(Game2048Config::default(), board, 0);
    let mut out = vec![0.0; game.observation_len()];
    game.write_observation(&mut out);
    out
}

/// Boards from games of random legal moves.
fn random_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut boards = Vec::new();
    let mut game = Game2048::new(Game2048Config::default());
    game.reset(seed);
    while boards.len() < count {
        if game.board().is_game_over() {
            game.reset(rng.next_u64());
        }
        boards.push(game.board());
        let legal: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| game.board().can_move(m))
            .collect();
        game.play(*rng.choose(&legal));
    }
    boards
}

#[test]
fn the_network_has_the_seeds_shape() {
    let conv = PairConvConfig::game2048();
    // (1,2)∘(1,2): 4×2, (1,2)∘(2,1) and (2,1)∘(1,2): 3×3, (2,1)∘(2,1): 2×4; 128 filters each.
    assert_eq!(conv.output_len(), Some((8 + 9 + 9 + 8) * 128));
    let network = QNetworkConfig {
        observation_len: 256,
        hidden: vec![256],
        num_actions: 4,
        conv: Some(conv.clone()),
        grid: None,
    };
    let convolutions = 2 * (16 * 128 * 2 + 128) + 4 * (128 * 128 * 2 + 128);
    let dense = 4352 * 256 + 256 + 256 * 4 + 4;
    assert_eq!(network.num_params(), convolutions + dense);
    assert_eq!(network.check(), Ok(()));
    let wrong = QNetworkConfig {
        observation_len: 81,
        ..network
    };
    assert!(wrong.check().unwrap_err().contains("cannot read"));
    assert_eq!(pair_conv_config().conv, Some(conv));
    assert_eq!(pair_conv_config().gamma, 0.9, "the seed's discount");
}

#[test]
fn a_model_loads_back_exactly_and_only_plays_2048() {
    let mut trainer = learner(small_config(3), training_rules()).unwrap();
    trainer.train_steps(300);
    let policy = trainer.policy();
    let bytes = policy.to_bytes();
    let loaded = QPolicy::from_bytes(&bytes, &Device::flex()).unwrap();
    assert_eq!(loaded.network_config(), policy.network_config());
    let boards = random_boards(20, 5);
    let observations: Vec<f32> = boards.iter().flat_map(|&b| observation(b)).collect();
    assert_eq!(
        loaded.q_values(&observations),
        policy.q_values(&observations)
    );
    loaded
        .check_fits(&Game2048::new(Game2048Config::default()))
        .unwrap();
    let sliding = training_env(&SlidingPuzzle::standard(3, 3).unwrap(), 0);
    let refused = loaded.check_fits(&sliding).unwrap_err().to_string();
    assert!(refused.contains("2048"), "{refused}");
    // Resuming goes on from the recorded steps.
    let mut resumed = learner(small_config(3), training_rules()).unwrap();
    resumed.resume(&bytes).unwrap();
    assert_eq!(resumed.steps_done(), 300);
}

#[test]
fn batched_greedy_play_is_the_same_as_one_game_at_a_time() {
    let trainer = learner(small_config(9), training_rules()).unwrap();
    let policy = trainer.policy();
    let rules = Game2048Config::default();
    let batched = play_greedy_games(&policy, rules, 0..6, 77);
    let one_by_one = play_games(rules, 6, 77, |board| {
        let values = policy.q_values(&observation(board));
        let best = (0..4)
            .filter(|&a| board.can_move(Move::from_index(a).unwrap()))
            .max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))
            .unwrap();
        Move::from_index(best).unwrap()
    });
    assert_eq!(batched, one_by_one);
    // Games 3..6 played alone are the same games as in the run of six.
    let tail = play_greedy_games(&policy, rules, 3..6, 77);
    assert_eq!(tail.scores, batched.scores[3..].to_vec());
}

/// With γ = 0 and the score as reward a Q-value is what the move earns at once; a short run
/// learns to pick a move that merges most far more often than the untrained network does.
#[test]
fn a_short_run_learns_what_a_move_earns() {
    let config = DqnConfig {
        gamma: 0.0,
        epsilon_start: 1.0,
        epsilon_min: 1.0,
        ..small_config(1)
    };
    let rules = Game2048Config {
        reward: Reward2048::Score,
        ..Game2048Config::default()
    };
    // Boards where some legal move earns more than another (up and down always earn the same,
    // as do left and right).
    let earned = |b: Board, m: Move| b.slide(m).score;
    let best_earned = |b: Board| {
        Move::ALL
            .into_iter()
            .filter(|&m| b.can_move(m))
            .map(|m| earned(b, m))
            .max()
            .unwrap()
    };
    let boards: Vec<Board> = random_boards(3000, 11)
        .into_iter()
        .filter(|&b| {
            Move::ALL
                .into_iter()
                .any(|m| b.can_move(m) && earned(b, m) < best_earned(b))
        })
        .take(200)
        .collect();
    assert!(boards.len() >= 100, "{} test boards", boards.len());
    let accuracy = |policy: &QPolicy| {
        let right = boards
            .iter()
            .filter(|&&b| {
                let values = policy.q_values(&observation(b));
                let chosen = (0..4)
                    .filter(|&a| b.can_move(Move::from_index(a).unwrap()))
                    .max_by(|&x, &y| values[x].total_cmp(&values[y]))
                    .unwrap();
                earned(b, Move::from_index(chosen).unwrap()) == best_earned(b)
            })
            .count();
        right as f64 / boards.len() as f64
    };
    let mut trainer = learner(config, rules).unwrap();
    let before = accuracy(&trainer.policy());
    let first = trainer.train_steps(500).td_loss.unwrap();
    trainer.train_steps(12_000);
    let last = trainer.train_steps(500).td_loss.unwrap();
    let after = accuracy(&trainer.policy());
    assert!(
        after >= 0.8 && after >= before + 0.15,
        "picks the best-earning move {:.0}% of the time after training, {:.0}% before",
        100.0 * after,
        100.0 * before
    );
    assert!(last < first, "TD loss {first} → {last}");
}

/// A learner of 2048 games of `rules` on the CPU.
fn learner(
    config: DqnConfig,
    rules: Game2048Config,
) -> Result<Dqn<Game2048>, puzzlelab::agent::dqn::DqnError> {
    Dqn::new(|| Game2048::new(rules), config, &Device::flex())
}

/// DAgger's data: every state of the player's game is labelled with the n-tuple network's move
/// from it (its transition played on a copy), while the game itself goes on by the player's move;
/// the limit is kept.
#[test]
fn labelled_play_labels_the_players_states_with_the_demonstrators_moves() {
    use puzzlelab::agent::dqn::game2048::label_greedy_play;
    use puzzlelab::agent::dqn::{best_allowed, Batch, ReplayBuffer};
    use puzzlelab::agent::ntuple::{NTupleNetwork, TupleSet};
    let network = NTupleNetwork::new(TupleSet::FourFiveTuples);
    let player = learner(small_config(5), training_rules()).unwrap().policy();
    let rules = training_rules();
    // One game, so that consecutive transitions are its consecutive states.
    let mut buffer = ReplayBuffer::new(5_000, 256, 4);
    label_greedy_play(&network, &player, rules, 0..1, 11, &mut buffer, 5_000);
    let held = buffer.len();
    assert!(held > 20, "{held} labelled transitions");
    let mut batch = Batch::default();
    buffer.gather_spread(held, &mut batch);
    let board = |rows: &[f32], i: usize| {
        let row = &rows[256 * i..256 * (i + 1)];
        let mut exponents = [0u8; 16];
        for (cell, e) in exponents.iter_mut().enumerate() {
            *e = (0..16).find(|&k| row[16 * cell + k] == 1.0).unwrap() as u8;
        }
        Board::from_exponents(exponents)
    };
    // `after` is `slid` with one new tile on an empty cell.
    let spawned_from = |slid: Board, after: Board| {
        let (slid, after) = (slid.exponents(), after.exponents());
        let changed: Vec<usize> = (0..16).filter(|&c| slid[c] != after[c]).collect();
        changed.len() == 1 && slid[changed[0]] == 0
    };
    let mut strayed = 0;
    for i in 0..held {
        let state = board(&batch.observations, i);
        let (label, _, _) = network.best_move(state).unwrap();
        assert_eq!(batch.actions[i], label.index() as i64, "transition {i}");
        // The labelled transition is the label's slide and one new tile.
        let next = board(&batch.next_observations, i);
        assert!(
            spawned_from(state.slide(label).board, next),
            "transition {i}"
        );
        if i + 1 < held {
            // The game goes on by the player's greedy legal move.
            let mask: Vec<bool> = Move::ALL.iter().map(|&m| state.can_move(m)).collect();
            let values = player.q_values(&batch.observations[256 * i..256 * (i + 1)]);
            let played = Move::from_index(best_allowed(&values, &mask)).unwrap();
            let after = board(&batch.observations, i + 1);
            assert!(
                spawned_from(state.slide(played).board, after),
                "state {}",
                i + 1
            );
            strayed += usize::from(played != label);
        }
    }
    // The untrained player does not play as the n-tuple network does.
    assert!(strayed > held / 10, "{strayed} of {held} moves strayed");
    let mut small = ReplayBuffer::new(5_000, 256, 4);
    label_greedy_play(&network, &player, rules, 0..4, 11, &mut small, 50);
    assert_eq!(small.len(), 50);
}
