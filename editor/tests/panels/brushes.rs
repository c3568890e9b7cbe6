//! The tracing brushes on the small fixture: a river traced by dragging along hex edges, a
//! railway by dragging from hex to hex, a flood fill; each one undo step.

use super::{harness, hex, picture, screen_of};
use egui::Pos2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_core::hex::Hexside;
use kessel_editor::EditorApp;

/// Presses at the first point, moves through the others a frame each, releases at the last.
fn drag_through(h: &mut Harness<'_, EditorApp>, points: &[Pos2]) {
    let (first, last) = (points[0], points[points.len() - 1]);
    h.hover_at(first);
    h.run();
    h.drag_at(first);
    h.step();
    for p in &points[1..] {
        h.hover_at(*p);
        h.step();
    }
    h.drop_at(last);
    h.run();
}

fn side(h: &Harness<'_, EditorApp>, a: &str, b: &str) -> Hexside {
    Hexside::between(hex(h, a), hex(h, b)).expect("adjacent")
}

fn has(h: &Harness<'_, EditorApp>, s: Hexside, kind: &str) -> bool {
    h.state().doc.map.side_has(s, kind)
}

#[test]
fn a_river_is_traced_along_edges_in_one_drag_and_undone_in_one_step() {
    let mut h = harness();
    h.get_by_label("Hexside feature").click();
    h.run();
    // 0505's north edge, the corner it shares with the north-east edge, then that edge
    let c = screen_of(&h, "0505");
    let (n, ne) = (screen_of(&h, "0504"), screen_of(&h, "0604"));
    let mid_n = c + (n - c) / 2.0;
    let mid_ne = c + (ne - c) / 2.0;
    let corner = c + ((n - c) + (ne - c)) / 3.0;
    let steps = [
        mid_n,
        mid_n + (corner - mid_n) * 0.5,
        corner,
        corner + (mid_ne - corner) * 0.5,
        mid_ne,
    ];
    let (north, north_east) = (side(&h, "0505", "0504"), side(&h, "0505", "0604"));
    // the third side at that corner, which a pointer passing the corner must not paint
    let third = side(&h, "0504", "0604");
    for s in [north, north_east, third] {
        assert!(!has(&h, s, "river"));
    }
    drag_through(&mut h, &steps);
    assert!(has(&h, north, "river"), "north edge traced");
    assert!(has(&h, north_east, "river"), "north-east edge traced");
    assert!(
        !has(&h, third, "river"),
        "the corner's third side is left alone"
    );
    // the pointer on the next side shows what a drag would trace
    h.hover_at(c + (screen_of(&h, "0605") - c) * 0.45);
    h.run();
    picture(&mut h, "editor-trace-river");
    assert!(
        h.state()
            .doc
            .history
            .undo_label()
            .is_some_and(|l| l.starts_with("trace river")),
        "{:?}",
        h.state().doc.history.undo_label()
    );

    // a drag that starts on a river erases along its way
    drag_through(&mut h, &[mid_ne, mid_ne + (corner - mid_ne) * 0.4]);
    assert!(!has(&h, north_east, "river"), "erased");
    assert!(has(&h, north, "river"), "not reached");
    h.get_by_label("Undo").click();
    h.run();
    assert!(has(&h, north_east, "river"), "the erase undone");
    h.get_by_label("Undo").click();
    h.run();
    assert!(
        !has(&h, north, "river") && !has(&h, north_east, "river"),
        "the whole trace is one step"
    );
}

#[test]
fn a_railway_is_traced_from_hex_to_hex() {
    let mut h = harness();
    h.get_by_label("Link").click();
    h.run();
    h.get_by_label("railway").click();
    h.run();
    let path = ["0304", "0404", "0504", "0505"];
    let points: Vec<Pos2> = path.iter().map(|l| screen_of(&h, l)).collect();
    drag_through(&mut h, &points);
    let sides: Vec<Hexside> = path.windows(2).map(|w| side(&h, w[0], w[1])).collect();
    for s in &sides {
        assert!(has(&h, *s, "railway"), "{s:?}");
    }
    // one path in the map's features, not three pieces (the fixture has a railway already)
    let want: Vec<_> = path.iter().map(|l| hex(&h, l)).collect();
    let rails: Vec<&Vec<_>> = h
        .state()
        .doc
        .map
        .features
        .iter()
        .filter(|f| f.kind == "railway")
        .map(|f| &f.path)
        .collect();
    assert_eq!(rails.len(), 2, "{rails:?}");
    assert!(rails.contains(&&want), "{rails:?}");
    picture(&mut h, "editor-trace-railway");
    h.get_by_label("Undo").click();
    h.run();
    for s in &sides {
        assert!(!has(&h, *s, "railway"), "undone in one step");
    }
}

#[test]
fn fill_paints_the_connected_area_of_one_terrain() {
    let mut h = harness();
    let original = h.state().doc.map.clone();
    h.get_by_label("Fill terrain").click();
    h.run();
    h.get_by_label("swamp").click();
    h.run();
    super::click_hex(&mut h, "0105");
    let t = |h: &Harness<'_, EditorApp>, l: &str| {
        h.state()
            .doc
            .map
            .terrain_name(hex(h, l))
            .unwrap_or("?")
            .to_string()
    };
    // the forest joined to 0105: 0106 below it, 0206 beside that
    for l in ["0105", "0106", "0206"] {
        assert_eq!(t(&h, l), "swamp", "{l}");
    }
    // forest elsewhere and the clear around stay
    for (l, was) in [("0806", "forest"), ("0301", "forest"), ("0205", "clear")] {
        assert_eq!(t(&h, l), was, "{l}");
    }
    picture(&mut h, "editor-fill");
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(h.state().doc.map, original, "one undo step");
}
