//! The six variant ids, the game options, and `AnyPosition`: enum dispatch
//! over the per-variant structs for the boundaries (UCI, web, PGN, CLI).
//! Search and perft stay generic over [`Position`] and are compiled per variant.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::Chess;
use crate::describe::{OptionSpec, RuleOptionsError, VariantInfo};
use crate::fen::FenError;
use crate::moves::{Move, MoveList, UciMove};
use crate::position::{CastlingRights, Position};
use crate::types::{Color, Role, Square};
use crate::variants::{Clown, Genesis, Genie, MagicRing};
use std::fmt;
use std::str::FromStr;

/// A variant id, as used by `UCI_Variant`, `[Variant "..."]` and `--variant`.
///
/// [`FromStr`] reads the id in any case, with surrounding white space, and
/// a few aliases (`standard`, `orthodox`, `magic-ring`, `genie_ownhalf`,
/// ...); anything else is an [`UnknownVariant`] whose message lists the ids.
///
/// ```
/// use chimera_rules::Variant;
///
/// let v: Variant = "Magic-Ring".parse()?;
/// assert_eq!(v, Variant::MagicRing);
/// assert_eq!(v.to_string(), "magicring");
/// assert_eq!(v.name(), "Magic Ring Chess");
/// assert!("shogi".parse::<Variant>().is_err());
/// for v in Variant::ALL {
///     assert_eq!(v.id().parse::<Variant>(), Ok(v));
/// }
/// # Ok::<(), chimera_rules::UnknownVariant>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Orthodox chess, FIDE rules: id `chess`.
    Chess,
    /// Genie Of The Lamp, 2021 rules (`docs/rules/genie.md`): a pawn may flip
    /// into a Genie in place; id `genie`.
    Genie,
    /// Genie Of The Lamp, the blog rules (`docs/rules/genie.md`): a flip only on
    /// the player's own half of the board; id `genie-ownhalf`.
    GenieOwnHalf,
    /// Genesis Chess (`docs/rules/genesis.md`): the board starts empty and each
    /// side places its pieces from a reserve, the King first; id `genesis`.
    Genesis,
    /// Clown Chess (`docs/rules/clown.md`): a Knight may be declared a Clown, and
    /// captured pieces may re-enter; id `clown`.
    Clown,
    /// Magic Ring Chess (`docs/rules/magicring.md`): each side has a ring that
    /// gives the piece carrying it a power, and passes from piece to piece; id
    /// `magicring`. Its list of powers is a rule option ([`RuleOptions`]).
    MagicRing,
}

impl Variant {
    /// All six variants: `chess`, `genie`, `genie-ownhalf`, `genesis`,
    /// `clown`, `magicring`, in that order.
    pub const ALL: [Variant; 6] =
        [Variant::Chess, Variant::Genie, Variant::GenieOwnHalf, Variant::Genesis, Variant::Clown, Variant::MagicRing];

