//! 2048 in the page: the game as a handle the board view plays on, and the shipped n-tuple agent
//! (greedy or expectimax) that can play it.
//!
//! [`Game2048`] owns one game (its rules and random generator are [`crate::env::game2048`]'s);
//! [`Game2048::play`] tells JS everything it needs to animate a move: where each tile went, which
//! merged, where the new tile appeared. [`NTupleAgent`] reads a network file (the plain PZL2048N
//! format: this core bundle has no gzip, so `www/2048/agent.js` unpacks the shipped `.gz` with the
//! browser's `DecompressionStream`) and picks moves for a game. `www/2048/game.js` draws the board
//! and `www/2048/app.js` runs the page.

use super::{js_error, seed_of, to_js};
use crate::agent::ntuple::NTupleNetwork;
use crate::env::game2048::expectimax::Expectimax;
use crate::env::game2048::{tile_moves, Board, Game2048 as Game, Game2048Config, Move, TileMove};
use crate::env::Environment;
use wasm_bindgen::prelude::*;

/// How many moves [`Game2048::undo`] can take back.
const UNDO_LIMIT: usize = 100;

/// The deepest expectimax [`NTupleAgent::best_move`] runs (depth 3 takes milliseconds a move in a
/// browser; depth 4 can take seconds on an open board).
const MAX_DEPTH: u32 = 3;

fn move_from_name(direction: &str) -> Result<Move, JsValue> {
    Move::ALL
        .into_iter()
        .find(|m| m.name() == direction.trim().to_ascii_lowercase())
        .ok_or_else(|| {
            js_error(format!(
                "unknown direction \"{direction}\": use up, right, down or left"
            ))
        })
}

fn config(always_two: bool) -> Game2048Config {
    if always_two {
        Game2048Config::always_two()
    } else {
        Game2048Config::default()
    }
}

/// The new tile of a move, for [`MoveReport`].
#[derive(serde::Serialize)]
struct Spawned {
    cell: u8,
    exponent: u8,
}

/// What [`Game2048::play`] reports (field names as JS reads them).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveReport {
    moved: bool,
    direction: &'static str,
    gained: u32,
    score: f64,
    moves: f64,
    max_tile: u32,
    over: bool,
    tiles: Vec<TileMove>,
    spawned: Option<Spawned>,
    board: Vec<u8>,
}

/// A game of 2048 as the page plays it: the board, score, moves and the game's own seeded
/// random generator, plus a short history for [`Game2048::undo`].
#[wasm_bindgen]
pub struct Game2048 {
    game: Game,
    always_two: bool,
    /// Earlier states, oldest first (at most [`UNDO_LIMIT`]); restoring one restores its random
    /// generator too, so an undone move played again brings the same new tile.
    history: Vec<Game>,
}

impl Game2048 {
    /// The game's board (for the agent and tests).
    pub fn board_value(&self) -> Board {
        self.game.board()
    }
}

