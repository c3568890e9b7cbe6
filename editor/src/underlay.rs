//! Tracing a printed map: a picture (a scan or photo, PNG) shown under the hexes at an opacity the
//! user picks, fitted to the grid by three points — a spot on the picture and the hex whose centre
//! it is. The picture's path, opacity and points are kept beside the map in `<map>.underlay.toml`,
//! never inside the map data, so a map traced this way holds only what the user painted.

use crate::map_view::world_layout;
use crate::paint;
use anyhow::Context as _;
use egui::{Pos2, TextureHandle};
use kessel_core::map::Map;
use std::path::{Path, PathBuf};

/// A spot on the picture (pixels from its top-left corner) and the hex whose centre it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FitPoint {
    /// Pixel position on the picture.
    pub pixel: [f32; 2],
    /// The hex's label (`0815`).
    pub hex: String,
}

/// Picture pixels → map (world) coordinates: `x = a·u + b·v + c`, `y = d·u + e·v + f`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine(pub [f32; 6]);

impl Affine {
    /// The world point of a picture pixel.
    pub fn apply(&self, p: [f32; 2]) -> Pos2 {
        let [a, b, c, d, e, f] = self.0;
        Pos2::new(a * p[0] + b * p[1] + c, d * p[0] + e * p[1] + f)
    }

    /// The picture pixel of a world point (none if the transform is degenerate).
    pub fn invert(&self, w: Pos2) -> Option<[f32; 2]> {
        let [a, b, c, d, e, f] = self.0;
        let det = a * e - b * d;
        if det.abs() < 1e-9 {
            return None;
        }
        let (x, y) = (w.x - c, w.y - f);
        Some([(e * x - b * y) / det, (a * y - d * x) / det])
    }

    /// The transform taking three picture points to three world points; none when the points
    /// are on one line (they fix no plane).
    pub fn through(px: [[f32; 2]; 3], world: [Pos2; 3]) -> Option<Affine> {
        let det3 = |m: [[f32; 3]; 3]| {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        };
        let m = px.map(|p| [p[0], p[1], 1.0]);
        let det = det3(m);
        if det.abs() < 1e-6 {
            return None;
        }
        // Cramer's rule, once for x and once for y
        let solve = |rhs: [f32; 3]| {
            let col = |k: usize| {
                let mut mk = m;
                for (row, r) in mk.iter_mut().zip(rhs) {
                    row[k] = r;
                }
                det3(mk) / det
            };
            [col(0), col(1), col(2)]
        };
        let [a, b, c] = solve(world.map(|w| w.x));
        let [d, e, f] = solve(world.map(|w| w.y));
        Some(Affine([a, b, c, d, e, f]))
    }
}

/// A picture under the map.
pub struct Underlay {
    /// The picture file.
    pub path: PathBuf,
    /// 0 (hidden) to 1 (opaque).
    pub opacity: f32,
    /// Fit points; the first three fix the fit.
    pub points: Vec<FitPoint>,
    /// Picture size in pixels.
    pub size: [usize; 2],
    image: egui::ColorImage,
    texture: Option<TextureHandle>,
}

impl std::fmt::Debug for Underlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Underlay")
            .field("path", &self.path)
            .field("opacity", &self.opacity)
            .field("points", &self.points)
            .field("size", &self.size)
            .finish()
    }
}

impl Underlay {
    /// Reads a picture (PNG).
    pub fn open(path: &Path) -> anyhow::Result<Underlay> {
        let img = image::open(path)
            .with_context(|| format!("cannot read the picture {}", path.display()))?
            .to_rgba8();
        let size = [img.width() as usize, img.height() as usize];
        let image = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
        Ok(Underlay {
            path: path.to_path_buf(),
            opacity: 0.5,
            points: Vec::new(),
            size,
            image,
            texture: None,
        })
    }

    /// Where the picture lies on the map: fitted through the first three points when there are
    /// three usable ones, otherwise stretched over the map's extent.
    pub fn transform(&self, map: &Map) -> Affine {
        self.fitted(map).unwrap_or_else(|| {
            let (w, h) = world_layout(map).map_size(map);
            let [pw, ph] = self.size.map(|s| s.max(1) as f32);
            Affine([w / pw, 0.0, 0.0, 0.0, h / ph, 0.0])
        })
    }

    /// The fit through the first three points, if they name hexes of the map and are not on one
    /// line.
    pub fn fitted(&self, map: &Map) -> Option<Affine> {
        let layout = world_layout(map);
        let pts: Vec<(&FitPoint, Pos2)> = self
            .points
            .iter()
            .filter_map(|p| Some((p, paint::pos(layout.center(map.parse(&p.hex)?)))))
            .take(3)
            .collect();
        match pts.as_slice() {
            [a, b, c] => Affine::through([a.0.pixel, b.0.pixel, c.0.pixel], [a.1, b.1, c.1]),
            _ => None,
        }
    }

