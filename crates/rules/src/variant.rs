//! The six variant ids, the game options, and `AnyPosition`: enum dispatch
//! over the per-variant structs for the boundaries (UCI, web, PGN, CLI).
//! Search and perft stay generic over [`Position`] and are compiled per variant.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::Chess;
use crate::fen::FenError;
use crate::moves::{Move, MoveList};
use crate::position::{CastlingRights, Position};
use crate::types::{Color, Role, Square};
use crate::variants::{Clown, Genesis, Genie, MagicRing};
use std::fmt;
use std::str::FromStr;

/// A variant id, as used by `UCI_Variant`, `[Variant "..."]` and `--variant`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Chess,
    Genie,
    GenieOwnHalf,
    Genesis,
    Clown,
    MagicRing,
}

impl Variant {
    pub const ALL: [Variant; 6] =
        [Variant::Chess, Variant::Genie, Variant::GenieOwnHalf, Variant::Genesis, Variant::Clown, Variant::MagicRing];

    pub const fn id(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Genie => "genie",
            Variant::GenieOwnHalf => "genie-ownhalf",
            Variant::Genesis => "genesis",
            Variant::Clown => "clown",
            Variant::MagicRing => "magicring",
        }
    }

    /// The game's name for people.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "Chess",
            Variant::Genie => "Genie Of The Lamp",
            Variant::GenieOwnHalf => "Genie Of The Lamp (own-half flips)",
            Variant::Genesis => "Genesis Chess",
            Variant::Clown => "Clown Chess",
            Variant::MagicRing => "Magic Ring Chess",
        }
    }

    /// Standard start position FEN.
    pub fn start_fen(self, opts: &RuleOptions) -> String {
        AnyPosition::new(self, opts).fen()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A variant id that is not one of the six.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected one of: {})",
            self.0,
            Variant::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "chess" | "standard" | "orthodox" => Variant::Chess,
            "genie" => Variant::Genie,
            "genie-ownhalf" | "genieownhalf" | "genie_ownhalf" => Variant::GenieOwnHalf,
            "genesis" => Variant::Genesis,
            "clown" => Variant::Clown,
            "magicring" | "magic-ring" | "magic_ring" => Variant::MagicRing,
            _ => return Err(UnknownVariant(s.to_string())),
        })
    }
}

/// The Magic Ring power list: 1 to 8 letters of Q R B N K, repeats allowed.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RingPowers {
    len: u8,
    roles: [Role; 8],
}

impl RingPowers {
    pub const DEFAULT: &'static str = "QNRB";

    pub fn roles(&self) -> &[Role] {
        &self.roles[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The power of a ring at `level` (1-based); level 0 has none.
    pub fn power(&self, level: u8) -> Option<Role> {
        if level == 0 {
            None
        } else {
            self.roles().get(level as usize - 1).copied()
        }
    }

    pub fn is_default(&self) -> bool {
        self.to_string() == Self::DEFAULT
    }
}

impl Default for RingPowers {
    fn default() -> Self {
        RingPowers::from_str(Self::DEFAULT).expect("default list is valid")
    }
}

impl FromStr for RingPowers {
    type Err = String;
    fn from_str(s: &str) -> Result<RingPowers, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err("ring power list is empty: give 1 to 8 letters of Q R B N K".into());
        }
        if s.chars().count() > 8 {
            return Err(format!("ring power list '{s}' has {} letters: at most 8", s.chars().count()));
        }
        let mut roles = [Role::Queen; 8];
        for (i, c) in s.chars().enumerate() {
            roles[i] = match c.to_ascii_uppercase() {
                'Q' => Role::Queen,
                'R' => Role::Rook,
                'B' => Role::Bishop,
                'N' => Role::Knight,
                'K' => Role::King,
                _ => return Err(format!("ring power list '{s}': '{c}' is not one of Q R B N K")),
            };
        }
        Ok(RingPowers { len: s.chars().count() as u8, roles })
    }
}

impl fmt::Display for RingPowers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.roles() {
            write!(f, "{}", r.upper_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for RingPowers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RingPowers({self})")
    }
}

/// Options agreed before a game (only Magic Ring has one today).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub ring_powers: RingPowers,
}

