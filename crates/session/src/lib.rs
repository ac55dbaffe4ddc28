//! # chimera-session
//!
//! The house rules of a game against Chimera, one policy for every front
//! end: the web server's live games (`chimera serve`) and the terminal app
//! (`chimera play`) both ask this crate and keep no rule of their own.
//!
//! - [`Level`] and [`LevelSpec`]: the levels 1-8 (skill, depth cap, time a
//!   move, the words the UIs show).
//! - [`LEVEL_RATINGS`] and [`Level::rating`]: each level's measured rating
//!   as a house bot in each variant, with its 95% interval
//!   (`docs/bots.md`).
//! - [`clock_runs`]: when a side's clock starts (after that side's first
//!   move) and whether a move earns the increment.
//! - [`draw_answer`]: the engine's answer to a draw offer.
//! - [`takeback`]: whether a take-back is granted and how many plies it
//!   undoes; the clocks go back to their readings after the last move kept.
//! - [`think_time`]: the engine's time for a move from its level, its clock
//!   and the server's load.
//!
//! `docs/play.md` ("House rules") describes the policy for players; the
//! tests below give worked values.

use chimera_engine::{Limits, Score, Strength};
use chimera_rules::{Color, Variant};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One engine level, 1 (weakest) to 8 (full strength).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);
    /// The level a new game gets when none is asked for.
    pub const DEFAULT: Level = Level(4);

    /// The level `n`, if it is one (1-8).
    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    /// The level nearest to `n` (0 is 1, 9 and more are 8).
    pub fn clamped(n: u8) -> Level {
        Level(n.clamp(1, 8))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// Its row of [`LEVELS`].
    pub fn spec(self) -> &'static LevelSpec {
        &LEVELS[self.0 as usize - 1]
    }

    /// One level stronger, or the same at the top.
    pub fn stronger(self) -> Level {
        Level::clamped(self.0 + 1)
    }

    /// One level weaker, or the same at the bottom.
    pub fn weaker(self) -> Level {
        Level::clamped(self.0.saturating_sub(1))
    }

    /// Levels 1 to 8.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=8).map(Level)
    }

    /// Its measured rating as a house bot in `variant` ([`LEVEL_RATINGS`]).
    pub fn rating(self, variant: Variant) -> &'static LevelRating {
        LEVEL_RATINGS
            .iter()
            .find(|r| r.level == self.0 && r.variant == variant)
            .expect("LEVEL_RATINGS has every level and variant (tested)")
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a text is not a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel(pub String);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad level '{}': expected a whole number from 1 to 8", self.0)
    }
}

impl std::error::Error for BadLevel {}

impl FromStr for Level {
    type Err = BadLevel;
    fn from_str(s: &str) -> Result<Level, BadLevel> {
        s.trim().parse::<u8>().ok().and_then(Level::new).ok_or_else(|| BadLevel(s.to_string()))
    }
}

/// What a level plays like: the engine's skill (0-20, 20 = no weakening),
/// a depth cap, and its time a move when the clock allows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    pub level: u8,
    /// For people, as the UIs show it.
    pub words: &'static str,
    pub skill: u8,
    pub depth: Option<u32>,
    pub movetime: Duration,
}

impl LevelSpec {
    /// The engine's strength setting for this level.
    pub fn strength(&self) -> Strength {
        Strength { skill: self.skill, elo: None }
    }
}

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The levels 1-8. Levels 1-5 are capped in depth as well as weakened by
/// skill, so that a fast machine does not make them stronger; 6-8 are
/// limited by time only.
pub const LEVELS: [LevelSpec; 8] = [
    LevelSpec {
        level: 1,
        words: "Beginner: sees one move ahead and blunders freely",
        skill: 0,
        depth: Some(1),
        movetime: ms(100),
    },
    LevelSpec {
        level: 2,
        words: "Casual: spots simple captures, misses most threats",
        skill: 3,
        depth: Some(2),
        movetime: ms(150),
    },
    LevelSpec {
        level: 3,
        words: "Club novice: avoids hanging pieces most of the time",
        skill: 6,
        depth: Some(3),
        movetime: ms(200),
    },
    LevelSpec {
        level: 4,
        words: "Club player: short tactics, steady development",
        skill: 9,
        depth: Some(4),
        movetime: ms(300),
    },
    LevelSpec {
        level: 5,
        words: "Strong club player: calculates a few moves deep",
        skill: 12,
        depth: Some(6),
        movetime: ms(400),
    },
    LevelSpec { level: 6, words: "Expert: punishes most mistakes", skill: 15, depth: None, movetime: ms(500) },
    LevelSpec {
        level: 7,
        words: "Master: full strength, half a second a move",
        skill: 18,
        depth: None,
        movetime: ms(700),
    },
    LevelSpec {
        level: 8,
        words: "Full strength: the engine's best, one second a move",
        skill: 20,
        depth: None,
        movetime: ms(1000),
    },
];

