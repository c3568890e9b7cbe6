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
        // (the units are changed below: where a line is, is asked of a copy of the file list)
        let (files, path) = (self.files.clone(), self.path.clone());
        let error_at = |line, msg| super::error_in(&files, &path, line, msg);
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
                            None => problems.push(error_at(
                                Some(spec.face_lines.get(i).copied().unwrap_or(spec.line)),
                                format!(
                                    "unit `{}`: {}",
                                    u.id,
                                    face_text_problem(text, &u.kind, Some(&fields))
                                        .unwrap_or_default()
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
                    problems.push(error_at(
                        Some(spec.face_lines.get(at).copied().unwrap_or(spec.line)),
                        format!(
                            "unit `{}`: {}",
                            u.id,
                            face_text_problem(&bad, &u.kind, None).unwrap_or_default()
                        ),
                    ));
                }
                None => {}
            }
        }
        problems
    }
}

/// What is wrong with `text` as a face of a unit of type `kind`, read with the type's
/// `face_fields` (`fields`; `None`: the type declares none, and a face is "A-D-M"), or
/// `None` when it is one. The one wording of a bad face: the checks of a scenario file say it,
/// and so does the editor's new-unit form before it adds the unit.
pub fn face_text_problem(text: &str, kind: &str, fields: Option<&[String]>) -> Option<String> {
    match fields {
        Some(fields) => crate::state::named_face_from_text(text, fields)
            .is_none()
            .then(|| {
                format!(
                    "`{text}` is not a face of unit type `{kind}` ({})",
                    fields.join("-")
                )
            }),
        None => Face::parse(text).is_none().then(|| {
            format!(
                "`{text}` is not a face (A-D-M); unit type `{kind}` declares no face_fields to read other faces with"
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::face_text_problem;

    #[test]
    fn a_face_is_checked_against_its_types_fields() {
        assert_eq!(face_text_problem("4-4-10", "tank", None), None);
        let adm = face_text_problem("4-4", "tank", None).expect("two parts");
        assert!(adm.contains("`4-4` is not a face (A-D-M)"), "{adm}");
        let fields = ["morale".to_string(), "leadership".to_string()];
        assert_eq!(face_text_problem("9-1", "leader", Some(&fields)), None);
        let named = face_text_problem("9-1-2", "leader", Some(&fields)).expect("three parts");
        assert!(
            named.contains("is not a face of unit type `leader` (morale-leadership)"),
            "{named}"
        );
    }
}
