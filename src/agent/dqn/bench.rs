//! Timing the learner's gradient step by itself, on any device: the side of
//! `scripts/bench-webml.mjs` that is ours (the other side runs the same step in TensorFlow.js).
//!
//! [`Dqn::benchmark_steps`] times the step the learner takes ([`Dqn::sample_batch`],
//! [`Dqn::upload_batch`], [`Dqn::td_loss`], [`Dqn::apply_gradients`], the target's copy), with the
//! loss read back every `read_every` steps, and a greedy move (one observation's Q-values read
//! back). With `phases` it also takes the step apart: each phase is followed by a readback of one
//! number, so that its work is done before the next starts, and the readback alone is timed too.
//! [`op_benchmark`] times single operations (a dense layer's matrix product, an addition, an upload
//! and a readback), to tell how much of a step is dispatch and how much is arithmetic.
//! [`Dqn::timing_probe`] times a fresh network of a learner's shape on any device: what the page's
//! *Auto* picks the faster backend by.
//!
//! Timings are taken over whole batches of steps or moves, never one at a time: a worker's clock
//! ticks in 100 µs unless the page is cross-origin isolated.

use super::matmul::{layer_operands, product, spread};
use super::network::{q_values, read_floats};
use super::td::{adam, td_loss, BatchTensors};
use super::{Batch, Dqn, DqnError, QNetwork};
use crate::env::Environment;
use crate::rng::Rng;
use burn::module::Module;
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};
use web_time::Instant;

/// What [`Dqn::benchmark_steps`] runs.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct StepBenchmarkOptions {
    /// Gradient steps to time (after `warmup_steps` untimed ones).
    pub steps: usize,
    /// Untimed steps first (kernels are compiled on first use).
    pub warmup_steps: usize,
    /// Read the loss back every this many steps (1: every step, as a trainer that reports each
    /// loss does).
    pub read_every: usize,
    /// Also time the phases of a step, `phase_steps` steps of them.
    pub phases: bool,
    /// Steps whose phases are timed.
    pub phase_steps: usize,
    /// Greedy moves to time (one observation's Q-values, read back).
    pub greedy_moves: usize,
}

impl Default for StepBenchmarkOptions {
    fn default() -> Self {
        StepBenchmarkOptions {
            steps: 20,
            warmup_steps: 3,
            read_every: 1,
            phases: false,
            phase_steps: 5,
            greedy_moves: 30,
        }
    }
}

/// Mean milliseconds per step of each phase of a gradient step ([`StepBenchmarkOptions::phases`]).
/// Each phase but `readback` ends with a readback of one number (so each includes one readback's
/// latency).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseTimes {
    /// Sampling the batch from the replay buffer and uploading it.
    pub sample_and_upload_ms: f64,
    /// The target network's forward pass, the policy's, and the loss.
    pub forward_ms: f64,
    /// Back-propagation to every parameter's gradient.
    pub backward_ms: f64,
    /// Adam's update of every parameter (and the target's copy when it falls due).
    pub optimizer_ms: f64,
    /// Reading back one number that is already computed.
    pub readback_ms: f64,
}

/// What [`Dqn::benchmark_steps`] measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepBenchmark {
    /// The network's input: one observation's length.
    pub observation_len: usize,
    /// Its hidden layers' widths (ReLU).
    pub hidden: Vec<usize>,
    /// Its outputs: one Q-value per action.
    pub num_actions: usize,
    /// The network's parameters.
    pub parameters: usize,
    /// Transitions per gradient step.
    pub batch_size: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// The discount of the TD target.
    pub gamma: f32,
    /// Huber loss (δ = 1) rather than squared.
    pub huber_loss: bool,
    /// Illegal next actions masked out of the target's max.
    pub mask_actions: bool,
    /// The target network copies the policy every this many steps.
    pub target_update_interval: usize,
    /// Timed gradient steps.
    pub steps: usize,
    /// The loss was read back every this many steps.
    pub read_every: usize,
    /// Wall time of the timed steps.
    pub seconds: f64,
    /// Gradient steps per second.
    pub steps_per_s: f64,
    /// The mean loss of the timed steps whose loss was read back.
    pub mean_loss: f32,
    /// Timed greedy moves.
    pub greedy_moves: usize,
    /// Mean milliseconds of one greedy move (upload one observation, forward, read back).
    pub greedy_move_ms: f64,
    /// The phases, when asked for.
    pub phases: Option<PhaseTimes>,
}

