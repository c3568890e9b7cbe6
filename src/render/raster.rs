//! SVG → PNG with resvg. Text uses the machine's fonts when it has them, and falls back on the
//! fonts bundled with egui (Ubuntu Light) so a machine without any font still gets readable labels.

use anyhow::{anyhow, Context};
use resvg::{tiny_skia, usvg};

/// The most pixels a PNG is drawn with (64 million, 8192×8192: about 640 MB while drawing).
pub const MAX_PIXELS: u64 = 64_000_000;

/// Rasterises SVG text to PNG bytes, `scale` pixels per SVG unit.
pub fn svg_to_png(svg: &str, scale: f32) -> anyhow::Result<Vec<u8>> {
    if !scale.is_finite() || !(0.05..=10.0).contains(&scale) {
        anyhow::bail!("scale must be between 0.05 and 10, not {scale}");
    }
    let mut opt = usvg::Options::default();
    {
        let db = opt.fontdb_mut();
        db.load_system_fonts();
        db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
        db.load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
        db.set_sans_serif_family("Ubuntu");
    }
    let tree = usvg::Tree::from_str(svg, &opt).context("the SVG could not be parsed")?;
    let size = tree.size();
    let (width, height) = (
        f64::from((size.width() * scale).ceil()),
        f64::from((size.height() * scale).ceil()),
    );
    // (a 99×99 map at --scale 10 was a 36520×43960 picture: 12.7 GB and 50 s)
    if width * height > MAX_PIXELS as f64 {
        let largest = (MAX_PIXELS as f64 / f64::from(size.width() * size.height())).sqrt();
        anyhow::bail!(
            "a {width}×{height} picture is more than {} million pixels, the most kessel draws: \
             give --scale {:.2} or less for this map, or draw an SVG",
            MAX_PIXELS / 1_000_000,
            (largest * 100.0).floor() / 100.0
        );
    }
    let (width, height) = (width as u32, height as u32);
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| anyhow!("cannot make a {width}×{height} picture"))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let png = pixmap.encode_png().context("PNG encoding failed")?;
    Ok(with_software_text(png, super::MARK))
}

/// The PNG `png` with a `tEXt` chunk `Software` = `software` right after its header chunk (how
/// Kessel recognises its own pictures when asked to draw over one); unchanged if `png` does not
/// begin with a header chunk.
fn with_software_text(png: Vec<u8>, software: &str) -> Vec<u8> {
    // signature (8) + IHDR: length (4), type (4), 13 bytes of data, CRC (4)
    const AFTER_IHDR: usize = 8 + 4 + 4 + 13 + 4;
    if png.len() < AFTER_IHDR || &png[12..16] != b"IHDR" {
        return png;
    }
    let mut chunk = b"tEXtSoftware\0".to_vec();
    chunk.extend_from_slice(software.as_bytes());
    let mut out = Vec::with_capacity(png.len() + chunk.len() + 8);
    out.extend_from_slice(&png[..AFTER_IHDR]);
    out.extend_from_slice(&((chunk.len() - 4) as u32).to_be_bytes());
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&crc32fast::hash(&chunk).to_be_bytes());
    out.extend_from_slice(&png[AFTER_IHDR..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_svg_becomes_a_png_of_the_scaled_size() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10"><rect width="20" height="10" fill="#f00"/><text x="2" y="8" font-size="6">1</text></svg>"##;
        let png = svg_to_png(svg, 2.0).expect("renders");
        assert_eq!(&png[1..4], b"PNG");
        // IHDR: width and height, big-endian, at bytes 16..24
        assert_eq!(u32::from_be_bytes([png[16], png[17], png[18], png[19]]), 40);
        assert_eq!(u32::from_be_bytes([png[20], png[21], png[22], png[23]]), 20);
        assert!(svg_to_png(svg, 0.0).is_err());
        assert!(svg_to_png("<svg", 1.0).is_err());
        // a picture too big to draw is refused before its pixels are made, with a scale that fits
        let huge = r#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"/>"#;
        let e = svg_to_png(huge, 10.0).expect_err("too big").to_string();
        assert!(e.contains("--scale 2.00 or less"), "{e}");
    }
}
