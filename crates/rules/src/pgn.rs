//! PGN: reading (tags, movetext with comments, NAGs, variations, results,
//! several games per file) and writing, for every variant through
//! `[Variant]`, `[SetUp]`/`[FEN]` and `[RingPowers]`.
//!
//! Variations are read and kept as text on the move they follow; they are
//! never replayed and never crash the reader.

use crate::fen::FenError;
use crate::moves::Move;
use crate::position::{IllegalMove, Outcome, Position};
use crate::san;
use crate::variant::{AnyPosition, RuleOptions, UnknownVariant, Variant};
use std::fmt;

/// One move of a game's main line, with what was written around it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    /// The move as the movetext has it (SAN, or any spelling
    /// [`parse_san`](crate::san::parse_san) reads), `+`/`#` kept, `!`/`?`
    /// moved to `nags`; move numbers are not part of it.
    pub san: String,
    /// Numeric annotation glyphs after the move: `$n` tokens, and the suffixes
    /// `!` `?` `!!` `??` `!?` `?!` read as their NAGs.
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Variations after the move, as raw movetext.
    pub variations: Vec<String>,
}

/// A game as read: tags and main-line SAN, not yet checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in the order read: `[Event "Casual"]` is
    /// `("Event", "Casual")`.
    pub tags: Vec<(String, String)>,
    /// Comment before the first move.
    pub comment: Option<String>,
    /// The main line, one entry per ply.
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// What is wrong with a PGN game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnError {
    /// The text is not PGN.
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// What was expected there.
        message: String,
    },
    /// `[Variant]` names no variant this crate knows.
    Variant(UnknownVariant),
    /// `[RingPowers]` cannot be read.
    RuleOptions(crate::RuleOptionsError),
    /// `[FEN]` cannot be read for the game's variant.
    Fen(FenError),
    /// A move of the main line is not legal.
    Move {
        /// 0-based ply of the move, counted from the game's first move number.
        ply: usize,
        /// Why the move is not legal.
        error: IllegalMove,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Syntax { line, message } => write!(f, "PGN line {line}: {message}"),
            PgnError::Variant(e) => write!(f, "PGN: {e}"),
            PgnError::RuleOptions(e) => write!(f, "PGN rule option tag: {e}"),
            PgnError::Fen(e) => write!(f, "PGN [FEN]: {e}"),
            PgnError::Move { ply, error } => {
                write!(f, "PGN move {}{}: {}", ply / 2 + 1, if ply % 2 == 0 { "." } else { "..." }, error)
            }
        }
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PgnError::Variant(e) => Some(e),
            PgnError::RuleOptions(e) => Some(e),
            PgnError::Fen(e) => Some(e),
            PgnError::Move { error, .. } => Some(error),
            PgnError::Syntax { .. } => None,
        }
    }
}

impl PgnGame {
    /// The value of tag `name`, matched ignoring ASCII case; the first one
    /// when the tag is repeated, `None` when it is absent.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`: replaces the value of a tag of exactly that
    /// name (case-sensitive), or appends the tag.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The variant named by `[Variant]`; orthodox chess when the tag is
    /// absent. An id this crate does not know is [`PgnError::Variant`].
    pub fn variant(&self) -> Result<Variant, PgnError> {
        match self.tag("Variant") {
            None => Ok(Variant::Chess),
            Some(v) => v.parse().map_err(PgnError::Variant),
        }
    }

    /// The rule options from their tags (each variant option's
    /// [`OptionSpec::pgn_tag`](crate::OptionSpec::pgn_tag), `[RingPowers]`
    /// for Magic Ring), the defaults for the tags that are absent. A value
    /// that cannot be read, or an option the variant does not have, is
    /// [`PgnError::RuleOptions`].
    pub fn rule_options(&self) -> Result<RuleOptions, PgnError> {
        let variant = self.variant()?;
        let mut opts = RuleOptions::default();
        for spec in variant.info().options {
            if let Some(v) = self.tag(spec.pgn_tag) {
                (spec.set)(&mut opts, v)
                    .map_err(|e| PgnError::RuleOptions(crate::RuleOptionsError(format!("[{}]: {e}", spec.pgn_tag))))?;
            }
        }
        Ok(opts)
    }

