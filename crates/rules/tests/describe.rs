//! What a front end shows of a variant, from the variant's own module
//! (`chimera_rules::describe`): the descriptions, the rule options' text
//! form, the pieces beside the board, the state lines and the move notes.

use chimera_rules::{AnyPosition, Color, Describe, Position, Role, RuleOptions, Variant};
use proptest::prelude::*;

fn pos(variant: &str, fen: &str) -> AnyPosition {
    AnyPosition::from_fen(variant.parse().unwrap(), fen, &RuleOptions::default()).unwrap()
}

#[test]
fn every_variant_describes_itself() {
    let mut ids = Vec::new();
    for v in Variant::ALL {
        let i = v.info();
        assert_eq!((i.id, i.name, i.summary), (v.id(), v.name(), v.summary()));
        assert!(!i.name.is_empty() && i.summary.ends_with('.'), "{v}");
        assert_eq!(i.pocket.is_some(), !i.pocket_note.is_empty(), "{v}: a pocket has a note, and only a pocket");
        assert!(!ids.contains(&i.id), "{v}: id given twice");
        ids.push(i.id);
        for o in i.options {
            // The default is a value, and reads back as itself.
            let mut opts = RuleOptions::default();
            (o.set)(&mut opts, o.default).unwrap();
            assert_eq!((o.get)(&opts), o.default, "{v}: {}", o.key);
            assert!(!o.label.is_empty() && !o.help.is_empty() && !o.pattern.is_empty());
        }
        // A variant's start shows a pocket exactly when it has one.
        let start = AnyPosition::new(v, &RuleOptions::default());
        let shown = !start.pocket(Color::White).is_empty() || start.variant().info().pocket.is_none();
        assert!(shown || v == Variant::Clown, "{v}: a pocket variant with an empty start pocket");
    }
}

#[test]
fn rule_options_text_form() {
    let o: RuleOptions = "ring_powers=nkq".parse().unwrap();
    assert_eq!(o.to_string(), "ring_powers=NKQ");
    assert_eq!(RuleOptions::default().to_string(), "");
    assert_eq!("".parse::<RuleOptions>().unwrap(), RuleOptions::default());
    assert_eq!("RingPowers=NK".parse::<RuleOptions>().unwrap().to_string(), "ring_powers=NK", "the UCI name reads too");
    for (bad, want) in [
        ("ring_powers", "is not key=value"),
        ("powers=NQ", "unknown rule option 'powers' (known: ring_powers)"),
        ("ring_powers=NQ,ring_powers=QN", "given twice"),
        ("ring_powers=QX", "'X' is not one of"),
    ] {
        let e = bad.parse::<RuleOptions>().unwrap_err().to_string();
        assert!(e.contains(want), "{bad}: {e}");
    }
    assert_eq!(
        Variant::Chess.rule_options("ring_powers=NQ").unwrap_err().to_string(),
        "Chess has no rule option 'ring_powers' (it has none)"
    );
    assert!(Variant::Chess.rule_options("ring_powers=QNRB").is_ok(), "a default is no option given");
    assert_eq!(Variant::MagicRing.rule_options("ring_powers=NQ").unwrap().ring_powers.to_string(), "NQ");
}

proptest! {
    // Any power list round-trips through the text form, and the text form
    // is canonical (one text for one value).
    #[test]
    fn rule_options_round_trip(letters in "[QRBNKqrbnk]{1,8}") {
        let o = Variant::MagicRing.rule_options(&format!("ring_powers={letters}")).unwrap();
        let text = o.to_string();
        prop_assert_eq!(text.parse::<RuleOptions>().unwrap(), o.clone());
        prop_assert_eq!(text.is_empty(), letters.eq_ignore_ascii_case("QNRB"));
        prop_assert_eq!(text.parse::<RuleOptions>().unwrap().to_string(), text);
    }
}

