//! Markers and pools of hidden faces as the scenario editor edits them (`[[markers]]`,
//! `[[pools]]`), read here; written by `write.rs` like the other tables.

use super::str_of;
use toml_edit::{Item, Table};

/// One `[[markers]]` table: how many markers of a kind a side has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkerDef {
    /// Marker kind (the ruleset's).
    pub kind: String,
    /// Owning side.
    pub side: Option<String>,
    /// How many.
    pub count: i64,
}

/// One `[[pools]]` table: the faces hidden units draw from, each with its number of copies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolDef {
    /// Pool id (units name it with `pool`).
    pub id: String,
    /// Owning side.
    pub side: Option<String>,
    /// Faces as written (`"5-5-6"`) and copies of each.
    pub faces: Vec<(String, i64)>,
}

impl PoolDef {
    /// The faces as one line people type: `5-5-6 x1, 4-5-6 x2` (a face alone is one copy).
    pub fn faces_text(&self) -> String {
        let parts: Vec<String> = self
            .faces
            .iter()
            .map(|(f, n)| format!("{f} x{n}"))
            .collect();
        parts.join(", ")
    }

    /// Reads [`PoolDef::faces_text`]'s form back, or says which part is not `FACE xN`.
    pub fn parse_faces(text: &str) -> Result<Vec<(String, i64)>, String> {
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let mut words = part.split_whitespace();
            let face = words.next().unwrap_or_default().to_string();
            let n = match words.next() {
                None => 1,
                Some(w) => w
                    .strip_prefix(['x', '×'])
                    .and_then(|n| n.parse::<i64>().ok())
                    .filter(|n| *n > 0)
                    .ok_or_else(|| {
                        format!("`{part}`: write a face and its copies, like 4-5-6 x2")
                    })?,
            };
            if words.next().is_some() {
                return Err(format!(
                    "`{part}`: write a face and its copies, like 4-5-6 x2"
                ));
            }
            out.push((face, n));
        }
        Ok(out)
    }
}

pub(super) fn pool_of(t: &Table) -> PoolDef {
    let faces = t
        .get("faces")
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| {
                    let pair = v.as_array()?;
                    let face = pair.get(0)?.as_str()?.to_string();
                    Some((face, pair.get(1)?.as_integer()?))
                })
                .collect()
        })
        .unwrap_or_default();
    PoolDef {
        id: str_of(t, "id").unwrap_or_default(),
        side: str_of(t, "side"),
        faces,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_faces_read_back_as_typed_and_bad_parts_are_named() {
        let faces = PoolDef::parse_faces("5-5-6 x1, 4-5-6 x2,3-4-6").expect("reads");
        assert_eq!(
            faces,
            vec![
                ("5-5-6".to_string(), 1),
                ("4-5-6".to_string(), 2),
                ("3-4-6".to_string(), 1)
            ]
        );
        let p = PoolDef {
            faces,
            ..PoolDef::default()
        };
        assert_eq!(
            PoolDef::parse_faces(&p.faces_text()).ok(),
            Some(p.faces.clone())
        );
        let e = PoolDef::parse_faces("5-5-6 x0").expect_err("no copies");
        assert!(e.contains("5-5-6 x0"), "{e}");
        assert!(PoolDef::parse_faces("5-5-6 x2 more").is_err());
        assert_eq!(PoolDef::parse_faces("").ok(), Some(Vec::new()));
    }
}
