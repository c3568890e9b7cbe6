//! A tournament GM's day on the toy ruleset: the profile picked for the day is the one the game
//! is set up under (so a save of it loads).

use super::toy::{harness, toy_copy};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::play::PlayCommand;
use kessel_editor::EditorApp;

/// Runs frames until the game the app plays has `profile` (a restart comes from a thread).
fn until_profile(h: &mut Harness<'_, EditorApp>, profile: &str) {
    for _ in 0..200 {
        h.run();
        let s = h.state().session.as_ref();
        if s.is_some_and(|s| s.engine.profile_arg() == Some(profile)) && !h.state().starting() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("the game never came under profile `{profile}`");
}

/// A toy copy whose set-up reads an option (as PGG's WBC bidding does), and a profile that
/// turns it on.
fn toy_with_a_set_up_option(name: &str) -> std::path::PathBuf {
    let dir = toy_copy(name);
    let init = dir.join("init.lua");
    let mut lua = std::fs::read_to_string(&init).expect("toy init.lua");
    lua.push_str(
        "kessel.option{ id = \"dawn_roll\", type = \"bool\", default = false,\n  \
         description = \"A dawn roll is set up\", rule = \"T98\" }\n\
         kessel.on(\"setup\", function()\n  \
         if kessel.game.option(\"dawn_roll\") then kessel.emit.var(\"dawn\", true) end\nend)\n",
    );
    std::fs::write(&init, lua).expect("write init.lua");
    std::fs::write(
        dir.join("profiles/dawn.toml"),
        "[profile]\ndescription = \"With the dawn roll\"\n\n[options]\ndawn_roll = true\n",
    )
    .expect("write the profile");
    dir
}

/// The profile a GM picks before the first action sets the game up: picked after the set-up,
/// the save named a profile whose set-up was not the one played, and it did not load.
#[test]
fn a_profile_picked_before_the_first_action_sets_the_game_up_and_its_save_loads() {
    let dir = toy_with_a_set_up_option("gm-profile-setup");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    h.state_mut()
        .apply_play(vec![PlayCommand::ApplyProfile(Some("dawn".into()))]);
    until_profile(&mut h, "dawn");
    {
        let s = h.state().session.as_ref().expect("game");
        assert!(s.engine.options().on("dawn_roll"));
        assert_eq!(
            s.engine.state().vars.get("dawn"),
            Some(&serde_json::json!(true)),
            "the set-up ran under the profile"
        );
    }
    // a move, then the save: it loads, under the profile, at the same position
    let end = kessel_core::action::Action::new("end_phase");
    h.state_mut().apply_play(vec![PlayCommand::Act(end)]);
    for _ in 0..100 {
        h.run();
        if !h
            .state()
            .session
            .as_ref()
            .expect("game")
            .engine
            .log()
            .is_empty()
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let path = dir.join("day.save.json");
    let app = h.state_mut();
    let s = app.session.as_mut().expect("game");
    assert_eq!(s.engine.log().len(), 1, "the phase was ended");
    s.save(&path).expect("saved");
    let hash = s.engine.state().hash();
    let loaded =
        kessel_core::engine::Engine::load_save(&path, kessel_core::script::Limits::default())
            .expect("the save loads");
    assert_eq!(loaded.profile_arg(), Some("dawn"));
    assert_eq!(loaded.state().hash(), hash);

    // once the game is under way, a profile applies to it as it stands: the log stays
    h.state_mut()
        .apply_play(vec![PlayCommand::ApplyProfile(Some("standard".into()))]);
    h.run();
    let s = h.state().session.as_ref().expect("game");
    assert_eq!(s.engine.profile_arg(), Some("standard"));
    assert_eq!(s.engine.log().len(), 1, "the game goes on");
    let _ = std::fs::remove_dir_all(&dir);
}
