//! The schedules around the learner: ε of the ε-greedy behaviour, and the curriculum that raises
//! the difficulty.

/// ε after `episodes` finished episodes: `start · decay^episodes`, never below `min`
/// (dissertation: 0.9 · 0.999^episode, floored at 0.3).
pub fn epsilon_at(start: f32, decay: f32, min: f32, episodes: usize) -> f32 {
    let power = episodes.min(i32::MAX as usize) as i32;
    ((start as f64 * (decay as f64).powi(power)) as f32).max(min)
}

/// The dissertation's curriculum: raise the difficulty once `streak_needed` evaluations in a row
/// solve more than `threshold` of their puzzles (dissertation: 3 above 80%). The caller changes the
/// environments (for example through [`Dqn::for_each_env`](super::Dqn::for_each_env)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curriculum {
    /// The solved rate an evaluation must exceed.
    pub threshold: f32,
    /// Evaluations in a row above the threshold before the difficulty goes up.
    pub streak_needed: usize,
    streak: usize,
}

impl Curriculum {
    /// Three evaluations in a row above 80% (the N-puzzle DQN dissertation's rule).
    pub fn three_above_80_percent() -> Self {
        Curriculum::new(0.8, 3)
    }

    /// A curriculum with this threshold and streak.
    pub fn new(threshold: f32, streak_needed: usize) -> Self {
        Curriculum {
            threshold,
            streak_needed,
            streak: 0,
        }
    }

    /// Records one evaluation's solved rate; `true` when the difficulty should go up now (the
    /// streak then starts again).
    pub fn record(&mut self, solved_rate: f32) -> bool {
        if solved_rate > self.threshold {
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        if self.streak >= self.streak_needed {
            self.streak = 0;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epsilon_decays_geometrically_to_its_floor() {
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, 0), 0.9);
        assert!((epsilon_at(0.9, 0.999, 0.3, 100) - 0.9 * 0.999f32.powi(100)).abs() < 1e-6);
        // 0.9 · 0.999^n reaches 0.3 after ln(3)/−ln(0.999) ≈ 1098 episodes.
        assert!(epsilon_at(0.9, 0.999, 0.3, 1097) > 0.3);
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, 1099), 0.3);
        assert_eq!(epsilon_at(0.9, 0.999, 0.3, usize::MAX), 0.3);
    }

    #[test]
    fn curriculum_needs_three_evaluations_in_a_row_above_80_percent() {
        let mut c = Curriculum::three_above_80_percent();
        let raises: Vec<bool> = [0.9, 0.9, 0.8, 0.9, 0.9, 1.0, 0.9]
            .into_iter()
            .map(|r| c.record(r))
            .collect();
        assert_eq!(
            raises,
            [false, false, false, false, false, true, false],
            "0.8 is not above 80% and breaks the streak"
        );
    }
}
