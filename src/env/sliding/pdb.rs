//! Pattern-database heuristics for the 15-puzzle, and the fast IDA* problem that uses them.
//!
//! [`PdbHeuristic`] sums additive disjoint pattern databases ([`crate::search::pattern_database`])
//! over a partition of the tiles (6-6-3 by default, 5-5-5 as an option) and, when the goal allows
//! it, takes the larger of that sum and the same sum on the board mirrored about its main diagonal
//! (Korf & Felner 2002): the mirrored board is exactly as far from the goal, so both sums are
//! lower bounds. [`PdbSearch`] is the 15-puzzle as an [`InPlaceProblem`]: one board changed in
//! place, tile positions and per-group values updated for the one tile that moves, and the move
//! that would undo the previous one never generated.

use super::{Board, Direction, PuzzleError, BLANK, MAX_CELLS};
use crate::checksum::fnv1a;
use crate::search::pattern_database::PatternDatabase;
use crate::search::InPlaceProblem;
use std::rc::Rc;

/// How the 15 tiles are split into groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Partition {
    /// Two groups of six and one of three (the three share the blank's goal row): the stronger one.
    SixSixThree,
    /// Three groups of five, in goal reading order: smaller and quicker to build.
    FiveFiveFive,
}

impl Partition {
    /// The name used by the CLI and the page (`6-6-3`, `5-5-5`).
    pub fn name(self) -> &'static str {
        match self {
            Partition::SixSixThree => "6-6-3",
            Partition::FiveFiveFive => "5-5-5",
        }
    }

    /// Parses a name as written by [`Partition::name`].
    pub fn from_name(name: &str) -> Option<Partition> {
        match name.trim() {
            "6-6-3" | "663" => Some(Partition::SixSixThree),
            "5-5-5" | "555" => Some(Partition::FiveFiveFive),
            _ => None,
        }
    }

    /// The groups of tile labels for a 4×4 `goal`.
    pub fn groups(self, goal: &Board) -> Vec<Vec<u8>> {
        let cells = goal.cells();
        match self {
            Partition::FiveFiveFive => {
                let tiles: Vec<u8> = cells.iter().copied().filter(|&l| l != BLANK).collect();
                tiles.chunks(5).map(<[u8]>::to_vec).collect()
            }
            Partition::SixSixThree => {
                // The blank's goal row holds the three-tile group; the other twelve cells split
                // into a left and a right half of six.
                let blank_row = goal.blank() / 4;
                let mut three = Vec::new();
                let mut left = Vec::new();
                let mut right = Vec::new();
                for (cell, &label) in cells.iter().enumerate() {
                    if label == BLANK {
                        continue;
                    }
                    if cell / 4 == blank_row {
                        three.push(label);
                    } else if cell % 4 < 2 {
                        left.push(label);
                    } else {
                        right.push(label);
                    }
                }
                vec![left, right, three]
            }
        }
    }
}

/// Why pattern databases cannot be built for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdbError {
    /// Not a 4×4 board.
    #[error("pattern databases are built for 4×4 boards; this one is {rows}×{cols}")]
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Repeated labels.
    #[error("pattern databases need tiles that are all different")]
    RepeatedLabels,
    /// A board problem.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
}

/// The transpose symmetry of a square goal whose blank lies on the main diagonal.
#[derive(Clone, Debug)]
struct Mirror {
    /// Cell → its mirror cell.
    cell: [u8; MAX_CELLS],
    /// Label → the label that plays its part on the mirrored board.
    label: [u8; MAX_CELLS + 1],
}

/// Additive pattern databases for one goal, with the mirrored lookup when the goal allows it.
#[derive(Clone, Debug)]
pub struct PdbHeuristic {
    goal: Board,
    partition: Partition,
    databases: Vec<PatternDatabase>,
    /// Label → (group, index of the label within the group).
    slot: [(u8, u8); MAX_CELLS + 1],
    mirror: Option<Mirror>,
}

