//! The map canvas: hex layout, pan and zoom, hit-testing, and drawing terrain, hexside features,
//! links, places, areas, VP hexes and counters.
//!
//! Geometry is in *world units* where a hex has radius 1 (centre to corner); [`MapView`] maps
//! world to screen with one zoom factor and one offset. Only hexes inside the visible rectangle
//! are drawn, so the cost per frame follows what is on screen, not the map size.

use crate::counters;
use crate::document::{Document, UnitLayer};
use egui::{
    Align2, Color32, FontId, Key, Painter, PointerButton, Pos2, Rect, Sense, Shape, Stroke, Ui,
    Vec2,
};
use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::Map;
use kessel_core::numbering::LowerColumns;
use kessel_core::state::Marker;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

const SQRT3: f32 = 1.732_050_8;

/// Where hexes sit in world units: flat-topped hexes of radius 1 in vertical columns, every other
/// column half a hex lower as the map's numbering says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexLayout {
    first_column: i32,
    lower: LowerColumns,
    columns: i32,
    rows: i32,
}

impl HexLayout {
    /// The layout of a map.
    pub fn of(map: &Map) -> HexLayout {
        HexLayout {
            first_column: map.numbering().first_column,
            lower: map.numbering().lower_columns,
            columns: map.columns() as i32,
            rows: map.rows() as i32,
        }
    }

    fn column_is_lower(&self, col: i32) -> bool {
        let even = (col + self.first_column).rem_euclid(2) == 0;
        even == (self.lower == LowerColumns::Even)
    }

    /// Centre of the hex at 0-based (column, row).
    pub fn center(&self, col: i32, row: i32) -> Pos2 {
        let shift = if self.column_is_lower(col) { 0.5 } else { 0.0 };
        Pos2::new(1.0 + 1.5 * col as f32, SQRT3 * (0.5 + row as f32 + shift))
    }

    /// Centre of a hex (on the map or not).
    pub fn hex_center(&self, map: &Map, hex: Hex) -> Pos2 {
        let (c, r) = map.offset(hex);
        self.center(c, r)
    }

    /// The (column, row) whose hex contains a world point: the nearest centre, which is exactly
    /// the hex on a regular grid.
    pub fn offset_at(&self, p: Pos2) -> (i32, i32) {
        let c0 = ((p.x - 1.0) / 1.5).round() as i32;
        let mut best = (c0, 0);
        let mut best_d = f32::INFINITY;
        for c in c0 - 1..=c0 + 1 {
            let shift = if self.column_is_lower(c) { 0.5 } else { 0.0 };
            let r0 = (p.y / SQRT3 - 0.5 - shift).round() as i32;
            for r in r0 - 1..=r0 + 1 {
                let d = self.center(c, r).distance_sq(p);
                if d < best_d {
                    best_d = d;
                    best = (c, r);
                }
            }
        }
        best
    }

    /// Size of the whole map in world units.
    pub fn world_size(&self) -> Vec2 {
        let any_lower = (0..self.columns.min(2)).any(|c| self.column_is_lower(c));
        let extra = if any_lower { 0.5 } else { 0.0 };
        Vec2::new(
            1.5 * self.columns as f32 + 0.5,
            SQRT3 * (self.rows as f32 + extra),
        )
    }

    /// The six corners of a hex around a world centre, clockwise from east.
    pub fn corners(center: Pos2) -> [Pos2; 6] {
        std::array::from_fn(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32;
            center + Vec2::new(a.cos(), a.sin())
        })
    }
}

/// Play-test feedback drawn over the map: where the selected stack can go and at what cost,
/// the attack being declared, the hexes an action in the list would touch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Hexes the selected stack can reach, with the MP it would spend (`None` = cost unknown).
    pub reachable: BTreeMap<Hex, Option<f64>>,
    /// Where the selected stack stands.
    pub origin: Option<Hex>,
    /// Hexes of the units declared as attackers.
    pub attackers: BTreeSet<Hex>,
    /// Hexes declared as attack targets.
    pub targets: BTreeSet<Hex>,
    /// Hexes an action under the pointer (in the actions list) would use, in order.
    pub preview: Vec<Hex>,
    /// Text for the tooltip over one hex (the cost there, or why the stack can't go there).
    pub tooltip: Option<(Hex, String)>,
}

/// What the canvas needs besides the map's own data.
pub struct Scene<'a> {
    /// The document drawn.
    pub doc: &'a Document,
    /// The counters drawn: the document's set-up, or the play-test game's units.
    pub units: &'a UnitLayer,
    /// Markers on the map (play-test only).
    pub markers: &'a [Marker],
    /// Play-test feedback.
    pub overlay: Option<&'a Overlay>,
    /// Hex shown in the inspector.
    pub selected: Option<Hex>,
    /// First hex of a link being drawn.
    pub link_from: Option<Hex>,
    /// Highlight the hexside nearest the pointer (hexside tool).
    pub side_hint: bool,
    /// Primary-button drag pans (view tool); other tools use it to paint.
    pub primary_pans: bool,
    /// Hexes with a validation problem (ringed in red).
    pub problems: &'a [Hex],
    /// Hexes of the place, area or tag being edited (outlined in cyan).
    pub marked: &'a [Hex],
}

/// What happened on the canvas this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapResponse {
    /// On-map hex under the pointer.
    pub hovered: Option<Hex>,
    /// Hexside nearest the pointer, when the pointer is near an edge of a hex.
    pub hovered_side: Option<Hexside>,
    /// On-map hex clicked (primary button, no drag).
    pub clicked: Option<Hex>,
    /// Side nearest the click, when the click was near an edge.
    pub clicked_side: Option<Hexside>,
    /// On-map hex under the pointer while the primary button is held on the canvas.
    pub primary_down: Option<Hex>,
    /// The primary button went down on the canvas this frame.
    pub press_started: bool,
    /// Where a primary-button drag that started on the canvas ended, this frame.
    pub drag_released: Option<Hex>,
}

