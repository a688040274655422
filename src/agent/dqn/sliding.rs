//! The sliding puzzle's deep Q-learner: the dissertation's set-up of [`Dqn`] on [`SlidingEnv`]
//! (random walks back from the goal, its reward, its curriculum), shared by `puzzlelab sliding train` and
//! the page's training worker so that both train the same way.

use super::{Curriculum, Dqn, DqnConfig, DqnError, DqnStats, QPolicy};
use crate::agent::evaluation::{EvaluationSettings, OptimalLengths};
use crate::env::sliding::{parse_size, RewardScheme, SlidingEnv, SlidingPuzzle, StartRule};
use burn::tensor::Device;

/// The cap on a random walk, for difficulties a board cannot reach.
pub const MAX_WALK: usize = 500;

/// An environment of `puzzle` whose episodes start at random walks of `difficulty` (Manhattan +
/// 2 × linear conflicts) from the goal, with the dissertation's reward.
pub fn training_env(puzzle: &SlidingPuzzle, difficulty: u32) -> SlidingEnv {
    training_env_with(puzzle, difficulty, RewardScheme::HeuristicPenalty)
}

/// [`training_env`] with another reward.
pub fn training_env_with(
    puzzle: &SlidingPuzzle,
    difficulty: u32,
    reward: RewardScheme,
) -> SlidingEnv {
    SlidingEnv::new(puzzle.clone(), walk(difficulty), reward)
}

fn walk(difficulty: u32) -> StartRule {
    StartRule::RandomWalk {
        difficulty,
        max_moves: MAX_WALK,
    }
}

fn mixed_walk_or_uniform(max_difficulty: u32) -> StartRule {
    StartRule::MixedWalkOrUniform {
        max_difficulty,
        max_moves: MAX_WALK,
    }
}

fn mixed_walk(max_difficulty: u32) -> StartRule {
    StartRule::MixedWalk {
        max_difficulty,
        max_moves: MAX_WALK,
    }
}

/// The puzzle a model plays, from its id (`sliding RxC goal G`, [`crate::env::Environment::puzzle_id`]).
pub fn puzzle_of(policy: &QPolicy) -> Result<SlidingPuzzle, String> {
    let id = policy.puzzle_id();
    let rest = id
        .strip_prefix("sliding ")
        .ok_or_else(|| format!("the model plays \"{id}\", not a sliding puzzle"))?;
    let (size, goal) = rest
        .split_once(" goal ")
        .ok_or_else(|| format!("cannot read the puzzle id \"{id}\""))?;
    let (rows, cols) = parse_size(size).map_err(|e| e.to_string())?;
    SlidingPuzzle::with_goal_text(rows, cols, goal).map_err(|e| e.to_string())
}

/// A DQN learning a sliding puzzle at a difficulty that the dissertation's curriculum may raise.
pub struct SlidingTrainer {
    dqn: Dqn<SlidingEnv>,
    puzzle: SlidingPuzzle,
    difficulty: u32,
    curriculum: Option<Curriculum>,
    reward: RewardScheme,
    mixed: bool,
    uniform_starts: bool,
}

impl SlidingTrainer {
    /// A learner with fresh weights on `device`, rewarded by `reward`, starting at `difficulty`;
    /// with `curriculum` the difficulty goes up by one after three in-training evaluations in a
    /// row above 80%.
    pub fn new(
        puzzle: &SlidingPuzzle,
        config: DqnConfig,
        reward: RewardScheme,
        difficulty: u32,
        curriculum: bool,
        device: &Device,
    ) -> Result<Self, DqnError> {
        let dqn = Dqn::new(
            || training_env_with(puzzle, difficulty, reward),
            config,
            device,
        )?;
        Ok(SlidingTrainer {
            dqn,
            puzzle: puzzle.clone(),
            difficulty,
            curriculum: curriculum.then(Curriculum::three_above_80_percent),
            reward,
            mixed: false,
            uniform_starts: false,
        })
    }

    /// Draws each episode's difficulty uniformly from 1 to the current difficulty
    /// ([`StartRule::MixedWalk`]) instead of always the current one.
    pub fn set_mixed_difficulty(&mut self, mixed: bool) {
        self.mixed = mixed;
        self.set_difficulty(self.difficulty);
    }