/// A position of any variant.
#[derive(Clone, Debug)]
pub enum AnyPosition {
    Chess(Chess),
    Genie(Genie),
    Genesis(Genesis),
    Clown(Clown),
    MagicRing(MagicRing),
}

/// Runs `$body` with `$p` bound to the concrete position inside an `AnyPosition`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Chess($p) => $body,
            $crate::AnyPosition::Genie($p) => $body,
            $crate::AnyPosition::Genesis($p) => $body,
            $crate::AnyPosition::Clown($p) => $body,
            $crate::AnyPosition::MagicRing($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The start position of a variant.
    pub fn new(variant: Variant, opts: &RuleOptions) -> AnyPosition {
        match variant {
            Variant::Chess => AnyPosition::Chess(Chess::new()),
            Variant::Genie => AnyPosition::Genie(Genie::new(false)),
            Variant::GenieOwnHalf => AnyPosition::Genie(Genie::new(true)),
            Variant::Genesis => AnyPosition::Genesis(Genesis::new()),
            Variant::Clown => AnyPosition::Clown(Clown::new()),
            Variant::MagicRing => AnyPosition::MagicRing(MagicRing::new(opts.ring_powers.clone())),
        }
    }

    /// Reads a FEN of the given variant.
    pub fn from_fen(variant: Variant, fen: &str, opts: &RuleOptions) -> Result<AnyPosition, FenError> {
        Ok(match variant {
            Variant::Chess => AnyPosition::Chess(Chess::from_fen(fen)?),
            Variant::Genie => AnyPosition::Genie(Genie::from_fen(fen, false)?),
            Variant::GenieOwnHalf => AnyPosition::Genie(Genie::from_fen(fen, true)?),
            Variant::Genesis => AnyPosition::Genesis(Genesis::from_fen(fen)?),
            Variant::Clown => AnyPosition::Clown(Clown::from_fen(fen)?),
            Variant::MagicRing => AnyPosition::MagicRing(MagicRing::from_fen(fen, &opts.ring_powers)?),
        })
    }

    /// Perft from this position.
    pub fn perft(&self, depth: u32) -> u64 {
        with_position!(self, p => crate::perft::perft(p, depth))
    }

    /// Perft split by first move, in move-string order.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        with_position!(self, p => crate::perft::divide(p, depth))
    }
}

impl Position for AnyPosition {
    fn variant(&self) -> Variant {
        with_position!(self, p => p.variant())
    }
    fn board(&self) -> &Board {
        with_position!(self, p => p.board())
    }
    fn turn(&self) -> Color {
        with_position!(self, p => p.turn())
    }
    fn castling(&self) -> CastlingRights {
        with_position!(self, p => p.castling())
    }
    fn ep_square(&self) -> Option<Square> {
        with_position!(self, p => p.ep_square())
    }
    fn halfmoves(&self) -> u32 {
        with_position!(self, p => p.halfmoves())
    }
    fn fullmoves(&self) -> u32 {
        with_position!(self, p => p.fullmoves())
    }
    fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }
    fn checkers(&self) -> Bitboard {
        with_position!(self, p => p.checkers())
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        with_position!(self, p => p.legal_moves(moves))
    }
    fn count_legal_moves(&self) -> u64 {
        with_position!(self, p => p.count_legal_moves())
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        with_position!(self, p => p.noisy_moves(moves))
    }
    fn attackers_with(&self, sq: Square, occ: Bitboard) -> Bitboard {
        with_position!(self, p => p.attackers_with(sq, occ))
    }
    fn play_unchecked(&mut self, m: Move) {
        with_position!(self, p => p.play_unchecked(m))
    }
    fn is_dead_material(&self) -> bool {
        with_position!(self, p => p.is_dead_material())
    }
    fn fen(&self) -> String {
        with_position!(self, p => p.fen())
    }
    fn moving_role(&self, m: Move) -> Option<Role> {
        with_position!(self, p => p.moving_role(m))
    }
    fn is_capture(&self, m: Move) -> bool {
        with_position!(self, p => p.is_capture(m))
    }
    fn is_zeroing(&self, m: Move) -> bool {
        with_position!(self, p => p.is_zeroing(m))
    }
    fn repetition_horizon(&self) -> u32 {
        with_position!(self, p => p.repetition_horizon())
    }
}
