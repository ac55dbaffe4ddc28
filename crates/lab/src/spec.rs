//! What a study is: the variant, its rule options, the engine's budget and
//! the openings. Everything that decides a game is in [`StudySpec`]; its
//! canonical JSON is stored with the study, and a study run again with
//! different options is refused.

use crate::LabError;
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use serde::{Deserialize, Serialize};

/// The engine's budget per move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// Fixed nodes per move: games are reproducible (game k is the same
    /// game on every machine and every run).
    Nodes(u64),
    /// Fixed time per move in milliseconds: depends on the machine and its
    /// load, so a resumed study's games are not the ones a single run would
    /// have played.
    MovetimeMs(u64),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Nodes(n) => write!(f, "{n} nodes a move"),
            Budget::MovetimeMs(t) => write!(f, "{t} ms a move"),
        }
    }
}

/// Everything that decides a study's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudySpec {
    /// Variant id (`chess`, `genie`, `genie-ownhalf`, `genesis`, `clown`, `magicring`).
    pub variant: String,
    /// The rule options in their text form (`chimera_rules::RuleOptions`;
    /// empty: the defaults).
    pub rules: String,
    pub budget: Budget,
    /// Random legal plies played from the start (or from the book's
    /// position) before the engine plays.
    pub random_plies: usize,
    /// Start positions (FEN), game k starts from line `k mod len`; empty =
    /// the variant's start position.
    pub book: Vec<String>,
    /// A game still running after this many engine plies is a draw.
    pub max_plies: usize,
    /// A side whose score stays beyond ±`resign_cp` for `resign_plies`
    /// engine plies in a row wins (0 = never adjudicate).
    pub resign_cp: i32,
    pub resign_plies: usize,
    /// Seed of the random openings: game k's opening depends on the seed and k only.
    pub seed: u64,
}

impl StudySpec {
    /// A spec with the lab's defaults for `variant`.
    pub fn new(variant: Variant) -> StudySpec {
        StudySpec {
            variant: variant.id().to_string(),
            rules: String::new(),
            budget: Budget::Nodes(1000),
            random_plies: 4,
            book: Vec::new(),
            max_plies: 300,
            resign_cp: 1200,
            resign_plies: 6,
            seed: 1,
        }
    }

    /// The variant, checked.
    pub fn variant(&self) -> Result<Variant, LabError> {
        self.variant.parse::<Variant>().map_err(|_| {
            LabError::BadInput(format!(
                "unknown variant '{}' (known: {})",
                self.variant,
                Variant::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(", ")
            ))
        })
    }

    /// The rule options, checked against the variant's.
    pub fn rule_options(&self) -> Result<RuleOptions, LabError> {
        self.variant()?.rule_options(&self.rules).map_err(|e| LabError::BadInput(format!("--rules: {e}")))
    }

    /// Checks every field; the error says which one is wrong.
    pub fn validate(&self) -> Result<(), LabError> {
        self.start_positions()?;
        match self.budget {
            Budget::Nodes(0) => return Err(LabError::BadInput("--nodes must be at least 1".into())),
            Budget::MovetimeMs(0) => return Err(LabError::BadInput("--movetime must be at least 1 ms".into())),
            _ => {}
        }
        if self.max_plies == 0 || self.max_plies > 2000 {
            return Err(LabError::BadInput("--max-plies must be between 1 and 2000".into()));
        }
        if self.random_plies > 40 {
            return Err(LabError::BadInput("--random-plies must be at most 40".into()));
        }
        if self.resign_plies > 0 && self.resign_cp <= 0 {
            return Err(LabError::BadInput("--resign-cp must be positive when --resign-plies is not 0".into()));
        }
        Ok(())
    }

    /// The start positions: the book's, or the variant's start position.
    pub fn start_positions(&self) -> Result<Vec<AnyPosition>, LabError> {
        let variant = self.variant()?;
        let opts = self.rule_options()?;
        if self.book.is_empty() {
            return Ok(vec![AnyPosition::new(variant, &opts)]);
        }
        self.book
            .iter()
            .enumerate()
            .map(|(i, fen)| {
                let pos = AnyPosition::from_fen(variant, fen, &opts)
                    .map_err(|e| LabError::BadInput(format!("book position {}: {e}: {fen}", i + 1)))?;
                if pos.outcome().is_some() {
                    return Err(LabError::BadInput(format!(
                        "book position {}: the game is already over: {fen}",
                        i + 1
                    )));
                }
                Ok(pos)
            })
            .collect()
    }

    /// The canonical JSON stored with the study.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A one-line description (`genie-ownhalf, 1000 nodes a move, 4 random plies`).
    pub fn describe(&self) -> String {
        let mut s = self.variant.clone();
        if !self.rules.is_empty() {
            s.push_str(&format!(" ({})", self.rules));
        }
        s.push_str(&format!(", {}", self.budget));
        if !self.book.is_empty() {
            s.push_str(&format!(", book of {} positions", self.book.len()));
        }
        s.push_str(&format!(", {} random opening plies", self.random_plies));
        s.push_str(&format!(", ply limit {}", self.max_plies));
        if self.resign_plies > 0 {
            s.push_str(&format!(", adjudicated at ±{} cp for {} plies", self.resign_cp, self.resign_plies));
        }
        s.push_str(&format!(", seed {}", self.seed));
        s
    }

    /// The fields in which `other` differs from `self`, as `name: stored → given`.
    pub fn differences(&self, other: &StudySpec) -> Vec<String> {
        let a = serde_json::to_value(self).unwrap_or_default();
        let b = serde_json::to_value(other).unwrap_or_default();
        let mut out = Vec::new();
        if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
            for (k, va) in a {
                let vb = b.get(k).cloned().unwrap_or_default();
                if *va != vb {
                    out.push(format!("{k}: {va} → {vb}"));
                }
            }
        }
        out
    }
}

/// Reads a book file: one FEN a line; empty lines and lines starting with
/// `#` are skipped. The positions are checked by [`StudySpec::validate`].
pub fn read_book(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_clear_errors() {
        let mut s = StudySpec::new(Variant::Chess);
        s.rules = "ring_powers=NKQ".into();
        assert!(s.validate().unwrap_err().to_string().contains("no rule option 'ring_powers'"));
        let mut s = StudySpec::new(Variant::MagicRing);
        s.rules = "ring_powers=XYZ".into();
        assert!(s.validate().unwrap_err().to_string().contains("'X' is not one of Q R B N K"));
        let mut s = StudySpec::new(Variant::Chess);
        s.variant = "checkers".into();
        assert!(s.validate().unwrap_err().to_string().contains("unknown variant 'checkers'"));
        let mut s = StudySpec::new(Variant::Chess);
        s.book = vec!["not a fen".into()];
        assert!(s.validate().unwrap_err().to_string().contains("book position 1"));
        let mut s = StudySpec::new(Variant::Chess);
        s.budget = Budget::Nodes(0);
        assert!(s.validate().is_err());
        assert!(StudySpec::new(Variant::MagicRing).validate().is_ok());
    }

    #[test]
    fn differences_name_the_field() {
        let a = StudySpec::new(Variant::Chess);
        let mut b = a.clone();
        b.budget = Budget::Nodes(500);
        b.seed = 9;
        let d = a.differences(&b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d.iter().any(|x| x.starts_with("budget")) && d.iter().any(|x| x.starts_with("seed: 1 → 9")));
    }
}