    /// The picture's corners on the map (world coordinates), clockwise from the top left.
    pub fn world_corners(&self, map: &Map) -> [Pos2; 4] {
        let t = self.transform(map);
        let [w, h] = self.size.map(|s| s as f32);
        [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]].map(|p| t.apply(p))
    }

    /// The picture as a texture (uploaded on first use), scaled down to the largest the graphics
    /// card takes: a scan wider than that (a map scanned at 600 dpi is 20,000 pixels long) hit
    /// the painter's size assertion and closed the editor. The mesh maps the texture by its
    /// corners, so a smaller texture lies over the same place.
    pub fn texture(&mut self, ctx: &egui::Context) -> egui::TextureId {
        let max_side = ctx.input(|i| i.max_texture_side);
        self.texture
            .get_or_insert_with(|| {
                ctx.load_texture(
                    "underlay",
                    fit_texture(&self.image, max_side),
                    Default::default(),
                )
            })
            .id()
    }

    /// `map.toml` → `map.underlay.toml`.
    pub fn sidecar(map_path: &Path) -> PathBuf {
        map_path.with_extension("underlay.toml")
    }

    /// Writes the picture's path (relative to the map's folder when it is inside it), opacity
    /// and points beside the map.
    pub fn save_beside(&self, map_path: &Path) -> anyhow::Result<()> {
        let dir = map_path.parent().unwrap_or(Path::new("."));
        let shown = self.path.strip_prefix(dir).unwrap_or(&self.path);
        let mut t = toml::Table::new();
        t.insert("image".into(), shown.display().to_string().into());
        t.insert("opacity".into(), f64::from(self.opacity).into());
        let points: Vec<toml::Value> = self
            .points
            .iter()
            .map(|p| {
                let mut pt = toml::Table::new();
                pt.insert("x".into(), f64::from(p.pixel[0]).into());
                pt.insert("y".into(), f64::from(p.pixel[1]).into());
                pt.insert("hex".into(), p.hex.clone().into());
                toml::Value::Table(pt)
            })
            .collect();
        t.insert("points".into(), points.into());
        let text = format!(
            "# The picture traced under {} (kessel editor): not part of the map.\n{}",
            map_path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            toml::to_string(&t)?
        );
        crate::document::write_atomic(&Underlay::sidecar(map_path), text.as_bytes())
    }

    /// Reads the underlay kept beside a map, if there is one.
    pub fn load_beside(map_path: &Path) -> anyhow::Result<Option<Underlay>> {
        let side = Underlay::sidecar(map_path);
        if !side.is_file() {
            return Ok(None);
        }
        let text = kessel_core::error::read_text(&side, "underlay")?;
        kessel_core::error::toml_bounds(&side, &text)?;
        let t: toml::Table = text
            .parse()
            .with_context(|| format!("{} is not TOML", side.display()))?;
        let image = t
            .get("image")
            .and_then(|v| v.as_str())
            .with_context(|| format!("{} names no image", side.display()))?;
        let dir = map_path.parent().unwrap_or(Path::new("."));
        let mut u = Underlay::open(&dir.join(image))?;
        if let Some(o) = t.get("opacity").and_then(|v| v.as_float()) {
            u.opacity = (o as f32).clamp(0.0, 1.0);
        }
        for p in t
            .get("points")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let num = |k: &str| {
                p.get(k)
                    .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
            };
            // (a spot at `nan` or `inf`, written by hand, is no spot: it made the whole fit NaN
            // and the picture vanished without a word)
            let spot = |k: &str| num(k).filter(|v| v.is_finite() && v.abs() <= f64::from(f32::MAX));
            if let (Some(x), Some(y), Some(hex)) =
                (spot("x"), spot("y"), p.get("hex").and_then(|v| v.as_str()))
            {
                u.points.push(FitPoint {
                    pixel: [x as f32, y as f32],
                    hex: hex.to_string(),
                });
            }
        }
        Ok(Some(u))
    }
}