impl PdbHeuristic {
    /// Builds the databases for a 4×4 `goal` (any tile arrangement, blank anywhere).
    /// `progress(fraction)` is called as the build advances.
    pub fn build(
        goal: &Board,
        partition: Partition,
        mut progress: impl FnMut(f32),
    ) -> Result<PdbHeuristic, PdbError> {
        if (goal.rows(), goal.cols()) != (4, 4) {
            return Err(PdbError::Size {
                rows: goal.rows(),
                cols: goal.cols(),
            });
        }
        if goal.label_counts()[1..].iter().any(|&c| c > 1) {
            return Err(PdbError::RepeatedLabels);
        }
        let groups = partition.groups(goal);
        let total: usize = groups
            .iter()
            .map(|g| crate::search::pattern_database::placements(16, g.len()))
            .sum();
        let mut done = 0usize;
        let mut databases = Vec::new();
        let mut slot = [(u8::MAX, u8::MAX); MAX_CELLS + 1];
        for (g, tiles) in groups.iter().enumerate() {
            let size = crate::search::pattern_database::placements(16, tiles.len());
            let db = PatternDatabase::build(4, 4, goal.cells(), tiles, |f| {
                progress((done as f32 + f * size as f32) / total as f32)
            });
            done += size;
            for (i, &t) in tiles.iter().enumerate() {
                slot[t as usize] = (g as u8, i as u8);
            }
            databases.push(db);
        }
        progress(1.0);
        Ok(PdbHeuristic {
            goal: *goal,
            partition,
            databases,
            slot,
            mirror: Self::mirror_of(goal),
        })
    }

    fn mirror_of(goal: &Board) -> Option<Mirror> {
        let n = goal.rows();
        if goal.rows() != goal.cols() || goal.blank() / n != goal.blank() % n {
            return None;
        }
        let mut cell = [0u8; MAX_CELLS];
        for (c, mirror) in cell.iter_mut().enumerate().take(n * n) {
            *mirror = ((c % n) * n + c / n) as u8;
        }
        let mut label = [0u8; MAX_CELLS + 1];
        for (c, &l) in goal.cells().iter().enumerate() {
            label[l as usize] = goal.cells()[cell[c] as usize];
        }
        Some(Mirror { cell, label })
    }

    /// The goal the databases were built for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The partition used.
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// Whether the mirrored lookup is used (square goal, blank on the diagonal).
    pub fn has_mirror(&self) -> bool {
        self.mirror.is_some()
    }

    /// Bytes of table memory.
    pub fn table_bytes(&self) -> usize {
        self.databases.iter().map(PatternDatabase::len).sum()
    }

    /// The databases.
    pub fn databases(&self) -> &[PatternDatabase] {
        &self.databases
    }

    fn group_value(&self, group: usize, position: &[u8; MAX_CELLS + 1]) -> u8 {
        let db = &self.databases[group];
        let mut positions = [0u8; 8];
        for (i, &t) in db.tiles().iter().enumerate() {
            positions[i] = position[t as usize];
        }
        db.lookup(&positions[..db.tiles().len()])
    }

    fn positions(board: &Board) -> [u8; MAX_CELLS + 1] {
        let mut position = [0u8; MAX_CELLS + 1];
        for (c, &l) in board.cells().iter().enumerate() {
            position[l as usize] = c as u8;
        }
        position
    }

    fn mirrored(&self, position: &[u8; MAX_CELLS + 1]) -> Option<[u8; MAX_CELLS + 1]> {
        let mirror = self.mirror.as_ref()?;
        let mut mirrored = [0u8; MAX_CELLS + 1];
        for l in 0..=self.goal.len() {
            mirrored[mirror.label[l] as usize] = mirror.cell[position[l] as usize];
        }
        Some(mirrored)
    }

    /// The estimate for `board`, computed from scratch (the search updates it incrementally).
    pub fn estimate(&self, board: &Board) -> u32 {
        let position = Self::positions(board);
        let direct: u32 = (0..self.databases.len())
            .map(|g| self.group_value(g, &position) as u32)
            .sum();
        match self.mirrored(&position) {
            Some(m) => direct.max(
                (0..self.databases.len())
                    .map(|g| self.group_value(g, &m) as u32)
                    .sum(),
            ),
            None => direct,
        }
    }
}

/// The 15-puzzle from one start as an [`InPlaceProblem`] guided by a [`PdbHeuristic`].
///
/// Keeps its own cells, blank, tile positions (plain and mirrored) and per-group values, so a move
/// touches a handful of bytes and two table entries; neighbours come from a precomputed table.
pub struct PdbSearch {
    heuristic: Rc<PdbHeuristic>,
    cells: [u8; MAX_CELLS],
    blank: u8,
    /// `neighbour[cell][direction]`: the cell the blank reaches, or `u8::MAX` at a wall.
    neighbour: [[u8; 4]; MAX_CELLS],
    position: [u8; MAX_CELLS + 1],
    mirrored: [u8; MAX_CELLS + 1],
    values: [u8; 8],
    mirror_values: [u8; 8],
    sum: u32,
    mirror_sum: u32,
    /// Mirror groups whose value is stale (bit per group): the mirrored lookup is only made when
    /// the plain sum does not already prune the node.
    mirror_stale: u8,
    /// Per applied move: (group, its value before, mirror group, its value before with its stale
    /// bit in the top bit). Other mirror groups need no record: their tiles did not move, so a
    /// value computed below this node is also right here.
    undo: Vec<[u8; 4]>,
}

