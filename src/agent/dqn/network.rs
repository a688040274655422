//! The Q-network: dense ReLU layers, optionally behind the two levels of pair convolutions of
//! Mehta's RL paper for constraint-satisfaction games (2048) or behind convolutions over a board
//! ([`GridConv`]: Minesweeper), and its weights as one flat vector.

use super::grid_conv::{GridConv, GridConvConfig};
use super::matmul::{tiled_product, uses_tiled_products};
use super::DqnError;
use crate::rng::Rng;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::Linear;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

/// The shape of a Q-network: the observation, hidden ReLU layers, one Q-value per action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QNetworkConfig {
    /// Length of the observation vector (81 for the 8-puzzle's one-hot encoding).
    pub observation_len: usize,
    /// Widths of the hidden layers.
    pub hidden: Vec<usize>,
    /// Number of actions (4 for sliding puzzles).
    pub num_actions: usize,
    /// Convolutions between the observation and the first dense layer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conv: Option<PairConvConfig>,
    /// Convolutions over a board between the observation and the dense layers, or (per cell)
    /// the whole network; not together with `conv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridConvConfig>,
}

/// The two levels of (1, 2) and (2, 1) convolutions of Mehta's RL paper for constraint-satisfaction
/// games, for 2048: "the first level applies filters (1, 2) and (2, 1) to detect consecutive
/// vertical and horizontal segments in different channels and increase the depth to 128. The
/// second level has four CNN applying filters (1, 2) and (2, 1). Each stage has a ReLU, and the
/// outputs of the final CNNs are concatenated into a dense network". The observation is read cell by cell (`height × width` cells of `channels`
/// values each, as 2048's one-hot exponents are written) and turned into `channels` images.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairConvConfig {
    /// Values per cell, the images' channels (2048: 16 exponents, one-hot).
    pub channels: usize,
    /// Rows of cells.
    pub height: usize,
    /// Columns of cells.
    pub width: usize,
    /// Filters of each of the first level's two convolutions (Mehta: 128).
    pub filters1: usize,
    /// Filters of each of the second level's four convolutions (Mehta: 128).
    pub filters2: usize,
}

impl PairConvConfig {
    /// The pair convolutions for 2048's board: 16 one-hot channels on 4 × 4, 128 filters on both
    /// levels (the widths of Mehta's RL paper for constraint-satisfaction games).
    pub fn game2048() -> Self {
        PairConvConfig {
            channels: 16,
            height: 4,
            width: 4,
            filters1: 128,
            filters2: 128,
        }
    }

    /// `(inputs, outputs, kernel)` of the six convolutions, in the weights' order: the first
    /// level's (1, 2) and (2, 1), then (1, 2) and (2, 1) on the first's output, then on the second's.
    fn convolutions(&self) -> [(usize, usize, [usize; 2]); 6] {
        let (c, f1, f2) = (self.channels, self.filters1, self.filters2);
        [
            (c, f1, [1, 2]),
            (c, f1, [2, 1]),
            (f1, f2, [1, 2]),
            (f1, f2, [2, 1]),
            (f1, f2, [1, 2]),
            (f1, f2, [2, 1]),
        ]
    }

    /// Length of the concatenated second-level outputs (4,352 for Mehta's network); `None` when
    /// it overflows or the board is under 2 × 2 (a hostile model header).
    pub fn output_len(&self) -> Option<usize> {
        let (h, w) = (self.height, self.width);
        // (1,2)∘(1,2), (2,1)∘(1,2), (1,2)∘(2,1), (2,1)∘(2,1).
        let first = h.checked_mul(w.checked_sub(2)?)?;
        let middle = h
            .checked_sub(1)?
            .checked_mul(w.checked_sub(1)?)?
            .checked_mul(2)?;
        let last = h.checked_sub(2)?.checked_mul(w)?;
        first
            .checked_add(middle)?
            .checked_add(last)?
            .checked_mul(self.filters2)
    }

    fn check(&self) -> Result<(), String> {
        if self.height < 2 || self.width < 2 || self.channels == 0 {
            return Err(format!(
                "convolutions need at least 2 × 2 cells and a channel, not {}×{}×{}",
                self.height, self.width, self.channels
            ));
        }
        if self.filters1 == 0 || self.filters2 == 0 {
            return Err("convolutions need at least one filter".into());
        }
        Ok(())
    }
}