    /// The start position from `[Variant]`, `[FEN]` and `[RingPowers]`.
    pub fn start_position(&self) -> Result<AnyPosition, PgnError> {
        let variant = self.variant()?;
        let opts = self.rule_options()?;
        match self.tag("FEN") {
            Some(fen) => AnyPosition::from_fen(variant, fen, &opts).map_err(PgnError::Fen),
            None => Ok(AnyPosition::new(variant, &opts)),
        }
    }

    /// Replays the main line against the rules: the start position and the
    /// moves, or the first move that is not legal ([`PgnError::Move`]), or
    /// the error of [`PgnGame::start_position`]. Variations are not replayed.
    pub fn replay(&self) -> Result<(AnyPosition, Vec<Move>), PgnError> {
        let start = self.start_position()?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let ply0 = if start.turn() == crate::Color::Black { 1 } else { 0 };
        for (i, pm) in self.moves.iter().enumerate() {
            let m = san::parse_san(&pos, &pm.san)
                .map_err(|error| PgnError::Move { ply: ply0 + i + 2 * (start.fullmoves() as usize - 1), error })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok((start, moves))
    }
}

/// Reads every game in a PGN text. Bad input gives an error for that game;
/// reading goes on with the next one.
///
/// Reading checks the PGN syntax only; [`PgnGame::replay`] then checks the
/// moves against the rules of the game's variant.
///
/// ```
/// use chimera_rules::pgn::{read_pgn, PgnError};
/// use chimera_rules::{Position, Variant};
///
/// let text = r#"[Event "Example"]
/// [Variant "genie"]
/// [Result "*"]
///
/// 1. e4 e5 2. Nf3 {develops} Nc6! (2... d6) *
/// "#;
/// let games = read_pgn(text);
/// assert_eq!(games.len(), 1);
/// let game = games[0].as_ref().map_err(Clone::clone)?;
/// assert_eq!(game.tag("event"), Some("Example"));
/// assert_eq!(game.result, "*");
/// assert_eq!(game.moves.len(), 4);
/// assert_eq!(game.moves[2].comments, ["develops"]);
/// assert_eq!(game.moves[3].nags, [1]);
///
/// let (start, moves) = game.replay()?;
/// assert_eq!(start.variant(), Variant::Genie);
/// assert_eq!(moves[3].to_string(), "b8c6");
///
/// // An illegal move is reported with its place in the game.
/// let bad = read_pgn("1. e4 e5 2. Ke3 *").remove(0).map_err(|e| e.to_string())?;
/// assert!(matches!(bad.replay(), Err(PgnError::Move { ply: 2, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_pgn(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    let mut games = Vec::new();
    let mut lexer = Lexer { chars: text.chars().collect(), pos: 0, line: 1 };
    loop {
        lexer.skip_ws();
        if lexer.peek().is_none() {
            break;
        }
        let start = lexer.pos;
        match read_game(&mut lexer) {
            Ok(Some(g)) => games.push(Ok(g)),
            Ok(None) => break,
            Err(e) => {
                games.push(Err(e));
                // Skip to the next game: the next '[' at the start of a line.
                if lexer.pos == start {
                    lexer.pos += 1;
                }
                while let Some(c) = lexer.peek() {
                    if c == '[' && (lexer.pos == 0 || lexer.chars[lexer.pos - 1] == '\n') {
                        break;
                    }
                    lexer.bump();
                }
            }
        }
    }
    games
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    line: usize,
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == '%' && (self.pos == 0 || self.chars[self.pos - 1] == '\n') {
                // Escape line.
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }
    fn err(&self, message: impl Into<String>) -> PgnError {
        PgnError::Syntax { line: self.line, message: message.into() }
    }
    fn read_until(&mut self, end: char) -> Result<String, PgnError> {
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Err(self.err(format!("missing '{end}'"))),
                Some(c) if c == end => return Ok(s),
                Some(c) => s.push(c),
            }
        }
    }
}

