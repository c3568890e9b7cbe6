//! Tracing a picture: load a PNG under the toy map, fit it to the grid with three points picked
//! on the map, and paint woods over it by dragging; the picture and its fit are kept beside the
//! map, never in it.

use super::toy::{click_hex, harness, hex, screen_of, toy_copy};
use egui_kittest::kittest::Queryable;
use kessel_editor::underlay::Underlay;

#[test]
fn an_underlay_is_loaded_fitted_by_three_points_and_woods_is_painted_by_dragging() {
    let dir = toy_copy("underlay");
    let picture = dir.join("scan.png");
    let img = image::RgbaImage::from_fn(140, 100, |x, y| {
        image::Rgba([(x * 2) as u8, (y * 2) as u8, 120, 255])
    });
    img.save(&picture).expect("write the picture");
    let mut h = harness(&dir);

    h.get_by_label("Underlay: trace a picture").click();
    h.run();
    h.get_by_label("underlay file").click();
    h.run();
    h.get_by_label("underlay file")
        .type_text(&picture.display().to_string());
    h.run();
    h.get_by_label("Load picture").click();
    h.run();
    assert_eq!(
        h.state().tracing.underlay.as_ref().map(|u| u.size),
        Some([140, 100])
    );

    // three points: click where a printed hex centre shows, then say which hex it is (here the
    // picture is off by one column, as a scan placed by eye would be)
    h.get_by_label("Pick points on the map").click();
    h.run();
    for (clicked, named) in [("0202", "0302"), ("0404", "0504"), ("0203", "0303")] {
        click_hex(&mut h, clicked);
        assert!(h.state().tracing.pending.is_some(), "a spot was picked");
        h.get_by_label("fit hex").click();
        h.run();
        h.get_by_label("fit hex").type_text(named);
        h.run();
        h.get_by_label("Add point").click();
        h.run();
    }
    {
        let app = h.state();
        let u = app.tracing.underlay.as_ref().expect("the picture");
        let map = &app.doc.map;
        let fit = u.fitted(map).expect("three points fit");
        let layout = kessel_editor::map_view::world_layout(map);
        for p in &u.points {
            let want = layout.center(map.parse(&p.hex).expect("hex"));
            let got = fit.apply(p.pixel);
            assert!(
                (got.x - want.x).abs() < 1e-3 && (got.y - want.y).abs() < 1e-3,
                "{p:?}"
            );
        }
    }
    h.get_by_label("Pick points on the map").click();
    h.run();

    // paint woods (a terrain the toy declares) by dragging across three hexes
    h.get_by_label("Paint terrain").click();
    h.run();
    h.state_mut().palette.terrain = "woods".into();
    let (a, b, c) = (
        screen_of(&h, "0205"),
        screen_of(&h, "0305"),
        screen_of(&h, "0405"),
    );
    h.hover_at(a);
    h.run();
    h.drag_at(a);
    h.step();
    for p in [b, c] {
        h.hover_at(p);
        h.step();
    }
    h.drop_at(c);
    h.run();
    for l in ["0205", "0305", "0405"] {
        let at = hex(&h, l);
        assert_eq!(h.state().doc.map.terrain_name(at), Some("woods"), "{l}");
    }

    // the picture and its fit live beside the map, not in it
    let map_path = dir.join("map.toml");
    let kept = Underlay::load_beside(&map_path)
        .expect("reads")
        .expect("kept");
    assert_eq!(kept.points.len(), 3);
    h.state_mut()
        .apply(vec![kessel_editor::command::EditorCommand::Save]);
    h.run();
    let map_text = std::fs::read_to_string(&map_path).expect("read");
    assert!(
        !map_text.contains("scan.png"),
        "the map file names no picture"
    );
}
