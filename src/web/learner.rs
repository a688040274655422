//! The learning bundle's one trainer ([`LearnerTrainer`]) and one model class ([`LearnedModel`])
//! for every learnable puzzle, built over each puzzle's learner description
//! ([`PuzzleLearner`]) as the CLI's `train` and `eval` are. A puzzle adds its line to
//! [`for_each_learner!`] and, in its own file, how a model plays the page's board
//! ([`WebLearner`]: `play` requests in the page's terms) and how its evaluation is played a batch
//! at a time ([`EvaluationJob`], which the worker steps with progress and Cancel between batches).
//!
//! What only one learner does goes through the same classes and fails in words for the others:
//! the sliding puzzles' curriculum between chunks (`PuzzleLearner::after_chunk`), the trainer's
//! Q-values for the page's board ([`LearnerTrainer::q_values`]) and 2048's demonstrations, which the page
//! records from the n-tuple network it hands over ([`LearnerTrainer::add_demonstrations`]).

pub use super::evaluation::{Evaluation, EvaluationJob, InRanges};
use super::learn::{config_over, cpu_policy, take, ChunkReport, TrainerCell};
use super::{js_error, options_or_default, to_js};
use crate::agent::dqn::{
    Dqn, PuzzleLearner, QNetworkConfig, QPolicy, StepBenchmarkOptions, TrainingRecord,
};
use burn::tensor::Device;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// How a puzzle's model plays for the page, beside its learner's description.
pub trait WebLearner: PuzzleLearner {
    /// Checks a model of this puzzle and keeps what `play` and `evaluate` need of it.
    fn open(policy: QPolicy) -> Result<Self::Opened, JsValue>;
    /// A model ready to play (fitted caches, the board it was made for), and the policy inside.
    type Opened: AsRef<QPolicy> + 'static;
    /// What the page shows about the model beside its network (its board, its learner; nothing
    /// by default).
    fn about(opened: &Self::Opened) -> Result<JsValue, JsValue> {
        let _ = opened;
        Ok(JsValue::UNDEFINED)
    }
    /// Plays the page's position (`request`: the puzzle's own fields).
    fn play_position(opened: &Self::Opened, request: JsValue) -> Result<JsValue, JsValue>;
    /// Starts the evaluation `puzzlelab <puzzle> eval` runs (`request`: its games, boards or
    /// puzzles and their seed, in the puzzle's own terms), to be played a batch at a time
    /// ([`Evaluation`]) on its own copy of what it needs of the model.
    fn start_evaluation(
        opened: &Self::Opened,
        request: JsValue,
    ) -> Result<Box<dyn EvaluationJob>, JsValue>;
    /// The page's position (`request`) as the network reads it (`len` values).
    fn observation(setup: &Self::Setup, request: JsValue, len: usize) -> Result<Vec<f32>, JsValue> {
        let _ = (setup, request, len);
        Err(js_error(format!(
            "the {} trainer reads no position: play a saved model",
            Self::PUZZLE
        )))
    }
}

/// Runs `$then!(LearnerType)` for the learner of `$puzzle` (a registry id), or `$otherwise`. One
/// line a learnable puzzle.
macro_rules! for_each_learner {
    ($puzzle:expr, $then:ident, $otherwise:expr) => {
        match $puzzle {
            "sliding" => $then!(crate::agent::dqn::sliding::SlidingLearner),
            "2048" => $then!(crate::agent::dqn::game2048::Game2048Learner),
            "minesweeper" => $then!(crate::agent::dqn::minesweeper::MinesweeperLearner),
            "sudoku" => $then!(crate::agent::dqn::sudoku::SudokuLearner),
            "dust" => $then!(crate::agent::dqn::dust::DustLearner),
            _ => $otherwise,
        }
    };
}

/// The registry's puzzles that [`for_each_learner!`] has a learner for, for a message.
fn learnable() -> String {
    macro_rules! id {
        ($learner:ty) => {
            Some(<$learner as PuzzleLearner>::PUZZLE)
        };
    }
    let ids: Vec<&str> = crate::puzzles::PUZZLES
        .iter()
        .filter_map(|p| for_each_learner!(p.id, id, None))
        .collect();
    ids.join(", ")
}

