//! # chimera-rules
//!
//! The rules of orthodox chess and of four chess variants, exactly as their
//! inventors wrote them: Genie Of The Lamp, Genesis Chess, Clown Chess and
//! Magic Ring Chess. Positions, legal moves, FEN, SAN, UCI move strings, PGN,
//! game outcomes and perft. The rules themselves, in full, are in the
//! project's `docs/rules/` pages.
//!
//! Every variant is a struct implementing the [`Position`] trait ([`Chess`],
//! [`Genie`], [`Genesis`], [`Clown`], [`MagicRing`]); code that knows the
//! variant at compile time uses them directly, and [`AnyPosition`] dispatches
//! over them where the variant is only known at run time (a PGN tag, a UCI
//! option, a web request). Legal move generation is the single source of
//! truth: an engine, a user interface, the PGN reader and a match arbiter all
//! ask it.
//!
//! ```
//! use chimera_rules::{san, AnyPosition, Chess, Position, RuleOptions, Variant};
//!
//! // Orthodox chess, with the concrete type.
//! let pos = Chess::new();
//! assert_eq!(pos.count_legal_moves(), 20);
//! let m = san::parse_san(&pos, "Nf3")?;
//! assert_eq!(m.to_string(), "g1f3");
//!
//! // Genesis Chess, chosen at run time: the board starts empty and every
//! // first move places the King from the reserve.
//! let variant: Variant = "genesis".parse()?;
//! let pos = AnyPosition::new(variant, &RuleOptions::default());
//! let first: Vec<String> = pos.legal_move_list().iter().map(|m| san::to_san(&pos, *m)).collect();
//! assert!(first.iter().all(|s| s.starts_with("K@")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate has no unsafe code behind a safe function that a caller could
//! misuse, and every reader of outside text (FEN, SAN, UCI strings, PGN)
//! answers bad input with a typed error that says what was wrong.

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod chess;
mod describe;
mod fen;
mod game;
mod moves;
pub mod perft;
pub mod pgn;
mod position;
pub mod san;
mod types;
mod variant;
mod variants;
mod zobrist;

pub use bitboard::{BitIter, Bitboard};
pub use board::Board;
pub use chess::Chess;
pub use describe::{Describe, OptionSpec, RuleOptionsError, VariantInfo};
pub use fen::FenError;
pub use game::Game;
pub use moves::{Move, MoveKind, MoveList, ParseUciMoveError, UciMove, UciMoveErrorKind, MAX_MOVES};
pub use position::{CastlingRights, EndReason, IllegalMove, Outcome, Position};
pub use types::{ByColor, ByRole, BySquare, Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub use variant::{AnyPosition, ParseRingPowersError, RingPowers, RuleOptions, UnknownVariant, Variant};
pub use variants::{Clown, Genesis, Genie, MagicRing};

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
