//! A value network for the dust puzzle learned from the exact solver's optimal clearings, the
//! sliding puzzles' cost-to-go learner ([`super::cost_to_go`]) written for clicks: every position
//! on a proved-optimal clearing is an example with its exact number of clicks left.
//!
//! Whole 8 × 6 boards are rarely proved within seconds, but a board a few clicks into a game is
//! (after three clicks in 0.1–1.2 s, natively). So the examples come from boards part-played by a
//! mix of greedy and random clicks ([`draw_example`], in `env::samegame` with the data lines), each solved exactly under a node budget;
//! the network has to carry what it learns there back to the whole board. It reads
//! [`SameGameObservation::Counts`] (the one-hot planes, each pile's group size, and the counts
//! of groups, piles and colours, all as 0/1 inputs) and gives minus the clicks left, so that a
//! beam search keeping the boards it values most ([`super::dust::play_beam`]) plays with it.

use super::cost_to_go::{CostToGoSamples, ValueEncoding};
use crate::env::samegame::{read_data, Board, Rules, SameGameEnv, SameGameObservation};
use crate::env::Environment;

pub use crate::env::samegame::{data_line, draw_example, ExampleSettings};

/// The value network's input: the dust environment's [`SameGameObservation::Counts`].
#[derive(Clone, Debug)]
pub struct DustValue {
    template: SameGameEnv,
}

impl DustValue {
    /// The encoding of dust boards (8 × 6, 5 colours, closing toward the centre).
    pub fn new() -> DustValue {
        DustValue {
            template: SameGameEnv::new(Rules::dust())
                .expect("the dust rules are valid")
                .with_observation(SameGameObservation::Counts),
        }
    }

    /// The environment the network's input comes from.
    pub fn env(&self) -> &SameGameEnv {
        &self.template
    }
}

impl Default for DustValue {
    fn default() -> Self {
        DustValue::new()
    }
}

impl ValueEncoding for DustValue {
    type Position = Board;
    fn observation_len(&self) -> usize {
        self.template.observation_len()
    }
    fn write(&self, position: &Board, out: &mut [f32]) {
        let mut env = self.template.clone();
        env.set_board(position.clone());
        env.write_observation(out);
    }
    fn puzzle_id(&self) -> String {
        self.template.puzzle_id()
    }
}

/// Adds every position of the optimal clearing `clicks` (cells) of `start` with the clicks left
/// after it (the empty board not included). Fails, adding nothing, on a click the rules refuse or
/// a clearing that leaves piles.
pub fn push_clearing(
    samples: &mut CostToGoSamples<Board>,
    start: &Board,
    clicks: &[usize],
) -> Result<(), String> {
    let mut board = start.clone();
    let mut positions = Vec::with_capacity(clicks.len());
    for (i, &cell) in clicks.iter().enumerate() {
        positions.push(board.clone());
        board
            .click_cell(cell)
            .map_err(|e| format!("click {} (cell {cell}): {e}", i + 1))?;
    }
    if !board.is_empty() {
        return Err(format!("{} clicks leave piles on the board", clicks.len()));
    }
    if clicks.len() > u8::MAX as usize {
        return Err(format!("{} clicks is too long", clicks.len()));
    }
    let n = clicks.len();
    for (k, position) in positions.into_iter().enumerate() {
        samples.boards.push(position);
        samples.distances.push((n - k) as u8);
    }
    Ok(())
}

/// What a data file holds.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DataSummary {
    /// Example lines (drawn indices).
    pub drawn: usize,
    /// Of them, solved (their clearings added).
    pub solved: usize,
    /// Positions added (every position of every clearing).
    pub positions: usize,
}

