//! The map canvas: the camera (pan, zoom, fit), pointer input and hit-testing; the drawing
//! itself is in `layers.rs` (the map and its counters) and `overlay.rs` (play-test feedback, tool
//! hints).
//!
//! Geometry is the drawing model's ([`kessel_draw::HexLayout`]) in *world units* where a hex has
//! radius 1 (centre to corner); [`MapView`] maps world to screen with one zoom factor and one
//! offset. Only hexes inside the visible rectangle are drawn, so the cost per frame follows what
//! is on screen, not the map size.

mod layers;
mod overlay;
mod stacks;
mod trails;

use crate::document::{Document, UnitLayer};
use crate::paint;
use egui::{Color32, Key, PointerButton, Pos2, Rect, Sense, Ui, Vec2};
use kessel_core::hex::{Hex, HexDir, Hexside};
use kessel_core::map::Map;
use kessel_core::state::Marker;
use kessel_draw::{HexLayout, MapStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

/// The layout the canvas works in: hexes of radius 1, the map's box from the world origin.
pub fn world_layout(map: &Map) -> HexLayout {
    HexLayout::for_map(map, 1.0)
}

/// A stack drawn on the map, as the marker chips of its hex keep clear of it: its hex, the VP
/// star drawn over it (centre, radius) if any, and its top counter's values line (see
/// [`kessel_draw::pieces::values_box`]).
pub(crate) type StackTop = (
    Hex,
    Option<(kessel_draw::Point, f32)>,
    (kessel_draw::Point, kessel_draw::Point),
);

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
    /// Where the selected units' other choices (a rail move, say) would take them, with the
    /// choices ending there: a click there takes the only one.
    pub choices: BTreeMap<Hex, Vec<String>>,
    /// Hexes where reinforcements due by this turn may enter, and on one hex of each entry
    /// area the number waiting there.
    pub entries: BTreeMap<Hex, usize>,
    /// The computer's last moves and attacks (see [`crate::play::trails`]).
    pub trails: Vec<Trail>,
}

/// One of the computer's last actions on the map: a stack's way from where it stood to where it
/// ended, an attack from an attacker's hex to its target, or (one hex) a marker placed.
#[derive(Clone, Debug, PartialEq)]
pub struct Trail {
    /// The hexes, in order.
    pub hexes: Vec<Hex>,
    /// An attack (drawn in red), not a move.
    pub attack: bool,
    /// The action's number in the log (1-based), written at the trail's end.
    pub number: usize,
}

/// A picture drawn under the map's lines and counters (see [`crate::underlay`]).
#[derive(Clone, Copy, Debug)]
pub struct UnderlayView {
    /// The picture's texture.
    pub texture: egui::TextureId,
    /// Its corners on the map (world coordinates), clockwise from the top left.
    pub corners: [Pos2; 4],
    /// 0 (hidden) to 1 (opaque).
    pub opacity: f32,
}

/// What the canvas needs besides the map's own data.
pub struct Scene<'a> {
    /// A picture to trace, drawn over the terrain and under everything else.
    pub underlay: Option<UnderlayView>,
    /// The document drawn.
    pub doc: &'a Document,
    /// How the ruleset says things look.
    pub style: &'a MapStyle,
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
    /// Two opposite corners of a region being cut: the hexes outside it are dimmed.
    pub region: Option<(Hex, Hex)>,
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
    /// Where a primary click landed, in map (world) coordinates.
    pub clicked_world: Option<Pos2>,
    /// The side under the pointer while the primary button is held (see
    /// [`MapView::side_near`]): what a hexside brush traces.
    pub edge_down: Option<Hexside>,
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
    /// Draw the computer's last moves in play-test ([`Overlay::trails`]).
    pub show_trails: bool,
    needs_fit: bool,
    /// The next fit shows the whole map even if its counters are then too small to read (Fit
    /// map, Home); otherwise a map too big for the canvas opens at [`READABLE_ZOOM`].
    fit_whole: bool,
    /// The view is as the last fit left it (no pan or zoom since): a resized canvas refits.
    fitted: bool,
    focus: Option<(Hex, f32)>,
    /// A hex to bring into view at the zoom in force (see [`MapView::reveal_on_next_frame`]).
    reveal: Option<Hex>,
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
            show_trails: true,
            needs_fit: true,
            fit_whole: false,
            fitted: false,
            focus: None,
            reveal: None,
            canvas: Rect::from_min_size(Pos2::ZERO, Vec2::splat(100.0)),
        }
    }
}

