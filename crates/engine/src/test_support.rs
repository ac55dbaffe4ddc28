//! Helpers of the engine's unit tests: seeded random games and FENs seen
//! in a mirror or with the colours swapped.

use crate::SplitMix;
use chimera_rules::AnyPosition;

/// Tests: the positions of a seeded random game of `variant` from its start
/// (the start included), at most `plies` moves.
pub(crate) fn random_walk(variant: chimera_rules::Variant, seed: u64, plies: usize) -> Vec<AnyPosition> {
    use chimera_rules::{Position, RuleOptions};
    let mut rng = SplitMix(seed);
    let mut pos = AnyPosition::new(variant, &RuleOptions::default());
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let legal = pos.legal_move_list();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[(rng.next() % legal.len() as u64) as usize]);
        out.push(pos.clone());
    }
    out
}

/// A square name mirrored by rank ("e2" -> "e7").
fn flip_square(sq: &str) -> String {
    let b = sq.as_bytes();
    format!("{}{}", b[0] as char, (b'9' - (b[1] - b'0')) as char)
}

/// Tests: a file letter mirrored (a ↔ h).
pub(crate) fn mirror_file(file: u8) -> u8 {
    b'h' - (file - b'a')
}

/// A square name mirrored by file ("b2" -> "g2").
fn mirror_square(sq: &str) -> String {
    format!("{}{}", mirror_file(sq.as_bytes()[0]) as char, &sq[1..])
}

/// Tests: a FEN's first field split into the board and its pocket
/// (`[...]`, or empty).
fn board_and_pocket(field: &str) -> (&str, &str) {
    match field.find('[') {
        Some(i) => (&field[..i], &field[i..]),
        None => (field, ""),
    }
}

/// Tests: the variant fields after the move counters with every square in
/// them (unmoved, tainted, rings) mapped by `square`; with `swap_colours`
/// the colour fields (flips, clown, reentry) name the other colour and the
/// two rings change places. The one place both [`flip_fen`] and
/// [`mirror_fen`] rewrite them.
fn map_variant_fields(fields: &[&str], square: fn(&str) -> String, swap_colours: bool) -> Vec<String> {
    let colour = |v: &str| match v {
        "w" if swap_colours => "b".to_string(),
        "b" if swap_colours => "w".to_string(),
        x => x.to_string(),
    };
    fields
        .iter()
        .map(|x| {
            let (name, v) = x.split_once(':').unwrap_or((x, ""));
            match name {
                "flips" | "clown" | "reentry" => format!("{name}:{}", colour(v)),
                "unmoved" | "tainted" if v != "-" => {
                    let v = v.replace(',', "");
                    let sq: Vec<String> = (0..v.len() / 2).map(|i| square(&v[2 * i..2 * i + 2])).collect();
                    format!("{name}:{}", sq.join(if name == "tainted" { "," } else { "" }))
                }
                "rings" => {
                    let mut r: Vec<String> = v
                        .split(',')
                        .map(|part| match part.split_once('.') {
                            Some((sq, lvl)) => format!("{}.{lvl}", square(sq)),
                            None => square(part),
                        })
                        .collect();
                    if swap_colours {
                        r.reverse();
                    }
                    format!("rings:{}", r.join(","))
                }
                _ => x.to_string(),
            }
        })
        .collect()
}

/// Tests: the FEN of the position in a mirror (files a ↔ h): each rank
/// read backwards, and every square of the other fields (en passant,
/// unmoved, tainted, rings) mirrored. For positions without castling
/// rights (castling has no mirror).
pub(crate) fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    assert_eq!(f[2], "-", "castling rights have no mirror: {fen}");
    let (board, pocket) = board_and_pocket(f[0]);
    // A token is a digit, or a letter with the marks that follow it.
    let rank = |r: &str| {
        let mut tokens: Vec<String> = Vec::new();
        for c in r.chars() {
            match tokens.last_mut() {
                Some(t) if !c.is_ascii_alphanumeric() => t.push(c),
                _ => tokens.push(c.to_string()),
            }
        }
        tokens.into_iter().rev().collect::<String>()
    };
    let ranks: Vec<String> = board.split('/').map(rank).collect();
    let mut out = vec![format!("{}{pocket}", ranks.join("/")), f[1].into(), "-".into()];
    out.push(if f[3] == "-" { "-".into() } else { mirror_square(f[3]) });
    out.extend(f[4..6].iter().map(|x| x.to_string()));
    out.extend(map_variant_fields(&f[6..], mirror_square, false));
    out.join(" ")
}

/// Tests: the colour-flipped FEN: board mirrored by rank with the colours
/// swapped, pocket swapped, other side to move, castling and en passant
/// mirrored, and the variants' colour fields (flips, clown, reentry,
/// unmoved, rings) swapped.
pub(crate) fn flip_fen(fen: &str) -> String {
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    let f: Vec<&str> = fen.split(' ').collect();
    let (board, pocket) = board_and_pocket(f[0]);
    let ranks: Vec<String> = board.split('/').rev().map(swap).collect();
    let mut out = vec![format!("{}{}", ranks.join("/"), swap(pocket))];
    out.push(if f[1] == "w" { "b".into() } else { "w".into() });
    let c = swap(f[2]);
    let mut cs: Vec<char> = c.chars().collect();
    cs.sort_by_key(|ch| (ch.is_ascii_lowercase(), "KQkq".find(ch.to_ascii_uppercase()).unwrap_or(0)));
    out.push(if c == "-" { c } else { cs.into_iter().collect() });
    out.push(if f[3] == "-" { "-".into() } else { flip_square(f[3]) });
    out.push(f[4].into());
    out.push(f[5].into());
    out.extend(map_variant_fields(&f[6..], flip_square, true));
    out.join(" ")
}
