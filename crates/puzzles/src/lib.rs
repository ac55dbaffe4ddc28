//! Puzzles for Chimera's variants: positions where exactly one move wins.
//!
//! A puzzle belongs to a *set*: one variant id under one list of rule
//! options ([`SETS`]: both Genie rule sets, and Magic Ring under two power
//! lists). `chimera puzzles mine` finds them in self-play games and in
//! stored games ([`mine`]), `chimera puzzles verify` checks them again with
//! a fresh engine at ten times the mining budget ([`mine::verify`]), and the
//! shipped sets are the files in `data/`, read once by [`shipped`].
//!
//! What "wins" means is one pair of numbers, used everywhere: a move wins
//! when the engine scores it at least [`WIN_CP`] centipawns for the side to
//! move, or finds a mate; a puzzle's other moves must all stay at or below
//! [`OTHER_MAX_CP`] (a margin, so a deeper search does not turn one of them
//! into a second win).
//!
//! The file format (`data/*.tsv`, UTF-8, one puzzle a line, tab-separated):
//!
//! ```text
//! id  fen  moves  eval  themes  rating  source
//! ```
//!
//! `moves` is the winning move then the engine's line after it, in UCI,
//! separated by spaces; `eval` is the deeper search's score of the winning
//! move for the side to move (`+512` centipawns, `#3` mate in 3 moves);
//! `themes` are [`THEMES`] ids separated by spaces; `rating` is the
//! puzzle's starting rating; `source` says where it came from. Lines that
//! start with `#` are comments: a shipped file's first comment is the
//! command that made it.

pub mod mine;

use chimera_engine::Score;
use chimera_rules::{AnyPosition, Color, Describe, Move, MoveKind, Position, Role, RuleOptions, Variant};
use serde::Serialize;
use std::fmt;
use std::sync::OnceLock;

/// A move wins when it scores at least this many centipawns (or mates).
pub const WIN_CP: i32 = 300;

/// A puzzle's other moves must score at most this many centipawns.
pub const OTHER_MAX_CP: i32 = 100;

/// The plies of the engine's line a puzzle keeps after its winning move.
pub const LINE_PLIES: usize = 7;

/// The first and the last starting rating a mined puzzle can get.
pub const RATING_RANGE: (u32, u32) = (800, 2600);

/// One puzzle set: a variant id under one list of rule options.
#[derive(Debug)]
pub struct SetSpec {
    /// The set's name, as URLs and files write it.
    pub name: &'static str,
    /// The variant.
    pub variant: Variant,
    /// The rule options, as [`RuleOptions`] reads them (empty: the defaults).
    pub options: &'static str,
    /// The shipped file.
    data: &'static str,
}

impl SetSpec {
    /// The rule options of the set.
    pub fn rule_options(&self) -> RuleOptions {
        self.variant.rule_options(self.options).expect("a set's options are valid")
    }

    /// The set's start position (what its mining games start from).
    pub fn start(&self) -> AnyPosition {
        AnyPosition::new(self.variant, &self.rule_options())
    }

    /// A position of the set from its FEN.
    pub fn position(&self, fen: &str) -> Result<AnyPosition, String> {
        AnyPosition::from_fen(self.variant, fen, &self.rule_options()).map_err(|e| e.to_string())
    }
}

/// Every set, in the order pages list them.
pub const SETS: [SetSpec; 7] = [
    SetSpec { name: "chess", variant: Variant::Chess, options: "", data: include_str!("../data/chess.tsv") },
    SetSpec { name: "genie", variant: Variant::Genie, options: "", data: include_str!("../data/genie.tsv") },
    SetSpec {
        name: "genie-ownhalf",
        variant: Variant::GenieOwnHalf,
        options: "",
        data: include_str!("../data/genie-ownhalf.tsv"),
    },
    SetSpec { name: "genesis", variant: Variant::Genesis, options: "", data: include_str!("../data/genesis.tsv") },
    SetSpec { name: "clown", variant: Variant::Clown, options: "", data: include_str!("../data/clown.tsv") },
    SetSpec {
        name: "magicring",
        variant: Variant::MagicRing,
        options: "",
        data: include_str!("../data/magicring.tsv"),
    },
    SetSpec {
        name: "magicring-rnbq",
        variant: Variant::MagicRing,
        options: "ring_powers=RNBQ",
        data: include_str!("../data/magicring-rnbq.tsv"),
    },
];

/// The set called `name`.
pub fn set_spec(name: &str) -> Option<&'static SetSpec> {
    SETS.iter().find(|s| s.name == name)
}

