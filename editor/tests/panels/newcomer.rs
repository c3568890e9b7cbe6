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
