//! Which kernel multiplies the dense layers' matrices on WebGPU, chosen by measuring.
//!
//! Without autotune (which computes wrong results on Chromium's WebGPU, docs/webgpu.md), burn
//! 0.22.1 multiplies with cubek's default kernel and offers no way to pick another. On a WebGPU
//! device that is a CPU (SwiftShader, the only WebGPU we can test on) that kernel is two to three
//! times slower than cubek's `tiled::CpuGemm`. So the dense layers' product goes through a burn
//! *backend extension* ([`TiledMatmul`], burn's documented way to add an operation: one
//! implementation per backend, lazy under fusion, and our own backward pass under autodiff)
//! when [`race_products`] found it faster and numerically equal on the device; otherwise, and
//! always on the CPU backend, the layers multiply as burn does by default. The race is the
//! first thing a WebGPU device does (`src/web/learn.rs`), so every later product, the
//! WebGPU-vs-CPU probe included, runs the chosen kernel.

use super::network::read_floats;
use super::DqnError;
use burn::backend::autodiff::{
    checkpoint::{base::Checkpointer, strategy::CheckpointStrategy},
    grads::Gradients,
    ops::{Backward, Ops, OpsKind},
    Autodiff,
};
use burn::backend::ops::FloatTensorOps;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, Dispatch, Flex};
use burn::tensor::{Device, Tensor, TensorData};
use std::cell::RefCell;
use web_time::Instant;

/// `lhs · rhs` for 2-D tensors, by cubek's tiled `CpuGemm` kernel on cubecl devices (WebGPU)
/// and by the backend's own product elsewhere.
#[backend_extension(Cube: cfg(feature = "webgpu"), Flex, Autodiff, Fusion: cfg(feature = "webgpu"))]
pub trait TiledMatmul: Backend {
    /// `[m, k] · [k, n] → [m, n]`.
    #[fusion(dtype = lhs, shape = product_shape(lhs, rhs))]
    fn tiled_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
}

/// `[m, k] · [k, n]` is `[m, n]` (what fusion records before the product runs).
#[cfg(feature = "webgpu")]
fn product_shape(lhs: &burn::tensor::Shape, rhs: &burn::tensor::Shape) -> burn::tensor::Shape {
    burn::tensor::Shape::from([lhs[0], rhs[1]])
}

/// On the CPU the extension is the ordinary product: it exists there so that the backward pass
/// can be checked against burn's own (the unit tests).
impl TiledMatmul for Flex {
    fn tiled_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_matmul(lhs, rhs)
    }
}

#[cfg(feature = "webgpu")]
impl TiledMatmul for burn_cubecl::CubeBackend {
    fn tiled_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
        use burn::backend::cubecl::dtype_to_storage_type;
        use cubek::matmul::definition::{MatmulElems, MatmulGlobalElems};
        use cubek::matmul::{strategy::Strategy, tiled};
        use cubek::std::InputBinding;

        let dtype = lhs.dtype;
        let out = burn_cubecl::kernel::matmul::init_matmul_output(&lhs, &rhs, dtype);
        let storage = dtype_to_storage_type(dtype);
        let mut dtypes = MatmulElems::from_globals(&MatmulGlobalElems {
            lhs: storage,
            rhs: storage,
            out: storage,
        });
        let strategy: Strategy = tiled::Strategy::CpuGemm(Default::default()).into();
        let client = out.client.clone();
        cubek::matmul::launch::launch_ref(
            &strategy,
            &client,
            InputBinding::new(lhs.binding(), storage),
            InputBinding::new(rhs.binding(), storage),
            out.clone().binding(),
            &mut dtypes,
        )
        .expect("cubek's CpuGemm needs no hardware feature");
        out
    }
}

/// The product's gradients, as burn's own matmul has them: `∂lhs = grad · rhsᵀ`,
/// `∂rhs = lhsᵀ · grad`, each multiplied by the same kernel as the forward product.
impl<B: Backend + TiledMatmul, C: CheckpointStrategy> TiledMatmul for Autodiff<B, C> {
    fn tiled_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct ProductBackward;

