//! House bots (`docs/bots.md`): the engine's levels 1-8 as accounts,
//! `Chimera-Level-1` to `Chimera-Level-8`, whose ratings are the levels'
//! measured ones (`chimera_session::LEVEL_RATINGS`, each with its 95%
//! interval).
//!
//! - **Accounts.** Made at start when missing (`kind = 'bot'`,
//!   `bot_level`); no password, so nobody logs in as one. Names that start
//!   with "chimera" are reserved at sign-up, so no person holds one.
//! - **Pinned ratings.** A bot's rating in a variant is its level's measured
//!   rating, with the deviation its interval gives (a 95% interval is ±1.96
//!   deviations); a rated game against a bot moves the person's rating
//!   against that figure and never the bot's (`ratings::settle`). Bots are
//!   on no leaderboard: they have no `ratings` rows.
//! - **Challenges.** A challenge to a bot is answered at once: accepted (a
//!   game against the engine at the bot's level, the bot's account at the
//!   engine's seat), or declined with lichess's reason: `timeControl` for a
//!   game of days or without a clock, `later` when the bots are busy.
//! - **Seeks.** The lobby's seek list has one seek of a bot in each variant
//!   with no person's seek open (`Config::bot_seeks`); joining it is a
//!   challenge to that bot with the seek's terms.
//! - **Bounds.** The bots play at most `Config::max_bot_games` games at once
//!   on the store, and none while this instance's engine queue is full.

use crate::store::SeekSummary;
use crate::App;
use chimera_rating::Rating;
use chimera_rules::Variant;
use chimera_session::Level;
use sqlx::Row;

/// The account name of the bot of `level`.
pub fn name(level: u8) -> String {
    format!("Chimera-Level-{level}")
}

/// The rating of the bot of `level` in `variant`: its measured figure, with
/// the deviation its 95% interval gives (within the rating system's bounds).
pub fn pinned(variant: Variant, level: u8) -> Rating {
    let r = Level::clamped(level).rating(variant);
    let s = &crate::ratings::SETTINGS;
    let deviation = (f64::from(r.upper - r.lower) / (2.0 * 1.96)).clamp(s.min_deviation, s.max_deviation);
    Rating { rating: f64::from(r.rating), deviation, volatility: s.new_player.volatility }
}

/// Makes the bot accounts that are missing (every instance at start; the
/// store's unique names let one insert through).
pub async fn ensure(db: &chimera_store::Db) -> Result<(), sqlx::Error> {
    let have: Vec<i64> = sqlx::query("SELECT bot_level FROM accounts WHERE kind = 'bot' AND bot_level IS NOT NULL")
        .fetch_all(db)
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    for level in Level::all().map(Level::number) {
        if have.contains(&i64::from(level)) {
            continue;
        }
        let name = name(level);
        let made = sqlx::query(
            "INSERT INTO accounts (id, username, username_key, password_hash, kind, bot_level, created_at) \
             VALUES ($1, $2, $3, '', 'bot', $4, $5) ON CONFLICT (username_key) DO NOTHING",
        )
        .bind(crate::random_hex(8))
        .bind(&name)
        .bind(name.to_lowercase())
        .bind(i64::from(level))
        .bind(crate::live::now_ms())
        .execute(db)
        .await?;
        if made.rows_affected() == 0 {
            eprintln!("house bots: the name {name} belongs to another account; that level has no bot");
        }
    }
    Ok(())
}

/// The bot level of each of these accounts (`None` for a person).
pub async fn levels_of<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    db: E,
    accounts: [&str; 2],
) -> Result<[Option<u8>; 2], sqlx::Error> {
    let rows = sqlx::query("SELECT id, bot_level FROM accounts WHERE id IN ($1, $2) AND kind = 'bot'")
        .bind(accounts[0])
        .bind(accounts[1])
        .fetch_all(db)
        .await?;
    let of = |a: &str| {
        rows.iter()
            .find(|r| r.get::<String, _>(0) == a)
            .and_then(|r| r.get::<Option<i64>, _>(1))
            .and_then(|l| u8::try_from(l).ok())
    };
    Ok([of(accounts[0]), of(accounts[1])])
}