const MAX_ZOOM: f32 = 160.0;

/// Points per hex radius from which a counter's values and the hex numbers can be read. A map
/// that would fit only well below it (the PGG campaign fits at about 10) opens at this zoom
/// instead, centred on its units; it pans, and Fit map shows it whole.
pub const READABLE_ZOOM: f32 = 24.0;

impl MapView {
    /// Fits the whole map on the next frame.
    pub fn fit_on_next_frame(&mut self) {
        self.needs_fit = true;
        self.fit_whole = true;
    }

    /// Centres `hex` at `zoom` (points per hex radius) on the next frame.
    pub fn focus_on_next_frame(&mut self, hex: Hex, zoom: f32) {
        self.focus = Some((hex, zoom));
    }

    /// Brings `hex` into view at the zoom in force: centred on it if it is off the canvas or
    /// within a hex of its edge, left alone otherwise. Kept until the view is panned or zoomed,
    /// so a refit made while the panels take their sizes does not lose it.
    pub fn reveal_on_next_frame(&mut self, hex: Hex) {
        self.reveal = Some(hex);
    }

    /// The canvas rectangle of the last frame.
    pub fn canvas(&self) -> Rect {
        self.canvas
    }

    /// Fits the map to the canvas: whole, or, when whole would be well below [`READABLE_ZOOM`]
    /// and no whole view was asked for, at that zoom centred on the hexes in `focus` (the units; the
    /// map's centre if there are none).
    fn fit(&mut self, map: &Map, focus: impl Iterator<Item = Hex>) {
        let size = world_size(map);
        let avail = self.canvas.size() - Vec2::new(16.0, 60.0);
        self.zoom = (avail.x / size.x)
            .min(avail.y / size.y)
            .clamp(1.0, MAX_ZOOM);
        self.offset = (self.canvas.size() - size * self.zoom) / 2.0;
        // a map that fits at three quarters of the readable zoom is shown whole: cutting a hex
        // off each edge (a 15 x 16 map cut from the campaign) hid more than smaller counters cost
        if self.fit_whole || self.zoom >= READABLE_ZOOM * 0.75 {
            return;
        }
        let layout = world_layout(map);
        let mut bounds = Rect::NOTHING;
        for h in focus {
            bounds.extend_with(paint::pos(layout.center(h)));
        }
        // no units: `bounds` is still empty (min above max)
        let centre = if bounds.min.x <= bounds.max.x {
            bounds.center()
        } else {
            (size / 2.0).to_pos2()
        };
        self.zoom = READABLE_ZOOM;
        self.offset = self.canvas.size() / 2.0 - centre.to_vec2() * self.zoom;
    }

    fn to_screen(&self, w: Pos2) -> Pos2 {
        self.canvas.min + self.offset + w.to_vec2() * self.zoom
    }

    fn to_world(&self, s: Pos2) -> Pos2 {
        ((s - self.canvas.min - self.offset) / self.zoom).to_pos2()
    }

    /// Screen position of a hex's centre (as of the last frame).
    pub fn hex_to_screen(&self, map: &Map, hex: Hex) -> Pos2 {
        self.to_screen(paint::pos(world_layout(map).center(hex)))
    }

    /// The on-map hex under a screen position.
    pub fn screen_to_hex(&self, map: &Map, pos: Pos2) -> Option<Hex> {
        let hex = world_layout(map).hex_at(paint::point(self.to_world(pos)));
        map.contains(hex).then_some(hex)
    }

