// Plays a solution (a list of blank moves) on a <sliding-board>: play/pause, step back/forward,
// jump to start/end, speed. The controls are plain elements inside `root`, found by their
// data-player attribute:
//   data-player="start" | "back" | "play" | "forward" | "end"   buttons
//   data-player="speed"                                        <input type=range> (index into SPEEDS)
//   data-player="speed-label" | "position"                     text outputs
//   data-player="stage"                                        the current sub-goal, when the
//                                                              solution comes in stages (optional)
// Arrow keys (and Home/End) step through the solution while focus is inside `root`, so they never
// compete with the board, which only reacts to keys while it has focus itself.
//
// Without a speed slider (an embedded widget) the speed is set through `movesPerSecond`.
//
// A solution may come in stages (local value iteration places a few tiles at a time): then the
// current stage is the one of the next move to play, its tiles are marked on the board
// (board.highlightTiles) and the stage element says "Placing tile 5" or "Placing tiles 3, 4
// together"; at the end of the solution nothing is marked.
//
// Events on root: "player-change" detail { position, length, playing }.

import { OPPOSITE_DIRECTION as OPPOSITE } from "./board.js";

/** Moves per second offered by the speed slider (its value is an index into this list). */
export const SPEEDS = [0.5, 1, 2, 3, 4, 6, 8, 12, 20, 30, 60];

export class SolutionPlayer {
  #root;
  #board;
  #controls;
  #moves = [];
  /** The solution's stages ({ tiles }) and the stage index of each move; empty without stages. */
  #stages = [];
  #moveStages = [];
  #position = 0;
  #timer = 0;
  #playing = false;
  /** Moves per second when there is no speed slider. */
  #fixedSpeed = SPEEDS[4];

