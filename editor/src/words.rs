//! Counts as the panels say them: "1 action", "2 actions", "1 hex", "3 hexes". Before, every
//! count was written with a plural ("Event log (1 actions)", "1 events", "1 notes in the log").

/// `n` and the noun, singular for one: `count(1, "action")` → "1 action", `count(2, "action")`
/// → "2 actions". A noun that does not take a plain `s` gives its plural with [`count_as`].
pub fn count(n: usize, one: &str) -> String {
    count_as(n, one, &format!("{one}s"))
}

/// `n` and the noun, `one` for one and `many` for any other number: `count_as(3, "hex",
/// "hexes")` → "3 hexes".
pub fn count_as(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::{count, count_as};

    #[test]
    fn one_is_singular_and_other_numbers_plural() {
        assert_eq!(count(0, "action"), "0 actions");
        assert_eq!(count(1, "action"), "1 action");
        assert_eq!(count(2, "event"), "2 events");
        assert_eq!(count_as(1, "hex", "hexes"), "1 hex");
        assert_eq!(count_as(5, "hex", "hexes"), "5 hexes");
    }
}