    /// The side of `hex` a screen position lies on: within 0.3 hex radius of the edge and off
    /// its two corners (the middle 70% of it), so a pointer dragged along a river line picks the
    /// sides it runs along and never the third side at a corner; `None` near the centre.
    pub fn side_near(&self, map: &Map, hex: Hex, pos: Pos2) -> Option<Hexside> {
        let layout = world_layout(map);
        let w = self.to_world(pos);
        let c = paint::pos(layout.center(hex));
        HexDir::ALL.into_iter().find_map(|d| {
            let n = paint::pos(layout.center(hex.neighbor(d)));
            let u = (n - c).normalized();
            let off = w - (c + (n - c) / 2.0);
            let across = off.dot(u);
            let along = off.x * -u.y + off.y * u.x;
            (across.abs() < 0.3 && along.abs() < 0.35).then(|| hex.side(d))
        })
    }

    /// Zooms by `factor` keeping the world point under `anchor` (screen) in place.
    pub fn zoom_at(&mut self, anchor: Pos2, factor: f32, min_zoom: f32) {
        let w = self.to_world(anchor);
        self.zoom = (self.zoom * factor).clamp(min_zoom, MAX_ZOOM);
        self.offset = anchor - self.canvas.min - w.to_vec2() * self.zoom;
    }

    /// Visible (column, row) ranges with one hex of margin, limited to the map plus its ring of
    /// off-map neighbours (whose canonical sides are the map's border sides).
    fn visible(&self, map: &Map) -> (RangeInclusive<i32>, RangeInclusive<i32>) {
        let a = paint::point(self.to_world(self.canvas.min));
        let b = paint::point(self.to_world(self.canvas.max));
        world_layout(map).visible_offsets(map, a, b)
    }

    /// Draws the map and handles pan, zoom and pointer input.
    pub fn ui(&mut self, ui: &mut Ui, scene: &Scene<'_>) -> MapResponse {
        let map = &scene.doc.map;
        let layout = world_layout(map);
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
        // a canvas resized by a side panel refits a map nobody has panned or zoomed yet
        if self.fitted && response.rect.size() != self.canvas.size() {
            self.needs_fit = true;
        }
        self.canvas = response.rect;
        if self.needs_fit && self.canvas.width() > 50.0 {
            self.fit(map, scene.doc.units.stacks().map(|(h, _)| h));
            self.needs_fit = false;
            self.fitted = true;
        }
        if let Some((hex, zoom)) = self.focus.take() {
            self.fitted = false;
            self.zoom = zoom.clamp(1.0, MAX_ZOOM);
            let w = paint::pos(layout.center(hex));
            self.offset = self.canvas.size() / 2.0 - w.to_vec2() * self.zoom;
        }
        if let Some(hex) = self.reveal {
            let w = paint::pos(layout.center(hex));
            let inner = self.canvas.shrink(self.zoom * 2.0);
            // a map shown whole stays as it is: centring an edge hex of a small map pushed half
            // of it off the canvas
            let whole =
                Rect::from_min_size(self.canvas.min + self.offset, world_size(map) * self.zoom);
            let all_shown = self.canvas.expand(1.0).contains_rect(whole);
            if !all_shown && !inner.contains(self.to_screen(w)) {
                self.offset = self.canvas.size() / 2.0 - w.to_vec2() * self.zoom;
                self.fitted = false;
            }
            if !self.fitted {
                self.reveal = None;
            }
        }
        let fit_zoom = {
            let size = world_size(map);
            (self.canvas.width() / size.x).min(self.canvas.height() / size.y)
        };
        let min_zoom = (fit_zoom * 0.5).clamp(0.5, 8.0);
        let before = (self.zoom, self.offset);
        self.handle_pan_zoom(ui, &response, scene.primary_pans, min_zoom);
        if (self.zoom, self.offset) != before {
            self.fitted = false;
        }
        self.keep_map_in_view(map);

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
                out.clicked_world = Some(self.to_world(p));
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
            if let (Some(p), Some(h)) = (pos, out.primary_down) {
                out.edge_down = self.side_near(map, h, p);
            }
            out.press_started = ui.input(|i| i.pointer.primary_pressed());
        }

