//! The HTML report of `kessel report -o`: one file, no scripts, no fonts or images from the
//! network; every chart is inline SVG written here by hand (same data, same bytes).
//!
//! Charts: victory levels with their Wilson intervals; the distribution of the VP difference per
//! profile; VP by game-turn with bands (95% interval of the mean, and the middle 80% of games);
//! the paired per-seed change; and a map of how often each objective was held by each side at the
//! end. The map draws flat-topped hexes in vertical columns from the header's map layout; it is
//! kept small and self-contained here so it can give way to a shared drawing model later.

use super::record::{Data, GameRecord, Header};
use super::summary::{self, Summary};
use crate::stats;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Text escaped for SVG and HTML.
fn esc(s: &str) -> String {
    kessel_core::error::xml_text(s)
}

/// Colours for profiles, in header order.
const PROFILE_COLOURS: [&str; 6] = [
    "#1f77b4", "#e67e22", "#2ca02c", "#9467bd", "#8c564b", "#17becf",
];
/// Colours for sides, in the statistics' side order.
const SIDE_COLOURS: [&str; 4] = ["#34495e", "#c0392b", "#27ae60", "#8e44ad"];
/// Chart width.
const W: f64 = 900.0;
/// Left margin of a chart (labels).
const LEFT: f64 = 190.0;
/// Right margin.
const RIGHT: f64 = 30.0;
/// Font stack.
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

fn colour(list: &[&'static str], i: usize) -> &'static str {
    list[i % list.len()]
}

/// Round tick values covering `[lo, hi]`, about `n` of them.
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = (hi - lo).abs().max(1e-9);
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.1}")
    }
}

/// A linear scale from data to pixels.
#[derive(Clone, Copy)]
struct Scale {
    d0: f64,
    d1: f64,
    p0: f64,
    p1: f64,
}

impl Scale {
    fn new(d0: f64, d1: f64, p0: f64, p1: f64) -> Scale {
        let (d0, d1) = if (d1 - d0).abs() < 1e-9 {
            (d0 - 1.0, d1 + 1.0)
        } else {
            (d0, d1)
        };
        Scale { d0, d1, p0, p1 }
    }

    fn at(&self, x: f64) -> f64 {
        self.p0 + (x - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }
}

fn svg_open(out: &mut String, h: f64, label: &str) {
    let _ = write!(
        out,
        r##"<svg width="{W}" height="{h:.0}" viewBox="0 0 {W} {h:.0}" role="img" aria-label="{}" font-family="{FONT}" font-size="12">"##,
        esc(label)
    );
}

/// A vertical grid with value labels under it, from `top` to `bottom`.
fn x_grid(out: &mut String, x: Scale, lo: f64, hi: f64, top: f64, bottom: f64, unit: &str) {
    for t in ticks(lo, hi, 8) {
        let px = x.at(t);
        let _ = write!(
            out,
            r##"<line x1="{px:.1}" y1="{top:.1}" x2="{px:.1}" y2="{bottom:.1}" stroke="{}" stroke-width="1"/><text x="{px:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}{unit}</text>"##,
            if t == 0.0 { "#888" } else { "#e3e3e3" },
            bottom + 14.0,
            num(t)
        );
    }
}

/// Victory levels in rank order: per level one bar per profile (share of finished games) with the
/// Wilson interval as a whisker.
fn levels_chart(s: &Summary) -> String {
    let mut out = String::new();
    let levels: Vec<String> = {
        let mut l: Vec<String> = Vec::new();
        for p in &s.profiles {
            for (name, _, _) in &p.levels {
                if !l.contains(name) {
                    l.push(name.clone());
                }
            }
        }
        l
    };
    let np = s.profiles.len().max(1);
    let bar = 14.0;
    let group = bar * np as f64 + 12.0;
    let top = 30.0;
    let h = top + group * levels.len() as f64 + 44.0;
    svg_open(&mut out, h, "victory levels");
    let x = Scale::new(0.0, 1.0, LEFT, W - RIGHT);
    x_grid(&mut out, x, 0.0, 1.0, top - 6.0, h - 38.0, "");
    legend_profiles(&mut out, s, 10.0);
    for (li, level) in levels.iter().enumerate() {
        let y0 = top + group * li as f64;
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT - 8.0,
            y0 + group / 2.0,
            esc(level)
        );
        for (pi, p) in s.profiles.iter().enumerate() {
            let Some((_, k, ci)) = p.levels.iter().find(|(n, _, _)| n == level) else {
                continue;
            };
            if p.finished == 0 {
                continue;
            }
            let share = *k as f64 / p.finished as f64;
            let y = y0 + bar * pi as f64;
            let c = colour(&PROFILE_COLOURS, pi);
            let _ = write!(
                out,
                r##"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{c}" opacity="0.8"><title>{}: {k} of {} ({:.1}%, 95% interval {:.1}–{:.1}%)</title></rect>"##,
                x.at(0.0),
                (x.at(share) - x.at(0.0)).max(0.5),
                bar - 3.0,
                esc(&p.name),
                p.finished,
                100.0 * share,
                100.0 * ci.lo,
                100.0 * ci.hi
            );
            let ym = y + (bar - 3.0) / 2.0;
            let _ = write!(
                out,
                r##"<line x1="{:.1}" y1="{ym:.1}" x2="{:.1}" y2="{ym:.1}" stroke="#222" stroke-width="1.5"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#222"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#222"/>"##,
                x.at(ci.lo),
                x.at(ci.hi),
                x.at(ci.lo),
                ym - 4.0,
                x.at(ci.lo),
                ym + 4.0,
                x.at(ci.hi),
                ym - 4.0,
                x.at(ci.hi),
                ym + 4.0
            );
        }
    }
    let _ = write!(
        out,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">share of finished games (bars) with 95% Wilson intervals (whiskers)</text>"##,
        (LEFT + W - RIGHT) / 2.0,
        h - 2.0
    );
    out.push_str("</svg>");
    out
}

