//! Genesis Chess — placeholder until the variant lands.
use crate::fen::FenError;
use crate::variant::Variant;

super::placeholder_variant!(Genesis, Variant::Genesis);

impl Genesis {
    pub fn new() -> Genesis {
        Genesis::placeholder()
    }
    pub fn from_fen(_fen: &str) -> Result<Genesis, FenError> {
        Err(Genesis::not_yet())
    }
}