    /// Everything fixed about the variant that a front end shows (names,
    /// rules page, pocket, rule options), from the variant's own module.
    /// This match is the one place that lists the variants' modules.
    pub const fn info(self) -> &'static VariantInfo {
        match self {
            Variant::Chess => &crate::chess::INFO,
            Variant::Genie => &crate::variants::genie::INFO,
            Variant::GenieOwnHalf => &crate::variants::genie::INFO_OWN_HALF,
            Variant::Genesis => &crate::variants::genesis::INFO,
            Variant::Clown => &crate::variants::clown::INFO,
            Variant::MagicRing => &crate::variants::magicring::INFO,
        }
    }

    /// The variant id (`"chess"`, `"genie-ownhalf"`, `"magicring"`, ...):
    /// what `Display` writes and [`FromStr`] reads back.
    pub const fn id(self) -> &'static str {
        self.info().id
    }

    /// The game's name for people.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// One sentence that tells a player what the game is about (lobbies,
    /// menus, `chimera variants`).
    pub const fn summary(self) -> &'static str {
        self.info().summary
    }

    /// The name of the variant's complete rules page in the project's
    /// `docs/rules/` (both Genie rule sets share one page).
    pub const fn rules_page(self) -> &'static str {
        self.info().rules_page
    }

    /// Whether the rules are the same in a mirror (files a ↔ h) once
    /// castling rights are gone: a position without them and its mirror have
    /// the mirrored legal moves, and so the same value. True for every
    /// variant but Clown, whose Knights move by the file they stand on.
    /// (`chimera train --mirror` uses it to learn each position twice.)
    pub const fn mirror_symmetric(self) -> bool {
        self.info().mirror_symmetric
    }

    /// Other spellings [`FromStr`] accepts for the id (lower case).
    pub const fn aliases(self) -> &'static [&'static str] {
        self.info().aliases
    }

    /// Reads rule options in their text form ([`RuleOptions`]' `FromStr`)
    /// and checks that this variant has each one: `ring_powers=NQ` is a
    /// Magic Ring option, an error for chess. Empty text is the defaults.
    pub fn rule_options(self, text: &str) -> Result<RuleOptions, RuleOptionsError> {
        let opts: RuleOptions = text.parse()?;
        self.check_options(&opts)?;
        Ok(opts)
    }

    /// Checks that every option in `opts` that differs from its default is
    /// one of this variant's.
    pub fn check_options(self, opts: &RuleOptions) -> Result<(), RuleOptionsError> {
        for spec in RuleOptions::specs() {
            if (spec.get)(opts) != spec.default && !self.info().options.iter().any(|o| o.key == spec.key) {
                return Err(RuleOptionsError(format!(
                    "{} has no rule option '{}' ({})",
                    self.name(),
                    spec.key,
                    match self.info().options {
                        [] => "it has none".to_string(),
                        list => format!("its options: {}", list.iter().map(|o| o.key).collect::<Vec<_>>().join(", ")),
                    }
                )));
            }
        }
        Ok(())
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
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == t || v.aliases().contains(&t.as_str()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// The Magic Ring power list: 1 to 8 letters of Q R B N K, repeats allowed
/// (`docs/rules/magicring.md`). A ring at level `k` (1-based) on a piece
/// other than a King gives it the power of the `k`-th letter; level 0 (a ring
/// that has never moved) gives none.
///
/// [`FromStr`] reads the letters in either case, surrounding white space
/// ignored; an empty list, more than 8 letters or another letter is a
/// [`ParseRingPowersError`]. `Display` writes the letters in upper case.
///
/// ```
/// use chimera_rules::{ParseRingPowersError, RingPowers, Role};
///
/// let powers: RingPowers = "qnrb".parse()?;
/// assert!(powers.is_default());
/// assert_eq!(powers.to_string(), "QNRB");
/// assert_eq!(powers.power(0), None);
/// assert_eq!(powers.power(1), Some(Role::Queen));
/// assert_eq!(powers.power(4), Some(Role::Bishop));
/// assert_eq!(powers.power(5), None);
///
/// let err = "QX".parse::<RingPowers>().unwrap_err();
/// assert!(matches!(err, ParseRingPowersError::BadLetter { letter: 'X', .. }));
/// # Ok::<(), ParseRingPowersError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RingPowers {
    len: u8,
    roles: [Role; 8],
}

impl RingPowers {
    /// The default power list, `QNRB`: level 1 Queen, 2 Knight, 3 Rook,
    /// 4 Bishop.
    pub const DEFAULT: &'static str = "QNRB";

    /// The powers in level order: the power of level 1 first.
    pub fn roles(&self) -> &[Role] {
        &self.roles[..self.len as usize]
    }

    /// The number of powers, 1 to 8; after the last level a ring's level wraps
    /// round to 1.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always `false`: a list has 1 to 8 powers (only here because `len` is).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The power of a ring at `level` (1-based); `None` for level 0 and for a
    /// level past the end of the list.
    pub fn power(&self, level: u8) -> Option<Role> {
        if level == 0 {
            None
        } else {
            self.roles().get(level as usize - 1).copied()
        }
    }

    /// Whether the list is the default, `QNRB`.
    pub fn is_default(&self) -> bool {
        self.to_string() == Self::DEFAULT
    }
}

impl Default for RingPowers {
    fn default() -> Self {
        RingPowers::from_str(Self::DEFAULT).expect("default list is valid")
    }
}

/// Why a ring power list cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseRingPowersError {
    /// No letter at all.
    Empty,
    /// More than 8 letters.
    TooLong {
        /// The list as given.
        input: String,
        /// How many letters it has.
        letters: usize,
    },
    /// A letter that is not one of Q R B N K.
    BadLetter {
        /// The list as given.
        input: String,
        /// The offending letter.
        letter: char,
    },
}

