//! Names a user typed, matched against the names a ruleset or the engine knows: the "did you
//! mean" of every error about an unknown id, field or module.

/// The name of `known` nearest to `name` when it is close enough to be a typo of it (at most two
/// edits, or one of them starts with the other); ties go to the first in sorted order.
///
/// The work is linear in the lengths: a name a script or a file can make megabytes long (`kessel`
/// indexed with a 10 MB key, an action kind in a hand-edited save) was compared through a full
/// edit-distance matrix, one row per character, 1.5 GB and 20 s outside every Lua limit.
pub fn nearest<S: AsRef<str>>(name: &str, known: &[S]) -> Option<String> {
    let mut sorted: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
    sorted.sort_unstable();
    let chars = name.chars().count();
    sorted
        .into_iter()
        .filter_map(|k| {
            if k.starts_with(name) || name.starts_with(k) {
                // (one a prefix of the other: the distance is what the longer one adds)
                Some((chars.abs_diff(k.chars().count()), k))
            } else {
                edit_distance_within(name, k, 2).map(|d| (d, k))
            }
        })
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

/// What is wrong with a name a ruleset declares (an id, an action's kind, a side) or an event
/// keeps (a flag, a variable's key, a pool, a marker's kind, a tag), said after the name's field: it has something in it, at most 1024 bytes, on one line, in characters
/// that show. An empty one, or one holding a line break or a control character, cannot be told
/// apart or shown (every message naming it is broken); one holding a zero-width space or a
/// bidirectional mark prints like another name, or reorders the line it is printed in, as unit
/// ids may not either.
pub fn name_problem(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        return Some("is empty; give it a name".into());
    }
    // (a name goes into messages, listings and every save's log: at most as long as a unit id)
    if name.len() > MAX_UNIT_ID {
        return Some(format!(
            "of {} bytes (`{}…`) is too long: names are at most {} bytes",
            name.len(),
            crate::error::printable_name(&name.chars().take(40).collect::<String>()),
            MAX_UNIT_ID
        ));
    }
    let shown = crate::error::printable_name(name);
    if name.chars().any(char::is_control) {
        return Some(format!(
            "{shown} holds a line break or a control character; give it on one line"
        ));
    }
    if name.chars().any(crate::error::hidden_char) {
        return Some(format!(
            "{shown} holds a character that shows as nothing or reorders the text (a zero-width \
             space, a bidirectional mark); give it in characters that show"
        ));
    }
    if idle_joiner(name) {
        return Some(format!(
            "{} holds a zero-width joiner that joins nothing (beside a plain letter, digit or \
             sign, or at an end), so it prints like the name without it; give it in characters \
             that show",
            joiners_shown(&shown)
        ));
    }
    None
}

/// A zero-width joiner or non-joiner (U+200D, U+200C) that joins nothing: at either end of a
/// name or beside an ASCII character, where no script or emoji uses one, it shows as nothing
/// (`r` U+200D `1` printed as `r1`). Between the letters of a script that joins, or inside an
/// emoji, it is part of the name, and printing keeps it for that reason.
fn idle_joiner(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    chars.iter().enumerate().any(|(i, c)| {
        matches!(c, '\u{200c}' | '\u{200d}')
            && (i == 0
                || i + 1 == chars.len()
                || chars[i - 1].is_ascii()
                || chars[i + 1].is_ascii())
    })
}

