//! Clown Chess — placeholder until the variant lands.
use crate::fen::FenError;
use crate::variant::Variant;

super::placeholder_variant!(Clown, Variant::Clown);

impl Clown {
    pub fn new() -> Clown {
        Clown::placeholder()
    }
    pub fn from_fen(_fen: &str) -> Result<Clown, FenError> {
        Err(Clown::not_yet())
    }
}
