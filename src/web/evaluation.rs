//! An evaluation that a worker plays a batch of games (positions, boards) at a time, with progress
//! and Cancel between batches: the job ([`EvaluationJob`]), the usual kind ([`InRanges`] of
//! independent games) and the class JavaScript steps ([`Evaluation`]). In the
//! core bundle for the Minesweeper solver's evaluation, in the learning bundle for every model's
//! (`web::learner`).

use wasm_bindgen::prelude::*;

/// An evaluation played a batch of games (positions, boards) at a time, so that the worker reports
/// progress and can stop between batches.
pub trait EvaluationJob {
    /// Plays up to `count` more; true once all are played.
    fn step(&mut self, count: usize) -> Result<bool, JsValue>;
    /// How many are played so far.
    fn done(&self) -> usize;
    /// How many in all.
    fn total(&self) -> usize;
    /// What the games played so far add up to, as `puzzlelab <puzzle> eval` reports it.
    fn result(&self) -> Result<JsValue, JsValue>;
}

/// An evaluation of `total` independent games (boards) 0, 1, …: `play(tally, range)` plays the
/// games of `range` and adds them to `tally`, `result(tally)` says what the games played so far
/// add up to. Game `i` is the same whatever the ranges.
pub struct InRanges<T> {
    tally: T,
    done: usize,
    total: usize,
    play: fn(&mut T, std::ops::Range<usize>) -> Result<(), JsValue>,
    result: fn(&T) -> Result<JsValue, JsValue>,
}

impl<T> InRanges<T> {
    /// `total` games, none played yet.
    pub fn new(
        total: usize,
        tally: T,
        play: fn(&mut T, std::ops::Range<usize>) -> Result<(), JsValue>,
        result: fn(&T) -> Result<JsValue, JsValue>,
    ) -> Self {
        let done = 0;
        InRanges {
            tally,
            done,
            total,
            play,
            result,
        }
    }
}

impl<T> EvaluationJob for InRanges<T> {
    fn step(&mut self, count: usize) -> Result<bool, JsValue> {
        let end = self.done.saturating_add(count).min(self.total);
        (self.play)(&mut self.tally, self.done..end)?;
        self.done = end;
        Ok(end == self.total)
    }
    fn done(&self) -> usize {
        self.done
    }
    fn total(&self) -> usize {
        self.total
    }
    fn result(&self) -> Result<JsValue, JsValue> {
        (self.result)(&self.tally)
    }
}

/// An evaluation played a batch at a time by a worker (which reports progress and honours Cancel
/// between batches): a model's (the learning bundle's `LearnedModel.startEvaluation`) or the
/// Minesweeper solver's (`minesweeperSolverEvaluation`).
#[wasm_bindgen]
pub struct Evaluation(pub(crate) Box<dyn EvaluationJob>);

#[wasm_bindgen]
impl Evaluation {
    /// Plays up to `count` more games (positions, boards); true once all are played.
    pub fn step(&mut self, count: usize) -> Result<bool, JsValue> {
        self.0.step(count)
    }

    /// Games (positions, boards) played so far.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> usize {
        self.0.done()
    }

    /// Games (positions, boards) in all.
    #[wasm_bindgen(getter)]
    pub fn total(&self) -> usize {
        self.0.total()
    }

    /// What the games played so far add up to (all of them once `step` returned true), in the
    /// puzzle's own terms.
    pub fn result(&self) -> Result<JsValue, JsValue> {
        self.0.result()
    }
}
