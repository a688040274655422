//! Minesweeper as an [`Environment`]: one action per cell (reveal it), the legal ones the
//! covered cells; observations and rewards of Mehta's paper as options.

use super::board::{Cell, FirstClick, Layout, Minefield, MinefieldState, MinesError, Status};
use crate::env::{Environment, Step};

/// How a board is shown to a learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Observation {
    /// Mehta's "condensed" encoding: two planes (channel-major, `[2, height, width]`): the
    /// revealed number divided by 8 (0 on covered cells), and 1 on covered cells.
    Condensed,
    /// Mehta's one-hot encoding: ten planes: numbers 1 to 8, a revealed 0, covered.
    OneHot,
}

impl Observation {
    /// Planes of the encoding.
    pub fn channels(self) -> usize {
        match self {
            Observation::Condensed => 2,
            Observation::OneHot => 10,
        }
    }

    /// Writes the encoding of a board that looks like `cells` into `out` (`channels() ×
    /// cells.len()` values, channel-major); flags and marks read as covered. What [`Minesweeper`]
    /// shows a learner, and what a model is shown of a position known only by its look (the page's
    /// board).
    pub fn write(self, cells: &[Cell], out: &mut [f32]) {
        let plane = cells.len();
        out.fill(0.0);
        for (cell, look) in cells.iter().enumerate() {
            match (self, *look) {
                (Observation::Condensed, Cell::Revealed(n)) => out[cell] = n as f32 / 8.0,
                (Observation::Condensed, _) => out[plane + cell] = 1.0,
                (Observation::OneHot, Cell::Revealed(0)) => out[8 * plane + cell] = 1.0,
                (Observation::OneHot, Cell::Revealed(n)) => {
                    out[(n as usize - 1) * plane + cell] = 1.0
                }
                (Observation::OneHot, _) => out[9 * plane + cell] = 1.0,
            }
        }
    }
}

/// What a step earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MinesReward {
    /// +1 for the move that wins, −1 for the one that loses, 0 otherwise.
    Outcome,
    /// Win +cells, loss −cells, a safe reveal (progress) +1, a revealed cell picked again −0.5, a
    /// safe reveal with no revealed neighbour (a blind guess) −0.5: the rewards of Mehta's RL
    /// paper for constraint-satisfaction games (docs/sources.md). Serialized `progress`; the name
    /// written before the rename, `mehta`, still reads.
    #[serde(alias = "mehta")]
    Progress,
}

/// Minesweeper's rules and encodings for a learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinesConfig {
    /// Size and mines.
    pub layout: Layout,
    /// The first-click rule.
    pub first_click: FirstClick,
    /// The observation encoding.
    pub observation: Observation,
    /// The reward scheme.
    pub reward: MinesReward,
}

impl MinesConfig {
    /// `layout` with a safe first click, the condensed encoding and the win/loss reward.
    pub fn new(layout: Layout) -> MinesConfig {
        MinesConfig {
            layout,
            first_click: FirstClick::Safe,
            observation: Observation::Condensed,
            reward: MinesReward::Outcome,
        }
    }
}

/// Minesweeper as an environment. Action `row · width + col` reveals that cell.
#[derive(Clone, Debug)]
pub struct Minesweeper {
    config: MinesConfig,
    game: Minefield,
}

impl Minesweeper {
    /// A game under `config` (checked), reset with seed 0.
    pub fn new(config: MinesConfig) -> Result<Minesweeper, MinesError> {
        let game = Minefield::new(config.layout, config.first_click, 0)?;
        Ok(Minesweeper { config, game })
    }

    /// The rules and encodings.
    pub fn config(&self) -> &MinesConfig {
        &self.config
    }

    /// The game being played.
    pub fn game(&self) -> &Minefield {
        &self.game
    }
}

impl Environment for Minesweeper {
    type State = MinefieldState;

    fn num_actions(&self) -> usize {
        self.config.layout.cells()
    }

    fn reset(&mut self, seed: u64) {
        self.game = Minefield::new(self.config.layout, self.config.first_click, seed)
            .expect("the layout was checked when the environment was made");
    }

    fn state(&self) -> MinefieldState {
        self.game.snapshot()
    }

