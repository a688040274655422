//! Part-played boards solved exactly: the examples of the dust puzzle's value network
//! (`agent::dqn::dust_value`) and their data lines (`puzzlelab dust value-data`).

use super::{solve_fewest_clicks, Board, ExactLimits, Rules};
use crate::env::minesweeper::game_seed;
use crate::rng::Rng;

/// How examples are drawn.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ExampleSettings {
    /// Clicks played before solving, drawn uniformly from `fewest..=most`.
    pub fewest: usize,
    /// See `fewest`.
    pub most: usize,
    /// The chance that a click played is the greedy one (the fewest groups after it); else a
    /// random pile.
    pub greedy_share: f64,
    /// Positions the exact solver may expand on one example; an example it does not prove is
    /// dropped.
    pub max_nodes: u64,
}

impl Default for ExampleSettings {
    fn default() -> Self {
        ExampleSettings {
            fewest: 2,
            most: 8,
            greedy_share: 0.5,
            max_nodes: 2_000_000,
        }
    }
}

/// Example `index` of the run seeded with `seed`: the random dust board of `game_seed(seed,
/// index)` played a drawn number of clicks, then solved exactly. Returns the position and an
/// optimal clearing of it (cells clicked, row-major) when the solver proves one within the
/// budget; else the position it did not prove (`None` when the clicks played clear the board).
pub fn draw_example(
    seed: u64,
    index: usize,
    settings: &ExampleSettings,
) -> Result<(Board, Vec<usize>), Option<Board>> {
    let game = game_seed(seed, index);
    let mut board = Board::random(Rules::dust(), game).expect("the dust rules are valid");
    let mut rng = Rng::new(game ^ 0x0D05_7DA7A);
    let span = settings.most.saturating_sub(settings.fewest) + 1;
    let clicks = settings.fewest + rng.below(span);
    for _ in 0..clicks {
        // A board with piles always has a greedy click and a move.
        let greedy = rng.chance(settings.greedy_share);
        let cell = match greedy.then(|| board.greedy_click()).flatten() {
            Some(cell) => cell,
            None => rng.choose(&board.moves())[0],
        };
        board.click_cell(cell).expect("a group the rules allow");
        if board.is_empty() {
            return Err(None);
        }
    }
    let limits = ExactLimits {
        max_nodes: settings.max_nodes,
        ..ExactLimits::default()
    };
    let solution = solve_fewest_clicks(&board, limits, &mut |_| true)
        .expect("the exact solver takes dust boards");
    if !solution.optimal {
        return Err(Some(board));
    }
    let width = board.width();
    let cells = solution
        .clicks
        .iter()
        .map(|&(c, r)| r * width + c)
        .collect();
    Ok((board, cells))
}

/// One drawn example as a data line: its index, the position (rows top first joined by `/`),
/// and its optimal clearing as cells joined by `,` (`?` when the solver did not prove one within
/// the budget, `-` when the clicks played cleared the board).
pub fn data_line(
    index: usize,
    example: Option<&(Board, Vec<usize>)>,
    drawn: Option<&Board>,
) -> String {
    let rows = |b: &Board| b.to_text().trim_end().replace('\n', "/");
    match (example, drawn) {
        (Some((board, clicks)), _) => {
            let cells: Vec<String> = clicks.iter().map(|c| c.to_string()).collect();
            format!("{index} {} {}", rows(board), cells.join(","))
        }
        (None, Some(board)) => format!("{index} {} ?", rows(board)),
        (None, None) => format!("{index} - -"),
    }
}

/// One example read back: the line's number, the index, and the position with its optimal
/// clearing (cells) when it was solved.
pub type DataEntry = (usize, usize, Option<(Board, Vec<usize>)>);

/// Reads data lines ([`data_line`]; `#` lines are comments). The error names the line.
pub fn read_data(text: &str) -> Result<Vec<DataEntry>, String> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| format!("line {}: {why}", n + 1);
        let mut parts = line.split(' ');
        let (Some(index), Some(rows), Some(clicks), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(at("expected an index, a position and its clicks".into()));
        };
        let index: usize = index
            .parse()
            .map_err(|_| at(format!("{index:?} is not an index")))?;
        if clicks == "?" || clicks == "-" {
            entries.push((n + 1, index, None));
            continue;
        }
        let board =
            Board::parse(Rules::dust(), &rows.replace('/', "\n")).map_err(|e| at(e.to_string()))?;
        let cells: Vec<usize> = clicks
            .split(',')
            .map(|c| c.parse().map_err(|_| at(format!("{c:?} is not a cell"))))
            .collect::<Result<_, _>>()?;
        entries.push((n + 1, index, Some((board, cells))));
    }
    Ok(entries)
}
