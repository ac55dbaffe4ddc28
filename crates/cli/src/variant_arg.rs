//! The `--variant` flag of every subcommand, with its accepted values and
//! their help taken from `Variant::ALL` (no hand-kept list).

use chimera_rules::{RuleOptions, Variant};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// Parses a variant id (or one of its aliases, any case) into a [`Variant`].
pub fn parser() -> impl TypedValueParser<Value = Variant> {
    PossibleValuesParser::new(
        Variant::ALL.iter().map(|v| PossibleValue::new(v.id()).aliases(v.aliases().iter().copied()).help(v.name())),
    )
    .map(|s| s.parse::<Variant>().expect("clap only passes listed ids and aliases"))
}

/// Reads the `--rules` flag (`ring_powers=NKQ`; empty: the defaults) and
/// checks that `variant` has each option given.
pub fn rules(variant: Variant, text: &str) -> anyhow::Result<RuleOptions> {
    variant.rule_options(text).map_err(|e| anyhow::anyhow!("--rules: {e}"))
}
