//! A unit's faces as the editor reads them from the scenario file: the text faces for the map,
//! and the faces written as tables.

use super::UnitDef;
use kessel_core::state::Face;
use toml_edit::{Item, Table};

/// A unit's faces as the map draws them: read as A-D-M when every one reads so; else each as
/// written, a named face with that `label` (`9-1` of a type whose `face_fields` name two parts,
/// `4-6-7*`), which the drawing model prints as it is: dropped for not reading as A-D-M, such a
/// unit's counter showed "–" in map editing. Faces written as tables are kept as they are.
pub(super) fn faces_of(u: &UnitDef) -> (Vec<Face>, Vec<kessel_core::state::NamedFace>) {
    let read: Option<Vec<Face>> = u.faces.iter().map(|f| Face::parse(f)).collect();
    match read {
        Some(faces) => (faces, u.named_faces.clone()),
        None => {
            let label = |t: &String| {
                std::iter::once(("label".to_string(), serde_json::Value::from(t.trim()))).collect()
            };
            (Vec::new(), u.faces.iter().map(label).collect())
        }
    }
}

/// The faces of a unit written as inline tables, as named values.
pub(super) fn named_faces_of(t: &Table) -> Vec<kessel_core::state::NamedFace> {
    let Some(faces) = t.get("faces").and_then(Item::as_array) else {
        return Vec::new();
    };
    faces
        .iter()
        .filter_map(|v| v.as_inline_table())
        .map(|tbl| {
            tbl.iter()
                .filter_map(|(k, v)| Some((k.to_string(), plain(v)?)))
                .collect()
        })
        .collect()
}

/// A TOML value as plain data (strings, numbers, booleans, arrays and tables of them).
fn plain(v: &toml_edit::Value) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match v {
        toml_edit::Value::String(s) => J::from(s.value().as_str()),
        toml_edit::Value::Integer(i) => J::from(*i.value()),
        toml_edit::Value::Float(f) => J::from(*f.value()),
        toml_edit::Value::Boolean(b) => J::from(*b.value()),
        toml_edit::Value::Array(a) => J::Array(a.iter().filter_map(plain).collect()),
        toml_edit::Value::InlineTable(t) => J::Object(
            t.iter()
                .filter_map(|(k, v)| Some((k.to_string(), plain(v)?)))
                .collect(),
        ),
        toml_edit::Value::Datetime(d) => J::from(d.value().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Placement, ScenarioDef, UnitDef};

    #[test]
    fn a_face_that_is_not_a_d_m_is_drawn_as_written() {
        let unit = |faces: &[&str]| UnitDef {
            id: "l".into(),
            side: "red".into(),
            kind: "leader".into(),
            faces: faces.iter().map(|f| f.to_string()).collect(),
            placement: Placement::At("0101".into()),
            ..UnitDef::default()
        };
        let map = kessel_core::map::Map::new(
            "t",
            4,
            4,
            kessel_core::numbering::Numbering::default(),
            "clear",
        );
        let style = kessel_draw::MapStyle::default();
        for (faces, shown) in [
            (vec!["9-1"], vec!["9-1"]),
            (vec!["6-4-8", "3-4-8*"], vec!["6-4-8", "3-4-8*"]),
            (vec!["4-4-10", "2-2-10"], vec!["4-4-10", "2-2-10"]),
        ] {
            let def = ScenarioDef {
                units: vec![unit(&faces)],
                ..ScenarioDef::default()
            };
            let units = def.to_units(&map);
            // (they showed "–": dropped for not reading as attack-defence-movement)
            assert_eq!(style.steps_text(&units[0]), shown, "{faces:?}");
        }
    }
}
