//! `chimera learn`: the lessons of `chimera-learn` on the terminal board.
//! The board, the cursor, the mouse, the choosers and the command line are
//! `chimera play`'s; in lesson mode a move goes to the judge
//! ([`chimera_learn::judge`]) instead of the game, and is played (with the
//! scripted reply) only when it answers the task. Keys: `n` the next step,
//! `r` the step again, `i` the hint.

use crate::app::{App, Config};
use chimera_learn::{judge, lessons_of, start_position, Lesson, Step};
use chimera_rules::{Move, Position, Variant};

/// Where the player is in the variant's lessons.
#[derive(Clone, Debug)]
pub struct LessonRun {
    pub variant: Variant,
    /// Index of the lesson in the variant's list.
    pub lesson: usize,
    /// Index of the step in the lesson.
    pub step: usize,
    /// The step's moves so far (answers and replies, UCI).
    pub moves: Vec<String>,
    /// The step is finished.
    pub done: bool,
    /// The last verdict or hint, in words.
    pub verdict: String,
    /// Steps finished in this run (`variant/lesson/n`).
    pub finished: Vec<String>,
}

impl LessonRun {
    pub fn lessons(&self) -> Vec<&'static Lesson> {
        lessons_of(self.variant).collect()
    }

    pub fn current(&self) -> (&'static Lesson, &'static Step) {
        let l = self.lessons()[self.lesson];
        (l, &l.steps[self.step])
    }
}

impl App {
    /// The lesson player for `variant` (first lesson, first step; `lesson`
    /// names another lesson by id). None if the variant has no such lesson.
    pub fn learn(variant: Variant, lesson: Option<&str>, ascii: bool, monochrome: bool) -> Option<App> {
        let lessons: Vec<&Lesson> = lessons_of(variant).collect();
        let li = match lesson {
            Some(id) => lessons.iter().position(|l| l.id == id)?,
            None => 0,
        };
        let mut config = Config::new(variant);
        config.hot_seat = true;
        config.ascii = ascii;
        config.monochrome = monochrome;
        let mut app = App::new(config);
        app.lesson = Some(LessonRun {
            variant,
            lesson: li,
            step: 0,
            moves: Vec::new(),
            done: false,
            verdict: String::new(),
            finished: Vec::new(),
        });
        app.open_step(li, 0);
        Some(app)
    }

    /// Sets up step `s` of lesson `l`.
    pub fn open_step(&mut self, l: usize, s: usize) {
        let Some(run) = self.lesson.as_mut() else { return };
        run.lesson = l;
        run.step = s;
        run.moves.clear();
        run.done = false;
        run.verdict.clear();
        let (lesson, step) = run.current();
        let variant = run.variant;
        match start_position(step, variant) {
            Ok(start) => {
                self.flipped = start.turn() == chimera_rules::Color::Black;
                self.config.rule_options = chimera_rules::Describe::rule_options(&start);
                self.new_game_from(start, &[]);
                self.message = format!(
                    "{} — step {} of {}. 'i' hint, 'r' again, 'n' next.",
                    lesson.title,
                    s + 1,
                    lesson.steps.len()
                );
            }
            Err(e) => self.message = format!("This step cannot be set up: {e}"),
        }
    }

    /// A move in lesson mode: judged, and played with its reply when it
    /// answers the task.
    pub fn lesson_move(&mut self, m: Move) {
        let Some(run) = self.lesson.as_ref() else { return };
        if run.done {
            self.message = "This step is done: 'n' for the next one, 'r' to play it again.".into();
            return;
        }
        let (lesson, step) = run.current();
        let key = lesson.step_key(run.step + 1);
        let verdict = match judge(step, &run.moves, &m.to_string()) {
            Ok(v) => v,
            Err(e) => {
                self.message = format!("Cannot judge this move: {e}");
                return;
            }
        };
        self.selected = None;
        self.chooser = None;
        if !verdict.ok {
            let text = format!("Not quite. {}", verdict.explanation);
            self.message = text.clone();
            if let Some(run) = self.lesson.as_mut() {
                run.verdict = text;
            }
            return;
        }
        let mut played = vec![m];
        if let Some(r) = verdict.reply.as_deref() {
            let after = self.position().after(m);
            if let Ok(rm) = after.parse_uci(r) {
                played.push(rm);
            }
        }
        for mv in &played {
            if let Err(e) = self.session.play(*mv) {
                self.message = e;
                return;
            }
        }
        let text = match (&verdict.reply_san, verdict.done) {
            (_, true) => format!("Correct! {}", verdict.explanation),
            (Some(r), false) => format!("Correct! The reply: {r}. Your next move."),
            (None, false) => format!("Correct! {}", verdict.explanation),
        };
        let run = self.lesson.as_mut().expect("lesson mode");
        run.moves.extend(played.iter().map(|m| m.to_string()));
        run.done = verdict.done;
        run.verdict = text.clone();
        if verdict.done && !run.finished.contains(&key) {
            run.finished.push(key);
        }
        self.message = if verdict.done { format!("{text} 'n' for the next step.") } else { text };
    }

    /// The next step (or the next lesson's first); false at the very end.
    pub fn next_step(&mut self) -> bool {
        let Some(run) = self.lesson.as_ref() else { return false };
        let lessons = run.lessons();
        let (l, s) = (run.lesson, run.step);
        if s + 1 < lessons[l].steps.len() {
            self.open_step(l, s + 1);
        } else if l + 1 < lessons.len() {
            self.open_step(l + 1, 0);
        } else {
            self.message = "That was the last lesson of this game. 'q' quits.".into();
            return false;
        }
        true
    }

    /// The hint of the current step, on the message line.
    pub fn lesson_hint(&mut self) {
        if let Some(run) = self.lesson.as_mut() {
            let (_, step) = run.current();
            run.verdict = format!("Hint: {}", step.hint);
            self.message = run.verdict.clone();
        }
    }

    /// The lesson panel's text: title, step, task, verdict.
    pub fn lesson_text(&self) -> Option<(String, Vec<String>)> {
        let run = self.lesson.as_ref()?;
        let (lesson, step) = run.current();
        let side = if self.position().turn() == chimera_rules::Color::White { "White" } else { "Black" };
        let mut lines = vec![
            format!("Step {} of {}{}", run.step + 1, lesson.steps.len(), if run.done { " - done" } else { "" }),
            step.task.to_string(),
        ];
        if !run.done {
            lines.push(format!("{side} to play."));
        }
        if !run.verdict.is_empty() {
            lines.push(String::new());
            lines.push(run.verdict.clone());
        }
        Some((lesson.title.to_string(), lines))
    }
}
