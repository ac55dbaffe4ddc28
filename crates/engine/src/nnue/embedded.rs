//! The nets built into the binary (`crates/engine/nets/`).

use super::*;
use chimera_rules::Variant;

/// Whether a net trained for `net` evaluates `variant` (the Genie net
/// serves both Genie rule sets).
pub fn serves(net: Variant, variant: Variant) -> bool {
    net == variant || (net == Variant::Genie && variant == Variant::GenieOwnHalf)
}

/// The network built into the binary for `variant` (`None`: the variant
/// plays with the hand-made evaluation), read once from [`EMBEDDED`].
pub fn embedded(variant: Variant) -> Option<&'static Network> {
    use std::sync::OnceLock;
    static NETS: OnceLock<Vec<Network>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(name, bytes)| match Network::from_bytes(bytes, &format!("<embedded {name}>")) {
                Ok(n) => n,
                Err(e) => panic!("embedded net {name} is broken: {e}"),
            })
            .collect()
    });
    nets.iter().find(|n| n.variant == variant).or_else(|| nets.iter().find(|n| serves(n.variant, variant)))
}

/// The net files built into the binary (`crates/engine/nets/`, how each
/// was made and measured: strength §9-§22). Only nets that beat the
/// hand-made evaluation are listed: `Use NNUE` switches every variant
/// with a net here at once.
pub(super) const EMBEDDED: &[(&str, &[u8])] = &[
    ("chess", include_bytes!("../../nets/chess.nnue")),
    ("genie", include_bytes!("../../nets/genie.nnue")),
    ("clown", include_bytes!("../../nets/clown.nnue")),
    ("magicring", include_bytes!("../../nets/magicring.nnue")),
    ("genesis", include_bytes!("../../nets/genesis.nnue")),
];
