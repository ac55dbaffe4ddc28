//! The search's tunable numbers: pruning margins, reduction terms and the
//! aspiration window, each with its range and an SPSA step.
//!
//! In a normal build each one is a constant that the compiler folds into
//! the search, so it costs nothing. A build with the `spsa` feature
//! (`cargo build --release --features spsa`) keeps them in atomics and
//! offers each as a UCI spin option `Tune_<name>`, so that a tuner can play
//! matches between two settings without a rebuild (as Stockfish's `TUNE`
//! builds do). `scripts/spsa.py` is that tuner; `docs/engine.md`
//! ("Tuning the search") says how to run it.

/// One tunable number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name (the UCI option is `Tune_<name>`).
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// The least value the option accepts.
    pub min: i32,
    /// The greatest value the option accepts.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (`c_end`): about the change
    /// that moves strength by a few Elo.
    pub step: i32,
}

macro_rules! params {
    ($($(#[doc = $doc:expr])* $name:ident = $def:expr, $min:expr, $max:expr, $step:expr;)*) => {
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Copy, Clone)]
        #[repr(usize)]
        enum Id { $($name,)* }

        /// Every tunable number, in a fixed order.
        pub const ALL: &[Param] = &[$(Param { name: stringify!($name), default: $def, min: $min, max: $max, step: $step },)*];

        #[cfg(feature = "spsa")]
        static VALUES: [std::sync::atomic::AtomicI32; ALL.len()] = [$(std::sync::atomic::AtomicI32::new($def),)*];

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "spsa")]
                { VALUES[Id::$name as usize].load(std::sync::atomic::Ordering::Relaxed) }
                #[cfg(not(feature = "spsa"))]
                { $def }
            }
        )*
    };
}

params! {
    /// Reverse futility: the margin a ply of depth.
    rfp_margin = 75, 20, 200, 8;
    /// Reverse futility: the allowance when the evaluation is improving.
    rfp_improving = 40, 0, 150, 8;
    /// Razoring: the margin's constant term.
    razor_base = 450, 0, 1500, 50;
    /// Razoring: the margin's term in depth².
    razor_quad = 250, 0, 800, 25;
    /// Null move: a ply more reduction for each this much the evaluation
    /// clears beta by (at most three).
    nmp_eval_div = 200, 50, 600, 20;
    /// ProbCut: how far above beta a capture's reduced search must score.
    probcut_margin = 200, 50, 500, 20;
    /// ProbCut: the margin's cut when the evaluation is improving.
    probcut_improving = 50, 0, 200, 10;
    /// Futility pruning of quiet moves: the margin's constant term.
    futility_base = 120, 0, 400, 12;
    /// Futility pruning of quiet moves: the margin a ply of reduced depth.
    futility_depth = 100, 20, 300, 10;
    /// History pruning: a quiet move whose history is below minus this
    /// times the depth is pruned.
    hist_prune = 4000, 500, 16000, 400;
    /// SEE pruning of quiet moves: the loss allowed, times the reduced
    /// depth squared.
    see_quiet = 25, 0, 100, 3;
    /// SEE pruning of losing captures: the loss allowed a ply of depth.
    see_capture = 80, 0, 300, 8;
    /// Late-move reductions: a ply less for each this much of history
    /// (at most two).
    lmr_hist_div = 12000, 2000, 40000, 1200;
    /// Late-move reductions: the table's constant term, in hundredths of a
    /// ply.
    lmr_base = 50, -100, 200, 8;
    /// Late-move reductions: the table's divisor of ln(depth)·ln(moves),
    /// in hundredths.
    lmr_div = 220, 100, 500, 15;
    /// A reduced move's re-search goes a ply deeper when it beat the best
    /// score by this much (plus 10 a ply of reduction).
    research_deeper = 50, 0, 200, 6;
    /// Quiescence's delta pruning: the margin above the victim's value.
    qs_delta = 200, 0, 600, 20;
    /// Quiescence's futility: the margin for a capture that wins nothing.
    qs_futility = 200, 0, 600, 20;
    /// Singular extensions: the margin below the table's score, in tenths
    /// of a centipawn a ply of depth.
    singular_margin = 20, 5, 60, 3;
    /// Singular extensions: how much further below a move must fail for a
    /// double extension.
    double_ext_margin = 20, 0, 100, 4;
    /// Hindsight depth: the two evaluations' sum above which a reduced
    /// node is searched a ply shallower.
    hindsight_margin = 175, 0, 500, 20;
    /// The aspiration window's first half-width.
    aspiration = 25, 5, 100, 3;
}

/// Sets the number named `name` (as in [`ALL`], any case) to `value`.
/// Only a build with the `spsa` feature can; others say so.
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let Some(i) = ALL.iter().position(|p| p.name.eq_ignore_ascii_case(name)) else {
        return Err(format!("unknown search parameter '{name}'"));
    };
    let p = ALL[i];
    if value < p.min || value > p.max {
        return Err(format!("search parameter '{}' must be between {} and {}, got {value}", p.name, p.min, p.max));
    }
    #[cfg(feature = "spsa")]
    {
        VALUES[i].store(value, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
    #[cfg(not(feature = "spsa"))]
    Err(format!("search parameter '{}' is fixed in this build (build with --features spsa to tune it)", p.name))
}

/// Whether this build lets [`set`] change the numbers.
pub const TUNABLE: bool = cfg!(feature = "spsa");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for p in ALL {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0 && p.step <= p.max - p.min, "{p:?}");
        }
        let mut names: Vec<_> = ALL.iter().map(|p| p.name.to_ascii_lowercase()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
        // The accessors read the defaults (in a tuning build, until set).
        assert_eq!(rfp_margin(), ALL[0].default);
        assert_eq!(aspiration(), ALL[ALL.len() - 1].default);
    }

    #[test]
    fn set_rejects_unknown_names_and_values_out_of_range() {
        assert!(set("no_such_knob", 1).unwrap_err().contains("unknown search parameter"));
        let e = set("rfp_margin", 10_000).unwrap_err();
        assert!(e.contains("between 20 and 200"), "{e}");
        if TUNABLE {
            set("RFP_MARGIN", 80).unwrap();
            assert_eq!(rfp_margin(), 80);
            set("rfp_margin", ALL[0].default).unwrap();
        } else {
            assert!(set("rfp_margin", 80).unwrap_err().contains("fixed in this build"));
        }
    }
}