// ----- ratings ------------------------------------------------------------

mod level_ratings;
pub use level_ratings::LEVEL_RATINGS;

/// A level's rating as a house bot in one variant, measured by
/// `scripts/calibrate-levels.sh` (`docs/bots.md`): Elo on the scale of
/// Stockfish 15.1's `UCI_Elo` (its anchors in chess; each other variant is
/// tied to chess at one level), with its 95% interval. The interval is
/// wide where few games stand behind the figure; it is the measure of how
/// far the figure may be off, and a rating system that takes the bots in
/// can start them at `rating` with a deviation of about a quarter of
/// `upper - lower`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelRating {
    pub variant: Variant,
    pub level: u8,
    pub rating: i32,
    /// The 95% interval's ends.
    pub lower: i32,
    pub upper: i32,
    /// The games this level played in this variant in the calibration.
    pub games: u32,
}

impl LevelRating {
    /// Half the interval's width, the ± of the figure (rounded up).
    pub fn margin(&self) -> i32 {
        (self.upper - self.lower + 1) / 2
    }
}

// ----- clocks -------------------------------------------------------------

/// Plies played before the clocks run: each side's first move is untimed.
pub const CLOCK_START_PLIES: usize = 2;

/// Whether the clock of the side to move runs with `plies_played` moves on
/// the board, as on lichess: each side's clock starts after that side's
/// first move. A move made while its clock runs earns the increment; the
/// two first moves earn none (their time is not counted either).
pub fn clock_runs(plies_played: usize) -> bool {
    plies_played >= CLOCK_START_PLIES
}

// ----- draw offers --------------------------------------------------------

/// Plies before the engine considers a draw offer: 20 moves each.
pub const DRAW_MIN_PLIES: usize = 40;

/// The engine accepts a draw when its evaluation from its own side is at
/// most this (centipawns): when it does not think itself better.
pub const DRAW_MAX_CP: i32 = 0;

/// The engine's evaluation from its last move's search: its score from its
/// own side, and the number of plies on the board when it searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EngineEval {
    pub ply: usize,
    pub score: Score,
}

/// Why the engine declines a draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeclineReason {
    /// Fewer than [`DRAW_MIN_PLIES`] plies played.
    TooEarly,
    /// No search of the engine's on a position still in the game (none yet,
    /// or the position was taken back).
    NoEvaluation,
    /// The engine thinks itself better.
    EngineBetter,
}

/// The engine's answer to a draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawAnswer {
    Accept,
    Decline(DeclineReason),
}

impl DrawAnswer {
    /// The answer in words for the player.
    pub fn message(self) -> &'static str {
        match self {
            DrawAnswer::Accept => "The computer accepts the draw.",
            DrawAnswer::Decline(DeclineReason::TooEarly) => {
                "The computer declines the draw: too early (it considers offers from move 21)."
            }
            DrawAnswer::Decline(DeclineReason::NoEvaluation) => {
                "The computer declines the draw: it has not judged this position yet."
            }
            DrawAnswer::Decline(DeclineReason::EngineBetter) => {
                "The computer declines the draw: it thinks it stands better. Play on."
            }
        }
    }
}

