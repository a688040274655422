//! A value network for the 15-puzzle learned from optimal solutions: supervised regression of
//! the moves left (the cost-to-go), for batch-weighted A* ([`crate::agent::bwas`]).
//!
//! Every position on an optimal solution is an example with its exact distance to the goal (the
//! position `k` moves from the end of an optimal path is exactly `k` moves away), so one solve
//! by the pattern-database IDA* gives some fifty examples. The network is the dense network of
//! [`QNetworkConfig`] with one output, trained to give minus the moves left, so that
//! [`q_heuristic`](crate::agent::evaluation::q_heuristic)'s `−max Q` reads the estimate as it reads
//! a Q-network's (the shipped Q-network is trained with −1 a move and γ = 1).
//!
//! The loss may weigh overestimates more than underestimates (`over_weight` > 1: an expectile
//! below the mean, after Ernandes & Gori 2004, "likely-admissible" heuristics): A* over an
//! estimate that is rarely above the true distance finds optimal solutions nearly always.

use super::network::read_floats;
use super::td::adam;
use super::{QNetwork, QNetworkConfig, QPolicy};
use crate::env::sliding::{Board, Direction, SlidingPuzzle};
use crate::rng::Rng;
use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};

/// How a puzzle's positions are written as a value network's input.
pub trait ValueEncoding {
    /// A position.
    type Position: Clone;
    /// Inputs of the network.
    fn observation_len(&self) -> usize;
    /// Writes `position` into `out` (`observation_len` values).
    fn write(&self, position: &Self::Position, out: &mut [f32]);
    /// The puzzle id a model trained on this encoding carries.
    fn puzzle_id(&self) -> String;
}

/// The 15-puzzle's (any sliding puzzle's) encoding: the environment's one-hot observation.
#[derive(Clone, Debug)]
pub struct SlidingValue {
    labels: usize,
    cells: usize,
    id: String,
}

impl SlidingValue {
    /// The encoding of `puzzle`'s positions.
    pub fn new(puzzle: &SlidingPuzzle) -> SlidingValue {
        SlidingValue {
            labels: puzzle.goal().max_label() as usize + 1,
            cells: puzzle.goal().len(),
            id: format!(
                "sliding {}x{} goal {}",
                puzzle.rows(),
                puzzle.cols(),
                puzzle.format(puzzle.goal())
            ),
        }
    }
}

impl ValueEncoding for SlidingValue {
    type Position = Board;
    fn observation_len(&self) -> usize {
        self.cells * self.labels
    }
    fn write(&self, position: &Board, out: &mut [f32]) {
        write_one_hot(position, self.labels, out);
    }
    fn puzzle_id(&self) -> String {
        self.id.clone()
    }
}

/// Training examples: positions and their exact distances to the goal.
#[derive(Clone, Debug)]
pub struct CostToGoSamples<P = Board> {
    /// The positions.
    pub boards: Vec<P>,
    /// Their optimal distances, in moves (clicks).
    pub distances: Vec<u8>,
}

impl<P> Default for CostToGoSamples<P> {
    fn default() -> Self {
        CostToGoSamples {
            boards: Vec::new(),
            distances: Vec::new(),
        }
    }
}

impl<P> CostToGoSamples<P> {
    /// Number of examples.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }
}

impl CostToGoSamples<Board> {
    /// Adds every position of the optimal solution `moves` from `start`, each with the moves
    /// left after it. Fails (adding nothing) when a move leaves the board.
    pub fn push_path(&mut self, start: Board, moves: &[Direction]) -> Result<(), String> {
        let mut board = start;
        let mut path = vec![board];
        for (i, &d) in moves.iter().enumerate() {
            if !board.move_blank(d) {
                return Err(format!("move {} ({}) leaves the board", i + 1, d.name()));
            }
            path.push(board);
        }
        let length = moves.len();
        if length > u8::MAX as usize {
            return Err(format!("{length} moves is too long"));
        }
        for (k, b) in path.into_iter().enumerate() {
            self.boards.push(b);
            self.distances.push((length - k) as u8);
        }
        Ok(())
    }

