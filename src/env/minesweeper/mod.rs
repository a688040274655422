//! Minesweeper: the game ([`Minefield`]), the game as an environment ([`Minesweeper`]), an exact
//! probability solver ([`analyse`]) and the solver as a player ([`choose`], [`play_solver_game`]).
//!
//! The rules are Windows Minesweeper's: revealing a mine loses; revealing a safe cell shows how
//! many of its (up to eight) neighbours are mines, and a 0 reveals its neighbours in turn (the
//! flood fill); the game is won when every safe cell is revealed. Chording on a number with as
//! many flags around it reveals its other neighbours. The first-click rule ([`FirstClick`])
//! decides whether the first reveal can hit a mine (`none`), cannot (`safe`: the mines are placed
//! after it, never on it) or always opens (`opening`: never on it nor its neighbours).
//!
//! Files: `board.rs` (layouts, levels, the game, the board text), `environment.rs` (actions,
//! observations and rewards for learners), `solver.rs` (exact probabilities), `play.rs` (the
//! solver's moves, games and seeded evaluation), `endgame.rs` (the exhaustive endgame search),
//! `fifty.rs` (forced 50/50s).

mod board;
mod endgame;
mod environment;
mod fifty;
mod play;
mod solver;

pub use board::{
    Cell, FirstClick, Layout, Level, Minefield, MinefieldState, MinesError, Neighbours, Outcome,
    Status, MAX_SIDE, NO_GUESS_ATTEMPTS,
};
pub use endgame::{endgame_guess, MAX_PLACEMENTS};
pub use environment::{MinesConfig, MinesReward, Minesweeper, Observation};
pub use play::{
    choose, choose_from, evaluate, game_seed, play_solver_game, wilson_95, Choice, Evaluation,
    Fatal, FirstCell, GameResult, Losses, Reason, Strategy, Tally,
};
pub use solver::{analyse, certain_safe, Analysis, Inconsistent};

#[cfg(test)]
mod tests;
