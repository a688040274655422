//! The learning bundle's part of the boundary (feature `learn`; `scripts/build-wasm.sh learn`
//! builds it into `pkg/learn/`). The page loads it only in the learning worker
//! (`www/common/learn-worker.js`), so the play-and-search bundle stays small.
//!
//! - What every trainer shares ([`TrainerCell`]: the learner on the CPU (burn's `flex`) or on
//!   WebGPU, every chunk a promise (readback on WebGPU is asynchronous) whose report feeds the
//!   page's charts); the one trainer and model class over it are `learner.rs`'s.
//! - [`webgpu_probe`] / [`cpu_probe`]: the same small network forward, backward and through Adam
//!   steps on one device, so the page (and its tests) can check WebGPU against the CPU.

use super::{js_error, to_js};
use crate::agent::dqn::{
    device_probe, op_benchmark, race_products, use_tiled_products, Dqn, DqnConfig, ProductRace,
};
use crate::env::Environment;
use burn::tensor::Device;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// burn's wgpu runtime can be set up once per thread: the first successful set-up is kept.
    static WEBGPU: RefCell<Option<Device>> = const { RefCell::new(None) };
    /// Its product race, run once when it was set up.
    static PRODUCT_RACE: RefCell<Option<ProductRace>> = const { RefCell::new(None) };
}

/// The WebGPU device, set up on first use.
pub(crate) async fn webgpu_device() -> Result<Device, JsValue> {
    if let Some(device) = WEBGPU.with(|d| d.borrow().clone()) {
        return Ok(device);
    }
    let device = Device::wgpu_options()
        .init_async()
        .await
        .map_err(|e| js_error(format!("WebGPU is not available: {e}")))?;
    // Before anything else runs on it: which kernel multiplies the dense layers' matrices.
    let race = race_products(&device, 3)
        .await
        .map_err(|e| js_error(format!("WebGPU could not be set up: {e}")))?;
    PRODUCT_RACE.with(|r| *r.borrow_mut() = Some(race));
    WEBGPU.with(|d| *d.borrow_mut() = Some(device.clone()));
    Ok(device)
}

/// Overrides the race: the WebGPU device's dense layers multiply with cubek's tiled kernel
/// (`true`) or burn's default (`false`) from now on (sets WebGPU up first if needed). For the
/// benchmark's rows of each kernel and the browser tests that check each one's numbers.
#[wasm_bindgen(js_name = useTiledWebgpuProducts)]
pub async fn use_tiled_webgpu_products(tiled: bool) -> Result<(), JsValue> {
    use_tiled_products(&webgpu_device().await?, tiled);
    Ok(())
}

/// What the WebGPU device's product race ([`race_products`]) measured and chose (`null` before
/// WebGPU is set up): `{rows, width, defaultMs, tiledMs, relativeDifference, tiled}`.
#[wasm_bindgen(js_name = webgpuProducts)]
pub fn webgpu_products() -> Result<JsValue, JsValue> {
    match PRODUCT_RACE.with(|r| r.borrow().clone()) {
        Some(race) => to_js(&race),
        None => Ok(JsValue::NULL),
    }
}

/// One chunk's report: [`crate::agent::dqn::DqnStats`] plus where training stands (every
/// trainer's `trainSteps`).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChunkReport {
    #[serde(flatten)]
    stats: crate::agent::dqn::DqnStats,
    steps_done: usize,
    episodes_done: usize,
    updates_done: usize,
    backend: &'static str,
}

impl ChunkReport {
    /// `stats` of a chunk `dqn` has just trained on `backend`.
    pub(crate) fn new<E: Environment>(
        dqn: &Dqn<E>,
        stats: crate::agent::dqn::DqnStats,
        backend: &'static str,
    ) -> Self {
        ChunkReport {
            steps_done: dqn.steps_done(),
            episodes_done: dqn.episodes_done(),
            updates_done: dqn.updates_done(),
            // After the GPU was lost the learner trains on the CPU.
            backend: if dqn.fell_back_at().is_some() {
                "cpu"
            } else {
                backend
            },
            stats,
        }
    }
}

