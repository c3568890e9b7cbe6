//! Small SVG writing helpers: numbers with one decimal, points, escaping, paths.

use kessel_draw::{Point, Rgb};

/// A coordinate with at most one decimal, never `-0`.
pub fn n(v: f32) -> String {
    let t = (v as f64 * 10.0).round() as i64;
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    if a.is_multiple_of(10) {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// `x y`.
pub fn pt(p: Point) -> String {
    format!("{} {}", n(p.x), n(p.y))
}

/// A colour as SVG writes it.
pub fn hex(c: Rgb) -> String {
    c.to_hex()
}

/// Escapes text for XML content and attribute values. Control characters (which XML may not
/// hold at all, escaped or not: one in a unit's id made the whole picture unreadable) are written
/// as the messages write them, `\u{1}`, so the picture still draws and shows where they are.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push_str(&c.escape_unicode().to_string())
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A closed path through points.
pub fn polygon(points: &[Point]) -> String {
    let pts: Vec<String> = points.iter().map(|p| pt(*p)).collect();
    format!("M{}Z", pts.join("L"))
}

/// Text with a white halo.
pub const HALO: &str =
    r##"paint-order="stroke" stroke="#fff" stroke-width="2.4" stroke-linejoin="round""##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_stable() {
        assert_eq!(n(0.04), "0");
        assert_eq!(n(-0.04), "0");
        assert_eq!(n(12.25), "12.3");
        assert_eq!(n(-3.5), "-3.5");
        assert_eq!(n(20.78), "20.8");
        assert_eq!(esc("a<&>'\""), "a&lt;&amp;&gt;&#39;&quot;");
        // no character XML refuses gets through
        assert_eq!(esc("Toy\u{1}valley\n"), "Toy\\u{1}valley\\u{a}");
    }
}
