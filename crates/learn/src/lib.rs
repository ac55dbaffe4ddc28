//! # chimera-learn
//!
//! Short interactive lessons, one or more for every special rule of every
//! variant Chimera plays (`docs/learn.md` lists them), and the judge that
//! says whether a move answers a lesson step's task.
//!
//! The lessons are data ([`lessons`]): a step is a position (variant, rule
//! options, FEN), a task in words, one or more stages (the player's move
//! and an optional scripted reply), a hint, an explanation for success and
//! one for a wrong answer. Every move is read and judged by `chimera-rules`:
//! this crate never decides on its own what a move is or whether it is
//! legal. The web server (`/learn`) and the terminal app (`chimera learn`)
//! both call [`judge`].
//!
//! ```
//! use chimera_learn::{find_step, judge};
//!
//! let (_, step) = find_step("genie", "flip", 1).unwrap();
//! let v = judge(step, &[], "e6e6g").unwrap();
//! assert!(v.ok && v.done);
//! let v = judge(step, &[], "e6e7").unwrap();
//! assert!(!v.ok && !v.explanation.is_empty());
//! ```

mod lessons;

pub use lessons::{rules_taught, LESSONS};

use chimera_rules::{san, AnyPosition, Move, MoveKind, Position, Role, RuleOptions, Variant};
use serde::Serialize;

/// What a stage's move must do. Every test is asked of the rules crate.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    /// One of these moves (UCI strings, read against the position).
    Moves(&'static [&'static str]),
    /// A move of this kind.
    Kind(Kind),
    /// The move gives check.
    Check,
    /// The move mates.
    Mate,
    /// After the move, the opponent has no move that mates.
    StopsMate,
    /// The move lands on this rank (1 to 8).
    Rank(u8),
    /// Every one of these.
    All(&'static [Goal]),
}

/// Kinds of move a goal can ask for (a [`MoveKind`] without its data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Genie flip.
    Flip,
    /// Genesis placement of this role (`None`: any).
    Drop(Option<Role>),
    /// Clown Chess declaration.
    Declare,
    /// Clown Chess re-entry as this role (`None`: any).
    ReEntry(Option<Role>),
    /// Magic Ring pass.
    RingPass,
    /// Castling.
    Castle,
    /// En passant.
    EnPassant,
    /// Promotion to this role (`None`: any).
    Promotion(Option<Role>),
    /// A capture.
    Capture,
}

/// One move of the player's in a step, and what follows it.
#[derive(Clone, Copy, Debug)]
pub struct Stage {
    /// What the move must do.
    pub goal: Goal,
    /// One accepted answer (the tests play it; the hint may show it).
    pub answer: &'static str,
    /// One refused answer, legal or not (the tests play it).
    pub wrong: &'static str,
    /// The opponent's scripted reply when more stages follow: the first of
    /// these that is legal is played.
    pub reply: &'static [&'static str],
}

/// One task on one position.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The rule this step teaches (a name from [`rules_taught`]).
    pub rule: &'static str,
    /// The task, in words.
    pub task: &'static str,
    /// The start position (the variant's FEN).
    pub fen: &'static str,
    /// Rule options in their text form (`ring_powers=NKQ`), usually empty.
    pub options: &'static str,
    /// The player's moves, in order.
    pub stages: &'static [Stage],
    /// A hint that helps without giving the move away.
    pub hint: &'static str,
    /// Said when the step is done: why the answer works.
    pub success: &'static str,
    /// Said after any wrong answer, after the reason the rules give.
    pub wrong: &'static str,
    /// Explanations for particular wrong moves (UCI string, text).
    pub mistakes: &'static [(&'static str, &'static str)],
}

/// A lesson: a few steps on one rule of one variant.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// The lesson's id, unique within its variant (`flip`).
    pub id: &'static str,
    /// The variant (and so the rule set) it is played in.
    pub variant: Variant,
    /// Its title.
    pub title: &'static str,
    /// One or two sentences: the rule in words.
    pub intro: &'static str,
    /// Its steps.
    pub steps: &'static [Step],
}

impl Lesson {
    /// The key of step `n` (1-based) for progress: `variant/lesson/n`.
    pub fn step_key(&self, n: usize) -> String {
        format!("{}/{}/{}", self.variant.id(), self.id, n)
    }
}