impl PdbSearch {
    /// A search from `start` towards the heuristic's goal.
    pub fn new(heuristic: Rc<PdbHeuristic>, start: Board) -> PdbSearch {
        let position = PdbHeuristic::positions(&start);
        let mirrored = heuristic.mirrored(&position).unwrap_or([0; MAX_CELLS + 1]);
        let mut values = [0u8; 8];
        let mut mirror_values = [0u8; 8];
        for g in 0..heuristic.databases.len() {
            values[g] = heuristic.group_value(g, &position);
            if heuristic.mirror.is_some() {
                mirror_values[g] = heuristic.group_value(g, &mirrored);
            }
        }
        let mut neighbour = [[u8::MAX; 4]; MAX_CELLS];
        for (cell, row) in neighbour.iter_mut().enumerate().take(start.len()) {
            let mut probe = start;
            // A board with the blank at `cell` tells which moves leave it.
            let mut labels = start.cells().to_vec();
            labels.swap(start.blank(), cell);
            probe =
                Board::new(probe.rows(), probe.cols(), &labels).expect("a swap keeps one blank");
            for d in Direction::ALL {
                row[d.index()] = probe.target(d).map_or(u8::MAX, |t| t as u8);
            }
        }
        let mut cells = [0u8; MAX_CELLS];
        cells[..start.len()].copy_from_slice(start.cells());
        PdbSearch {
            sum: values.iter().map(|&v| v as u32).sum(),
            mirror_sum: mirror_values.iter().map(|&v| v as u32).sum(),
            heuristic,
            cells,
            blank: start.blank() as u8,
            neighbour,
            position,
            mirrored,
            values,
            mirror_values,
            mirror_stale: 0,
            undo: Vec::new(),
        }
    }

    /// Moves the blank from its cell to `target`; returns the tile that slid and the blank's old cell.
    #[inline]
    fn swap_blank(&mut self, target: u8) -> (usize, u8) {
        let from = self.blank;
        let tile = self.cells[target as usize] as usize;
        self.cells[from as usize] = tile as u8;
        self.cells[target as usize] = BLANK;
        self.blank = target;
        self.position[tile] = from;
        self.position[0] = target;
        (tile, from)
    }
}

impl InPlaceProblem for PdbSearch {
    type Action = Direction;

    #[inline]
    fn heuristic(&mut self, limit: u32) -> u32 {
        if self.sum > limit || self.mirror_stale == 0 {
            return self.sum.max(self.mirror_sum);
        }
        let h = &*self.heuristic;
        let mut stale = self.mirror_stale;
        while stale != 0 {
            let m = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            let value = h.group_value(m, &self.mirrored);
            self.mirror_sum = self.mirror_sum + value as u32 - self.mirror_values[m] as u32;
            self.mirror_values[m] = value;
        }
        self.mirror_stale = 0;
        self.sum.max(self.mirror_sum)
    }

    /// Every group at 0 means every tile is home, so the blank is too.
    #[inline]
    fn is_goal(&self) -> bool {
        self.sum == 0
    }

    #[inline]
    fn actions(&mut self, previous: Option<Direction>, out: &mut Vec<Direction>) {
        let moves = &self.neighbour[self.blank as usize];
        for d in Direction::ALL {
            if moves[d.index()] != u8::MAX && Some(d.opposite()) != previous {
                out.push(d);
            }
        }
    }

