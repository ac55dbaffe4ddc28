//! chimera-train: the offline tools around the engine, kept out of the
//! engine library so that what plays (the web server, the terminal app, a
//! UCI session) does not link them.
//!
//! - [`datagen`]: self-play games as compact binary records (`chimera
//!   datagen`), read back by the tuner and the trainer;
//! - [`tune`]: Texel tuning of the hand-made evaluation's values (`chimera
//!   tune`), which writes `crates/engine/src/eval/values.rs`;
//! - [`train`]: training a network (`chimera train`) in the engine's file
//!   format (`chimera_engine::nnue`).

pub mod datagen;
pub mod train;
pub mod tune;

#[cfg(test)]
pub(crate) mod test_support;