/// An engine score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Eval {
    /// The engine's score as an evaluation.
    pub fn of(score: Score) -> Eval {
        match score {
            Score::Cp(c) => Eval::Cp(c),
            Score::Mate(n) => Eval::Mate(n),
        }
    }

    /// Whether the move so scored wins: a mate, or at least [`WIN_CP`].
    pub fn wins(self) -> bool {
        match self {
            Eval::Mate(n) => n > 0,
            Eval::Cp(c) => c >= WIN_CP,
        }
    }

    /// Whether a puzzle's other move so scored stays within the margin:
    /// no mate for the side to move, at most [`OTHER_MAX_CP`].
    pub fn within_margin(self) -> bool {
        match self {
            Eval::Mate(n) => n <= 0,
            Eval::Cp(c) => c <= OTHER_MAX_CP,
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Cp(c) => write!(f, "{c:+}"),
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

impl std::str::FromStr for Eval {
    type Err = String;
    fn from_str(s: &str) -> Result<Eval, String> {
        let bad = || format!("bad evaluation {s:?}: write +512 (centipawns) or #3 (mate in 3)");
        match s.strip_prefix('#') {
            Some(n) => n.parse().map(Eval::Mate).map_err(|_| bad()),
            None if s.starts_with('+') || s.starts_with('-') => s.parse().map(Eval::Cp).map_err(|_| bad()),
            None => Err(bad()),
        }
    }
}

/// The themes a puzzle can be tagged with: id and what it means.
pub const THEMES: [(&str, &str); 21] = [
    ("mate", "the winning move forces mate"),
    ("mateIn1", "mate in one move"),
    ("mateIn2", "mate in two moves"),
    ("mateIn3", "mate in three moves"),
    ("mateIn4", "mate in four moves"),
    ("mateIn5", "mate in five moves"),
    ("material", "the line wins at least two pawns' worth of material"),
    ("crushing", "no mate, but a lead of six pawns or more"),
    ("advantage", "no mate, a lead of three to six pawns"),
    ("check", "the winning move gives check"),
    ("capture", "the winning move captures"),
    ("quiet", "the winning move neither captures, checks nor promotes"),
    ("promotion", "the winning move promotes a pawn"),
    ("flip", "Genie: the winning move flips a pawn into a Genie"),
    ("placement", "Genesis: the winning move places a piece from the reserve"),
    ("declaration", "Clown: the winning move declares a Knight a Clown"),
    ("reentry", "Clown: the winning move brings a captured piece back"),
    ("ringPass", "Magic Ring: the winning move passes a ring"),
    ("ringPower", "Magic Ring: the winning move is one the piece makes only by its ring's power"),
    ("genieMove", "Genie: the winning move is a Genie's"),
    ("clownMove", "Clown: the winning move is a Clown's"),
];

/// Whether `m` is one of the variant's own moves: a flip, a placement, a
/// declaration, a re-entry, a ring pass, a move of a Genie or a Clown, or
/// one that only a ring's power allows ([`uses_ring_power`]).
pub fn is_special(pos: &AnyPosition, m: Move) -> bool {
    matches!(
        m.kind,
        MoveKind::Flip | MoveKind::Drop(_) | MoveKind::Declare | MoveKind::ReEntry(_) | MoveKind::RingPass(_)
    ) || matches!(pos.board().role_at(m.from), Some(Role::Genie | Role::Clown))
        || uses_ring_power(pos, m)
}

/// Whether `m`, in Magic Ring, is a move its piece could not make by its
/// own kind (so a ring's power makes it): a Knight sliding, a Rook
/// leaping, a pawn going sideways.
pub fn uses_ring_power(pos: &AnyPosition, m: Move) -> bool {
    use chimera_rules::attacks;
    if pos.variant() != Variant::MagicRing || !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion(_)) {
        return false;
    }
    let board = pos.board();
    let Some(role) = board.role_at(m.from) else { return false };
    let occ = board.occupied();
    let own = match role {
        Role::Pawn => {
            let color = pos.turn();
            let ahead = m.to.file() == m.from.file()
                && (1..=2).contains(
                    &(m.to.rank().relative(color).index() as i32 - m.from.rank().relative(color).index() as i32),
                );
            return !(ahead || attacks::pawn_attacks(color, m.from).contains(m.to));
        }
        Role::Knight => attacks::knight_attacks(m.from),
        Role::Bishop => attacks::bishop_attacks(m.from, occ),
        Role::Rook => attacks::rook_attacks(m.from, occ),
        Role::Queen => attacks::queen_attacks(m.from, occ),
        Role::King => attacks::king_attacks(m.from),
        Role::Genie | Role::Clown => return false,
    };
    !own.contains(m.to)
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Puzzle {
    /// Six letters and digits, from the set, the position and the move.
    pub id: String,
    /// The set's name.
    pub set: String,
    /// The position, the solver to move.
    pub fen: String,
    /// The winning move then the engine's line after it (UCI).
    pub moves: Vec<String>,
    /// The deeper search's score of the winning move.
    pub eval: Eval,
    /// [`THEMES`] ids.
    pub themes: Vec<String>,
    /// The starting rating.
    pub rating: u32,
    /// Where the position came from.
    pub source: String,
}

impl Puzzle {
    /// The winning move (UCI).
    pub fn solution(&self) -> &str {
        &self.moves[0]
    }

    /// The puzzle's set.
    pub fn spec(&self) -> &'static SetSpec {
        set_spec(&self.set).expect("a puzzle's set exists")
    }

    /// The puzzle's position.
    pub fn position(&self) -> AnyPosition {
        self.spec().position(&self.fen).expect("a puzzle's FEN is valid")
    }

    /// The line of the file (without its newline).
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.fen,
            self.moves.join(" "),
            self.eval,
            self.themes.join(" "),
            self.rating,
            self.source
        )
    }

    /// Reads a line of set `set`'s file, checking its moves by the rules.
    pub fn from_line(set: &'static SetSpec, line: &str) -> Result<Puzzle, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 {
            return Err(format!("{} fields where a puzzle has 7 (id fen moves eval themes rating source)", f.len()));
        }
        let pos = set.position(f[1])?;
        let moves: Vec<String> = f[2].split(' ').filter(|m| !m.is_empty()).map(String::from).collect();
        if moves.is_empty() {
            return Err("no winning move".into());
        }
        let mut p = pos.clone();
        for m in &moves {
            let mv = p.parse_uci(m).map_err(|e| format!("move {m}: {e}"))?;
            p.play_unchecked(mv);
        }
        let themes: Vec<String> = f[4].split(' ').filter(|t| !t.is_empty()).map(String::from).collect();
        if let Some(t) = themes.iter().find(|t| !THEMES.iter().any(|(id, _)| id == t)) {
            return Err(format!("unknown theme {t:?}"));
        }
        let rating: u32 = f[5].parse().map_err(|_| format!("bad rating {:?}", f[5]))?;
        let puzzle = Puzzle {
            id: f[0].to_string(),
            set: set.name.to_string(),
            fen: pos.fen(),
            moves,
            eval: f[3].parse()?,
            themes,
            rating,
            source: f[6].to_string(),
        };
        if puzzle.id != puzzle_id(set.name, &puzzle.fen, puzzle.solution()) {
            return Err(format!("id {} is not the id of its set, position and move", puzzle.id));
        }
        Ok(puzzle)
    }
}