impl fmt::Display for ParseRingPowersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRingPowersError::Empty => f.write_str("ring power list is empty: give 1 to 8 letters of Q R B N K"),
            ParseRingPowersError::TooLong { input, letters } => {
                write!(f, "ring power list '{input}' has {letters} letters: at most 8")
            }
            ParseRingPowersError::BadLetter { input, letter } => {
                write!(f, "ring power list '{input}': '{letter}' is not one of Q R B N K")
            }
        }
    }
}

impl std::error::Error for ParseRingPowersError {}

impl FromStr for RingPowers {
    type Err = ParseRingPowersError;
    fn from_str(s: &str) -> Result<RingPowers, ParseRingPowersError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseRingPowersError::Empty);
        }
        let letters = s.chars().count();
        if letters > 8 {
            return Err(ParseRingPowersError::TooLong { input: s.to_string(), letters });
        }
        let mut roles = [Role::Queen; 8];
        for (i, c) in s.chars().enumerate() {
            roles[i] = match c.to_ascii_uppercase() {
                'Q' => Role::Queen,
                'R' => Role::Rook,
                'B' => Role::Bishop,
                'N' => Role::Knight,
                'K' => Role::King,
                _ => return Err(ParseRingPowersError::BadLetter { input: s.to_string(), letter: c }),
            };
        }
        Ok(RingPowers { len: letters as u8, roles })
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

/// Options agreed before a game (only Magic Ring has one today). Which
/// variant has which option, with its default, is the variant's schema
/// ([`VariantInfo::options`]).
///
/// The text form (`Display`/`FromStr`, one database column, `--rules`) is
/// `key=value` pairs joined by `,`, each option that differs from its
/// default, in a fixed order: the defaults are the empty text. `FromStr`
/// reads any variant's options; [`Variant::rule_options`] also checks that
/// the variant has them.
///
/// ```
/// use chimera_rules::RuleOptions;
///
/// let o: RuleOptions = " ring_powers = nkq ".parse()?;
/// assert_eq!(o.ring_powers.to_string(), "NKQ");
/// assert_eq!(o.to_string(), "ring_powers=NKQ");
/// assert_eq!("ring_powers=QNRB".parse::<RuleOptions>()?.to_string(), "");
/// assert!("powers=NQ".parse::<RuleOptions>().is_err());
/// # Ok::<(), chimera_rules::RuleOptionsError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    /// The Magic Ring power list (`docs/rules/magicring.md`); the other
    /// variants ignore it. Default `QNRB`.
    pub ring_powers: RingPowers,
}

impl RuleOptions {
    /// Every variant's option specs, each once, in [`Variant::ALL`]'s order.
    pub fn specs() -> impl Iterator<Item = &'static OptionSpec> {
        Variant::ALL.into_iter().enumerate().flat_map(|(i, v)| {
            v.info()
                .options
                .iter()
                .filter(move |o| !Variant::ALL[..i].iter().any(|w| w.info().options.iter().any(|x| x.key == o.key)))
        })
    }

    /// The spec of the option named `key` (its text-form key, or its UCI or
    /// PGN name, in any case).
    pub fn spec(key: &str) -> Option<&'static OptionSpec> {
        Self::specs().find(|o| {
            o.key.eq_ignore_ascii_case(key) || o.uci.eq_ignore_ascii_case(key) || o.pgn_tag.eq_ignore_ascii_case(key)
        })
    }

    /// Sets the option named `key` (see [`RuleOptions::spec`]) from text.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleOptionsError> {
        let spec = Self::spec(key).ok_or_else(|| {
            RuleOptionsError(format!(
                "unknown rule option '{key}' (known: {})",
                Self::specs().map(|o| o.key).collect::<Vec<_>>().join(", ")
            ))
        })?;
        (spec.set)(self, value).map_err(RuleOptionsError)
    }

    /// The options of `variant` with their values (defaults included), in
    /// the variant's order: what a game's page shows.
    pub fn values(&self, variant: Variant) -> Vec<(&'static OptionSpec, String)> {
        variant.info().options.iter().map(|o| (o, (o.get)(self))).collect()
    }
}

