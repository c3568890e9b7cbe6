//! Checks across declarations, made once a ruleset (and a scenario's special rules) has loaded:
//! a movement cost for a terrain that was never declared, a class or side name misspelt inside a
//! cost entry, a variant of an option that does not exist. Each problem keeps the site of the
//! declaration that made it, so the error names the file and line a modder has to fix.

use super::variants::MAX_VARIANTS;
use super::{KindDecl, Ruleset, Site, Step, VariantData};
use crate::names::did_you_mean;
use crate::state::Value;

/// A declaration that does not fit the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclProblem {
    /// Where the declaration was made, when known.
    pub site: Option<Site>,
    /// What is wrong, with a suggestion where a near name exists.
    pub message: String,
}

/// Fields a cost entry may carry besides class, side and `default` keys.
const ENTRY_FIELDS: &[&str] = &["cost", "rule", "message"];

impl Ruleset {
    fn sequence_problems(
        &self,
        what: &str,
        steps: &[Step],
        site: &Option<Site>,
    ) -> Vec<DeclProblem> {
        let mut out = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for step in steps {
            if !seen.insert(step.id.as_str()) {
                out.push(DeclProblem {
                    site: site.clone(),
                    message: format!("{what}: step `{}` is declared twice", step.id),
                });
            }
            if let Some(side) = &step.side {
                if !self.sides.contains(side) {
                    out.push(DeclProblem {
                        site: site.clone(),
                        message: format!(
                            "{what}: step `{}` has side `{side}`, which kessel.ruleset does not declare{}",
                            step.id,
                            did_you_mean(side, &self.sides)
                        ),
                    });
                }
            }
        }
        out
    }

    /// Every problem between the declarations, in declaration order.
    pub fn cross_check(&self) -> Vec<DeclProblem> {
        let mut out = Vec::new();
        if let Some(m) = &self.movement {
            let site = self.movement_site.clone();
            for message in self.movement_problems(m, "kessel.movement") {
                out.push(DeclProblem {
                    site: site.clone(),
                    message,
                });
            }
        }
        let named = self
            .modes
            .iter()
            .map(|(name, n)| (format!("kessel.sequence `{name}`"), &n.steps, &n.site));
        let main = std::iter::once((
            "kessel.sequence".to_string(),
            &self.sequence,
            &self.sequence_site,
        ));
        for (what, steps, site) in main.chain(named) {
            out.extend(self.sequence_problems(&what, steps, site));
        }
        if self.variants.len() > MAX_VARIANTS {
            out.push(DeclProblem {
                site: self.variants[MAX_VARIANTS].site.clone(),
                message: format!("a ruleset may declare at most {MAX_VARIANTS} option variants"),
            });
        }
        for v in &self.variants {
            let mut problems = self.when_problems(v);
            match &v.data {
                VariantData::Movement(m) => {
                    if self.movement.is_none() {
                        problems.push(
                            "a movement variant needs a plain kessel.movement{...} to vary".into(),
                        );
                    }
                    problems.extend(self.movement_problems(m, "kessel.movement (variant)"));
                }
                VariantData::Table(t) if !self.tables.contains_key(&t.id) => {
                    problems.push(format!(
                        "results table `{}` has a variant but no plain declaration to fall back on",
                        t.id
                    ))
                }
                VariantData::Dice(t) if !self.dice_tables.contains_key(&t.id) => {
                    problems.push(format!(
                        "dice table `{}` has a variant but no plain declaration to fall back on",
                        t.id
                    ))
                }
                _ => {}
            }
            out.extend(problems.into_iter().map(|message| DeclProblem {
                site: v.site.clone(),
                message,
            }));
        }
        out
    }

    fn when_problems(&self, v: &super::Variant) -> Vec<String> {
        let mut out = Vec::new();
        for (id, value) in &v.when {
            match self.options.iter().find(|o| &o.id == id) {
                None => {
                    let known: Vec<&str> = self.options.iter().map(|o| o.id.as_str()).collect();
                    out.push(format!(
                        "`when`: no option `{id}` is declared{}",
                        did_you_mean(id, &known)
                    ));
                }
                Some(decl) => {
                    if let Err(m) = decl.check(value) {
                        out.push(format!("`when`: {m}"));
                    }
                }
            }
        }
        out
    }

    /// Problems of one movement declaration: kinds the ruleset never declared, misspelt class,
    /// side or field names inside entries, bridges over undeclared kinds.
    fn movement_problems(&self, decl: &Value, what: &str) -> Vec<String> {
        let mut out = Vec::new();
        let classes: Option<Vec<&str>> = decl
            .get("classes")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect());
        let Some(sections) = decl.as_object() else {
            return out;
        };
        for (section, entries) in sections {
            let declared: &[KindDecl] = match section.as_str() {
                "terrain" => &self.terrains,
                "hexsides" | "links" => &self.hexside_kinds,
                _ => continue,
            };
            let Some(entries) = entries.as_object() else {
                continue;
            };
            for (kind, entry) in entries {
                let at = format!("{what}: {section}.{kind}");
                if !declared.is_empty() && !declared.iter().any(|d| &d.id == kind) {
                    let known: Vec<&str> = declared.iter().map(|d| d.id.as_str()).collect();
                    let category = if section == "terrain" {
                        "terrain"
                    } else {
                        "hexside kind"
                    };
                    out.push(format!(
                        "{at}: no {category} `{kind}` is declared{}",
                        did_you_mean(kind, &known)
                    ));
                }
                let links = section == "links";
                self.entry_problems(entry, &at, classes.as_deref(), links, &mut out);
            }
        }
        out
    }

    fn entry_problems(
        &self,
        entry: &Value,
        at: &str,
        classes: Option<&[&str]>,
        links: bool,
        out: &mut Vec<String>,
    ) {
        let Some(fields) = entry.as_object() else {
            return;
        };
        let mut keys: Vec<&str> = vec!["default"];
        keys.extend(self.sides.iter().map(String::as_str));
        keys.extend(classes.unwrap_or_default());
        for (key, value) in fields {
            if key == "bridges" && links {
                for kind in value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !self.hexside_kinds.is_empty()
                        && !self.hexside_kinds.iter().any(|d| d.id == kind)
                    {
                        let known: Vec<&str> =
                            self.hexside_kinds.iter().map(|d| d.id.as_str()).collect();
                        out.push(format!(
                            "{at}.bridges: no hexside kind `{kind}` is declared{}",
                            did_you_mean(kind, &known)
                        ));
                    }
                }
                continue;
            }
            if ENTRY_FIELDS.contains(&key.as_str()) {
                if key == "cost" {
                    self.entry_problems(value, &format!("{at}.cost"), classes, false, out);
                }
                continue;
            }
            if keys.contains(&key.as_str()) {
                continue;
            }
            let mut fields: Vec<&str> = ENTRY_FIELDS.to_vec();
            if links {
                fields.push("bridges");
            }
            if classes.is_some() {
                fields.extend(&keys);
                out.push(format!(
                    "{at}: `{key}` is not a movement class, a side, `default` or a field{}",
                    did_you_mean(key, &fields)
                ));
            } else {
                // without declared classes any other key may be a class: refuse only a key one
                // edit from a field, `default` or a side (`defualt`, `germna`)
                fields.extend(&keys);
                let near = fields
                    .iter()
                    .copied()
                    .find(|f| crate::names::edit_distance_within(key, f, 1).is_some());
                if let Some(near) = near {
                    out.push(format!(
                        "{at}: `{key}` is not a field, `default` or a side (did you mean `{near}`?); if it is a movement class, list it in `classes`"
                    ));
                }
            }
        }
    }
}
