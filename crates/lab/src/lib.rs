//! # chimera-lab
//!
//! The balance lab (`chimera lab`): a study is a variant with its rule
//! options, an engine budget, openings and a number of games. The lab plays
//! it by in-process self-play ([`run`]), keeps every game in the store
//! (`chimera-store`; the lab's queries are [`store`]), and reports it with
//! 95% intervals ([`analysis`], [`report`]): White's score, draws,
//! terminations, game lengths, the score by first move, special-move usage,
//! a typical game's evaluation and piece values fitted from the games
//! ([`fit`]). [`stats`] is the statistics' maths, shared with `chimera
//! match`: score intervals, Elo, the SPRT, Wilson intervals, z-tests.
//! `docs/lab/README.md` describes the commands and the statistics.
//!
//! Feature `play` (default): playing studies ([`run`]) and fitting piece
//! values, which need the engine's self-play and tuner. Without it the lab
//! reads, reports and serves stored studies: what the server's `/lab`
//! pages use.

pub mod analysis;
pub mod fit;
pub mod report;
#[cfg(feature = "play")]
pub mod run;
pub mod spec;
pub mod stats;
pub mod store;

/// What went wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabError {
    /// Bad options or arguments.
    BadInput(String),
    /// No study has this id.
    NoSuchStudy(String),
    /// A study run again with other options or another engine.
    Mismatch(String),
    /// The store could not be opened, read or written.
    Store(String),
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LabError::BadInput(s) | LabError::Mismatch(s) | LabError::Store(s) => f.write_str(s),
            LabError::NoSuchStudy(id) => write!(f, "no study '{id}' in the store (`chimera lab list` shows them)"),
        }
    }
}

impl std::error::Error for LabError {}
