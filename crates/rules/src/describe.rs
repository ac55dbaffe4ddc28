//! What a front end shows of a variant, said once by the variant's own
//! module: its names and rules page ([`VariantInfo`]), its rule options as a
//! typed schema ([`OptionSpec`]), and, for a position, the pieces beside the
//! board, the variant's state in sentences and notes on its special moves
//! ([`Describe`]). The web server sends these to the browser (`/api/meta`
//! and every position it shows) and the terminal app reads the same types,
//! so neither keeps a table of variants of its own.
//!
//! ```
//! use chimera_rules::{AnyPosition, Describe, RuleOptions, Variant};
//!
//! let info = Variant::Genesis.info();
//! assert_eq!(info.pocket, Some("Reserve"));
//! let pos = AnyPosition::new(Variant::Genesis, &RuleOptions::default());
//! assert_eq!(pos.state_lines(), ["White must place the King first."]);
//! assert_eq!(pos.pocket(chimera_rules::Color::White).len(), 6);
//!
//! // Rule options: a schema per variant, one text form for all of them.
//! let spec = &Variant::MagicRing.info().options[0];
//! assert_eq!((spec.key, spec.default), ("ring_powers", "QNRB"));
//! let opts = Variant::MagicRing.rule_options("ring_powers=nq")?;
//! assert_eq!(opts.to_string(), "ring_powers=NQ");
//! assert!(Variant::Chess.rule_options("ring_powers=NQ").is_err());
//! # Ok::<(), chimera_rules::RuleOptionsError>(())
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role};
use crate::variant::RuleOptions;

/// Everything fixed about a variant that a menu, a lobby or a rules page
/// shows. Each variant's module has one (`INFO`);
/// [`Variant::info`](crate::Variant::info) returns it.
#[derive(Debug)]
pub struct VariantInfo {
    /// The id (`UCI_Variant`, `[Variant "..."]`, `--variant`, URLs).
    pub id: &'static str,
    /// The game's name for people.
    pub name: &'static str,
    /// One sentence on what the game is about.
    pub summary: &'static str,
    /// The name of its complete rules page in `docs/rules/` (`genie` for both
    /// Genie rule sets).
    pub rules_page: &'static str,
    /// Other spellings the id is read from (lower case).
    pub aliases: &'static [&'static str],
    /// Whether the rules are the same in a mirror (files a ↔ h) once
    /// castling rights are gone.
    pub mirror_symmetric: bool,
    /// The name of the pieces kept beside the board (a Genesis reserve, a
    /// Clown hand); `None` when the variant keeps none.
    pub pocket: Option<&'static str>,
    /// What to do with a piece picked from beside the board, in one sentence.
    pub pocket_note: &'static str,
    /// The options agreed before a game, with their defaults.
    pub options: &'static [OptionSpec],
}

/// One rule option of a variant: its key in the text form and in the web
/// API, its names in UCI and PGN, the words a form shows, its default and
/// how to read and write it.
#[derive(Debug)]
pub struct OptionSpec {
    /// The key in [`RuleOptions`]' text form and in JSON (`ring_powers`).
    pub key: &'static str,
    /// The UCI option that sets it (`setoption name RingPowers value NQ`).
    pub uci: &'static str,
    /// The PGN tag that records it (`[RingPowers "NQ"]`).
    pub pgn_tag: &'static str,
    /// The form field's label.
    pub label: &'static str,
    /// A sentence on what it means and which values it takes.
    pub help: &'static str,
    /// The default value, as text.
    pub default: &'static str,
    /// A pattern (HTML `pattern`) that every valid value matches, for a
    /// form to check as the user types; [`OptionSpec::set`] is the judge.
    pub pattern: &'static str,
    /// The value in `opts`, as text.
    pub get: fn(&RuleOptions) -> String,
    /// Sets the value in `opts` from text, or says why the text is not a
    /// value.
    pub set: fn(&mut RuleOptions, &str) -> Result<(), String>,
}

/// Rule options that cannot be read, or that the variant does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOptionsError(pub String);

impl std::fmt::Display for RuleOptionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleOptionsError {}

/// A position as a front end shows it, beyond the board: implemented by each
/// variant's own module (the defaults are orthodox chess: nothing beside the
/// board, no state, no special moves).
pub trait Describe: Position {
    /// The pieces `color` keeps beside the board, in the order shown, with
    /// their counts (roles with none left out).
    fn pocket(&self, _color: Color) -> Vec<(Role, u8)> {
        Vec::new()
    }

    /// The variant's state, one sentence a line (who may still flip, what
    /// the hands hold, where the rings are...).
    fn state_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Why `color` may not bring `role` in from beside the board now, when
    /// it may not; `None` when it may, or when the variant has no pocket.
    fn pocket_refusal(&self, _color: Color, _role: Role) -> Option<String> {
        None
    }

    /// The rule options this position is played with (the defaults for a
    /// variant that has none).
    fn rule_options(&self) -> RuleOptions {
        RuleOptions::default()
    }

    /// A sentence on what `m` does when its notation may not say it at once
    /// (a flip, a placement, a ring pass, a power move...); `None` for an
    /// ordinary move.
    fn move_note(&self, _m: Move) -> Option<String> {
        None
    }
}

/// `White` or `Black`.
pub(crate) fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A role's name with a capital (`Knight`).
pub(crate) fn role_word(r: Role) -> String {
    let n = r.name();
    n[..1].to_uppercase() + &n[1..]
}

/// `n` of a role, in words (`2 Knights`).
pub(crate) fn count_words(n: u8, r: Role) -> String {
    format!("{n} {}{}", role_word(r), if n == 1 { "" } else { "s" })
}

/// Why a piece in a pocket may not come in, the side-independent part: only
/// on one's own turn.
pub(crate) fn not_your_turn<P: Position>(pos: &P, color: Color) -> Option<String> {
    (color != pos.turn()).then(|| format!("Only on {}'s own turn.", side(color)))
}
