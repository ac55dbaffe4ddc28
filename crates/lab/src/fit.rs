//! Piece values fitted from a study's games with the engine's tuner
//! (`chimera_train::tune`, Texel's method): the positions of the games are
//! labelled with their results, and the values of the study's variant (its
//! material, and Genie, Clown by file, ring powers by level, reserve pieces)
//! are moved until the evaluation predicts the results best.
//!
//! How sure the fit is: every 10th pair of games is held out, and its error
//! before and after says whether the fit generalises; and the fit is made
//! again on each half of the games (even and odd numbers). Each half's
//! value has about twice the full fit's variance σ², so the gap between
//! the halves has a standard deviation of about 2σ and half the gap is a
//! rough (one-draw) estimate of σ: a value that moved by several times it
//! moved for a reason; one that moved by less than it did not clearly.

use serde::{Deserialize, Serialize};

// Fitting runs the engine's tuner: the lab's `play` feature (the server's
// `/lab` pages only show a kept fit, and build without it).
#[cfg(feature = "play")]
pub use fitting::{fit, prefixes, MAX_POSITIONS};

/// One fitted value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FitValue {
    /// The tuner's name (`material.knight.mg`, `clown.ah.eg`, `ring.power.queen.mg`, ...).
    pub name: String,
    /// What it means in this study (`Knight (midgame)`, `ring at level 2 (N)`, ...).
    pub label: String,
    /// The engine's hand-set value (centipawns).
    pub start: i32,
    pub fitted: i32,
    /// The fits on the even- and odd-numbered halves of the games.
    pub half_a: i32,
    pub half_b: i32,
}

impl FitValue {
    /// Half the gap between the two halves' fits: a rough standard error.
    pub fn spread(&self) -> f64 {
        (self.half_a - self.half_b).abs() as f64 / 2.0
    }
}

/// A study's fit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fit {
    pub games: usize,
    pub positions: usize,
    pub validation_positions: usize,
    pub k: f64,
    pub train_error: (f64, f64),
    pub validation_error: (f64, f64),
    pub values: Vec<FitValue>,
    /// Passes of the local search and the prior, as used.
    pub passes: usize,
    pub prior: f64,
}

#[cfg(feature = "play")]
mod fitting {
    use super::{Fit, FitValue};
    use crate::analysis::Replayed;
    use chimera_engine::eval::PARAMS;
    use chimera_rules::{Position, Variant};
    use chimera_train::tune::{self, Dataset, Model, TuneOptions};
    use std::collections::HashSet;

