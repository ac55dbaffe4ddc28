//! A naive, slow reference generator for Magic Ring Chess, written from
//! the rules (`docs/rules/magicring.md`) alone. It shares no code with the
//! crate's move generator: mailbox board, ray walking, its own FEN reader,
//! its own make-move, and legality by "play it and look whether the own
//! King is attacked". It names moves with the crate's move strings so the
//! two can be compared move by move.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Normal,
    Double,
    EnPassant,
    Castle,
    Promo(char),
    Pass(Option<char>),
}

#[derive(Clone, Copy, Debug)]
pub struct RMove {
    pub from: usize,
    pub to: usize,
    pub kind: Kind,
    /// A pawn move that only its ring allows (it taints the pawn).
    pub power: bool,
}

fn sq_name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

fn sq_parse(s: &str) -> usize {
    let b = s.as_bytes();
    assert!(b.len() == 2, "bad square {s}");
    (b[0] - b'a') as usize + 8 * (b[1] - b'1') as usize
}

impl RMove {
    pub fn name(&self) -> String {
        let base = format!("{}{}", sq_name(self.from), sq_name(self.to));
        match self.kind {
            Kind::Promo(c) => format!("{base}{c}"),
            Kind::Pass(Some(c)) => format!("{base}{c}"),
            _ => base,
        }
    }
}

/// (is_white, role letter upper case)
type Pc = (bool, char);

#[derive(Clone)]
pub struct Ref {
    pub sq: [Option<Pc>; 64],
    pub white: bool,
    /// K Q k q
    pub castle: [bool; 4],
    /// The square a ring-less pawn passed with a double step on the last move.
    pub ep: Option<usize>,
    pub ring_sq: [usize; 2],
    pub ring_lv: [usize; 2],
    pub tainted: [bool; 64],
    pub powers: Vec<char>,
}