impl fmt::Display for RuleOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for spec in Self::specs() {
            let v = (spec.get)(self);
            if v != spec.default {
                write!(f, "{}{}={v}", if first { "" } else { "," }, spec.key)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl FromStr for RuleOptions {
    type Err = RuleOptionsError;
    fn from_str(s: &str) -> Result<RuleOptions, RuleOptionsError> {
        let mut opts = RuleOptions::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                RuleOptionsError(format!("rule option '{part}' is not key=value (for example ring_powers=NQ)"))
            })?;
            let key = k.trim();
            let spec = RuleOptions::spec(key).map(|o| o.key);
            if let Some(sk) = spec {
                if seen.contains(&sk) {
                    return Err(RuleOptionsError(format!("rule option '{sk}' is given twice")));
                }
                seen.push(sk);
            }
            opts.set(key, v.trim())?;
        }
        Ok(opts)
    }
}

/// A position of any variant, for code that learns the variant at run time
/// (a PGN tag, a UCI option, a web request). It implements [`Position`] by
/// passing each call to the struct inside; code that knows the variant at
/// compile time can use that struct directly.
///
/// ```
/// use chimera_rules::{AnyPosition, Color, FenError, Position, RuleOptions, Variant};
///
/// let opts = RuleOptions::default();
/// let pos = AnyPosition::from_fen(Variant::Chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &opts)?;
/// assert_eq!(pos.variant(), Variant::Chess);
/// assert_eq!(pos.count_legal_moves(), 6); // Kd1 Kd2 Kf1 Kf2 e3 e4
///
/// // A Genie (`G`) is a piece of Genie Of The Lamp, not of orthodox chess.
/// let genie_fen = "4k3/8/8/8/8/8/4G3/4K3 w - - 0 1";
/// assert_eq!(AnyPosition::from_fen(Variant::Genie, genie_fen, &opts)?.variant(), Variant::Genie);
/// let err = AnyPosition::from_fen(Variant::Chess, genie_fen, &opts).unwrap_err();
/// assert_eq!(err, FenError::PieceNotInVariant('G'));
///
/// let err = AnyPosition::from_fen(Variant::Chess, "8/8/8/8/8/8/8/8 w - - 0 1", &opts).unwrap_err();
/// assert_eq!(err, FenError::MissingKing(Color::White));
/// # Ok::<(), FenError>(())
/// ```
#[derive(Clone, Debug)]
pub enum AnyPosition {
    /// An orthodox chess position.
    Chess(Chess),
    /// A Genie Of The Lamp position, of either rule set (`genie` or
    /// `genie-ownhalf`).
    Genie(Genie),
    /// A Genesis Chess position.
    Genesis(Genesis),
    /// A Clown Chess position.
    Clown(Clown),
    /// A Magic Ring Chess position.
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

    /// Reads a FEN of the given variant, with its extensions (`docs/fen.md`);
    /// `opts` gives the Magic Ring powers unless the FEN has a `powers:`
    /// field. Bad input is a [`FenError`] that says what is wrong.
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

    /// Perft from this position: see [`perft::perft`](crate::perft::perft).
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
    fn quiet_moves(&self, moves: &mut MoveList) {
        with_position!(self, p => p.quiet_moves(moves))
    }
    fn quiet_checks(&self, moves: &mut MoveList) -> bool {
        with_position!(self, p => p.quiet_checks(moves))
    }
    fn is_legal(&self, m: Move) -> bool {
        with_position!(self, p => p.is_legal(m))
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
    fn explain_illegal(&self, parsed: UciMove) -> String {
        with_position!(self, p => p.explain_illegal(parsed))
    }
}

macro_rules! any_position_from {
    ($($ty:ident),*) => {$(
        impl From<$ty> for AnyPosition {
            /// Wraps a position of a variant known at compile time.
            fn from(p: $ty) -> AnyPosition {
                AnyPosition::$ty(p)
            }
        }
    )*};
}
any_position_from!(Chess, Genie, Genesis, Clown, MagicRing);

impl crate::Describe for AnyPosition {
    fn pocket(&self, color: Color) -> Vec<(Role, u8)> {
        with_position!(self, p => p.pocket(color))
    }
    fn state_lines(&self) -> Vec<String> {
        with_position!(self, p => p.state_lines())
    }
    fn pocket_refusal(&self, color: Color, role: Role) -> Option<String> {
        with_position!(self, p => p.pocket_refusal(color, role))
    }
    fn move_note(&self, m: Move) -> Option<String> {
        with_position!(self, p => p.move_note(m))
    }
    fn rule_options(&self) -> RuleOptions {
        with_position!(self, p => crate::Describe::rule_options(p))
    }
}