    /// The tuner's value prefixes that belong to `variant`'s pieces.
    pub fn prefixes(variant: Variant) -> Vec<&'static str> {
        let mut p = vec!["material.knight", "material.bishop", "material.rook", "material.queen"];
        match variant {
            Variant::Chess => p.insert(0, "material.pawn"),
            Variant::Genie | Variant::GenieOwnHalf => {
                p.insert(0, "material.pawn");
                p.extend(["material.genie", "genie.flip_right"]);
            }
            Variant::Genesis => p.extend(["genesis.pawn", "genesis.reserve."]),
            Variant::Clown => {
                p.insert(0, "material.pawn");
                p.extend(["clown."]);
            }
            Variant::MagicRing => {
                p.insert(0, "material.pawn");
                p.extend(["ring.power.", "ring.king_partial", "ring.on_king."]);
            }
        }
        p
    }

    fn label(name: &str, ring_powers: &str) -> String {
        let (base, phase) = match name.rsplit_once('.') {
            Some((b, "mg")) => (b, " (midgame)"),
            Some((b, "eg")) => (b, " (endgame)"),
            _ => (name, ""),
        };
        let role = |r: &str| match r {
            "pawn" => "Pawn",
            "knight" => "Knight",
            "bishop" => "Bishop",
            "rook" => "Rook",
            "queen" => "Queen",
            "king" => "King",
            "genie" => "Genie",
            _ => "?",
        };
        let what = if let Some(r) = base.strip_prefix("material.") {
            role(r).to_string()
        } else if let Some(r) = base.strip_prefix("genesis.reserve.") {
            format!("{} in the reserve", role(r))
        } else if base == "genesis.pawn" {
            "Genesis Pawn on the board".into()
        } else if let Some(f) = base.strip_prefix("clown.") {
            match f {
                "file.0" => "Clown on the a- or h-file".into(),
                "file.1" => "Clown on the b- or g-file".into(),
                "file.2" => "Clown on the c- or f-file".into(),
                "file.3" => "Clown on the d-file".into(),
                "file.4" => "Clown on the e-file".into(),
                "reentry.0" => "unused re-entry with a Knight in hand".into(),
                "reentry.1" => "unused re-entry with a Bishop in hand".into(),
                "declare_right" => "right to declare a Clown".into(),
                other => other.to_string(),
            }
        } else if let Some((r, what)) = base
            .strip_prefix("ring.power.")
            .map(|r| (r, "ring power"))
            .or_else(|| base.strip_prefix("ring.on_king.").map(|r| (r, "ring on its King, next power")))
        {
            let letter = match r {
                "knight" => 'N',
                "bishop" => 'B',
                "rook" => 'R',
                "queen" => 'Q',
                "king" => 'K',
                _ => '-',
            };
            let levels: Vec<String> = ring_powers
                .chars()
                .enumerate()
                .filter(|(_, c)| *c == letter)
                .map(|(i, _)| (i + 1).to_string())
                .collect();
            if levels.is_empty() {
                format!("{what} {} (not in {ring_powers})", role(r))
            } else {
                format!("{what} {} (level {})", role(r), levels.join(", "))
            }
        } else if base == "ring.king_partial" {
            "King power on a Rook or Bishop (partly covered)".into()
        } else if base == "genie.flip_right" {
            "a pawn's right to flip".into()
        } else {
            base.to_string()
        };
        format!("{what}{phase}")
    }

    fn dataset(games: &[&Replayed]) -> Dataset {
        let mut data = Dataset::default();
        let mut seen = HashSet::new();
        let pgn: String = games.iter().map(|g| g.row.pgn.as_str()).collect::<Vec<_>>().join("\n");
        data.add_pgn(&pgn, 10, 2, &mut seen);
        data
    }

    /// Most training positions a fit uses (evenly thinned above this).
    pub const MAX_POSITIONS: usize = 40_000;

    fn thin(mut v: Vec<tune::Sample>) -> Vec<tune::Sample> {
        if v.len() > MAX_POSITIONS {
            let step = v.len() as f64 / MAX_POSITIONS as f64;
            let keep: HashSet<usize> = (0..MAX_POSITIONS).map(|i| (i as f64 * step) as usize).collect();
            let mut i = 0;
            v.retain(|_| {
                i += 1;
                keep.contains(&(i - 1))
            });
        }
        v
    }

    /// Fits the piece values of the study's variant from its games. `None`
    /// when the games hold no usable position.
    pub fn fit(games: &[Replayed], threads: usize, passes: usize) -> Option<Fit> {
        let first = games.first()?;
        let variant = first.start.variant();
        let ring_powers = match &first.start {
            chimera_rules::AnyPosition::MagicRing(p) => p.powers().to_string(),
            _ => String::new(),
        };
        let only: Vec<String> = prefixes(variant).into_iter().map(String::from).collect();
        let prior = 0.0005;
        let opts = TuneOptions {
            epochs: passes,
            batch: 4096,
            learning_rate: 1.0,
            only: only.clone(),
            prior,
            seed: 1,
            threads,
        };
        let all: Vec<&Replayed> = games.iter().collect();
        let full = dataset(&all);
        if full.train.is_empty() {
            return None;
        }
        let train = thin(full.train);
        let k = tune::fit_k(&train, &PARAMS, threads);
        let e0 = tune::mean_error(&train, &PARAMS, k, threads);
        let v0 = tune::mean_error(&full.validation, &PARAMS, k, threads);
        let (train_model, validation_model) = (Model::new(&train, threads), Model::new(&full.validation, threads));
        let fitted = tune::tune(&train_model, &validation_model, &PARAMS, k, &opts, &mut |_| {});
        let e1 = tune::mean_error(&train, &fitted, k, threads);
        let v1 = tune::mean_error(&full.validation, &fitted, k, threads);
        let half = |parity: u64| {
            let part: Vec<&Replayed> = games.iter().filter(|g| g.row.k % 2 == parity).collect();
            let d = dataset(&part);
            let t = thin(d.train);
            let (tm, vm) = (Model::new(&t, threads), Model::new(&d.validation, threads));
            tune::params_to_vec(&tune::tune(&tm, &vm, &PARAMS, k, &opts, &mut |_| {}))
        };
        let (ha, hb) = (half(0), half(1));
        let (before, after) = (tune::params_to_vec(&PARAMS), tune::params_to_vec(&fitted));
        let values = tune::fields()
            .iter()
            .enumerate()
            .filter(|(_, f)| only.iter().any(|o| f.name.starts_with(o.as_str())))
            .filter(|(_, f)| !label(&f.name, &ring_powers).contains("(not in "))
            .map(|(i, f)| FitValue {
                name: f.name.clone(),
                label: label(&f.name, &ring_powers),
                start: before[i],
                fitted: after[i],
                half_a: ha[i],
                half_b: hb[i],
            })
            .collect();
        Some(Fit {
            games: games.len(),
            positions: train.len(),
            validation_positions: full.validation.len(),
            k,
            train_error: (e0, e1),
            validation_error: (v0, v1),
            values,
            passes,
            prior,
        })
    }
}
