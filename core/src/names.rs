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
