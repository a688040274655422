//! Where each tile goes in a slide ([`tile_moves`]): the rules of [`Board::slide`] told tile by
//! tile, for a board view that animates moves.

use super::{Board, Move};

/// Where one tile goes in a slide: what a board view needs to animate it ([`tile_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TileMove {
    /// The cell (`4·row + col`) the tile starts in.
    pub from: u8,
    /// The cell it ends in (the same cell when it does not move).
    pub to: u8,
    /// Its exponent before the slide.
    pub exponent: u8,
    /// Whether it merges with another tile in `to` (both tiles of a merge say so; the tile left
    /// in `to` has exponent `exponent + 1`).
    pub merged: bool,
}

/// The cells of line `line` (a row for left and right, a column for up and down), starting at
/// the side `direction` slides toward.
fn line_cells(direction: Move, line: usize) -> [usize; 4] {
    match direction {
        Move::Left => [4 * line, 4 * line + 1, 4 * line + 2, 4 * line + 3],
        Move::Right => [4 * line + 3, 4 * line + 2, 4 * line + 1, 4 * line],
        Move::Up => [line, 4 + line, 8 + line, 12 + line],
        Move::Down => [12 + line, 8 + line, 4 + line, line],
    }
}

/// Where every tile of `board` goes when it slides toward `direction`, in cell order of each
/// line: the same rules as [`Board::slide`] (its row tables are built by `slide_row_left`), told
/// tile by tile so that a page can animate the move. Tiles that stay put are included (`from ==
/// to`). When the move is illegal every tile stays.
pub fn tile_moves(board: Board, direction: Move) -> Vec<TileMove> {
    let mut moves = Vec::with_capacity(16);
    for line in 0..4 {
        let cells = line_cells(direction, line);
        let tiles: Vec<(usize, u8)> = cells
            .iter()
            .map(|&cell| (cell, board.exponent(cell)))
            .filter(|&(_, e)| e != 0)
            .collect();
        let (mut i, mut k) = (0, 0);
        while i < tiles.len() {
            let (cell, e) = tiles[i];
            let to = cells[k] as u8;
            if i + 1 < tiles.len() && tiles[i + 1].1 == e && e < 15 {
                for &(from, exponent) in &tiles[i..i + 2] {
                    moves.push(TileMove {
                        from: from as u8,
                        to,
                        exponent,
                        merged: true,
                    });
                }
                i += 2;
            } else {
                moves.push(TileMove {
                    from: cell as u8,
                    to,
                    exponent: e,
                    merged: false,
                });
                i += 1;
            }
            k += 1;
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::game2048::board::tests::board;
    use crate::env::game2048::{random_move, Game2048, Game2048Config};
    use crate::env::Environment;
    use crate::rng::Rng;

    #[test]
    fn tile_moves_tell_where_each_tile_goes() {
        let start = board("2 2 2 2 / 4 . 4 8 / . . . . / 2 . . 2");
        let moves = tile_moves(start, Move::Left);
        let tm = |from, to, exponent, merged| TileMove {
            from,
            to,
            exponent,
            merged,
        };
        assert_eq!(
            moves,
            [
                tm(0, 0, 1, true),
                tm(1, 0, 1, true),
                tm(2, 1, 1, true),
                tm(3, 1, 1, true),
                tm(4, 4, 2, true),
                tm(6, 4, 2, true),
                tm(7, 5, 3, false),
                tm(12, 12, 1, true),
                tm(15, 12, 1, true),
            ]
        );
        // Right merges from the right: [2,2,2,_] → [_,_,2,4], the rightmost pair merging.
        let moves = tile_moves(board("2 2 2 . / . . . . / . . . . / . . . ."), Move::Right);
        assert_eq!(
            moves,
            [tm(2, 3, 1, true), tm(1, 3, 1, true), tm(0, 2, 1, false)]
        );
        // An illegal move moves nothing.
        let stuck = board("2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2");
        for m in Move::ALL {
            assert!(tile_moves(stuck, m)
                .iter()
                .all(|t| t.from == t.to && !t.merged));
        }
    }

    #[test]
    fn tile_moves_agree_with_slide_on_random_games() {
        let mut game = Game2048::new(Game2048Config::default());
        let mut rng = Rng::new(11);
        for seed in 0..30 {
            game.reset(seed);
            while let Some(played) = random_move(game.board(), &mut rng) {
                let before = game.board();
                for m in Move::ALL {
                    let moves = tile_moves(before, m);
                    assert_eq!(moves.len() as u32, 16 - before.empty_cells());
                    // Rebuild the afterstate from the tiles' destinations.
                    let mut after = Board::EMPTY;
                    let mut score = 0;
                    for t in &moves {
                        assert_eq!(before.exponent(t.from as usize), t.exponent);
                        let e = if t.merged { t.exponent + 1 } else { t.exponent };
                        if t.merged && after.exponent(t.to as usize) == e {
                            score += 1 << e;
                        }
                        after = after.with(t.to as usize, e);
                    }
                    let slide = before.slide(m);
                    assert_eq!(after, slide.board, "{m:?} from\n{before}");
                    assert_eq!(score, slide.score, "{m:?} from\n{before}");
                }
                game.play(played);
            }
        }
    }
}
