//! # chimera-rules
//!
//! The rules of orthodox chess and of four variants — Genie Of The Lamp,
//! Genesis Chess, Clown Chess and Magic Ring Chess — as `shared/rules/`
//! states them: positions, legal moves, FEN, SAN, UCI move strings, PGN,
//! outcomes and perft.
//!
//! Every variant is a struct implementing [`Position`]; [`AnyPosition`]
//! dispatches over them at the boundaries (UCI, web, PGN). Legal move
//! generation is the single source of truth for the engine, the web UI, the
//! PGN reader and the match arbiter.
//!
//! ```
//! use chimera_rules::{Chess, Position, san};
//! let pos = Chess::new();
//! assert_eq!(pos.count_legal_moves(), 20);
//! let m = san::parse_san(&pos, "Nf3").unwrap();
//! assert_eq!(m.to_string(), "g1f3");
//! ```

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod chess;
pub mod fen;
pub mod game;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod san;
pub mod types;
pub mod variant;
pub mod variants;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use chess::Chess;
pub use fen::FenError;
pub use game::Game;
pub use moves::{Move, MoveKind, MoveList, UciMove};
pub use position::{CastlingRights, EndReason, IllegalMove, Outcome, Position};
pub use types::{ByColor, ByRole, Color, File, Piece, Rank, Role, Square};
pub use variant::{AnyPosition, RingPowers, RuleOptions, Variant};
pub use variants::{Clown, Genesis, Genie, MagicRing};
