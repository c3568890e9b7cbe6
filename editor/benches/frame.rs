//! Editor benchmarks (`cargo bench -p kessel-editor`, release): CPU time per frame on the full
//! PGG campaign map with every counter drawn, and hot-reload latency from a script write to the
//! new rules being live. Prints the figures against their targets:
//!
//! - a frame (layout + painting + tessellation, no GPU) ≤ 8 ms, so the editor keeps 60 fps with
//!   room for the GPU and the OS;
//! - a rules reload ≤ 200 ms from the file write, so a save in the text editor shows at once.
//!
//! The frame runs headless through `egui::Context::run_ui`, exactly the code eframe calls.

use egui::{Pos2, RawInput, Rect, Vec2};
use kessel_editor::document::Document;
use kessel_editor::panels::Mode;
use kessel_editor::EditorApp;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const FRAME_TARGET_MS: f64 = 8.0;
const RELOAD_TARGET_MS: f64 = 200.0;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn input(size: Vec2, t: f64, pointer: Pos2) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, size)),
        time: Some(t),
        // the pointer moves a little every frame, as it does while a player looks around
        events: vec![egui::Event::PointerMoved(pointer)],
        ..RawInput::default()
    }
}

fn frame(ctx: &egui::Context, app: &mut EditorApp, size: Vec2, t: f64, pointer: Pos2) {
    let mut out = ctx.run_ui(input(size, t, pointer), |ui| app.ui_root(ui));
    // no GPU here: the font atlas updates a renderer would upload are dropped
    out.textures_delta.clear();
    let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    std::hint::black_box(prims);
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Times `n` frames after a warm-up; returns (median, p95, max) in ms.
fn time_frames(app: &mut EditorApp, size: Vec2, n: usize) -> (f64, f64, f64) {
    let ctx = egui::Context::default();
    let center = Pos2::new(size.x / 2.0, size.y / 2.0);
    for i in 0..15 {
        frame(&ctx, app, size, i as f64 / 60.0, center);
    }
    let mut ms = Vec::with_capacity(n);
    for i in 0..n {
        let wobble = Vec2::new((i % 7) as f32, (i % 5) as f32);
        let t0 = Instant::now();
        frame(&ctx, app, size, (i + 15) as f64 / 60.0, center + wobble);
        ms.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    (
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        percentile(&ms, 1.0),
    )
}

fn report(name: &str, (median, p95, max): (f64, f64, f64)) {
    let verdict = if p95 <= FRAME_TARGET_MS { "ok" } else { "OVER" };
    println!(
        "frame  {name:<52} median {median:6.2} ms  p95 {p95:6.2} ms  max {max:6.2} ms  (target ≤ {FRAME_TARGET_MS} ms: {verdict})"
    );
}

fn campaign() -> Document {
    Document::open(&workspace().join("scenarios/pgg/campaign.toml")).expect("campaign opens")
}

/// The campaign with every counter on the map: units that enter later (most of the German army,
/// the Soviet reinforcements) are stood in stacks of two across the map, so all of them draw.
fn every_counter_on_the_map(mut doc: Document) -> Document {
    let map = doc.map.clone();
    let mut units: Vec<_> = doc.units.all().to_vec();
    let off_map = units.iter_mut().filter(|u| u.hex().is_none());
    for (k, u) in off_map.enumerate() {
        let slot = k as i32 / 2;
        let col = 1 + (slot * 3) % (map.columns() as i32 - 2);
        let row = 1 + ((slot * 3) / (map.columns() as i32 - 2) * 2) % (map.rows() as i32 - 2);
        u.location = kessel_core::state::Location::Map(map.hex_at(col, row));
    }
    doc.units = kessel_editor::document::UnitLayer::new(units);
    doc
}

fn frames() {
    let doc = campaign();
    let at_setup = doc.units.iter().filter(|u| u.hex().is_some()).count();
    let doc = every_counter_on_the_map(doc);
    let on_map = doc.units.iter().filter(|u| u.hex().is_some()).count();
    let stacks = doc.units.stacks().count();
    println!(
        "campaign: {} × {} hexes; every counter drawn: {on_map} counters in {stacks} stacks ({at_setup} on the map at set-up)",
        doc.map.columns(),
        doc.map.rows()
    );

    let mut app = EditorApp::without_watcher(doc.clone());
    report(
        "edit mode, 1400×900, whole map",
        time_frames(&mut app, Vec2::new(1400.0, 900.0), 300),
    );

    // a 4K window: the whole map at ~24 px a hex, every counter with its text and symbol
    let mut app = EditorApp::without_watcher(doc.clone());
    report(
        "edit mode, 3840×2160, whole map, full counters",
        time_frames(&mut app, Vec2::new(3840.0, 2160.0), 150),
    );

    // play-test: the engine's units, a selected stack's reachable hexes with their costs
    let mut app = EditorApp::without_watcher(campaign());
    app.set_mode(Mode::Play);
    app.wait_start(Duration::from_secs(120));
    match app.session.as_mut() {
        Some(s) => {
            // the pre-game: the Soviet set-up ends, then the German places no air markers
            for kind in ["end_setup", "end_air_placement"] {
                let _ = s.engine.act(&kessel_core::action::Action::new(kind));
            }
            s.refresh();
            // the views are worked out on the rules' thread
            s.settle(Duration::from_secs(60));
            let hex = s.engine.state().map.parse("0112");
            if let Some(h) = hex {
                s.select(h);
                s.settle(Duration::from_secs(60));
            }
            let n = match &s.reach {
                Some(Ok(r)) => r.costs.len(),
                _ => 0,
            };
            report(
                &format!("play-test, 1400×900, whole map, {n} hexes shaded"),
                time_frames(&mut app, Vec2::new(1400.0, 900.0), 300),
            );
            if let Some(h) = app.doc.map.parse("0112") {
                app.map_view.focus_on_next_frame(h, 30.0);
            }
            report(
                &format!("play-test, 1400×900, zoomed to 30 px, {n} hexes shaded"),
                time_frames(&mut app, Vec2::new(1400.0, 900.0), 300),
            );
        }
        None => println!("frame  play-test skipped: {:?}", app.session_error),
    }
}

use kessel_test_support::copy_dir;

fn reload_latency() {
    let tmp = kessel_test_support::scratch("reload-bench");
    copy_dir(&workspace().join("scripts/pgg"), &tmp.join("scripts/pgg"));
    copy_dir(
        &workspace().join("scenarios/pgg"),
        &tmp.join("scenarios/pgg"),
    );
    let doc = Document::open(&tmp.join("scenarios/pgg/campaign.toml")).expect("copy opens");
    let mut app = EditorApp::new(doc);
    app.set_mode(Mode::Play);
    app.wait_start(Duration::from_secs(120));
    if app.session.is_none() {
        println!(
            "reload skipped: the campaign does not start: {:?}",
            app.session_error
        );
        return;
    }
    let ctx = egui::Context::default();
    let size = Vec2::new(1400.0, 900.0);
    let pointer = Pos2::new(700.0, 450.0);
    for i in 0..5 {
        frame(&ctx, &mut app, size, i as f64, pointer);
    }
    // the Lua side alone: every file of the ruleset read and run again
    let mut alone = Vec::new();
    for _ in 0..10 {
        let s = app.session.as_mut().expect("session");
        let t0 = Instant::now();
        s.engine.reload_rules().expect("the copy reloads");
        alone.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    alone.sort_by(f64::total_cmp);

    let script = tmp.join("scripts/pgg/rules/movement.lua");
    let original = std::fs::read_to_string(&script).expect("read");
    let mut total = Vec::new();
    let mut t = 10.0;
    for i in 0..15 {
        let before = app.rule_reloads;
        std::fs::write(&script, format!("{original}\n-- bench edit {i}\n")).expect("write");
        let t0 = Instant::now();
        while app.rule_reloads == before {
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "no reload within 10 s"
            );
            std::thread::sleep(Duration::from_millis(1));
            t += 0.001;
            frame(&ctx, &mut app, size, t, pointer);
        }
        total.push(t0.elapsed().as_secs_f64() * 1000.0);
        // let the next write be a separate save
        std::thread::sleep(Duration::from_millis(120));
        frame(&ctx, &mut app, size, t, pointer);
    }
    total.sort_by(f64::total_cmp);
    println!(
        "reload reload_rules() alone (PGG ruleset)                        median {:6.1} ms  max {:6.1} ms",
        percentile(&alone, 0.5),
        percentile(&alone, 1.0)
    );
    let p95 = percentile(&total, 0.95);
    let verdict = if p95 <= RELOAD_TARGET_MS {
        "ok"
    } else {
        "OVER"
    };
    println!(
        "reload file write → rules live (notify 50 ms debounce + reload + refresh)  median {:6.1} ms  p95 {p95:6.1} ms  max {:6.1} ms  (target ≤ {RELOAD_TARGET_MS} ms: {verdict})",
        percentile(&total, 0.5),
        percentile(&total, 1.0)
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

fn main() {
    // `cargo test --benches` runs benches with --test-ish args; keep that cheap
    if std::env::args().any(|a| a == "--test") {
        return;
    }
    frames();
    reload_latency();
}