/// What every trainer answers, whatever its puzzle.
trait AnyTrainer {
    fn backend(&self) -> &'static str;
    fn setup(&self) -> Result<JsValue, JsValue>;
    fn num_params(&self) -> Result<usize, JsValue>;
    fn train_steps(&self, steps: usize) -> js_sys::Promise;
    fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise;
    fn evaluate(&self, options: JsValue) -> js_sys::Promise;
    fn q_values(&self, request: JsValue) -> js_sys::Promise;
    fn benchmark_steps(&self, options: JsValue) -> js_sys::Promise;
    fn save_model(&self) -> js_sys::Promise;
    fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue>;
    fn fall_back_to_cpu(&self) -> Result<usize, JsValue>;
    fn add_demonstrations(&self, demonstrator: &[u8]) -> Result<JsValue, JsValue>;
}

/// A validation set kept for the next evaluation of the same size and seed: size, seed, games.
type KeptValidation<V> = (usize, u64, Rc<V>);

/// A learner of puzzle `L` in the browser, with its validation set once made.
struct Trainer<L: PuzzleLearner> {
    cell: TrainerCell<L::Env>,
    /// Changed between chunks by a learner whose episodes change as it learns.
    setup: Rc<RefCell<L::Setup>>,
    /// The hidden layers of its network.
    hidden: Vec<usize>,
    /// The validation's size unless an evaluation asks for another.
    validation_size: usize,
    /// The last validation set asked for.
    validation: RefCell<Option<KeptValidation<L::Validation>>>,
    /// Whether the demonstrations the setup asks for were recorded ([`AnyTrainer::add_demonstrations`]).
    demonstrated: std::cell::Cell<bool>,
}

/// What recording a trainer's demonstrations did: the transitions kept, the seconds it took.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct DemonstrationReport {
    transitions: usize,
    seconds: f64,
}

/// The setup a trainer reports: the puzzle, the setup's fields, the network's hidden layers, the
/// validation's seed (in hexadecimal: beyond JavaScript's exact integers) and size.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase", bound = "")]
struct SetupReport<'a, L: PuzzleLearner> {
    puzzle: &'static str,
    #[serde(flatten)]
    setup: &'a L::Setup,
    hidden: &'a [usize],
    validation_seed: String,
    validation_size: usize,
}

/// The most games (boards, puzzles a bin) a validation plays.
const MAX_VALIDATION: usize = 10_000;

/// A trainer's validation size among its options: `{validationSize}`.
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ValidationOption {
    validation_size: Option<usize>,
}

/// A chunk's report: the chunk's ([`ChunkReport`]), the last in-training evaluation's solved
/// rate, and the setup as it stands after the chunk (the sliding curriculum's difficulty).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase", bound = "")]
struct LearnerChunkReport<L: PuzzleLearner> {
    #[serde(flatten)]
    chunk: ChunkReport,
    eval_solved_rate: Option<f32>,
    setup: L::Setup,
}

/// An evaluation's size and seed (both optional: the learner's defaults).
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct EvaluationRequest {
    size: Option<usize>,
    seed: Option<f64>,
}

impl<L: WebLearner> Trainer<L> {
    async fn create(options: JsValue, backend: String) -> Result<Self, JsValue> {
        let mut setup: L::Setup = options_or_default(&options, "training options")?;
        let validation: ValidationOption = options_or_default(&options, "training options")?;
        let validation_size = validation.validation_size.unwrap_or(L::VALIDATION_SIZE);
        check_size(validation_size)?;
        let mut config = config_over(L::config(&setup).map_err(js_error)?, &options)?;
        L::settle(&mut setup, &mut config).map_err(js_error)?;
        let hidden = config.hidden.clone();
        let environments = L::environments(&setup).map_err(js_error)?;
        let cell = TrainerCell::create(environments, config, &backend).await?;
        {
            let shared = cell.shared();
            let mut slot = shared.borrow_mut();
            let dqn = slot.as_mut().expect("a new trainer is idle");
            L::start(&setup, dqn).map_err(js_error)?;
        }
        Ok(Trainer {
            cell,
            setup: Rc::new(RefCell::new(setup)),
            hidden,
            validation_size,
            validation: RefCell::default(),
            demonstrated: std::cell::Cell::new(false),
        })
    }