/// Waits until the device has computed `tensor` (and everything submitted before it) by reading
/// back its first element.
async fn settle<const D: usize>(tensor: Tensor<D>) -> Result<(), DqnError> {
    let first = tensor.flatten::<1>(0, D - 1).narrow(0, 0, 1);
    read_floats(first).await.map(|_| ())
}

impl<E: Environment> Dqn<E> {
    /// Times gradient steps on batches from the replay buffer, as the learner takes them (see
    /// the module docs). Moves the learner on: its weights, Adam's moments and the target
    /// network change as in training.
    ///
    /// # Errors
    /// If the replay buffer holds fewer transitions than a batch (train a chunk first).
    pub async fn benchmark_steps(
        &mut self,
        options: &StepBenchmarkOptions,
    ) -> Result<StepBenchmark, DqnError> {
        if self.buffer.len() < self.config.batch_size {
            return Err(DqnError::InvalidConfig(format!(
                "the replay buffer holds {} transitions, fewer than a batch of {}: train first",
                self.buffer.len(),
                self.config.batch_size
            )));
        }
        let read_every = options.read_every.max(1);
        for _ in 0..options.warmup_steps {
            let loss = self.benchmark_step();
            read_floats(loss).await?;
        }
        let (mut loss_sum, mut losses_read) = (0.0f64, 0usize);
        let started = Instant::now();
        for k in 1..=options.steps {
            let loss = self.benchmark_step();
            if k % read_every == 0 || k == options.steps {
                loss_sum += f64::from(read_floats(loss).await?[0]);
                losses_read += 1;
            }
        }
        let seconds = started.elapsed().as_secs_f64();

        let phases = if options.phases {
            Some(self.time_phases(options.phase_steps.max(1)).await?)
        } else {
            None
        };

        // A greedy move as the trainer's `qValues` makes it.
        let observation: Vec<f32> =
            self.observations[..self.network_config.observation_len].to_vec();
        self.q_values_async(&observation).await?;
        let started = Instant::now();
        for _ in 0..options.greedy_moves {
            self.q_values_async(&observation).await?;
        }
        let move_seconds = started.elapsed().as_secs_f64();

        Ok(StepBenchmark {
            observation_len: self.network_config.observation_len,
            hidden: self.network_config.hidden.clone(),
            num_actions: self.network_config.num_actions,
            parameters: self.network_config.num_params(),
            batch_size: self.config.batch_size,
            learning_rate: self.config.learning_rate,
            gamma: self.config.gamma,
            huber_loss: self.config.huber_loss,
            mask_actions: self.config.mask_actions,
            target_update_interval: self.config.target_update_interval,
            steps: options.steps,
            read_every,
            seconds,
            steps_per_s: options.steps as f64 / seconds.max(1e-9),
            mean_loss: (loss_sum / losses_read.max(1) as f64) as f32,
            greedy_moves: options.greedy_moves,
            greedy_move_ms: move_seconds * 1000.0 / options.greedy_moves.max(1) as f64,
            phases,
        })
    }

    /// One step as [`Dqn::train_steps`] takes it without prioritised replay; the loss is left on
    /// the device.
    fn benchmark_step(&mut self) -> Tensor<1> {
        self.sample_batch();
        let batch = self.upload_batch();
        let loss = self.td_loss(&batch);
        self.apply_gradients(loss.clone());
        self.updates_done += 1;
        self.follow_target();
        loss.without_autodiff()
    }

