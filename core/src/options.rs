//! Options (house rules, tournament interpretations, source conflicts) declared by a ruleset, and
//! profiles: TOML files choosing option values.

use crate::error::{line_of, toml_error, LoadError, LoadErrors};
use crate::state::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The type of an option's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionType {
    /// On or off.
    Bool,
    /// A whole number.
    Int,
    /// One of a list of ids.
    Choice(Vec<String>),
}

/// One declared option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionDecl {
    /// Stable id (`retreat_priority`).
    pub id: String,
    /// Value type.
    pub kind: OptionType,
    /// Default value.
    pub default: Value,
    /// One-line description.
    pub description: String,
    /// Rule reference (`"9.7"`, `"House #1"`).
    pub rule: String,
    /// Least value an `int` option may take (the ruleset's word on what is possible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// Greatest value an `int` option may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

impl OptionDecl {
    /// The values an `int` option takes, in words: `a whole number`, `a whole number from 0 to
    /// 5`, `a whole number of at least 0`, `a whole number of at most 9`.
    pub fn int_range_text(&self) -> String {
        match (self.min, self.max) {
            (Some(a), Some(b)) => format!("a whole number from {a} to {b}"),
            (Some(a), None) => format!("a whole number of at least {a}"),
            (None, Some(b)) => format!("a whole number of at most {b}"),
            (None, None) => "a whole number".to_string(),
        }
    }

    /// Checks a value against the type and, for an `int` option, its declared range; returns a
    /// message on mismatch.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        match (&self.kind, v) {
            (OptionType::Bool, Value::Bool(_)) => Ok(()),
            (OptionType::Int, Value::Number(n)) if n.is_i64() => {
                let n = n.as_i64().unwrap_or_default();
                if self.min.is_some_and(|a| n < a) || self.max.is_some_and(|b| n > b) {
                    Err(format!(
                        "option `{}` takes {} ({n} is out of range)",
                        self.id,
                        self.int_range_text()
                    ))
                } else {
                    Ok(())
                }
            }
            (OptionType::Choice(c), Value::String(s)) if c.contains(s) => Ok(()),
            (OptionType::Choice(c), _) => Err(format!(
                "option `{}` takes one of: {}",
                self.id,
                c.join(", ")
            )),
            (OptionType::Bool, _) => Err(format!("option `{}` takes true or false", self.id)),
            (OptionType::Int, _) => Err(format!(
                "option `{}` takes {}",
                self.id,
                self.int_range_text()
            )),
        }
    }
}

/// The name of the option defaults as a profile: what a game without a profile is played under
/// (`kessel simulate` prints it so), so `--profile defaults`, `--against-profile defaults` and
/// `rules --diff defaults` take it like a profile file, unless the ruleset has a file of that name.
pub const DEFAULTS: &str = "defaults";

/// A profile: a named set of option values.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Profile {
    /// Name (file stem).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Chosen values (options not listed keep their defaults).
    pub values: BTreeMap<String, Value>,
    /// Line of each value in the file, for messages.
    pub lines: BTreeMap<String, usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    #[serde(default)]
    profile: ProfileHeader,
    #[serde(default)]
    options: BTreeMap<toml::Spanned<String>, toml::Value>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ProfileHeader {
    // no `name`: a profile is named by its file's stem wherever it is chosen or shown (a `name`
    // here was shown by `check` and `rules` while `simulate` and `--profile` used the stem)
    #[serde(default)]
    description: String,
}

fn toml_to_value(v: &toml::Value) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

impl Profile {
    /// Parses a profile file and checks every value against the declared options: an unknown id or
    /// a wrong type is an error naming the line.
    pub fn parse(path: &Path, text: &str, decls: &[OptionDecl]) -> Result<Profile, LoadErrors> {
        let blank = text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with('#'));
        if blank {
            return Err(LoadError::new(
                path,
                None,
                "the profile file is empty: it sets nothing (give [options], or [profile] with a description)",
            )
            .into());
        }
        crate::error::toml_bounds_at(path, text, crate::error::MAX_SMALL_TOML_VALUES)?;
        let file: ProfileFile = toml::from_str(text).map_err(|e| {
            // another of Kessel's files given as a profile: say which it is
            use crate::fsio::{not_the_kind, KesselFile, KesselToml};
            let wanted = KesselFile::Toml(KesselToml::Profile);
            match not_the_kind(path, text, wanted, "a profile") {
                Some(why) => LoadError::new(path, None, why),
                None => toml_error(path, text, &e),
            }
        })?;
        let mut p = Profile {
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            description: file.profile.description,
            ..Profile::default()
        };
        let mut errors = Vec::new();
        for (key, value) in file.options {
            let line = line_of(text, key.span().start);
            let id = key.into_inner();
            let v = toml_to_value(&value);
            match decls.iter().find(|d| d.id == id) {
                None => errors.push(LoadError::new(
                    path,
                    Some(line),
                    format!(
                        "unknown option `{id}`{}",
                        crate::names::did_you_mean(
                            &id,
                            &decls.iter().map(|d| d.id.as_str()).collect::<Vec<_>>()
                        )
                    ),
                )),
                Some(d) => match d.check(&v) {
                    Ok(()) => {
                        p.lines.insert(id.clone(), line);
                        p.values.insert(id, v);
                    }
                    Err(m) => errors.push(LoadError::new(path, Some(line), m)),
                },
            }
        }
        errors.sort_by_key(|e| e.line);
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(LoadErrors(errors))
        }
    }
}

