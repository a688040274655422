// The difficulty levels the generator (SudokuGame.generate, src/env/sudoku/generate.rs) reaches on
// each grid size within its draws, as measured with `puzzlelab sudoku generate --size N
// --difficulty D`: a 4 × 4 never needs more than hidden singles (6 × 6 and 9 × 9 reach every level). The
// page's menu and the widget's `difficulty` attribute offer only these.
export const LEVELS_BY_SIZE = { 4: ["easy"], 6: ["easy", "medium", "hard", "expert"], 9: ["easy", "medium", "hard", "expert"] };