/// The most games the bots play at once: the configured figure, or four
/// games per engine worker (a worker serves a game's searches while its
/// person thinks).
fn most_games(app: &App) -> i64 {
    let n = if app.config.max_bot_games > 0 { app.config.max_bot_games } else { app.config.engine_workers.max(1) * 4 };
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Why the bots take no new game now (`None`: they do).
pub async fn busy(app: &App) -> Result<Option<&'static str>, sqlx::Error> {
    if app.engine.is_full() {
        return Ok(Some("later"));
    }
    let playing: i64 = sqlx::query(
        "SELECT COUNT(*) FROM games g JOIN accounts a ON a.id = g.white_account OR a.id = g.black_account \
         WHERE g.status = 'active' AND g.mode = 'engine' AND a.kind = 'bot'",
    )
    .fetch_one(&app.db)
    .await?
    .get(0);
    Ok((playing >= most_games(app)).then_some("later"))
}

/// A bot's answer to a challenge's time control: `Err(reason)` (lichess's)
/// for one it declines. Bots play games with a clock; a game of days would
/// hold a place among their games for weeks.
pub fn time_control_answer(days: Option<i64>, clock: Option<(i64, i64)>) -> Result<(), &'static str> {
    match (days, clock) {
        (None, Some(_)) => Ok(()),
        _ => Err("timeControl"),
    }
}

/// The bots' seeks the lobby shows beside `people`'s: one in each variant
/// where no person's seek is open, at `Config::bot_seek_level` with
/// `Config::bot_seek_clock`, rated when `Config::bot_seek_rated`. None while
/// the bots are busy.
pub async fn seeks(app: &App, people: &[SeekSummary]) -> Vec<SeekSummary> {
    let Some(level) = app.config.bot_seeks else { return Vec::new() };
    if !matches!(busy(app).await, Ok(None)) {
        return Vec::new();
    }
    let level = Level::clamped(level).number();
    let opts = chimera_rules::RuleOptions::default();
    Variant::ALL
        .iter()
        .filter(|v| !people.iter().any(|s| s.variant == v.id()))
        .map(|&v| {
            let r = pinned(v, level);
            SeekSummary {
                id: format!("bot-{level}-{}", v.id()),
                variant: v.id().to_string(),
                variant_name: v.name().to_string(),
                options: crate::live::options_json(v, &opts),
                custom_start: false,
                clock: Some(app.config.bot_seek_clock),
                color: "random".into(),
                name: None,
                rated: app.config.bot_seek_rated,
                username: Some(name(level)),
                rating: Some(
                    crate::live::Player {
                        username: name(level),
                        rating: r.rounded(),
                        provisional: r.is_provisional(),
                        bot: true,
                    }
                    .shown(),
                ),
                rating_range: None,
                days: None,
                created_at: app.started_at,
                bot: Some(level),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_rating_is_the_level_s_figure_with_its_interval() {
        let chess = Variant::ALL[0];
        let r = Level::clamped(1).rating(chess);
        let p = pinned(chess, 1);
        assert_eq!(p.rating, f64::from(r.rating));
        // 95% of a normal within ±1.96 deviations.
        assert!((p.deviation * 2.0 * 1.96 - f64::from(r.upper - r.lower)).abs() < 1e-9);
        // A wide interval is capped at the system's largest deviation.
        for v in Variant::ALL {
            for l in 1..=8 {
                let d = pinned(v, l).deviation;
                let s = &crate::ratings::SETTINGS;
                assert!((s.min_deviation..=s.max_deviation).contains(&d));
            }
        }
    }

    #[test]
    fn bots_play_clocks_only() {
        assert_eq!(time_control_answer(None, Some((300_000, 3_000))), Ok(()));
        assert_eq!(time_control_answer(Some(3), Some((3 * 86_400_000, 0))), Err("timeControl"));
        assert_eq!(time_control_answer(None, None), Err("timeControl"));
    }

    #[test]
    fn bot_names_are_valid_and_reserved() {
        for l in 1..=8 {
            let n = chimera_auth::Username::parse_existing(&name(l)).expect("a valid name");
            assert!(n.is_reserved(), "{} must be reserved at sign-up", name(l));
        }
    }
}
