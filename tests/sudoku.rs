//! Sudoku against public puzzle sets: the techniques are sound (every placement is the
//! solution's digit, no elimination removes it) and the logical rating tracks Sudoku Explainer's.
//!
//! The sets are public data kept in the repository, `data/sudoku/` (docs/sudoku-data.md says
//! where each comes from and under which licence). A missing file fails the test.

use puzzlelab::env::sudoku::{rate, search, Grid, Technique};
use std::collections::BTreeSet;

/// The public sets' directory in the repository.
fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sudoku")
}

fn rated_set() -> Vec<(Grid, f32)> {
    let path = data_dir().join("se_rated.csv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let set = text
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let grid = Grid::parse(fields.next().unwrap()).unwrap();
            let rating: f32 = fields.next().unwrap().parse().unwrap();
            (grid, rating)
        })
        .collect();
    set
}

/// Ranks with ties sharing their mean rank.
fn ranks(values: &[f32]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0;
        for &k in &order[i..=j] {
            ranks[k] = mean;
        }
        i = j + 1;
    }
    ranks
}

fn spearman(a: &[f32], b: &[f32]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

#[test]
fn spearman_of_identical_and_reversed_orders() {
    let a = [1.0, 2.0, 2.0, 3.0];
    assert!((spearman(&a, &a) - 1.0).abs() < 1e-12);
    let b = [3.0, 2.0, 2.0, 1.0];
    assert!((spearman(&a, &b) + 1.0).abs() < 1e-12);
}

#[test]
fn logical_rating_is_sound_and_tracks_sudoku_explainer() {
    let set = rated_set();
    // Every 4th puzzle by default (the whole set takes minutes); SUDOKU_RATE_EVERY=1 for all.
    let step = std::env::var("SUDOKU_RATE_EVERY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let mut ours = Vec::new();
    let mut used = BTreeSet::new();
    let mut theirs = Vec::new();
    let start = std::time::Instant::now();
    for (grid, se) in set.iter().step_by(step) {
        let solution = search(grid, 2).solution.unwrap();
        let rating = rate(grid);
        for s in &rating.steps {
            used.insert(s.technique);
            for &(cell, digit) in &s.placements {
                assert_eq!(
                    solution.get(cell),
                    digit,
                    "{:?} placed a wrong digit in {}",
                    s.technique,
                    grid.to_line()
                );
            }
            for &(cell, digit) in &s.eliminations {
                assert_ne!(
                    solution.get(cell),
                    digit,
                    "{:?} removed the solution's digit in {}",
                    s.technique,
                    grid.to_line()
                );
            }
        }
        if *se < 5.7 {
            // Everything SE solves below its chains our techniques finish too.
            assert!(rating.solved, "stuck on {} (SE {se})", grid.to_line());
        }
        ours.push(rating.rating);
        theirs.push(*se);
    }
    let rho = spearman(&ours, &theirs);
    eprintln!(
        "{} puzzles rated in {:.1} s, Spearman {rho:.3}",
        ours.len(),
        start.elapsed().as_secs_f64()
    );
    let mut by_se: Vec<(f32, f32)> = theirs.iter().copied().zip(ours.iter().copied()).collect();
    by_se.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut line = String::new();
    for chunk in by_se.chunk_by(|a, b| a.0 == b.0) {
        let mean = chunk.iter().map(|x| x.1).sum::<f32>() / chunk.len() as f32;
        line += &format!("{}→{mean:.2} ", chunk[0].0);
    }
    eprintln!("{line}");
    let unused: Vec<Technique> = Technique::ORDER
        .into_iter()
        .filter(|t| !used.contains(t))
        .collect();
    eprintln!("techniques never used: {unused:?}");
    assert!(rho >= 0.8, "Spearman {rho:.3}");
}
