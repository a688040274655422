//! Deep Q-learning on the dust puzzle: the batched DQN of the dust-puzzle blog post, 1,000 games
//! played at once ([`batched_config`] on [`one_hot_env`]), puzzlelab's stronger learner ([`backups_config`] on [`backups_env`]), and greedy
//! play on seeded boards ([`play_greedy`]).
//!
//! What the blog gives (a blog series on solving a dust-matching puzzle): the board one-hot (8 × 6 × 6: empty plus five
//! colours), five dense layers of 1,500 (ReLU, He-normal) and one output per cell, Huber loss,
//! Adam; 1,000 games played at once, each step fitting the 1,000 transitions just made; +10 for
//! the click that clears the board, −10 for a click on an empty cell, −1 for any other click;
//! the target blended as 0.1·Q + 0.9·(r + 0.8·**mean** Q(s′, ·)) with the same network; ε adapted
//! so that about one move a game is random; ~18 clicks a board after hours of training. Where
//! puzzlelab departs:
//! - The target is the usual max by default; the blog's mean is [`DqnConfig::mean_next_q`]
//!   (`--target mean`). The 0.9 blend is Adam's job here (the target is r + γ·Q′).
//! - Transitions go through a replay buffer of two rounds of play (2,000), drawn in batches of
//!   1,000, and the target network follows the policy network every 10 gradient steps: the
//!   blog fits the newest batch with the network itself.
//! - ε decays from 1 by ×0.999 a finished game to 0.06 (about one random click in a game of 16)
//!   instead of the blog's feedback rule.
//! - Weights start from U(±1/√fan-in) (burn's default), not He-normal.
//!
//! puzzlelab's learner keeps the network's input and output but learns the way DeepCubeA does:
//! every gradient step draws fresh boards of every stage of a game (a random board after a
//! uniformly drawn number of the clicks of a whole game of greedy or random clicks:
//! [`SameGameEnv::with_start_clicks`]) and backs up
//! **every legal click** of each ([`DqnConfig::full_backups`]) with γ = 1 and the blog's rewards,
//! so that Q(s, a) learns 10 minus the clicks still needed after `a`; only piles may be clicked.
//! It sees the blog's planes and three more ([`SameGameObservation::Features`]: each pile's group
//! size, the groups and colours left), what the greedy rule counts.
//! Greedy play then picks the click with the fewest clicks left.
//!
//! Both are validated on the same seeded boards ([`seeded_boards`] from [`VALIDATION_SEED`]),
//! summed up as [`ClicksSummary`] (mean and distribution) beside the greedy rule's
//! ([`Board::greedy_clearing`]).

use super::{best_allowed, DqnConfig, DqnError, QPolicy};
use crate::env::minesweeper::game_seed;
use crate::env::samegame::{Board, Rules, SameGameEnv, SameGameObservation};
use crate::env::Environment;
use std::collections::BTreeMap;

/// Clicks a board of the stronger learner's starts has had at most (48: any stage of a game,
/// down to its last group).
pub const BACKUP_START_CLICKS: usize = 48;
/// The validation boards' seed (`dust train`'s and the page's trainer's; `dust eval` defaults to
/// seed 0, reports use others).
pub const VALIDATION_SEED: u64 = 0xD057_0000_0000_0001;

/// Board `i` of the run seeded with `seed`: `Board::random(Rules::dust(), game_seed(seed, i))`,
/// for `i` in `0..count` (the boards of `puzzlelab dust eval --seed`).
pub fn seeded_boards(seed: u64, count: usize) -> Vec<Board> {
    (0..count)
        .map(|i| {
            Board::random(Rules::dust(), game_seed(seed, i)).expect("the dust rules are valid")
        })
        .collect()
}

