//! Helpers for the tests on the core's toy ruleset: a private copy per test (the tests write
//! files into it), a harness on it, and clicks on hexes.

use egui::Pos2;
use egui_kittest::Harness;
use kessel_core::hex::Hex;
use kessel_editor::document::Document;
use kessel_editor::EditorApp;
use std::path::Path;

pub use kessel_test_support::toy_copy;

/// The editor on a toy copy's scenario.
pub fn harness(dir: &Path) -> Harness<'static, EditorApp> {
    let doc = Document::open(&dir.join("scenario.toml")).expect("toy scenario opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1300.0, 820.0))
        // background work (the file watcher, the validation worker) may ask for a few extra frames
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut EditorApp| app.ui_root(ui),
            EditorApp::new(doc),
        );
    h.run();
    h
}

pub fn hex(h: &Harness<'_, EditorApp>, label: &str) -> Hex {
    h.state()
        .doc
        .map
        .parse(label)
        .expect("label on the toy map")
}

pub fn screen_of(h: &Harness<'_, EditorApp>, label: &str) -> Pos2 {
    let app = h.state();
    app.map_view.hex_to_screen(&app.doc.map, hex(h, label))
}

pub fn click_hex(h: &mut Harness<'_, EditorApp>, label: &str) {
    let pos = screen_of(h, label);
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    // one step only: a press held longer than egui's click time would count as a drag
    h.step();
    h.drop_at(pos);
    h.run();
}

pub fn hover_hex(h: &mut Harness<'_, EditorApp>, label: &str) {
    let pos = screen_of(h, label);
    h.hover_at(pos);
    h.run();
    // the explanation is worked out on the frame the pointer arrives and shown on the next
    h.run();
}

/// Where a unit of the play-test game stands.
pub fn unit_hex(h: &Harness<'_, EditorApp>, id: &str) -> Option<String> {
    let app = h.state();
    let s = app.session.as_ref()?;
    let state = s.engine.state();
    state.unit(id)?.hex().map(|x| state.map.label(x))
}

/// True when `text` says a rule call was ended by the sandbox's instruction budget or its
/// wall-clock limit (on a loaded machine a loop may reach the second first).
pub fn ended_by_a_limit(text: &str) -> bool {
    text.contains("instruction budget") || text.contains("time limit exceeded")
}

/// The map brushes offer the kinds the ruleset declares: on the toy (clear and woods; river;
/// road) no stand-in `forest`, `swamp`, `lake` or `railway`, which it does not know and which
/// painted made a problem; the pick starts on a kind offered, so a first click paints one the
/// rules know. (They used to offer PGG's kinds on every ruleset, `forest` picked.)
#[test]
fn the_map_brushes_offer_the_rulesets_kinds_only() {
    use egui_kittest::kittest::Queryable;
    let dir = toy_copy("brush-kinds");
    let mut h = harness(&dir);
    super::reload::wait_for(&mut h, "the ruleset's read", |app| {
        !app.reading_declarations()
    });
    h.get_by_label("Paint terrain").click();
    h.run();
    h.get_by_label("clear");
    h.get_by_label("woods");
    for stand_in in ["forest", "swamp", "lake"] {
        assert!(h.query_by_label(stand_in).is_none(), "{stand_in} offered");
    }
    let picked = h.state().palette.terrain.clone();
    assert!(picked == "clear" || picked == "woods", "{picked}");
    click_hex(&mut h, "0303");
    assert_eq!(
        h.state().doc.map.terrain_name(hex(&h, "0303")),
        Some(picked.as_str())
    );
    h.get_by_label("Hexside feature").click();
    h.run();
    h.get_by_label("river");
    assert!(h.query_by_label("lake").is_none());
    assert!(
        h.query_by_label("road").is_none(),
        "a link is not a feature"
    );
    h.get_by_label("Link").click();
    h.run();
    h.get_by_label("road");
    assert!(h.query_by_label("railway").is_none());
    assert_eq!(h.state().palette.link_kind, "road");
    let _ = std::fs::remove_dir_all(&dir);
}