fn legend_profiles(out: &mut String, s: &Summary, y: f64) {
    let mut x = LEFT;
    for (i, p) in s.profiles.iter().enumerate() {
        let _ = write!(
            out,
            r##"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"##,
            y - 10.0,
            colour(&PROFILE_COLOURS, i),
            x + 16.0,
            y,
            esc(&p.name)
        );
        x += 30.0 + 8.0 * p.name.chars().count() as f64;
    }
}

/// The narrowest VP axis a histogram draws.
const MIN_VP_SPAN: f64 = 8.0;

/// A histogram per row (one row per labelled sample) on a common x-axis, with each sample's mean
/// and the 95% interval of the mean marked.
fn histograms(
    rows: &[(String, &'static str, Vec<f64>)],
    unit_label: &str,
    zero_line: bool,
) -> String {
    let mut out = String::new();
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|(_, _, xs)| xs.iter().copied())
        .collect();
    let (mut lo, mut hi) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(*x), b.max(*x))
        });
    if all.is_empty() {
        lo = -1.0;
        hi = 1.0;
    }
    if zero_line {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    // VP are whole numbers: an axis a few VP wide at least, so that games that all ended alike
    // (a paired difference of 0 on every seed) still get a readable scale
    if hi - lo < MIN_VP_SPAN {
        let mid = ((lo + hi) / 2.0).round();
        lo = mid - MIN_VP_SPAN / 2.0;
        hi = mid + MIN_VP_SPAN / 2.0;
    }
    // about 20 bins of a round width (a whole VP at least), edges on multiples of it
    let width = ticks(0.0, hi - lo, 20)
        .get(1)
        .copied()
        .unwrap_or(1.0)
        .max(1.0);
    let start = (lo / width).floor() * width;
    let bins = (((hi - start) / width).floor() as usize + 1).max(1);
    let end = start + width * bins as f64;
    let row_h = 90.0;
    let top = 10.0;
    let h = top + row_h * rows.len() as f64 + 40.0;
    svg_open(&mut out, h, unit_label);
    let x = Scale::new(start, end, LEFT, W - RIGHT);
    x_grid(&mut out, x, start, end, top, h - 34.0, "");
    for (ri, (label, c, xs)) in rows.iter().enumerate() {
        let y0 = top + row_h * ri as f64;
        let mut counts = vec![0usize; bins];
        for v in xs {
            let b = (((v - start) / width).floor() as usize).min(bins - 1);
            counts[b] += 1;
        }
        let max = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let m = stats::mean_ci(xs);
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555" font-size="11">n {} · mean {:+.1}</text>"##,
            LEFT - 8.0,
            y0 + row_h / 2.0 - 4.0,
            esc(label),
            LEFT - 8.0,
            y0 + row_h / 2.0 + 11.0,
            xs.len(),
            m.mean
        );
        if let Some(ci) = m.ci {
            let _ = write!(
                out,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{c}" opacity="0.15"><title>95% interval of the mean: {:+.1} to {:+.1}</title></rect>"##,
                x.at(ci.lo),
                y0 + 4.0,
                (x.at(ci.hi) - x.at(ci.lo)).max(1.0),
                row_h - 12.0,
                ci.lo,
                ci.hi
            );
        }
        for (b, n) in counts.iter().enumerate() {
            if *n == 0 {
                continue;
            }
            let bh = (row_h - 16.0) * *n as f64 / max;
            let x0 = x.at(start + width * b as f64);
            let x1 = x.at(start + width * (b + 1) as f64);
            let _ = write!(
                out,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{c}" opacity="0.75"><title>{} to {}: {n} game{}</title></rect>"##,
                x0 + 0.5,
                y0 + row_h - 8.0 - bh,
                (x1 - x0 - 1.0).max(0.5),
                num(start + width * b as f64),
                num(start + width * (b + 1) as f64),
                if *n == 1 { "" } else { "s" }
            );
        }
        if !xs.is_empty() {
            let _ = write!(
                out,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#111" stroke-width="2" stroke-dasharray="4 2"/>"##,
                x.at(m.mean),
                y0 + 2.0,
                x.at(m.mean),
                y0 + row_h - 6.0
            );
        }
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#999"/>"##,
            y0 + row_h - 8.0,
            W - RIGHT,
            y0 + row_h - 8.0
        );
    }
    let _ = write!(
        out,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{} (bars: games; dashed: mean; shaded: its 95% interval)</text>"##,
        (LEFT + W - RIGHT) / 2.0,
        h - 4.0,
        esc(unit_label)
    );
    out.push_str("</svg>");
    out
}