#[test]
fn pockets_and_refusals() {
    let g = AnyPosition::new(Variant::Genesis, &RuleOptions::default());
    assert_eq!(g.pocket(Color::White)[0], (Role::King, 1));
    assert_eq!(g.pocket_refusal(Color::White, Role::Queen).as_deref(), Some("Place your King first."));
    assert_eq!(g.pocket_refusal(Color::White, Role::King), None);
    assert_eq!(g.pocket_refusal(Color::Black, Role::King).as_deref(), Some("Only on Black's own turn."));
    // A Clown hand with a Knight that was just captured: it waits a turn.
    let c = pos("clown", "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N");
    assert_eq!(c.pocket(Color::White), [(Role::Knight, 1)]);
    assert_eq!(
        c.pocket_refusal(Color::White, Role::Knight).as_deref(),
        Some("The Knight just captured may re-enter from your next turn on.")
    );
    assert!(
        c.state_lines()[0].starts_with("White: 1 Knight; re-entry unused; has had a Clown"),
        "{:?}",
        c.state_lines()
    );
}

#[test]
fn state_lines_say_the_variant_state() {
    let lines = |v: &str, fen: &str| pos(v, fen).state_lines();
    assert_eq!(
        lines("genie", "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 flips:b"),
        ["May still flip a pawn into a Genie: Black"]
    );
    let m = lines("magicring", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 4 rings:f1.1,e7.1 tainted:e7");
    assert_eq!(m[0], "White's ring: White's Bishop on f1, level 1, Queen power");
    assert_eq!(m[1], "Black's ring: Black's Pawn on e7, level 1, Queen power");
    assert_eq!(m[2], "Tainted pawns (no promotion, no double step): e7");
    assert!(AnyPosition::new(Variant::Chess, &RuleOptions::default()).state_lines().is_empty());
}

#[test]
fn notes_say_what_power_moves_sideways_steps_and_ring_captures_mean() {
    let note = |variant: &str, fen: &str, uci: &str| {
        let p = pos(variant, fen);
        let m = p.parse_uci(uci).unwrap();
        p.move_note(m)
    };
    // A pawn carrying White's ring at level 1 (Queen) on d2: d2h6 is a power move.
    let n = note("magicring", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 rings:d2.1,e8.0", "d2h6").unwrap();
    assert!(n.contains("power (Queen)") && n.contains("tainted"), "{n}");
    assert_eq!(note("magicring", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 rings:d2.1,e8.0", "d2d4"), None, "a pawn move");
    // Black's g7 pawn takes White's ring carrier on h6.
    let n = note("magicring", "4k3/6p1/7P/8/8/8/8/4K3 b - - 0 1 rings:h6.1,e8.0", "g7h6").unwrap();
    assert!(n.contains("carrier of White's ring") && n.contains("Black controls it"), "{n}");
    // A Genesis pawn's sideways step and backward step.
    let g = "4k3/8/8/8/8/2P5/8/4K3[] w - - 0 1";
    let n = note("genesis", g, "c3b3").unwrap();
    assert!(n.contains("steps sideways") && n.contains("Genesis pawns"), "{n}");
    let n = note("genesis", g, "c3c2").unwrap();
    assert!(n.contains("steps back"), "{n}");
    assert_eq!(note("genesis", g, "c3c4"), None, "a forward step reads as in chess");
    // A flip, a placement, a declaration, a ring pass.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(note("genie", start, "e2e2g").unwrap(), "White's pawn on e2 becomes a Genie (one flip a game).");
    assert!(note("clown", start, "b1c3c").unwrap().contains("declared a Clown"));
    assert!(note("magicring", start, "e1d2").unwrap().contains("passes a ring from e1 to d2"));
    let empty = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";
    assert_eq!(note("genesis", empty, "K@e1").unwrap(), "White's King is placed from the reserve on e1.");
    assert_eq!(note("chess", start, "e2e4"), None);
}