    /// Reads the data lines `puzzlelab sliding cost-to-go data` writes (`position moves`, `#` comments)
    /// and adds every path; the error names the line.
    pub fn push_text(&mut self, puzzle: &SlidingPuzzle, text: &str) -> Result<usize, String> {
        let mut paths = 0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |why: String| format!("line {}: {why}", n + 1);
            let (position, moves) = line
                .split_once(' ')
                .ok_or_else(|| at("expected a position, a space and its moves".into()))?;
            let start = puzzle.parse(position).map_err(|e| at(e.to_string()))?;
            let moves: Vec<Direction> = if moves.trim() == "-" {
                Vec::new()
            } else {
                moves
                    .trim()
                    .chars()
                    .map(|c| {
                        Direction::from_name(&c.to_string())
                            .ok_or_else(|| at(format!("{c:?} is not a move (u, d, l, r)")))
                    })
                    .collect::<Result<_, _>>()?
            };
            let before = self.boards.len();
            self.push_path(start, &moves).map_err(at)?;
            if self.boards.last() != Some(puzzle.goal()) {
                self.boards.truncate(before);
                self.distances.truncate(before);
                return Err(at("the moves do not reach the goal".into()));
            }
            paths += 1;
        }
        Ok(paths)
    }

    /// Adds the mirror image of every example across the main diagonal: the cells transposed
    /// and each tile renamed for the tile whose goal cell is its goal cell's transpose. Where
    /// [`transposed`] finds that symmetry (square boards, numbered tiles, the goal's blank on the
    /// diagonal, as on the standard 15-puzzle), the goal is its own mirror image, so each
    /// distance is unchanged and the data doubles; elsewhere nothing is added. Returns how many
    /// were added.
    pub fn add_transposes(&mut self, goal: &Board) -> usize {
        let n = self.boards.len();
        if n == 0 || transposed(goal, goal).is_none() {
            return 0;
        }
        for i in 0..n {
            let mirrored = transposed(&self.boards[i], goal).expect("the goal has the symmetry");
            self.boards.push(mirrored);
            self.distances.push(self.distances[i]);
        }
        n
    }
}

/// `board` mirrored across the main diagonal with the tiles renamed so that `goal` is its own
/// mirror image (see [`CostToGoSamples::add_transposes`]). `None` where that symmetry does not
/// exist: a board that is not square, a goal whose blank is off the main diagonal (the blank
/// would be renamed as a tile), or a goal with repeated labels.
pub fn transposed(board: &Board, goal: &Board) -> Option<Board> {
    let (rows, cols) = (board.rows(), board.cols());
    if rows != cols || (goal.rows(), goal.cols()) != (rows, cols) {
        return None;
    }
    let t = |p: usize| (p % cols) * cols + p / cols;
    let mut rename = [None; 256];
    for (p, &label) in goal.cells().iter().enumerate() {
        if rename[label as usize].is_some() {
            return None;
        }
        rename[label as usize] = Some(goal.cells()[t(p)]);
    }
    if rename[0] != Some(0) {
        return None;
    }
    let mut cells = vec![0u8; board.len()];
    for (p, &label) in board.cells().iter().enumerate() {
        cells[t(p)] = rename[label as usize]?;
    }
    Board::new(rows, cols, &cells).ok()
}

/// The one-hot observation of `board` (the sliding environment's: cell-major, one value per
/// label, the blank being label 0), written into `out`.
pub fn write_one_hot(board: &Board, labels: usize, out: &mut [f32]) {
    out.fill(0.0);
    for (cell, &label) in board.cells().iter().enumerate() {
        out[cell * labels + label as usize] = 1.0;
    }
}

/// How far estimates are from the true distances.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CostToGoErrors {
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error, in moves.
    pub mean_absolute: f64,
    /// Root mean squared error.
    pub root_mean_squared: f64,
    /// Mean of estimate − truth (negative: underestimates on average).
    pub bias: f64,
    /// Share of positions whose estimate is above the true distance.
    pub over: f64,
    /// Share whose estimate is at least one move above it.
    pub over_one: f64,
    /// Share whose estimate is at least two moves above it.
    pub over_two: f64,
}