/// The lessons of one variant, in order.
pub fn lessons_of(variant: Variant) -> impl Iterator<Item = &'static Lesson> {
    LESSONS.iter().filter(move |l| l.variant == variant)
}

/// A lesson by variant id and lesson id.
pub fn find_lesson(variant: &str, lesson: &str) -> Option<&'static Lesson> {
    let v: Variant = variant.parse().ok()?;
    lessons_of(v).find(|l| l.id == lesson)
}

/// Step `n` (1-based) of a lesson.
pub fn find_step(variant: &str, lesson: &str, n: usize) -> Option<(&'static Lesson, &'static Step)> {
    let l = find_lesson(variant, lesson)?;
    let s = l.steps.get(n.checked_sub(1)?)?;
    Some((l, s))
}

/// Whether `key` names a step (`variant/lesson/n`, as [`Lesson::step_key`]).
pub fn is_step_key(key: &str) -> bool {
    let mut it = key.split('/');
    match (it.next(), it.next(), it.next().and_then(|n| n.parse::<usize>().ok()), it.next()) {
        (Some(v), Some(l), Some(n), None) => find_step(v, l, n).is_some(),
        _ => false,
    }
}

/// The judge's answer to one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The move does what the stage asks.
    pub ok: bool,
    /// The step is finished (the last stage was answered).
    pub done: bool,
    /// Why: the success explanation, a "well done, go on" for a middle
    /// stage, or the reason the move is refused.
    pub explanation: String,
    /// The move as the rules read it (UCI), when it is legal.
    pub uci: Option<String>,
    /// Its SAN, when it is legal.
    pub san: Option<String>,
    /// The opponent's scripted reply (UCI), when more stages follow.
    pub reply: Option<String>,
    /// The reply's SAN.
    pub reply_san: Option<String>,
}

/// Why a request cannot be judged at all (not a wrong answer: a broken one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeError(pub String);

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JudgeError {}

/// The step's start position.
pub fn start_position(step: &Step, variant: Variant) -> Result<AnyPosition, JudgeError> {
    let opts = variant.rule_options(step.options).map_err(|e| JudgeError(format!("rule options: {e}")))?;
    AnyPosition::from_fen(variant, step.fen, &opts).map_err(|e| JudgeError(format!("bad FEN: {e}")))
}

/// The lesson's variant for a step (a step knows no variant by itself).
fn variant_of(step: &Step) -> Variant {
    LESSONS
        .iter()
        .find(|l| l.steps.iter().any(|s| std::ptr::eq(s, step)))
        .map(|l| l.variant)
        .unwrap_or_else(|| guess_variant(step))
}

/// A step built outside [`LESSONS`] (a test's): the first variant that reads its FEN.
fn guess_variant(step: &Step) -> Variant {
    Variant::ALL
        .into_iter()
        .find(|v| v.rule_options(step.options).ok().is_some_and(|o| AnyPosition::from_fen(*v, step.fen, &o).is_ok()))
        .unwrap_or(Variant::Chess)
}

/// Reads a move typed as UCI or SAN.
fn read_move(pos: &AnyPosition, text: &str) -> Result<Move, String> {
    match pos.parse_uci(text) {
        Ok(m) => Ok(m),
        Err(e) => san::parse_san(pos, text).map_err(|_| e.reason.clone()),
    }
}

/// Plays the moves so far (the player's answers and the scripted replies,
/// alternating) from the step's position, checking that each answer was
/// accepted and each reply is the script's; the position and the stage
/// reached.
pub fn replay(step: &Step, moves_so_far: &[String]) -> Result<(AnyPosition, usize), JudgeError> {
    let variant = variant_of(step);
    let mut pos = start_position(step, variant)?;
    let mut stage = 0;
    let mut i = 0;
    while i < moves_so_far.len() {
        let st = step.stages.get(stage).ok_or_else(|| JudgeError("more moves than the step has".into()))?;
        let m = read_move(&pos, &moves_so_far[i]).map_err(|e| JudgeError(format!("move {}: {e}", i + 1)))?;
        if check_goal(&pos, m, &st.goal).is_err() {
            return Err(JudgeError(format!("move {} does not answer stage {}", i + 1, stage + 1)));
        }
        pos.play_unchecked(m);
        if stage + 1 == step.stages.len() {
            return Err(JudgeError("the step is already done".into()));
        }
        let reply = scripted_reply(&pos, st).ok_or_else(|| JudgeError("no scripted reply is legal".into()))?;
        let given = moves_so_far.get(i + 1).ok_or_else(|| JudgeError("the scripted reply is missing".into()))?;
        let r = read_move(&pos, given).map_err(|e| JudgeError(format!("move {}: {e}", i + 2)))?;
        if r != reply {
            return Err(JudgeError(format!("move {} is not the scripted reply {reply}", i + 2)));
        }
        pos.play_unchecked(r);
        stage += 1;
        i += 2;
    }
    Ok((pos, stage))
}

