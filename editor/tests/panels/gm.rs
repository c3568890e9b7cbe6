//! A tournament GM's day on the toy ruleset: the profile picked for the day is the one the game
//! is set up under (so a save of it loads), and a face-down counter is never named by its id.

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
    // the scenario's own profile sets the dawn roll up
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("toy scenario");
    let dawn = text.replace("profile = \"standard\"", "profile = \"dawn\"");
    assert_ne!(dawn, text, "the toy scenario names its profile");
    std::fs::write(&scenario, dawn).expect("write the scenario");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    // a profile the game could not start under is refused with the game kept
    h.state_mut()
        .apply_play(vec![PlayCommand::ApplyProfile(Some("no_such".into()))]);
    h.run();
    assert!(!h.state().starting());
    let s = h.state().session.as_ref().expect("the game is kept");
    assert_eq!(s.engine.profile_arg(), Some("dawn"));
    let said = h.state().status.message.clone();
    assert!(said.starts_with("profile no_such: "), "{said}");
    // the ruleset's defaults: set up without it, under their name (a save names them so)
    h.state_mut()
        .apply_play(vec![PlayCommand::ApplyProfile(None)]);
    until_profile(&mut h, "defaults");
    {
        let s = h.state().session.as_ref().expect("game");
        assert!(!s.engine.options().on("dawn_roll"));
        assert_eq!(
            s.engine.state().vars.get("dawn"),
            None,
            "set up under the defaults"
        );
    }
    h.state_mut()
        .apply_play(vec![PlayCommand::ApplyProfile(Some("dawn".into()))]);
    until_profile(&mut h, "dawn");
    h.get_by_label("profile dawn: the game is set up again under it (no action was taken)");
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

/// A decision's choice buttons name a face-down counter by what its back shows, as the stack
/// list does, never by its scenario id (which tells one division from another).
#[test]
fn a_choice_names_a_face_down_unit_by_its_back_not_its_id() {
    let dir = toy_copy("gm-face-down-choice");
    let scenario = dir.join("scenario.toml");
    let mut text = std::fs::read_to_string(&scenario).expect("toy scenario");
    text.push_str(
        "\n[[pools]]\nid = \"reserve\"\nside = \"blue\"\nfaces = [[\"3-3-4\", 2]]\n\n\
         [[units]]\nid = \"b-3rd-guards-div\"\nside = \"blue\"\ntype = \"inf\"\n\
         formation = \"9 Army\"\nhidden = true\npool = \"reserve\"\nat = \"0604\"\n",
    );
    std::fs::write(&scenario, text).expect("write the scenario");
    let init = dir.join("init.lua");
    let mut lua = std::fs::read_to_string(&init).expect("toy init.lua");
    // red may ask about any blue unit on the map: a choice that names an enemy counter
    lua.push_str(
        "kessel.action{ kind = \"scout\", rule = \"T97\", description = \"look at an enemy stack\",\n  \
         validate = function(a) end, apply = function(a) end,\n  \
         enumerate = function(side)\n    \
         if side == \"blue\" then return {} end\n    \
         return { { kind = \"scout\", unit = \"b-3rd-guards-div\" } }\n  end }\n",
    );
    std::fs::write(&init, lua).expect("write init.lua");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    for _ in 0..50 {
        h.run();
        let listed =
            h.state().session.as_ref().is_some_and(
                |s| matches!(&s.actions, Ok(a) if a.iter().any(|a| a.kind == "scout")),
            );
        if listed {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    super::picture(&mut h, "gm-face-down-choice");
    let listed = h
        .state()
        .session
        .as_ref()
        .map(|s| format!("{:?} {:?}", s.actions, s.message));
    assert!(
        h.query_by_label("scout · unit inf (face down, 9 Army)")
            .is_some(),
        "{listed:?}"
    );
    assert!(
        h.query_by_label_contains("b-3rd-guards-div").is_none(),
        "no text names the face-down unit's id"
    );
    super::picture(&mut h, "gm-face-down-choice");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An option flipped by hand before the first action was flipped after the set-up: *New game*
/// sets the game up under it (and under the same profile), as a save of the new game is loaded.
/// (A new game dropped the options changed by hand, which the rules panel said were kept.)
#[test]
fn new_game_keeps_the_options_changed_by_hand_and_sets_the_game_up_under_them() {
    let dir = toy_with_a_set_up_option("gm-new-game-options");
    let mut h = harness(&dir);
    h.get_by_label("Play-test").click();
    h.run();
    h.state_mut().apply_play(vec![PlayCommand::SetOption(
        "dawn_roll".into(),
        serde_json::json!(true),
    )]);
    h.run();
    {
        let s = h.state().session.as_ref().expect("game");
        assert!(s.engine.options().on("dawn_roll"));
        assert_eq!(
            s.engine.state().vars.get("dawn"),
            None,
            "set up before the flip"
        );
    }
    h.state_mut().apply_play(vec![PlayCommand::NewGame]);
    for _ in 0..200 {
        h.run();
        let set_up = (h.state().session.as_ref())
            .is_some_and(|s| s.engine.state().vars.contains_key("dawn"));
        if set_up && !h.state().starting() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let s = h.state().session.as_ref().expect("game");
    assert_eq!(
        s.engine.state().vars.get("dawn"),
        Some(&serde_json::json!(true)),
        "the new game is set up under the option"
    );
    assert!(s.engine.options().on("dawn_roll"));
    assert_eq!(s.engine.profile_arg(), Some("standard"));
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label("1 option changed by hand (highlighted); a saved game and a new game keep them");
    let _ = std::fs::remove_dir_all(&dir);
}