    /// With mixed difficulties, starts every other episode (drawn at random) from a uniformly
    /// random solvable position ([`StartRule::MixedWalkOrUniform`]); refused without them.
    pub fn set_uniform_starts(&mut self, uniform: bool) -> Result<(), String> {
        if uniform && !self.mixed {
            return Err(
                "uniform starts go with mixed difficulties (half the episodes start \
                        uniformly, half by mixed walks)"
                    .into(),
            );
        }
        self.uniform_starts = uniform;
        self.set_difficulty(self.difficulty);
        Ok(())
    }

    /// Whether half the mixed-difficulty episodes start from uniformly random positions.
    pub fn has_uniform_starts(&self) -> bool {
        self.uniform_starts
    }

    /// Whether episodes draw their difficulty up to the current one.
    pub fn has_mixed_difficulty(&self) -> bool {
        self.mixed
    }

    /// The reward the learner is trained on.
    pub fn reward(&self) -> RewardScheme {
        self.reward
    }

    /// The learner.
    pub fn dqn(&self) -> &Dqn<SlidingEnv> {
        &self.dqn
    }

    /// The learner, to load weights or resume.
    pub fn dqn_mut(&mut self) -> &mut Dqn<SlidingEnv> {
        &mut self.dqn
    }

    /// The puzzle it learns.
    pub fn puzzle(&self) -> &SlidingPuzzle {
        &self.puzzle
    }

    /// The current difficulty of the episodes' random walks.
    pub fn difficulty(&self) -> u32 {
        self.difficulty
    }

    /// Whether the curriculum raises the difficulty.
    pub fn has_curriculum(&self) -> bool {
        self.curriculum.is_some()
    }

    /// Sets the difficulty of the episodes from the next one on.
    pub fn set_difficulty(&mut self, difficulty: u32) {
        self.difficulty = difficulty;
        let start = if self.mixed && self.uniform_starts {
            mixed_walk_or_uniform(difficulty)
        } else if self.mixed {
            mixed_walk(difficulty)
        } else {
            walk(difficulty)
        };
        self.dqn.for_each_env(|env| env.set_start(start));
    }

    /// [`Dqn::train_steps`], then the curriculum's verdict on the chunk's evaluations.
    pub fn train_steps(&mut self, steps: usize) -> DqnStats {
        burn::tensor::read_sync(self.train_steps_async(steps)).expect("the CPU reads back")
    }

    /// [`SlidingTrainer::train_steps`] without blocking (WebGPU in a browser).
    pub async fn train_steps_async(&mut self, steps: usize) -> Result<DqnStats, DqnError> {
        let stats = self.dqn.train_steps_async(steps).await?;
        if let Some(curriculum) = &mut self.curriculum {
            let raises = stats
                .eval_solved_rates
                .iter()
                .filter(|&&rate| curriculum.record(rate))
                .count();
            if raises > 0 {
                self.set_difficulty(self.difficulty + raises as u32);
            }
        }
        Ok(stats)
    }
}

/// What a sliding-puzzle run is set up with (the manifest's `setup`; older manifests recorded
/// these fields at their top level).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SlidingSetup {
    /// The board: `RxC` (or `N` for N × N).
    pub size: String,
    /// The goal as text (`1,2,3,4,5,6,7,8,_`); none: the standard goal.
    pub goal: Option<String>,
    /// The random walks' Manhattan + 2 × linear conflicts that start episodes (default 10, or 1
    /// with the curriculum); the curriculum raises it, and the manifest records where it got.
    pub difficulty: Option<u32>,
    /// Raise the difficulty after 3 in-training evaluations in a row above 80% (the
    /// dissertation's curriculum).
    pub curriculum: bool,
    /// Each episode's difficulty drawn from 1 to the current one.
    #[serde(alias = "mixed_difficulty", alias = "mixedDifficulty")]
    pub mixed: bool,
    /// With `mixed`: every other episode starts uniformly at random.
    #[serde(alias = "uniformStarts")]
    pub uniform_starts: bool,
    /// The reward's name ([`RewardScheme::from_name`]; default the dissertation's).
    pub reward: String,
    /// The curriculum's streak of evaluations (starts again on resume).
    #[serde(skip)]
    pub streak: Option<Curriculum>,
}