/// Reads data lines ([`data_line`]; `#` lines are comments) into `samples`; returns what was
/// read and the indices seen. The error names the line; a bad line adds nothing.
pub fn push_data(
    samples: &mut CostToGoSamples<Board>,
    text: &str,
) -> Result<(DataSummary, Vec<usize>), String> {
    let mut summary = DataSummary::default();
    let mut indices = Vec::new();
    for (n, index, example) in read_data(text)? {
        indices.push(index);
        summary.drawn += 1;
        if let Some((board, cells)) = example {
            let before = samples.len();
            push_clearing(samples, &board, &cells).map_err(|e| format!("line {n}: {e}"))?;
            summary.solved += 1;
            summary.positions += samples.len() - before;
        }
    }
    Ok((summary, indices))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::dqn::cost_to_go::{CostToGo, CostToGoErrors};
    use crate::env::samegame::{solve_fewest_clicks, ExactLimits};

    fn settings(max_nodes: u64) -> ExampleSettings {
        ExampleSettings {
            fewest: 5,
            most: 9,
            max_nodes,
            ..ExampleSettings::default()
        }
    }

    #[test]
    fn examples_are_seeded_solved_clearings_with_the_clicks_left() {
        let mut samples = CostToGoSamples::default();
        let mut text = String::new();
        for i in 0..6 {
            let drawn = draw_example(3, i, &settings(2_000_000));
            assert_eq!(drawn, draw_example(3, i, &settings(2_000_000)), "seeded");
            let (board, clicks) = drawn.expect("boards 5–9 clicks in are proved within the budget");
            // The clearing is the exact solver's: as short as breadth-first… the solver's tests
            // check that; here it must clear the board, and no shorter one may exist.
            let again = solve_fewest_clicks(&board, ExactLimits::default(), &mut |_| true).unwrap();
            assert_eq!(again.clicks.len(), clicks.len());
            let before = samples.len();
            push_clearing(&mut samples, &board, &clicks).unwrap();
            assert_eq!(samples.len() - before, clicks.len());
            assert_eq!(samples.distances[before], clicks.len() as u8);
            assert_eq!(*samples.distances.last().unwrap(), 1);
            assert_eq!(samples.boards[before], board);
            text += &data_line(i, Some(&(board, clicks)), None);
            text.push('\n');
        }
        // A budget too small to prove anything: the position is recorded with "?".
        let unproved = draw_example(3, 0, &settings(1))
            .unwrap_err()
            .expect("a position");
        text += &format!("# a comment\n{}\n", data_line(6, None, Some(&unproved)));
        text += &format!("{}\n", data_line(7, None, None));
        let mut read = CostToGoSamples::default();
        let (summary, indices) = push_data(&mut read, &text).unwrap();
        assert_eq!(indices, (0..8).collect::<Vec<_>>());
        assert_eq!(
            (summary.drawn, summary.solved, summary.positions),
            (8, 6, samples.len())
        );
        assert_eq!(read.boards, samples.boards);
        assert_eq!(read.distances, samples.distances);
    }

    #[test]
    fn bad_data_lines_are_refused_by_line_and_add_nothing() {
        let (board, clicks) = draw_example(4, 0, &settings(2_000_000)).unwrap();
        let good = data_line(0, Some(&(board.clone(), clicks.clone())), None);
        let mut short = clicks.clone();
        short.pop();
        let bad = [
            (format!("{good}\nx"), "line 2: expected"),
            ("zero 1 2".to_string(), "line 1: \"zero\" is not an index"),
            (
                data_line(1, Some(&(board.clone(), short)), None),
                "leave piles",
            ),
            (good.replace(' ', " 9"), "line 1:"),
            (format!("{good} extra"), "line 1: expected"),
            (
                format!("3 {} 99", board.to_text().trim_end().replace('\n', "/")),
                "line 1: click 1",
            ),
        ];
        for (text, message) in bad {
            let mut samples = CostToGoSamples::default();
            let before_error = text.lines().count() > 1;
            let err = push_data(&mut samples, &text).unwrap_err();
            assert!(err.contains(message), "{err} for {text}");
            if !before_error {
                assert!(samples.is_empty(), "{text}");
            }
        }
    }

    #[test]
    fn the_value_network_learns_the_clicks_left() {
        let mut samples = CostToGoSamples::default();
        for i in 0..40 {
            if let Ok((board, clicks)) = draw_example(6, i, &settings(300_000)) {
                push_clearing(&mut samples, &board, &clicks).unwrap();
            }
        }
        assert!(samples.len() >= 150, "{} examples", samples.len());
        let mut learner = CostToGo::new(DustValue::new(), &[64, 64], 1);
        let before = CostToGoErrors::of(&learner.estimates(&samples.boards), &samples.distances);
        for _ in 0..60 {
            learner.train_epoch(&samples, 32, 2e-3, 1.0);
        }
        let after = CostToGoErrors::of(&learner.estimates(&samples.boards), &samples.distances);
        assert!(after.mean_absolute < 0.6, "{after:?}");
        assert!(
            after.mean_absolute < before.mean_absolute / 5.0,
            "{before:?} → {after:?}"
        );
        // Saved and read back, the model plays: a beam over its values clears boards, and the
        // same board renamed and mirrored gets a clearing of the same length.
        let policy = crate::agent::dqn::QPolicy::from_bytes(
            &learner.policy().to_bytes(),
            &burn::tensor::Device::flex(),
        )
        .unwrap();
        let board = Board::random(Rules::dust(), 77).unwrap();
        let w = board.width();
        let mut mirrored = vec![0u8; board.cells().len()];
        for (i, &c) in board.cells().iter().enumerate() {
            let (row, col) = (i / w, i % w);
            mirrored[row * w + (w - 1 - col)] = if c == 0 { 0 } else { 6 - c };
        }
        let mirrored = Board::from_cells(*board.rules(), mirrored).unwrap();
        let lines =
            crate::agent::dqn::dust::play_beam(&policy, &[board.clone(), mirrored], 5).unwrap();
        assert_eq!(lines[0].len(), lines[1].len());
        let mut replay = board;
        for &cell in &lines[0] {
            replay.click_cell(cell).unwrap();
        }
        assert!(replay.is_empty());
    }
}