    /// The validation set of `size` games drawn from `seed`, made once and kept.
    fn validation(&self, size: usize, seed: u64) -> Result<Rc<L::Validation>, JsValue> {
        let mut kept = self.validation.borrow_mut();
        if let Some((s, d, games)) = kept.as_ref() {
            if (*s, *d) == (size, seed) {
                return Ok(games.clone());
            }
        }
        let games = Rc::new(L::validation(&self.setup.borrow(), size, seed).map_err(js_error)?);
        *kept = Some((size, seed, games.clone()));
        Ok(games)
    }
}

impl<L: WebLearner> AnyTrainer for Trainer<L> {
    fn backend(&self) -> &'static str {
        self.cell.backend()
    }

    fn setup(&self) -> Result<JsValue, JsValue> {
        to_js(&SetupReport::<L> {
            puzzle: L::PUZZLE,
            setup: &self.setup.borrow(),
            hidden: &self.hidden,
            validation_seed: format!("{:#x}", L::VALIDATION_SEED),
            validation_size: self.validation_size,
        })
    }

    fn num_params(&self) -> Result<usize, JsValue> {
        self.cell.num_params()
    }

    /// The chunk, then what the learner changes between chunks (the sliding curriculum).
    fn train_steps(&self, steps: usize) -> js_sys::Promise {
        let (cell, setup, backend) = (self.cell.shared(), self.setup.clone(), self.cell.backend());
        let undemonstrated = L::demonstrator(&setup.borrow()).is_some() && !self.demonstrated.get();
        wasm_bindgen_futures::future_to_promise(async move {
            if undemonstrated {
                return Err(js_error(
                    "the setup learns from demonstrations, and none were recorded: call addDemonstrations with the demonstrator's file first",
                ));
            }
            let mut dqn: Dqn<L::Env> = take(&cell)?;
            let stats = dqn.train_steps_async(steps).await;
            let report = stats.map(|stats| {
                L::after_chunk(&mut setup.borrow_mut(), &mut dqn, &stats);
                LearnerChunkReport::<L> {
                    eval_solved_rate: stats.eval_solved_rate(),
                    setup: setup.borrow().clone(),
                    chunk: ChunkReport::new(&dqn, stats, backend),
                }
            });
            *cell.borrow_mut() = Some(dqn);
            to_js(&report.map_err(js_error)?)
        })
    }

    fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise {
        self.cell.timing_probe(backend, steps, moves)
    }

    fn evaluate(&self, options: JsValue) -> js_sys::Promise {
        let request: Result<EvaluationRequest, JsValue> =
            options_or_default(&options, "evaluation options");
        let validation = request.and_then(|r| {
            let seed = match r.seed {
                None => L::VALIDATION_SEED,
                Some(s) if s.is_finite() && s >= 0.0 && s.fract() == 0.0 => s as u64,
                Some(_) => return Err(js_error("the seed must be a whole number")),
            };
            let size = r.size.unwrap_or(self.validation_size);
            check_size(size)?;
            self.validation(size, seed)
        });
        let cell = self.cell.shared();
        wasm_bindgen_futures::future_to_promise(async move {
            let validation = validation?;
            let policy = cpu_policy(&cell).await?;
            to_js(&L::evaluate(&policy, &validation).map_err(js_error)?)
        })
    }

    /// The network being trained, on its device, for the page's position.
    fn q_values(&self, request: JsValue) -> js_sys::Promise {
        let (cell, setup) = (self.cell.shared(), self.setup.clone());
        wasm_bindgen_futures::future_to_promise(async move {
            let dqn: Dqn<L::Env> = take(&cell)?;
            let len = dqn.network_config().observation_len;
            let observation = L::observation(&setup.borrow(), request, len);
            let values = match observation {
                Ok(observation) => dqn.q_values_async(&observation).await.map_err(js_error),
                Err(e) => Err(e),
            };
            *cell.borrow_mut() = Some(dqn);
            Ok(js_sys::Float32Array::from(values?.as_slice()).into())
        })
    }

    /// Times the learner's gradient step by itself ([`StepBenchmarkOptions`]); moves it on.
    fn benchmark_steps(&self, options: JsValue) -> js_sys::Promise {
        let cell = self.cell.shared();
        wasm_bindgen_futures::future_to_promise(async move {
            let options: StepBenchmarkOptions = options_or_default(&options, "benchmark options")?;
            let mut dqn: Dqn<L::Env> = take(&cell)?;
            let result = dqn.benchmark_steps(&options).await;
            *cell.borrow_mut() = Some(dqn);
            to_js(&result.map_err(js_error)?)
        })
    }

    fn save_model(&self) -> js_sys::Promise {
        self.cell.save_model()
    }

    fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        self.cell.load_model(bytes)
    }

    fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        self.cell.fall_back_to_cpu()
    }

    /// The setup's demonstrator (its file's bytes, uncompressed) plays the setup's demonstrated
    /// games, which the learner learns from from now on, as `puzzlelab <puzzle> train
    /// --demonstrations` does.
    fn add_demonstrations(&self, demonstrator: &[u8]) -> Result<JsValue, JsValue> {
        let started = web_time::Instant::now();
        let mut setup = self.setup.borrow().clone();
        let demonstrations = L::demonstrations(&mut setup, demonstrator, None).map_err(js_error)?;
        *self.setup.borrow_mut() = setup;
        let transitions = demonstrations.len();
        let shared = self.cell.shared();
        let mut slot = shared.borrow_mut();
        let dqn = slot
            .as_mut()
            .ok_or_else(|| js_error("the trainer is busy: add demonstrations before training"))?;
        dqn.add_demonstrations(demonstrations).map_err(js_error)?;
        self.demonstrated.set(true);
        to_js(&DemonstrationReport {
            transitions,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// A deep Q-learner of any learnable puzzle, training in the learning worker on the CPU or WebGPU.
#[wasm_bindgen]
pub struct LearnerTrainer {
    inner: Box<dyn AnyTrainer>,
}

#[wasm_bindgen]
impl LearnerTrainer {
    /// A learner of `puzzle` (`sliding`, `2048`, `minesweeper`, `sudoku`, `dust`) with fresh
    /// weights.
    /// `options`: the puzzle's setup (its learner's `Setup`: board, network, …, in snake_case or
    /// camelCase) and [`DqnConfig`](crate::agent::dqn::DqnConfig)'s fields in camelCase over that
    /// network's settings, as `puzzlelab <puzzle> train` takes them. `backend`: `cpu` or `webgpu`.
    pub async fn create(
        puzzle: String,
        options: JsValue,
        backend: String,
    ) -> Result<LearnerTrainer, JsValue> {
        macro_rules! make {
            ($learner:ty) => {
                Box::new(Trainer::<$learner>::create(options, backend).await?)
                    as Box<dyn AnyTrainer>
            };
        }
        let inner = for_each_learner!(
            puzzle.as_str(),
            make,
            return Err(js_error(format!(
                "no learner for the puzzle \"{puzzle}\": {}",
                learnable()
            )))
        );
        Ok(LearnerTrainer { inner })
    }

    /// `cpu` or `webgpu`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.inner.backend().to_string()
    }

    /// What it trains on: `{puzzle, …the setup's fields, validationSeed, validationSize}`.
    #[wasm_bindgen(getter)]
    pub fn setup(&self) -> Result<JsValue, JsValue> {
        self.inner.setup()
    }

    /// The network's number of weights and biases.
    #[wasm_bindgen(getter, js_name = numParams)]
    pub fn num_params(&self) -> Result<usize, JsValue> {
        self.inner.num_params()
    }

    /// Trains `steps` steps; resolves to the chunk's report (`tdLoss`, `epsilon`, `episodes`,
    /// `episodeReturn`, `episodeLength`, `solvedRate`, `evalSolvedRate`, `stepsPerS`,
    /// `stepsDone`, `episodesDone`, `updatesDone`, `backend`, and `setup` as it stands after the
    /// chunk: the sliding curriculum's `difficulty`). A second call while one is pending is
    /// refused.
    #[wasm_bindgen(js_name = trainSteps)]
    pub fn train_steps(&self, steps: usize) -> js_sys::Promise {
        self.inner.train_steps(steps)
    }

    /// Times a fresh network of this trainer's shape on `backend` (`cpu` or `webgpu`); resolves to
    /// `{ steps, stepsPerS, greedyMoves, greedyMoveMs }`.
    #[wasm_bindgen(js_name = timingProbe)]
    pub fn timing_probe(&self, backend: String, steps: usize, moves: usize) -> js_sys::Promise {
        self.inner.timing_probe(backend, steps, moves)
    }

    /// The network so far (copied to the CPU) plays the validation set, `{size, seed}` (both
    /// optional: the learner's validation games); resolves to the learner's evaluation, as
    /// `puzzlelab <puzzle> train` records it in its manifest.
    pub fn evaluate(&self, options: JsValue) -> js_sys::Promise {
        self.inner.evaluate(options)
    }

    /// The network being trained, on the training device: its Q-values for the page's position
    /// (`request`: the sliding puzzles' `{cells}`, row-major labels, 0 = blank); resolves to a
    /// Float32Array.
    #[wasm_bindgen(js_name = qValues)]
    pub fn q_values(&self, request: JsValue) -> js_sys::Promise {
        self.inner.q_values(request)
    }

    /// Times the learner's gradient step by itself (`options`: `steps`, `warmupSteps`,
    /// `readEvery`, `phases`, `phaseSteps`, `greedyMoves`; see [`StepBenchmarkOptions`]);
    /// resolves to the [`crate::agent::dqn::StepBenchmark`] (`stepsPerS`, `greedyMoveMs`,
    /// `phases`, …). Train a chunk first, so that the replay buffer holds a batch. Moves the
    /// learner on.
    #[wasm_bindgen(js_name = benchmarkSteps)]
    pub fn benchmark_steps(&self, options: JsValue) -> js_sys::Promise {
        self.inner.benchmark_steps(options)
    }

    /// The current network as a model file (the format `puzzlelab <puzzle> train` writes).
    #[wasm_bindgen(js_name = saveModel)]
    pub fn save_model(&self) -> js_sys::Promise {
        self.inner.save_model()
    }

    /// Goes on from a saved model's weights (same puzzle and network); Adam's moments start again.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&self, bytes: &[u8]) -> Result<(), JsValue> {
        self.inner.load_model(bytes)
    }

    /// After WebGPU was lost (a chunk failed because the GPU stopped answering): goes on on the
    /// CPU from the network of the last chunk; returns the steps done then.
    #[wasm_bindgen(js_name = fallBackToCpu)]
    pub fn fall_back_to_cpu(&self) -> Result<usize, JsValue> {
        self.inner.fall_back_to_cpu()
    }

    /// For a setup that learns from demonstrations (2048's `demonstrations`: the n-tuple
    /// network's games): `demonstrator` is the demonstrator's file (the n-tuple network,
    /// uncompressed), whose games are recorded and learnt from from now on (pre-training first,
    /// then a share of every batch). Returns `{ transitions, seconds }`. Training refuses
    /// to start until it was called.
    #[wasm_bindgen(js_name = addDemonstrations)]
    pub fn add_demonstrations(&self, demonstrator: &[u8]) -> Result<JsValue, JsValue> {
        self.inner.add_demonstrations(demonstrator)
    }
}

/// What every model answers, whatever its puzzle.
trait AnyModel {
    fn puzzle(&self) -> &'static str;
    fn policy(&self) -> &QPolicy;
    fn about(&self) -> Result<JsValue, JsValue>;
    fn play(&self, request: JsValue) -> Result<JsValue, JsValue>;
    fn start_evaluation(&self, request: JsValue) -> Result<Box<dyn EvaluationJob>, JsValue>;
}

/// A model of learner `L`, opened.
struct Model<L: WebLearner> {
    opened: L::Opened,
}

impl<L: WebLearner> AnyModel for Model<L> {
    fn puzzle(&self) -> &'static str {
        L::PUZZLE
    }
    fn policy(&self) -> &QPolicy {
        self.opened.as_ref()
    }
    fn about(&self) -> Result<JsValue, JsValue> {
        L::about(&self.opened)
    }
    fn play(&self, request: JsValue) -> Result<JsValue, JsValue> {
        L::play_position(&self.opened, request)
    }
    fn start_evaluation(&self, request: JsValue) -> Result<Box<dyn EvaluationJob>, JsValue> {
        L::start_evaluation(&self.opened, request)
    }
}