impl CostToGoErrors {
    /// Compares `estimates` with `truth`.
    pub fn of(estimates: &[f32], truth: &[u8]) -> CostToGoErrors {
        let n = estimates.len().min(truth.len());
        if n == 0 {
            return CostToGoErrors::default();
        }
        let (mut abs, mut sq, mut sum, mut over, mut one, mut two) = (0.0, 0.0, 0.0, 0, 0, 0);
        for (&e, &t) in estimates.iter().zip(truth) {
            let d = e as f64 - t as f64;
            abs += d.abs();
            sq += d * d;
            sum += d;
            over += usize::from(d > 0.0);
            one += usize::from(d >= 1.0);
            two += usize::from(d >= 2.0);
        }
        let n_f = n as f64;
        CostToGoErrors {
            positions: n,
            mean_absolute: abs / n_f,
            root_mean_squared: (sq / n_f).sqrt(),
            bias: sum / n_f,
            over: over as f64 / n_f,
            over_one: one as f64 / n_f,
            over_two: two as f64 / n_f,
        }
    }
}

/// The learner: a dense network with one output, Adam, minibatches drawn without replacement
/// epoch by epoch.
pub struct CostToGo<E: ValueEncoding = SlidingValue> {
    network: QNetwork,
    network_config: QNetworkConfig,
    optimizer: ModuleOptimizer,
    device: Device,
    encoding: E,
    rng: Rng,
    /// Gradient steps done.
    pub steps: usize,
}

impl<E: ValueEncoding> CostToGo<E> {
    /// A fresh network for the positions `encoding` writes, with `hidden` layers, weights drawn
    /// by `seed`.
    pub fn new(encoding: E, hidden: &[usize], seed: u64) -> CostToGo<E> {
        let network_config = QNetworkConfig {
            observation_len: encoding.observation_len(),
            hidden: hidden.to_vec(),
            num_actions: 1,
            conv: None,
            grid: None,
        };
        let device = Device::flex().autodiff();
        let network = network_config.init(&device, seed);
        CostToGo::with_network(encoding, network, network_config, seed)
    }

    /// Goes on training `policy` (a value network saved by [`CostToGo::policy`]); Adam's
    /// moments start again. `seed` draws the minibatches from here on.
    pub fn resume(
        encoding: E,
        policy: &QPolicy,
        seed: u64,
        steps: usize,
    ) -> Result<CostToGo<E>, String> {
        let config = policy.network_config().clone();
        if config.num_actions != 1
            || config.observation_len != encoding.observation_len()
            || policy.puzzle_id() != encoding.puzzle_id()
        {
            return Err("the model is not a value network for this puzzle".into());
        }
        let device = Device::flex().autodiff();
        let network = config.from_weights(&policy.network.weights(), &device);
        let mut learner = CostToGo::with_network(encoding, network, config, seed);
        learner.steps = steps;
        Ok(learner)
    }

    fn with_network(
        encoding: E,
        network: QNetwork,
        network_config: QNetworkConfig,
        seed: u64,
    ) -> CostToGo<E> {
        CostToGo {
            network,
            network_config,
            optimizer: adam(),
            device: Device::flex().autodiff(),
            encoding,
            rng: Rng::new(seed ^ 0xC057_7060_5EED),
            steps: 0,
        }
    }

    /// The network's shape.
    pub fn network_config(&self) -> &QNetworkConfig {
        &self.network_config
    }

    /// One pass over `samples` in minibatches of `batch` at learning rate `lr`; overestimates
    /// weigh `over_weight` times as much as underestimates in the squared error. Returns the
    /// mean loss.
    pub fn train_epoch(
        &mut self,
        samples: &CostToGoSamples<E::Position>,
        batch: usize,
        lr: f64,
        over_weight: f32,
    ) -> f64 {
        self.train_epoch_with(samples, batch, lr, over_weight, |_, _, _| {})
    }

