// What a batch of 2048 games reached, in JavaScript: the learning worker plays a DQN's evaluation
// games a few at a time (LearnedModel.evaluate) and merges their statistics here, and the page
// reads reach rates from them. Mirrors GameStats and GameStats::summary in src/env/game2048/stats.rs, so
// that a summary made here has the numbers (and names) `puzzlelab 2048 eval --agent dqn` prints.

/** The tiles whose reach rates a summary gives (REPORTED_TILES in src/env/game2048/stats.rs). */
export const REPORTED_TILES = [1024, 2048, 4096, 8192, 16384, 32768];

/** No games yet: { games, moves, scores, max_tile_counts } (max_tile_counts[e]: games whose largest tile was 2^e). */
export function emptyGameStats() {
  return { games: 0, moves: 0, scores: [], max_tile_counts: new Array(16).fill(0) };
}

/** `into` with `other`'s games added after its own (GameStats::merge); returns `into`. */
export function mergeGameStats(into, other) {
  into.games += other.games;
  into.moves += other.moves;
  into.scores.push(...other.scores);
  other.max_tile_counts.forEach((count, exponent) => (into.max_tile_counts[exponent] += count));
  return into;
}

/** The fraction of games whose largest tile reached at least `tile` (any power of two: 512 too). */
export function reachRate(stats, tile) {
  if (!stats.games) return 0;
  const exponent = Math.log2(tile);
  const reached = stats.max_tile_counts.slice(Math.min(exponent, 16)).reduce((sum, count) => sum + count, 0);
  return reached / stats.games;
}

/**
 * The batch in a few numbers, given the seconds it took (GameStats::summary): { games, mean_score,
 * median_score (the upper median), max_score, mean_moves, reach: { "1024": rate, … }, seconds,
 * games_per_s, moves_per_s }.
 */
export function summarizeGames(stats, seconds) {
  const { games, moves, scores } = stats;
  const sorted = [...scores].sort((a, b) => a - b);
  const perSecond = (n) => (seconds > 0 ? n / seconds : 0);
  return {
    games,
    mean_score: scores.length ? scores.reduce((sum, score) => sum + score, 0) / scores.length : 0,
    median_score: sorted[sorted.length >> 1] ?? 0,
    max_score: sorted.at(-1) ?? 0,
    mean_moves: games ? moves / games : 0,
    reach: Object.fromEntries(REPORTED_TILES.map((tile) => [String(tile), reachRate(stats, tile)])),
    seconds,
    games_per_s: perSecond(games),
    moves_per_s: perSecond(moves),
  };
}
