//! A puzzle's deep Q-learner described once ([`PuzzleLearner`]): how to make its environments,
//! the networks it offers and their settings, how it is validated, what its manifest records and
//! how a model file is checked against it. The CLI's `train`/`eval` (src/bin/puzzlelab/learner.rs)
//! and the learning bundle's one trainer and one model class (src/web/learner.rs) are built over
//! this description for every learnable puzzle; each puzzle's description sits beside its learner
//! (`agent::dqn::{game2048, minesweeper, sudoku, dust}`).
//!
//! A learner whose episodes change as it learns (the sliding puzzles' curriculum, which raises
//! the random walks' difficulty) does so between chunks ([`PuzzleLearner::after_chunk`]). The
//! learners that are not DQNs (n-tuple TD on 2048, local value iteration, the cost-to-go network)
//! learn by other rules from other files (no replay, no Q-values) and keep their own trainers over
//! the same chunked driver.

use super::{Dqn, DqnConfig, DqnError, DqnStats, QPolicy, ReplayBuffer};
use crate::env::Environment;
use serde::{de::DeserializeOwned, Serialize};

/// A network (and the learner set up around it) that a puzzle offers.
#[derive(Clone, Copy, Debug)]
pub struct NetworkChoice {
    /// Its name: the CLI's `--net`, the page's `net`, the manifest's.
    pub name: &'static str,
    /// Former names still read (commands and manifests written before a rename).
    pub aliases: &'static [&'static str],
    /// What it is, in a sentence (the manifest's `what` after the puzzle's name).
    pub about: &'static str,
}

impl NetworkChoice {
    /// The network `name`, `about` it in a sentence, with no former names.
    pub const fn new(name: &'static str, about: &'static str) -> NetworkChoice {
        NetworkChoice {
            name,
            aliases: &[],
            about,
        }
    }

    /// The same, also read under its former names.
    pub const fn formerly(self, aliases: &'static [&'static str]) -> NetworkChoice {
        NetworkChoice { aliases, ..self }
    }
}

/// Finds `name` among `networks` by name or alias; the error lists the names.
pub fn network_named(
    networks: &'static [NetworkChoice],
    name: &str,
) -> Result<&'static NetworkChoice, DqnError> {
    networks
        .iter()
        .find(|n| n.name == name || n.aliases.contains(&name))
        .ok_or_else(|| {
            let names: Vec<&str> = networks.iter().map(|n| n.name).collect();
            DqnError::InvalidSetup(format!(
                "unknown network \"{name}\": {}",
                names.join(" or ")
            ))
        })
}