/// What the page shows about any model.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo<'a> {
    puzzle: &'static str,
    puzzle_id: &'a str,
    network: &'a QNetworkConfig,
    num_params: usize,
    training: Option<&'a TrainingRecord>,
}

/// A saved model of any learnable puzzle, on the CPU.
#[wasm_bindgen]
pub struct LearnedModel {
    inner: Box<dyn AnyModel>,
}

#[wasm_bindgen]
impl LearnedModel {
    /// Reads a model file and opens it for the puzzle its header names; the error says what is
    /// wrong with a damaged one, or that a sliding-puzzle model belongs to the sliding page.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<LearnedModel, JsValue> {
        LearnedModel::open(QPolicy::from_bytes(bytes, &Device::flex()).map_err(js_error)?)
    }

    /// Opens a model file as a model of `puzzle`, refusing one of another puzzle.
    #[wasm_bindgen(js_name = forPuzzle)]
    pub fn for_puzzle(puzzle: &str, bytes: &[u8]) -> Result<LearnedModel, JsValue> {
        let policy = QPolicy::from_bytes(bytes, &Device::flex()).map_err(js_error)?;
        if puzzle_of(policy.puzzle_id()) != puzzle {
            macro_rules! name {
                ($learner:ty) => {
                    <$learner as PuzzleLearner>::NAME
                };
            }
            let name = for_each_learner!(puzzle, name, puzzle);
            let id = policy.puzzle_id();
            return Err(js_error(format!("the model plays \"{id}\", not {name}")));
        }
        LearnedModel::open(policy)
    }

    /// The registry id of the puzzle it plays.
    #[wasm_bindgen(getter)]
    pub fn puzzle(&self) -> String {
        self.inner.puzzle().to_string()
    }

    /// `{puzzle, puzzleId, network: {observationLen, numActions, …}, numParams, training:
    /// {config, steps, episodes} | null, …the puzzle's own fields (its board, its learner)}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let policy = self.inner.policy();
        let network = policy.network_config();
        let info = to_js(&ModelInfo {
            puzzle: self.inner.puzzle(),
            puzzle_id: policy.puzzle_id(),
            network,
            num_params: network.num_params(),
            training: policy.training(),
        })?;
        let about = self.inner.about()?;
        if about.is_object() {
            js_sys::Object::assign(
                info.unchecked_ref::<js_sys::Object>(),
                about.unchecked_ref::<js_sys::Object>(),
            );
        }
        Ok(info)
    }

    /// The model's play of the page's position; `request` and the answer are the puzzle's own
    /// (sliding: `{cells, rows, cols, goal, method, …}` → its solve report; 2048: `{exponents}` →
    /// `{move, values}`; Minesweeper: `{width, height, mines, cells}` → `{cell, values}`; Sudoku:
    /// `{grid}` → its moves; dust: `{board}` → its clicks).
    pub fn play(&self, request: JsValue) -> Result<JsValue, JsValue> {
        self.inner.play(request)
    }

    /// The model's play of seeded games (boards, puzzles) as `puzzlelab <puzzle> eval` plays them,
    /// all at once; `request` names them in the puzzle's own terms.
    pub fn evaluate(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let mut job = self.inner.start_evaluation(request)?;
        while !job.step(usize::MAX)? {}
        job.result()
    }

    /// The same evaluation, to be played a batch at a time ([`Evaluation::step`]) so that a
    /// worker reports progress and honours Cancel between batches.
    #[wasm_bindgen(js_name = startEvaluation)]
    pub fn start_evaluation(&self, request: JsValue) -> Result<Evaluation, JsValue> {
        Ok(Evaluation(self.inner.start_evaluation(request)?))
    }
}

