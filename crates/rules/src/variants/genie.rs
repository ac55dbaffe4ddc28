//! Genie Of The Lamp — placeholder until the variant lands.
use crate::fen::FenError;
use crate::variant::Variant;

super::placeholder_variant!(Genie, Variant::Genie);

impl Genie {
    pub fn new(_own_half: bool) -> Genie {
        Genie::placeholder()
    }
    pub fn from_fen(_fen: &str, _own_half: bool) -> Result<Genie, FenError> {
        Err(Genie::not_yet())
    }
}