        impl<B: Backend + TiledMatmul> Backward<B, 2> for ProductBackward {
            /// The operands each gradient needs: `rhs` for `lhs`'s, `lhs` for `rhs`'s (kept only
            /// when that gradient is wanted).
            type State = (Option<FloatTensor<B>>, Option<FloatTensor<B>>);

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let [lhs_node, rhs_node] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (lhs, rhs) = ops.state;
                if let (Some(node), Some(rhs)) = (lhs_node, rhs) {
                    let value = B::tiled_matmul(grad.clone(), B::float_transpose(rhs));
                    grads.register::<B>(node.id, value);
                }
                if let (Some(node), Some(lhs)) = (rhs_node, lhs) {
                    grads.register::<B>(node.id, B::tiled_matmul(B::float_transpose(lhs), grad));
                }
            }
        }

        let lhs_wanted = lhs.is_tracked();
        let rhs_wanted = rhs.is_tracked();
        match ProductBackward
            .prepare::<C>([lhs.node(), rhs.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let (l, r) = (lhs.into_primitive(), rhs.into_primitive());
                let state = (rhs_wanted.then(|| l.clone()), lhs_wanted.then(|| r.clone()));
                prep.finish(state, B::tiled_matmul(l, r))
            }
            OpsKind::UnTracked(prep) => {
                prep.finish(B::tiled_matmul(lhs.into_primitive(), rhs.into_primitive()))
            }
        }
    }
}

/// `lhs · rhs` through [`TiledMatmul`], whatever the device.
pub fn tiled_product(lhs: Tensor<2>, rhs: Tensor<2>) -> Tensor<2> {
    Tensor::from_dispatch(<Dispatch as TiledMatmul>::tiled_matmul(
        lhs.into_dispatch(),
        rhs.into_dispatch(),
    ))
}

thread_local! {
    /// The device (without autodiff) whose products take the tiled kernel, if one won its race.
    static TILED_DEVICE: RefCell<Option<Device>> = const { RefCell::new(None) };
}

/// Whether products on `device` (with or without autodiff) take the tiled kernel.
pub fn uses_tiled_products(device: &Device) -> bool {
    TILED_DEVICE.with(|d| {
        d.borrow()
            .as_ref()
            .is_some_and(|tiled| *tiled == device.clone().without_autodiff())
    })
}

/// Sends `device`'s products (with or without autodiff) to the tiled kernel, or back to burn's.
pub fn use_tiled_products(device: &Device, on: bool) {
    let device = device.clone().without_autodiff();
    TILED_DEVICE.with(|d| {
        let mut d = d.borrow_mut();
        if on {
            *d = Some(device);
        } else if d.as_ref() == Some(&device) {
            *d = None;
        }
    });
}

/// `lhs · rhs` by the kernel chosen for their device: what the dense layers multiply with.
pub fn product(lhs: Tensor<2>, rhs: Tensor<2>) -> Tensor<2> {
    if uses_tiled_products(&lhs.device()) {
        tiled_product(lhs, rhs)
    } else {
        lhs.matmul(rhs)
    }
}

/// What [`race_products`] measured and chose.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductRace {
    /// The product raced is `[rows, width] · [width, width]`.
    pub rows: usize,
    /// See `rows`.
    pub width: usize,
    /// Milliseconds a product, read back, with burn's default kernel.
    pub default_ms: f64,
    /// The same with cubek's tiled `CpuGemm`.
    pub tiled_ms: f64,
    /// The largest difference between the two results, relative to the largest value.
    pub relative_difference: f64,
    /// Whether the tiled kernel was chosen: faster, and within 1e-4 of the default's result.
    pub tiled: bool,
}

/// `n` fixed values spread over ±`scale`/2: operands that need no random numbers.
pub(super) fn spread(n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919 % 1000) as f32 / 1000.0 - 0.5) * scale)
        .collect()
}

/// A dense layer's operands on `device`: `x: [rows, width]` within ±0.5 and `w: [width, width]`
/// within ±1/width.
pub(super) fn layer_operands(rows: usize, width: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let x = Tensor::from_data(
        TensorData::new(spread(rows * width, 1.0), [rows, width]),
        device,
    );
    let w = Tensor::from_data(
        TensorData::new(spread(width * width, 2.0 / width as f32), [width, width]),
        device,
    );
    (x, w)
}

