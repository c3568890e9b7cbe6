//! Profile files as the editor writes them: the names a ruleset has, the folder a new one goes
//! to, and its text.

use kessel_core::engine::Engine;
use kessel_core::options::Options;
use kessel_core::state::Value;
use std::path::{Path, PathBuf};

/// Where a new profile of a ruleset is saved: the user's folder for it when the ruleset is
/// Kessel's own copy (bundled, or from a package: the next version replaces it, and the GM's
/// profiles with it), else the ruleset's `profiles/`.
pub fn profile_folder(ruleset_dir: &Path) -> PathBuf {
    kessel_core::fsio::user_profiles(ruleset_dir).unwrap_or_else(|| ruleset_dir.join("profiles"))
}

/// A value as TOML writes it (`true`, `3`, `"x"`).
pub fn value_toml(v: &Value) -> String {
    match v {
        Value::String(s) => toml::Value::String(s.clone()).to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => toml::Value::String(other.to_string()).to_string(),
    }
}

/// The text of a profile file choosing `options`' values: the options that differ from their
/// defaults, in declaration order, each under a comment with its rule and description.
pub fn profile_toml(name: &str, description: &str, options: &Options) -> String {
    let mut s = format!(
        "# Profile `{name}`, written by the Kessel editor from the options in force (based on \
         `{}`).\n# Options not listed keep their defaults: `kessel rules <scenario>` lists them \
         all.\n[profile]\ndescription = {}\n\n[options]\n",
        options.profile,
        toml::Value::String(description.to_string())
    );
    for d in &options.decls {
        let Some(v) = options.values.get(&d.id) else {
            continue;
        };
        if *v == d.default {
            continue;
        }
        s.push_str(&format!(
            "# [{}] {}\n{} = {}\n",
            d.rule,
            d.description,
            d.id,
            value_toml(v)
        ));
    }
    s
}

/// Checks a new profile's name: a plain file stem that no profile of the ruleset has yet (in
/// any of its folders: the first one found wins a lookup by name). Gives the file to write.
pub fn check_profile_name(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !name.starts_with('-');
    if !ok {
        return Err("a profile name uses letters, digits, `_` and `-` only".into());
    }
    if Engine::profile_names(dir).iter().any(|p| p == name) {
        return Err(format!("profile `{name}` exists already: pick a new name"));
    }
    Ok(profile_folder(dir).join(format!("{name}.toml")))
}