/// Reads a set's file: the puzzles, and the comment lines.
pub fn parse_set(set: &'static SetSpec, text: &str) -> Result<(Vec<Puzzle>, Vec<String>), String> {
    let mut puzzles = Vec::new();
    let mut comments = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = line.strip_prefix('#') {
            comments.push(c.trim().to_string());
        } else if !line.trim().is_empty() {
            puzzles.push(Puzzle::from_line(set, line).map_err(|e| format!("line {}: {e}", i + 1))?);
        }
    }
    Ok((puzzles, comments))
}

/// Writes a set's file: the comment lines, then the puzzles.
pub fn write_set(puzzles: &[Puzzle], comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    for p in puzzles {
        out.push_str(&p.to_line());
        out.push('\n');
    }
    out
}

/// A shipped set.
#[derive(Debug)]
pub struct Set {
    pub spec: &'static SetSpec,
    pub puzzles: Vec<Puzzle>,
    /// The file's comments (the first: the command that made it).
    pub comments: Vec<String>,
}

impl Set {
    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.id == id)
    }

    /// The daily puzzle of day `day` (days since 1970-01-01, UTC): the
    /// same on every instance, a different one each day.
    pub fn daily(&self, day: u64) -> Option<&Puzzle> {
        if self.puzzles.is_empty() {
            return None;
        }
        let mut rng = chimera_engine::SplitMix(day ^ fnv1a(self.spec.name.as_bytes()));
        Some(&self.puzzles[(rng.next() % self.puzzles.len() as u64) as usize])
    }
}

