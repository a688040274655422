//! Convolutions over a board of cells with 'same' padding, for puzzles whose actions are cells
//! (Minesweeper): the network of Mehta's RL paper for constraint-satisfaction games (4×4×16,
//! 3×3×32, 2×2×64, then dense layers to one Q-value per cell), or a fully convolutional one whose
//! last layer is a 1×1 convolution giving each cell its Q-value from the cell's neighbourhood,
//! so that the same weights play any board size.

use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::PaddingConfig2d;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

/// The shape of [`GridConv`]. The observation is read plane by plane (`channels × height × width`,
/// as Minesweeper's encodings are written).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GridConvConfig {
    /// Planes of the observation (Minesweeper's condensed encoding: 2).
    pub channels: usize,
    /// Rows of cells.
    pub height: usize,
    /// Columns of cells.
    pub width: usize,
    /// `(filters, kernel)` of each convolution, in order, each 'same'-padded (an even kernel gets
    /// its extra row and column of padding after, as TensorFlow pads) and followed by ReLU.
    pub layers: Vec<[usize; 2]>,
    /// A plane of ones is added to the observation, so that the zero padding tells the board's
    /// edge apart from a cell (Mehta's network: no).
    pub board_plane: bool,
    /// A 1×1 convolution gives each cell its Q-value (fully convolutional, any board size); else
    /// the last convolution's features are flattened for the dense layers (Mehta's).
    pub per_cell: bool,
}

impl GridConvConfig {
    /// Convolutions flattened into dense layers, for Minesweeper: the condensed two planes,
    /// 4×4×16, 3×3×32, 2×2×64, the last one's features flattened (the network of Mehta's RL paper
    /// for constraint-satisfaction games).
    pub fn conv_dense(height: usize, width: usize) -> Self {
        GridConvConfig {
            channels: 2,
            height,
            width,
            layers: vec![[16, 4], [32, 3], [64, 2]],
            board_plane: false,
            per_cell: false,
        }
    }

    /// `(inputs, outputs, kernel)` of every convolution in the weights' order (the per-cell head
    /// last).
    pub(super) fn convolutions(&self) -> Vec<(usize, usize, usize)> {
        // Saturating: a header's hostile channel count then fails the parameter count's checks.
        let mut inputs = self.channels.saturating_add(usize::from(self.board_plane));
        let mut out = Vec::new();
        for &[filters, kernel] in &self.layers {
            out.push((inputs, filters, kernel));
            inputs = filters;
        }
        if self.per_cell {
            out.push((inputs, 1, 1));
        }
        out
    }

    /// Length of the output: one value per cell with the per-cell head, else the flattened
    /// features of the last convolution; `None` when it overflows (a hostile model header).
    pub fn output_len(&self) -> Option<usize> {
        let cells = self.height.checked_mul(self.width)?;
        match self.layers.last() {
            _ if self.per_cell => Some(cells),
            Some(&[filters, _]) => filters.checked_mul(cells),
            None => self
                .channels
                .checked_add(usize::from(self.board_plane))?
                .checked_mul(cells),
        }
    }

    /// `(fan-in, outputs)` of each convolution; `None` when a fan-in overflows.
    pub(super) fn parameter_blocks(&self) -> Option<Vec<(usize, usize)>> {
        self.convolutions()
            .iter()
            .map(|&(i, o, k)| Some((i.checked_mul(k.checked_mul(k)?)?, o)))
            .collect()
    }

    /// The same network for another board size (only a fully convolutional one has weights that
    /// do not depend on it).
    pub fn resized(&self, height: usize, width: usize) -> Option<Self> {
        self.per_cell.then(|| GridConvConfig {
            height,
            width,
            ..self.clone()
        })
    }

    pub(super) fn check(&self) -> Result<(), String> {
        if self.height == 0 || self.width == 0 || self.channels == 0 {
            return Err(format!(
                "board convolutions need a board and a channel, not {}×{}×{}",
                self.channels, self.height, self.width
            ));
        }
        if self.layers.iter().any(|&[f, k]| f == 0 || k == 0) {
            return Err("every board convolution needs a filter and a kernel".into());
        }
        Ok(())
    }

    /// The convolutions with the given parameters (taken from the front of `rest`, in
    /// [`QNetwork::weights`](super::QNetwork::weights)'s order).
    pub(super) fn build(&self, rest: &mut &[f32], device: &Device) -> GridConv {
        let mut convolutions = Vec::new();
        for (inputs, outputs, k) in self.convolutions() {
            let (w, tail) = rest.split_at(outputs * inputs * k * k);
            let (b, tail) = tail.split_at(outputs);
            *rest = tail;
            let mut layer = Conv2dConfig::new([inputs, outputs], [k, k])
                .with_padding(PaddingConfig2d::Same)
                .init(device);
            layer.weight =
                Param::from_data(TensorData::new(w.to_vec(), [outputs, inputs, k, k]), device);
            layer.bias = Some(Param::from_data(
                TensorData::new(b.to_vec(), [outputs]),
                device,
            ));
            convolutions.push(layer);
        }
        GridConv {
            convolutions,
            shape: [self.channels, self.height, self.width],
            board_plane: self.board_plane,
            per_cell: self.per_cell,
        }
    }
}