/// The convolutions of Mehta's RL paper for constraint-satisfaction games ([`PairConvConfig`]).
#[derive(Module, Debug)]
pub struct PairConv {
    /// Level 1: (1, 2) and (2, 1); level 2: (1, 2) and (2, 1) on each of level 1's outputs.
    convolutions: Vec<Conv2d>,
    /// Cells as `[height, width, channels]`, from the configuration.
    shape: [usize; 3],
}

impl PairConv {
    /// The concatenated second-level features of a batch of observations.
    ///
    /// # Shapes
    /// - observations: `[batch, height · width · channels]`, cell by cell
    /// - output: `[batch, output_len]`
    fn forward(&self, observations: Tensor<2>) -> Tensor<2> {
        let [batch, _] = observations.dims();
        let [h, w, c] = self.shape;
        // [batch, h, w, c] → [batch, c, h, w]: one image per channel.
        let images = observations.reshape([batch, h, w, c]).permute([0, 3, 1, 2]);
        let level1 = [
            relu(self.convolutions[0].forward(images.clone())), // [batch, f1, h, w-1]
            relu(self.convolutions[1].forward(images)),         // [batch, f1, h-1, w]
        ];
        let mut features = Vec::with_capacity(4);
        for (i, x) in level1.into_iter().enumerate() {
            for conv in &self.convolutions[2 + 2 * i..4 + 2 * i] {
                let y = relu(conv.forward(x.clone()));
                let [_, f, hh, ww] = y.dims();
                features.push(y.reshape([batch, f * hh * ww]));
            }
        }
        Tensor::cat(features, 1)
    }
}

/// The product of `factors`, `None` when it overflows.
fn product(factors: &[usize]) -> Option<usize> {
    factors.iter().try_fold(1usize, |p, &f| p.checked_mul(f))
}

/// The most weights and biases a network may have (a gigabyte of f32): larger shapes in a model
/// file are refused before anything is allocated.
pub const MAX_PARAMETERS: usize = 1 << 28;

impl QNetworkConfig {
    /// `(inputs, outputs)` of each dense layer, first to last.
    ///
    /// # Panics
    /// On a shape whose sizes overflow, which [`Self::checked_num_params`] refuses.
    pub fn layer_sizes(&self) -> Vec<(usize, usize)> {
        self.checked_layer_sizes()
            .expect("a network's shape is checked before it is used")
    }

    /// [`Self::layer_sizes`], `None` when the first layer's width overflows.
    fn checked_layer_sizes(&self) -> Option<Vec<(usize, usize)>> {
        if self.grid.as_ref().is_some_and(|g| g.per_cell) {
            return Some(Vec::new());
        }
        let first = match (&self.conv, &self.grid) {
            (Some(conv), _) => conv.output_len()?,
            (None, Some(grid)) => grid.output_len()?,
            (None, None) => self.observation_len,
        };
        let widths: Vec<usize> = std::iter::once(first)
            .chain(self.hidden.iter().copied())
            .chain(std::iter::once(self.num_actions))
            .collect();
        Some(widths.windows(2).map(|w| (w[0], w[1])).collect())
    }

    /// Number of weights and biases (144,754 for the dissertation's 8-puzzle network with its 72
    /// inputs; 147,004 with our 81): a weight per fan-in and output of each block, and a bias per
    /// output.
    ///
    /// # Panics
    /// On a shape whose sizes overflow, which [`Self::checked_num_params`] refuses.
    pub fn num_params(&self) -> usize {
        self.parameter_blocks()
            .iter()
            .map(|&(fan_in, outputs)| fan_in * outputs + outputs)
            .sum()
    }

    /// `(fan-in, outputs)` of every layer in the weights' order: the convolutions, then the dense
    /// layers.
    fn parameter_blocks(&self) -> Vec<(usize, usize)> {
        self.checked_parameter_blocks()
            .expect("a network's shape is checked before it is used")
    }