impl Default for SlidingSetup {
    fn default() -> Self {
        SlidingSetup {
            size: "3x3".into(),
            goal: None,
            difficulty: None,
            curriculum: false,
            mixed: false,
            uniform_starts: false,
            reward: RewardScheme::HeuristicPenalty.name().into(),
            streak: None,
        }
    }
}

impl SlidingSetup {
    /// The puzzle: its size and goal.
    pub fn puzzle(&self) -> Result<SlidingPuzzle, DqnError> {
        let invalid = |e: crate::env::sliding::PuzzleError| DqnError::InvalidSetup(e.to_string());
        let (rows, cols) = parse_size(&self.size).map_err(invalid)?;
        match &self.goal {
            Some(goal) => SlidingPuzzle::with_goal_text(rows, cols, goal).map_err(invalid),
            None => SlidingPuzzle::standard(rows, cols).map_err(invalid),
        }
    }

    /// The reward by its name.
    pub fn reward_scheme(&self) -> Result<RewardScheme, DqnError> {
        RewardScheme::parse(&self.reward).map_err(|e| DqnError::InvalidSetup(format!("reward {e}")))
    }

    /// The walks' difficulty now.
    pub fn current_difficulty(&self) -> u32 {
        self.difficulty
            .unwrap_or(if self.curriculum { 1 } else { 10 })
    }

    /// Where episodes start at the current difficulty.
    fn start_rule(&self) -> StartRule {
        let difficulty = self.current_difficulty();
        if self.mixed && self.uniform_starts {
            mixed_walk_or_uniform(difficulty)
        } else if self.mixed {
            mixed_walk(difficulty)
        } else {
            walk(difficulty)
        }
    }
}

/// The validation positions of a sliding-puzzle run: each with its optimal number of moves, and
/// how they are played (greedily, and by the model-guided beam search).
#[derive(Clone, Debug)]
pub struct SlidingValidation {
    /// The puzzle.
    pub puzzle: SlidingPuzzle,
    /// Positions and their optimal lengths.
    pub positions: Vec<(crate::env::sliding::Board, u32)>,
    /// The beam search's width and budget, the greedy move limit.
    pub settings: EvaluationSettings,
}

impl SlidingValidation {
    /// `settings.per_distance` fresh positions at each distance (or difficulty, over pattern
    /// databases: [`OptimalLengths::fresh_positions`]), drawn by `settings.seed`.
    pub fn draw(
        puzzle: SlidingPuzzle,
        optimal: &OptimalLengths,
        settings: EvaluationSettings,
    ) -> Result<SlidingValidation, DqnError> {
        Ok(SlidingValidation {
            positions: optimal
                .fresh_positions(&puzzle, &settings)
                .map_err(DqnError::InvalidSetup)?,
            puzzle,
            settings,
        })
    }
}

/// The sliding puzzles' deep Q-learner ([`super::PuzzleLearner`]): the N-puzzle DQN
/// dissertation's network, reward, start rule and curriculum; validated by optimal distance.
pub struct SlidingLearner;

impl super::PuzzleLearner for SlidingLearner {
    type Env = SlidingEnv;
    type Setup = SlidingSetup;
    type Validation = SlidingValidation;
    type Evaluation = crate::agent::evaluation::EvaluationTable;

    const PUZZLE: &'static str = "sliding";
    const NAME: &'static str = "a sliding puzzle";
    const NETWORKS: &'static [super::NetworkChoice] = &[super::NetworkChoice::new("mlp", "the N-puzzle DQN dissertation's network (one-hot board, dense layers with ReLU, a Q-value per move)")];
    const VALIDATION_SEED: u64 = 0xE7A1;
    /// Positions at each optimal distance.
    const VALIDATION_SIZE: usize = 20;
    const OLDER_SETUP_KEY: Option<&'static str> = Some("");

