//! The dust puzzle and SameGame as an [`Environment`]: one action per cell (click it), the legal
//! ones the piles whose group the rules let a click remove; the blog's one-hot observation and
//! rewards.

use super::board::{Board, BoardError, Objective, Rules};
use crate::env::{Environment, Step};

/// What a step earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SameGameReward {
    /// −1 for every click, +10 for the click that clears the board, −10 for a click on an empty
    /// cell (or a group too small): the rewards of the dust-puzzle blog post (docs/sources.md).
    /// Serialized `click-cost`; the name written before the rename, `blog`, still reads.
    #[serde(rename = "click-cost", alias = "blog")]
    ClickCost,
    /// SameGame's points for the click ((n − 2)², +1,000 for clearing); 0 for an illegal click.
    Score,
}

/// What the agent sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SameGameObservation {
    /// The blog's one-hot planes: empty, then one per colour.
    OneHot,
    /// The one-hot planes and three more: each pile's group size (/ 16, at most 1), the number
    /// of groups left (/ 16, every cell) and of colours left (/ colours, every cell): what the
    /// greedy rule counts, given to the network rather than left for it to learn.
    Features,
    /// The board up to colour names and mirror image ([`Board::canonical`]): its one-hot planes,
    /// four planes of each pile's group size (1, 2, 3–4, 5 or more: one-hot), then counts
    /// written one-hot: the groups left, the piles left, the colours left, and each
    /// colour's groups (15 or more counted as 15). The cells are the canonical board's, possibly
    /// mirrored: it is made for a network that values the board (one output), not one per cell.
    /// Every input is 0 or 1, so a dense first layer over it is a sum of a hundred or so weight
    /// rows (what the value network of `agent::dqn::dust_value` reads).
    Counts,
}

/// Planes [`SameGameObservation::Features`] adds to the one-hot ones.
const FEATURE_PLANES: usize = 3;
/// Planes [`SameGameObservation::Counts`] adds to the one-hot ones.
const SIZE_PLANES: usize = 4;
/// The most groups of one colour [`SameGameObservation::Counts`] tells apart.
const COLOUR_GROUPS: usize = 16;

/// The puzzle as an environment. Action `row · width + col` clicks that cell (row 0 at the top).
#[derive(Clone, Debug)]
pub struct SameGameEnv {
    rules: Rules,
    reward: SameGameReward,
    board: Board,
    start_clicks: usize,
    observation: SameGameObservation,
}

impl SameGameEnv {
    /// An environment under `rules` (checked), with the reward its objective suggests
    /// ([`SameGameReward::ClickCost`] for clicks, the points for the score), reset with seed 0.
    pub fn new(rules: Rules) -> Result<SameGameEnv, BoardError> {
        let board = Board::random(rules, 0)?;
        let reward = match rules.objective {
            Objective::Clicks => SameGameReward::ClickCost,
            Objective::Score => SameGameReward::Score,
        };
        Ok(SameGameEnv {
            rules,
            reward,
            board,
            start_clicks: 0,
            observation: SameGameObservation::OneHot,
        })
    }

    /// The same environment with another observation.
    pub fn with_observation(mut self, observation: SameGameObservation) -> SameGameEnv {
        self.observation = observation;
        self
    }

    /// The same environment with another reward scheme.
    pub fn with_reward(mut self, reward: SameGameReward) -> SameGameEnv {
        self.reward = reward;
        self
    }

    /// The same environment whose [`Environment::reset`] plays a whole game from the random
    /// board (each click the greedy one or a random pile, half and half, until one group is
    /// left) and hands over the board after a number of its clicks drawn uniformly from 0 to
    /// `clicks` (or the game's length), so that a learner drawing fresh starts sees boards of
    /// every stage of a game, its last click included (0: the random full board).
    pub fn with_start_clicks(mut self, clicks: usize) -> SameGameEnv {
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
                SameGameObservation::OneHot => 0,
                SameGameObservation::Features => FEATURE_PLANES,
                SameGameObservation::Counts => SIZE_PLANES,
            }
    }

    /// Inputs after the planes ([`SameGameObservation::Counts`]'s one-hot counts; 0 otherwise).
    fn tail_len(&self) -> usize {
        let cells = self.rules.width * self.rules.height;
        let colours = self.rules.colours as usize;
        match self.observation {
            SameGameObservation::Counts => 2 * (cells + 1) + colours + 1 + colours * COLOUR_GROUPS,
            _ => 0,
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

impl Environment for SameGameEnv {
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
            (SameGameReward::ClickCost, None) => -10.0,
            (SameGameReward::ClickCost, Some(_)) if self.board.is_empty() => 10.0,
            (SameGameReward::ClickCost, Some(_)) => -1.0,
            (SameGameReward::Score, None) => 0.0,
            (SameGameReward::Score, Some(r)) => {
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
        self.channels() * self.num_actions() + self.tail_len()
    }

    fn write_observation(&self, out: &mut [f32]) {
        let canonical;
        let board = if self.observation == SameGameObservation::Counts {
            canonical = self.board.canonical();
            &canonical
        } else {
            &self.board
        };
        let cells = board.cells();
        let one_hot = cells.len() * (self.rules.colours as usize + 1);
        write_one_hot(cells, self.rules.colours, &mut out[..one_hot]);
        if self.observation == SameGameObservation::Features {
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
        if self.observation == SameGameObservation::Counts {
            let rest = &mut out[one_hot..];
            rest.fill(0.0);
            let plane = cells.len();
            let colours = self.rules.colours as usize;
            let groups = board.groups();
            let mut per_colour = vec![0usize; colours + 1];
            for group in &groups {
                let size = match group.len() {
                    1 => 0,
                    2 => 1,
                    3 | 4 => 2,
                    _ => 3,
                };
                for &cell in group {
                    rest[size * plane + cell] = 1.0;
                }
                per_colour[cells[group[0]].min(self.rules.colours) as usize] += 1;
            }
            let tail = &mut rest[SIZE_PLANES * plane..];
            let piles = cells.iter().filter(|&&c| c != 0).count();
            tail[groups.len().min(plane)] = 1.0;
            tail[plane + 1 + piles] = 1.0;
            let at = 2 * (plane + 1);
            tail[at + board.colours_left().min(colours)] = 1.0;
            let at = at + colours + 1;
            for c in 1..=colours {
                let k = per_colour[c].min(COLOUR_GROUPS - 1);
                tail[at + (c - 1) * COLOUR_GROUPS + k] = 1.0;
            }
        }
    }

    fn puzzle_id(&self) -> String {
        match self.observation {
            SameGameObservation::OneHot => self.rules.id(),
            SameGameObservation::Features => format!("{}-features", self.rules.id()),
            SameGameObservation::Counts => format!("{}-counts", self.rules.id()),
        }
    }

    fn after(&self, action: usize) -> Option<(Self, Step)> {
        crate::env::cloned_after(self, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_click_cost_reward_serializes_by_its_behaviour_and_reads_its_older_name() {
        crate::env::assert_named(SameGameReward::ClickCost, "click-cost", &["blog"]);
    }
}