/// Clicks a set of boards took: how many boards, the mean, and how many boards took each count.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ClicksSummary {
    /// Boards played.
    pub boards: usize,
    /// Clicks a board, on average (0 with no board).
    pub mean_clicks: f64,
    /// Boards by clicks taken (the clicks written as text: JSON's and JS's keys are strings).
    #[serde(serialize_with = "keys_as_text")]
    pub distribution: BTreeMap<usize, usize>,
}

/// A map's keys written as text, in the map's order.
fn keys_as_text<S: serde::Serializer>(
    map: &BTreeMap<usize, usize>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(map.iter().map(|(key, value)| (key.to_string(), value)))
}

impl ClicksSummary {
    /// The summary of boards that took `clicks` each.
    pub fn of(clicks: impl IntoIterator<Item = usize>) -> ClicksSummary {
        let mut distribution = BTreeMap::new();
        let (mut boards, mut total) = (0, 0);
        for c in clicks {
            *distribution.entry(c).or_insert(0) += 1;
            boards += 1;
            total += c;
        }
        ClicksSummary {
            boards,
            mean_clicks: total as f64 / boards.max(1) as f64,
            distribution,
        }
    }
}

/// The batched DQN (see the module docs): 1,000 games played at once, each round of play replayed
/// in batches of 1,000, every cell clickable, γ 0.8, with `hidden` dense layers; the learner of
/// the dust-puzzle blog post (which used five layers of 1,500).
pub fn batched_config(hidden: Vec<usize>) -> DqnConfig {
    DqnConfig {
        hidden,
        replay_capacity: 2_000,
        batch_size: 1_000,
        learning_rate: 1e-3,
        gamma: 0.8,
        target_update_interval: 10,
        epsilon_start: 1.0,
        epsilon_decay: 0.999,
        epsilon_min: 0.06,
        // A board is always cleared within 48 clicks; a network that keeps clicking empty
        // cells is stopped at twice that.
        max_episode_steps: 96,
        warmup_episodes: 0,
        huber_loss: true,
        mask_actions: false,
        num_envs: 1_000,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// The dust puzzle with the one-hot observation ([`SameGameObservation::OneHot`]) and the
/// click-cost rewards ([`SameGameReward::ClickCost`](crate::env::samegame::SameGameReward)),
/// as the dust-puzzle blog post sets it up: [`batched_config`]'s environment.
pub fn one_hot_env() -> SameGameEnv {
    SameGameEnv::new(Rules::dust()).expect("the dust rules are valid")
}

/// puzzlelab's learner (see the module docs) with `hidden` layers.
pub fn backups_config(hidden: Vec<usize>) -> DqnConfig {
    DqnConfig {
        hidden,
        full_backups: true,
        mask_actions: true,
        huber_loss: true,
        batch_size: 64,
        learning_rate: 3e-4,
        gamma: 1.0,
        target_update_interval: 100,
        max_episode_steps: 48,
        warmup_episodes: 0,
        eval_interval_episodes: 0,
        ..DqnConfig::default()
    }
}

/// puzzlelab's learner's environment: the blog's rewards, the one-hot planes with the features
/// ([`SameGameObservation::Features`]), its starts taken from every stage of a game.
pub fn backups_env() -> SameGameEnv {
    one_hot_env()
        .with_observation(SameGameObservation::Features)
        .with_start_clicks(BACKUP_START_CLICKS)
}

/// The environment a model plays in (the blog's observation, or the features or the counts when
/// the model's puzzle id says so), checked against the model (a value network's one output
/// accepted).
pub fn env_for(policy: &QPolicy) -> Result<SameGameEnv, DqnError> {
    let one_hot = one_hot_env();
    let counts = one_hot
        .clone()
        .with_observation(SameGameObservation::Counts);
    let env = if policy.puzzle_id() == one_hot.puzzle_id() {
        one_hot
    } else if policy.puzzle_id() == counts.puzzle_id() {
        counts
    } else {
        one_hot.with_observation(SameGameObservation::Features)
    };
    policy.check_fits_or_values(&env)?;
    Ok(env)
}

/// What a player of `policy` works with: the environment it plays in, the observation's length,
/// the number of actions, and scratch for the mask and the observations.
type Player = (SameGameEnv, usize, usize, Vec<bool>, Vec<f32>);

fn player(policy: &QPolicy) -> Result<Player, DqnError> {
    let template = env_for(policy)?;
    let (n, a) = (
        template.observation_len(),
        policy.network_config().num_actions,
    );
    Ok((template, n, a, vec![false; a], Vec::new()))
}

/// Plays each of `boards` until it is cleared, `batch` boards at a time: `choose` gets the live
/// boards and returns one click (a cell) for each, so that a network sees them all in one forward
/// pass. Returns each board's clicked cells.
fn play_batched(
    boards: &[Board],
    batch: usize,
    mut choose: impl FnMut(&[Board]) -> Result<Vec<usize>, DqnError>,
) -> Result<Vec<Vec<usize>>, DqnError> {
    let mut clicks = vec![Vec::new(); boards.len()];
    let batch = batch.max(1);
    for (chunk_index, chunk) in boards.chunks(batch).enumerate() {
        let (mut indices, mut live): (Vec<usize>, Vec<Board>) = chunk
            .iter()
            .enumerate()
            .filter(|(_, board)| !board.is_over())
            .map(|(i, board)| (chunk_index * batch + i, board.clone()))
            .unzip();
        while !live.is_empty() {
            let chosen = choose(&live)?;
            for ((index, board), cell) in indices.iter().zip(&mut live).zip(chosen) {
                clicks[*index].push(cell);
                board.click_cell(cell).expect("a pile");
            }
            let mut over = live.iter().map(Board::is_over);
            indices.retain(|_| !over.next().expect("one board an index"));
            live.retain(|board| !board.is_over());
        }
    }
    Ok(clicks)
}

/// Plays `policy` greedily on each of `boards` until it is cleared, `batch` boards at a time (one
/// forward pass a click for all), and returns each board's clicks as cells (row-major, row 0 at
/// the top of the board as it stands before the click). The agent chooses among piles only (a
/// network trained without the mask could otherwise click an empty cell for ever), so every
/// board is cleared within one click a pile.
pub fn play_greedy(
    policy: &QPolicy,
    boards: &[Board],
    batch: usize,
) -> Result<Vec<Vec<usize>>, DqnError> {
    if policy.is_value_network() {
        return Err(DqnError::InvalidConfig(
            "a value network gives no value per click: play it with lookahead or a beam".into(),
        ));
    }
    let (template, n, a, mut allowed, mut observations) = player(policy)?;
    play_batched(boards, batch, |live| {
        let envs: Vec<SameGameEnv> = live
            .iter()
            .map(|board| {
                let mut env = template.clone();
                env.set_board(board.clone());
                env
            })
            .collect();
        observations.resize(envs.len() * n, 0.0);
        for (env, out) in envs.iter().zip(observations.chunks_mut(n)) {
            env.write_observation(out);
        }
        let values = policy.q_values(&observations);
        Ok(envs
            .iter()
            .zip(values.chunks(a))
            .map(|(env, values)| {
                env.action_mask(&mut allowed);
                best_allowed(values, &allowed)
            })
            .collect())
    })
}

/// Whether `policy` plays with one step of lookahead ([`play_lookahead`]): puzzlelab's learner
/// (its model sees the features), trained for the values of boards; the blog's plays greedily.
pub fn plays_with_lookahead(policy: &QPolicy) -> bool {
    policy.puzzle_id().ends_with("-features")
}

/// The beam's width a value network plays with by default ([`play`]; chosen on validation
/// boards: docs/samegame.md).
pub const VALUE_BEAM_WIDTH: usize = 100;

/// `policy`'s clicks on each of `boards` the way its learner plays: a value network
/// ([`super::dust_value`]) with a beam search of [`VALUE_BEAM_WIDTH`] ([`play_beam`]),
/// puzzlelab's Q-learner with lookahead ([`plays_with_lookahead`]), the blog's greedily.
pub fn play(policy: &QPolicy, boards: &[Board], batch: usize) -> Result<Vec<Vec<usize>>, DqnError> {
    if policy.is_value_network() {
        play_beam(policy, boards, VALUE_BEAM_WIDTH)
    } else if plays_with_lookahead(policy) {
        play_lookahead(policy, boards, batch)
    } else {
        play_greedy(policy, boards, batch)
    }
}

/// Plays `policy` on each of `boards` with one step of lookahead: each click is the group whose
/// board after it is worth most, r + max Q(s′, ·) over its piles (the backup that trained
/// [`backups_config`]'s network, with γ = 1; +10 when the click clears the board), one
/// representative click a group. `batch` boards at a time (one forward pass a click for all the
/// boards after every group of every board). Returns each board's clicked cells as
/// [`play_greedy`] does.
pub fn play_lookahead(
    policy: &QPolicy,
    boards: &[Board],
    batch: usize,
) -> Result<Vec<Vec<usize>>, DqnError> {
    if policy.is_value_network() {
        // The board after each group valued directly: a beam of one.
        return play_beam(policy, boards, 1);
    }
    let (template, n, a, mut allowed, mut observations) = player(policy)?;
    play_batched(boards, batch, |live| {
        // Every group's board after it, of every live board.
        let mut options: Vec<Vec<(usize, SameGameEnv)>> = Vec::with_capacity(live.len());
        observations.clear();
        for board in live {
            let mut after_groups = Vec::new();
            for group in board.moves() {
                let mut after = board.clone();
                after.click_cell(group[0]).expect("a group the rules allow");
                let start = observations.len();
                observations.resize(start + n, 0.0);
                let mut env = template.clone();
                env.set_board(after);
                env.write_observation(&mut observations[start..]);
                after_groups.push((group[0], env));
            }
            options.push(after_groups);
        }
        let values = policy.q_values(&observations);
        let mut rows = values.chunks(a);
        Ok(options
            .into_iter()
            .map(|after_groups| {
                let mut best: Option<(f32, usize)> = None;
                for (cell, after) in after_groups {
                    let q = rows.next().expect("a row a board after a group");
                    let worth = if after.board().is_empty() {
                        10.0
                    } else {
                        after.action_mask(&mut allowed);
                        -1.0 + q[best_allowed(q, &allowed)]
                    };
                    if best.is_none_or(|(w, _)| worth > w) {
                        best = Some((worth, cell));
                    }
                }
                best.expect("a live board has a group").1
            })
            .collect())
    })
}

/// A beam search over `policy`'s values: layer by layer, every group of every kept board is
/// clicked, duplicates dropped, and the `width` boards the network values most (a Q-network's
/// max Q over their piles, a value network's output: the fewest clicks still needed) are kept;
/// the first board cleared ends it. Boards equal up to colour names and mirror image
/// ([`Board::canonical`]) count as duplicates.
/// Returns each board's clicked cells as [`play_greedy`] does.
pub fn play_beam(
    policy: &QPolicy,
    boards: &[Board],
    width: usize,
) -> Result<Vec<Vec<usize>>, DqnError> {
    let (template, n, a, mut allowed, mut observations) = player(policy)?;
    let width = width.max(1);
    let mut all = Vec::with_capacity(boards.len());
    for board in boards {
        let mut layer: Vec<(Board, Vec<usize>)> = vec![(board.clone(), Vec::new())];
        let mut found: Option<Vec<usize>> = None;
        while found.is_none() && !layer.is_empty() {
            let mut seen = std::collections::HashSet::new();
            let mut next: Vec<(SameGameEnv, Vec<usize>)> = Vec::new();
            'layer: for (b, path) in &layer {
                for group in b.moves() {
                    let mut after = b.clone();
                    after.click_cell(group[0]).expect("a group the rules allow");
                    let mut line = path.clone();
                    line.push(group[0]);
                    if after.is_empty() {
                        found = Some(line);
                        break 'layer;
                    }
                    // Boards that differ only in colour names or by their mirror image need
                    // the same clicks: one of them is enough.
                    if !seen.insert(after.canonical().cells().to_vec()) {
                        continue;
                    }
                    let mut env = template.clone();
                    env.set_board(after);
                    next.push((env, line));
                }
            }
            if found.is_some() {
                break;
            }
            observations.clear();
            observations.resize(next.len() * n, 0.0);
            for ((env, _), out) in next.iter().zip(observations.chunks_mut(n)) {
                env.write_observation(out);
            }
            let values = policy.q_values(&observations);
            let mut scored: Vec<(f32, usize)> = next
                .iter()
                .zip(values.chunks(a))
                .enumerate()
                .map(|(i, ((env, _), q))| {
                    if a == 1 {
                        // A value network: its one output is the board's value.
                        return (q[0], i);
                    }
                    env.action_mask(&mut allowed);
                    (q[best_allowed(q, &allowed)], i)
                })
                .collect();
            scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
            scored.truncate(width);
            let mut keep = vec![false; next.len()];
            for &(_, i) in &scored {
                keep[i] = true;
            }
            layer = next
                .into_iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|((env, line), _)| (env.board().clone(), line))
                .collect();
        }
        all.push(found.unwrap_or_default());
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_counts_boards_by_clicks() {
        let summary = ClicksSummary::of([3, 5, 3, 4]);
        assert_eq!(summary.boards, 4);
        assert_eq!(summary.mean_clicks, 3.75);
        assert_eq!(
            summary.distribution,
            BTreeMap::from([(3, 2), (4, 1), (5, 1)])
        );
        assert_eq!(ClicksSummary::of([]).mean_clicks, 0.0);
    }

    #[test]
    fn the_greedy_clearing_empties_seeded_boards() {
        for board in seeded_boards(7, 3) {
            let mut played = board.clone();
            for cell in board.greedy_clearing() {
                played.click_cell(cell).unwrap();
            }
            assert!(played.is_empty());
        }
        assert_eq!(seeded_boards(7, 2), seeded_boards(7, 2));
    }

    #[test]
    fn a_beam_of_one_plays_as_the_lookahead_and_every_beam_clears_its_boards() {
        let model = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/dust-backups.dqn");
        let bytes = std::fs::read(model).expect("the shipped dust model");
        let policy = QPolicy::from_bytes(&bytes, &burn::tensor::Device::flex()).unwrap();
        let boards = seeded_boards(11, 3);
        let lookahead = play_lookahead(&policy, &boards, 1).unwrap();
        assert_eq!(play_beam(&policy, &boards, 1).unwrap(), lookahead);
        for width in [1, 6] {
            for (board, clicks) in boards
                .iter()
                .zip(play_beam(&policy, &boards, width).unwrap())
            {
                let mut played = board.clone();
                for cell in clicks {
                    played.click_cell(cell).unwrap();
                }
                assert!(played.is_empty(), "width {width}");
            }
        }
    }
}

/// Boards played side by side in an evaluation (one forward pass a click for all).
const EVAL_BATCH: usize = 200;

/// `policy`'s clearing of `board` the way its learner plays ([`play`]): the clicked cells, the
/// network's value of each click (a Q-network's Q-value of the click: 10 minus the clicks it
/// expects after it; a value network's value of the board before it) and the board after the last.
pub fn clearing_with_values(
    policy: &QPolicy,
    board: Board,
) -> Result<(Vec<usize>, Vec<f32>, Board), DqnError> {
    let mut env = env_for(policy)?;
    let cells = play(policy, std::slice::from_ref(&board), 1)?.remove(0);
    env.set_board(board);
    let mut observation = vec![0.0; env.observation_len()];
    let mut values = Vec::with_capacity(cells.len());
    for &cell in &cells {
        env.write_observation(&mut observation);
        let q = policy.q_values(&observation);
        values.push(if policy.is_value_network() {
            q[0]
        } else {
            q[cell]
        });
        env.step(cell);
    }
    Ok((cells, values, env.board().clone()))
}

/// A model's clearings of the seeded boards `0..count` of a run ([`seeded_boards`]) beside the
/// greedy rule's ([`Board::greedy_clearing`]) on the same boards, played a range of boards at a
/// time (the page's evaluation, with progress between ranges; `dust value-train`'s validation at
/// once).
pub struct AgainstGreedy {
    policy: QPolicy,
    seed: u64,
    boards: Vec<Board>,
    model: Vec<usize>,
    greedy: Vec<usize>,
}

/// [`AgainstGreedy`]'s summary: the model's clicks (flattened: `boards`, `mean_clicks`,
/// `distribution`) and the greedy rule's.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AgainstGreedySummary {
    /// The run's seed.
    pub seed: u64,
    /// The model's clicks.
    #[serde(flatten)]
    pub model: ClicksSummary,
    /// The greedy rule's clicks on the same boards.
    pub greedy: ClicksSummary,
}

