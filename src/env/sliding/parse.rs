//! Reading positions the way people type them.
//!
//! Accepted: `123456780`, `1 2 3 4 5 6 7 8 0`, `1,2,3,8,_,4,7,6,5`, multi-line grids (each line a
//! row), `0`, `_` or `.` for the blank, and for presets their symbols (`☼☾_`, also `s`/`m`) with or
//! without separators. Every problem is a [`PuzzleError`] saying what is wrong, in words.

use super::{Board, PuzzleError, Tiles, BLANK};

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '|')
}

fn is_blank(token: &str) -> bool {
    matches!(token, "0" | "_" | ".")
}

/// The label of one token, if it is one.
fn label_of(token: &str, tiles: Tiles, cells: usize) -> Option<u8> {
    if is_blank(token) {
        return Some(BLANK);
    }
    match tiles {
        Tiles::Numbered => token
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1 && n < cells)
            .map(|n| n as u8),
        Tiles::Symbols(set) => set
            .symbols
            .iter()
            .position(|(shown, name, others)| {
                token == *shown || token.eq_ignore_ascii_case(name) || others.contains(&token)
            })
            .map(|i| i as u8 + 1),
    }
}

/// Splits one row of text into tokens; a run without separators becomes one token per character
/// when that is how it must be read (digits of a small board, a preset's symbols).
fn tokens_of_line(line: &str, tiles: Tiles, cells: usize) -> Vec<String> {
    let words: Vec<&str> = line.split(is_separator).filter(|w| !w.is_empty()).collect();
    let mut tokens = Vec::new();
    for word in words {
        let whole_is_label = label_of(word, tiles, cells).is_some();
        let splittable = word.chars().count() > 1
            && word
                .chars()
                .all(|c| label_of(&c.to_string(), tiles, cells).is_some());
        let split = match tiles {
            // "123456780" must be read digit by digit; "12" on a 4×4 is tile twelve.
            Tiles::Numbered => splittable && (!whole_is_label || cells <= 10),
            Tiles::Symbols(_) => splittable && !whole_is_label,
        };
        if split {
            tokens.extend(word.chars().map(|c| c.to_string()));
        } else {
            tokens.push(word.to_string());
        }
    }
    tokens
}

fn expected_text(tiles: Tiles, cells: usize) -> String {
    match tiles {
        Tiles::Numbered => format!(
            "use the numbers 1 to {}, and 0 or _ for the blank",
            cells - 1
        ),
        Tiles::Symbols(set) => {
            let names: Vec<String> = set
                .symbols
                .iter()
                .map(|(shown, name, _)| format!("{shown} ({name})"))
                .collect();
            format!("use {} and _ for the blank", names.join(", "))
        }
    }
}

/// Reads a board of `rows × cols` from text; `what` ("start" or "goal") names it in errors.
pub(super) fn parse_board(
    text: &str,
    rows: usize,
    cols: usize,
    tiles: Tiles,
    what: &'static str,
) -> Result<Board, PuzzleError> {
    if !super::SIZE_RANGE.contains(&rows) || !super::SIZE_RANGE.contains(&cols) {
        return Err(PuzzleError::BadSize { rows, cols });
    }
    let cells = rows * cols;
    let lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| tokens_of_line(l, tiles, cells))
        .filter(|t| !t.is_empty())
        .collect();
    if lines.is_empty() {
        return Err(PuzzleError::Empty { what });
    }
    let tokens: Vec<&String> = lines.iter().flatten().collect();
    if lines.len() > 1 && (lines.len() != rows || lines.iter().any(|l| l.len() != cols)) {
        return Err(PuzzleError::GridShape {
            what,
            found_rows: lines.len(),
            found_cols: lines[0].len(),
            rows,
            cols,
        });
    }
    let mut labels = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        match label_of(token, tiles, cells) {
            Some(l) => labels.push(l),
            None => {
                return Err(PuzzleError::UnknownSymbol {
                    symbol: token.to_string(),
                    position: i + 1,
                    expected: expected_text(tiles, cells),
                })
            }
        }
    }
    if labels.len() != cells {
        return Err(PuzzleError::WrongCount {
            what,
            expected: cells,
            found: labels.len(),
            rows,
            cols,
        });
    }
    if tiles == Tiles::Numbered {
        let mut seen = vec![false; cells];
        for &l in &labels {
            if l != BLANK && std::mem::replace(&mut seen[l as usize], true) {
                return Err(PuzzleError::DuplicateTile {
                    what,
                    tile: l.to_string(),
                });
            }
        }
        if let Some(missing) = (1..cells).find(|&l| !seen[l]) {
            return Err(PuzzleError::MissingTile {
                what,
                tile: missing.to_string(),
            });
        }
    }
    let blanks = labels.iter().filter(|&&l| l == BLANK).count();
    match blanks {
        0 => return Err(PuzzleError::NoBlank { what }),
        1 => {}
        count => return Err(PuzzleError::ManyBlanks { what, count }),
    }
    Board::new(rows, cols, &labels)
}
