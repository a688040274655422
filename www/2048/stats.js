// What a batch of 2048 games reached, read in JavaScript: the statistics of a DQN's evaluation games
// (GameStats in src/env/game2048/stats.rs, as the learning worker reports them) give the reach
// rate of any tile, 512 too.

/** The fraction of games whose largest tile reached at least `tile` (any power of two: 512 too). */
export function reachRate(stats, tile) {
  if (!stats.games) return 0;
  const exponent = Math.log2(tile);
  const reached = stats.max_tile_counts.slice(Math.min(exponent, 16)).reduce((sum, count) => sum + count, 0);
  return reached / stats.games;
}
