//! The sun/moon README's tabular Q-learning: it finds the true optimum of the sun/moon preset (13 moves,
//! established by BFS), and works on other small boards with a fixed start.

use puzzlelab::agent::q_table::{QLearning, QLearningConfig};
use puzzlelab::env::sliding::solve::{ExactDistances, SlidingQLearning};
use puzzlelab::env::sliding::{Direction, RewardScheme, SlidingEnv, SlidingPuzzle, StartRule};
use puzzlelab::rng::Rng;

#[test]
fn sun_moon_is_solved_optimally_with_the_seeds_defaults() {
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let start = sun.preset_start().unwrap();
    let exact = ExactDistances::build(sun.goal()).unwrap();
    assert_eq!(
        exact.distance(&start),
        Some(13),
        "the true optimum (the sun/moon README says 14: it counts boards)"
    );
    for seed in 0..10 {
        let config = QLearningConfig {
            seed,
            ..QLearningConfig::default()
        };
        assert_eq!(
            (
                config.alpha,
                config.gamma,
                config.epsilon,
                config.episodes,
                config.max_steps
            ),
            (0.7, 0.9, 0.1, 1000, 1000)
        );
        let mut learner = SlidingQLearning::new(&sun, start, config).unwrap();
        assert!(learner.train(usize::MAX));
        let report = learner.report();
        assert_eq!(report.solve.status, "solved", "seed {seed}");
        assert_eq!(report.solve.length, 13, "seed {seed}");
        assert!(report.solve.optimal);
        assert_eq!(report.optimal_length, 13);
        assert_eq!(report.episodes, 1000);
        let mut b = start;
        b.apply(&report.solve.moves).unwrap();
        assert!(sun.is_solved(&b));
    }
}

#[test]
fn training_chunks_add_up_and_an_untrained_table_does_not_solve() {
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let start = sun.preset_start().unwrap();
    let mut untrained = SlidingQLearning::new(&sun, start, QLearningConfig::default()).unwrap();
    assert_ne!(untrained.report().solve.status, "solved");
    let mut learner = SlidingQLearning::new(&sun, start, QLearningConfig::default()).unwrap();
    let mut chunks = 0;
    while !learner.train(25) {
        chunks += 1;
    }
    assert_eq!(chunks, 1000 / 25 - 1);
    assert_eq!(learner.episodes_done(), 1000);
    assert_eq!(learner.report().solve.length, 13);
}

#[test]
fn small_numbered_boards_with_a_fixed_start_are_learned() {
    let mut rng = Rng::new(5);
    for (rows, cols, distance, episodes) in [(2, 2, 6, 300), (2, 3, 12, 1000), (3, 3, 10, 1000)] {
        let puzzle = SlidingPuzzle::standard(rows, cols).unwrap();
        let exact = ExactDistances::build(puzzle.goal()).unwrap();
        for _ in 0..3 {
            let start = exact.random_at(distance, &mut rng);
            let config = QLearningConfig {
                episodes,
                ..QLearningConfig::default()
            };
            let mut learner = SlidingQLearning::new(&puzzle, start, config).unwrap();
            learner.train(usize::MAX);
            let report = learner.report();
            assert_eq!(
                report.solve.status,
                "solved",
                "{rows}x{cols} from {}",
                puzzle.format(&start)
            );
            assert!(report.solve.length >= distance as usize);
        }
    }
    // Larger boards are refused with a reason, and so are unsolvable starts.
    let p4 = SlidingPuzzle::standard(4, 4).unwrap();
    assert!(SlidingQLearning::new(&p4, *p4.goal(), QLearningConfig::default()).is_err());
    let p3 = SlidingPuzzle::standard(3, 3).unwrap();
    let swapped = p3.parse("2,1,3,4,5,6,7,8,_").unwrap();
    assert!(
        SlidingQLearning::new(&p3, swapped, QLearningConfig::default())
            .err()
            .unwrap()
            .to_string()
            .contains("cannot reach")
    );
}

#[test]
fn the_learner_is_generic_and_seeded() {
    // Straight over the environment trait: same seed, same table; wall bumps are learned as −1000.
    let sun = SlidingPuzzle::preset("sun-moon").unwrap();
    let start = sun.preset_start().unwrap();
    let make = || {
        SlidingEnv::new(
            sun.clone(),
            StartRule::Fixed(start),
            RewardScheme::StepCostGoalBonus,
        )
    };
    let mut a = QLearning::new(
        make(),
        QLearningConfig {
            episodes: 50,
            ..Default::default()
        },
    );
    let mut b = QLearning::new(
        make(),
        QLearningConfig {
            episodes: 50,
            ..Default::default()
        },
    );
    let sa = a.train_episodes(50);
    let sb = b.train_episodes(50);
    assert_eq!(sa, sb);
    assert_eq!(a.q_values(&start), b.q_values(&start));
    // The blank starts on the bottom row: moving it down bumps the wall.
    let down = a.q_values(&start).unwrap()[Direction::Down.index()];
    assert!(down < -500.0, "{down}");
    // Masking illegal moves: the table never learns a wall value.
    let mut masked = QLearning::new(
        make(),
        QLearningConfig {
            episodes: 50,
            mask_illegal: true,
            ..Default::default()
        },
    );
    masked.train_episodes(50);
    assert_eq!(
        masked.q_values(&start).unwrap()[Direction::Down.index()],
        0.0
    );
}
