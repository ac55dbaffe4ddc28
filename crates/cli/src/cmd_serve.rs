//! `chimera serve`: the web server (crate `chimera-server`).

use anyhow::{anyhow, Result};
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Data directory for the SQLite store (created on first run).
    /// Default: `data` in the current directory.
    #[arg(long, default_value = "data")]
    data: std::path::PathBuf,
    /// Store the games in this database instead: `postgres://user:password@host:port/db`
    /// (several instances behind a load balancer share it; see docs/deploy.md)
    /// or `sqlite://path`.
    #[arg(long, env = "CHIMERA_DATABASE_URL", value_name = "URL", hide_env_values = true)]
    database: Option<String>,
    /// A host name to serve besides IP addresses and `localhost` (the name
    /// people type, behind a reverse proxy too); repeat for more. Requests
    /// for other names are refused (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Engine searches at once (analysis and engine moves).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    engine_workers: u32,
    /// Analysis requests that may wait for the engine; more get a 503.
    #[arg(long, default_value_t = 8)]
    engine_queue: u32,
    /// Open HTTP connections at most, in all (WebSockets have budgets of
    /// their own, below).
    #[arg(long, default_value_t = 768, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Open HTTP connections at most per client address (an IPv6 client
    /// counts by its /64).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections_per_client: u32,
    /// Players' WebSockets (a seat holder's token for the game) at most, in all.
    #[arg(long, default_value_t = 8192, value_parser = clap::value_parser!(u32).range(1..))]
    max_seat_sockets: u32,
    /// Players' WebSockets at most per client address.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    seat_sockets_per_client: u32,
    /// Spectators' WebSockets at most, in all: when full, the spectator
    /// whose client has been silent longest is closed to make room.
    #[arg(long, default_value_t = 1024)]
    max_spectators: u32,
    /// Spectators' WebSockets at most per client address.
    #[arg(long, default_value_t = 8)]
    spectators_per_client: u32,
    /// Minutes a spectator's socket may stay open with no message from its
    /// page (pongs aside) before it is closed; the page offers to watch again.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    spectator_idle_mins: u64,
    /// New games a client address may create at once...
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    create_burst: u32,
    /// ...and then one per this many seconds.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    create_every_secs: u64,
    /// Games held in memory at most (the store keeps every game).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..))]
    max_live_games: u32,
    /// Seconds a game nobody is connected to stays in memory.
    #[arg(long, default_value_t = 600)]
    game_idle_secs: u64,
    /// Mark the session cookie `Secure` (sent over HTTPS only): give it
    /// whenever the site is served over TLS (for example behind a proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// A push service this server sends Web Push to, as an origin
    /// (`https://HOST[:PORT]`, the host may start with `*.` for any one
    /// label); repeat for more. Given, the list replaces the default one
    /// (https://fcm.googleapis.com, https://updates.push.services.mozilla.com,
    /// https://web.push.apple.com, https://*.notify.windows.com: Chrome,
    /// Firefox, Safari, Edge). Browsers subscribed elsewhere are refused and
    /// nothing is ever posted elsewhere. `none` turns Web Push off.
    #[arg(long = "push-service", env = "CHIMERA_PUSH_SERVICES", value_name = "ORIGIN", value_delimiter = ',')]
    push_service: Vec<String>,
    /// The contact the push services are given with each push (VAPID's
    /// `sub`): a `mailto:` address or an `https:` URL where the site's
    /// operator can be reached.
    #[arg(long, env = "CHIMERA_PUSH_CONTACT", value_name = "URL", default_value = "mailto:chimera@localhost")]
    push_contact: String,
    /// The house bots' seeks in the lobby: the level (1-8) of the bot that
    /// offers one in each variant where no person's seek is open, or `off`
    /// (docs/bots.md).
    #[arg(long, default_value = "4", value_name = "LEVEL|off", value_parser = parse_bot_seeks)]
    bot_seeks: BotSeeks,
    /// The bots' seeks' clock, minutes+seconds.
    #[arg(long, default_value = "5+3", value_name = "MIN+SEC", value_parser = parse_clock)]
    bot_seek_clock: (i64, i64),
    /// Make the bots' seeks casual (they are rated by default).
    #[arg(long)]
    bot_seeks_casual: bool,
    /// Games the house bots play at once; beyond it they decline challenges
    /// and offer no seeks. 0: four per engine worker.
    #[arg(long, default_value_t = 0)]
    max_bot_games: u32,
    /// Nodes each position of a game review is searched at: the same count
    /// gives the same review (docs/server.md, "Game review").
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
    review_nodes: u64,
    /// Seconds a worker has for a review job before another may take it.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    review_job_secs: u64,
    /// Whether this server's own engine reviews games while no analysis
    /// worker is active (`off`: every review waits for a worker).
    #[arg(long, default_value = "on", value_name = "on|off", value_parser = parse_on_off, action = clap::ArgAction::Set)]
    local_reviews: bool,
    /// Whether every rated game is reviewed when it ends.
    #[arg(long, default_value = "on", value_name = "on|off", value_parser = parse_on_off, action = clap::ArgAction::Set)]
    review_rated: bool,
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("'{s}': on or off")),
    }
}