impl AgainstGreedy {
    /// Boards `0..count` of the run seeded with `seed`, none played yet.
    pub fn new(policy: QPolicy, seed: u64, count: usize) -> AgainstGreedy {
        let boards = seeded_boards(seed, count);
        let (model, greedy) = (Vec::new(), Vec::new());
        AgainstGreedy {
            policy,
            seed,
            boards,
            model,
            greedy,
        }
    }

    /// Plays boards `range` (the next ones: ranges come in order) with the model and the rule.
    pub fn play(&mut self, range: std::ops::Range<usize>) -> Result<(), DqnError> {
        let boards = &self.boards[range];
        let clicks = play(&self.policy, boards, EVAL_BATCH)?;
        self.model.extend(clicks.iter().map(Vec::len));
        (self.greedy).extend(boards.iter().map(|b| b.greedy_clearing().len()));
        Ok(())
    }

    /// The boards played so far, summed up.
    pub fn summary(&self) -> AgainstGreedySummary {
        AgainstGreedySummary {
            seed: self.seed,
            model: ClicksSummary::of(self.model.iter().copied()),
            greedy: ClicksSummary::of(self.greedy.iter().copied()),
        }
    }
}

/// What a dust run is set up with (the manifest's `setup`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct DustSetup {
    /// `backups` (puzzlelab's full backups) or `batched` (the blog's batched DQN).
    pub net: String,
    /// The next position's value in the TD target: `max` or `mean` (the blog's).
    pub target: String,
}

