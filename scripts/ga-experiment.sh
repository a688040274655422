#!/usr/bin/env bash
# The coursework's GA experiment (docs/sudoku.md, "Genetic algorithm"): one JSON line per run.
#
#   scripts/ga-experiment.sh table [SECONDS] [OUT]   populations 10, 100, 1,000, 10,000 × seeds 1-5
#                                                    × grid1-3, SECONDS each (default 60: the
#                                                    coursework's table, 60 CPU-minutes in all)
#   scripts/ga-experiment.sh solve [SECONDS] [OUT]   population 10,000 × seeds 1-5 × grid1-3 until
#                                                    243 or SECONDS (default 60)
#   scripts/ga-experiment.sh variants [SECONDS] [OUT] solve's runs for rows/boxes × repair off/on
#
# Extra arguments for `puzzlelab sudoku ga` can come through GA_ARGS. At the end a summary per
# grid and setting goes to stderr (best fitness per run, runs that reached 243, seconds to 243).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-solve}
seconds=${2:-60}
out=${3:-ga-$mode.jsonl}
cargo build --release --bin puzzlelab --quiet
bin=${CARGO_TARGET_DIR:-target}/release/puzzlelab
: >"$out"
run() { nice -n 10 "$bin" sudoku ga "$@" ${GA_ARGS:-} | tee -a "$out"; }
case $mode in
table)
    for grid in grid1 grid2 grid3; do
        for population in 10 100 1000 10000; do
            for seed in 1 2 3 4 5; do
                run --puzzle $grid --population $population --seconds "$seconds" --seed $seed
            done
        done
    done
    ;;
solve)
    for grid in grid1 grid2 grid3; do
        for seed in 1 2 3 4 5; do
            run --puzzle $grid --population 10000 --seconds "$seconds" --seed $seed
        done
    done
    ;;
variants)
    for grid in grid1 grid2 grid3; do
        for init in rows boxes; do
            for repair in "" --repair; do
                for seed in 1 2 3 4 5; do
                    run --puzzle $grid --population 10000 --seconds "$seconds" --seed $seed \
                        --init $init $repair
                done
            done
        done
    done
    ;;
*)
    echo "usage: $0 table|solve|variants [SECONDS] [OUT]" >&2
    exit 2
    ;;
esac
echo "summary:" >&2
jq -sc 'group_by([.givens, .population, .init, .repair])[] | {givens: .[0].givens,
    population: .[0].population, init: .[0].init, repair: .[0].repair,
    best: [.[].best_fitness], mean_best: ([.[].best_fitness] | add / length),
    solved: ([.[] | select(.solved)] | length), runs: length,
    seconds_to_solve: [.[].seconds_to_solve], generations: [.[].generations]}' "$out" >&2