/// The first legal move of a stage's reply list.
fn scripted_reply(pos: &AnyPosition, st: &Stage) -> Option<Move> {
    st.reply.iter().find_map(|r| pos.parse_uci(r).ok())
}

/// Judges `text` (UCI or SAN) as the player's next move in `step`, after
/// `moves_so_far` (earlier answers and replies, alternating). A wrong or
/// illegal move is a verdict with `ok: false` and its explanation; only a
/// request that cannot be judged (moves so far that the step never
/// allowed) is an error.
pub fn judge(step: &Step, moves_so_far: &[String], text: &str) -> Result<Verdict, JudgeError> {
    let (pos, stage) = replay(step, moves_so_far)?;
    let st = &step.stages[stage];
    let m = match read_move(&pos, text) {
        Ok(m) => m,
        Err(why) => {
            return Ok(refused(step, text, format!("That move is not legal here: {why}."), None));
        }
    };
    let uci = m.to_string();
    let san = san::to_san(&pos, m);
    if let Err(why) = check_goal(&pos, m, &st.goal) {
        return Ok(refused(step, &uci, why, Some(san)));
    }
    let done = stage + 1 == step.stages.len();
    let after = pos.after(m);
    let (reply, reply_san) = if done {
        (None, None)
    } else {
        match scripted_reply(&after, st) {
            Some(r) => (Some(r.to_string()), Some(san::to_san(&after, r))),
            None => return Err(JudgeError("no scripted reply is legal".into())),
        }
    };
    let explanation = if done { step.success.to_string() } else { format!("Good: {san}. Now the next move.") };
    Ok(Verdict { ok: true, done, explanation, uci: Some(uci), san: Some(san), reply, reply_san })
}

fn refused(step: &Step, uci: &str, why: String, san: Option<String>) -> Verdict {
    let specific = step.mistakes.iter().find(|(m, _)| *m == uci).map(|(_, t)| *t);
    let mut explanation = why;
    if let Some(t) = specific {
        explanation = format!("{explanation} {t}");
    } else if !step.wrong.is_empty() {
        explanation = format!("{explanation} {}", step.wrong);
    }
    let legal = san.is_some();
    Verdict {
        ok: false,
        done: false,
        explanation: explanation.trim().to_string(),
        uci: legal.then(|| uci.to_string()),
        san,
        reply: None,
        reply_san: None,
    }
}

fn kind_matches(pos: &AnyPosition, m: Move, k: Kind) -> bool {
    match (k, m.kind) {
        (Kind::Flip, MoveKind::Flip) | (Kind::Declare, MoveKind::Declare) => true,
        (Kind::RingPass, MoveKind::RingPass(_)) => true,
        (Kind::Castle, MoveKind::Castle) | (Kind::EnPassant, MoveKind::EnPassant) => true,
        (Kind::Drop(r), MoveKind::Drop(x)) | (Kind::ReEntry(r), MoveKind::ReEntry(x)) => r.is_none_or(|r| r == x),
        (Kind::Promotion(r), MoveKind::Promotion(x)) => r.is_none_or(|r| r == x),
        (Kind::Capture, _) => pos.is_capture(m),
        _ => false,
    }
}

fn kind_words(k: Kind) -> String {
    match k {
        Kind::Flip => "a flip (a pawn turned into the Genie)".into(),
        Kind::Drop(Some(r)) => format!("a placement of a {}", r.name()),
        Kind::Drop(None) => "a placement from the reserve".into(),
        Kind::Declare => "a Clown declaration".into(),
        Kind::ReEntry(Some(r)) => format!("a re-entry as a {}", r.name()),
        Kind::ReEntry(None) => "a re-entry from the hand".into(),
        Kind::RingPass => "a ring pass".into(),
        Kind::Castle => "castling".into(),
        Kind::EnPassant => "an en-passant capture".into(),
        Kind::Promotion(Some(r)) => format!("a promotion to a {}", r.name()),
        Kind::Promotion(None) => "a promotion".into(),
        Kind::Capture => "a capture".into(),
    }
}