    /// [`PhaseTimes`] over `steps` steps.
    async fn time_phases(&mut self, steps: usize) -> Result<PhaseTimes, DqnError> {
        let mut total = PhaseTimes::default();
        let ms = |since: Instant| since.elapsed().as_secs_f64() * 1000.0;
        for _ in 0..steps {
            let clock = Instant::now();
            self.sample_batch();
            let batch: BatchTensors = self.upload_batch();
            settle(batch.observations.clone().without_autodiff()).await?;
            settle(batch.next_observations.clone()).await?;
            total.sample_and_upload_ms += ms(clock);

            let clock = Instant::now();
            let loss = self.td_loss(&batch);
            settle(loss.clone().without_autodiff()).await?;
            total.forward_ms += ms(clock);

            let clock = Instant::now();
            let gradients = GradientsParams::from_grads(loss.clone().backward(), &self.policy);
            let first = self.policy.layers[0].weight.id;
            if let Some(gradient) = gradients.get::<2>(first) {
                settle(gradient).await?;
            }
            total.backward_ms += ms(clock);

            let clock = Instant::now();
            self.policy =
                self.optimizer
                    .step(self.config.learning_rate, self.policy.clone(), gradients);
            self.updates_done += 1;
            self.follow_target();
            settle(self.policy.layers[0].weight.val().without_autodiff()).await?;
            total.optimizer_ms += ms(clock);

            let clock = Instant::now();
            read_floats(loss.without_autodiff()).await?;
            total.readback_ms += ms(clock);
        }
        let n = steps as f64;
        Ok(PhaseTimes {
            sample_and_upload_ms: total.sample_and_upload_ms / n,
            forward_ms: total.forward_ms / n,
            backward_ms: total.backward_ms / n,
            optimizer_ms: total.optimizer_ms / n,
            readback_ms: total.readback_ms / n,
        })
    }
}

/// What [`Dqn::timing_probe`] measured on one device.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimingProbe {
    /// Timed gradient steps.
    pub steps: usize,
    /// Gradient steps per second.
    pub steps_per_s: f64,
    /// Timed greedy moves.
    pub greedy_moves: usize,
    /// Mean milliseconds of one greedy move (one observation's Q-values, read back).
    pub greedy_move_ms: f64,
}

impl<E: Environment> Dqn<E> {
    /// Times a fresh network of this learner's shape on `device`: `steps` gradient steps on a
    /// batch of this learner's size (uploaded, the learner's own loss ([`td_loss`]), backward,
    /// Adam) with the loss read back once at the end, as a training chunk reads it,
    /// after one untimed step that compiles the kernels; then `moves` greedy moves. The learner
    /// itself is left as it is. What the page's *Auto* compares WebGPU and the CPU by.
    pub async fn timing_probe(
        &self,
        device: &Device,
        steps: usize,
        moves: usize,
    ) -> Result<TimingProbe, DqnError> {
        let (b, n, a) = (
            self.config.batch_size,
            self.network_config.observation_len,
            self.network_config.num_actions,
        );
        let device = device.clone().autodiff();
        let on_infer = device.clone().without_autodiff();
        let mut policy = self.network_config.init(&device, 1);
        let target = policy.valid();
        let mut optimizer = adam();
        // A batch like a replay buffer's: sparse binary observations, every action taken, all
        // actions legal; uploaded again every step, as the learner uploads its batches.
        let mut rng = Rng::new(1);
        let mut binary = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| if rng.chance(0.2) { 1.0 } else { 0.0 })
                .collect()
        };
        let batch = Batch {
            observations: binary(b * n),
            next_observations: binary(b * n),
            actions: (0..b).map(|i| (i % a) as i64).collect(),
            rewards: vec![-1.0; b],
            not_terminated: vec![1.0; b],
            next_penalties: vec![0.0; b * a],
            indices: Vec::new(),
            weights: vec![1.0; b],
        };
        let (config, lr) = (&self.config, self.config.learning_rate);
        let mut step = |policy: QNetwork| -> (QNetwork, Tensor<1>) {
            let tensors = BatchTensors::upload(&batch, &self.network_config, &device, &on_infer);
            let loss = td_loss(config, &policy, &target, &tensors);
            let gradients = GradientsParams::from_grads(loss.backward(), &policy);
            (
                optimizer.step(lr, policy, gradients),
                loss.without_autodiff(),
            )
        };
        let (next_policy, loss) = step(policy);
        read_floats(loss).await?;
        policy = next_policy;
        let steps = steps.max(1);
        let started = Instant::now();
        let mut last = None;
        for _ in 0..steps {
            let (next_policy, loss) = step(policy);
            policy = next_policy;
            last = Some(loss);
        }
        if let Some(loss) = last {
            read_floats(loss).await?;
        }
        let seconds = started.elapsed().as_secs_f64();

        let playing = policy.valid();
        let observation = &batch.observations[..n];
        q_values(&playing, observation, a, &on_infer).await?;
        let started = Instant::now();
        for _ in 0..moves {
            q_values(&playing, observation, a, &on_infer).await?;
        }
        let move_seconds = started.elapsed().as_secs_f64();
        Ok(TimingProbe {
            steps,
            steps_per_s: steps as f64 / seconds.max(1e-9),
            greedy_moves: moves,
            greedy_move_ms: move_seconds * 1000.0 / moves.max(1) as f64,
        })
    }
}

