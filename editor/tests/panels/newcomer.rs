//! What a newcomer meets first: each map brush says what a click and a drag do, and the unit
//! list reads `id (name) — where` without a gap where a unit has no name.

use egui_kittest::kittest::Queryable;

#[test]
fn the_paint_brush_says_what_a_click_and_a_drag_do() {
    let mut h = super::harness();
    h.get_by_label("Edit map").click();
    h.run();
    h.get_by_label("Paint terrain").click();
    h.run();
    assert!(
        h.query_by_label_contains("drag across hexes").is_some(),
        "the paint brush explains itself"
    );
}

#[test]
fn a_unit_without_a_name_is_listed_without_a_gap() {
    let mut h = super::harness();
    h.get_by_label("Edit scenario").click();
    h.run();
    // s-rifle-1 of the fixture has no name
    assert!(
        h.query_by_label_contains("s-rifle-1 — ").is_some(),
        "listed as `id — where`"
    );
    assert!(
        h.query_by_label_contains("s-rifle-1  ").is_none(),
        "no double space"
    );
}

/// Comparing two profiles of the campaign's ruleset: every value shows within the window, a
/// long choice word (`movement_and_combat`) wrapped in its column rather than cut at the edge.
#[test]
fn profile_comparison_values_stay_within_the_window() {
    use kessel_editor::panels::Mode;
    let path = kessel_test_support::workspace_root().join("scenarios/pgg/learning.toml");
    let doc = kessel_editor::document::Document::open(&path).expect("the learning scenario");
    let mut app = kessel_editor::EditorApp::without_watcher(doc);
    app.startup(kessel_editor::Startup {
        mode: Some(Mode::Rules),
        compare: Some(("standard".into(), "wbc2009".into())),
        ..Default::default()
    })
    .expect("the scripted start");
    let width = 1400.0;
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(width, 900.0))
        .with_max_steps(8)
        .build_ui_state(
            |ui, app: &mut kessel_editor::EditorApp| app.ui_root(ui),
            app,
        );
    h.run_ok();
    let mut seen = 0;
    for node in h.query_all_by_value("movement_and_combat") {
        seen += 1;
        let r = node.rect();
        // clear of the panel's margin and its scroll bar (the cut value ran to 1398)
        assert!(r.max.x <= width - 24.0, "cut at the edge: {r:?}");
    }
    assert!(seen >= 2, "both columns show it");
}

/// A Help menu says the keys and gestures (said nowhere in the window before), the modes and
/// where the guides are.
#[test]
fn the_help_menu_lists_the_keys_and_the_guides() {
    let mut h = super::harness();
    h.get_by_label("Help").click();
    h.run();
    for text in [
        "Ctrl+S",
        "Home",
        "Escape",
        "scenario-guide.md: build a scenario of your own, step by step",
    ] {
        assert!(h.query_by_label(text).is_some(), "{text}");
    }
    h.get_by_label_contains("fit the map to the window");
}

/// The campaign's unit list takes the panel's height while nothing is open below it (it showed
/// 7 of the campaign's units in a 220-point box above half a panel of nothing); picking a unit
/// gives the room back to its form.
#[test]
fn the_unit_list_grows_into_the_panel_while_nothing_is_open_below_it() {
    use kessel_editor::panels::Mode;
    let path = kessel_test_support::workspace_root().join("scenarios/pgg/campaign.toml");
    let doc = kessel_editor::document::Document::open(&path).expect("the campaign");
    let mut app = kessel_editor::EditorApp::without_watcher(doc);
    app.startup(kessel_editor::Startup {
        mode: Some(Mode::Scenario),
        ..Default::default()
    })
    .expect("the scripted start");
    let height = 900.0;
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1400.0, height))
        .with_max_steps(8)
        .build_ui_state(
            |ui, app: &mut kessel_editor::EditorApp| app.ui_root(ui),
            app,
        );
    h.run_ok();
    let new_unit = h.get_by_label("New unit").rect();
    assert!(
        new_unit.min.y > height * 0.6,
        "the list stops short of the panel: New unit at {new_unit:?}"
    );
    super::picture(&mut h, "scenario-unit-list");
    h.get_by_label_contains("g-7pz-pz (25 Pz Rgt)").click();
    h.run_ok();
    let form = h.get_by_label("Unit g-7pz-pz").rect();
    assert!(
        form.max.y < height,
        "the picked unit's form is in view: {form:?}"
    );
    super::picture(&mut h, "scenario-unit-picked");
}

/// A stack's count badge on its top counter covers no letter of the counter's top line: the
/// name is laid out in the room the badge leaves (at the counter's right edge the badge covered
/// the last letter of a long formation name), on every spot the drawing model offers.
#[test]
fn a_count_badge_covers_no_letter_of_the_formation_name() {
    use kessel_core::state::{Face, Location, Unit};
    use kessel_draw::pieces;
    let unit = |id: &str| Unit {
        formation: Some("Grossdeutschland".into()),
        faces: vec![Face {
            attack: 4,
            defence: 4,
            movement: 10,
        }],
        location: Location::Pending,
        ..Unit::new(id, "german", "armour")
    };
    let units = [unit("a"), unit("b"), unit("c")];
    let style = kessel_draw::MapStyle::default();
    let (center, zoom) = (egui::pos2(200.0, 200.0), 60.0);
    let rects = pieces::stack_rects(kessel_draw::Point::new(200.0, 200.0), zoom, 3);
    let &(min, w) = rects.last().expect("a top counter");
    let r = kessel_editor::counters::badge_radius(w).expect("a badge at this size");
    for spot in pieces::badge_spots(min, w, r) {
        let at = egui::pos2(spot.x, spot.y);
        let mut h = egui_kittest::Harness::new_ui(|ui| {
            let stack: Vec<&Unit> = units.iter().collect();
            let painter = ui.painter();
            kessel_editor::counters::draw_stack(
                painter,
                &style,
                center,
                zoom,
                &stack,
                false,
                Some((at, r)),
            );
        });
        h.run();
        let mut texts = Vec::new();
        let mut todo: Vec<egui::Shape> =
            h.output().shapes.iter().map(|c| c.shape.clone()).collect();
        while let Some(shape) = todo.pop() {
            match shape {
                egui::Shape::Vec(v) => todo.extend(v),
                egui::Shape::Text(t) => texts.push((
                    t.galley.text().to_string(),
                    t.galley.rect.translate(t.pos.to_vec2()),
                )),
                _ => {}
            }
        }
        // the top line: the text whose box starts nearest the counter's top
        let (name, rect) = texts
            .iter()
            .min_by(|a, b| a.1.top().total_cmp(&b.1.top()))
            .expect("the counter's texts");
        assert!(
            !name.is_empty() && name.len() < "Grossdeutschland".len(),
            "{name}"
        );
        let badge = egui::Rect::from_center_size(at, egui::Vec2::splat(2.0 * r));
        assert!(
            !rect.intersects(badge),
            "`{name}` at {rect:?} under the badge at {at:?}"
        );
    }
}
