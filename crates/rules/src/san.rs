//! Standard Algebraic Notation, written and read for every variant, with the
//! inventors' extensions listed in `docs/rules/README.md` and the variant
//! pages `docs/rules/<variant>.md`.
//!
//! The reader is tolerant of common human input: `0-0`, `e8Q`, `e8(Q)`,
//! `Nbd7` when no disambiguation is needed, a missing `x`, `e2-e4`, trailing
//! `+ # ! ?`, a spaced `Nc3 (!C)`, and plain UCI move strings.

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{IllegalMove, Position};
use crate::types::{Color, File, Rank, Role, Square};

/// SAN of a legal move, with `+` or `#`: `Nf3`, `exd5`, `O-O`, `e8=Q+`,
/// and the variants' own forms (`Gd2` for a Genie flip, `K@e4` for a
/// placement, `!Nb4` for a re-entry, `e1~d2` for a ring pass). Pieces are
/// disambiguated by file, rank or square as the PGN standard says.
///
/// `m` must be legal in `pos`; for another move the text is unspecified.
///
/// ```
/// use chimera_rules::{san, Chess, Position};
///
/// let mut pos = Chess::new();
/// for s in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
///     let m = san::parse_san(&pos, s)?;
///     pos.play_unchecked(m);
/// }
/// let mate = pos.parse_uci("h5f7")?;
/// assert_eq!(san::to_san(&pos, mate), "Qxf7#");
/// assert_eq!(san::to_san_plain(&pos, mate), "Qxf7");
/// # Ok::<(), chimera_rules::IllegalMove>(())
/// ```
pub fn to_san<P: Position>(pos: &P, m: Move) -> String {
    let mut s = to_san_plain(pos, m);
    let after = pos.after(m);
    if after.is_check() {
        s.push(if after.count_legal_moves() == 0 { '#' } else { '+' });
    }
    s
}

/// SAN of a legal move, without a check suffix.
pub fn to_san_plain<P: Position>(pos: &P, m: Move) -> String {
    let b = pos.board();
    match m.kind {
        MoveKind::Castle => {
            return if m.to.file() > m.from.file() { "O-O".into() } else { "O-O-O".into() };
        }
        MoveKind::Drop(r) => return format!("{}@{}", r.upper_char(), m.to),
        MoveKind::ReEntry(r) => return format!("!{}{}", r.upper_char(), m.to),
        MoveKind::Flip => return format!("G{}", m.from),
        MoveKind::RingPass(ring) => {
            return match ring {
                Some(c) => format!("{}~{}({})", m.from, m.to, c.char()),
                None => format!("{}~{}", m.from, m.to),
            }
        }
        _ => {}
    }
    let role = b.role_at(m.from).unwrap_or(Role::Pawn);
    let capture = pos.is_capture(m);
    let mut s = String::with_capacity(8);
    if role == Role::Pawn {
        // A Magic Ring pawn may also move by its ring's power: a quiet move
        // off its file shows the file it came from, and when another pawn
        // move still fits the text the origin square is written in full.
        let rivals = pos.legal_move_list().iter().any(|o| {
            o.to == m.to
                && o.from != m.from
                && o.promotion() == m.promotion()
                && b.role_at(o.from) == Some(Role::Pawn)
                && !matches!(o.kind, MoveKind::RingPass(_) | MoveKind::Castle)
                && (!(capture || m.from.file() != m.to.file()) || o.from.file() == m.from.file())
        });
        if rivals {
            s.push_str(&m.from.to_string());
            if capture {
                s.push('x');
            }
        } else if capture {
            s.push(m.from.file().char());
            s.push('x');
        } else if m.from.file() != m.to.file() {
            s.push(m.from.file().char());
        }
        s.push_str(&m.to.to_string());
        if let MoveKind::Promotion(r) = m.kind {
            s.push('=');
            s.push(r.upper_char());
        }
        return s;
    }
    s.push(role.upper_char());
    // Disambiguation among other pieces of the same role reaching `to`.
    let legal = pos.legal_move_list();
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| {
            o.to == m.to
                && o.from != m.from
                && !o.is_drop()
                && matches!(o.kind, MoveKind::Normal | MoveKind::Declare)
                && b.role_at(o.from) == Some(role)
        })
        .map(|o| o.from)
        .collect();
    if !rivals.is_empty() {
        let file_unique = rivals.iter().all(|r| r.file() != m.from.file());
        let rank_unique = rivals.iter().all(|r| r.rank() != m.from.rank());
        if file_unique {
            s.push(m.from.file().char());
        } else if rank_unique {
            s.push(m.from.rank().char());
        } else {
            s.push_str(&m.from.to_string());
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&m.to.to_string());
    if m.kind == MoveKind::Declare {
        s.push_str("(!C)");
    }
    s
}