/// The engine's answer to a draw offer with `plies_played` moves on the
/// board, given its evaluation `eval` from its last move's search.
/// Accepted from [`DRAW_MIN_PLIES`] on when that evaluation is of a
/// position still in the game and, from the engine's side, at most
/// [`DRAW_MAX_CP`] (or it is being mated); declined otherwise.
pub fn draw_answer(plies_played: usize, eval: Option<EngineEval>) -> DrawAnswer {
    if plies_played < DRAW_MIN_PLIES {
        return DrawAnswer::Decline(DeclineReason::TooEarly);
    }
    let Some(e) = eval.filter(|e| e.ply < plies_played) else {
        return DrawAnswer::Decline(DeclineReason::NoEvaluation);
    };
    match e.score {
        Score::Cp(cp) if cp <= DRAW_MAX_CP => DrawAnswer::Accept,
        Score::Mate(n) if n < 0 => DrawAnswer::Accept,
        _ => DrawAnswer::Decline(DeclineReason::EngineBetter),
    }
}

// ----- take-backs ---------------------------------------------------------

/// Who the side asking for a take-back plays against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The engine; the person plays `human`.
    Engine { human: Color },
    /// Both sides at one board (hot-seat).
    SameBoard,
    /// Another person elsewhere (a friend, a stranger).
    Remote,
}

/// Why a take-back is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TakebackRefused {
    /// Not between two people at different boards.
    NotOffered,
    /// The game is over: its result stands.
    GameOver,
    /// No move of the asker's on the board.
    NothingToTakeBack,
}

impl fmt::Display for TakebackRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TakebackRefused::NotOffered => "takebacks are offered only against the engine or in hot-seat games",
            TakebackRefused::GameOver => "the game is over: its result stands",
            TakebackRefused::NothingToTakeBack => "no move of yours to take back",
        })
    }
}

impl std::error::Error for TakebackRefused {}

/// How many plies a take-back undoes, with `turn` to move and
/// `plies_played` on the board. Against the engine it is always granted,
/// as often as asked, back to the person's last turn: two plies (the
/// person's move and the engine's reply), one while the engine is still
/// thinking about its reply. At one board: the last move. Never between
/// people at different boards, never after the end. The clocks go back to
/// what they read after the last move kept (the start values when none is).
pub fn takeback(opponent: Opponent, turn: Color, plies_played: usize, over: bool) -> Result<usize, TakebackRefused> {
    let n = match opponent {
        Opponent::Remote => return Err(TakebackRefused::NotOffered),
        Opponent::SameBoard => 1,
        Opponent::Engine { human } if turn == human => 2,
        Opponent::Engine { .. } => 1,
    };
    if over {
        return Err(TakebackRefused::GameOver);
    }
    if plies_played < n {
        return Err(TakebackRefused::NothingToTakeBack);
    }
    Ok(n)
}

// ----- think time ---------------------------------------------------------

/// The engine's clock when it is to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
}

/// How busy the engine's workers are: a server's pool; one idle worker for
/// the terminal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Load {
    pub workers: usize,
    /// Searches queued for a worker.
    pub waiting: usize,
}

impl Load {
    pub const IDLE: Load = Load { workers: 1, waiting: 0 };
}

/// The shortest think a load scaling leaves (the clock may still ask for
/// less).
pub const MIN_THINK: Duration = ms(50);

/// Never less than this, whatever the clock.
pub const FLOOR_THINK: Duration = ms(1);

/// The engine's limits for one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkTime {
    pub movetime: Duration,
    pub depth: Option<u32>,
    pub skill: u8,
}

impl ThinkTime {
    /// As the engine's search limits (a fixed time; the engine keeps its
    /// move overhead out of it).
    pub fn limits(&self) -> Limits {
        Limits { depth: self.depth, movetime: Some(self.movetime), ..Limits::default() }
    }

    pub fn strength(&self) -> Strength {
        Strength { skill: self.skill, elo: None }
    }
}