#[wasm_bindgen]
impl Game2048 {
    /// A new game: two starting tiles drawn with `seed` (a whole number from 0 to 2^53; the
    /// same seed and the same moves give the same game). `always_two`: every new tile is a 2
    /// (Mehta's RL paper's rule) instead of a 2 with probability 0.9 and a 4 with 0.1.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: f64, always_two: bool) -> Result<Game2048, JsValue> {
        let mut game = Game::new(config(always_two));
        game.reset(seed_of(seed)?);
        Ok(Game2048 {
            game,
            always_two,
            history: Vec::new(),
        })
    }

    /// A game that goes on from a board given as text: 16 tile values row-major (`0`, `.` or
    /// `_` for an empty cell) separated by spaces, commas, `|`, `/` or new lines, e.g.
    /// `"2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 8 8"`; score and moves start at 0 and new tiles are
    /// drawn with `seed`. For tests and shared positions.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str, seed: f64, always_two: bool) -> Result<Game2048, JsValue> {
        let board = Board::parse(text).map_err(js_error)?;
        Ok(Game2048 {
            game: Game::from_board(config(always_two), board, seed_of(seed)?),
            always_two,
            history: Vec::new(),
        })
    }

    /// The board: 16 exponents row-major (0 = empty, `e` = the tile 2^e).
    pub fn board(&self) -> Vec<u8> {
        self.game.board().exponents().to_vec()
    }

    /// The board as text, four lines of tile values (`.` for empty), as [`Game2048::from_text`]
    /// reads it.
    #[wasm_bindgen(js_name = boardText)]
    pub fn board_text(&self) -> String {
        self.game.board().to_string()
    }

    /// The score: the sum of the values of all tiles merged so far.
    #[wasm_bindgen(getter)]
    pub fn score(&self) -> f64 {
        self.game.score() as f64
    }

    /// Moves that changed the board so far.
    #[wasm_bindgen(getter)]
    pub fn moves(&self) -> f64 {
        self.game.moves() as f64
    }

    /// The largest tile's value (2, 4, ..., 32768).
    #[wasm_bindgen(getter, js_name = maxTile)]
    pub fn max_tile(&self) -> u32 {
        self.game.max_tile()
    }

    /// Whether new tiles are always 2s.
    #[wasm_bindgen(getter, js_name = alwaysTwo)]
    pub fn always_two(&self) -> bool {
        self.always_two
    }

    /// The moves that change the board as bits: bit `i` for move `i` (1 up, 2 right, 4 down,
    /// 8 left: the Rust `Move` order); 0 when the game is over.
    #[wasm_bindgen(js_name = legalMask)]
    pub fn legal_mask(&self) -> u8 {
        let board = self.game.board();
        Move::ALL
            .iter()
            .filter(|&&m| board.can_move(m))
            .fold(0, |mask, &m| mask | 1 << m.index())
    }

    /// Whether no move changes the board.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.game.is_terminal()
    }

    /// Plays `direction` (`"up"`, `"right"`, `"down"` or `"left"`) and reports what changed:
    /// `{moved, direction, gained, score, moves, maxTile, over, tiles, spawned, board}`. `tiles`
    /// lists every tile as `{from, to, exponent, merged}` (cells `4·row + col`; both tiles of a
    /// merge have `merged`, and the tile left in `to` has `exponent + 1`), `spawned` the new tile
    /// `{cell, exponent}`, `board` the exponents after the move. A move that changes nothing
    /// reports `moved: false`, every tile in place and no new tile.
    pub fn play(&mut self, direction: &str) -> Result<JsValue, JsValue> {
        let direction = move_from_name(direction)?;
        let before = self.game.board();
        let snapshot = self.game.clone();
        let slide = self.game.play(direction);
        let moved = slide.board != before;
        let mut spawned = None;
        if moved {
            if self.history.len() == UNDO_LIMIT {
                self.history.remove(0);
            }
            self.history.push(snapshot);
            let after = self.game.board();
            spawned = (0..16)
                .find(|&cell| after.exponent(cell) != slide.board.exponent(cell))
                .map(|cell| Spawned {
                    cell: cell as u8,
                    exponent: after.exponent(cell),
                });
        }
        to_js(&MoveReport {
            moved,
            direction: direction.name(),
            gained: if moved { slide.score } else { 0 },
            score: self.score(),
            moves: self.moves(),
            max_tile: self.max_tile(),
            over: self.is_over(),
            tiles: tile_moves(before, direction),
            spawned,
            board: self.board(),
        })
    }

    /// Moves [`Game2048::undo`] can still take back.
    #[wasm_bindgen(getter, js_name = undoDepth)]
    pub fn undo_depth(&self) -> usize {
        self.history.len()
    }

    /// Takes the last move back (board, score, move count and the random generator, so playing
    /// the same move again brings the same new tile); false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(game) => {
                self.game = game;
                true
            }
            None => false,
        }
    }
}

/// An n-tuple network that plays 2048: greedily (the move with the best reward plus afterstate
/// value) or by expectimax over its values.
#[wasm_bindgen]
pub struct NTupleAgent {
    network: NTupleNetwork,
}

#[wasm_bindgen]
impl NTupleAgent {
    /// Reads a network file as `puzzlelab 2048 ntuple train` writes it (format `PZL2048N`, f32 or f16
    /// weights), not gzip-compressed: unpack a `.gz` first (`www/2048/agent.js` does, with
    /// `DecompressionStream`). A gzip file, another file, another version or a damaged file is
    /// refused with a message that says which.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<NTupleAgent, JsValue> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            return Err(js_error(
                "this n-tuple network file is still gzip-compressed: decompress it first",
            ));
        }
        let network = NTupleNetwork::from_bytes(bytes).map_err(js_error)?;
        Ok(NTupleAgent { network })
    }

    /// The tuple set's name (`4x5`, `4x6` or `5x4`).
    #[wasm_bindgen(getter, js_name = tupleSet)]
    pub fn tuple_set(&self) -> String {
        self.network.tuple_set().name().to_string()
    }

    /// Training games the network has played.
    #[wasm_bindgen(getter, js_name = gamesTrained)]
    pub fn games_trained(&self) -> f64 {
        self.network.games_trained() as f64
    }

    /// Weights in the network.
    #[wasm_bindgen(getter, js_name = weightCount)]
    pub fn weight_count(&self) -> usize {
        self.network.weights().len()
    }

    /// The move the agent plays on `game`'s board (`"up"`, `"right"`, `"down"` or `"left"`), or
    /// `undefined` when the game is over. `depth` 1 is the greedy 1-ply policy; 2 and 3 are
    /// expectimax that many moves deep, with the new tiles of `game`'s rules (a 4 with
    /// probability 0.1, or never when it always adds 2s).
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self, game: &Game2048, depth: u32) -> Result<Option<String>, JsValue> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(js_error(format!(
                "the search depth must be from 1 (greedy) to {MAX_DEPTH}, not {depth}"
            )));
        }
        let board = game.board_value();
        let best = if depth == 1 {
            self.network.best_move(board).map(|(m, _, _)| m)
        } else {
            let four_probability = game.game.config().four_probability;
            let mut search = Expectimax::new(|b| self.network.value(b), depth, four_probability);
            search.best_move(board).map(|(m, _)| m)
        };
        Ok(best.map(|m| m.name().to_string()))
    }
}