/// A validation's size: 1 to [`MAX_VALIDATION`].
fn check_size(size: usize) -> Result<(), JsValue> {
    match (1..=MAX_VALIDATION).contains(&size) {
        true => Ok(()),
        false => Err(js_error(format!(
            "validation games (boards, puzzles a bin): 1 to {MAX_VALIDATION}"
        ))),
    }
}

impl LearnedModel {
    /// `policy` opened by the learner of the puzzle its header names.
    fn open(policy: QPolicy) -> Result<LearnedModel, JsValue> {
        macro_rules! open {
            ($learner:ty) => {
                Ok(LearnedModel {
                    inner: Box::new(Model::<$learner> {
                        opened: <$learner as WebLearner>::open(policy)?,
                    }),
                })
            };
        }
        let id = policy.puzzle_id().to_string();
        for_each_learner!(
            puzzle_of(&id),
            open,
            Err(js_error(format!(
                "the model plays \"{id}\", which no learner here ({}) plays",
                learnable()
            )))
        )
    }
}

/// The registry id of the puzzle a model file's header (`puzzle_id`) names, by its model prefix
/// ([`crate::puzzles::for_model`]); "" when it names none.
fn puzzle_of(puzzle_id: &str) -> &'static str {
    crate::puzzles::for_model(puzzle_id).map_or("", |p| p.id)
}