        painter.rect_filled(self.canvas, 0.0, Color32::from_rgb(58, 62, 66));
        self.draw(&painter, scene, &out);
        if let Some((hex, text)) = scene.overlay.and_then(|o| o.tooltip.as_ref()) {
            if out.hovered == Some(*hex) && !response.dragged() {
                response.on_hover_text_at_pointer(text.as_str());
            }
        }
        out
    }

    /// Stops panning once only a strip of the map is left on screen, so it cannot be lost.
    fn keep_map_in_view(&mut self, map: &Map) {
        let size = world_size(map) * self.zoom;
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
            let plain = !(i.modifiers.command || i.modifiers.ctrl || i.modifiers.alt);
            let keys = Vec2::new(
                i.key_down(Key::ArrowLeft) as i32 as f32
                    - i.key_down(Key::ArrowRight) as i32 as f32,
                i.key_down(Key::ArrowUp) as i32 as f32 - i.key_down(Key::ArrowDown) as i32 as f32,
            );
            (
                i.stable_dt.min(0.1),
                keys,
                // with Ctrl (Cmd) these keys size the interface (egui's zoom), not the map
                plain && (i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals)),
                plain && i.key_pressed(Key::Minus),
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
}

/// Size of the whole map in world units.
fn world_size(map: &Map) -> Vec2 {
    let (w, h) = world_layout(map).map_size(map);
    Vec2::new(w, h)
}

/// Formats movement points without trailing zeros (`1.5`, `3`).
pub fn fmt_mp(mp: f64) -> String {
    let s = format!("{mp:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kessel_core::map::Map;

    fn view_of(map: &Map, canvas: Vec2) -> MapView {
        MapView {
            canvas: Rect::from_min_size(Pos2::ZERO, canvas),
            ..MapView::default()
        }
        .tap_fit(map)
    }

    impl MapView {
        fn tap_fit(mut self, map: &Map) -> MapView {
            let units = map.parse("2216").into_iter();
            self.fit(map, units);
            self
        }
    }

    #[test]
    fn a_big_map_opens_readable_on_its_units_and_fit_map_shows_it_whole() {
        let numbering = kessel_core::numbering::Numbering::default();
        let big = Map::new("big", 59, 31, numbering.clone(), "clear");
        let canvas = Vec2::new(900.0, 700.0);
        let v = view_of(&big, canvas);
        assert_eq!(v.zoom, READABLE_ZOOM);
        let at = v.hex_to_screen(&big, big.parse("2216").expect("hex"));
        assert!((at - (canvas / 2.0).to_pos2()).length() < 1.0, "{at:?}");
        // Fit map: the whole map, smaller than readable
        let mut whole = view_of(&big, canvas);
        whole.fit_on_next_frame();
        let whole = whole.tap_fit(&big);
        assert!(whole.zoom < READABLE_ZOOM, "{}", whole.zoom);
        // a small map fits whole, larger than readable
        let small = Map::new("small", 7, 5, numbering.clone(), "clear");
        assert!(view_of(&small, canvas).zoom > READABLE_ZOOM);
        // a map that fits just below readable is shown whole, not cut at its edges
        let cut = Map::new("cut", 15, 16, numbering, "clear");
        let v = view_of(&cut, canvas);
        assert!(v.zoom < READABLE_ZOOM, "{}", v.zoom);
        let corner = v.hex_to_screen(&cut, cut.parse("0101").expect("hex"));
        let far = v.hex_to_screen(&cut, cut.parse("1516").expect("hex"));
        assert!(corner.y > 0.0 && far.y < canvas.y, "{corner:?} {far:?}");
    }
}
