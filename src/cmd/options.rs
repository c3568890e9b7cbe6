//! `--option ID=VALUE`, shared by every command that takes `--profile`: one option set on top of
//! the profile before the scenario is checked and set up (the set-up sees it, as a save's
//! hand-set options are), so a tournament director can try one interpretation without writing a
//! profile file.

use kessel_core::engine::Engine;

/// The `--option` flags of a command.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OptionArgs {
    /// Set one option on top of the profile, ID=VALUE (true/false, a number, or a choice's word;
    /// `kessel rules` lists the options and their values); repeatable, an option once.
    #[arg(long = "option", value_name = "ID=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
}

/// Splits `ID=VALUE` (the value may hold `=`).
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => Err(format!("`{text}` is not ID=VALUE")),
    }
}

impl OptionArgs {
    /// Loads `scenario` under `profile` with these options set on top of it before its set-up
    /// (see [`kessel_lab::load_with_options`]).
    pub fn load(
        &self,
        scenario: &std::path::Path,
        profile: Option<&str>,
        seed: u64,
    ) -> anyhow::Result<Engine> {
        kessel_lab::load_with_options(scenario, profile, &self.options, seed)
    }

    /// The options as values, as the engine takes them.
    pub fn values(&self) -> Vec<(String, kessel_core::state::Value)> {
        kessel_lab::option_values(&self.options)
    }

    /// Whether no option was given.
    pub fn is_empty(&self) -> bool {
        self.options.is_empty()
    }

    /// Sets every option on the engine; the first the ruleset lacks, or whose value it refuses,
    /// is an error naming the flag (`--option ID=VALUE: …`, with a did-you-mean for a typo).
    pub fn apply(&self, engine: &mut Engine) -> anyhow::Result<()> {
        kessel_lab::apply_options(engine, &self.options)
    }

    /// `profile` with the options added, as records and summaries name the profile played
    /// (`wbc2009 + free_retreat=true`); the name itself without options.
    pub fn label(&self, profile: &str) -> String {
        if self.options.is_empty() {
            return profile.to_string();
        }
        let set: Vec<String> = self
            .options
            .iter()
            .map(|(id, text)| format!("{id}={text}"))
            .collect();
        format!("{profile} + {}", set.join(" + "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_equals_value_is_split_at_the_first_equals_sign() {
        assert_eq!(
            parse_option("a=b=c").expect("splits"),
            ("a".to_string(), "b=c".to_string())
        );
        assert!(parse_option("novalue").is_err());
        assert!(parse_option("=true").is_err());
        use kessel_lab::option_value;
        use serde_json::Value;
        assert_eq!(option_value("true"), Value::Bool(true));
        assert_eq!(option_value("3"), Value::from(3));
        assert_eq!(option_value("word"), Value::String("word".into()));
        // a whole number typed with a sign (JSON alone reads `-0` as the decimal -0.0)
        assert_eq!(option_value("-0"), Value::from(0));
        assert_eq!(option_value("-3"), Value::from(-3));
        assert!(option_value("-0.0").is_f64());
    }

    #[test]
    fn the_label_names_the_options_set_on_the_profile() {
        let none = OptionArgs::default();
        assert_eq!(none.label("standard"), "standard");
        let two = OptionArgs {
            options: vec![("a".into(), "true".into()), ("b".into(), "x".into())],
        };
        assert_eq!(two.label("standard"), "standard + a=true + b=x");
    }
}