    /// [`Self::parameter_blocks`], `None` when a size overflows: the one place the blocks are
    /// worked out, for the counts that trust the shape and for the loader's check that does not.
    fn checked_parameter_blocks(&self) -> Option<Vec<(usize, usize)>> {
        let mut blocks = Vec::new();
        if let Some(conv) = &self.conv {
            for (i, o, k) in conv.convolutions() {
                blocks.push((i.checked_mul(k[0] * k[1])?, o));
            }
        }
        if let Some(grid) = &self.grid {
            blocks.extend(grid.parameter_blocks()?);
        }
        blocks.extend(self.checked_layer_sizes()?);
        Some(blocks)
    }

    /// A network with weights and biases drawn uniformly from ±1/√(inputs) by `seed`.
    pub fn init(&self, device: &Device, seed: u64) -> QNetwork {
        let mut rng = Rng::new(seed ^ 0x5EED_0FDE_E90A_1100);
        let mut weights = Vec::with_capacity(self.num_params());
        for (inputs, outputs) in self.parameter_blocks() {
            let bound = 1.0 / (inputs as f64).sqrt();
            for _ in 0..inputs * outputs + outputs {
                weights.push(((rng.unit() * 2.0 - 1.0) * bound) as f32);
            }
        }
        self.from_weights(&weights, device)
    }

    /// A network with the given parameters, in [`QNetwork::weights`]'s order.
    ///
    /// # Panics
    /// If `weights.len() != self.num_params()`.
    pub fn from_weights(&self, weights: &[f32], device: &Device) -> QNetwork {
        assert_eq!(
            weights.len(),
            self.num_params(),
            "weights for another shape"
        );
        let mut rest = weights;
        let conv = self.conv.as_ref().map(|config| {
            let mut convolutions = Vec::new();
            for (inputs, outputs, kernel) in config.convolutions() {
                let (w, tail) = rest.split_at(outputs * inputs * kernel[0] * kernel[1]);
                let (b, tail) = tail.split_at(outputs);
                rest = tail;
                let mut layer = Conv2dConfig::new([inputs, outputs], kernel).init(device);
                layer.weight = Param::from_data(
                    TensorData::new(w.to_vec(), [outputs, inputs, kernel[0], kernel[1]]),
                    device,
                );
                layer.bias = Some(Param::from_data(
                    TensorData::new(b.to_vec(), [outputs]),
                    device,
                ));
                convolutions.push(layer);
            }
            PairConv {
                convolutions,
                shape: [config.height, config.width, config.channels],
            }
        });
        let grid = self
            .grid
            .as_ref()
            .map(|config| config.build(&mut rest, device));
        let mut layers = Vec::new();
        for (inputs, outputs) in self.layer_sizes() {
            let (w, tail) = rest.split_at(inputs * outputs);
            let (b, tail) = tail.split_at(outputs);
            rest = tail;
            layers.push(Linear {
                weight: Param::from_data(TensorData::new(w.to_vec(), [inputs, outputs]), device),
                bias: Some(Param::from_data(
                    TensorData::new(b.to_vec(), [outputs]),
                    device,
                )),
            });
        }
        QNetwork { conv, grid, layers }
    }

    /// The number of weights and biases, counted without overflow (on any target), or why the
    /// shape is no network: [`Self::check`]'s reasons, a zero width, or more than
    /// [`MAX_PARAMETERS`]. A model file's header is checked with it before anything is sized
    /// from it.
    pub fn checked_num_params(&self) -> Result<usize, String> {
        self.check()?;
        if self.observation_len == 0 || self.num_actions == 0 || self.hidden.contains(&0) {
            return Err("every layer needs at least one value".into());
        }
        let blocks = self.checked_parameter_blocks();
        let total = blocks.and_then(|blocks| {
            blocks.iter().try_fold(0usize, |total, &(fan_in, outputs)| {
                fan_in
                    .checked_mul(outputs)?
                    .checked_add(outputs)?
                    .checked_add(total)
            })
        });
        match total {
            Some(total) if total <= MAX_PARAMETERS => Ok(total),
            _ => Err(format!(
                "a network of more than {MAX_PARAMETERS} parameters"
            )),
        }
    }

