//! Faces written as strings in a scenario file (`"6-4-8"`, `"9-1"`), read with the unit types'
//! `face_fields` once the ruleset is known: the loader parses the file without the ruleset, the
//! engine calls [`Scenario::read_faces`] before the set-up is checked.

use super::Scenario;
use crate::error::LoadError;
use crate::state::{Face, Value};
use std::collections::BTreeMap;

impl Scenario {
    /// Reads the faces written as strings with the unit types' `face_fields` (`"9-1"` for a
    /// type with `face_fields = { "morale", "leadership" }`), now that the ruleset is known.
    /// Returns a problem per unit whose strings do not fit its type.
    pub fn read_faces(&mut self, unit_types: &BTreeMap<String, Value>) -> Vec<LoadError> {
        let mut problems = Vec::new();
        for spec in &mut self.units {
            if spec.face_texts.is_empty() {
                continue;
            }
            let u = &mut spec.unit;
            let fields: Option<Vec<String>> = unit_types
                .get(&u.kind)
                .and_then(|t| t.get("face_fields"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|f| f.as_str().map(str::to_string))
                        .collect()
                });
            match fields {
                Some(fields) => {
                    let mut named = Vec::new();
                    for (i, text) in spec.face_texts.iter().enumerate() {
                        match crate::state::named_face_from_text(text, &fields) {
                            Some(face) => named.push(face),
                            None => problems.push(LoadError::new(
                                &self.path,
                                Some(spec.face_lines.get(i).copied().unwrap_or(spec.line)),
                                format!(
                                    "unit `{}`: `{text}` is not a face of unit type `{}` ({})",
                                    u.id,
                                    u.kind,
                                    fields.join("-")
                                ),
                            )),
                        }
                    }
                    u.faces.clear();
                    u.named = named;
                }
                None if u.faces.len() != spec.face_texts.len() => {
                    let at = (spec.face_texts.iter())
                        .position(|t| Face::parse(t).is_none())
                        .unwrap_or_default();
                    let bad = spec.face_texts.get(at).cloned().unwrap_or_default();
                    problems.push(LoadError::new(
                        &self.path,
                        Some(spec.face_lines.get(at).copied().unwrap_or(spec.line)),
                        format!(
                            "unit `{}`: `{bad}` is not a face (A-D-M); unit type `{}` declares no face_fields to read other faces with",
                            u.id, u.kind
                        ),
                    ));
                }
                None => {}
            }
        }
        problems
    }
}
