//! Colours as the ruleset writes them (`"#6f9a4f"`), and the one stable colour for a name no
//! declaration gives a colour to.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// A colour.
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// Parses `#rrggbb` or `#rgb` (the `#` is optional); anything else is `None`.
    pub fn parse(text: &str) -> Option<Rgb> {
        let t = text.trim();
        let t = t.strip_prefix('#').unwrap_or(t);
        if !t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |s: &str| u8::from_str_radix(s, 16).ok();
        match t.len() {
            6 => Some(Rgb::new(byte(&t[0..2])?, byte(&t[2..4])?, byte(&t[4..6])?)),
            3 => {
                let d = |i: usize| byte(&t[i..i + 1]).map(|v| v * 17);
                Some(Rgb::new(d(0)?, d(1)?, d(2)?))
            }
            _ => None,
        }
    }

    /// `#rrggbb`.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// A colour from hue (degrees), saturation and lightness (0..1).
    pub fn hsl(h: f32, s: f32, l: f32) -> Rgb {
        let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
        let hp = h.rem_euclid(360.0) / 60.0;
        let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
        let (r, g, b) = match hp as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let m = l - c / 2.0;
        let byte = |v: f32| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
        Rgb::new(byte(r), byte(g), byte(b))
    }

    /// Hue (degrees), saturation and lightness (0..1).
    pub fn to_hsl(self) -> (f32, f32, f32) {
        let (r, g, b) = (
            self.r as f32 / 255.0,
            self.g as f32 / 255.0,
            self.b as f32 / 255.0,
        );
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let l = (max + min) / 2.0;
        let d = max - min;
        if d == 0.0 {
            return (0.0, 0.0, l);
        }
        let s = d / (1.0 - (2.0 * l - 1.0).abs());
        let h = if max == r {
            60.0 * ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / d + 2.0)
        } else {
            60.0 * ((r - g) / d + 4.0)
        };
        (h, s, l)
    }

    /// This colour darkened (`f` < 1) or lightened towards white (`f` > 1).
    pub fn scaled(self, f: f32) -> Rgb {
        let ch = |v: u8| {
            let v = v as f32;
            let out = if f <= 1.0 {
                v * f
            } else {
                v + (255.0 - v) * (f - 1.0).min(1.0)
            };
            out.round().clamp(0.0, 255.0) as u8
        };
        Rgb::new(ch(self.r), ch(self.g), ch(self.b))
    }

    /// Perceived lightness, 0..255.
    pub fn luma(self) -> f32 {
        0.299 * self.r as f32 + 0.587 * self.g as f32 + 0.114 * self.b as f32
    }

    /// Dark or light ink, whichever reads better on this colour.
    pub fn ink_on(self) -> Rgb {
        if self.luma() > 140.0 {
            Rgb::new(17, 17, 17)
        } else {
            Rgb::new(250, 246, 235)
        }
    }
}

/// FNV-1a of a name: stable across runs and platforms, unlike std's `RandomState`.
pub fn name_hash(name: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// How light a colour derived from a name should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// For fills (terrain, counters).
    Light,
    /// For lines and text (hexsides, links, areas).
    Dark,
}

/// The stable colour of a name no declaration gives a colour to.
pub fn hashed(name: &str, tone: Tone) -> Rgb {
    let h = name_hash(name);
    let hue = (h % 360) as f32;
    let jitter = |shift: u32, span: u32| ((h >> shift) % span) as f32 / 100.0;
    match tone {
        Tone::Light => Rgb::hsl(hue, 0.45 + jitter(9, 20), 0.62 + jitter(17, 12)),
        Tone::Dark => Rgb::hsl(hue, 0.65 + jitter(9, 20), 0.33 + jitter(17, 10)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_and_print() {
        assert_eq!(Rgb::parse("#6f9a4f"), Some(Rgb::new(0x6f, 0x9a, 0x4f)));
        assert_eq!(Rgb::parse("fff"), Some(Rgb::new(255, 255, 255)));
        assert_eq!(Rgb::parse("#12345"), None);
        assert_eq!(Rgb::parse("green"), None);
        assert_eq!(Rgb::new(1, 2, 255).to_hex(), "#0102ff");
        assert_eq!(Rgb::hsl(0.0, 1.0, 0.5), Rgb::new(255, 0, 0));
        assert_eq!(Rgb::hsl(120.0, 1.0, 0.5), Rgb::new(0, 255, 0));
        let c = Rgb::new(0x8a, 0x5a, 0x2a);
        let (h, s, l) = c.to_hsl();
        assert_eq!(Rgb::hsl(h, s, l), c);
    }

    #[test]
    fn hashed_colours_are_stable_and_differ() {
        assert_eq!(
            hashed("quagmire", Tone::Light),
            hashed("quagmire", Tone::Light)
        );
        assert_ne!(
            hashed("quagmire", Tone::Light),
            hashed("tundra", Tone::Light)
        );
        assert!(hashed("x", Tone::Light).luma() > hashed("x", Tone::Dark).luma());
    }
}