    /// Checks the shape: the convolutions' image covers the observation.
    pub fn check(&self) -> Result<(), String> {
        if let Some(grid) = &self.grid {
            grid.check()?;
            let values = product(&[grid.channels, grid.height, grid.width]);
            if self.conv.is_some() {
                return Err("pair and board convolutions cannot both lead the network".into());
            }
            if values != Some(self.observation_len) {
                return Err(format!(
                    "convolutions over {}×{}×{} values cannot read an observation of {}",
                    grid.channels, grid.height, grid.width, self.observation_len
                ));
            }
            if grid.per_cell
                && (!self.hidden.is_empty()
                    || Some(self.num_actions) != product(&[grid.height, grid.width]))
            {
                return Err(format!(
                    "a per-cell network has no hidden layers and one action per cell ({}), not {:?} and {}",
                    product(&[grid.height, grid.width])
                        .map_or_else(|| "too many".to_string(), |c| c.to_string()),
                    self.hidden,
                    self.num_actions
                ));
            }
        }
        if let Some(conv) = &self.conv {
            conv.check()?;
            let cells = product(&[conv.height, conv.width, conv.channels]);
            if cells != Some(self.observation_len) {
                return Err(format!(
                    "convolutions over {}×{}×{} values cannot read an observation of {}",
                    conv.height, conv.width, conv.channels, self.observation_len
                ));
            }
        }
        Ok(())
    }
}

/// A multi-layer perceptron mapping observations to one Q-value per action, optionally behind
/// the convolutions of Mehta's RL paper for constraint-satisfaction games.
#[derive(Module, Debug)]
pub struct QNetwork {
    pub(super) conv: Option<PairConv>,
    pub(super) grid: Option<GridConv>,
    pub(super) layers: Vec<Linear>,
}

impl QNetwork {
    /// Length of the observations the network reads.
    pub fn observation_len(&self) -> usize {
        match (&self.conv, &self.grid) {
            (Some(conv), _) => conv.shape.iter().product(),
            (None, Some(grid)) => grid.shape.iter().product(),
            (None, None) => self
                .layers
                .first()
                .map_or(0, |layer| layer.weight.val().dims()[0]),
        }
    }

    /// The Q-values of a batch of observations.
    ///
    /// # Shapes
    /// - observations: `[batch, observation_len]`
    /// - output: `[batch, num_actions]`
    pub fn forward(&self, observations: Tensor<2>) -> Tensor<2> {
        let x = match (&self.conv, &self.grid) {
            (Some(conv), _) => conv.forward(observations), // [batch, conv output_len]
            (None, Some(grid)) => grid.forward(observations), // [batch, grid output_len]
            (None, None) => observations,
        };
        self.forward_dense_from(x, 0)
    }

    /// The dense layers from layer `from` on, `x` being that layer's input (with the ReLU of
    /// the layer before it applied).
    ///
    /// # Shapes
    /// - x: `[batch, inputs of layer from]`
    /// - output: `[batch, num_actions]`
    pub(super) fn forward_dense_from(&self, mut x: Tensor<2>, from: usize) -> Tensor<2> {
        let last = self.layers.len().saturating_sub(1);
        let tiled = uses_tiled_products(&x.device());
        for (i, layer) in self.layers.iter().enumerate().skip(from) {
            x = if tiled {
                dense_tiled(layer, x)
            } else {
                layer.forward(x) // [batch, width of layer i]
            };
            if i < last {
                x = relu(x);
            }
        }
        x
    }

    /// The first dense layer as plain numbers, when the network begins with it (no
    /// convolution): its weight `[inputs, outputs]` row-major, its bias (zeros when it has none),
    /// and whether a ReLU follows it. Reads synchronously: on the CPU only.
    pub(super) fn first_dense_layer(&self) -> Option<SparseInput> {
        if self.conv.is_some() || self.grid.is_some() {
            return None;
        }
        let layer = self.layers.first()?;
        let [inputs, outputs] = layer.weight.val().dims();
        let weight = burn::tensor::read_sync(read_floats(layer.weight.val())).ok()?;
        let bias = match &layer.bias {
            Some(bias) => burn::tensor::read_sync(read_floats(bias.val())).ok()?,
            None => vec![0.0; outputs],
        };
        Some(SparseInput {
            weight,
            bias,
            inputs,
            outputs,
            relu: self.layers.len() > 1,
        })
    }