/// The map canvas.
#[derive(Clone, Debug)]
pub struct MapView {
    /// Screen points per world unit (a hex's radius in points).
    pub zoom: f32,
    /// Screen position of the world origin, relative to the canvas' top-left corner.
    pub offset: Vec2,
    /// Draw hex numbers (when zoomed in far enough to read them).
    pub show_numbers: bool,
    /// Outline areas (entry areas, set-up zones).
    pub show_areas: bool,
    /// Draw counters.
    pub show_units: bool,
    needs_fit: bool,
    /// The view is as the last fit left it (no pan or zoom since): a resized canvas refits.
    fitted: bool,
    focus: Option<(Hex, f32)>,
    canvas: Rect,
}

impl Default for MapView {
    fn default() -> Self {
        MapView {
            zoom: 20.0,
            offset: Vec2::ZERO,
            show_numbers: true,
            show_areas: true,
            show_units: true,
            needs_fit: true,
            fitted: false,
            focus: None,
            canvas: Rect::from_min_size(Pos2::ZERO, Vec2::splat(100.0)),
        }
    }
}

/// Hex radius (points) from which hex numbers are drawn.
const NUMBERS_FROM: f32 = 17.0;
/// Hex radius (points) from which place names are drawn.
const NAMES_FROM: f32 = 7.0;
const MAX_ZOOM: f32 = 160.0;

impl MapView {
    /// Fits the whole map on the next frame.
    pub fn fit_on_next_frame(&mut self) {
        self.needs_fit = true;
    }

    /// Centres `hex` at `zoom` (points per hex radius) on the next frame.
    pub fn focus_on_next_frame(&mut self, hex: Hex, zoom: f32) {
        self.focus = Some((hex, zoom));
    }

    /// The canvas rectangle of the last frame.
    pub fn canvas(&self) -> Rect {
        self.canvas
    }

    fn fit(&mut self, layout: &HexLayout) {
        let size = layout.world_size();
        let avail = self.canvas.size() - Vec2::new(16.0, 60.0);
        self.zoom = (avail.x / size.x)
            .min(avail.y / size.y)
            .clamp(1.0, MAX_ZOOM);
        self.offset = (self.canvas.size() - size * self.zoom) / 2.0;
    }

    fn to_screen(&self, w: Pos2) -> Pos2 {
        self.canvas.min + self.offset + w.to_vec2() * self.zoom
    }

    fn to_world(&self, s: Pos2) -> Pos2 {
        ((s - self.canvas.min - self.offset) / self.zoom).to_pos2()
    }

    /// Screen position of a hex's centre (as of the last frame).
    pub fn hex_to_screen(&self, map: &Map, hex: Hex) -> Pos2 {
        self.to_screen(HexLayout::of(map).hex_center(map, hex))
    }

    /// The on-map hex under a screen position.
    pub fn screen_to_hex(&self, map: &Map, pos: Pos2) -> Option<Hex> {
        let (c, r) = HexLayout::of(map).offset_at(self.to_world(pos));
        let hex = map.hex_at(c, r);
        map.contains(hex).then_some(hex)
    }

    /// The side of `hex` nearest a screen position, if the position is nearer the edge than the
    /// centre (clicks in the middle of a hex are ambiguous).
    pub fn side_near(&self, map: &Map, hex: Hex, pos: Pos2) -> Option<Hexside> {
        let layout = HexLayout::of(map);
        let w = self.to_world(pos);
        let center = layout.hex_center(map, hex);
        if center.distance(w) < 0.35 {
            return None;
        }
        HexDir::ALL
            .into_iter()
            .min_by(|a, b| {
                let da = layout.hex_center(map, hex.neighbor(*a)).distance_sq(w);
                let db = layout.hex_center(map, hex.neighbor(*b)).distance_sq(w);
                da.total_cmp(&db)
            })
            .map(|d| hex.side(d))
    }

    /// Zooms by `factor` keeping the world point under `anchor` (screen) in place.
    pub fn zoom_at(&mut self, anchor: Pos2, factor: f32, min_zoom: f32) {
        let w = self.to_world(anchor);
        self.zoom = (self.zoom * factor).clamp(min_zoom, MAX_ZOOM);
        self.offset = anchor - self.canvas.min - w.to_vec2() * self.zoom;
    }

    /// Visible (column, row) ranges with one hex of margin, limited to the map plus its ring of
    /// off-map neighbours (whose canonical sides are the map's border sides).
    fn visible(&self, layout: &HexLayout) -> (RangeInclusive<i32>, RangeInclusive<i32>) {
        let a = self.to_world(self.canvas.min);
        let b = self.to_world(self.canvas.max);
        let c0 = ((a.x - 1.0) / 1.5).floor() as i32 - 1;
        let c1 = ((b.x - 1.0) / 1.5).ceil() as i32 + 1;
        let r0 = (a.y / SQRT3).floor() as i32 - 1;
        let r1 = (b.y / SQRT3).ceil() as i32 + 1;
        (
            c0.max(-1)..=c1.min(layout.columns),
            r0.max(-1)..=r1.min(layout.rows),
        )
    }

