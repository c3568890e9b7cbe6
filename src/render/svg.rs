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

/// Escapes text for XML content and attribute values (see [`kessel_core::error::xml_text`]).
pub fn esc(s: &str) -> String {
    kessel_core::error::xml_text(s)
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
        // no character XML refuses gets through; line breaks, which it holds, stay
        assert_eq!(esc("Toy\u{1}valley\r\n"), "Toy\\u{1}valley\\u{d}\n");
    }
}