    /// All parameters as one vector: for each convolution, its kernel `[outputs, inputs, rows,
    /// columns]` then its bias; for each dense layer, its weight matrix `[inputs, outputs]` row by
    /// row, then its bias.
    ///
    /// Reads synchronously, on the CPU: on WebGPU in a browser use [`QNetwork::weights_async`].
    pub fn weights(&self) -> Vec<f32> {
        burn::tensor::read_sync(self.weights_async()).expect("the CPU reads its weights back")
    }

    /// [`QNetwork::weights`], read back without blocking (the only way on WebGPU in a browser),
    /// in one readback: every parameter flattened and joined on the device first.
    pub async fn weights_async(&self) -> Result<Vec<f32>, DqnError> {
        fn flat<const D: usize>(tensor: Tensor<D>) -> Tensor<1> {
            let n = tensor.shape().num_elements();
            tensor.reshape([n])
        }
        let mut parts: Vec<Tensor<1>> = Vec::new();
        let grid = self.grid.iter().flat_map(|g| &g.convolutions);
        for conv in self.conv.iter().flat_map(|c| &c.convolutions).chain(grid) {
            parts.push(flat(conv.weight.val()));
            if let Some(bias) = &conv.bias {
                parts.push(bias.val());
            }
        }
        for layer in &self.layers {
            parts.push(flat(layer.weight.val()));
            if let Some(bias) = &layer.bias {
                parts.push(bias.val());
            }
        }
        if parts.is_empty() {
            return Ok(Vec::new());
        }
        read_floats(Tensor::cat(parts, 0)).await
    }
}

/// A network's first dense layer applied to inputs that are mostly zeros and otherwise ones (the
/// one-hot boards of the sliding puzzles): each row's product is the sum of the weight rows of
/// its ones, 16 rows of 250 numbers for a 15-puzzle instead of a 256 × 250 product.
#[derive(Clone, Debug)]
pub(super) struct SparseInput {
    weight: Vec<f32>,
    bias: Vec<f32>,
    inputs: usize,
    outputs: usize,
    relu: bool,
}

impl SparseInput {
    /// The layer's outputs for `observations` (`[batch, inputs]` row-major), ReLU applied when the
    /// network has more layers, as `[batch, outputs]` row-major; `None` when some input is
    /// neither 0 nor 1 or a row has more than a quarter of its inputs set (the dense product is
    /// then as quick).
    pub(super) fn apply(&self, observations: &[f32]) -> Option<Vec<f32>> {
        let (n, m) = (self.inputs, self.outputs);
        if n == 0 || !observations.len().is_multiple_of(n) {
            return None;
        }
        let mut out = Vec::with_capacity(observations.len() / n * m);
        let mut ones = Vec::with_capacity(n / 4 + 1);
        for row in observations.chunks(n) {
            ones.clear();
            for (i, &x) in row.iter().enumerate() {
                if x == 1.0 {
                    ones.push(i);
                } else if x != 0.0 {
                    return None;
                }
            }
            if ones.len() * 4 > n {
                return None;
            }
            let start = out.len();
            out.extend_from_slice(&self.bias);
            let sum = &mut out[start..];
            for &i in &ones {
                for (s, w) in sum.iter_mut().zip(&self.weight[i * m..(i + 1) * m]) {
                    *s += w;
                }
            }
            if self.relu {
                for s in sum.iter_mut() {
                    *s = s.max(0.0);
                }
            }
        }
        Some(out)
    }

    /// Width of the layer's output.
    pub(super) fn outputs(&self) -> usize {
        self.outputs
    }
}

/// `layer.forward(x)` with the product of [`tiled_product`] (the same function: `x · W + b`).
fn dense_tiled(layer: &Linear, x: Tensor<2>) -> Tensor<2> {
    let y = tiled_product(x, layer.weight.val());
    match &layer.bias {
        Some(bias) => y + bias.val().unsqueeze(),
        None => y,
    }
}

/// Reads a tensor back as `f32`s (row-major). Asynchronous: synchronous readback panics on WebGPU
/// in a browser; natively and on the CPU backend the future is ready at once (callers that cannot
/// wait use `burn::tensor::read_sync`). An error when the device does not answer (on WebGPU: the
/// GPU device was lost), never a panic: the learner falls back to the CPU.
pub(super) async fn read_floats<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, DqnError> {
    tensor
        .into_data_async()
        .await
        .map_err(|e| DqnError::Readback(cause(&e.to_string())))?
        .try_into_vec_as::<f32>()
        .map_err(|e| DqnError::Readback(format!("a float tensor did not read back as f32: {e:?}")))
}