fn read_game(lx: &mut Lexer) -> Result<Option<PgnGame>, PgnError> {
    let mut g = PgnGame::default();
    // Tags.
    loop {
        lx.skip_ws();
        if lx.peek() != Some('[') {
            break;
        }
        lx.bump();
        let mut name = String::new();
        while let Some(c) = lx.peek() {
            if c.is_alphanumeric() || c == '_' {
                name.push(c);
                lx.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(lx.err("tag without a name"));
        }
        lx.skip_ws();
        if lx.bump() != Some('"') {
            return Err(lx.err(format!("tag {name}: value must be in double quotes")));
        }
        let mut value = String::new();
        loop {
            match lx.bump() {
                None => return Err(lx.err(format!("tag {name}: unterminated value"))),
                Some('\\') => match lx.bump() {
                    // A tag pair is one line: an escaped line break would make
                    // a value that cannot be written back.
                    Some('\n') => return Err(lx.err(format!("tag {name}: value runs past the end of the line"))),
                    None => return Err(lx.err(format!("tag {name}: unterminated value"))),
                    Some(c) => value.push(c),
                },
                Some('"') => break,
                Some('\n') => return Err(lx.err(format!("tag {name}: value runs past the end of the line"))),
                Some(c) => value.push(c),
            }
        }
        lx.skip_ws();
        if lx.bump() != Some(']') {
            return Err(lx.err(format!("tag {name}: missing ']'")));
        }
        g.tags.push((name, value));
    }
    // Movetext.
    let mut saw_anything = !g.tags.is_empty();
    loop {
        lx.skip_ws();
        let Some(c) = lx.peek() else { break };
        match c {
            '[' => break, // next game without a result token
            '{' => {
                lx.bump();
                let text = lx.read_until('}')?.trim().to_string();
                match g.moves.last_mut() {
                    Some(m) => m.comments.push(text),
                    None => g.comment = Some(text),
                }
            }
            ';' => {
                lx.bump();
                let mut text = String::new();
                while let Some(c) = lx.bump() {
                    if c == '\n' {
                        break;
                    }
                    text.push(c);
                }
                match g.moves.last_mut() {
                    Some(m) => m.comments.push(text.trim().to_string()),
                    None => g.comment = Some(text.trim().to_string()),
                }
            }
            '(' => {
                lx.bump();
                let mut depth = 1;
                let mut text = String::new();
                while depth > 0 {
                    match lx.bump() {
                        None => return Err(lx.err("unterminated variation")),
                        Some('(') => {
                            depth += 1;
                            text.push('(');
                        }
                        Some(')') => {
                            depth -= 1;
                            if depth > 0 {
                                text.push(')');
                            }
                        }
                        Some('{') => {
                            text.push('{');
                            text.push_str(&lx.read_until('}')?);
                            text.push('}');
                        }
                        Some(c) => text.push(c),
                    }
                }
                if let Some(m) = g.moves.last_mut() {
                    m.variations.push(text.trim().to_string());
                }
            }
            ')' => return Err(lx.err("')' without a variation")),
            '$' => {
                lx.bump();
                let mut n = String::new();
                while let Some(c) = lx.peek().filter(|c| c.is_ascii_digit()) {
                    n.push(c);
                    lx.bump();
                }
                let nag: u8 = n.parse().map_err(|_| lx.err(format!("bad NAG '${n}'")))?;
                if let Some(m) = g.moves.last_mut() {
                    m.nags.push(nag);
                }
            }
            _ => {
                let mut tok = String::new();
                while let Some(c) = lx.peek() {
                    if c.is_whitespace() || "{}();[$".contains(c) {
                        break;
                    }
                    tok.push(c);
                    lx.bump();
                }
                // `Nc3 (!C)`: the declaration written apart from its move.
                if tok.is_empty() {
                    return Err(lx.err(format!("unexpected '{c}'")));
                }
                saw_anything = true;
                if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    g.result = tok;
                    return Ok(Some(g));
                }
                // A check mark or glyph after a glued suffix (`Nc3(!C)+`,
                // `e1~d2(b)#`, `!Cb5!?`-style) belongs to the move before it.
                if tok.chars().all(|c| "+#!?".contains(c)) {
                    if let Some(m) = g.moves.last_mut() {
                        let glyphs: String = tok.chars().filter(|c| "!?".contains(*c)).collect();
                        m.san.extend(tok.chars().filter(|c| "+#".contains(*c)));
                        if let (_, Some(n)) = split_glyph(&format!("x{glyphs}")) {
                            m.nags.push(n);
                        }
                        continue;
                    }
                    return Err(lx.err(format!("'{tok}' without a move before it")));
                }
                // Move numbers: `12.` `12...` possibly glued to the move.
                let t = tok.trim_start_matches(|c: char| c.is_ascii_digit());
                let t =
                    if t.len() < tok.len() && t.starts_with('.') { t.trim_start_matches('.') } else { tok.as_str() };
                if t.is_empty() {
                    continue;
                }
                // Suffix annotations as NAGs.
                let (san, nag) = split_glyph(t);
                let mut pm = PgnMove { san: san.to_string(), ..Default::default() };
                if let Some(n) = nag {
                    pm.nags.push(n);
                }
                g.moves.push(pm);
            }
        }
        // A spaced Clown declaration `Nc3 (!C)` lands here as a variation "!C".
        if let Some(m) = g.moves.last_mut() {
            if let Some(pos) = m.variations.iter().position(|v| v.eq_ignore_ascii_case("!C")) {
                m.variations.remove(pos);
                m.san.push_str("(!C)");
            }
            // `e1~d2(b)`: the ring named after a Magic Ring pass.
            if m.san.contains('~') && !m.san.ends_with(')') {
                if let Some(pos) = m.variations.iter().position(|v| v == "w" || v == "b") {
                    let ring = m.variations.remove(pos);
                    m.san.push_str(&format!("({ring})"));
                }
            }
        }
    }
    if !saw_anything {
        return Ok(None);
    }
    if g.result.is_empty() {
        g.result = "*".into();
    }
    Ok(Some(g))
}