/// A puzzle's deep Q-learner, described once for the CLI and the learning bundle.
pub trait PuzzleLearner: 'static {
    /// The environment it trains on.
    type Env: Environment + 'static;
    /// The board, rules and network a run is set up with: what the CLI's flags and the page's
    /// options give (snake_case fields, read in camelCase too), what the manifest records under
    /// `setup` and what `--resume` reads back. Missing fields take their defaults.
    type Setup: Serialize + DeserializeOwned + Clone + std::fmt::Debug + Default;
    /// The validation set, made once a run (seeded games, binned puzzles, boards).
    type Validation;
    /// One evaluation: the manifest's `validation`, a training-curve point's fields, the page's
    /// report.
    type Evaluation: Serialize + Clone + std::fmt::Debug;

    /// Its puzzle's id in the registry ([`crate::puzzles`]).
    const PUZZLE: &'static str;
    /// The puzzle in a sentence ("the model plays …, not the dust puzzle").
    const NAME: &'static str;
    /// The networks it offers; the first is the default.
    const NETWORKS: &'static [NetworkChoice];
    /// The seed of the validation games of training runs (reports use fresh seeds).
    const VALIDATION_SEED: u64;
    /// The validation set's size when none is asked for (games, boards, puzzles a bin).
    const VALIDATION_SIZE: usize;
    /// What its episodes are called in a progress line (`games`, `episodes`).
    const EPISODES: &'static str = "episodes";
    /// The manifest key older manifests recorded the setup under (they resume too; `""`: the
    /// manifest's own top-level fields).
    const OLDER_SETUP_KEY: Option<&'static str> = None;

    /// The network `setup` names (by its current name).
    fn network(setup: &Self::Setup) -> Result<&'static NetworkChoice, DqnError>;

    /// The learner's settings for `setup`: what the CLI's and the page's options are laid over.
    fn config(setup: &Self::Setup) -> Result<DqnConfig, DqnError>;

    /// After the options were laid over [`PuzzleLearner::config`] (or a resumed model's settings
    /// were read): `setup` made whole and checked against `config` (a pool's seed from the run's
    /// seed, a network told by the settings), and the settings the network depends on kept.
    fn settle(setup: &mut Self::Setup, config: &mut DqnConfig) -> Result<(), DqnError> {
        let _ = (setup, config);
        Ok(())
    }

    /// The environments of a run of `setup`: one is made per environment, plus one to evaluate.
    fn environments(setup: &Self::Setup) -> Result<Box<dyn FnMut() -> Self::Env>, DqnError>;

    /// After the learner is made or resumed: where its episodes start, when the setup says more
    /// than the environments were made with (the sliding walks' mixed difficulties).
    fn start(setup: &Self::Setup, dqn: &mut Dqn<Self::Env>) -> Result<(), DqnError> {
        let _ = (setup, dqn);
        Ok(())
    }

    /// After each chunk (`stats`): a learner whose episodes change as it learns (the sliding
    /// curriculum) changes them and records it in `setup`; returns what the progress line adds.
    fn after_chunk(
        setup: &mut Self::Setup,
        dqn: &mut Dqn<Self::Env>,
        stats: &DqnStats,
    ) -> Option<String> {
        let _ = (setup, dqn, stats);
        None
    }

    /// The validation set: `size` games (boards, puzzles a bin) drawn from `seed`.
    fn validation(
        setup: &Self::Setup,
        size: usize,
        seed: u64,
    ) -> Result<Self::Validation, DqnError>;

    /// How many games (boards, puzzles) `validation` holds.
    fn validation_len(validation: &Self::Validation) -> usize;

    /// `policy`'s greedy play on `validation`.
    fn evaluate(
        policy: &QPolicy,
        validation: &Self::Validation,
    ) -> Result<Self::Evaluation, DqnError>;

    /// An evaluation in a line: "won 58.2% [53.8, 62.4], 2.09 guesses a game".
    fn summary(evaluation: &Self::Evaluation) -> String;

    /// The reward `setup` trains with, in words (the manifest's `reward`).
    fn reward(setup: &Self::Setup, config: &DqnConfig) -> String;

    /// The default model file of a run of `setup`: the puzzle and the network, `.dqn`.
    fn default_file(setup: &Self::Setup) -> Result<String, DqnError> {
        Ok(format!(
            "{}-{}.dqn",
            Self::PUZZLE,
            Self::network(setup)?.name
        ))
    }

    /// The demonstrator file `setup` names, if it asks for demonstrations (DQfD,
    /// `demonstrations.rs`); the caller reads it and hands its bytes to
    /// [`PuzzleLearner::demonstrations`].
    fn demonstrator(setup: &Self::Setup) -> Option<&str> {
        let _ = setup;
        None
    }

    /// The model file whose own games' states the demonstrator labels (DAgger), if `setup` asks
    /// for them; the caller reads it and hands its bytes to [`PuzzleLearner::demonstrations`].
    fn labelled_player(setup: &Self::Setup) -> Option<&str> {
        let _ = setup;
        None
    }

    /// The transitions `setup`'s demonstrator plays, from the demonstrator file's bytes
    /// (uncompressed), and those it labels in the labelled player's games (that model file's
    /// bytes); learners without a demonstrator say so. `setup` records the files' checksums
    /// where it has none (a new run), and a file that has changed since they were recorded (a
    /// resumed run) is refused.
    fn demonstrations(
        setup: &mut Self::Setup,
        demonstrator: &[u8],
        labelled_player: Option<&[u8]>,
    ) -> Result<ReplayBuffer, DqnError> {
        let _ = (setup, demonstrator, labelled_player);
        Err(DqnError::InvalidSetup(format!(
            "the {} learner has no demonstrator to learn from",
            Self::NAME
        )))
    }

    /// `policy` ready to play `setup`'s puzzle: itself when it fits, or an error saying why not
    /// (a fully convolutional Minesweeper model is resized to the board).
    fn fit(policy: &QPolicy, setup: &Self::Setup) -> Result<QPolicy, DqnError> {
        let mut make = Self::environments(setup)?;
        policy.check_fits(&make())?;
        Ok(policy.clone())
    }
}

/// The manifest's `what`: the format, the puzzle and the network.
pub fn model_description<L: PuzzleLearner>(setup: &L::Setup) -> Result<String, DqnError> {
    Ok(format!(
        "puzzlelab DQN model (format version {}): {}, {}",
        super::MODEL_FORMAT_VERSION,
        L::PUZZLE,
        L::network(setup)?.about
    ))
}
