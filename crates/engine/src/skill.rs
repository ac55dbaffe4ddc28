//! Weakened play (UCI `Skill Level`, `UCI_Elo`): below level 20 the
//! search is capped in depth and nodes, looks at several lines, and picks
//! among them the way a weaker player would.

use crate::search::{RootMove, MATE_BOUND};
use crate::{Engine, SplitMix};

/// Playing strength: `skill` 0-20 (20 = full), or an Elo target.
#[derive(Clone, Debug)]
pub struct Strength {
    pub skill: u8,
    pub elo: Option<u32>,
}

impl Strength {
    /// The skill level actually used: `elo` (when set) mapped onto 0-20,
    /// linearly from 600 (level 0) to 2800 (level 20 = full strength).
    pub fn effective_skill(&self) -> u8 {
        match self.elo {
            Some(elo) => ((elo.clamp(600, 2800) - 600) * 20 / 2200) as u8,
            None => self.skill.min(20),
        }
    }
}

impl Default for Strength {
    fn default() -> Self {
        Strength { skill: 20, elo: None }
    }
}

/// Lines a weakened search looks at (MultiPV), to choose among.
pub(crate) const LINES: usize = 4;

/// Whether level `skill` plays weaker than full strength.
pub(crate) fn is_weak(skill: u8) -> bool {
    skill < 20
}

/// The depth and node limits of a weakened search at level `skill`, from
/// the search's own (`max_depth`, `max_nodes`).
pub(crate) fn caps(skill: u8, max_depth: i32, max_nodes: Option<u64>) -> (i32, Option<u64>) {
    let depth = max_depth.min((skill as i32 + 3) / 2 + 1);
    let cap = (200.0 * 1.6f64.powi(skill as i32)) as u64;
    (depth, Some(max_nodes.map_or(cap, |n| n.min(cap))))
}

impl Engine {
    /// Picks among the MultiPV lines the way a weaker player would: each
    /// line gets a random bonus that grows as the skill falls, so low levels
    /// often prefer a worse move while level 19 rarely does.
    pub(crate) fn weak_choice(&self, lines: &[RootMove], skill: u8, key: u64) -> usize {
        let mut rng = SplitMix(self.seed ^ key);
        let top = lines[0].score;
        let weakness = 120 - 2 * skill as i32;
        let delta = (top - lines[lines.len() - 1].score).clamp(0, 100);
        let mut best = 0;
        let mut best_val = i32::MIN;
        for (i, l) in lines.iter().enumerate() {
            if l.score <= -MATE_BOUND && i > 0 {
                continue;
            }
            let push = (weakness * (top - l.score) / 128).min(10_000);
            let noise =
                delta * (rng.next() % weakness as u64) as i32 / 128 + (rng.next() % (weakness as u64 + 1)) as i32;
            let v = l.score - push + noise;
            if v > best_val {
                best_val = v;
                best = i;
            }
        }
        best
    }
}