/// `shown` with its joiners written out, for the message that refuses one.
fn joiners_shown(shown: &str) -> String {
    shown
        .replace('\u{200c}', "\\u{200c}")
        .replace('\u{200d}', "\\u{200d}")
}

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
    // (`r1` and `r1` with a zero-width space after it printed alike in every message and list)
    if id.chars().any(crate::error::hidden_char) {
        return Some(format!(
            "unit id `{}` holds a character that shows as nothing or reorders the text (a \
             zero-width space, a bidirectional mark): give it in characters that show",
            crate::error::printable_name(id)
        ));
    }
    if idle_joiner(id) {
        return Some(format!(
            "unit id `{}` holds a zero-width joiner that joins nothing (beside a plain letter, \
             digit or sign, or at an end), so it prints like the id without it: give it in \
             characters that show",
            joiners_shown(&crate::error::printable_name(id))
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
        for bad in [
            "",
            "  ",
            "a\nb",
            "a\0",
            "\u{1b}[2J",
            "tab\there",
            "r1\u{200b}",
            "\u{202e}r1",
        ] {
            assert!(problem(bad).is_some(), "{bad:?}");
        }
        assert!(problem(&"x".repeat(super::MAX_UNIT_ID + 1)).is_some());
    }

    /// A joiner beside a plain character or at an end joins nothing and prints as nothing; one
    /// a script or an emoji needs is part of the name.
    #[test]
    fn a_joiner_that_joins_nothing_is_refused_one_a_script_needs_is_kept() {
        for bad in ["r\u{200d}1", "\u{200d}r1", "r1\u{200c}", "a\u{200c}b"] {
            let why = super::unit_id_problem(bad).expect(bad);
            assert!(
                why.contains("\\u{200") && why.contains("joins nothing"),
                "{why}"
            );
            assert!(super::name_problem(bad).is_some(), "{bad:?}");
        }
        // Persian "mi-khāham" with its non-joiner, a family emoji, Devanagari with a joiner
        for good in [
            "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}",
            "\u{1f468}\u{200d}\u{1f469}",
            "\u{915}\u{94d}\u{200d}\u{937}",
        ] {
            assert_eq!(super::unit_id_problem(good), None, "{good:?}");
            assert_eq!(super::name_problem(good), None, "{good:?}");
        }
    }
}

/// Edit distance over characters where swapping two neighbours counts as one edit (the optimal
/// string alignment distance): `sied` is one edit from `side`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    osa(&a, &b, a.len().max(b.len())).unwrap_or(usize::MAX)
}

/// [`edit_distance`] when it is at most `max`, else `None`, in time and memory linear in the
/// lengths (for a small `max`): names of any length can be compared.
pub fn edit_distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    // (each edit changes the length by at most one: a length difference over `max` needs no
    // look at the characters)
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.abs_diff(lb) > max {
        return None;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    osa(&a, &b, max)
}

/// The optimal string alignment distance of `a` and `b` if it is at most `max`: only the cells
/// within `max` of the diagonal are filled (a path through any other costs more than `max`), in
/// three rows.
fn osa(a: &[char], b: &[char], max: usize) -> Option<usize> {
    const FAR: usize = usize::MAX / 2;
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let width = b.len() + 1;
    let mut two_back = vec![FAR; width];
    let mut last: Vec<usize> = (0..width).map(|j| if j <= max { j } else { FAR }).collect();
    let mut row = vec![FAR; width];
    for i in 1..=a.len() {
        row.fill(FAR);
        if i <= max {
            row[0] = i;
        }
        let from = i.saturating_sub(max).max(1);
        let to = (i + max).min(b.len());
        for j in from..=to {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(two_back[j - 2] + 1);
            }
            row[j] = best.min(FAR);
        }
        std::mem::swap(&mut two_back, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    let d = last[b.len()];
    (d <= max).then_some(d)
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

    #[test]
    fn the_bounded_distance_agrees_with_the_full_one() {
        use super::{edit_distance, edit_distance_within};
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "side",
            "sied",
            "sdie",
            "units",
            "unit",
            "kitten",
            "sitting",
            "map",
            "mpa",
            "abcdef",
            "badcfe",
            "ca",
            "abc",
            "\u{e9}t\u{e9}",
            "ete",
        ];
        for a in words {
            for b in words {
                let full = edit_distance(a, b);
                for max in 0..4 {
                    let want = (full <= max).then_some(full);
                    assert_eq!(edit_distance_within(a, b, max), want, "{a:?} {b:?} {max}");
                }
            }
        }
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    #[test]
    fn a_huge_name_is_compared_in_linear_time() {
        let huge = "u".repeat(10_000_000);
        let known = ["units", "hex", "uuu"];
        let t = std::time::Instant::now();
        assert_eq!(nearest(&huge, &known).as_deref(), Some("uuu"));
        assert_eq!(nearest(&format!("x{huge}"), &known), None);
        assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
    }
}