/// The options in force: declarations plus chosen values.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// Declarations, in declaration order.
    pub decls: Vec<OptionDecl>,
    /// Values in force (every declared option has one).
    pub values: BTreeMap<String, Value>,
    /// Name of the profile applied.
    pub profile: String,
}

impl Options {
    /// Options for the declarations `decls` that keep `from`'s values where the option is still
    /// declared, and its profile name (rules reloaded, or a game moved into another engine).
    pub fn carried_over(decls: Vec<OptionDecl>, from: &Options) -> Options {
        let mut options = Options::defaults(decls);
        for (k, v) in &from.values {
            // only what the new declaration admits: a value of another type or range (the
            // declaration was changed) takes the new default (the engine refuses a reload that
            // would drop a value chosen for the game: `Engine::reload_rules`)
            let admitted = options
                .decls
                .iter()
                .any(|d| &d.id == k && d.check(v).is_ok());
            if admitted {
                options.values.insert(k.clone(), v.clone());
            }
        }
        options.profile = from.profile.clone();
        options
    }

    /// Defaults for every declaration.
    pub fn defaults(decls: Vec<OptionDecl>) -> Options {
        let values = decls
            .iter()
            .map(|d| (d.id.clone(), d.default.clone()))
            .collect();
        Options {
            decls,
            values,
            profile: DEFAULTS.into(),
        }
    }

    /// Defaults overlaid with a profile.
    pub fn with_profile(decls: Vec<OptionDecl>, profile: &Profile) -> Options {
        let mut o = Options::defaults(decls);
        for (k, v) in &profile.values {
            o.values.insert(k.clone(), v.clone());
        }
        o.profile = profile.name.clone();
        o
    }

    /// The value of an option.
    pub fn get(&self, id: &str) -> Option<&Value> {
        self.values.get(id)
    }

    /// True if a bool option is on.
    pub fn on(&self, id: &str) -> bool {
        matches!(self.values.get(id), Some(Value::Bool(true)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls() -> Vec<OptionDecl> {
        vec![
            OptionDecl {
                id: "fast_rivers".into(),
                kind: OptionType::Bool,
                default: Value::Bool(false),
                description: "rivers cost less".into(),
                rule: "1.2".into(),
                min: None,
                max: None,
            },
            OptionDecl {
                id: "city_vp".into(),
                kind: OptionType::Int,
                default: Value::from(25),
                description: "VP".into(),
                rule: "15".into(),
                min: Some(0),
                max: Some(50),
            },
        ]
    }

    #[test]
    fn profile_overrides_defaults() {
        let text = "[profile]\ndescription = \"x\"\n[options]\nfast_rivers = true\n";
        let p = Profile::parse(Path::new("p.toml"), text, &decls()).expect("valid");
        let o = Options::with_profile(decls(), &p);
        assert!(o.on("fast_rivers"));
        assert_eq!(o.get("city_vp"), Some(&Value::from(25)));
        assert_eq!(p.name, "p");
    }

    #[test]
    fn an_int_option_out_of_its_declared_range_is_refused_naming_the_range() {
        let text = "[options]\ncity_vp = 51\n";
        let e = Profile::parse(Path::new("p.toml"), text, &decls()).expect_err("out of range");
        assert_eq!(e.0[0].line, Some(2));
        assert_eq!(
            e.0[0].message,
            "option `city_vp` takes a whole number from 0 to 50 (51 is out of range)"
        );
        let d = &decls()[1];
        assert!(d.check(&Value::from(-1)).is_err());
        assert!(d.check(&Value::from(0)).is_ok());
        assert!(d.check(&Value::from(50)).is_ok());
        assert_eq!(
            d.check(&Value::from("x")),
            Err("option `city_vp` takes a whole number from 0 to 50".to_string())
        );
        let only_min = OptionDecl {
            max: None,
            ..decls()[1].clone()
        };
        assert!(only_min.check(&Value::from(1_000_000)).is_ok());
        assert_eq!(only_min.int_range_text(), "a whole number of at least 0");
    }

    #[test]
    fn unknown_option_names_the_line() {
        let text = "[options]\nfast_rivers = true\nfast_river = false\ncity_vp = \"x\"\n";
        let e = Profile::parse(Path::new("p.toml"), text, &decls()).expect_err("invalid");
        assert_eq!(e.0.len(), 2);
        assert_eq!(e.0[0].line, Some(3));
        assert!(e.0[0].message.contains("did you mean `fast_rivers`"));
        assert_eq!(e.0[1].line, Some(4));
    }
}