/// Mean milliseconds of single operations on a device ([`op_benchmark`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpTimes {
    /// Operations of each kind timed (one readback at the end of each run).
    pub count: usize,
    /// `[rows, width] × [width, width]`: one dense layer's product.
    pub matmul_ms: f64,
    /// Floating-point operations per second of those products.
    pub matmul_flops: f64,
    /// Adding a constant to `[rows, width]`: one small dispatch.
    pub add_ms: f64,
    /// Uploading `[rows, width]` floats.
    pub upload_ms: f64,
    /// Reading back one number that is already computed.
    pub readback_ms: f64,
}

/// Times `count` of each operation in [`OpTimes`] on `device`, each run settled by one readback,
/// with `rows × width` tensors (the thesis's network: 100 × 250).
pub async fn op_benchmark(
    device: &Device,
    rows: usize,
    width: usize,
    count: usize,
) -> Result<OpTimes, DqnError> {
    let count = count.max(1);
    let (x, w) = layer_operands(rows, width, device);
    // Compile every kernel first.
    settle(product(x.clone(), w.clone()) + 1.0).await?;

    let per = |since: Instant| since.elapsed().as_secs_f64() * 1000.0 / count as f64;
    let clock = Instant::now();
    let mut y = x.clone();
    for _ in 0..count {
        y = product(y, w.clone());
    }
    settle(y).await?;
    let matmul_ms = per(clock);

    let clock = Instant::now();
    let mut y = x.clone();
    for _ in 0..count {
        y = y + 1.0;
    }
    settle(y).await?;
    let add_ms = per(clock);

    let data = spread(rows * width, 1.0);
    let clock = Instant::now();
    let mut last = x.clone();
    for _ in 0..count {
        last = Tensor::<2>::from_data(TensorData::new(data.clone(), [rows, width]), device);
    }
    settle(last).await?;
    let upload_ms = per(clock);

    let one = x.slice([0..1, 0..1]);
    settle(one.clone()).await?;
    let clock = Instant::now();
    for _ in 0..count {
        read_floats(one.clone()).await?;
    }
    let readback_ms = per(clock);

    Ok(OpTimes {
        count,
        matmul_ms,
        matmul_flops: 2.0 * (rows * width * width) as f64 / (matmul_ms / 1000.0),
        add_ms,
        upload_ms,
        readback_ms,
    })
}