impl Default for DustSetup {
    fn default() -> Self {
        DustSetup {
            net: "backups".into(),
            target: "max".into(),
        }
    }
}

/// Greedy and one-step-lookahead play on the validation boards.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DustEvaluation {
    /// Boards played.
    pub boards: usize,
    /// Clicks a board the way the learner plays (`play`).
    pub mean_clicks: f64,
    /// `lookahead` (puzzlelab's learner) or `greedy` (the blog's).
    pub play: &'static str,
    /// Clicks a board, greedily.
    pub mean_clicks_greedy: f64,
    /// Clicks a board, with one step of lookahead.
    pub mean_clicks_lookahead: f64,
}

/// The dust puzzle's deep Q-learner ([`super::PuzzleLearner`]).
pub struct DustLearner;

impl super::PuzzleLearner for DustLearner {
    type Env = SameGameEnv;
    type Setup = DustSetup;
    type Validation = Vec<Board>;
    type Evaluation = DustEvaluation;

    const PUZZLE: &'static str = "dust";
    const NAME: &'static str = "the dust puzzle";
    const NETWORKS: &'static [super::NetworkChoice] = &[
        super::NetworkChoice::new("backups", "puzzlelab's full backups of every legal click of boards from every stage of a game"),
        super::NetworkChoice::new("batched", "the batched DQN of the dust-puzzle blog post (one-hot 8x6x6 in, one Q-value per cell out)").formerly(&["blog"]),
    ];
    const VALIDATION_SEED: u64 = VALIDATION_SEED;
    const VALIDATION_SIZE: usize = 100;

    fn network(setup: &DustSetup) -> Result<&'static super::NetworkChoice, DqnError> {
        super::network_named(Self::NETWORKS, &setup.net)
    }

    fn config(setup: &DustSetup) -> Result<DqnConfig, DqnError> {
        let config = match Self::network(setup)?.name {
            "batched" => batched_config(vec![1500; 5]),
            _ => backups_config(vec![512, 512, 512]),
        };
        let mean_next_q = match setup.target.as_str() {
            "max" => false,
            "mean" => true,
            other => {
                return Err(DqnError::InvalidSetup(format!(
                    "unknown target \"{other}\": max or mean"
                )))
            }
        };
        Ok(DqnConfig {
            mean_next_q,
            ..config
        })
    }

    /// The learner is told by its settings (full backups are puzzlelab's), so that a model
    /// resumes from its own record.
    fn settle(setup: &mut DustSetup, config: &mut DqnConfig) -> Result<(), DqnError> {
        setup.net = if config.full_backups {
            "backups"
        } else {
            "batched"
        }
        .into();
        setup.target = if config.mean_next_q { "mean" } else { "max" }.into();
        Ok(())
    }

    fn environments(setup: &DustSetup) -> Result<Box<dyn FnMut() -> SameGameEnv>, DqnError> {
        Ok(match Self::network(setup)?.name {
            "batched" => Box::new(one_hot_env),
            _ => Box::new(backups_env),
        })
    }

    fn validation(_: &DustSetup, size: usize, seed: u64) -> Result<Vec<Board>, DqnError> {
        Ok(seeded_boards(seed, size))
    }

    fn validation_len(validation: &Vec<Board>) -> usize {
        validation.len()
    }

    fn evaluate(policy: &QPolicy, boards: &Vec<Board>) -> Result<DustEvaluation, DqnError> {
        let mean = |clicks: Vec<Vec<usize>>| {
            clicks.iter().map(Vec::len).sum::<usize>() as f64 / clicks.len().max(1) as f64
        };
        let greedy = mean(play_greedy(policy, boards, EVAL_BATCH)?);
        let lookahead = mean(play_lookahead(policy, boards, EVAL_BATCH)?);
        let with_lookahead = plays_with_lookahead(policy);
        Ok(DustEvaluation {
            boards: boards.len(),
            mean_clicks: if with_lookahead { lookahead } else { greedy },
            play: if with_lookahead {
                "lookahead"
            } else {
                "greedy"
            },
            mean_clicks_greedy: greedy,
            mean_clicks_lookahead: lookahead,
        })
    }

    fn summary(e: &DustEvaluation) -> String {
        format!(
            "{} boards: {:.3} clicks a board greedily, {:.3} with one step of lookahead",
            e.boards, e.mean_clicks_greedy, e.mean_clicks_lookahead
        )
    }

    fn reward(setup: &DustSetup, config: &DqnConfig) -> String {
        let reward = match setup.net.as_str() {
            "batched" => "click cost (the blog post's): +10 for the click that clears the board, -10 for an empty cell, -1 otherwise",
            _ => "click cost (the blog post's: +10 clearing, -1 a click); piles only; starts from every stage of games of greedy or random clicks",
        };
        format!(
            "{reward}; dense layers {:?}, TD target from the {} of the next Q-values",
            config.hidden, setup.target
        )
    }

    fn fit(policy: &QPolicy, _: &DustSetup) -> Result<QPolicy, DqnError> {
        env_for(policy)?;
        Ok(policy.clone())
    }
}
