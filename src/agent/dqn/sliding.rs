//! The sliding puzzle's deep Q-learner: the dissertation's set-up of [`Dqn`] on [`SlidingEnv`]
//! (random walks back from the goal, its reward, its curriculum), shared by `puzzlelab sliding train` and
//! the page's training worker so that both train the same way.

use super::{Curriculum, Dqn, DqnConfig, DqnError, DqnStats, QPolicy};
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