    #[inline]
    fn apply(&mut self, action: Direction) -> u32 {
        let target = self.neighbour[self.blank as usize][action.index()];
        let (tile, from) = self.swap_blank(target);
        let h = &*self.heuristic;
        let (group, _) = h.slot[tile];
        let g = group as usize;
        let before = self.values[g];
        self.values[g] = h.group_value(g, &self.position);
        self.sum = self.sum + self.values[g] as u32 - before as u32;
        let record = match &h.mirror {
            Some(mirror) => {
                let mirror_tile = mirror.label[tile] as usize;
                self.mirrored[mirror_tile] = mirror.cell[from as usize];
                self.mirrored[0] = mirror.cell[target as usize];
                let (mirror_group, _) = h.slot[mirror_tile];
                let was_stale = (self.mirror_stale >> mirror_group) & 1;
                let mirror_before = self.mirror_values[mirror_group as usize] | (was_stale << 7);
                // The mirrored value of that group is now unknown: looked up only if needed.
                self.mirror_stale |= 1 << mirror_group;
                [group, before, mirror_group, mirror_before]
            }
            None => [group, before, 0, 0],
        };
        self.undo.push(record);
        1
    }

    #[inline]
    fn undo(&mut self, action: Direction) {
        let [group, before, mirror_group, mirror_before] =
            self.undo.pop().expect("an applied move to undo");
        let target = self.neighbour[self.blank as usize][action.opposite().index()];
        let (tile, from) = self.swap_blank(target);
        let g = group as usize;
        self.sum = self.sum - self.values[g] as u32 + before as u32;
        self.values[g] = before;
        if let Some(mirror) = &self.heuristic.mirror {
            self.mirrored[mirror.label[tile] as usize] = mirror.cell[from as usize];
            self.mirrored[0] = mirror.cell[target as usize];
            let m = mirror_group as usize;
            let value = mirror_before & 0x7f;
            self.mirror_sum = self.mirror_sum + value as u32 - self.mirror_values[m] as u32;
            self.mirror_values[m] = value;
            self.mirror_stale = (self.mirror_stale & !(1 << m)) | ((mirror_before >> 7) << m);
        }
    }
}

/// The file format of saved pattern databases (`www/models/*.pdb`), version 1:
///
/// ```text
/// "PZLPDB" version:u8 rows:u8 cols:u8 partition:u8 goal:[u8; rows·cols] groups:u8
/// per group: k:u8 tiles:[u8; k] table: ⌈entries/2⌉ bytes, two 4-bit entries per byte
/// checksum: u64 little-endian (FNV-1a of everything before it)
/// ```
///
/// Each 4-bit entry is (value − the group's Manhattan distance) / 2: a group's moves exceed the
/// Manhattan distance of its tiles by an even number (every move changes it by one), and by
/// little, so the table shrinks to half a byte per placement before any compression.
pub const FILE_MAGIC: &[u8; 6] = b"PZLPDB";
/// The version written by [`PdbHeuristic::to_bytes`].
pub const FILE_VERSION: u8 = 1;

/// Calls `visit(rank, manhattan)` for every placement of a group in rank order, where
/// `manhattan` is the sum of the group's tiles' taxicab distances to their goal cells
/// (`distance[i][cell]` for the group's tile `i`), summed as the placements are enumerated.
fn for_each_placement(n: usize, distance: &[Vec<u8>], mut visit: impl FnMut(usize, u8)) {
    fn go(
        n: usize,
        i: usize,
        used: u32,
        sum: u8,
        distance: &[Vec<u8>],
        rank: &mut usize,
        visit: &mut dyn FnMut(usize, u8),
    ) {
        if i == distance.len() {
            visit(*rank, sum);
            *rank += 1;
            return;
        }
        for cell in 0..n {
            if used & (1 << cell) == 0 {
                go(
                    n,
                    i + 1,
                    used | (1 << cell),
                    sum + distance[i][cell],
                    distance,
                    rank,
                    visit,
                );
            }
        }
    }
    go(n, 0, 0, 0, distance, &mut 0, &mut visit);
}

impl PdbHeuristic {
    /// `distance[i][cell]`: the taxicab distance from `cell` to the goal cell of `tiles[i]`.
    fn goal_distances(&self, tiles: &[u8]) -> Vec<Vec<u8>> {
        let cols = self.goal.cols();
        tiles
            .iter()
            .map(|&t| {
                let g = self
                    .goal
                    .cells()
                    .iter()
                    .position(|&l| l == t)
                    .expect("tile on the goal");
                (0..self.goal.len())
                    .map(|c| ((c / cols).abs_diff(g / cols) + (c % cols).abs_diff(g % cols)) as u8)
                    .collect()
            })
            .collect()
    }