    fn network(_: &SlidingSetup) -> Result<&'static super::NetworkChoice, DqnError> {
        Ok(&Self::NETWORKS[0])
    }

    fn config(_: &SlidingSetup) -> Result<DqnConfig, DqnError> {
        Ok(DqnConfig::default())
    }

    fn settle(setup: &mut SlidingSetup, _: &mut DqnConfig) -> Result<(), DqnError> {
        let puzzle = setup.puzzle()?;
        setup.size = format!("{}x{}", puzzle.rows(), puzzle.cols());
        setup.goal = Some(puzzle.format(puzzle.goal()));
        setup.reward = setup.reward_scheme()?.name().into();
        setup.difficulty = Some(setup.current_difficulty());
        if setup.uniform_starts && !setup.mixed {
            return Err(DqnError::InvalidSetup(
                "uniform starts go with mixed difficulties (half the episodes start uniformly, \
                 half by mixed walks)"
                    .into(),
            ));
        }
        setup.streak = setup.curriculum.then(Curriculum::three_above_80_percent);
        Ok(())
    }

    fn environments(setup: &SlidingSetup) -> Result<Box<dyn FnMut() -> SlidingEnv>, DqnError> {
        let (puzzle, reward) = (setup.puzzle()?, setup.reward_scheme()?);
        let difficulty = setup.current_difficulty();
        Ok(Box::new(move || {
            training_env_with(&puzzle, difficulty, reward)
        }))
    }

    fn start(setup: &SlidingSetup, dqn: &mut Dqn<SlidingEnv>) -> Result<(), DqnError> {
        let start = setup.start_rule();
        dqn.for_each_env(|env| env.set_start(start));
        Ok(())
    }

    /// The curriculum: each in-training evaluation above 80% three times in a row raises the
    /// difficulty by one.
    fn after_chunk(
        setup: &mut SlidingSetup,
        dqn: &mut Dqn<SlidingEnv>,
        stats: &DqnStats,
    ) -> Option<String> {
        if let Some(streak) = &mut setup.streak {
            let raises = stats
                .eval_solved_rates
                .iter()
                .filter(|&&rate| streak.record(rate))
                .count();
            if raises > 0 {
                setup.difficulty = Some(setup.current_difficulty() + raises as u32);
                let start = setup.start_rule();
                dqn.for_each_env(|env| env.set_start(start));
            }
        }
        let show = |x: Option<f32>| x.map_or("-".into(), |x| format!("{x:.3}"));
        Some(format!(
            "difficulty {} | solved {} | eval {} | final distance {}",
            setup.current_difficulty(),
            show(stats.solved_rate),
            show(stats.eval_solved_rate()),
            show(stats.eval_final_distance)
        ))
    }

    /// `size` positions at each optimal distance drawn from `seed` (boards of at most 9 cells:
    /// their exact distances); a larger board's optimal lengths need pattern databases, which the
    /// command line brings ([`SlidingValidation::draw`]).
    fn validation(
        setup: &SlidingSetup,
        size: usize,
        seed: u64,
    ) -> Result<SlidingValidation, DqnError> {
        let puzzle = setup.puzzle()?;
        let exact =
            crate::env::sliding::solve::ExactDistances::build(puzzle.goal()).ok_or_else(|| {
                DqnError::InvalidSetup(
                    "the optimal lengths of a board over 9 cells come from pattern databases"
                        .into(),
                )
            })?;
        let settings = EvaluationSettings {
            per_distance: size,
            seed,
            ..EvaluationSettings::for_cells(puzzle.rows() * puzzle.cols())
        };
        SlidingValidation::draw(puzzle, &OptimalLengths::Exact(exact.into()), settings)
    }

    fn validation_len(validation: &SlidingValidation) -> usize {
        validation.positions.len()
    }

    fn evaluate(policy: &QPolicy, v: &SlidingValidation) -> Result<Self::Evaluation, DqnError> {
        let env = training_env(&v.puzzle, 0);
        policy.check_fits_or_values(&env)?;
        Ok(crate::agent::evaluation::evaluate_by_distance(
            policy,
            &env,
            &v.positions,
            &v.settings,
        ))
    }

    fn summary(table: &Self::Evaluation) -> String {
        format!("\n{}", table.to_text().trim_end())
    }

    fn reward(setup: &SlidingSetup, _: &DqnConfig) -> String {
        setup.reward.clone()
    }

    fn default_file(setup: &SlidingSetup) -> Result<String, DqnError> {
        let puzzle = setup.puzzle()?;
        Ok(format!("dqn-{}x{}.dqn", puzzle.rows(), puzzle.cols()))
    }

    fn fit(policy: &QPolicy, setup: &SlidingSetup) -> Result<QPolicy, DqnError> {
        policy.check_fits_or_values(&training_env(&setup.puzzle()?, 0))?;
        Ok(policy.clone())
    }
}
