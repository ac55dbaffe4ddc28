//! `chimera variants`: the variant ids this build knows, from `Variant::ALL`,
//! so scripts and people never keep a list of their own.

use anyhow::Result;
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};

#[derive(clap::Args)]
pub struct Args {
    /// Print the ids only, one per line (for scripts: `for v in $(chimera variants --ids)`).
    #[arg(long)]
    ids: bool,
}

pub fn run(a: Args) -> Result<()> {
    for v in Variant::ALL {
        if a.ids {
            println!("{}", v.id());
        } else {
            let start = AnyPosition::new(v, &RuleOptions::default());
            println!("{:<14} {}: {}", v.id(), v.name(), v.summary());
            println!("{:<14} start {}", "", start.fen());
            println!("{:<14} rules docs/rules/{}.md", "", v.rules_page());
        }
    }
    Ok(())
}