    /// Serialises the databases (format in [`FILE_MAGIC`]'s documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(FILE_MAGIC);
        out.push(FILE_VERSION);
        out.extend_from_slice(&[
            self.goal.rows() as u8,
            self.goal.cols() as u8,
            self.partition as u8,
        ]);
        out.extend_from_slice(self.goal.cells());
        out.push(self.databases.len() as u8);
        let n = self.goal.len();
        for db in &self.databases {
            let tiles = db.tiles();
            out.push(tiles.len() as u8);
            out.extend_from_slice(tiles);
            let mut packed = vec![0u8; db.len().div_ceil(2)];
            let table = db.table();
            for_each_placement(n, &self.goal_distances(tiles), |rank, manhattan| {
                let excess = table[rank] - manhattan;
                assert!(
                    excess.is_multiple_of(2) && excess / 2 < 16,
                    "excess over Manhattan fits in 4 bits"
                );
                packed[rank / 2] |= (excess / 2) << (4 * (rank % 2));
            });
            out.extend_from_slice(&packed);
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads databases written by [`PdbHeuristic::to_bytes`] and checks that they are intact and
    /// built for `goal`.
    pub fn from_bytes(bytes: &[u8], goal: &Board) -> Result<PdbHeuristic, PdbFileError> {
        if bytes.len() < FILE_MAGIC.len() + 8 || &bytes[..FILE_MAGIC.len()] != FILE_MAGIC {
            return Err(PdbFileError::NotAPatternDatabase);
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err(PdbFileError::Corrupt);
        }
        let mut at = FILE_MAGIC.len();
        let mut take = |count: usize| -> Result<&[u8], PdbFileError> {
            let slice = body.get(at..at + count).ok_or(PdbFileError::Corrupt)?;
            at += count;
            Ok(slice)
        };
        let version = take(1)?[0];
        if version != FILE_VERSION {
            return Err(PdbFileError::Version {
                found: version,
                expected: FILE_VERSION,
            });
        }
        let header = take(3)?;
        let (rows, cols) = (header[0] as usize, header[1] as usize);
        let partition = match header[2] {
            0 => Partition::SixSixThree,
            1 => Partition::FiveFiveFive,
            _ => return Err(PdbFileError::Corrupt),
        };
        let file_goal =
            Board::new(rows, cols, take(rows * cols)?).map_err(|_| PdbFileError::Corrupt)?;
        if &file_goal != goal {
            return Err(PdbFileError::OtherGoal);
        }
        let groups = take(1)?[0] as usize;
        let mut heuristic = PdbHeuristic {
            goal: *goal,
            partition,
            databases: Vec::new(),
            slot: [(u8::MAX, u8::MAX); MAX_CELLS + 1],
            mirror: Self::mirror_of(goal),
        };
        let n = rows * cols;
        // The groups must be the partition's for this goal, checked before any table is sized
        // from them (a damaged file could name tiles the goal lacks, or too many).
        let expected = partition.groups(goal);
        if groups != expected.len() {
            return Err(PdbFileError::Corrupt);
        }
        for (g, want) in expected.iter().enumerate() {
            let k = take(1)?[0] as usize;
            let tiles = take(k)?;
            if tiles != want.as_slice() {
                return Err(PdbFileError::Corrupt);
            }
            let tiles = tiles.to_vec();
            let entries = crate::search::pattern_database::placements(n, k);
            let packed = take(entries.div_ceil(2))?;
            let mut table = vec![0u8; entries];
            for_each_placement(n, &heuristic.goal_distances(&tiles), |rank, manhattan| {
                let excess = (packed[rank / 2] >> (4 * (rank % 2))) & 15;
                table[rank] = manhattan + 2 * excess;
            });
            for (i, &t) in tiles.iter().enumerate() {
                heuristic.slot[t as usize] = (g as u8, i as u8);
            }
            heuristic
                .databases
                .push(PatternDatabase::from_table(rows, cols, tiles, table));
        }
        if take(1).is_ok() {
            return Err(PdbFileError::Corrupt);
        }
        Ok(heuristic)
    }
}

/// Why a saved pattern-database file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdbFileError {
    /// Wrong magic bytes.
    #[error("this is not a puzzlelab pattern-database file")]
    NotAPatternDatabase,
    /// Checksum or structure wrong.
    #[error("the pattern-database file is damaged (its checksum or structure is wrong)")]
    Corrupt,
    /// Another format version.
    #[error(
        "the pattern-database file has format version {found}; this build reads version {expected}"
    )]
    Version {
        /// Version in the file.
        found: u8,
        /// Version this build reads.
        expected: u8,
    },
    /// Built for another goal.
    #[error("these pattern databases were built for a different goal")]
    OtherGoal,
}