    /// Draws the map and handles pan, zoom and pointer input.
    pub fn ui(&mut self, ui: &mut Ui, scene: &Scene<'_>) -> MapResponse {
        let map = &scene.doc.map;
        let layout = HexLayout::of(map);
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
        // a canvas resized by a side panel refits a map nobody has panned or zoomed yet
        if self.fitted && response.rect.size() != self.canvas.size() {
            self.needs_fit = true;
        }
        self.canvas = response.rect;
        if self.needs_fit && self.canvas.width() > 50.0 {
            self.fit(&layout);
            self.needs_fit = false;
            self.fitted = true;
        }
        if let Some((hex, zoom)) = self.focus.take() {
            self.fitted = false;
            self.zoom = zoom.clamp(1.0, MAX_ZOOM);
            let w = layout.hex_center(map, hex);
            self.offset = self.canvas.size() / 2.0 - w.to_vec2() * self.zoom;
        }
        let fit_zoom = {
            let size = layout.world_size();
            (self.canvas.width() / size.x).min(self.canvas.height() / size.y)
        };
        let min_zoom = (fit_zoom * 0.5).clamp(0.5, 8.0);
        let before = (self.zoom, self.offset);
        self.handle_pan_zoom(ui, &response, scene.primary_pans, min_zoom);
        if (self.zoom, self.offset) != before {
            self.fitted = false;
        }
        self.keep_map_in_view(&layout);

        let pointer = response.hover_pos();
        let mut out = MapResponse {
            hovered: pointer.and_then(|p| self.screen_to_hex(map, p)),
            ..MapResponse::default()
        };
        if let (Some(p), Some(h)) = (pointer, out.hovered) {
            out.hovered_side = self.side_near(map, h, p);
        }
        if response.clicked_by(PointerButton::Primary) {
            if let Some(p) = response.interact_pointer_pos() {
                out.clicked = self.screen_to_hex(map, p);
                out.clicked_side = out.clicked.and_then(|h| self.side_near(map, h, p));
            }
        }
        if response.drag_stopped_by(PointerButton::Primary) {
            let pos = ui.input(|i| i.pointer.latest_pos());
            out.drag_released = pos.and_then(|p| self.screen_to_hex(map, p));
        }
        let primary_down = ui.input(|i| i.pointer.primary_down());
        if primary_down && response.is_pointer_button_down_on() {
            let pos = ui.input(|i| i.pointer.interact_pos());
            out.primary_down = pos.and_then(|p| self.screen_to_hex(map, p));
            out.press_started = ui.input(|i| i.pointer.primary_pressed());
        }

        painter.rect_filled(self.canvas, 0.0, Color32::from_rgb(58, 62, 66));
        self.draw(&painter, scene, &layout, &out);
        if let Some((hex, text)) = scene.overlay.and_then(|o| o.tooltip.as_ref()) {
            if out.hovered == Some(*hex) && !response.dragged() {
                response.on_hover_text_at_pointer(text.as_str());
            }
        }
        out
    }

    /// Stops panning once only a strip of the map is left on screen, so it cannot be lost.
    fn keep_map_in_view(&mut self, layout: &HexLayout) {
        let size = layout.world_size() * self.zoom;
        let keep = Vec2::splat(60.0).min(size);
        let canvas = self.canvas.size();
        // f32::clamp panics on an empty range, which a tiny canvas could produce
        let clamp = |v: f32, lo: f32, hi: f32| v.clamp(lo, hi.max(lo));
        self.offset.x = clamp(self.offset.x, keep.x - size.x, canvas.x - keep.x);
        self.offset.y = clamp(self.offset.y, keep.y - size.y, canvas.y - keep.y);
    }

