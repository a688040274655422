//! The gradient step's arithmetic: a replayed batch on the device ([`BatchTensors`]), the TD
//! target (the max of the next Q-values, Double DQN's, or the dust blog's mean), the loss (Huber
//! or squared) and Adam as Keras sets it up. The play-and-replay loop that calls them is in
//! `learner.rs`; full backups use the element-wise loss (`full_backup.rs`). The lines of the
//! algorithm are marked `// DQN:`.

use super::{Batch, DqnConfig, QNetwork, QNetworkConfig};
use burn::module::Module;
use burn::nn::loss::{HuberLossConfig, MseLoss, Reduction};
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn::tensor::{Device, Int, Tensor, TensorData};

/// A sampled batch on the device: what a gradient step reads.
pub(super) struct BatchTensors {
    /// `[b, n]`, on the training device (autodiff).
    pub(super) observations: Tensor<2>,
    /// `[b, 1]`, the actions taken.
    pub(super) actions: Tensor<2, Int>,
    /// `[b, n]`, on the inference device, as are the rest.
    pub(super) next_observations: Tensor<2>,
    /// `[b, 1]`.
    pub(super) rewards: Tensor<2>,
    /// `[b, 1]`: 0 where the transition solved the puzzle, else 1.
    pub(super) not_terminated: Tensor<2>,
    /// `[b, a]`: 0 for a legal next action, a large negative number for an illegal one.
    pub(super) penalties: Tensor<2>,
}

/// Each element's loss for TD errors `errors`: squared, or Huber with δ = 1 (½e² within ±1,
/// |e| − ½ beyond).
pub(super) fn elementwise_loss(errors: Tensor<2>, huber: bool) -> Tensor<2> {
    if huber {
        let size = errors.abs();
        let quadratic = size.clone().clamp_max(1.0);
        quadratic.clone() * quadratic.clone() * 0.5 + (size - quadratic)
    } else {
        errors.clone() * errors
    }
}

impl BatchTensors {
    /// `batch` on the device: what is differentiated on `device` (autodiff), the rest on
    /// `on_infer`.
    pub(super) fn upload(
        batch: &Batch,
        network: &QNetworkConfig,
        device: &Device,
        on_infer: &Device,
    ) -> Self {
        let (n, a) = (network.observation_len, network.num_actions);
        let b = batch.actions.len();
        let column = |values: &[f32]| {
            Tensor::<2>::from_data(TensorData::new(values.to_vec(), [b, 1]), on_infer)
        };
        BatchTensors {
            observations: Tensor::from_data(
                TensorData::new(batch.observations.clone(), [b, n]),
                device,
            ),
            actions: Tensor::from_data(TensorData::new(batch.actions.clone(), [b, 1]), device),
            next_observations: Tensor::from_data(
                TensorData::new(batch.next_observations.clone(), [b, n]),
                on_infer,
            ),
            rewards: column(&batch.rewards),
            not_terminated: column(&batch.not_terminated),
            penalties: Tensor::from_data(
                TensorData::new(batch.next_penalties.clone(), [b, a]),
                on_infer,
            ),
        }
    }
}

/// DQN: max Q′(s′, ·) of each next observation (`[rows, 1]`) by the frozen `target` network,
/// over the legal actions when masking (`penalties`: 0 or [`ILLEGAL_PENALTY`] per action).
/// Double DQN: the `policy` network picks the action, the target network values it.
pub(super) fn next_values(
    config: &DqnConfig,
    policy: &QNetwork,
    target: &QNetwork,
    next_observations: Tensor<2>,
    penalties: Tensor<2>,
) -> Tensor<2> {
    let mask = |q: Tensor<2>| {
        if config.mask_actions {
            q + penalties.clone()
        } else {
            q
        }
    };
    let next_target = mask(target.forward(next_observations.clone()));
    if config.mean_next_q {
        // The blog's target: the mean over the actions (the legal ones when masking).
        return if config.mask_actions {
            let legal = penalties.equal_elem(0.0).float();
            let count = legal.clone().sum_dim(1).clamp_min(1.0);
            (target.forward(next_observations) * legal).sum_dim(1) / count
        } else {
            next_target.mean_dim(1)
        };
    }
    if config.double_dqn {
        let next_policy = mask(policy.valid().forward(next_observations));
        next_target.gather(1, next_policy.argmax(1))
    } else {
        next_target.max_dim(1)
    }
}

/// DQN: Q(s, a) of the actions taken (with autodiff) and the TD target r + γ·max Q′(s′, ·),
/// not bootstrapped past a solved puzzle; both `[b, 1]`.
pub(super) fn q_and_target(
    config: &DqnConfig,
    policy: &QNetwork,
    target: &QNetwork,
    batch: &BatchTensors,
) -> (Tensor<2>, Tensor<2>) {
    let (_, q_taken, td_target) = q_values_and_target(config, policy, target, batch);
    (q_taken, td_target)
}

/// [`q_and_target`], with every action's Q(s, ·) (`[b, a]`, with autodiff) first.
pub(super) fn q_values_and_target(
    config: &DqnConfig,
    policy: &QNetwork,
    target: &QNetwork,
    batch: &BatchTensors,
) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
    let next_value = next_values(
        config,
        policy,
        target,
        batch.next_observations.clone(),
        batch.penalties.clone(),
    );
    let td_target =
        batch.rewards.clone() + next_value * batch.not_terminated.clone() * config.gamma;
    let q_all = policy.forward(batch.observations.clone());
    let q_taken = q_all.clone().gather(1, batch.actions.clone());
    (q_all, q_taken, td_target)
}