fn split_glyph(t: &str) -> (&str, Option<u8>) {
    for (g, n) in [("!!", 3), ("??", 4), ("!?", 5), ("?!", 6), ("!", 1), ("?", 2)] {
        if let Some(s) = t.strip_suffix(g) {
            // `!Nb4` starts with '!', and `(!C)` ends with ')': untouched here.
            if !s.is_empty() && !s.ends_with('!') && !s.ends_with('?') {
                return (s, Some(n));
            }
        }
    }
    (t, None)
}

/// The tags that say where a game starts: `[Variant]` (not for chess), each
/// rule option that differs from its default under its PGN tag
/// (`[RingPowers "NKQ"]`), and `[SetUp "1"]` with `[FEN]` when the start is
/// not the variant's own. What [`write_pgn`] writes, for a page that writes
/// its own PGN.
pub fn start_tags(start: &AnyPosition) -> Vec<(String, String)> {
    let variant = start.variant();
    let mut out = Vec::new();
    if variant != Variant::Chess {
        out.push(("Variant".into(), variant.id().into()));
    }
    let opts = crate::Describe::rule_options(start);
    for (spec, value) in opts.values(variant) {
        if value != spec.default {
            out.push((spec.pgn_tag.into(), value));
        }
    }
    if start.fen() != AnyPosition::new(variant, &opts).fen() {
        out.push(("SetUp".into(), "1".into()));
        out.push(("FEN".into(), start.fen()));
    }
    out
}