    fn handle_pan_zoom(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        primary_pans: bool,
        min_zoom: f32,
    ) {
        let pans = response.dragged_by(PointerButton::Secondary)
            || response.dragged_by(PointerButton::Middle)
            || (primary_pans && response.dragged_by(PointerButton::Primary));
        if pans {
            self.offset += response.drag_delta();
        }
        if response.hovered() {
            let (scroll, pinch, pointer) =
                ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
            // the wheel zooms (a map has nothing to scroll); sideways scrolling pans
            let factor = pinch * (scroll.y * 0.0025).exp();
            if let Some(p) = pointer {
                if (factor - 1.0).abs() > 1e-4 {
                    self.zoom_at(p, factor, min_zoom);
                }
            }
            self.offset.x += scroll.x;
        }
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (dt, keys, zoom_in, zoom_out) = ui.input(|i| {
            let keys = Vec2::new(
                i.key_down(Key::ArrowLeft) as i32 as f32
                    - i.key_down(Key::ArrowRight) as i32 as f32,
                i.key_down(Key::ArrowUp) as i32 as f32 - i.key_down(Key::ArrowDown) as i32 as f32,
            );
            (
                i.stable_dt.min(0.1),
                keys,
                i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals),
                i.key_pressed(Key::Minus),
            )
        });
        if keys != Vec2::ZERO {
            self.offset += keys * 700.0 * dt;
            ui.ctx().request_repaint();
        }
        let center = self.canvas.center();
        if zoom_in {
            self.zoom_at(center, 1.25, min_zoom);
        }
        if zoom_out {
            self.zoom_at(center, 0.8, min_zoom);
        }
    }

    fn draw(&self, painter: &Painter, scene: &Scene<'_>, layout: &HexLayout, out: &MapResponse) {
        let map = &scene.doc.map;
        let z = self.zoom;
        let (cols, rows) = self.visible(layout);
        let on_map_cols = (*cols.start()).max(0)..=(*cols.end()).min(map.columns() as i32 - 1);
        let on_map_rows = (*rows.start()).max(0)..=(*rows.end()).min(map.rows() as i32 - 1);
        let visible_hexes: Vec<(Hex, Pos2)> = on_map_cols
            .clone()
            .flat_map(|c| on_map_rows.clone().map(move |r| (c, r)))
            .map(|(c, r)| (map.hex_at(c, r), self.to_screen(layout.center(c, r))))
            .collect();

        // terrain
        let grid = if z >= 6.0 {
            Stroke::new(1.0, Color32::from_black_alpha(45))
        } else {
            Stroke::NONE
        };
        let mut shapes = Vec::with_capacity(visible_hexes.len() * 2);
        for &(hex, c) in &visible_hexes {
            let name = map.terrain_name(hex).unwrap_or("?");
            let fill = terrain_color(name);
            let pts = HexLayout::corners(Pos2::ZERO)
                .map(|p| c + p.to_vec2() * z)
                .to_vec();
            shapes.push(Shape::convex_polygon(pts, fill, grid));
            terrain_marks(&mut shapes, name, c, z);
        }
        painter.extend(shapes);

        // hexside features; border sides belong to off-map hexes, so scan one hex beyond
        let kinds = KindStyles::of(map);
        let mut shapes = Vec::new();
        for c in cols.clone() {
            for r in rows.clone() {
                let hex = map.hex_at(c, r);
                let bits = (0..3u8)
                    .map(|d| map.side_bits(Hexside { hex, dir: d }))
                    .fold(0, |a, b| a | b);
                if bits & kinds.side_mask == 0 {
                    continue;
                }
                for d in [HexDir::N, HexDir::NE, HexDir::SE] {
                    let bits = map.side_bits(hex.side(d)) & kinds.side_mask;
                    if bits == 0 {
                        continue;
                    }
                    let a = self.to_screen(layout.center(c, r));
                    let b = self.hex_to_screen(map, hex.neighbor(d));
                    let (p, q) = shared_edge(a, b, z);
                    for k in bit_ids(bits) {
                        let (color, width) = side_style(map.side_kinds.name(k));
                        shapes.push(Shape::line_segment(
                            [p, q],
                            Stroke::new((width * z).max(1.5), color),
                        ));
                        // round caps so consecutive sides read as one river
                        shapes.push(Shape::circle_filled(p, (width * z).max(1.5) / 2.0, color));
                        shapes.push(Shape::circle_filled(q, (width * z).max(1.5) / 2.0, color));
                    }
                }
            }
        }
        painter.extend(shapes);

        if self.show_areas {
            self.draw_areas(painter, map, layout);
        }

        // links: road outlines, then road cores, then railways on top
        let mut layers = LinkLayers::default();
        for &(hex, a) in &visible_hexes {
            for d in [HexDir::N, HexDir::NE, HexDir::SE] {
                let bits = map.side_bits(hex.side(d)) & kinds.link_mask;
                if bits == 0 {
                    continue;
                }
                let b = self.hex_to_screen(map, hex.neighbor(d));
                for k in bit_ids(bits) {
                    layers.add(map.side_kinds.name(k), a, b, z);
                }
            }
        }
        painter.extend(layers.outlines);
        painter.extend(layers.cores);
        painter.extend(layers.rails);

        // places, VP hexes
        let mut shapes = Vec::new();
        let mut vp_texts = Vec::new();
        for &(hex, c) in &visible_hexes {
            if let Some(place) = map.place_at(hex) {
                place_symbol(&place.kind, c, z, &mut shapes);
            }
            let objective_vp: i64 = scene.doc.objectives_at(hex).map(|o| o.vp).sum();
            let tagged_vp = map.tags_of(hex).iter().any(|t| t.contains("vp"));
            if objective_vp > 0 || tagged_vp {
                let at = c + Vec2::new(0.5, -0.45) * z;
                star(
                    &mut shapes,
                    at,
                    (0.22 * z).max(3.0),
                    Color32::from_rgb(250, 200, 30),
                );
                if objective_vp > 0 && z >= 14.0 {
                    vp_texts.push((at + Vec2::new(0.0, 0.22 * z), objective_vp));
                }
            }
        }
        painter.extend(shapes);
        for (at, vp) in vp_texts {
            painter.text(
                at,
                Align2::CENTER_TOP,
                vp.to_string(),
                FontId::proportional((0.22 * z).clamp(8.0, 16.0)),
                Color32::from_rgb(120, 70, 0),
            );
        }

        // hex numbers
        if self.show_numbers && z >= NUMBERS_FROM {
            let font = FontId::monospace((0.24 * z).clamp(8.0, 14.0));
            for &(hex, c) in &visible_hexes {
                painter.text(
                    c + Vec2::new(0.0, -0.84 * z),
                    Align2::CENTER_TOP,
                    map.label(hex),
                    font.clone(),
                    Color32::from_black_alpha(140),
                );
            }
        }

        if let Some(o) = scene.overlay {
            self.draw_overlay_under(painter, map, layout, o);
        }
        if !scene.markers.is_empty() {
            self.draw_markers(painter, map, scene.markers);
        }

        // counters
        if self.show_units {
            let visible_rect = self.canvas.expand(z * 1.5);
            let all = scene.units.all();
            for (hex, stack) in scene.units.stacks() {
                let c = self.hex_to_screen(map, hex);
                if !visible_rect.contains(c) {
                    continue;
                }
                let units: Vec<_> = stack.iter().map(|&i| &all[i]).collect();
                counters::draw_stack(painter, c, z, &units, scene.selected == Some(hex));
            }
        }
        if let Some(o) = scene.overlay {
            self.draw_overlay_over(painter, map, o);
        }

        if z >= NAMES_FROM {
            self.draw_place_names(painter, map, layout);
        }
        if self.show_areas {
            self.draw_area_labels(painter, map, layout);
        }

        // tool feedback
        if let Some(h) = out.hovered {
            // dark under light, so the outline shows on pale clear hexes and dark forests alike
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_black_alpha(150)),
            );
            outline_hex(painter, c, z, Stroke::new(1.5, Color32::WHITE));
        }
        for h in scene.marked {
            outline_hex(
                painter,
                self.hex_to_screen(map, *h),
                z * 0.9,
                Stroke::new(2.5, Color32::from_rgb(60, 220, 235)),
            );
        }
        for h in scene.problems {
            let c = self.hex_to_screen(map, *h);
            painter.circle_stroke(c, z * 0.8, Stroke::new(4.0, Color32::from_black_alpha(140)));
            painter.circle_stroke(c, z * 0.8, Stroke::new(2.5, Color32::from_rgb(235, 40, 40)));
        }
        if let Some(h) = scene.selected {
            outline_hex(
                painter,
                self.hex_to_screen(map, h),
                z,
                Stroke::new(3.0, Color32::from_rgb(255, 140, 0)),
            );
        }
        if let Some(from) = scene.link_from {
            let a = self.hex_to_screen(map, from);
            outline_hex(
                painter,
                a,
                z,
                Stroke::new(3.0, Color32::from_rgb(40, 200, 80)),
            );
            if let Some(h) = out.hovered.filter(|h| h.distance_to(from) == 1) {
                painter.line_segment(
                    [a, self.hex_to_screen(map, h)],
                    Stroke::new(3.0, Color32::from_rgb(40, 200, 80)),
                );
            }
        }
        if scene.side_hint {
            if let Some(side) = out.hovered_side {
                let (a, b) = side.hexes();
                let (p, q) = shared_edge(self.hex_to_screen(map, a), self.hex_to_screen(map, b), z);
                painter.line_segment([p, q], Stroke::new(4.0, Color32::from_rgb(255, 240, 0)));
            }
        }
    }

    /// Reachable hexes stand out by dimming every other hex (the terrain of the reachable ones
    /// stays readable) and by a yellow outline round the reachable area, a colour no map
    /// feature uses (rivers are blue, roads brown, railways black).
    fn draw_overlay_under(&self, painter: &Painter, map: &Map, layout: &HexLayout, o: &Overlay) {
        let z = self.zoom;
        if !o.reachable.is_empty() {
            let (cols, rows) = self.visible(layout);
            let dim = Color32::from_black_alpha(105);
            let edge = Stroke::new((0.09 * z).clamp(1.5, 3.0), Color32::from_rgb(255, 215, 40));
            let mut shapes = Vec::new();
            let mut edges = Vec::new();
            let last_col = map.columns() as i32 - 1;
            let last_row = map.rows() as i32 - 1;
            for c in (*cols.start()).max(0)..=(*cols.end()).min(last_col) {
                for r in (*rows.start()).max(0)..=(*rows.end()).min(last_row) {
                    let h = map.hex_at(c, r);
                    let center = self.to_screen(layout.center(c, r));
                    let inside = o.reachable.contains_key(&h) || o.origin == Some(h);
                    if !inside {
                        let pts = HexLayout::corners(Pos2::ZERO).map(|p| center + p.to_vec2() * z);
                        shapes.push(Shape::convex_polygon(pts.to_vec(), dim, Stroke::NONE));
                        continue;
                    }
                    for d in HexDir::ALL {
                        let n = h.neighbor(d);
                        if !(o.reachable.contains_key(&n) || o.origin == Some(n)) {
                            let (p, q) = shared_edge(center, self.hex_to_screen(map, n), z);
                            edges.push(Shape::line_segment([p, q], edge));
                        }
                    }
                }
            }
            painter.extend(shapes);
            painter.extend(edges);
        }
        // the path of an action being previewed, centre to centre
        if o.preview.len() > 1 {
            let pts: Vec<Pos2> = o
                .preview
                .iter()
                .map(|h| self.to_screen(layout.hex_center(map, *h)))
                .collect();
            painter.add(Shape::line(
                pts,
                Stroke::new(
                    (0.14 * z).max(3.0),
                    Color32::from_rgba_unmultiplied(255, 60, 160, 200),
                ),
            ));
        }
    }

    /// MP costs, the selected stack, attackers and targets, drawn over the counters.
    fn draw_overlay_over(&self, painter: &Painter, map: &Map, o: &Overlay) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        if z >= 9.0 {
            let font = FontId::proportional((0.3 * z).clamp(9.0, 16.0));
            for (&h, cost) in &o.reachable {
                let Some(cost) = cost else { continue };
                let c = self.hex_to_screen(map, h);
                if !view.contains(c) {
                    continue;
                }
                let at = c + Vec2::new(0.0, 0.6 * z);
                let galley = painter.layout_no_wrap(fmt_mp(*cost), font.clone(), Color32::WHITE);
                let rect = Align2::CENTER_CENTER
                    .anchor_size(at, galley.size())
                    .expand2(Vec2::new(3.0, 0.0));
                painter.rect_filled(rect, 3.0, Color32::from_rgb(20, 90, 180));
                painter.galley(rect.min + Vec2::new(3.0, 0.0), galley, Color32::WHITE);
            }
        }
        if let Some(h) = o.origin {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_rgb(255, 140, 0)),
            );
        }
        for &h in &o.attackers {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.5, Color32::from_rgb(255, 140, 0)),
            );
        }
        for &h in &o.targets {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(4.0, Color32::from_rgb(230, 30, 30)),
            );
            let r = 0.75 * z;
            let s = Stroke::new(2.0, Color32::from_rgb(230, 30, 30));
            painter.line_segment([c - Vec2::new(r, 0.0), c + Vec2::new(r, 0.0)], s);
            painter.line_segment([c - Vec2::new(0.0, r), c + Vec2::new(0.0, r)], s);
        }
        for &h in o.preview.iter().take(1).chain(o.preview.last()) {
            let c = self.hex_to_screen(map, h);
            outline_hex(
                painter,
                c,
                z,
                Stroke::new(3.0, Color32::from_rgb(255, 60, 160)),
            );
        }
    }

    /// Markers as small tags at the top left of their hex, one per marker, labelled with the
    /// initials of their kind (an `air_interdiction` marker reads "AI").
    fn draw_markers(&self, painter: &Painter, map: &Map, markers: &[Marker]) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        let mut count: BTreeMap<Hex, usize> = BTreeMap::new();
        for m in markers {
            let Some(h) = m.hex else { continue };
            let c = self.hex_to_screen(map, h);
            if !view.contains(c) {
                continue;
            }
            let k = count.entry(h).or_default();
            let size = (0.42 * z).max(6.0);
            let at = c + Vec2::new(-0.8 * z + *k as f32 * size * 0.6, -0.55 * z);
            *k += 1;
            let fill = hashed_color(&m.kind, 0.7, 0.85);
            let rect = Rect::from_center_size(at, Vec2::splat(size));
            painter.rect(
                rect,
                2.0,
                fill,
                Stroke::new(1.0, Color32::BLACK),
                egui::StrokeKind::Inside,
            );
            if size >= 10.0 {
                let initials: String = m
                    .kind
                    .split(['_', ' '])
                    .filter_map(|w| w.chars().next())
                    .take(2)
                    .collect::<String>()
                    .to_uppercase();
                painter.text(
                    at,
                    Align2::CENTER_CENTER,
                    initials,
                    FontId::proportional(size * 0.55),
                    crate::counters::text_on(fill),
                );
            }
        }
    }

    fn draw_areas(&self, painter: &Painter, map: &Map, layout: &HexLayout) {
        let z = self.zoom;
        let view = self.canvas.expand(z * 2.0);
        for area in map.areas.values() {
            let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
            let color = area_color(&area.id);
            let stroke = Stroke::new((0.09 * z).clamp(1.5, 3.5), color);
            let tint = color.gamma_multiply(0.22);
            for &h in &set {
                let c = self.to_screen(layout.hex_center(map, h));
                if !view.contains(c) {
                    continue;
                }
                let pts = HexLayout::corners(Pos2::ZERO).map(|p| c + p.to_vec2() * z);
                painter.add(Shape::convex_polygon(pts.to_vec(), tint, Stroke::NONE));
                for d in HexDir::ALL {
                    let n = h.neighbor(d);
                    if !set.contains(&n) {
                        let (p, q) = shared_edge(c, self.hex_to_screen(map, n), z);
                        painter.line_segment([p, q], stroke);
                    }
                }
            }
        }
    }

    /// Area ids, one label per distinct set of hexes ("C · S20" when two areas coincide).
    fn draw_area_labels(&self, painter: &Painter, map: &Map, layout: &HexLayout) {
        let z = self.zoom;
        if z < 4.0 {
            return;
        }
        let mut groups: Vec<(BTreeSet<Hex>, Vec<&str>)> = Vec::new();
        for area in map.areas.values() {
            let set: BTreeSet<Hex> = area.hexes.iter().copied().collect();
            if set.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|(s, _)| *s == set) {
                Some((_, ids)) => ids.push(&area.id),
                None => groups.push((set, vec![&area.id])),
            }
        }
        let font = FontId::proportional((0.42 * z).clamp(10.0, 18.0));
        for (set, ids) in groups {
            let sum = set
                .iter()
                .map(|h| self.to_screen(layout.hex_center(map, *h)).to_vec2())
                .fold(Vec2::ZERO, |a, b| a + b);
            let mut at = (sum / set.len() as f32).to_pos2();
            let color = area_color(ids[0]);
            let galley = painter.layout_no_wrap(ids.join(" · "), font.clone(), Color32::WHITE);
            // areas on the north or south edge get their label outside the map, where it
            // cannot hide the names of the edge's towns
            let rows: BTreeSet<i32> = set.iter().map(|h| map.offset(*h).1).collect();
            let lower = set.iter().any(|h| layout.column_is_lower(map.offset(*h).0));
            let half = galley.size().y / 2.0 + 4.0;
            if rows.len() == 1 && rows.contains(&0) {
                at.y -= 0.87 * z + half + if lower { 0.87 * z } else { 0.0 };
            } else if rows.len() == 1 && rows.contains(&(map.rows() as i32 - 1)) {
                at.y += 0.87 * z + half + if lower { 0.0 } else { 0.87 * z };
            }
            if !self.canvas.expand(20.0).contains(at) {
                continue;
            }
            let rect = Align2::CENTER_CENTER
                .anchor_size(at, galley.size())
                .expand(3.0);
            painter.rect_filled(rect, 3.0, color.gamma_multiply(0.9));
            painter.galley(rect.min + Vec2::splat(3.0), galley, Color32::WHITE);
        }
    }

    fn draw_place_names(&self, painter: &Painter, map: &Map, layout: &HexLayout) {
        let z = self.zoom;
        let font = FontId::proportional((0.36 * z).clamp(9.0, 18.0));
        let view = self.canvas.expand(40.0);
        for place in &map.places {
            if place.hexes.is_empty() {
                continue;
            }
            let sum: Vec2 = place
                .hexes
                .iter()
                .map(|h| self.to_screen(layout.hex_center(map, *h)).to_vec2())
                .fold(Vec2::ZERO, |a, b| a + b);
            let center = (sum / place.hexes.len() as f32).to_pos2();
            if !view.contains(center) {
                continue;
            }
            let bottom = place
                .hexes
                .iter()
                .map(|h| self.to_screen(layout.hex_center(map, *h)).y)
                .fold(f32::MIN, f32::max);
            let at = Pos2::new(center.x, bottom + 0.5 * z);
            let galley = painter.layout_no_wrap(place.name.clone(), font.clone(), Color32::BLACK);
            let rect = Align2::CENTER_TOP
                .anchor_size(at, galley.size())
                .expand2(Vec2::new(3.0, 1.0));
            painter.rect_filled(rect, 2.0, Color32::from_white_alpha(200));
            painter.galley(rect.min + Vec2::new(3.0, 1.0), galley, Color32::BLACK);
        }
    }
}