/// VP by game-turn for one profile: per side the mean (line), its 95% interval (dark band) and
/// the middle 80% of games (light band).
fn per_turn_chart(header: &Header, games: &[&GameRecord], title: &str) -> String {
    let mut out = String::new();
    let sides = summary::side_order(header);
    // turn → side → values
    let mut by_turn: BTreeMap<u32, BTreeMap<&str, Vec<f64>>> = BTreeMap::new();
    for g in games {
        for t in &g.per_turn {
            for s in &sides {
                if let Some(v) = t.scores.get(s) {
                    by_turn
                        .entry(t.turn)
                        .or_default()
                        .entry(s.as_str())
                        .or_default()
                        .push(*v);
                }
            }
        }
    }
    let h = 260.0;
    let (top, bottom) = (30.0, h - 40.0);
    svg_open(&mut out, h, title);
    let turns: Vec<u32> = by_turn.keys().copied().collect();
    let (t0, t1) = (
        turns.first().copied().unwrap_or(1) as f64,
        turns.last().copied().unwrap_or(1) as f64,
    );
    let vmax = by_turn
        .values()
        .flat_map(|m| m.values().flatten())
        .fold(0.0_f64, |a, b| a.max(*b));
    let vmin = by_turn
        .values()
        .flat_map(|m| m.values().flatten())
        .fold(0.0_f64, |a, b| a.min(*b));
    let x = Scale::new(t0, t1, LEFT, W - RIGHT);
    let y = Scale::new(vmin, vmax.max(1.0), bottom, top);
    for t in ticks(vmin, vmax.max(1.0), 5) {
        let py = y.at(t);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#e3e3e3"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            py + 4.0,
            num(t)
        );
    }
    for t in &turns {
        let px = x.at(f64::from(*t));
        let _ = write!(
            out,
            r##"<text x="{px:.1}" y="{:.1}" text-anchor="middle" fill="#555">{t}</text>"##,
            bottom + 16.0
        );
    }
    let _ = write!(
        out,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" font-weight="bold">{}</text><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">VP at the end of</text><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">each game-turn</text>"##,
        LEFT - 40.0,
        top + 10.0,
        esc(title),
        LEFT - 40.0,
        top + 30.0,
        LEFT - 40.0,
        top + 45.0
    );
    for (si, s) in sides.iter().enumerate() {
        let c = colour(&SIDE_COLOURS, si);
        let mut mean = Vec::new();
        let mut ci_band = (Vec::new(), Vec::new());
        let mut mid_band = (Vec::new(), Vec::new());
        for (t, m) in &by_turn {
            let Some(xs) = m.get(s.as_str()) else {
                continue;
            };
            let px = x.at(f64::from(*t));
            let mc = stats::mean_ci(xs);
            mean.push((px, y.at(mc.mean)));
            let ci = mc.ci.unwrap_or(stats::Interval {
                lo: mc.mean,
                hi: mc.mean,
            });
            // the axis spans the games' VP; an interval of a few games reaches far beyond it
            // (±146 VP over two games) and its band was drawn up over the legend and down over
            // the game-turn numbers: it is cut at the plot's edges
            let inside = |v: f64| y.at(v).clamp(top, bottom);
            ci_band.0.push((px, inside(ci.hi)));
            ci_band.1.push((px, inside(ci.lo)));
            let q10 = stats::quantile(xs, 0.1).unwrap_or(mc.mean);
            let q90 = stats::quantile(xs, 0.9).unwrap_or(mc.mean);
            mid_band.0.push((px, inside(q90)));
            mid_band.1.push((px, inside(q10)));
        }
        for (band, opacity) in [(&mid_band, 0.12), (&ci_band, 0.3)] {
            let pts: Vec<String> = band
                .0
                .iter()
                .chain(band.1.iter().rev())
                .map(|(a, b)| format!("{a:.1},{b:.1}"))
                .collect();
            if !pts.is_empty() {
                let _ = write!(
                    out,
                    r##"<polygon points="{}" fill="{c}" opacity="{opacity}"/>"##,
                    pts.join(" ")
                );
            }
        }
        let pts: Vec<String> = mean.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        let _ = write!(
            out,
            r##"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2.5"/>"##,
            pts.join(" ")
        );
        for (a, b) in &mean {
            let _ = write!(
                out,
                r##"<circle cx="{a:.1}" cy="{b:.1}" r="3" fill="{c}"/>"##
            );
        }
        let lx = LEFT + 10.0 + 140.0 * si as f64;
        let _ = write!(
            out,
            r##"<rect x="{lx:.1}" y="8" width="12" height="12" fill="{c}"/><text x="{:.1}" y="18">{}</text>"##,
            lx + 16.0,
            esc(s)
        );
    }
    let _ = write!(
        out,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">game-turn (line: mean; dark band: its 95% interval; light band: middle 80% of games)</text>"##,
        (LEFT + W - RIGHT) / 2.0,
        h - 4.0
    );
    out.push_str("</svg>");
    out
}