/// Writes one game as PGN: the seven-tag roster first, then the rest, then
/// movetext in SAN wrapped at 80 columns.
pub fn write_pgn(tags: &[(String, String)], start: &AnyPosition, moves: &[Move], result: &str) -> String {
    write_pgn_with_comments(tags, start, moves, &[], result)
}

/// [`write_pgn`] with a comment after move `i` where `comments[i]` is
/// `Some` (a `}` in one, which would end it early, is written as `)`).
pub fn write_pgn_with_comments(
    tags: &[(String, String)],
    start: &AnyPosition,
    moves: &[Move],
    comments: &[Option<String>],
    result: &str,
) -> String {
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let get = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    for k in roster {
        let v = if k == "Result" {
            result.to_string()
        } else {
            get(k).unwrap_or_else(|| if k == "Date" { "????.??.??".into() } else { "?".into() })
        };
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    let option_tags: Vec<&str> = RuleOptions::specs().map(|o| o.pgn_tag).collect();
    let mut extra: Vec<(String, String)> = tags
        .iter()
        .filter(|(k, _)| {
            !roster.contains(&k.as_str())
                && !["Variant", "SetUp", "FEN"].contains(&k.as_str())
                && !option_tags.contains(&k.as_str())
        })
        .cloned()
        .collect();
    // The start's own tags first (an option or FEN tag passed in is ignored).
    let mut start_tags = start_tags(start);
    let at = start_tags.iter().position(|(k, _)| k != "Variant").unwrap_or(start_tags.len());
    extra.splice(0..0, start_tags.drain(..at));
    extra.extend(start_tags);
    for (k, v) in extra {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    out.push('\n');
    let mut pos = start.clone();
    let mut tokens = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if pos.turn() == crate::Color::White {
            tokens.push(format!("{}.", pos.fullmoves()));
        } else if i == 0 {
            tokens.push(format!("{}...", pos.fullmoves()));
        }
        tokens.push(san::to_san(&pos, m));
        pos.play_unchecked(m);
        if let Some(Some(c)) = comments.get(i) {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += t.len();
    }
    out.push('\n');
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN result string for an outcome, or `*`.
pub fn result_string(o: Option<Outcome>) -> &'static str {
    o.map_or("*", |o| o.result())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The glued suffixes `(!C)` and `(w)`/`(b)` look like variations to a
    /// PGN tokenizer; they must stay part of their move (found by the
    /// property test replaying written Magic Ring games).
    #[test]
    fn comments_are_written_after_their_move_and_read_back() {
        let start = AnyPosition::new(Variant::Chess, &RuleOptions::default());
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for u in ["e2e4", "e7e5", "g1f3"] {
            let m = pos.parse_uci(u).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let comments = [None, Some("+0.31/12 0.412s".to_string()), Some("a } b".to_string())];
        let text = write_pgn_with_comments(&[], &start, &moves, &comments, "*");
        assert!(text.contains("1. e4 e5 {+0.31/12 0.412s} 2. Nf3 {a ) b} *"), "{text}");
        let g = read_pgn(&text).remove(0).unwrap();
        let read: Vec<Vec<String>> = g.moves.iter().map(|m| m.comments.clone()).collect();
        assert_eq!(read, [vec![], vec!["+0.31/12 0.412s".to_string()], vec!["a ) b".to_string()]]);
        // No comments: the plain writer's text.
        assert_eq!(write_pgn_with_comments(&[], &start, &moves, &[], "*"), write_pgn(&[], &start, &moves, "*"));
    }

    #[test]
    fn glued_suffixes_stay_with_their_move() {
        let g = read_pgn("1. e1~d2(b) Nc6(!C)+ 2. e1~d2 (e2e4) Nf3 (!C)#!? *").remove(0).unwrap();
        let sans: Vec<&str> = g.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e1~d2(b)", "Nc6(!C)+", "e1~d2", "Nf3(!C)#"]);
        assert_eq!(g.moves[3].nags, [5]);
        assert_eq!(g.moves[2].variations, ["e2e4"]);
    }
}
