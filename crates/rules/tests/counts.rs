//! The counts the engine's persisted layouts are derived from
//! (`Role::COUNT`, `MoveKind::COUNT`) match the enums: a role or a kind of
//! move added without its count fails here (or, for a kind, in the
//! exhaustive matches below and in `MoveKind::tag`).

use chimera_rules::{Color, MoveKind, Role};

/// Every role once, in index order, and as many as `Role::COUNT`.
#[test]
fn role_count_matches_the_enum() {
    // Exhaustive: a new role does not compile here until it is listed.
    let listed = |r: Role| match r {
        Role::Pawn
        | Role::Knight
        | Role::Bishop
        | Role::Rook
        | Role::Queen
        | Role::King
        | Role::Genie
        | Role::Clown => r,
    };
    assert_eq!(Role::ALL.len(), Role::COUNT);
    for (i, r) in Role::ALL.into_iter().enumerate() {
        assert_eq!(listed(r).index(), i);
        assert_eq!(Role::from_index(i), r);
    }
}

/// One move kind of each tag, the tags `0..MoveKind::COUNT` each once.
#[test]
fn move_kind_count_matches_the_enum() {
    let each = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::Promotion(Role::Queen),
        MoveKind::Flip,
        MoveKind::Drop(Role::Pawn),
        MoveKind::ReEntry(Role::Knight),
        MoveKind::Declare,
        MoveKind::RingPass(Some(Color::White)),
    ];
    // Exhaustive: a new kind does not compile here until it is listed above.
    for k in each {
        match k {
            MoveKind::Normal
            | MoveKind::DoublePush
            | MoveKind::EnPassant
            | MoveKind::Castle
            | MoveKind::Promotion(_)
            | MoveKind::Flip
            | MoveKind::Drop(_)
            | MoveKind::ReEntry(_)
            | MoveKind::Declare
            | MoveKind::RingPass(_) => {}
        }
    }
    assert_eq!(each.len(), MoveKind::COUNT);
    let mut tags: Vec<usize> = each.iter().map(|k| k.tag()).collect();
    tags.sort_unstable();
    assert_eq!(tags, (0..MoveKind::COUNT).collect::<Vec<_>>());
    // The role or colour a kind carries does not change its tag.
    assert_eq!(MoveKind::Promotion(Role::Knight).tag(), MoveKind::Promotion(Role::Genie).tag());
    assert_eq!(MoveKind::RingPass(None).tag(), MoveKind::RingPass(Some(Color::Black)).tag());
}