/// The cause in an execution error's text: burn wraps it in "An error happened during execution /
/// Caused by:" lines and a backtrace note, one line each.
fn cause(text: &str) -> String {
    let noise = [
        "An error happened during execution",
        "Caused by:",
        "Backtrace:",
        "No backtrace available",
    ];
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !noise.contains(line))
        .collect();
    if lines.is_empty() {
        text.trim().to_string()
    } else {
        lines.join("; ")
    }
}

/// The Q-values of a batch of observations (`[batch, observation_len]`, row-major), row-major.
pub(super) async fn q_values(
    network: &QNetwork,
    observations: &[f32],
    num_actions: usize,
    device: &Device,
) -> Result<Vec<f32>, DqnError> {
    let n = network.observation_len();
    let batch = observations.len() / n.max(1);
    let input = Tensor::<2>::from_data(TensorData::new(observations.to_vec(), [batch, n]), device);
    let values = read_floats(network.forward(input)).await?;
    debug_assert_eq!(values.len(), batch * num_actions);
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sparse_first_layer_gives_the_dense_products_on_one_hot_rows_only() {
        let device = Device::flex();
        for hidden in [vec![], vec![12], vec![12, 7]] {
            let config = QNetworkConfig {
                observation_len: 36,
                hidden: hidden.clone(),
                num_actions: 3,
                conv: None,
                grid: None,
            };
            let network = config.init(&device, 5);
            let first = network.first_dense_layer().expect("a dense network");
            // Four boards of 6 cells, 6 labels each, one-hot (6 ones of 36 per row).
            let mut rng = Rng::new(9);
            let mut observations = vec![0.0f32; 4 * 36];
            for row in observations.chunks_mut(36) {
                let mut labels: Vec<usize> = (0..6).collect();
                rng.shuffle(&mut labels);
                for (cell, label) in labels.into_iter().enumerate() {
                    row[cell * 6 + label] = 1.0;
                }
            }
            let input =
                Tensor::<2>::from_data(TensorData::new(observations.clone(), [4, 36]), &device);
            let dense =
                burn::tensor::read_sync(read_floats(network.forward(input))).expect("the CPU");
            let hidden_out = first.apply(&observations).expect("one-hot rows");
            let sparse = if hidden.is_empty() {
                hidden_out
            } else {
                let x = Tensor::<2>::from_data(
                    TensorData::new(hidden_out, [4, first.outputs()]),
                    &device,
                );
                burn::tensor::read_sync(read_floats(network.forward_dense_from(x, 1)))
                    .expect("the CPU")
            };
            assert_eq!(sparse.len(), dense.len());
            for (a, b) in sparse.iter().zip(&dense) {
                assert!((a - b).abs() < 1e-5, "{hidden:?}: {a} against {b}");
            }
            // Not one-hot: a value other than 0 and 1, or too many ones, takes the dense path.
            let mut scaled = observations.clone();
            scaled[0] = 0.5;
            assert!(first.apply(&scaled).is_none());
            assert!(first.apply(&[1.0; 36]).is_none());
            assert!(first.apply(&observations[..35]).is_none());
        }
    }

    #[test]
    fn a_readback_error_says_its_cause_in_one_line() {
        let burn = "An error happened during execution\nCaused by:\n  An error happened during execution\nCaused by:\n  the staging buffer could not be mapped: Error occurred when trying to async map a buffer\nBacktrace:\nNo backtrace available";
        assert_eq!(
            cause(burn),
            "the staging buffer could not be mapped: Error occurred when trying to async map a buffer"
        );
        assert_eq!(cause("  device lost \n"), "device lost");
    }

    #[test]
    fn three_hidden_layers_of_250_have_144_754_parameters() {
        // The N-puzzle DQN dissertation's network on the 8-puzzle (its figure 3).
        let dense = QNetworkConfig {
            observation_len: 72,
            hidden: vec![250, 250, 250],
            num_actions: 4,
            conv: None,
            grid: None,
        };
        assert_eq!(dense.num_params(), 144_754);
        assert_eq!(
            dense.layer_sizes(),
            [(72, 250), (250, 250), (250, 250), (250, 4)]
        );
    }
}
