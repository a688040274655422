//! Checking that a device computes correctly: the same small network forward, backward and
//! through Adam on any device, to compare with the CPU.

use super::network::read_floats;
use super::DqnError;
use super::{QNetwork, QNetworkConfig};
use crate::rng::Rng;
use burn::nn::loss::{MseLoss, Reduction};
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Tensor, TensorData};

/// What one device computed for [`device_probe`]: a small Q-network's outputs and gradients on a
/// fixed batch, and the losses of Adam steps from there.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceProbe {
    /// The network's outputs on the batch, row-major `[batch, actions]`.
    pub outputs: Vec<f32>,
    /// The gradient of the loss for every parameter, in [`QNetwork::weights`]'s order.
    pub gradients: Vec<f32>,
    /// The loss before each Adam step, then after the last one.
    pub losses: Vec<f32>,
}

impl DeviceProbe {
    /// The largest absolute difference between two probes' outputs and gradients (infinite if
    /// their lengths differ).
    pub fn max_difference(&self, other: &DeviceProbe) -> f32 {
        let diff = |a: &[f32], b: &[f32]| {
            if a.len() != b.len() {
                return f32::INFINITY;
            }
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max)
        };
        diff(&self.outputs, &other.outputs).max(diff(&self.gradients, &other.gradients))
    }
}

/// Runs the same small network (36 inputs, two hidden layers of 32, 4 outputs; weights from a
/// fixed seed) forward and backward on `device`, with a mean squared error against fixed targets,
/// then takes `adam_steps` Adam steps (learning rate 1e-2). Every readback is awaited, so this runs
/// on WebGPU in a browser: comparing its result with the CPU's tells whether a device computes
/// correctly (the page checks WebGPU this way before training on it).
pub async fn device_probe(device: &Device, adam_steps: usize) -> Result<DeviceProbe, DqnError> {
    let config = QNetworkConfig {
        observation_len: 36,
        hidden: vec![32, 32],
        num_actions: 4,
        conv: None,
        grid: None,
    };
    let batch = 16;
    let mut rng = Rng::new(0x9B0B_E000);
    let inputs: Vec<f32> = (0..batch * config.observation_len)
        .map(|_| f32::from(u8::from(rng.chance(0.3))))
        .collect();
    let targets: Vec<f32> = (0..batch * config.num_actions)
        .map(|_| (rng.unit() * 4.0 - 2.0) as f32)
        .collect();
    let device = device.clone().autodiff();
    let mut network = config.init(&device, 7);
    let tensor = |values: &[f32], width: usize| {
        Tensor::<2>::from_data(TensorData::new(values.to_vec(), [batch, width]), &device)
    };
    let loss_of = |network: &QNetwork| {
        let outputs = network.forward(tensor(&inputs, config.observation_len));
        let loss = MseLoss::new().forward(
            outputs.clone(),
            tensor(&targets, config.num_actions),
            Reduction::Mean,
        );
        (outputs, loss)
    };
    let (outputs, loss) = loss_of(&network);
    let mut probe = DeviceProbe {
        outputs: read_floats(outputs.without_autodiff()).await?,
        ..DeviceProbe::default()
    };
    let grads = loss.backward();
    for layer in &network.layers {
        let weight = layer.weight.val().grad(&grads);
        let bias = layer.bias.as_ref().and_then(|b| b.val().grad(&grads));
        probe
            .gradients
            .extend(read_floats(weight.expect("weights have gradients")).await?);
        if let Some(bias) = bias {
            probe.gradients.extend(read_floats(bias).await?);
        }
    }
    let mut optimizer = AdamConfig::new().init();
    for _ in 0..adam_steps {
        let (_, loss) = loss_of(&network);
        probe
            .losses
            .extend(read_floats(loss.clone().without_autodiff()).await?);
        let gradients = GradientsParams::from_grads(loss.backward(), &network);
        network = optimizer.step(1e-2, network, gradients);
    }
    let (_, loss) = loss_of(&network);
    probe
        .losses
        .extend(read_floats(loss.without_autodiff()).await?);
    Ok(probe)
}
