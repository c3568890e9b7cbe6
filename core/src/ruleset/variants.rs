//! Declared data that follows the options: a movement cost, a results table or a dice table
//! declared with `when = { option = value, ... }` replaces the plain declaration while every named
//! option has that value. A variant is data, resolved natively, so an option that is off costs a
//! rule nothing: no Lua runs per hex or per lookup to ask which variant is in force.

use super::{Ruleset, Site};
use crate::options::Options;
use crate::state::Value;
use crate::tables::{DiceTable, ResultsTable};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Most variants one ruleset may declare: which ones are in force is one bit each of a `u64`,
/// the key under which compiled cost models are kept.
pub const MAX_VARIANTS: usize = 64;

/// Data in force while some options have given values.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Option id → the value it must have (all of them) for the variant to be in force.
    pub when: BTreeMap<String, Value>,
    /// What it replaces.
    pub data: VariantData,
    /// Where it was declared.
    pub site: Option<Site>,
}

/// What a variant replaces.
#[derive(Clone, Debug, PartialEq)]
pub enum VariantData {
    /// Movement cost entries: each `section.kind` given replaces that entry of the plain
    /// `kessel.movement` declaration; entries it does not name stay.
    Movement(Value),
    /// The results table of the same id.
    Table(ResultsTable),
    /// The dice table of the same id.
    Dice(DiceTable),
}

impl VariantData {
    /// The table a variant of a table replaces, as messages name it (`results table`, `crt`);
    /// `None` for movement costs, which combine entry by entry.
    fn table_key(&self) -> Option<(&'static str, &str)> {
        match self {
            VariantData::Table(t) => Some(("results table", t.id.as_str())),
            VariantData::Dice(t) => Some(("dice table", t.id.as_str())),
            VariantData::Movement(_) => None,
        }
    }
}

impl Variant {
    /// Whether every option named in `when` has its value.
    pub fn in_force(&self, options: &Options) -> bool {
        self.when
            .iter()
            .all(|(id, v)| options.values.get(id) == Some(v))
    }
}

impl Ruleset {
    /// Keeps a declaration of data that may follow the options: a variant when it names the
    /// options it is for (`when`), else the plain declaration (replacing an earlier one).
    ///
    /// A second variant of one table for the same `when` is refused: the later would always be
    /// used and the earlier never, without a word.
    pub fn declare_data(
        &mut self,
        when: Option<BTreeMap<String, Value>>,
        data: VariantData,
        site: Option<Site>,
    ) -> Result<(), String> {
        match (when, data) {
            (Some(when), data) => {
                if let Some(k) = data.table_key() {
                    if let Some(first) = (self.variants.iter())
                        .find(|v| v.when == when && v.data.table_key() == Some(k))
                    {
                        return Err(format!(
                            "{} `{}`: a variant for {} is declared already ({}); one table has one variant for each setting of the options",
                            k.0,
                            k.1,
                            when_text(&when),
                            site_text(&first.site)
                        ));
                    }
                }
                self.variants.push(Variant { when, data, site })
            }
            (None, VariantData::Movement(costs)) => {
                self.movement = Some(costs);
                self.movement_site = site;
            }
            (None, VariantData::Table(t)) => {
                self.tables.insert(t.id.clone(), t);
            }
            (None, VariantData::Dice(t)) => {
                self.dice_tables.insert(t.id.clone(), t);
            }
        }
        Ok(())
    }

    /// One bit per declared variant, set when it is in force: two option sets with the same mask
    /// see the same declared data.
    pub fn variant_mask(&self, options: &Options) -> u64 {
        self.variants
            .iter()
            .take(MAX_VARIANTS)
            .enumerate()
            .filter(|(_, v)| v.in_force(options))
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The movement costs in force: the declaration with the entries of every movement variant in
    /// force laid over it, in declaration order. Borrowed when no variant applies.
    pub fn movement_in_force(&self, options: &Options) -> Option<Cow<'_, Value>> {
        let base = self.movement.as_ref()?;
        let mut merged: Option<Value> = None;
        for v in &self.variants {
            let VariantData::Movement(over) = &v.data else {
                continue;
            };
            if !v.in_force(options) {
                continue;
            }
            let target = merged.get_or_insert_with(|| base.clone());
            let (Some(sections), Value::Object(target)) = (over.as_object(), target) else {
                continue;
            };
            for (section, entries) in sections {
                let Some(entries) = entries.as_object() else {
                    continue;
                };
                let slot = target
                    .entry(section.clone())
                    .or_insert_with(|| Value::Object(Default::default()));
                if let Value::Object(slot) = slot {
                    for (kind, entry) in entries {
                        slot.insert(kind.clone(), entry.clone());
                    }
                }
            }
        }
        Some(match merged {
            Some(m) => Cow::Owned(m),
            None => Cow::Borrowed(base),
        })
    }

    /// The results table `id` in force: the last variant of that id in force, else the plain one.
    pub fn table(&self, id: &str, options: &Options) -> Option<&ResultsTable> {
        self.variants
            .iter()
            .rev()
            .find_map(|v| match &v.data {
                VariantData::Table(t) if t.id == id && v.in_force(options) => Some(t),
                _ => None,
            })
            .or_else(|| self.tables.get(id))
    }

    /// The dice table `id` in force: the last variant of that id in force, else the plain one.
    pub fn dice_table(&self, id: &str, options: &Options) -> Option<&DiceTable> {
        self.variants
            .iter()
            .rev()
            .find_map(|v| match &v.data {
                VariantData::Dice(t) if t.id == id && v.in_force(options) => Some(t),
                _ => None,
            })
            .or_else(|| self.dice_tables.get(id))
    }