/// The shipped sets, read once (the files are checked by the tests).
pub fn shipped() -> &'static [Set] {
    static SHIPPED: OnceLock<Vec<Set>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        SETS.iter()
            .map(|spec| {
                let (puzzles, comments) =
                    parse_set(spec, spec.data).unwrap_or_else(|e| panic!("data/{}.tsv: {e}", spec.name));
                Set { spec, puzzles, comments }
            })
            .collect()
    })
}

/// The shipped set called `name`.
pub fn shipped_set(name: &str) -> Option<&'static Set> {
    shipped().iter().find(|s| s.spec.name == name)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A puzzle's id: six base-36 characters of a hash of its set, position
/// (without the move counters) and winning move.
pub fn puzzle_id(set: &str, fen: &str, solution: &str) -> String {
    let key: Vec<&str> = fen.split(' ').take(4).collect();
    let mut h = fnv1a(format!("{set}|{}|{solution}", key.join(" ")).as_bytes());
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut id = String::new();
    for _ in 0..6 {
        id.push(digits[(h % 36) as usize] as char);
        h /= 36;
    }
    id
}

/// Material in pawns: P 1, N B Genie Clown 3, R 5, Q 9, on the board and in
/// the reserve.
fn material(pos: &AnyPosition, color: Color) -> i32 {
    fn value(r: Role) -> i32 {
        match r {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop | Role::Genie | Role::Clown => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 0,
        }
    }
    let board = pos.board();
    let on_board: i32 =
        Role::ALL.iter().map(|&r| value(r) * (board.by_role(r) & board.by_color(color)).count() as i32).sum();
    let reserve: i32 = pos.pocket(color).iter().map(|&(r, n)| value(r) * n as i32).sum();
    on_board + reserve
}

fn balance(pos: &AnyPosition, color: Color) -> i32 {
    material(pos, color) - material(pos, !color)
}

/// The themes of a puzzle: its position, its winning move then line, and
/// the winning move's evaluation.
pub fn themes(pos: &AnyPosition, line: &[Move], eval: Eval) -> Vec<String> {
    let mut t: Vec<&str> = Vec::new();
    let m = line[0];
    let after = pos.after(m);
    match eval {
        Eval::Mate(n) => {
            t.push("mate");
            if (1..=5).contains(&n) {
                t.push(["mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5"][n as usize - 1]);
            }
        }
        Eval::Cp(c) => t.push(if c >= 600 { "crushing" } else { "advantage" }),
    }
    if !matches!(eval, Eval::Mate(_)) {
        let me = pos.turn();
        let mut p = pos.clone();
        for &mv in line {
            if p.outcome().is_some() || !p.is_legal(mv) {
                break;
            }
            p.play_unchecked(mv);
        }
        if balance(&p, me) - balance(pos, me) >= 2 {
            t.push("material");
        }
    }
    let check = after.is_check();
    let capture = pos.is_capture(m);
    if check {
        t.push("check");
    }
    if capture {
        t.push("capture");
    }
    let promotion = matches!(m.kind, MoveKind::Promotion(_));
    if !check && !capture && !promotion {
        t.push("quiet");
    }
    match m.kind {
        MoveKind::Promotion(_) => t.push("promotion"),
        MoveKind::Flip => t.push("flip"),
        MoveKind::Drop(_) => t.push("placement"),
        MoveKind::Declare => t.push("declaration"),
        MoveKind::ReEntry(_) => t.push("reentry"),
        MoveKind::RingPass(_) => t.push("ringPass"),
        _ => {}
    }
    if uses_ring_power(pos, m) {
        t.push("ringPower");
    }
    if !matches!(m.kind, MoveKind::Drop(_) | MoveKind::ReEntry(_)) {
        match pos.board().role_at(m.from) {
            Some(Role::Genie) => t.push("genieMove"),
            Some(Role::Clown) => t.push("clownMove"),
            _ => {}
        }
    }
    t.into_iter().map(String::from).collect()
}

/// A starting rating from how hard the engine found the move (`sight`:
/// [`mine::difficulty`], 0 to [`mine::SIGHT`]'s length). A quiet move is
/// harder for people to see than for the engine.
pub fn starting_rating(sight: u32, quiet: bool) -> u32 {
    let r = 1000 + 250 * sight + if quiet { 150 } else { 0 };
    r.clamp(RATING_RANGE.0, RATING_RANGE.1)
}