  constructor(root, board) {
    this.#root = root;
    this.#board = board;
    const control = (name) => root.querySelector(`[data-player="${name}"]`);
    this.#controls = {
      start: control("start"),
      back: control("back"),
      play: control("play"),
      forward: control("forward"),
      end: control("end"),
      speed: control("speed"),
      speedLabel: control("speed-label"),
      position: control("position"),
      stage: control("stage"),
    };
    const { start, back, play, forward, end, speed } = this.#controls;
    start?.addEventListener("click", () => this.goTo(0));
    back?.addEventListener("click", () => this.stepBack());
    play?.addEventListener("click", () => this.toggle());
    forward?.addEventListener("click", () => this.stepForward());
    end?.addEventListener("click", () => this.goTo(this.#moves.length));
    speed?.addEventListener("input", () => this.#onSpeedChange());
    root.addEventListener("keydown", (event) => this.#onKeyDown(event));
    // A move made by hand means the solution no longer starts where the board is.
    board.addEventListener("board-move", (event) => {
      if (event.detail.source === "user") this.clear();
    });
    board.addEventListener("board-reset", () => this.clear());
    this.#onSpeedChange();
    this.#render();
  }

  get position() {
    return this.#position;
  }

  get length() {
    return this.#moves.length;
  }

  get playing() {
    return this.#playing;
  }

  /** Moves per second chosen on the slider (or set without one). */
  get movesPerSecond() {
    if (!this.#controls.speed) return this.#fixedSpeed;
    const index = Number(this.#controls.speed.value);
    return SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, index))];
  }

  /** Sets the speed: the slider moves to the nearest speed it offers; without one, any positive value. */
  set movesPerSecond(perSecond) {
    if (!(perSecond > 0)) return;
    const slider = this.#controls.speed;
    if (slider) {
      const nearest = SPEEDS.reduce((best, speed, i) => (Math.abs(speed - perSecond) < Math.abs(SPEEDS[best] - perSecond) ? i : best), 0);
      slider.value = String(nearest);
    } else {
      this.#fixedSpeed = perSecond;
    }
    this.#onSpeedChange();
  }

  /**
   * Takes a solution that starts from the board's current position (blank directions), and
   * optionally its stages: `stages` [{ tiles }] and `moveStages` (the stage index of each move).
   */
  load(moves, { stages = [], moveStages = [] } = {}) {
    this.pause();
    this.#moves = Array.from(moves);
    const staged = stages.length > 0 && moveStages.length === this.#moves.length;
    this.#stages = staged ? stages.map((stage) => ({ tiles: Array.from(stage.tiles) })) : [];
    this.#moveStages = staged ? Array.from(moveStages) : [];
    this.#position = 0;
    this.#render();
  }

  /** The stage of the next move ({ index, tiles }), or null (no stages, or at the end). */
  get stage() {
    if (this.#position >= this.#moveStages.length) return null;
    const index = this.#moveStages[this.#position];
    return { index, tiles: [...this.#stages[index].tiles] };
  }

  /** Forgets the solution (the board stays as it is). */
  clear() {
    if (this.#moves.length === 0 && this.#stages.length === 0 && !this.#playing) return;
    this.pause();
    this.#moves = [];
    this.#stages = [];
    this.#moveStages = [];
    this.#position = 0;
    this.#render();
  }

  toggle() {
    if (this.#playing) this.pause();
    else this.play();
  }

  play() {
    if (this.#moves.length === 0 || this.#playing) return;
    if (this.#position >= this.#moves.length) this.goTo(0);
    this.#playing = true;
    this.#render();
    this.#scheduleNext();
  }

  pause() {
    clearTimeout(this.#timer);
    this.#timer = 0;
    if (!this.#playing) return;
    this.#playing = false;
    this.#render();
  }

  stepForward() {
    this.pause();
    this.#forward();
  }

  stepBack() {
    this.pause();
    if (this.#position === 0) return;
    this.#board.moveBlank(OPPOSITE[this.#moves[this.#position - 1]], { takesBack: true });
    this.#position -= 1;
    this.#render();
  }

  /** Jumps to a position without animating the intermediate slides. */
  goTo(position) {
    this.pause();
    const target = Math.min(this.#moves.length, Math.max(0, position));
    if (target === this.#position) return;
    const slideMs = this.#board.slideMs;
    this.#board.slideMs = 0;
    while (this.#position < target) this.#board.moveBlank(this.#moves[this.#position++]);
    while (this.#position > target) this.#board.moveBlank(OPPOSITE[this.#moves[--this.#position]], { takesBack: true });
    // Let the board lay out at the new position before slides are animated again.
    this.#board.getBoundingClientRect();
    requestAnimationFrame(() => (this.#board.slideMs = slideMs));
    this.#render();
  }

  #forward() {
    if (this.#position >= this.#moves.length) return false;
    this.#board.moveBlank(this.#moves[this.#position]);
    this.#position += 1;
    this.#render();
    return true;
  }

  #scheduleNext() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (!this.#playing) return;
      this.#forward();
      if (this.#position >= this.#moves.length) this.pause();
      else this.#scheduleNext();
    }, 1000 / this.movesPerSecond);
  }

  #onSpeedChange() {
    const perSecond = this.movesPerSecond;
    if (this.#controls.speedLabel) {
      this.#controls.speedLabel.textContent = `${perSecond} ${perSecond === 1 ? "move" : "moves"}/s`;
    }
    this.#controls.speed?.setAttribute("aria-valuetext", `${perSecond} moves per second`);
    // Slides take most of a step, so fast playback still reads as motion rather than jumps.
    this.#board.slideMs = Math.min(160, (1000 / perSecond) * 0.7);
    if (this.#playing) this.#scheduleNext();
  }

  #onKeyDown(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const onSlider = event.target === this.#controls.speed;
    const actions = {
      ArrowLeft: () => this.stepBack(),
      ArrowRight: () => this.stepForward(),
      Home: () => this.goTo(0),
      End: () => this.goTo(this.#moves.length),
    };
    if (onSlider || !actions[event.key]) return;
    event.preventDefault();
    actions[event.key]();
  }

  #renderStage() {
    const stage = this.stage;
    this.#board.highlightTiles = stage?.tiles ?? [];
    const output = this.#controls.stage;
    if (!output) return;
    output.hidden = this.#stages.length === 0;
    output.dataset.tiles = stage ? stage.tiles.join(",") : "";
    output.textContent = !stage
      ? "All tiles placed."
      : `${placingText(stage.tiles)} (stage ${stage.index + 1} of ${this.#stages.length})`;
  }

  #render() {
    const { start, back, play, forward, end, position } = this.#controls;
    const length = this.#moves.length;
    const empty = length === 0;
    // In a shadow tree (the widget) document.activeElement is the host: ask the root's own tree.
    const active = this.#root.getRootNode().activeElement;
    const focused = Object.values(this.#controls).find((element) => element && element === active);
    if (start) start.disabled = empty || this.#position === 0;
    if (back) back.disabled = empty || this.#position === 0;
    if (forward) forward.disabled = empty || this.#position >= length;
    if (end) end.disabled = empty || this.#position >= length;
    if (play) {
      play.disabled = empty;
      const atEnd = !empty && this.#position >= length;
      play.textContent = this.#playing ? "Pause" : atEnd ? "Replay" : "Play";
      play.setAttribute("aria-pressed", String(this.#playing));
    }
    // A focused button that becomes disabled would drop focus to <body>; keep it in the player.
    if (focused?.disabled) (play && !play.disabled ? play : this.#root).focus();
    if (position) position.textContent = empty ? "No solution loaded" : `Step ${this.#position} of ${length}`;
    this.#renderStage();
    this.#root.toggleAttribute("data-playing", this.#playing);
    this.#root.dispatchEvent(
      new CustomEvent("player-change", {
        detail: { position: this.#position, length, playing: this.#playing },
      }),
    );
  }
}

/** "Placing tile 5", "Placing tiles 3, 4 together". */
export function placingText(tiles) {
  return tiles.length === 1 ? `Placing tile ${tiles[0]}` : `Placing tiles ${tiles.join(", ")} together`;
}
