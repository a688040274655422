//! The dust puzzle and SameGame: one board ([`Board`]) under two rule sets ([`Rules::dust`],
//! [`Rules::samegame`]), the game as an environment ([`SameGameEnv`]), the exact solver of the
//! fewest clicks ([`solve_fewest_clicks`]) and SameGame's Monte Carlo searches
//! ([`nested_search`], [`nrpa`]).
//!
//! Clicking a pile removes its group (every pile of its colour joined to it through edge
//! neighbours) when the group is at least the rules' smallest (1 for dust, 2 for SameGame); the
//! piles above fall, and empty columns close: toward the centre for dust (each half of the board
//! closes in toward the cut between its middle columns), to the left for SameGame.
//!
//! Files: `board.rs` (rules, the board, clicks, the board text), `environment.rs` (the blog's
//! observation and rewards), `exact.rs` (fewest clicks, proved), `montecarlo.rs` (nested Monte
//! Carlo search and NRPA), `tests.rs`.

mod board;
mod environment;
mod exact;
mod montecarlo;
mod rules;
mod solved;

pub use board::{
    closed_positions, group_score, Board, BoardError, Closing, Objective, Removal, Rules,
    CLEAR_BONUS, MAX_COLOURS, MAX_SIDE,
};
pub use environment::{write_one_hot, SameGameEnv, SameGameObservation, SameGameReward};
pub use exact::{
    exact_supports, solve_fewest_clicks, ExactError, ExactLimits, ExactProgress, ExactSolution,
    EXACT_MAX_CELLS, EXACT_MAX_COLOURS, EXACT_MAX_HEIGHT,
};
pub use montecarlo::{nested_search, nrpa, McLimits, McProgress, McResult};
pub use solved::{data_line, draw_example, read_data, DataEntry, ExampleSettings};

#[cfg(test)]
mod tests;