/// The network so far of the learner in `cell`, copied to the CPU (the learner is taken out while
/// it copies).
pub(crate) async fn cpu_policy<E: Environment>(
    cell: &RefCell<Option<Dqn<E>>>,
) -> Result<crate::agent::dqn::QPolicy, JsValue> {
    let dqn = take(cell)?;
    let policy = dqn.policy_on(&Device::flex()).await;
    *cell.borrow_mut() = Some(dqn);
    policy.map_err(js_error)
}

/// A puzzle trainer's `saveModel`: resolves to the network so far as a model file's bytes.
pub(crate) fn save_model_promise<E: Environment + 'static>(
    cell: Rc<RefCell<Option<Dqn<E>>>>,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let policy = cpu_policy(&cell).await?;
        Ok(js_sys::Uint8Array::from(policy.to_bytes().as_slice()).into())
    })
}

/// `defaults` with `options`' fields (camelCase, [`DqnConfig`]'s names; others, such as a
/// puzzle trainer's board or network, are ignored) over it: the puzzle trainers' options.
pub(crate) fn config_over(defaults: DqnConfig, options: &JsValue) -> Result<DqnConfig, JsValue> {
    let config = super::laid_over(&defaults, options, "training options")?;
    config.validate().map_err(js_error)?;
    Ok(config)
}

/// Takes the trainer out of its cell for an asynchronous call (put back when it ends), or says
/// that another call still has it.
pub(crate) fn take<T>(cell: &RefCell<Option<T>>) -> Result<T, JsValue> {
    cell.borrow_mut()
        .take()
        .ok_or_else(|| js_error("the trainer is busy with a chunk"))
}

/// A trainer's `fallBackToCpu`: its learner (`dqn` reaches it inside the trainer in `cell`) goes
/// on on the CPU from the copy of its last chunk ([`Dqn::fall_back_to`]); returns the steps done
/// then. The lost WebGPU device is forgotten, so that a later run sets up a new one.
pub(crate) fn fall_back_to_cpu<T, E: Environment>(
    cell: &RefCell<Option<T>>,
    dqn: fn(&mut T) -> &mut Dqn<E>,
) -> Result<usize, JsValue> {
    let mut slot = cell.borrow_mut();
    let trainer = slot
        .as_mut()
        .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
    WEBGPU.with(|d| *d.borrow_mut() = None);
    dqn(trainer)
        .fall_back_to(&Device::flex())
        .map_err(|e| js_error(format!("training cannot go on on the CPU: {e}")))
}

/// The learner itself, mutable (what [`fall_back_to_cpu`] reaches into from a [`TrainerCell`]).
fn itself_mut<E: Environment>(dqn: &mut Dqn<E>) -> &mut Dqn<E> {
    dqn
}

/// The learner itself (what [`timing_probe_promise`] reaches into from a [`TrainerCell`]).
fn itself<E: Environment>(dqn: &Dqn<E>) -> &Dqn<E> {
    dqn
}

/// A puzzle trainer's learner and the backend it trains on, with the calls every puzzle trainer
/// makes of it the same way (the dust trainer's; Sudoku's and Minesweeper's spell them out).
pub(crate) struct TrainerCell<E: Environment> {
    /// Taken out while a chunk runs, so that a second call while one is pending is refused.
    dqn: Rc<RefCell<Option<Dqn<E>>>>,
    backend: &'static str,
}