/// `image` with neither side over `max_side` pixels: each square of k×k pixels averaged into one,
/// for the smallest whole k that fits (the image itself when it fits already).
fn fit_texture(image: &egui::ColorImage, max_side: usize) -> egui::ColorImage {
    let [w, h] = image.size;
    let k = w.max(h).div_ceil(max_side.max(1)).max(1);
    if k == 1 {
        return image.clone();
    }
    let (nw, nh) = (w.div_ceil(k), h.div_ceil(k));
    let mut pixels = Vec::with_capacity(nw * nh);
    for y in 0..nh {
        for x in 0..nw {
            let mut sum = [0u64; 4];
            let mut n = 0u64;
            for sy in y * k..((y + 1) * k).min(h) {
                for sx in x * k..((x + 1) * k).min(w) {
                    let c = image.pixels[sy * w + sx].to_array();
                    for (s, v) in sum.iter_mut().zip(c) {
                        *s += u64::from(v);
                    }
                    n += 1;
                }
            }
            // (n ≥ 1: a block starts inside the picture; each mean is at most 255)
            let [r, g, b, a] = sum.map(|s| u8::try_from(s / n.max(1)).unwrap_or(u8::MAX));
            pixels.push(egui::Color32::from_rgba_premultiplied(r, g, b, a));
        }
    }
    egui::ColorImage::new([nw, nh], pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_larger_than_a_texture_may_be_is_scaled_down_to_fit() {
        let (w, h) = (10, 3);
        let pixels = (0..w * h)
            .map(|i| egui::Color32::from_gray(if i % w < 3 { 30 } else { 90 }))
            .collect();
        let big = egui::ColorImage::new([w, h], pixels);
        let fitted = fit_texture(&big, 4);
        assert_eq!(fitted.size, [4, 1]);
        // the first block holds columns 0-2 (all 30), the second columns 3-5 (all 90), the last
        // column 9 alone
        assert_eq!(fitted.pixels[0], egui::Color32::from_gray(30));
        assert_eq!(fitted.pixels[1], egui::Color32::from_gray(90));
        assert_eq!(fitted.pixels[3], egui::Color32::from_gray(90));
        let small = fit_texture(&big, 10);
        assert_eq!((small.size, small.pixels.len()), ([10, 3], 30));
    }

    #[test]
    fn a_fit_point_that_is_no_number_is_left_out() {
        let dir = kessel_test_support::scratch("underlay-nan");
        image::RgbaImage::new(4, 4)
            .save(dir.join("scan.png"))
            .expect("png");
        let map = dir.join("map.toml");
        let points = [
            ("nan", "1.0", "0101"),
            ("inf", "2.0", "0102"),
            ("1e39", "2.0", "0103"),
        ];
        let mut text = "image = \"scan.png\"\n".to_string();
        for (x, y, hex) in points.iter().chain([&("3.0", "4.0", "0201")]) {
            text.push_str(&format!("[[points]]\nx = {x}\ny = {y}\nhex = \"{hex}\"\n"));
        }
        std::fs::write(Underlay::sidecar(&map), text).expect("sidecar");
        let u = Underlay::load_beside(&map)
            .expect("reads")
            .expect("an underlay");
        assert_eq!(u.points.len(), 1, "{:?}", u.points);
        assert_eq!(u.points[0].pixel, [3.0, 4.0]);
    }

    /// A picture wider than the context's largest texture (2048 where no painter said more)
    /// uploads: the debug build's size assertion stopped the editor.
    #[test]
    fn a_picture_wider_than_a_texture_may_be_uploads() {
        let dir = kessel_test_support::scratch("underlay-wide");
        let path = dir.join("scan.png");
        image::RgbaImage::from_pixel(3000, 4, image::Rgba([200, 100, 50, 255]))
            .save(&path)
            .expect("png");
        let mut u = Underlay::open(&path).expect("opens");
        let ctx = egui::Context::default();
        let max = ctx.input(|i| i.max_texture_side);
        assert!(max < 3000, "the test needs a picture wider than {max}");
        u.texture(&ctx);
        let size = u.texture.as_ref().expect("uploaded").size();
        assert!(size[0] <= max && size[1] >= 1, "{size:?}");
        // the picture keeps its own size: fit points are in its pixels
        assert_eq!(u.size, [3000, 4]);
    }

    #[test]
    fn three_points_fix_the_fit_and_it_inverts() {
        let px = [[10.0, 10.0], [110.0, 10.0], [10.0, 60.0]];
        let world = [
            Pos2::new(1.0, 2.0),
            Pos2::new(3.0, 2.0),
            Pos2::new(1.0, 4.0),
        ];
        let t = Affine::through(px, world).expect("a plane");
        for (p, w) in px.iter().zip(world) {
            assert!((t.apply(*p) - w).length() < 1e-4);
            let back = t.invert(w).expect("invertible");
            assert!((back[0] - p[0]).abs() < 1e-3 && (back[1] - p[1]).abs() < 1e-3);
        }
        let on_a_line = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]];
        assert!(Affine::through(on_a_line, world).is_none());
    }
}