/// The engine's time for a move: its level's time, at most a twentieth of
/// its clock plus half the increment once its clock runs, shrunk by the
/// load (workers / (workers + searches waiting)) but not below
/// [`MIN_THINK`] unless the clock's share is smaller, and never below
/// [`FLOOR_THINK`]. The level's depth cap and skill go with it.
pub fn think_time(level: Level, clock: Option<Clock>, plies_played: usize, load: Load) -> ThinkTime {
    let spec = level.spec();
    let share = clock.filter(|_| clock_runs(plies_played)).map(|c| c.remaining / 20 + c.increment / 2);
    let mut t = share.map_or(spec.movetime, |s| s.min(spec.movetime));
    let workers = load.workers.max(1);
    if load.waiting > 0 {
        t = t.mul_f64(workers as f64 / (workers + load.waiting) as f64);
    }
    let floor = share.map_or(MIN_THINK, |s| s.min(MIN_THINK));
    ThinkTime { movetime: t.max(floor).max(FLOOR_THINK), depth: spec.depth, skill: spec.skill }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_clamp_and_step() {
        assert_eq!("5".parse::<Level>(), Ok(Level(5)));
        assert_eq!(" 8 ".parse::<Level>(), Ok(Level::MAX));
        for bad in ["0", "9", "-1", "four", "", "4.5"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::clamped(0), Level::MIN);
        assert_eq!(Level::clamped(200), Level::MAX);
        assert_eq!(Level::MAX.stronger(), Level::MAX);
        assert_eq!(Level::MIN.weaker(), Level::MIN);
        assert_eq!(Level(4).stronger(), Level(5));
        assert_eq!(Level::default().to_string(), "4");
        assert_eq!(Level::all().count(), 8);
        for (i, l) in Level::all().enumerate() {
            assert_eq!(l.spec().level as usize, i + 1);
        }
    }

    #[test]
    fn the_level_table_grows_stronger_and_slower() {
        assert_eq!(Level(1).spec().strength().skill, 0);
        assert_eq!(Level(8).spec().strength().skill, 20);
        assert_eq!(Level(3).spec().depth, Some(3));
        assert_eq!(Level(6).spec().depth, None);
        for w in LEVELS.windows(2) {
            assert!(w[0].skill < w[1].skill);
            assert!(w[0].movetime < w[1].movetime);
        }
        assert_eq!(LEVELS[0].movetime, ms(100));
        assert_eq!(LEVELS[7].movetime, ms(1000));
    }

    #[test]
    fn every_level_has_a_rating_in_every_variant() {
        assert_eq!(LEVEL_RATINGS.len(), 8 * Variant::ALL.len());
        for level in Level::all() {
            for variant in Variant::ALL {
                let n = LEVEL_RATINGS.iter().filter(|r| r.level == level.number() && r.variant == variant).count();
                assert_eq!(n, 1, "level {level} in {variant:?}");
                let r = level.rating(variant);
                assert!(r.lower < r.rating && r.rating < r.upper, "{r:?}: the interval contains the figure");
                assert!(r.games > 0, "{r:?}: games behind the figure");
                assert!(r.margin() > 0);
            }
        }
    }

    #[test]
    fn full_strength_is_rated_above_the_beginner() {
        // Level 8 against level 1 is hundreds of Elo in every variant: a
        // table with the levels swapped or misread would fail here.
        for variant in Variant::ALL {
            let (low, high) = (Level::MIN.rating(variant), Level::MAX.rating(variant));
            assert!(high.lower > low.upper, "{variant:?}: {low:?} {high:?}");
        }
    }

    #[test]
    fn clocks_start_after_each_sides_first_move() {
        assert!(!clock_runs(0), "White's first move is untimed");
        assert!(!clock_runs(1), "Black's first move is untimed");
        assert!(clock_runs(2));
        assert!(clock_runs(41));
    }

    #[test]
    fn draw_answers() {
        let ev = |ply, score| Some(EngineEval { ply, score });
        // Too early, whatever the evaluation.
        assert_eq!(draw_answer(0, None), DrawAnswer::Decline(DeclineReason::TooEarly));
        assert_eq!(draw_answer(39, ev(38, Score::Cp(-500))), DrawAnswer::Decline(DeclineReason::TooEarly));
        // From move 21 on.
        assert_eq!(draw_answer(40, None), DrawAnswer::Decline(DeclineReason::NoEvaluation));
        assert_eq!(draw_answer(40, ev(39, Score::Cp(0))), DrawAnswer::Accept);
        assert_eq!(draw_answer(40, ev(39, Score::Cp(-35))), DrawAnswer::Accept);
        assert_eq!(draw_answer(40, ev(39, Score::Cp(1))), DrawAnswer::Decline(DeclineReason::EngineBetter));
        assert_eq!(draw_answer(40, ev(39, Score::Mate(-3))), DrawAnswer::Accept);
        assert_eq!(draw_answer(40, ev(39, Score::Mate(2))), DrawAnswer::Decline(DeclineReason::EngineBetter));
        // An evaluation of a position taken back since counts for nothing.
        assert_eq!(draw_answer(40, ev(41, Score::Cp(-50))), DrawAnswer::Decline(DeclineReason::NoEvaluation));
        assert_eq!(draw_answer(40, ev(40, Score::Cp(-50))), DrawAnswer::Decline(DeclineReason::NoEvaluation));
        assert!(DrawAnswer::Accept.message().contains("accepts"));
    }

    #[test]
    fn takebacks() {
        let e = Opponent::Engine { human: Color::White };
        // The person to move: their move and the engine's reply.
        assert_eq!(takeback(e, Color::White, 2, false), Ok(2));
        assert_eq!(takeback(e, Color::White, 30, false), Ok(2));
        // The engine still thinking: the person's move only.
        assert_eq!(takeback(e, Color::Black, 1, false), Ok(1));
        assert_eq!(takeback(e, Color::White, 0, false), Err(TakebackRefused::NothingToTakeBack));
        // The engine opened as White: its first move alone is not the person's.
        let eb = Opponent::Engine { human: Color::Black };
        assert_eq!(takeback(eb, Color::Black, 1, false), Err(TakebackRefused::NothingToTakeBack));
        assert_eq!(takeback(eb, Color::Black, 3, false), Ok(2));
        assert_eq!(takeback(Opponent::SameBoard, Color::Black, 1, false), Ok(1));
        assert_eq!(takeback(Opponent::SameBoard, Color::White, 0, false), Err(TakebackRefused::NothingToTakeBack));
        assert_eq!(takeback(Opponent::Remote, Color::White, 10, false), Err(TakebackRefused::NotOffered));
        assert_eq!(takeback(e, Color::White, 10, true), Err(TakebackRefused::GameOver));
        assert_eq!(takeback(Opponent::Remote, Color::White, 10, true), Err(TakebackRefused::NotOffered));
    }

    #[test]
    fn think_times() {
        let clock = |s: u64, inc: u64| Some(Clock { remaining: ms(s * 1000), increment: ms(inc * 1000) });
        let t = |l: u8, c, plies, load| think_time(Level(l), c, plies, load).movetime;
        // No clock: the level's time.
        assert_eq!(t(1, None, 10, Load::IDLE), ms(100));
        assert_eq!(t(8, None, 10, Load::IDLE), ms(1000));
        // 5+3: 300 s / 20 + 1.5 s = 16.5 s, more than any level's time.
        assert_eq!(t(8, clock(300, 3), 10, Load::IDLE), ms(1000));
        // 10 s left, no increment: 0.5 s caps level 8, not level 4.
        assert_eq!(t(8, clock(10, 0), 10, Load::IDLE), ms(500));
        assert_eq!(t(4, clock(10, 0), 10, Load::IDLE), ms(300));
        // The first move of each side is untimed: the level's time.
        assert_eq!(t(8, clock(10, 0), 1, Load::IDLE), ms(1000));
        // 0.4 s left: 20 ms, under the 50 ms floor of a load scaling.
        assert_eq!(t(8, Some(Clock { remaining: ms(400), increment: ms(0) }), 10, Load::IDLE), ms(20));
        assert_eq!(t(8, Some(Clock { remaining: ms(0), increment: ms(0) }), 10, Load::IDLE), ms(1));
        // Load: 2 workers, 2 waiting: half the time, 50 ms at least.
        let busy = Load { workers: 2, waiting: 2 };
        assert_eq!(t(8, None, 10, busy), ms(500));
        assert_eq!(t(1, None, 10, busy), ms(50));
        assert_eq!(t(8, None, 10, Load { workers: 2, waiting: 98 }), ms(50));
        assert_eq!(t(8, clock(10, 0), 10, busy), ms(250));
        // Depth and skill come from the level.
        let tt = think_time(Level(3), None, 0, Load::IDLE);
        assert_eq!((tt.depth, tt.skill), (Some(3), 6));
        assert_eq!(tt.limits().movetime, Some(ms(200)));
        assert_eq!(tt.limits().depth, Some(3));
        assert_eq!(tt.strength().skill, 6);
    }
}
