//! The tuple sets ([`TupleSet`]: Yeh et al.'s 4 × 6-tuples, the same shapes cut to 5 cells, and
//! Szubert & Jaśkowski 2014's 4-tuples), the 8 symmetries of the board acting on a cell, and a
//! tuple as read on the board (its table offset and transformed cells).

/// The tuple sets this module knows (stored in model files by name and by their cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TupleSet {
    /// Yeh et al.'s four 6-tuples: two 2×3 rectangles and two "L"-shaped lines (cells
    /// `0 1 2 3 4 5`, `4 5 6 7 8 9`, `0 1 2 4 5 6`, `4 5 6 8 9 10`, row-major).
    #[serde(rename = "4x6")]
    FourSixTuples,
    /// Yeh's four shapes cut to 5 cells (`0 1 2 3 4`, `4 5 6 7 8`, `0 1 2 4 5`, `4 5 6 8 9`):
    /// 4 × 16⁵ = 4.2 M weights, 16 MiB as f32, 8 MiB as f16 before gzip; fits a browser tab.
    #[serde(rename = "4x5")]
    FourFiveTuples,
    /// Five 4-tuples after Szubert & Jaśkowski 2014: the outer and inner rows and three 2×2
    /// squares (corner, edge, centre).
    #[serde(rename = "5x4")]
    FiveFourTuples,
}

impl TupleSet {
    /// `4x6`, `4x5` or `5x4`.
    pub fn name(self) -> &'static str {
        match self {
            TupleSet::FourSixTuples => "4x6",
            TupleSet::FourFiveTuples => "4x5",
            TupleSet::FiveFourTuples => "5x4",
        }
    }

    /// Parses `4x6`, `4x5` or `5x4`.
    pub fn from_name(name: &str) -> Option<TupleSet> {
        match name.trim() {
            "4x6" => Some(TupleSet::FourSixTuples),
            "4x5" => Some(TupleSet::FourFiveTuples),
            "5x4" => Some(TupleSet::FiveFourTuples),
            _ => None,
        }
    }

    pub(super) fn id(self) -> u8 {
        match self {
            TupleSet::FourSixTuples => 1,
            TupleSet::FiveFourTuples => 2,
            TupleSet::FourFiveTuples => 3,
        }
    }

    pub(super) fn from_id(id: u8) -> Option<TupleSet> {
        [
            TupleSet::FourSixTuples,
            TupleSet::FourFiveTuples,
            TupleSet::FiveFourTuples,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }

    /// The base tuples' cells (row-major cell numbers, 0 = top left).
    pub fn tuples(self) -> Vec<Vec<u8>> {
        match self {
            TupleSet::FourSixTuples => vec![
                vec![0, 1, 2, 3, 4, 5],
                vec![4, 5, 6, 7, 8, 9],
                vec![0, 1, 2, 4, 5, 6],
                vec![4, 5, 6, 8, 9, 10],
            ],
            TupleSet::FourFiveTuples => vec![
                vec![0, 1, 2, 3, 4],
                vec![4, 5, 6, 7, 8],
                vec![0, 1, 2, 4, 5],
                vec![4, 5, 6, 8, 9],
            ],
            TupleSet::FiveFourTuples => vec![
                vec![0, 1, 2, 3],
                vec![4, 5, 6, 7],
                vec![0, 1, 4, 5],
                vec![1, 2, 5, 6],
                vec![5, 6, 9, 10],
            ],
        }
    }

    /// Weights in all: tuples × 16^length.
    pub fn num_weights(self) -> usize {
        self.tuples().iter().map(|t| 1usize << (4 * t.len())).sum()
    }
}

/// The 8 symmetries of the square acting on a cell: 4 rotations, each with or without a mirror.
pub(super) fn symmetric_cell(cell: u8, symmetry: usize) -> u8 {
    let (mut r, mut c) = (cell / 4, cell % 4);
    for _ in 0..symmetry % 4 {
        (r, c) = (c, 3 - r);
    }
    if symmetry >= 4 {
        c = 3 - c;
    }
    4 * r + c
}

/// One tuple as read on the board: its table's offset and its (transformed) cells.
#[derive(Clone, Debug)]
pub(super) struct Image {
    pub(super) offset: usize,
    pub(super) len: usize,
    pub(super) cells: [u8; 6],
}

impl Image {
    #[inline]
    pub(super) fn index(&self, board: u64) -> usize {
        let mut index = 0usize;
        for (k, &cell) in self.cells[..self.len].iter().enumerate() {
            index |= (((board >> (4 * cell)) & 0xF) as usize) << (4 * k);
        }
        self.offset + index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_eight_distinct_permutations() {
        let mut seen = std::collections::HashSet::new();
        for symmetry in 0..8 {
            let image: Vec<u8> = (0..16).map(|c| symmetric_cell(c, symmetry)).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..16).collect::<Vec<u8>>());
            seen.insert(image);
        }
        assert_eq!(seen.len(), 8);
    }
}