/// Reads SAN (tolerantly) and finds the legal move it names. Accepted too:
/// the spellings listed in the [module documentation](self) and plain UCI
/// move strings. Text that names no legal move, or more than one, is an
/// [`IllegalMove`] that says why.
///
/// ```
/// use chimera_rules::{san, Chess};
///
/// let pos = Chess::new();
/// let m = san::parse_san(&pos, "Nf3")?;
/// assert_eq!(m.to_string(), "g1f3");
/// for s in ["Ngf3", "Nf3!?", "g1f3"] {
///     assert_eq!(san::parse_san(&pos, s)?, m);
/// }
/// assert!(san::parse_san(&pos, "Nf4").is_err()); // no knight reaches f4
/// assert!(san::parse_san(&pos, "").is_err());
/// # Ok::<(), chimera_rules::IllegalMove>(())
/// ```
pub fn parse_san<P: Position>(pos: &P, input: &str) -> Result<Move, IllegalMove> {
    let legal = pos.legal_move_list();
    let err = |why: &str| IllegalMove::new(input, why);
    let mut s: String = input.trim().to_string();
    if s.is_empty() {
        return Err(err("empty move"));
    }
    if !s.is_ascii() {
        return Err(err("move text must be ASCII"));
    }
    // Clown declaration suffix, spaced or not.
    let mut declare = false;
    for suffix in ["(!C)", "(!c)"] {
        if let Some(i) = s.find(suffix) {
            declare = true;
            s = format!("{}{}", s[..i].trim_end(), &s[i + suffix.len()..]);
        }
    }
    // Ring-pass ring choice `(w)` / `(b)`.
    let mut ring: Option<Color> = None;
    for (suffix, c) in [("(w)", Color::White), ("(b)", Color::Black)] {
        if let Some(i) = s.find(suffix) {
            ring = Some(c);
            s = format!("{}{}", &s[..i], &s[i + suffix.len()..]);
        }
    }
    // Trailing check marks and annotation glyphs.
    while let Some(c) = s.chars().last() {
        if "+#!?".contains(c) && s.len() > 1 {
            s.pop();
        } else {
            break;
        }
    }
    let t = s.as_str();

    let one = |cands: Vec<Move>, what: &str| -> Result<Move, IllegalMove> {
        match cands.len() {
            1 => Ok(cands[0]),
            0 => Err(err(&format!("no legal {what} matches"))),
            _ => Err(err(&format!(
                "ambiguous: could be {}",
                cands.iter().map(|&m| to_san_plain(pos, m)).collect::<Vec<_>>().join(" or ")
            ))),
        }
    };

    // Castling.
    let castle = t.replace('0', "O");
    if castle == "O-O" || castle == "O-O-O" || castle == "OO" || castle == "OOO" {
        let king_side = castle.len() <= 3 && castle != "OOO";
        let c: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.kind == MoveKind::Castle && (m.to.file() > m.from.file()) == king_side)
            .collect();
        return one(c, if king_side { "king-side castling" } else { "queen-side castling" });
    }
    // Re-entry `!Nb4`.
    if let Some(rest) = t.strip_prefix('!') {
        let (role, sq) =
            parse_role_square(rest).ok_or_else(|| err("a re-entry is '!' + N, B or C + square, like !Nb4"))?;
        let c: Vec<Move> = legal.iter().copied().filter(|m| m.kind == MoveKind::ReEntry(role) && m.to == sq).collect();
        return one(c, "re-entry");
    }
    // Placement `N@f3`, `@f3` for a pawn.
    if let Some(i) = t.find('@') {
        let role = if i == 0 {
            Role::Pawn
        } else if i == 1 {
            Role::from_char(t.as_bytes()[0] as char).ok_or_else(|| err("unknown piece letter before '@'"))?
        } else {
            return Err(err("a placement is a piece letter, '@' and a square, like N@f3"));
        };
        let sq = Square::parse(&t[i + 1..]).ok_or_else(|| err("bad square after '@'"))?;
        let c: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.to == sq && matches!(m.kind, MoveKind::Drop(r) | MoveKind::ReEntry(r) if r == role))
            .collect();
        return one(c, "placement");
    }
    // Ring pass `e1~d2`.
    if let Some(i) = t.find('~') {
        let from = Square::parse(&t[..i]).ok_or_else(|| err("bad carrier square before '~'"))?;
        let to = Square::parse(&t[i + 1..]).ok_or_else(|| err("bad receiver square after '~'"))?;
        let c: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.from == from && m.to == to && matches!(m.kind, MoveKind::RingPass(r) if ring.is_none() || r == ring)
            })
            .collect();
        return one(c, "ring pass");
    }
    // Plain UCI strings are accepted as well (with the UCI reader's reasons).
    if crate::moves::UciMove::parse(t).is_ok() {
        return pos.parse_uci(t);
    }

    // Piece moves: [Role][file][rank][x|:|-]square[=][Promo]
    let bytes: Vec<char> = t.chars().collect();
    let mut i = 0;
    let mut role = Role::Pawn;
    if let Some(&c) = bytes.first() {
        if c.is_ascii_uppercase() {
            role = Role::from_char(c).ok_or_else(|| err(&format!("unknown piece letter '{c}'")))?;
            i = 1;
        }
    }
    // Find the destination: the last file+rank pair.
    let mut dest_at = None;
    let mut j = bytes.len();
    while j >= 2 {
        if File::from_char(bytes[j - 2]).is_some() && Rank::from_char(bytes[j - 1]).is_some() {
            dest_at = Some(j - 2);
            break;
        }
        j -= 1;
    }
    let dest_at = dest_at.ok_or_else(|| err("no destination square"))?;
    if dest_at < i {
        return Err(err("no destination square"));
    }
    let to =
        Square::from_coords(File::from_char(bytes[dest_at]).unwrap(), Rank::from_char(bytes[dest_at + 1]).unwrap());
    // Disambiguation hints between the piece letter and the destination.
    let mut from_file = None;
    let mut from_rank = None;
    for &c in &bytes[i..dest_at] {
        if let Some(f) = File::from_char(c) {
            from_file = Some(f);
        } else if let Some(r) = Rank::from_char(c) {
            from_rank = Some(r);
        } else if c == 'x' || c == ':' || c == '-' {
        } else {
            return Err(err(&format!("unexpected '{c}'")));
        }
    }
    // Promotion after the destination.
    let mut promo = None;
    for &c in &bytes[dest_at + 2..] {
        if c == '=' || c == '(' || c == ')' || c == '/' {
            continue;
        }
        let r = Role::from_char(c).ok_or_else(|| err(&format!("unexpected '{c}' after the square")))?;
        if promo.is_some() {
            return Err(err("two promotion pieces"));
        }
        promo = Some(r);
    }
    let b = pos.board();
    let cands: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            if m.is_drop() || m.to != to || matches!(m.kind, MoveKind::Flip | MoveKind::RingPass(_) | MoveKind::Castle)
            {
                return false;
            }
            if b.role_at(m.from) != Some(role) {
                return false;
            }
            if from_file.is_some_and(|f| m.from.file() != f) || from_rank.is_some_and(|r| m.from.rank() != r) {
                return false;
            }
            if (m.kind == MoveKind::Declare) != declare {
                return false;
            }
            match (m.kind, promo) {
                (MoveKind::Promotion(r), Some(p)) => r == p,
                (MoveKind::Promotion(_), None) => false,
                (_, Some(_)) => false,
                _ => true,
            }
        })
        .collect();
    if cands.is_empty() {
        // Genie flip `Gd2`: a `G` + square naming one of our pawns.
        if role == Role::Genie && from_file.is_none() && from_rank.is_none() && promo.is_none() {
            if let Some(&m) = legal.iter().find(|m| m.kind == MoveKind::Flip && m.from == to) {
                return Ok(m);
            }
        }
        if promo.is_none()
            && legal.iter().any(|m| m.to == to && m.promotion().is_some() && b.role_at(m.from) == Some(role))
        {
            return Err(err("a promotion needs the piece to promote to, like e8=Q"));
        }
        if pos.is_check() {
            return Err(err(&format!("{} is in check and no such move answers it", pos.turn())));
        }
        return Err(err(&format!("no {} can go to {to}", role.name())));
    }
    one(cands, "move")
}

fn parse_role_square(s: &str) -> Option<(Role, Square)> {
    let mut it = s.chars();
    let role = Role::from_char(it.next()?)?;
    let sq = Square::parse(it.as_str())?;
    Some((role, sq))
}

/// SAN of every legal move (for tests and move hints).
pub fn all_san<P: Position>(pos: &P) -> Vec<(Move, String)> {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    l.iter().map(|&m| (m, to_san(pos, m))).collect()
}
