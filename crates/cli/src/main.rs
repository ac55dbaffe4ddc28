//! `chimera`: the one binary. With no arguments it speaks UCI on stdin and
//! stdout, as chess GUIs expect of an engine.

use clap::{Parser, Subcommand};

mod api_client;
mod arena;
mod bench_perft;
mod cmd_bench;
mod cmd_bot;
mod cmd_datagen;
mod cmd_lab;
mod cmd_learn;
mod cmd_match;
mod cmd_perft;
mod cmd_play;
mod cmd_puzzles;
mod cmd_serve;
mod cmd_train;
mod cmd_tune;
mod cmd_uci;
mod cmd_variants;
mod cmd_worker;
mod play_online;
mod variant_arg;

#[derive(Parser)]
#[command(
    name = "chimera",
    version,
    about = "Chimera: orthodox chess and four variants (Genie Of The Lamp, Genesis, Clown, Magic Ring) — rules, engine, web play"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per process
enum Command {
    /// Start the web server: play in the browser against the engine or a friend.
    Serve(cmd_serve::Args),
    /// Speak UCI on stdin/stdout (the default with no subcommand).
    Uci(cmd_uci::Args),
    /// Play in the terminal against the engine (or hot-seat), or on a server (`--online`).
    Play(cmd_play::Args),
    /// Interactive lessons for every special rule of a variant, on the terminal board.
    Learn(cmd_learn::Args),
    /// Puzzles: mine them from games, verify them deeper, list the shipped sets.
    Puzzles(cmd_puzzles::Args),
    /// Connect a UCI engine to a server as a BOT account (the Bot API, docs/api.md).
    Bot(cmd_bot::Args),
    /// Review games for a server: an analysis worker, as lichess's fishnet (docs/server.md).
    Worker(cmd_worker::Args),
    /// The server operator's analysis worker keys: add, list, revoke.
    WorkerKey(cmd_worker::KeyArgs),
    /// Count leaf nodes of the legal move tree (move-generator test).
    Perft(cmd_perft::Args),
    /// Benchmarks: `bench perft` for move generation, `bench search` for the engine.
    Bench(cmd_bench::Args),
    /// Play UCI engines against each other with the rules as arbiter.
    Match(cmd_match::Args),
    /// Fit the evaluation's values to game results (Texel tuning).
    Tune(cmd_tune::Args),
    /// Self-play games at fixed nodes as binary training records for `tune`.
    Datagen(cmd_datagen::Args),
    /// Train a network evaluation (NNUE) on a CPU from `datagen` records.
    Train(cmd_train::Args),
    /// Balance lab: self-play studies of each variant and rule option, reports with 95% intervals.
    Lab(cmd_lab::Args),
    /// List the variants: id, name, summary, start FEN, rules page (`--ids`: ids only, for scripts).
    Variants(cmd_variants::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        None => cmd_uci::run(cmd_uci::Args::default()),
        Some(Command::Uci(a)) => cmd_uci::run(a),
        Some(Command::Serve(a)) => cmd_serve::run(a),
        Some(Command::Perft(a)) => cmd_perft::run(a),
        Some(Command::Play(a)) => cmd_play::run(a),
        Some(Command::Learn(a)) => cmd_learn::run(a),
        Some(Command::Puzzles(a)) => cmd_puzzles::run(a),
        Some(Command::Bot(a)) => cmd_bot::run(a),
        Some(Command::Worker(a)) => cmd_worker::run(a),
        Some(Command::WorkerKey(a)) => cmd_worker::run_key(a),
        Some(Command::Bench(a)) => cmd_bench::run(a),
        Some(Command::Match(a)) => cmd_match::run(a),
        Some(Command::Tune(a)) => cmd_tune::run(a),
        Some(Command::Train(a)) => cmd_train::run(a),
        Some(Command::Datagen(a)) => cmd_datagen::run(a),
        Some(Command::Variants(a)) => cmd_variants::run(a),
        Some(Command::Lab(a)) => cmd_lab::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