/// Mixes two `#rrggbb` colours: `t` = 0 gives `a`, 1 gives `b`.
fn mix(a: &str, b: &str, t: f64) -> String {
    let rgb = |s: &str| -> [f64; 3] {
        let v = u32::from_str_radix(s.trim_start_matches('#'), 16).unwrap_or(0);
        [
            f64::from((v >> 16) & 0xff),
            f64::from((v >> 8) & 0xff),
            f64::from(v & 0xff),
        ]
    };
    let (x, y) = (rgb(a), rgb(b));
    let c: Vec<u8> = (0..3)
        .map(|i| (x[i] + (y[i] - x[i]) * t.clamp(0.0, 1.0)).round() as u8)
        .collect();
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The objectives on a hex map, coloured by the share of finished games in which the first side
/// of the statistics held each at the end (the other side's colour at 0%, grey where nobody
/// held it).
fn objective_map(header: &Header, games: &[&GameRecord], title: &str) -> String {
    let mut out = String::new();
    let sides = summary::side_order(header);
    let (Some(a), Some(b)) = (sides.first(), sides.get(1)) else {
        return out;
    };
    let hexes: Vec<(i32, i32)> = header
        .objectives
        .iter()
        .flat_map(|o| o.hexes.iter().map(|h| (h.col, h.row)))
        .collect();
    if hexes.is_empty() {
        return out;
    }
    let pad = 2;
    let cmin = (hexes.iter().map(|h| h.0).min().unwrap_or(0) - pad).max(0);
    let cmax = (hexes.iter().map(|h| h.0).max().unwrap_or(0) + pad)
        .min(header.map.columns as i32 - 1)
        .max(cmin);
    let rmin = (hexes.iter().map(|h| h.1).min().unwrap_or(0) - pad).max(0);
    let rmax = (hexes.iter().map(|h| h.1).max().unwrap_or(0) + pad)
        .min(header.map.rows as i32 - 1)
        .max(rmin);
    let ncols = f64::from(cmax - cmin + 1);
    let nrows = f64::from(rmax - rmin + 1);
    // flat-topped hexes: radius s, columns 1.5 s apart, rows √3 s apart, lower columns +½ row
    let sqrt3 = 3f64.sqrt();
    let s = ((W - 40.0) / (1.5 * ncols + 0.5)).min(20.0);
    let top = 40.0;
    let h = top + (nrows + 0.5) * sqrt3 * s + 64.0;
    let map_w = (1.5 * ncols + 0.5) * s;
    let left = ((W - map_w) / 2.0).max(10.0);
    let centre = |col: i32, row: i32| -> (f64, f64) {
        let lower = header.map.lower.get(col as usize).copied().unwrap_or(false);
        (
            left + s + 1.5 * s * f64::from(col - cmin),
            top + sqrt3 * s * (f64::from(row - rmin) + 0.5 + if lower { 0.5 } else { 0.0 }),
        )
    };
    let poly = |cx: f64, cy: f64| -> String {
        (0..6)
            .map(|i| {
                let ang = std::f64::consts::PI / 3.0 * f64::from(i);
                format!("{:.1},{:.1}", cx + s * ang.cos(), cy + s * ang.sin())
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    svg_open(&mut out, h, title);
    let _ = write!(
        out,
        r##"<text x="10" y="18" font-weight="bold">{}</text>"##,
        esc(title)
    );
    for col in cmin..=cmax {
        for row in rmin..=rmax {
            let (cx, cy) = centre(col, row);
            let _ = write!(
                out,
                r##"<polygon points="{}" fill="#f4f1e8" stroke="#d5d0c0" stroke-width="0.8"/>"##,
                poly(cx, cy)
            );
        }
    }
    let (ca, cb) = (colour(&SIDE_COLOURS, 0), colour(&SIDE_COLOURS, 1));
    let n = games.len();
    for o in &header.objectives {
        let end = |g: &GameRecord| -> Option<String> {
            g.per_turn
                .last()
                .and_then(|t| t.control.get(&o.name).cloned().flatten())
        };
        let held_a = games
            .iter()
            .filter(|g| end(g).as_deref() == Some(a))
            .count();
        let held_b = games
            .iter()
            .filter(|g| end(g).as_deref() == Some(b))
            .count();
        let share_a = if n == 0 {
            0.0
        } else {
            held_a as f64 / n as f64
        };
        let share_b = if n == 0 {
            0.0
        } else {
            held_b as f64 / n as f64
        };
        // blend: a's colour by a's share, b's by b's, grey for the rest
        let fill = if held_a + held_b == 0 {
            "#bdbdbd".to_string()
        } else {
            let ab = mix(cb, ca, held_a as f64 / (held_a + held_b) as f64);
            mix("#bdbdbd", &ab, share_a + share_b)
        };
        for hx in &o.hexes {
            let (cx, cy) = centre(hx.col, hx.row);
            let _ = write!(
                out,
                r##"<polygon points="{}" fill="{fill}" stroke="#222" stroke-width="1.5"><title>{} {}: held by {a} in {held_a}, by {b} in {held_b} of {n} games</title></polygon>"##,
                poly(cx, cy),
                esc(&o.name),
                esc(&hx.label)
            );
        }
        if let Some(hx) = o.hexes.first() {
            let (cx, cy) = centre(hx.col, hx.row);
            // labels near the edges grow inwards, so they are not cut off
            let anchor = if cx > W - 140.0 {
                "end"
            } else if cx < 140.0 {
                "start"
            } else {
                "middle"
            };
            let _ = write!(
                out,
                r##"<text x="{cx:.1}" y="{:.1}" text-anchor="{anchor}" font-size="11" font-weight="bold" stroke="#fff" stroke-width="3" paint-order="stroke">{} {:.0}%</text>"##,
                cy - s * 0.9 - 2.0,
                esc(&o.name),
                100.0 * share_a
            );
        }
    }
    // legend: the colour ramp
    let ly = h - 44.0;
    for i in 0..=10 {
        let t = f64::from(i) / 10.0;
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{ly:.1}" width="20" height="12" fill="{}"/>"##,
            10.0 + 20.0 * f64::from(i),
            mix(cb, ca, t)
        );
    }
    let _ = write!(
        out,
        r##"<text x="10" y="{:.1}" fill="#555">{b}</text><text x="230" y="{:.1}" text-anchor="end" fill="#555">{a}</text><text x="245" y="{:.1}" fill="#555">colour: who held the objective at the end in {n} finished games; grey: nobody held</text><text x="245" y="{:.1}" fill="#555">all its hexes. Label: the share of games in which {a} held it.</text>"##,
        ly + 26.0,
        ly + 26.0,
        ly + 10.0,
        ly + 26.0,
        a = esc(a),
        b = esc(b)
    );
    out.push_str("</svg>");
    out
}

/// The options that differ between profiles, as table rows.
fn options_table(header: &Header) -> String {
    let mut out = String::new();
    let mut ids: Vec<&String> = header
        .profiles
        .iter()
        .flat_map(|p| p.options.keys())
        .collect();
    ids.sort();
    ids.dedup();
    let differs = |id: &String| {
        let vals: Vec<Option<&serde_json::Value>> =
            header.profiles.iter().map(|p| p.options.get(id)).collect();
        vals.windows(2).any(|w| w[0] != w[1])
    };
    let show = |id: &String, out: &mut String| {
        // the option's rule case and what it means, where the data file says
        let note = header
            .option_notes
            .get(id)
            .map(|n| format!("<br><small>{}</small>", esc(n)))
            .unwrap_or_default();
        let _ = write!(out, "<tr><td><code>{}</code>{note}</td>", esc(id));
        for p in &header.profiles {
            let v = p.options.get(id).map_or("—".to_string(), |v| v.to_string());
            let _ = write!(out, "<td>{}</td>", esc(&v));
        }
        out.push_str("</tr>");
    };
    let head = |out: &mut String| {
        out.push_str("<tr><th>option</th>");
        for p in &header.profiles {
            let _ = write!(out, "<th>{}</th>", esc(&p.name));
        }
        out.push_str("</tr>");
    };
    if header.profiles.len() > 1 {
        out.push_str("<table>");
        head(&mut out);
        let mut any = false;
        for id in ids.iter().filter(|id| differs(id)) {
            show(id, &mut out);
            any = true;
        }
        if !any {
            out.push_str("<tr><td colspan=\"9\">no option differs</td></tr>");
        }
        out.push_str("</table>");
    }
    out.push_str("<details><summary>every option</summary><table>");
    head(&mut out);
    for id in &ids {
        show(id, &mut out);
    }
    out.push_str("</table></details>");
    out
}

/// The whole page: self-contained (inline CSS and SVG, nothing fetched).
pub fn report(all: &Data, s: &Summary, text: &str) -> String {
    // the charts show the usual games (one per seed); the text says how the spread splits
    let usual = all.usual();
    let data = &usual;
    let h = &data.header;
    let mut out = String::new();
    let title = format!("Balance report: {}", h.scenario.name);
    let _ = write!(
        out,
        r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{}</title>
<style>
body {{ font-family: {FONT}; margin: 24px auto; max-width: 940px; color: #222; }}
h1 {{ font-size: 22px; }} h2 {{ font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; }}
pre {{ background: #f7f7f7; padding: 10px; font-size: 12px; overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: 12px; margin: 8px 0; }}
td, th {{ border: 1px solid #ddd; padding: 3px 8px; text-align: left; }}
.meta {{ color: #555; font-size: 12px; }}
svg {{ display: block; margin: 8px 0; }}
</style></head><body>
<h1>{}</h1>
"##,
        esc(&title),
        esc(&title)
    );
    let _ = write!(
        out,
        r##"<p class="meta">{} games · engine {} · scenario {} (<code>{}</code>) · ruleset {} (<code>{}</code>) · games stopped at {} actions count as unfinished</p>"##,
        data.games.len(),
        esc(&h.engine),
        esc(&h.scenario.name),
        esc(&h.scenario.hash),
        esc(&h.ruleset.name),
        esc(&h.ruleset.hash),
        h.max_actions
    );
    let _ = write!(out, "\n<h2>Statistics</h2>\n<pre>{}</pre>\n", esc(text));
    out.push_str("<h2>Victory levels</h2>\n");
    out.push_str(&levels_chart(s));
    let finished = |name: &str| -> Vec<&GameRecord> {
        data.games
            .iter()
            .filter(|g| g.profile == name && g.finished)
            .collect()
    };
    let sides = summary::side_order(h);
    let diff_label = summary::difference_label(&sides);
    if let Some(label) = &diff_label {
        let _ = writeln!(out, "<h2>VP difference ({}) per game</h2>", esc(label));
        let rows: Vec<(String, &'static str, Vec<f64>)> = h
            .profiles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let xs = finished(&p.name)
                    .iter()
                    .filter_map(|g| {
                        summary::vp_rows(h, &g.scores)
                            .iter()
                            .find(|(l, _)| l == label)
                            .map(|(_, v)| *v)
                    })
                    .collect();
                (p.name.clone(), colour(&PROFILE_COLOURS, i), xs)
            })
            .collect();
        out.push_str(&histograms(&rows, &format!("{label} VP"), false));
    }
    out.push_str("<h2>VP by game-turn</h2>\n");
    for p in &h.profiles {
        out.push_str(&per_turn_chart(h, &finished(&p.name), &p.name));
    }
    if !s.paired.is_empty() {
        out.push_str("<h2>Paired difference, seed by seed</h2>\n");
        let rows: Vec<(String, &'static str, Vec<f64>)> = s
            .paired
            .iter()
            .enumerate()
            .map(|(i, pr)| {
                (
                    format!("{} − {}", pr.a, pr.b),
                    colour(&PROFILE_COLOURS, i + 1),
                    pr.key_values.clone(),
                )
            })
            .collect();
        let what = match (s.paired.first().and_then(|p| p.key()), &diff_label) {
            (Some((l, _)), _) => format!("change in {l} VP on the same seed"),
            (None, _) => "change in VP on the same seed".to_string(),
        };
        out.push_str(&histograms(&rows, &what, true));
        for pr in &s.paired {
            if let Some((label, m)) = pr.key() {
                let _ = writeln!(
                    out,
                    "<p><b>{} − {}</b>, {}: {}</p>",
                    esc(&pr.a),
                    esc(&pr.b),
                    esc(label),
                    esc(&summary::verdict(m))
                );
            }
        }
    }
    if !h.objectives.is_empty() {
        out.push_str("<h2>Objectives at the end</h2>\n");
        for p in &h.profiles {
            out.push_str(&objective_map(h, &finished(&p.name), &p.name));
        }
    }
    out.push_str("<h2>Profiles</h2>\n");
    out.push_str(&options_table(h));
    out.push_str("\n</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        let text = |v: Vec<f64>| v.into_iter().map(num).collect::<Vec<_>>().join(" ");
        assert_eq!(text(ticks(0.0, 1.0, 5)), "0 0.2 0.4 0.6 0.8 1");
        assert_eq!(text(ticks(-30.0, 45.0, 8)), "-30 -20 -10 0 10 20 30 40");
    }

    /// The tick labels of a chart's x-axis, in order.
    fn tick_labels(svg: &str) -> Vec<String> {
        svg.split(r##"text-anchor="middle" fill="#555">"##)
            .skip(1)
            .filter_map(|rest| rest.split('<').next().map(str::to_string))
            // (the caption below the axis is set the same way)
            .filter(|label| !label.contains(' '))
            .collect()
    }

    #[test]
    fn a_histogram_of_identical_games_has_a_readable_whole_vp_axis() {
        // every paired seed unchanged: the difference is 0 for all of them
        let rows = vec![("a − b".to_string(), "#123456", vec![0.0; 6])];
        let svg = histograms(&rows, "change", true);
        let labels = tick_labels(&svg);
        assert!(labels.len() >= 5, "{labels:?}");
        assert!(
            labels.iter().all(|l| l.parse::<i64>().is_ok()),
            "{labels:?}"
        );
        let mut unique = labels.clone();
        unique.dedup();
        assert_eq!(unique, labels, "no label twice");
        assert!(labels.contains(&"0".to_string()), "{labels:?}");
        // one bar, a whole VP wide, holding all six games
        assert!(svg.contains("0 to 1: 6 games"), "{svg}");
    }

    #[test]
    fn the_summary_keeps_its_lines_and_loses_control_characters() {
        // the Statistics block is the text summary in a <pre>: its lines must stay lines
        assert_eq!(esc("a\n  b\u{1b}[1m"), "a\n  b\\u{1b}[1m");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(mix("#000000", "#ffffff", 0.5), "#808080");
    }
}