/// Races burn's default product against the tiled one on `device` (a dense layer of the
/// dissertation's network: `[100, 250] · [250, 250]`; each kernel compiled first, then `count`
/// products, each read back) and sets [`uses_tiled_products`] to the winner, the tiled kernel
/// only if its result agrees with the default's.
pub async fn race_products(device: &Device, count: usize) -> Result<ProductRace, DqnError> {
    let (rows, width, count) = (100, 250, count.max(1));
    let (x, w) = layer_operands(rows, width, device);
    let default = read_floats(x.clone().matmul(w.clone())).await?;
    let tiled = read_floats(tiled_product(x.clone(), w.clone())).await?;
    let largest = default
        .iter()
        .fold(0f32, |m, v| m.max(v.abs()))
        .max(f32::MIN_POSITIVE);
    let difference = default
        .iter()
        .zip(&tiled)
        .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
    let relative_difference = f64::from(difference / largest);

    let time = |tiled: bool| {
        let (x, w) = (x.clone(), w.clone());
        async move {
            let clock = Instant::now();
            for _ in 0..count {
                let y = if tiled {
                    tiled_product(x.clone(), w.clone())
                } else {
                    x.clone().matmul(w.clone())
                };
                read_floats(y.narrow(0, 0, 1).narrow(1, 0, 1)).await?;
            }
            Ok::<f64, DqnError>(clock.elapsed().as_secs_f64() * 1000.0 / count as f64)
        }
    };
    let default_ms = time(false).await?;
    let tiled_ms = time(true).await?;
    let tiled =
        tiled_ms < default_ms && relative_difference <= 1e-4 && tiled.len() == default.len();
    use_tiled_products(device, tiled);
    Ok(ProductRace {
        rows,
        width,
        default_ms,
        tiled_ms,
        relative_difference,
        tiled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: usize, columns: usize, seed: usize, device: &Device) -> Tensor<2> {
        let data = (0..rows * columns)
            .map(|i| ((i + seed) * 7919 % 1000) as f32 / 1000.0 - 0.5)
            .collect();
        Tensor::from_data(TensorData::new(data, [rows, columns]), device)
    }

    fn close(a: Vec<f32>, b: Vec<f32>) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() <= 1e-5 * (1.0 + x.abs()), "{x} against {y}");
        }
    }

    fn floats<const D: usize>(t: Tensor<D>) -> Vec<f32> {
        burn::tensor::read_sync(read_floats(t)).unwrap()
    }

    #[test]
    fn the_extension_multiplies_and_differentiates_as_burns_product() {
        let device = Device::flex().autodiff();
        let loss_of = |tiled: bool| {
            let a = matrix(5, 3, 1, &device).require_grad();
            let b = matrix(3, 4, 2, &device).require_grad();
            let y = if tiled {
                tiled_product(a.clone(), b.clone())
            } else {
                a.clone().matmul(b.clone())
            };
            // A loss that weighs every entry differently, so every gradient entry is checked.
            let loss = (y.clone() * matrix(5, 4, 3, &device)).sum();
            let grads = loss.backward();
            let (ga, gb) = (a.grad(&grads).unwrap(), b.grad(&grads).unwrap());
            (floats(y), floats(ga), floats(gb))
        };
        let (y0, a0, b0) = loss_of(false);
        let (y1, a1, b1) = loss_of(true);
        close(y0, y1);
        close(a0, a1);
        close(b0, b1);
    }

    #[test]
    fn an_untracked_operand_gets_no_gradient_and_the_other_still_does() {
        let device = Device::flex().autodiff();
        let x = matrix(2, 3, 4, &device); // observations: never tracked
        let w = matrix(3, 2, 5, &device).require_grad();
        let grads = tiled_product(x.clone(), w.clone()).sum().backward();
        assert!(x.grad(&grads).is_none());
        // ∂(Σ x·w)/∂w[k][j] = Σ_i x[i][k].
        let column_sums = floats(x.sum_dim(0));
        let gw = floats(w.grad(&grads).unwrap());
        close(gw, column_sums.iter().flat_map(|&s| [s, s]).collect());
    }

    #[test]
    fn the_choice_is_per_device_and_ignores_autodiff() {
        let cpu = Device::flex();
        assert!(!uses_tiled_products(&cpu));
        use_tiled_products(&cpu.clone().autodiff(), true);
        assert!(uses_tiled_products(&cpu));
        assert!(uses_tiled_products(&cpu.clone().autodiff()));
        close(
            floats(product(matrix(2, 3, 6, &cpu), matrix(3, 2, 7, &cpu))),
            floats(matrix(2, 3, 6, &cpu).matmul(matrix(3, 2, 7, &cpu))),
        );
        use_tiled_products(&cpu, false);
        assert!(!uses_tiled_products(&cpu));
    }
}