    /// [`CostToGo::train_epoch`], calling `progress(batches done, batches in all, mean loss so
    /// far)` every 1,000 minibatches.
    pub fn train_epoch_with(
        &mut self,
        samples: &CostToGoSamples<E::Position>,
        batch: usize,
        lr: f64,
        over_weight: f32,
        mut progress: impl FnMut(usize, usize, f64),
    ) -> f64 {
        let n = samples.len();
        let batch = batch.max(1);
        let mut order: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut order);
        let width = self.network_config.observation_len;
        let (mut total, mut batches) = (0.0, 0);
        let mut observations = vec![0.0f32; batch * width];
        let mut targets = vec![0.0f32; batch];
        for chunk in order.chunks(batch) {
            let b = chunk.len();
            for (k, &i) in chunk.iter().enumerate() {
                self.encoding.write(
                    &samples.boards[i],
                    &mut observations[k * width..(k + 1) * width],
                );
                targets[k] = samples.distances[i] as f32;
            }
            let loss = self.loss(&observations[..b * width], &targets[..b], over_weight);
            total += burn::tensor::read_sync(read_floats(loss.clone().without_autodiff()))
                .expect("the CPU reads back")[0] as f64;
            batches += 1;
            let gradients = GradientsParams::from_grads(loss.backward(), &self.network);
            self.network = self.optimizer.step(lr, self.network.clone(), gradients);
            self.steps += 1;
            if batches % 1000 == 0 {
                progress(batches, n.div_ceil(batch), total / batches as f64);
            }
        }
        total / batches.max(1) as f64
    }

    /// The minibatch's loss (with autodiff): mean of w·(estimate − truth)², w = `over_weight`
    /// where the estimate (minus the output) is above the truth, else 1.
    fn loss(&self, observations: &[f32], targets: &[f32], over_weight: f32) -> Tensor<1> {
        let b = targets.len();
        let width = self.network_config.observation_len;
        let input = Tensor::<2>::from_data(
            TensorData::new(observations.to_vec(), [b, width]),
            &self.device,
        );
        let truth = Tensor::<2>::from_data(TensorData::new(targets.to_vec(), [b, 1]), &self.device);
        let estimate = self.network.forward(input).neg();
        let error = estimate - truth;
        let over = error.clone().clamp_min(0.0);
        let under = error.clamp_max(0.0);
        (over.powi_scalar(2).mul_scalar(over_weight) + under.powi_scalar(2)).mean()
    }

    /// The estimates (moves left) of `boards`.
    pub fn estimates(&self, boards: &[E::Position]) -> Vec<f32> {
        let width = self.network_config.observation_len;
        let mut out = Vec::with_capacity(boards.len());
        let inference = self.network.valid();
        let device = self.device.clone().without_autodiff();
        for chunk in boards.chunks(4096) {
            let mut observations = vec![0.0f32; chunk.len() * width];
            for (board, o) in chunk.iter().zip(observations.chunks_mut(width)) {
                self.encoding.write(board, o);
            }
            let input = Tensor::<2>::from_data(
                TensorData::new(observations, [chunk.len(), width]),
                &device,
            );
            let values = burn::tensor::read_sync(read_floats(inference.forward(input)))
                .expect("the CPU reads back");
            out.extend(values.into_iter().map(|v| -v));
        }
        out
    }

    /// The trained network as a model to save and play with (`training` left empty: the
    /// manifest says how it was trained).
    pub fn policy(&self) -> QPolicy {
        let device = self.device.clone().without_autodiff();
        QPolicy {
            network: self.network.valid(),
            network_config: self.network_config.clone(),
            puzzle_id: self.encoding.puzzle_id(),
            mask_actions: true,
            device,
            training: None,
            sparse_input: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::dqn::sliding::training_env;
    use crate::agent::evaluation::place;
    use crate::env::Environment;

    #[test]
    fn a_path_gives_every_position_with_the_moves_left() {
        let puzzle = SlidingPuzzle::standard(3, 3).unwrap();
        let start = puzzle.parse("1,2,3,4,5,6,_,7,8").unwrap();
        let mut samples = CostToGoSamples::default();
        samples
            .push_text(&puzzle, "# a comment\n1,2,3,4,5,6,_,7,8 rr\n")
            .unwrap();
        assert_eq!(samples.distances, vec![2, 1, 0]);
        assert_eq!(samples.boards[0], start);
        assert_eq!(&samples.boards[2], puzzle.goal());
        let wrong = samples.push_text(&puzzle, "1,2,3,4,5,6,_,7,8 ru");
        assert!(wrong.unwrap_err().starts_with("line 1:"));
        assert!(samples.push_text(&puzzle, "1,2,3,4,5,6,_,7,8 rl").is_err());
        assert!(samples.push_text(&puzzle, "1,2,3,4,5,6,_,7,8 rx").is_err());
        assert_eq!(samples.len(), 3, "a bad line adds nothing");
    }

    #[test]
    fn a_transposed_position_is_as_far_from_the_goal() {
        for goal_text in [
            "1,2,3,4,5,6,7,8,_",
            "_,1,2,3,4,5,6,7,8",
            "1,2,3,8,_,4,7,6,5",
        ] {
            let puzzle = SlidingPuzzle::with_goal_text(3, 3, goal_text).unwrap();
            let table = crate::env::sliding::solve::ExactDistances::build(puzzle.goal()).unwrap();
            assert_eq!(
                transposed(puzzle.goal(), puzzle.goal()).as_ref(),
                Some(puzzle.goal())
            );
            let mut rng = Rng::new(7);
            for _ in 0..200 {
                let board = puzzle.random_solvable(&mut rng);
                let mirrored = transposed(&board, puzzle.goal()).unwrap();
                assert_eq!(
                    table.distance(&mirrored),
                    table.distance(&board),
                    "{goal_text}"
                );
                assert_eq!(transposed(&mirrored, puzzle.goal()), Some(board));
            }
        }
        // No such symmetry: the goal's blank off the diagonal, a board that is not square.
        let off = SlidingPuzzle::with_goal_text(3, 3, "1,_,2,3,4,5,6,7,8").unwrap();
        let board = off.parse("_,1,2,3,4,5,6,7,8").unwrap();
        assert_eq!(transposed(&board, off.goal()), None);
        let mut samples = CostToGoSamples::default();
        samples.push_path(board, &[Direction::Right]).unwrap();
        assert_eq!(samples.add_transposes(off.goal()), 0);
        assert_eq!(samples.len(), 2);
        let wide = SlidingPuzzle::standard(2, 3).unwrap();
        assert_eq!(transposed(wide.goal(), wide.goal()), None);
    }

    #[test]
    fn the_observation_is_the_environments() {
        let puzzle = SlidingPuzzle::standard(4, 4).unwrap();
        let mut env = training_env(&puzzle, 0);
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let board = puzzle.random_solvable(&mut rng);
            place(&mut env, board);
            let mut expected = vec![0.0; env.observation_len()];
            env.write_observation(&mut expected);
            let mut ours = vec![9.0; expected.len()];
            write_one_hot(&board, 16, &mut ours);
            assert_eq!(ours, expected);
        }
    }

    #[test]
    fn it_learns_the_distances_of_a_small_board() {
        // Every 2×3 position with its exact distance; a small network fits them closely.
        let puzzle = SlidingPuzzle::standard(2, 3).unwrap();
        let table = crate::env::sliding::solve::ExactDistances::build(puzzle.goal()).unwrap();
        let mut samples = CostToGoSamples::default();
        let mut rng = Rng::new(1);
        for _ in 0..400 {
            let board = puzzle.random_solvable(&mut rng);
            samples.boards.push(board);
            samples
                .distances
                .push(table.distance(&board).unwrap() as u8);
        }
        let mut learner = CostToGo::new(SlidingValue::new(&puzzle), &[64, 64], 1);
        let before = CostToGoErrors::of(&learner.estimates(&samples.boards), &samples.distances);
        for _ in 0..300 {
            learner.train_epoch(&samples, 50, 3e-3, 1.0);
        }
        let after = CostToGoErrors::of(&learner.estimates(&samples.boards), &samples.distances);
        assert!(after.mean_absolute < 1.0, "{after:?}");
        assert!(
            after.mean_absolute < before.mean_absolute / 5.0,
            "{before:?} → {after:?}"
        );
        // Overestimates weighed 20 times: fewer estimates above the truth than with 1.
        let mut cautious = CostToGo::new(SlidingValue::new(&puzzle), &[64, 64], 1);
        for _ in 0..300 {
            cautious.train_epoch(&samples, 50, 3e-3, 20.0);
        }
        let cautious = CostToGoErrors::of(&cautious.estimates(&samples.boards), &samples.distances);
        assert!(
            cautious.over_one < after.over_one.max(0.01),
            "{cautious:?} vs {after:?}"
        );
        assert!(cautious.bias < after.bias, "{cautious:?} vs {after:?}");
        // The saved model reads the same estimates back, through q_heuristic's −max Q.
        let policy = learner.policy();
        let again = QPolicy::from_bytes(&policy.to_bytes(), &Device::flex()).unwrap();
        let mut env = crate::agent::dqn::sliding::training_env(&puzzle, 0);
        let through =
            crate::agent::evaluation::q_heuristic(&again, &mut env, &samples.boards[..10]);
        let direct = learner.estimates(&samples.boards[..10]);
        for (a, b) in through.iter().zip(&direct) {
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
    }
}
