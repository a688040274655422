//! The dust puzzle and SameGame as an [`Environment`]: one action per cell (click it), the legal
//! ones the piles whose group the rules let a click remove; the blog's one-hot observation and
//! rewards.

use super::board::{Board, BoardError, Objective, Rules};
use crate::env::{Environment, Step};

/// What a step earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClustersReward {
    /// The blog's: +10 for the click that clears the board, −10 for a click on an empty cell (or a
    /// group too small), −1 for every other click.
    Blog,
    /// SameGame's points for the click ((n − 2)², +1,000 for clearing); 0 for an illegal click.
    Score,
}

/// What the agent sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClustersObservation {
    /// The blog's one-hot planes: empty, then one per colour.
    OneHot,
    /// The one-hot planes and three more: each pile's group size (/ 16, at most 1), the number
    /// of groups left (/ 16, every cell) and of colours left (/ colours, every cell): what the
    /// greedy rule counts, given to the network rather than left for it to learn.
    Features,
}

/// Planes [`ClustersObservation::Features`] adds to the one-hot ones.
const FEATURE_PLANES: usize = 3;

/// The puzzle as an environment. Action `row · width + col` clicks that cell (row 0 at the top).
#[derive(Clone, Debug)]
pub struct Clusters {
    rules: Rules,
    reward: ClustersReward,
    board: Board,
    start_clicks: usize,
    observation: ClustersObservation,
}

impl Clusters {
    /// An environment under `rules` (checked), with the reward its objective suggests (the blog's
    /// for clicks, the points for the score), reset with seed 0.
    pub fn new(rules: Rules) -> Result<Clusters, BoardError> {
        let board = Board::random(rules, 0)?;
        let reward = match rules.objective {
            Objective::Clicks => ClustersReward::Blog,
            Objective::Score => ClustersReward::Score,
        };
        Ok(Clusters {
            rules,
            reward,
            board,
            start_clicks: 0,
            observation: ClustersObservation::OneHot,
        })
    }

    /// The same environment with another observation.
    pub fn with_observation(mut self, observation: ClustersObservation) -> Clusters {
        self.observation = observation;
        self
    }

    /// The same environment with another reward scheme.
    pub fn with_reward(mut self, reward: ClustersReward) -> Clusters {
        self.reward = reward;
        self
    }

    /// The same environment whose [`Environment::reset`] plays a whole game from the random
    /// board (each click the greedy one or a random pile, half and half, until one group is
    /// left) and hands over the board after a number of its clicks drawn uniformly from 0 to
    /// `clicks` (or the game's length), so that a learner drawing fresh starts sees boards of
    /// every stage of a game, its last click included (0: the random full board).
    pub fn with_start_clicks(mut self, clicks: usize) -> Clusters {
        self.start_clicks = clicks;
        self
    }

    /// Starts from `board` (its rules must be this environment's).
    pub fn set_board(&mut self, board: Board) {
        assert_eq!(
            board.rules(),
            &self.rules,
            "the board's rules are the environment's"
        );
        self.board = board;
    }

    /// The board being played.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Planes of the observation: empty, then one per colour (and the features' planes).
    pub fn channels(&self) -> usize {
        self.rules.colours as usize
            + 1
            + match self.observation {
                ClustersObservation::OneHot => 0,
                ClustersObservation::Features => FEATURE_PLANES,
            }
    }
}

/// Writes the blog's one-hot encoding of `cells` (row-major, 0 empty) into `out`: `colours + 1`
/// planes, channel-major (`[colours + 1, height, width]`), plane 0 the empty cells.
pub fn write_one_hot(cells: &[u8], colours: u8, out: &mut [f32]) {
    let plane = cells.len();
    assert_eq!(out.len(), plane * (colours as usize + 1));
    out.fill(0.0);
    for (i, &c) in cells.iter().enumerate() {
        out[c.min(colours) as usize * plane + i] = 1.0;
    }
}

impl Environment for Clusters {
    type State = Vec<u8>;

    fn num_actions(&self) -> usize {
        self.rules.width * self.rules.height
    }

    fn reset(&mut self, seed: u64) {
        self.board = Board::random(self.rules, seed).expect("the rules were checked");
        if self.start_clicks == 0 {
            return;
        }
        // A whole game, each click the greedy one or a random pile, up to the last group ...
        let mut rng = crate::rng::Rng::new(seed ^ 0x5747_C11C_0000_0001);
        let mut board = self.board.clone();
        let mut game = Vec::new();
        while board.groups().len() > 1 {
            let cell = if rng.chance(0.5) {
                board.greedy_click().expect("a group is left")
            } else {
                rng.choose(&board.moves())[0]
            };
            board.click_cell(cell).expect("a legal group");
            game.push(cell);
        }
        // ... and the board after a uniformly drawn number of its clicks.
        let clicks = rng.below(game.len().min(self.start_clicks) + 1);
        for &cell in &game[..clicks] {
            self.board.click_cell(cell).expect("the same game");
        }
    }

    fn state(&self) -> Vec<u8> {
        self.board.cells().to_vec()
    }

    fn action_mask(&self, mask: &mut [bool]) {
        mask.fill(false);
        if self.board.is_over() {
            return;
        }
        for group in self.board.moves() {
            for cell in group {
                mask[cell] = true;
            }
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let legal = !self.board.is_over() && self.board.is_legal(action);
        let removal = if legal {
            Some(self.board.click_cell(action).expect("a legal click"))
        } else {
            None
        };
        let over = self.board.is_over();
        let reward = match (self.reward, &removal) {
            (ClustersReward::Blog, None) => -10.0,
            (ClustersReward::Blog, Some(_)) if self.board.is_empty() => 10.0,
            (ClustersReward::Blog, Some(_)) => -1.0,
            (ClustersReward::Score, None) => 0.0,
            (ClustersReward::Score, Some(r)) => {
                let gained = super::board::group_score(r.cells.len())
                    + if self.board.is_empty() {
                        super::board::CLEAR_BONUS
                    } else {
                        0
                    };
                gained as f32
            }
        };
        Step {
            reward,
            terminated: over,
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.board.is_over()
    }

    fn validate(&self) -> Result<(), String> {
        Board::from_cells(self.rules, self.board.cells().to_vec())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn observation_len(&self) -> usize {
        self.channels() * self.num_actions()
    }

    fn write_observation(&self, out: &mut [f32]) {
        let cells = self.board.cells();
        let one_hot = cells.len() * (self.rules.colours as usize + 1);
        write_one_hot(cells, self.rules.colours, &mut out[..one_hot]);
        if self.observation == ClustersObservation::Features {
            let planes = &mut out[one_hot..];
            let plane = cells.len();
            let groups = self.board.groups();
            for group in &groups {
                let size = (group.len() as f32 / 16.0).min(1.0);
                for &cell in group {
                    planes[cell] = size;
                }
            }
            for cell in 0..plane {
                if cells[cell] == 0 {
                    planes[cell] = 0.0;
                }
            }
            planes[plane..2 * plane].fill(groups.len() as f32 / 16.0);
            planes[2 * plane..3 * plane]
                .fill(self.board.colours_left() as f32 / self.rules.colours as f32);
        }
    }

    fn puzzle_id(&self) -> String {
        match self.observation {
            ClustersObservation::OneHot => self.rules.id(),
            ClustersObservation::Features => format!("{}-features", self.rules.id()),
        }
    }

    fn after(&self, action: usize) -> Option<(Self, Step)> {
        let mut next = self.clone();
        let step = next.step(action);
        Some((next, step))
    }
}