/// `--bot-seeks`: a level, or none.
#[derive(Clone, Copy, Debug)]
pub struct BotSeeks(Option<u8>);

fn parse_bot_seeks(s: &str) -> Result<BotSeeks, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(BotSeeks(None));
    }
    match s.parse::<u8>() {
        Ok(n) if (1..=8).contains(&n) => Ok(BotSeeks(Some(n))),
        _ => Err(format!("'{s}' is neither a level 1-8 nor off")),
    }
}

/// `5+3`: (initial, increment) in ms.
fn parse_clock(s: &str) -> Result<(i64, i64), String> {
    let bad = || format!("'{s}' is not a clock such as 5+3 (minutes, then seconds added a move)");
    let (m, i) = s.split_once('+').ok_or_else(bad)?;
    let (m, i): (f64, u32) = (m.trim().parse().map_err(|_| bad())?, i.trim().parse().map_err(|_| bad())?);
    if !(0.25..=180.0).contains(&m) || i > 180 {
        return Err(format!("'{s}': the minutes are from 0.25 to 180 and the seconds from 0 to 180"));
    }
    Ok(((m * 60_000.0).round() as i64, i64::from(i) * 1000))
}

pub fn run(a: Args) -> Result<()> {
    let push_services = if a.push_service.is_empty() {
        chimera_server::Config::default().push_services
    } else if a.push_service.iter().any(|s| s == "none") {
        Vec::new()
    } else {
        for s in &a.push_service {
            chimera_server::webpush::check_service(s).map_err(|e| anyhow!("--push-service {e}"))?;
        }
        a.push_service
    };
    if !(a.push_contact.starts_with("mailto:") || a.push_contact.starts_with("https://")) {
        return Err(anyhow!("--push-contact: a mailto: or https:// URL, not '{}'", a.push_contact));
    }
    let config = chimera_server::Config {
        push_services,
        push_contact: a.push_contact,
        allowed_hosts: a.allow_host,
        secure_cookies: a.secure_cookies,
        engine_workers: a.engine_workers as usize,
        engine_queue: a.engine_queue as usize,
        max_connections: a.max_connections as usize,
        max_connections_per_client: a.max_connections_per_client as usize,
        max_seat_sockets: a.max_seat_sockets as usize,
        seat_sockets_per_client: a.seat_sockets_per_client as usize,
        max_spectators: a.max_spectators as usize,
        spectators_per_client: a.spectators_per_client as usize,
        spectator_idle: Duration::from_secs(a.spectator_idle_mins * 60),
        create_burst: a.create_burst,
        create_period: Duration::from_secs(a.create_every_secs),
        max_live_games: a.max_live_games as usize,
        game_idle: Duration::from_secs(a.game_idle_secs),
        bot_seeks: a.bot_seeks.0,
        bot_seek_clock: a.bot_seek_clock,
        bot_seek_rated: !a.bot_seeks_casual,
        max_bot_games: a.max_bot_games as usize,
        review_nodes: a.review_nodes,
        review_job_time: Duration::from_secs(a.review_job_secs),
        review_local: a.local_reviews,
        review_rated: a.review_rated,
        ..chimera_server::Config::default()
    };
    let at = chimera_server::store::Location::new(&a.data, a.database.as_deref());
    chimera_server::run(&a.addr, &at, config).map_err(|e| anyhow!(e))
}
