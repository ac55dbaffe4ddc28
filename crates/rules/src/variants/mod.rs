//! One module per variant, each readable beside its file in `shared/rules/`.

pub mod clown;
pub mod genesis;
pub mod genie;
pub mod magicring;

pub use clown::Clown;
pub use genesis::Genesis;
pub use genie::Genie;
pub use magicring::MagicRing;

/// Temporary: a variant not yet implemented behaves as orthodox chess and
/// refuses every FEN. Removed as each variant lands.
macro_rules! placeholder_variant {
    ($name:ident, $variant:expr) => {
        #[derive(Clone, Debug)]
        pub struct $name {
            inner: $crate::chess::Chess,
        }
        impl $name {
            fn placeholder() -> $name {
                $name { inner: $crate::chess::Chess::new() }
            }
            fn not_yet() -> $crate::fen::FenError {
                $crate::fen::FenError::Variant(format!("variant {} is not implemented yet", $variant))
            }
        }
        impl $crate::position::Position for $name {
            fn variant(&self) -> $crate::variant::Variant {
                $variant
            }
            fn board(&self) -> &$crate::board::Board {
                self.inner.board()
            }
            fn turn(&self) -> $crate::types::Color {
                self.inner.turn()
            }
            fn castling(&self) -> $crate::position::CastlingRights {
                self.inner.castling()
            }
            fn ep_square(&self) -> Option<$crate::types::Square> {
                self.inner.ep_square()
            }
            fn halfmoves(&self) -> u32 {
                self.inner.halfmoves()
            }
            fn fullmoves(&self) -> u32 {
                self.inner.fullmoves()
            }
            fn hash(&self) -> u64 {
                self.inner.hash()
            }
            fn checkers(&self) -> $crate::bitboard::Bitboard {
                self.inner.checkers()
            }
            fn legal_moves(&self, moves: &mut $crate::moves::MoveList) {
                self.inner.legal_moves(moves)
            }
            fn play_unchecked(&mut self, m: $crate::moves::Move) {
                self.inner.play_unchecked(m)
            }
            fn is_dead_material(&self) -> bool {
                self.inner.is_dead_material()
            }
            fn fen(&self) -> String {
                self.inner.fen()
            }
        }
    };
}
pub(crate) use placeholder_variant;