/// Formats movement points without trailing zeros (`1.5`, `3`).
pub fn fmt_mp(mp: f64) -> String {
    let s = format!("{mp:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The edge shared by two adjacent hexes with screen centres `a` and `b`.
fn shared_edge(a: Pos2, b: Pos2, zoom: f32) -> (Pos2, Pos2) {
    let mid = a + (b - a) / 2.0;
    let dir = (b - a).normalized();
    let perp = Vec2::new(-dir.y, dir.x) * (zoom / 2.0);
    (mid - perp, mid + perp)
}

fn outline_hex(painter: &Painter, center: Pos2, zoom: f32, stroke: Stroke) {
    let pts = HexLayout::corners(Pos2::ZERO).map(|p| center + p.to_vec2() * zoom);
    painter.add(Shape::closed_line(pts.to_vec(), stroke));
}

fn bit_ids(bits: u32) -> impl Iterator<Item = u16> {
    (0..32u16).filter(move |k| bits & (1 << k) != 0)
}

/// Which hexside kinds are drawn as hexside features and which as links.
pub struct KindStyles {
    side_mask: u32,
    link_mask: u32,
}

impl KindStyles {
    /// Classifies the map's hexside kinds.
    pub fn of(map: &Map) -> KindStyles {
        let mut link_mask = 0;
        for (k, name) in map.side_kinds.names().iter().enumerate().take(32) {
            // authored paths say it is a link; otherwise go by the name
            let authored_link = map
                .features
                .iter()
                .any(|f| &f.kind == name && !f.path.is_empty());
            let authored_side = map
                .features
                .iter()
                .any(|f| &f.kind == name && !f.sides.is_empty());
            if authored_link || (!authored_side && is_link_name(name)) {
                link_mask |= 1 << k;
            }
        }
        KindStyles {
            side_mask: !link_mask,
            link_mask,
        }
    }

    /// True if the kind with this id is drawn as a link (centre to centre).
    pub fn is_link(&self, kind: u16) -> bool {
        kind < 32 && self.link_mask & (1 << kind) != 0
    }
}

/// Kind names read as links when no authored feature says otherwise.
pub fn is_link_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["road", "rail", "highway", "track", "trail"]
        .iter()
        .any(|w| n.contains(w))
}

/// A stable colour for a name no style knows.
pub fn hashed_color(name: &str, saturation: f32, value: f32) -> Color32 {
    // FNV-1a: stable across runs and platforms, unlike std's RandomState
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    let hue = (h % 360) as f32 / 360.0;
    egui::ecolor::Hsva::new(hue, saturation, value, 1.0).into()
}

/// Fill colour of a terrain.
pub fn terrain_color(name: &str) -> Color32 {
    match name {
        "clear" | "open" => Color32::from_rgb(233, 227, 196),
        "forest" | "woods" => Color32::from_rgb(128, 170, 100),
        "swamp" | "marsh" => Color32::from_rgb(165, 196, 178),
        "lake" | "water" | "sea" => Color32::from_rgb(135, 183, 222),
        "rough" | "hills" | "hill" => Color32::from_rgb(200, 172, 128),
        "city" | "urban" => Color32::from_rgb(200, 190, 185),
        other => hashed_color(other, 0.3, 0.85),
    }
}

/// Small marks that tell terrain apart without relying on colour alone.
fn terrain_marks(shapes: &mut Vec<Shape>, name: &str, c: Pos2, z: f32) {
    if z < 12.0 {
        return;
    }
    match name {
        "forest" | "woods" => {
            let col = Color32::from_rgb(70, 120, 55);
            for o in [
                Vec2::new(-0.35, 0.2),
                Vec2::new(0.3, 0.3),
                Vec2::new(-0.05, -0.35),
            ] {
                shapes.push(Shape::circle_filled(c + o * z, 0.13 * z, col));
            }
        }
        "swamp" | "marsh" => {
            let stroke = Stroke::new((0.05 * z).max(1.0), Color32::from_rgb(60, 110, 150));
            for o in [
                Vec2::new(-0.4, -0.2),
                Vec2::new(0.1, 0.05),
                Vec2::new(-0.25, 0.4),
            ] {
                let a = c + o * z;
                shapes.push(Shape::line_segment(
                    [a, a + Vec2::new(0.35 * z, 0.0)],
                    stroke,
                ));
            }
        }
        _ => {}
    }
}

/// Colour and width (world units) of a hexside feature.
fn side_style(kind: &str) -> (Color32, f32) {
    match kind {
        "river" | "major_river" => (Color32::from_rgb(40, 110, 210), 0.16),
        "minor_river" | "stream" => (Color32::from_rgb(70, 140, 220), 0.09),
        "lake" | "lake_side" | "water" => (Color32::from_rgb(25, 65, 150), 0.28),
        other => (hashed_color(other, 0.7, 0.6), 0.12),
    }
}

/// Link shapes by layer, so road joints look continuous and railways stay on top.
#[derive(Default)]
struct LinkLayers {
    outlines: Vec<Shape>,
    cores: Vec<Shape>,
    rails: Vec<Shape>,
}

impl LinkLayers {
    fn add(&mut self, kind: &str, a: Pos2, b: Pos2, z: f32) {
        let k = kind.to_ascii_lowercase();
        if k.contains("rail") {
            let color = Color32::from_rgb(20, 20, 20);
            self.rails.push(Shape::line_segment(
                [a, b],
                Stroke::new((0.07 * z).max(1.5), color),
            ));
            if z >= 8.0 {
                let dir = (b - a).normalized();
                let perp = Vec2::new(-dir.y, dir.x) * (0.13 * z);
                let tick = Stroke::new((0.045 * z).max(1.0), color);
                for t in [0.25f32, 0.5, 0.75] {
                    let p = a + (b - a) * t;
                    self.rails
                        .push(Shape::line_segment([p - perp, p + perp], tick));
                }
            }
        } else if k.contains("road") || k.contains("highway") {
            let wide = if k.contains("highway") || k.contains("major") {
                1.4
            } else {
                1.0
            };
            let outer = Stroke::new((0.15 * z * wide).max(2.0), Color32::from_rgb(125, 82, 40));
            let inner = Stroke::new((0.08 * z * wide).max(1.0), Color32::from_rgb(222, 188, 120));
            for (layer, stroke) in [(&mut self.outlines, outer), (&mut self.cores, inner)] {
                layer.push(Shape::line_segment([a, b], stroke));
                layer.push(Shape::circle_filled(a, stroke.width / 2.0, stroke.color));
                layer.push(Shape::circle_filled(b, stroke.width / 2.0, stroke.color));
            }
        } else {
            let stroke = Stroke::new((0.08 * z).max(1.5), hashed_color(kind, 0.6, 0.5));
            self.outlines.push(Shape::line_segment([a, b], stroke));
        }
    }
}

fn place_symbol(kind: &str, c: Pos2, z: f32, shapes: &mut Vec<Shape>) {
    let k = kind.to_ascii_lowercase();
    let border = Stroke::new((0.05 * z).max(1.0), Color32::BLACK);
    if k.contains("major") || k == "city" {
        let r = Rect::from_center_size(c, Vec2::splat((0.62 * z).max(4.0)));
        shapes.push(Shape::rect_filled(r, 1.0, Color32::from_rgb(190, 35, 35)));
        shapes.push(Shape::rect_stroke(
            r,
            1.0,
            border,
            egui::StrokeKind::Outside,
        ));
    } else if k.contains("minor") || k.contains("town") || k.contains("city") {
        shapes.push(Shape::circle_filled(
            c,
            (0.2 * z).max(2.5),
            Color32::from_rgb(190, 35, 35),
        ));
        shapes.push(Shape::circle_stroke(c, (0.2 * z).max(2.5), border));
    } else {
        let r = (0.2 * z).max(2.5);
        let pts = vec![
            c + Vec2::new(0.0, -r),
            c + Vec2::new(r, 0.0),
            c + Vec2::new(0.0, r),
            c + Vec2::new(-r, 0.0),
        ];
        shapes.push(Shape::convex_polygon(
            pts,
            hashed_color(kind, 0.6, 0.7),
            border,
        ));
    }
}

/// A five-pointed star, built from convex pieces because egui fills only convex polygons.
pub fn star(shapes: &mut Vec<Shape>, c: Pos2, r: f32, fill: Color32) {
    let inner = r * 0.42;
    let point = |i: usize, rad: f32| {
        let a = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * i as f32 / 5.0;
        c + Vec2::new(a.cos(), a.sin()) * rad
    };
    let outline = Stroke::new(1.0, Color32::from_rgb(110, 70, 0));
    let pts: Vec<Pos2> = (0..10)
        .map(|i| point(i, if i % 2 == 0 { r } else { inner }))
        .collect();
    let pentagon: Vec<Pos2> = (0..5).map(|i| point(2 * i + 1, inner)).collect();
    shapes.push(Shape::convex_polygon(pentagon, fill, Stroke::NONE));
    for i in 0..5 {
        let tip = point(2 * i, r);
        let left = point((2 * i + 9) % 10, inner);
        let right = point(2 * i + 1, inner);
        shapes.push(Shape::convex_polygon(
            vec![left, tip, right],
            fill,
            Stroke::NONE,
        ));
    }
    shapes.push(Shape::closed_line(pts, outline));
}

fn area_color(id: &str) -> Color32 {
    hashed_color(id, 0.85, 0.75)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::numbering::Numbering;

    #[test]
    fn hit_testing_finds_every_centre_and_points_near_it() {
        let map = Map::new("t", 9, 7, Numbering::default(), "clear");
        let layout = HexLayout::of(&map);
        for hex in map.hexes() {
            let c = layout.hex_center(&map, hex);
            for o in [
                Vec2::ZERO,
                Vec2::new(0.8, 0.0),
                Vec2::new(-0.4, 0.7),
                Vec2::new(0.0, -0.85),
            ] {
                let (col, row) = layout.offset_at(c + o);
                assert_eq!(map.hex_at(col, row), hex, "{} + {o:?}", map.label(hex));
            }
        }
    }

    #[test]
    fn neighbours_are_one_hex_apart_on_screen() {
        let map = Map::new("t", 6, 6, Numbering::default(), "clear");
        let layout = HexLayout::of(&map);
        let h = map.parse("0303").expect("label");
        for d in HexDir::ALL {
            let dist = layout
                .hex_center(&map, h)
                .distance(layout.hex_center(&map, h.neighbor(d)));
            assert!((dist - SQRT3).abs() < 1e-4, "{d:?}: {dist}");
        }
        // even columns are lower in PGG numbering
        let odd = layout.hex_center(&map, map.parse("0101").expect("label"));
        let even = layout.hex_center(&map, map.parse("0201").expect("label"));
        assert!(even.y > odd.y);
    }
}