    /// Table variants in force together where the one used (the last declared) does not cover
    /// the others: each such pair would drop the other variant's changes unseen, so a game under
    /// those options is refused, saying which. A variant whose `when` holds every condition of
    /// the others in force is a deliberate combination (declared for the pair) and is no
    /// conflict. Movement variants combine entry by entry and never conflict.
    pub fn variant_conflicts(&self, options: &Options) -> Vec<String> {
        let mut out = Vec::new();
        let in_force: Vec<&Variant> = (self.variants.iter())
            .filter(|v| v.in_force(options))
            .collect();
        for (i, used) in in_force.iter().enumerate() {
            let Some(k) = used.data.table_key() else {
                continue;
            };
            // only the last one in force of its table is used
            if in_force[i + 1..]
                .iter()
                .any(|v| v.data.table_key() == Some(k))
            {
                continue;
            }
            for other in &in_force[..i] {
                let covered = other
                    .when
                    .iter()
                    .all(|(id, v)| used.when.get(id) == Some(v));
                if other.data.table_key() != Some(k) || covered {
                    continue;
                }
                let mut both = other.when.clone();
                both.extend(used.when.clone());
                out.push(format!(
                    "{} `{}`: the variant for {} ({}) and the one for {} ({}) are both in force, and the one declared last is used whole, dropping the other's changes; declare a variant for both ({}) after them, or refuse the pair in a `check` hook",
                    k.0,
                    k.1,
                    when_text(&other.when),
                    site_text(&other.site),
                    when_text(&used.when),
                    site_text(&used.site),
                    when_text(&both),
                ));
            }
        }
        out
    }
}

/// `when = { a = true, b = "x" }` as written in Lua.
fn when_text(when: &BTreeMap<String, Value>) -> String {
    let parts: Vec<String> = when.iter().map(|(id, v)| format!("{id} = {v}")).collect();
    format!("`when = {{ {} }}`", parts.join(", "))
}

fn site_text(site: &Option<Site>) -> String {
    match site {
        Some(s) => format!("{}:{}", s.file, s.line),
        None => "declared".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{OptionDecl, OptionType};
    use serde_json::json;

    /// A yes/no option, off by default.
    fn bool_decl(id: &str) -> OptionDecl {
        OptionDecl {
            id: id.into(),
            kind: OptionType::Bool,
            default: json!(false),
            description: String::new(),
            rule: String::new(),
            min: None,
            max: None,
        }
    }

    fn ruleset() -> (Ruleset, Options) {
        let decl = bool_decl("dear_rivers");
        let r = Ruleset {
            movement: Some(json!({
                "terrain": { "clear": 1 },
                "hexsides": { "river": { "default": 1 } },
            })),
            variants: vec![Variant {
                when: [("dear_rivers".to_string(), json!(true))].into(),
                data: VariantData::Movement(
                    json!({ "hexsides": { "river": { "wheels": 3, "default": 1 } } }),
                ),
                site: None,
            }],
            ..Ruleset::default()
        };
        (r, Options::defaults(vec![decl]))
    }

    #[test]
    fn a_variant_replaces_its_entries_only_while_its_option_has_the_value() {
        let (r, mut options) = ruleset();
        assert!(matches!(
            r.movement_in_force(&options),
            Some(Cow::Borrowed(_))
        ));
        assert_eq!(r.variant_mask(&options), 0);
        options.values.insert("dear_rivers".into(), json!(true));
        let m = r.movement_in_force(&options).expect("declared");
        assert_eq!(m["hexsides"]["river"]["wheels"], json!(3));
        assert_eq!(
            m["terrain"]["clear"],
            json!(1),
            "entries the variant does not name stay"
        );
        assert_eq!(r.variant_mask(&options), 1);
    }

    fn table_variant(when: &[(&str, bool)], line: usize) -> Variant {
        Variant {
            when: when
                .iter()
                .map(|(k, v)| (k.to_string(), json!(v)))
                .collect(),
            data: VariantData::Table(ResultsTable {
                id: "crt".into(),
                kind: crate::tables::OddsKind::Ratio,
                columns: Vec::new(),
                first_roll: 1,
                rows: Vec::new(),
                die: None,
            }),
            site: Some(Site {
                file: "init.lua".into(),
                line,
            }),
        }
    }

    #[test]
    fn two_table_variants_in_force_conflict_unless_the_last_is_declared_for_both() {
        let mut r = Ruleset {
            variants: vec![
                table_variant(&[("a", true)], 3),
                table_variant(&[("b", true)], 7),
            ],
            ..Ruleset::default()
        };
        let mut options = Options::defaults(vec![bool_decl("a"), bool_decl("b")]);
        options.values.insert("a".into(), json!(true));
        assert!(r.variant_conflicts(&options).is_empty(), "one in force");
        options.values.insert("b".into(), json!(true));
        let found = r.variant_conflicts(&options);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("init.lua:3") && found[0].contains("init.lua:7"),
            "{}",
            found[0]
        );
        assert!(
            found[0].contains("`when = { a = true, b = true }`"),
            "{}",
            found[0]
        );
        // a variant for the pair, declared after both, is the combination: no conflict
        r.variants
            .push(table_variant(&[("a", true), ("b", true)], 9));
        assert!(r.variant_conflicts(&options).is_empty());
        // movement variants combine entry by entry: never a conflict
        let (m, mut mo) = ruleset();
        mo.values.insert("dear_rivers".into(), json!(true));
        assert!(m.variant_conflicts(&mo).is_empty());
    }
}
