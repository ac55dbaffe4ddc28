//! One module per variant, each readable beside its file in `docs/rules/`.

pub mod clown;
pub mod genesis;
pub mod genie;
pub mod magicring;

pub use clown::Clown;
pub use genesis::Genesis;
pub use genie::Genie;
pub use magicring::MagicRing;
