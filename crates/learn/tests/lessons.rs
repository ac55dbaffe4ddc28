//! Every step of every lesson played through the judge (and so through
//! chimera-rules): each FEN reads in its variant, each stage's answers are
//! accepted and lead on to the scripted reply and to the end of the step,
//! each wrong answer is refused with an explanation, and every rule that
//! `rules_taught` lists for a variant has a step.

use chimera_learn::{find_step, judge, lessons_of, replay, rules_taught, start_position, Goal, LessonView, LESSONS};
use chimera_rules::{Position, Variant};
use std::collections::HashSet;

fn all_steps() -> impl Iterator<Item = (&'static chimera_learn::Lesson, usize, &'static chimera_learn::Step)> {
    LESSONS.iter().flat_map(|l| l.steps.iter().enumerate().map(move |(i, s)| (l, i + 1, s)))
}

#[test]
fn every_fen_reads_in_its_variant_and_the_game_is_not_over() {
    for (l, n, s) in all_steps() {
        let pos = start_position(s, l.variant).unwrap_or_else(|e| panic!("{}: {e}", l.step_key(n)));
        assert!(pos.outcome().is_none(), "{}: the position is already over", l.step_key(n));
        assert!(!s.task.is_empty() && !s.hint.is_empty() && !s.success.is_empty(), "{}: texts", l.step_key(n));
        assert!(!s.stages.is_empty(), "{}: no stage", l.step_key(n));
    }
}

#[test]
fn every_answer_is_accepted_through_to_the_end_and_every_wrong_answer_refused() {
    for (l, n, s) in all_steps() {
        let key = l.step_key(n);
        let mut moves: Vec<String> = Vec::new();
        for (k, st) in s.stages.iter().enumerate() {
            // The wrong answer: refused, explained, and the step goes on.
            let w = judge(s, &moves, st.wrong).unwrap_or_else(|e| panic!("{key} stage {}: {e}", k + 1));
            assert!(!w.ok && !w.done, "{key} stage {}: wrong answer {} accepted", k + 1, st.wrong);
            assert!(w.explanation.len() > 10, "{key}: wrong answer {} has no explanation", st.wrong);
            // Every listed move is legal and accepted.
            let (pos, stage) = replay(s, &moves).unwrap();
            assert_eq!(stage, k);
            if let Goal::Moves(list) = st.goal {
                for u in list {
                    assert!(pos.parse_uci(u).is_ok(), "{key}: listed move {u} is not legal");
                    let v = judge(s, &moves, u).unwrap();
                    assert!(v.ok, "{key}: listed move {u} refused: {}", v.explanation);
                }
            }
            let v = judge(s, &moves, st.answer).unwrap_or_else(|e| panic!("{key}: {e}"));
            assert!(v.ok, "{key} stage {}: answer {} refused: {}", k + 1, st.answer, v.explanation);
            assert!(!v.explanation.is_empty());
            moves.push(v.uci.clone().unwrap());
            if k + 1 == s.stages.len() {
                assert!(v.done, "{key}: last answer does not finish the step");
                assert!(v.reply.is_none());
                assert_eq!(v.explanation, s.success);
            } else {
                assert!(!v.done, "{key}: a middle stage finished the step");
                let r = v.reply.unwrap_or_else(|| panic!("{key}: no reply after stage {}", k + 1));
                moves.push(r);
            }
        }
        // Nothing more may be played once the step is done.
        assert!(replay(s, &moves).is_err(), "{key}: moves after the end");
    }
}

#[test]
fn the_mistakes_explained_are_refused_with_their_text() {
    for (l, n, s) in all_steps() {
        for (m, text) in s.mistakes {
            let v = judge(s, &[], m).unwrap();
            assert!(!v.ok, "{}: mistake {m} accepted", l.step_key(n));
            assert!(v.explanation.contains(text), "{}: {m}: {}", l.step_key(n), v.explanation);
        }
    }
}

#[test]
fn an_illegal_move_is_refused_with_the_rules_reason() {
    let (_, s) = find_step("genie-ownhalf", "own-half", 1).unwrap();
    let v = judge(s, &[], "e5e5g").unwrap();
    assert!(!v.ok);
    assert!(v.explanation.contains("own half"), "{}", v.explanation);
    // SAN is read too.
    let (_, s) = find_step("chess", "check-and-mate", 2).unwrap();
    assert!(judge(s, &[], "Ra8#").unwrap().done);
    // Moves so far that the step never allowed are an error, not a verdict.
    assert!(judge(s, &["a1a7".to_string()], "a1a8").is_err());
    assert!(judge(s, &["zz".to_string()], "a1a8").is_err());
}

#[test]
fn every_rule_of_every_variant_is_taught() {
    let taught: HashSet<(Variant, &str)> = rules_taught().iter().map(|(v, r, _)| (*v, *r)).collect();
    let mut have: HashSet<(Variant, &str)> = HashSet::new();
    for (l, n, s) in all_steps() {
        assert!(
            taught.contains(&(l.variant, s.rule)),
            "{}: rule {} is not listed in rules_taught",
            l.step_key(n),
            s.rule
        );
        have.insert((l.variant, s.rule));
    }
    let missing: Vec<_> = taught.difference(&have).collect();
    assert!(missing.is_empty(), "rules with no lesson step: {missing:?}");
    for v in Variant::ALL {
        assert!(lessons_of(v).next().is_some(), "{v} has no lesson");
    }
}

#[test]
fn ids_are_unique_and_views_serialise() {
    let mut seen = HashSet::new();
    for l in LESSONS {
        assert!(seen.insert((l.variant, l.id)), "lesson id {} twice in {}", l.id, l.variant);
        let view = LessonView::of(l);
        assert_eq!(view.steps.len(), l.steps.len());
        for st in &view.steps {
            assert!(chimera_learn::is_step_key(&st.key));
        }
    }
    assert!(!chimera_learn::is_step_key("chess/castling/99"));
    assert!(!chimera_learn::is_step_key("chess/castling"));
}