    fn action_mask(&self, mask: &mut [bool]) {
        let over = self.game.is_over();
        for (slot, cell) in mask.iter_mut().zip(self.game.cells()) {
            *slot = !over && !matches!(cell, Cell::Revealed(_));
        }
    }

    fn step(&mut self, action: usize) -> Step {
        let layout = self.config.layout;
        let legal = !self.game.is_over() && !matches!(self.game.cells()[action], Cell::Revealed(_));
        let blind = legal
            && layout
                .neighbours(action)
                .iter()
                .all(|n| !matches!(self.game.cells()[n], Cell::Revealed(_)));
        if legal && self.game.cells()[action] == Cell::Flagged {
            // A learner never flags; a flag left by a person does not block its reveal.
            self.game
                .toggle_flag(action, false)
                .expect("the action is a cell");
        }
        if legal {
            self.game.reveal(action).expect("the action is a cell");
        }
        let cells = layout.cells() as f32;
        let reward = match (self.config.reward, self.game.status()) {
            (MinesReward::Outcome, _) if !legal => 0.0,
            (MinesReward::Progress, _) if !legal => -0.5,
            (MinesReward::Outcome, Status::Won) => 1.0,
            (MinesReward::Outcome, Status::Lost(_)) => -1.0,
            (MinesReward::Outcome, _) => 0.0,
            (MinesReward::Progress, Status::Won) => cells,
            (MinesReward::Progress, Status::Lost(_)) => -cells,
            (MinesReward::Progress, _) if blind => -0.5,
            (MinesReward::Progress, _) => 1.0,
        };
        Step {
            reward,
            terminated: self.game.is_over(),
            truncated: false,
        }
    }

    fn is_terminal(&self) -> bool {
        self.game.is_over()
    }

    fn validate(&self) -> Result<(), String> {
        let layout = self.config.layout;
        let game = &self.game;
        let mines = (0..layout.cells()).filter(|&c| game.is_mine(c)).count();
        if game.mines_placed() && mines != layout.mines {
            return Err(format!(
                "{mines} mines placed, the layout has {}",
                layout.mines
            ));
        }
        let mut covered_safe = 0;
        for (cell, look) in game.cells().iter().enumerate() {
            match *look {
                Cell::Revealed(n) => {
                    if game.is_mine(cell) {
                        return Err(format!("mine {cell} is shown revealed"));
                    }
                    if n != game.mines_around(cell) {
                        return Err(format!("cell {cell} shows {n}"));
                    }
                    // A revealed 0 reveals its neighbours (a flag stops the fill).
                    if n == 0
                        && layout
                            .neighbours(cell)
                            .iter()
                            .any(|x| matches!(game.cells()[x], Cell::Covered | Cell::Marked))
                    {
                        return Err(format!("the 0 at {cell} has covered neighbours"));
                    }
                }
                _ if !game.is_mine(cell) => covered_safe += 1,
                _ => {}
            }
        }
        if game.mines_placed() && covered_safe != game.covered_safe() {
            return Err(format!(
                "{covered_safe} safe cells covered, the game counts {}",
                game.covered_safe()
            ));
        }
        if (game.status() == Status::Won) != (game.mines_placed() && covered_safe == 0) {
            return Err("won exactly when every safe cell is revealed".into());
        }
        Ok(())
    }

    fn observation_len(&self) -> usize {
        self.config.observation.channels() * self.config.layout.cells()
    }

    fn write_observation(&self, out: &mut [f32]) {
        self.config.observation.write(self.game.cells(), out);
    }

    fn puzzle_id(&self) -> String {
        let l = self.config.layout;
        let encoding = match self.config.observation {
            Observation::Condensed => "condensed",
            Observation::OneHot => "onehot",
        };
        format!(
            "minesweeper-{}x{}-{}-{encoding}",
            l.width, l.height, l.mines
        )
    }

    fn after(&self, action: usize) -> Option<(Self, Step)> {
        crate::env::cloned_after(self, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_reward_serializes_by_its_behaviour_and_reads_its_older_name() {
        crate::env::assert_named(MinesReward::Progress, "progress", &["mehta"]);
    }
}