/// Convolutions over a board ([`GridConvConfig`]).
#[derive(Module, Debug)]
pub struct GridConv {
    /// The 'same' convolutions, then the per-cell 1×1 head if any.
    pub(super) convolutions: Vec<Conv2d>,
    /// `[channels, height, width]` of the observation.
    pub(super) shape: [usize; 3],
    board_plane: bool,
    per_cell: bool,
}

impl GridConv {
    /// The features (or, with the per-cell head, the Q-values) of a batch of observations.
    ///
    /// # Shapes
    /// - observations: `[batch, channels · height · width]`, plane by plane
    /// - output: `[batch, output_len]`
    pub(super) fn forward(&self, observations: Tensor<2>) -> Tensor<2> {
        let [batch, _] = observations.dims();
        let [c, h, w] = self.shape;
        let mut x = observations.reshape([batch, c, h, w]);
        if self.board_plane {
            let ones = Tensor::<4>::ones([batch, 1, h, w], &x.device());
            x = Tensor::cat(vec![x, ones], 1); // [batch, c + 1, h, w]
        }
        let head = self.per_cell.then(|| self.convolutions.len() - 1);
        if !self.board_plane
            && self
                .convolutions
                .iter()
                .all(|conv| conv.kernel_size == [1, 1])
        {
            return self.forward_pointwise(x, head);
        }
        for (i, conv) in self.convolutions.iter().enumerate() {
            x = conv.forward(x); // [batch, filters, h, w]: 'same' keeps the board's size
            if Some(i) != head {
                x = relu(x);
            }
        }
        let [_, f, _, _] = x.dims();
        x.reshape([batch, f * h * w])
    }

    /// The same as [`GridConv::forward`] when every kernel is 1 × 1 (Sudoku's network shared by
    /// all actions): one matrix product a layer over all cells at once, `[batch · cells,
    /// channels]`, much faster than burn's convolution on the CPU.
    fn forward_pointwise(&self, x: Tensor<4>, head: Option<usize>) -> Tensor<2> {
        let [batch, c, h, w] = x.dims();
        // [batch, c, h, w] → [batch, h, w, c] → one row per cell.
        let mut rows = x.permute([0, 2, 3, 1]).reshape([batch * h * w, c]);
        for (i, conv) in self.convolutions.iter().enumerate() {
            let [outputs, inputs, _, _] = conv.weight.dims();
            let weight = conv.weight.val().reshape([outputs, inputs]).transpose();
            rows = rows.matmul(weight);
            if let Some(bias) = &conv.bias {
                rows = rows + bias.val().reshape([1, outputs]);
            }
            if Some(i) != head {
                rows = relu(rows);
            }
        }
        let [_, f] = rows.dims();
        // Back to the convolution's order: [batch, f, h, w] flattened.
        rows.reshape([batch, h, w, f])
            .permute([0, 3, 1, 2])
            .reshape([batch, f * h * w])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn one_by_one_layers_as_matrix_products_give_the_convolutions_values() {
        let config = GridConvConfig {
            channels: 3,
            height: 5,
            width: 4,
            layers: vec![[6, 1], [4, 1]],
            board_plane: false,
            per_cell: true,
        };
        let mut rng = Rng::new(9);
        let parameters: usize = config
            .parameter_blocks()
            .unwrap()
            .iter()
            .map(|&(fan_in, outputs)| fan_in * outputs + outputs)
            .sum();
        let weights: Vec<f32> = (0..parameters).map(|_| rng.unit() as f32 - 0.5).collect();
        let device = Device::flex();
        let net = config.build(&mut weights.as_slice(), &device);
        let input: Vec<f32> = (0..2 * 3 * 20).map(|_| rng.unit() as f32).collect();
        let x = Tensor::<2>::from_data(TensorData::new(input.clone(), [2, 60]), &device);
        let fast = net
            .forward(x.clone())
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        // burn's convolutions, layer by layer.
        let mut y = x.reshape([2, 3, 5, 4]);
        for (i, conv) in net.convolutions.iter().enumerate() {
            y = conv.forward(y);
            if i + 1 < net.convolutions.len() {
                y = relu(y);
            }
        }
        let slow = y.reshape([2, 20]).into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(fast.len(), 40);
        for (a, b) in fast.iter().zip(&slow) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }
}
