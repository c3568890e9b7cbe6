//! Names a user typed, matched against the names a ruleset or the engine knows: the "did you
//! mean" of every error about an unknown id, field or module.

/// The name of `known` nearest to `name` when it is close enough to be a typo of it (at most two
/// edits, or one of them starts with the other); ties go to the first in sorted order.
pub fn nearest<S: AsRef<str>>(name: &str, known: &[S]) -> Option<String> {
    let mut sorted: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
    sorted.sort_unstable();
    sorted
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, k)| *d <= 2 || k.starts_with(name) || name.starts_with(k))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.to_string())
}

/// ` (did you mean `x`?)` when a known name is near, else nothing: the tail of an error message.
pub fn did_you_mean<S: AsRef<str>>(name: &str, known: &[S]) -> String {
    nearest(name, known)
        .map(|n| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

/// The longest unit id, in bytes: the rules copy ids into every action and event, so a 10 MB
/// id would be copied for ever.
pub const MAX_UNIT_ID: usize = 1024;

/// What is wrong with a unit's id, wherever a unit is made (a scenario's `[[units]]`,
/// `kessel.setup`, `kessel.emit.create_unit`), so all three hold one rule: an id with something
/// in it, at most [`MAX_UNIT_ID`] bytes, on one line. An empty id cannot be told apart in the
/// log, and one holding a line break or a control character (NUL, an escape) breaks every
/// message, table and save line that names it. `None` when it is fine.
pub fn unit_id_problem(id: &str) -> Option<String> {
    if id.len() > MAX_UNIT_ID {
        return Some(format!(
            "a unit id of {} bytes (`{}…`): ids are at most {MAX_UNIT_ID} bytes",
            id.len(),
            crate::error::printable_name(&id.chars().take(40).collect::<String>())
        ));
    }
    if id.trim().is_empty() {
        return Some(
            "a unit with an empty id: give it an id (short, unique, stable: the event log names \
             units by it)"
                .into(),
        );
    }
    if id.chars().any(char::is_control) {
        return Some(format!(
            "unit id `{}` holds a line break or a control character: give it on one line, in \
             characters that show",
            crate::error::printable_name(id)
        ));
    }
    None
}

#[cfg(test)]
mod unit_id_tests {
    #[test]
    fn an_id_is_on_one_line_with_something_in_it() {
        use super::unit_id_problem as problem;
        assert_eq!(problem("r1"), None);
        assert_eq!(problem("1st Pz. Div."), None);
        for bad in ["", "  ", "a\nb", "a\0", "\u{1b}[2J", "tab\there"] {
            assert!(problem(bad).is_some(), "{bad:?}");
        }
        assert!(problem(&"x".repeat(super::MAX_UNIT_ID + 1)).is_some());
    }
}

/// Edit distance over characters where swapping two neighbours counts as one edit (the optimal
/// string alignment distance): `sied` is one edit from `side`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn typos_find_their_name() {
        let known: Vec<String> = ["units", "markers", "map", "game"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(nearest("unit", &known).as_deref(), Some("units"));
        assert_eq!(nearest("mpa", &known).as_deref(), Some("map"));
        assert_eq!(nearest("weather", &known), None);
        let fields: Vec<String> = ["id", "side", "type"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(nearest("sied", &fields).as_deref(), Some("side"));
    }
}
