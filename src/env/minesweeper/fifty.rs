//! Forced 50/50s: two covered cells, one of them a mine, that nothing on the board can ever tell
//! apart ([`forced_fifty`]).
//!
//! Cells `a` and `b` form one when
//! 1. a revealed number has exactly `a` and `b` as its unsettled neighbours and needs exactly one
//!    more mine (so one of them is a mine, the other safe);
//! 2. every revealed number next to one of them is next to the other too;
//! 3. every other covered cell next to exactly one of them is a certain mine.
//!
//! Swapping the contents of `a` and `b` then maps every mine placement that agrees with the board
//! onto another one that agrees with it and with everything any other cell could later show: the
//! guess is a coin toss whatever is learnt first, and it must be made to win. Made now, it can
//! only help: the number the safe cell shows is information for the rest of the game (JSMinesweeper
//! guesses unavoidable 50/50s at once for the same reason).

use super::board::{Cell, Layout};
use super::solver::Analysis;

/// One cell of a forced 50/50 on the board `cells` (analysed as `analysis`), or `None`. Of the
/// two, the one with more covered neighbours that are not certain mines (likelier to tell more).
pub fn forced_fifty(layout: &Layout, cells: &[Cell], analysis: &Analysis) -> Option<usize> {
    let n = cells.len();
    let mut mine = vec![false; n];
    for &c in &analysis.mines {
        mine[c] = true;
    }
    let revealed = |c: usize| matches!(cells[c], Cell::Revealed(_));
    for (number_cell, &cell) in cells.iter().enumerate() {
        let Cell::Revealed(number) = cell else {
            continue;
        };
        let mut unsettled = [0usize; 2];
        let (mut count, mut need) = (0, number as i32);
        for x in layout.neighbours(number_cell).iter() {
            if revealed(x) {
                continue;
            }
            if mine[x] {
                need -= 1;
            } else {
                if count < 2 {
                    unsettled[count] = x;
                }
                count += 1;
            }
        }
        if count != 2 || need != 1 {
            continue;
        }
        let [a, b] = unsettled;
        if is_forced(layout, &mine, &revealed, a, b) {
            let living = |c: usize| {
                layout
                    .neighbours(c)
                    .iter()
                    .filter(|&x| !revealed(x) && !mine[x] && x != a && x != b)
                    .count()
            };
            return Some(if living(b) > living(a) { b } else { a });
        }
    }
    None
}

/// Conditions 2 and 3 of the module's for the pair `a`, `b`.
fn is_forced(
    layout: &Layout,
    mine: &[bool],
    revealed: &impl Fn(usize) -> bool,
    a: usize,
    b: usize,
) -> bool {
    let around_a = layout.neighbours(a);
    let around_b = layout.neighbours(b);
    let next_to = |around: &super::board::Neighbours, x: usize| around.iter().any(|y| y == x);
    for (around, other) in [(&around_a, &around_b), (&around_b, &around_a)] {
        for x in around.iter() {
            if x == a || x == b || next_to(other, x) {
                continue;
            }
            // Next to one of them only: must tell nothing (a certain mine) and show nothing.
            if revealed(x) || !mine[x] {
                return false;
            }
        }
    }
    true
}