fn at(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Ref {
    pub fn from_fen(fen: &str, default_powers: &str) -> Ref {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let mut sq = [None; 64];
        for (i, row) in parts[0].split('/').enumerate() {
            let r = 7 - i;
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                } else {
                    sq[r * 8 + f] = Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                    f += 1;
                }
            }
        }
        let white = parts[1] == "w";
        let cs = parts[2];
        let castle = [cs.contains('K'), cs.contains('Q'), cs.contains('k'), cs.contains('q')];
        let ep = if parts[3] == "-" { None } else { Some(sq_parse(parts[3])) };
        let king = |w: bool| (0..64).find(|&s| sq[s] == Some((w, 'K'))).unwrap();
        let mut r = Ref {
            sq,
            white,
            castle,
            ep,
            ring_sq: [king(true), king(false)],
            ring_lv: [0, 0],
            tainted: [false; 64],
            powers: default_powers.chars().collect(),
        };
        for extra in &parts[6.min(parts.len())..] {
            let (name, value) = extra.split_once(':').unwrap();
            match name {
                "rings" => {
                    for (i, p) in value.split(',').enumerate() {
                        let (s, l) = p.split_once('.').unwrap();
                        r.ring_sq[i] = sq_parse(s);
                        r.ring_lv[i] = l.parse().unwrap();
                    }
                }
                "tainted" => {
                    for s in value.split(',') {
                        r.tainted[sq_parse(s)] = true;
                    }
                }
                "powers" => r.powers = value.chars().collect(),
                _ => panic!("unknown field {name}"),
            }
        }
        // A pawn with a ring cannot be taken en passant.
        if let Some(e) = r.ep {
            let pawn = if white { e - 8 } else { e + 8 };
            if r.ring_sq.contains(&pawn) {
                r.ep = None;
            }
        }
        r
    }

    fn king(&self, w: bool) -> usize {
        (0..64).find(|&s| self.sq[s] == Some((w, 'K'))).expect("king")
    }

    /// Powers the piece on `s` holds from rings (none on a King).
    fn powers_of(&self, s: usize) -> Vec<char> {
        let mut v = vec![];
        if let Some((_, role)) = self.sq[s] {
            if role == 'K' {
                return v;
            }
            for i in 0..2 {
                if self.ring_sq[i] == s && self.ring_lv[i] > 0 {
                    v.push(self.powers[self.ring_lv[i] - 1]);
                }
            }
        }
        v
    }

    /// Squares reached by moving as `role` (not a pawn) from `s`: leaps, or
    /// rays up to and including the first occupied square.
    fn reach(&self, role: char, s: usize) -> Vec<usize> {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut out = vec![];
        let leap = |dirs: &[(i32, i32)], out: &mut Vec<usize>| {
            for &(df, dr) in dirs {
                if let Some(t) = at(f + df, r + dr) {
                    out.push(t);
                }
            }
        };
        let ride = |dirs: &[(i32, i32)], out: &mut Vec<usize>| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t) = at(x, y) {
                    out.push(t);
                    if self.sq[t].is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        };
        match role {
            'N' => leap(&KNIGHT, &mut out),
            'K' => leap(&KING, &mut out),
            'R' => ride(&ORTH, &mut out),
            'B' => ride(&DIAG, &mut out),
            'Q' => {
                ride(&ORTH, &mut out);
                ride(&DIAG, &mut out);
            }
            _ => panic!("reach of {role}"),
        }
        out
    }

    /// Squares the piece on `s` could capture on (own type + powers).
    fn captures_from(&self, s: usize) -> Vec<usize> {
        let (w, role) = self.sq[s].unwrap();
        let mut out = vec![];
        if role == 'P' {
            let dr = if w { 1 } else { -1 };
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            for df in [-1, 1] {
                if let Some(t) = at(f + df, r + dr) {
                    out.push(t);
                }
            }
        } else {
            out.extend(self.reach(role, s));
        }
        for p in self.powers_of(s) {
            out.extend(self.reach(p, s));
        }
        out
    }

    fn attacked(&self, target: usize, by_white: bool) -> bool {
        (0..64).any(|s| matches!(self.sq[s], Some((w, _)) if w == by_white) && self.captures_from(s).contains(&target))
    }

    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.white), !self.white)
    }

    fn pseudo(&self) -> Vec<RMove> {
        let us = self.white;
        let mut out: Vec<RMove> = vec![];
        let own = |t: usize| matches!(self.sq[t], Some((w, _)) if w == us);
        let enemy = |t: usize| matches!(self.sq[t], Some((w, _)) if w != us);
        for s in 0..64 {
            let Some((w, role)) = self.sq[s] else { continue };
            if w != us {
                continue;
            }
            let mut pawn_dest: Vec<usize> = vec![];
            if role == 'P' {
                let (f, r) = ((s % 8) as i32, (s / 8) as i32);
                let dr = if us { 1 } else { -1 };
                let last = if us { 7 } else { 0 };
                let second = if us { 1 } else { 6 };
                let tainted = self.tainted[s];
                let add = |to: usize, out: &mut Vec<RMove>| {
                    if (to / 8) as i32 == last && !tainted {
                        for c in ['q', 'r', 'b', 'n'] {
                            out.push(RMove { from: s, to, kind: Kind::Promo(c), power: false });
                        }
                    } else {
                        out.push(RMove { from: s, to, kind: Kind::Normal, power: false });
                    }
                };
                if let Some(one) = at(f, r + dr) {
                    if self.sq[one].is_none() {
                        pawn_dest.push(one);
                        add(one, &mut out);
                        if r == second && !tainted {
                            let two = at(f, r + 2 * dr).unwrap();
                            if self.sq[two].is_none() {
                                pawn_dest.push(two);
                                out.push(RMove { from: s, to: two, kind: Kind::Double, power: false });
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = at(f + df, r + dr) {
                        if enemy(t) {
                            pawn_dest.push(t);
                            add(t, &mut out);
                        } else if Some(t) == self.ep {
                            pawn_dest.push(t);
                            out.push(RMove { from: s, to: t, kind: Kind::EnPassant, power: false });
                        }
                    }
                }
                let mut seen = vec![];
                for p in self.powers_of(s) {
                    for t in self.reach(p, s) {
                        if !own(t) && !pawn_dest.contains(&t) && !seen.contains(&t) {
                            seen.push(t);
                            out.push(RMove { from: s, to: t, kind: Kind::Normal, power: true });
                        }
                    }
                }
            } else {
                let mut dests = self.reach(role, s);
                for p in self.powers_of(s) {
                    dests.extend(self.reach(p, s));
                }
                dests.sort();
                dests.dedup();
                for t in dests {
                    if !own(t) {
                        out.push(RMove { from: s, to: t, kind: Kind::Normal, power: false });
                    }
                }
            }
        }
        let check = self.in_check();
        if !check {
            // Castling.
            let (k, base) = if us { (0, 0) } else { (2, 56) };
            let rook = Some((us, 'R'));
            if self.sq[base + 4] == Some((us, 'K')) {
                if self.castle[k]
                    && self.sq[base + 7] == rook
                    && self.sq[base + 5].is_none()
                    && self.sq[base + 6].is_none()
                    && !self.attacked(base + 5, !us)
                    && !self.attacked(base + 6, !us)
                {
                    out.push(RMove { from: base + 4, to: base + 6, kind: Kind::Castle, power: false });
                }
                if self.castle[k + 1]
                    && self.sq[base] == rook
                    && self.sq[base + 1].is_none()
                    && self.sq[base + 2].is_none()
                    && self.sq[base + 3].is_none()
                    && !self.attacked(base + 3, !us)
                    && !self.attacked(base + 2, !us)
                {
                    out.push(RMove { from: base + 4, to: base + 2, kind: Kind::Castle, power: false });
                }
            }
            // Ring passes to an own piece on a neighbouring square.
            let both = self.ring_sq[0] == self.ring_sq[1];
            for i in 0..2 {
                let c = self.ring_sq[i];
                if !own(c) {
                    continue;
                }
                let name = if both { Some(if i == 0 { 'w' } else { 'b' }) } else { None };
                for t in self.reach('K', c) {
                    if own(t) {
                        out.push(RMove { from: c, to: t, kind: Kind::Pass(name), power: false });
                    }
                }
            }
        }
        out
    }

    pub fn legal(&self) -> Vec<RMove> {
        self.pseudo()
            .into_iter()
            .filter(|m| {
                let mut n = self.clone();
                n.play(*m);
                !n.attacked(n.king(self.white), !self.white)
            })
            .collect()
    }

    fn bump(&self, lv: usize) -> usize {
        lv % self.powers.len() + 1
    }

    pub fn play(&mut self, m: RMove) {
        let us = self.white;
        self.white = !us;
        let old_ep = self.ep.take();
        let _ = old_ep;
        if let Kind::Pass(name) = m.kind {
            let i = match name {
                Some('w') => 0,
                Some(_) => 1,
                None => {
                    if self.ring_sq[0] == m.from {
                        0
                    } else {
                        1
                    }
                }
            };
            self.ring_sq[i] = m.to;
            self.ring_lv[i] = self.bump(self.ring_lv[i]);
            return;
        }
        let piece = self.sq[m.from].unwrap();
        let cap_sq = if m.kind == Kind::EnPassant { (m.from / 8) * 8 + m.to % 8 } else { m.to };
        let captured = m.kind != Kind::Castle && self.sq[cap_sq].is_some();
        let mut rook = None;
        if m.kind == Kind::Castle {
            rook = Some(if m.to > m.from { (m.from + 3, m.from + 1) } else { (m.from - 4, m.from - 1) });
        }
        let ringed = self.ring_sq.contains(&m.from);
        for i in 0..2 {
            if captured && self.ring_sq[i] == cap_sq {
                self.ring_sq[i] = m.to;
                self.ring_lv[i] = self.bump(self.ring_lv[i]);
            } else if self.ring_sq[i] == m.from {
                self.ring_sq[i] = m.to;
            } else if let Some((rf, rt)) = rook {
                if self.ring_sq[i] == rf {
                    self.ring_sq[i] = rt;
                }
            }
        }
        let was_tainted = self.tainted[m.from];
        self.tainted[m.from] = false;
        self.tainted[cap_sq] = false;
        self.sq[cap_sq] = None;
        self.sq[m.from] = None;
        self.sq[m.to] = Some(match m.kind {
            Kind::Promo(c) => (us, c.to_ascii_uppercase()),
            _ => piece,
        });
        if piece.1 == 'P' {
            self.tainted[m.to] = was_tainted || m.power;
        }
        if let Some((rf, rt)) = rook {
            self.sq[rt] = self.sq[rf].take();
        }
        if m.kind == Kind::Double && !ringed {
            self.ep = Some((m.from + m.to) / 2);
        }
        for (s, bits) in [(4usize, [0, 1]), (7, [0, 0]), (0, [1, 1]), (60, [2, 3]), (63, [2, 2]), (56, [3, 3])] {
            if m.from == s || m.to == s {
                self.castle[bits[0]] = false;
                self.castle[bits[1]] = false;
            }
        }
    }

    /// Plays the move with this string (must be legal).
    pub fn play_str(&mut self, s: &str) {
        let m = self.legal().into_iter().find(|m| m.name() == s).unwrap_or_else(|| panic!("reference: {s} not legal"));
        self.play(m);
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let l = self.legal();
        if depth == 1 {
            return l.len() as u64;
        }
        l.iter()
            .map(|m| {
                let mut n = self.clone();
                n.play(*m);
                n.perft(depth - 1)
            })
            .sum()
    }
}
