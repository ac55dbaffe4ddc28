//! Magic Ring Chess — placeholder until the variant lands.
use crate::fen::FenError;
use crate::variant::{RingPowers, Variant};

super::placeholder_variant!(MagicRing, Variant::MagicRing);

impl MagicRing {
    pub fn new(_powers: RingPowers) -> MagicRing {
        MagicRing::placeholder()
    }
    pub fn from_fen(_fen: &str, _powers: &RingPowers) -> Result<MagicRing, FenError> {
        Err(MagicRing::not_yet())
    }
}