impl<E: Environment + 'static> TrainerCell<E> {
    /// A learner with fresh weights on `backend`'s device (`cpu` or `webgpu`).
    pub(crate) async fn create(
        make_env: impl FnMut() -> E,
        config: DqnConfig,
        backend: &str,
    ) -> Result<Self, JsValue> {
        let device = backend_device(backend).await?;
        let backend = if backend == "webgpu" { "webgpu" } else { "cpu" };
        let dqn = Dqn::new(make_env, config, &device).map_err(js_error)?;
        Ok(TrainerCell {
            dqn: Rc::new(RefCell::new(Some(dqn))),
            backend,
        })
    }

    pub(crate) fn backend(&self) -> &'static str {
        self.backend
    }

    /// The cell itself, for a promise that takes the learner out (an evaluation).
    pub(crate) fn shared(&self) -> Rc<RefCell<Option<Dqn<E>>>> {
        self.dqn.clone()
    }

    pub(crate) fn num_params(&self) -> Result<usize, JsValue> {
        let slot = self.dqn.borrow();
        let dqn = slot
            .as_ref()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        Ok(dqn.network_config().num_params())
    }

    pub(crate) fn timing_probe(
        &self,
        backend: String,
        steps: usize,
        moves: usize,
    ) -> js_sys::Promise {
        timing_probe_promise(self.dqn.clone(), itself::<E>, backend, steps, moves)
    }

    pub(crate) fn save_model(&self) -> js_sys::Promise {
        save_model_promise(self.dqn.clone())
    }

    pub(crate) fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        let mut slot = self.dqn.borrow_mut();
        let dqn = slot
            .as_mut()
            .ok_or_else(|| js_error("the trainer is busy with a chunk"))?;
        dqn.load_weights(bytes).map_err(js_error)
    }

    pub(crate) fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        fall_back_to_cpu(&self.dqn, itself_mut::<E>)
    }
}

/// Runs [`device_probe`] on WebGPU: resolves to `{outputs, gradients, losses}`, or rejects when
/// WebGPU cannot be set up.
#[wasm_bindgen(js_name = webgpuProbe)]
pub async fn webgpu_probe(adam_steps: usize) -> Result<JsValue, JsValue> {
    let device = webgpu_device().await?;
    to_js(&device_probe(&device, adam_steps).await.map_err(js_error)?)
}

/// Runs [`device_probe`] on the CPU (`flex`).
#[wasm_bindgen(js_name = cpuProbe)]
pub async fn cpu_probe(adam_steps: usize) -> Result<JsValue, JsValue> {
    to_js(
        &device_probe(&Device::flex(), adam_steps)
            .await
            .map_err(js_error)?,
    )
}

/// Times single operations ([`op_benchmark`]: a `[rows, width] × [width, width]` product, an
/// addition, an upload, a readback; `count` of each) on `backend` (`cpu` or `webgpu`).
#[wasm_bindgen(js_name = benchmarkOps)]
pub async fn benchmark_ops(
    backend: String,
    rows: usize,
    width: usize,
    count: usize,
) -> Result<JsValue, JsValue> {
    let device = backend_device(&backend).await?;
    to_js(
        &op_benchmark(&device, rows, width, count)
            .await
            .map_err(js_error)?,
    )
}

/// A trainer's `timingProbe` ([`crate::agent::dqn::Dqn::timing_probe`] on `backend`'s device),
/// for the sliding and the 2048 trainer alike: `dqn` reaches the learner inside the trainer.
pub(crate) fn timing_probe_promise<T: 'static, E: Environment + 'static>(
    cell: Rc<RefCell<Option<T>>>,
    dqn: fn(&T) -> &Dqn<E>,
    backend: String,
    steps: usize,
    moves: usize,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        let device = backend_device(&backend).await?;
        let trainer = take(&cell)?;
        let result = dqn(&trainer).timing_probe(&device, steps, moves).await;
        *cell.borrow_mut() = Some(trainer);
        to_js(&result.map_err(js_error)?)
    })
}

/// The device of a backend by its name: `cpu` (burn's flex) or `webgpu`.
pub(crate) async fn backend_device(backend: &str) -> Result<Device, JsValue> {
    match backend {
        "cpu" => Ok(Device::flex()),
        "webgpu" => webgpu_device().await,
        other => Err(js_error(format!("unknown backend \"{other}\""))),
    }
}