/// Whether the legal move `m` meets `goal`; if not, why, in words.
fn check_goal(pos: &AnyPosition, m: Move, goal: &Goal) -> Result<(), String> {
    let after = pos.after(m);
    let san = san::to_san(pos, m);
    match goal {
        Goal::Moves(list) => {
            if list.iter().any(|u| pos.parse_uci(u).ok() == Some(m)) {
                Ok(())
            } else {
                Err(format!("{san} is legal, but it is not the move this task asks for."))
            }
        }
        Goal::Kind(k) => {
            if kind_matches(pos, m, *k) {
                Ok(())
            } else {
                Err(format!("{san} is legal, but it is not {}.", kind_words(*k)))
            }
        }
        Goal::Check => {
            if after.is_check() {
                Ok(())
            } else {
                Err(format!("{san} gives no check."))
            }
        }
        Goal::Mate => {
            if after.is_checkmate() {
                Ok(())
            } else if !after.is_check() && after.count_legal_moves() == 0 {
                Err(format!(
                    "{san} is stalemate: {} is not in check and has no legal move, so the game is a draw.",
                    after.turn()
                ))
            } else if after.is_check() {
                Err(format!("{san} gives check, but {} can still answer it.", after.turn()))
            } else {
                Err(format!("{san} is not mate: it gives no check."))
            }
        }
        Goal::StopsMate => {
            let mate = after.legal_move_list().iter().copied().find(|r| after.after(*r).is_checkmate());
            match mate {
                None => Ok(()),
                Some(r) => Err(format!("After {san}, {} still mates with {}.", after.turn(), san::to_san(&after, r))),
            }
        }
        Goal::Rank(n) => {
            if m.to.rank() as u8 + 1 == *n {
                Ok(())
            } else {
                Err(format!("{san} does not land on rank {n}."))
            }
        }
        Goal::All(goals) => goals.iter().try_for_each(|g| check_goal(pos, m, g)),
    }
}

/// A lesson as the web page and the API show it.
#[derive(Clone, Debug, Serialize)]
pub struct LessonView {
    /// Lesson id.
    pub id: &'static str,
    /// Variant id.
    pub variant: &'static str,
    /// Title.
    pub title: &'static str,
    /// The rule in words.
    pub intro: &'static str,
    /// Its steps.
    pub steps: Vec<StepView>,
}

/// A step as the web page and the API show it (the answers stay hidden,
/// but the hint is there).
#[derive(Clone, Debug, Serialize)]
pub struct StepView {
    /// 1-based number in its lesson.
    pub n: usize,
    /// Progress key (`variant/lesson/n`).
    pub key: String,
    /// The rule it teaches.
    pub rule: &'static str,
    /// The task.
    pub task: &'static str,
    /// The start FEN.
    pub fen: &'static str,
    /// Rule options as `key → value` (empty for the defaults).
    pub options: std::collections::BTreeMap<String, String>,
    /// The side to move (`w` or `b`): the player's side.
    pub side: &'static str,
    /// How many moves the player makes.
    pub stages: usize,
    /// The hint.
    pub hint: &'static str,
}

impl LessonView {
    /// The view of a lesson.
    pub fn of(l: &'static Lesson) -> LessonView {
        LessonView {
            id: l.id,
            variant: l.variant.id(),
            title: l.title,
            intro: l.intro,
            steps: l
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let opts: RuleOptions = s.options.parse().unwrap_or_default();
                    let options = opts
                        .values(l.variant)
                        .into_iter()
                        .filter(|(spec, v)| *v != spec.default)
                        .map(|(spec, v)| (spec.key.to_string(), v))
                        .collect();
                    let side = if s.fen.split_whitespace().nth(1) == Some("b") { "b" } else { "w" };
                    StepView {
                        n: i + 1,
                        key: l.step_key(i + 1),
                        rule: s.rule,
                        task: s.task,
                        fen: s.fen,
                        options,
                        side,
                        stages: s.stages.len(),
                        hint: s.hint,
                    }
                })
                .collect(),
        }
    }
}