/// DQfD: each row's large-margin loss max_a [Q(s, a) + m·(a ≠ a_E)] − Q(s, a_E) (`[b, 1]`), from
/// every action's Q-values `q_all` (`[b, a]`), the demonstrator's `q_taken` (`[b, 1]`) and
/// `margins` (`[b, a]`: m on every action but the demonstrator's, [`margin_rows`]).
pub(super) fn large_margin_losses(
    q_all: Tensor<2>,
    q_taken: Tensor<2>,
    margins: Tensor<2>,
) -> Tensor<2> {
    (q_all + margins).max_dim(1) - q_taken
}

/// The margins of [`large_margin_losses`], row-major `[actions.len(), num_actions]`: `margin` on
/// every action but the one taken, in the rows `demonstrated` says are demonstrated (0 elsewhere).
pub(super) fn margin_rows(
    actions: &[i64],
    demonstrated: impl Fn(usize) -> bool,
    num_actions: usize,
    margin: f32,
) -> Vec<f32> {
    let mut margins = vec![0.0; actions.len() * num_actions];
    for (row, &taken) in actions.iter().enumerate() {
        if demonstrated(row) {
            for action in (0..num_actions).filter(|&a| a as i64 != taken) {
                margins[row * num_actions + action] = margin;
            }
        }
    }
    margins
}

/// DQN: the batch's mean TD loss (Huber with δ = 1, or squared), with autodiff.
pub(super) fn td_loss(
    config: &DqnConfig,
    policy: &QNetwork,
    target: &QNetwork,
    batch: &BatchTensors,
) -> Tensor<1> {
    let (q_taken, td_target) = q_and_target(config, policy, target, batch);
    if config.huber_loss {
        HuberLossConfig::new(1.0)
            .init()
            .forward(q_taken, td_target, Reduction::Mean)
    } else {
        MseLoss::new().forward(q_taken, td_target, Reduction::Mean)
    }
}

/// Adam as Keras sets it up (the dissertation trained with TensorFlow): β = (0.9, 0.999), ε = 1e-7.
pub(super) fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-7).init()
}

#[cfg(test)]
mod tests {
    use super::super::replay::ILLEGAL_PENALTY;
    use super::*;
    use crate::agent::dqn::QNetworkConfig;

    /// A network whose Q-values are [1, 2, 3, 6] for every observation (zero weights, that bias).
    fn constant_network(device: &Device) -> QNetwork {
        let config = QNetworkConfig {
            observation_len: 2,
            hidden: vec![],
            num_actions: 4,
            conv: None,
            grid: None,
        };
        let mut weights = vec![0.0; 2 * 4];
        weights.extend([1.0, 2.0, 3.0, 6.0]);
        config.from_weights(&weights, device)
    }

    fn values(config: &DqnConfig, penalties: [f32; 4]) -> f32 {
        let device = Device::flex();
        let network = constant_network(&device);
        let observations =
            Tensor::<2>::from_data(TensorData::new(vec![0.5f32, 1.0], [1, 2]), &device);
        let penalties =
            Tensor::<2>::from_data(TensorData::new(penalties.to_vec(), [1, 4]), &device);
        let value = next_values(config, &network, &network, observations, penalties);
        value.into_data().try_into_vec::<f32>().unwrap()[0]
    }

    #[test]
    fn the_large_margin_loss_is_zero_when_the_demonstrator_leads_by_the_margin() {
        let device = Device::flex();
        let network = constant_network(&device); // Q = [1, 2, 3, 6]
        let observations =
            Tensor::<2>::from_data(TensorData::new(vec![0.5f32; 6], [3, 2]), &device);
        let q_all = network.forward(observations);
        // The demonstrator played 3 (Q 6, leading by 3), 0 (Q 1) and 2 (Q 3); the last row is
        // not demonstrated.
        let actions = [3i64, 0, 2];
        let margins = margin_rows(&actions, |row| row < 2, 4, 0.8);
        assert_eq!(&margins[..8], &[0.8, 0.8, 0.8, 0.0, 0.0, 0.8, 0.8, 0.8]);
        assert_eq!(&margins[8..], &[0.0; 4]);
        let taken = Tensor::<2, Int>::from_data(TensorData::new(actions.to_vec(), [3, 1]), &device);
        let q_taken = q_all.clone().gather(1, taken);
        let margins = Tensor::<2>::from_data(TensorData::new(margins, [3, 4]), &device);
        let losses = large_margin_losses(q_all, q_taken, margins)
            .into_data()
            .try_into_vec::<f32>()
            .unwrap();
        // max(1.8, 2.8, 3.8, 6) − 6 = 0; max(1, 2.8, 3.8, 6.8) − 1 = 5.8.
        assert!(losses[0].abs() < 1e-6, "{losses:?}");
        assert!((losses[1] - 5.8).abs() < 1e-5, "{losses:?}");
    }

    #[test]
    fn the_next_value_is_the_max_or_the_mean_over_the_legal_actions() {
        let legal_but_last = [0.0, 0.0, 0.0, ILLEGAL_PENALTY];
        let max = DqnConfig::default();
        assert_eq!(values(&max, [0.0; 4]), 6.0);
        let masked_max = DqnConfig {
            mask_actions: true,
            ..DqnConfig::default()
        };
        assert_eq!(values(&masked_max, legal_but_last), 3.0);
        let mean = DqnConfig {
            mean_next_q: true,
            ..DqnConfig::default()
        };
        assert_eq!(values(&mean, legal_but_last), 3.0, "unmasked: all four");
        let masked_mean = DqnConfig {
            mean_next_q: true,
            mask_actions: true,
            ..DqnConfig::default()
        };
        assert_eq!(
            values(&masked_mean, legal_but_last),
            2.0,
            "masked: the legal three"
        );
        assert!(DqnConfig {
            double_dqn: true,
            ..mean
        }
        .validate()
        .is_err());
    }
}
