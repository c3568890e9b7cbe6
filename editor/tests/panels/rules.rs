//! The rules panel on the toy ruleset: flip an option, save the options as a new profile,
//! compare profiles.

use super::toy::{harness, toy_copy};
use egui_kittest::kittest::Queryable;
use kessel_core::options::Profile;

#[test]
fn flipping_an_option_changes_the_game_and_saves_as_a_profile() {
    let dir = toy_copy("rules");
    let mut h = harness(&dir);
    h.get_by_label("Rules").click();
    h.run();
    let on = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| {
        h.state()
            .session
            .as_ref()
            .expect("game started for the rules panel")
            .engine
            .options()
            .on("woods_double")
    };
    assert!(on(&h));
    // every option shows its description and rule case
    h.get_by_label("Defenders in woods are doubled");
    h.get_by_label("[T5]");
    h.get_by_label("woods_double").click();
    h.run();
    assert!(!on(&h), "the option is off in the game");
    h.get_by_label("1 option(s) changed by hand (highlighted); a saved game keeps them");

    // save as a new profile: same format as the shipped ones, only what differs from defaults
    h.state_mut().rules_panel.new_name = "no_woods".into();
    h.state_mut().rules_panel.new_description = "Woods give no bonus".into();
    h.run();
    h.get_by_label("Save profile").click();
    h.run();
    let path = dir.join("profiles/no_woods.toml");
    let text = std::fs::read_to_string(&path).expect("profile written");
    assert!(
        text.contains("[profile]\ndescription = \"Woods give no bonus\""),
        "{text}"
    );
    assert!(text.contains("\nwoods_double = false\n"), "{text}");
    assert!(
        !text.contains("stack_limit ="),
        "defaults are not listed: {text}"
    );
    let decls = h
        .state()
        .session
        .as_ref()
        .expect("game")
        .engine
        .options()
        .decls
        .clone();
    let parsed = Profile::parse(&path, &text, &decls).expect("the profile reads back");
    assert_eq!(parsed.values.len(), 1);
    assert!(h
        .state()
        .rules_panel
        .profiles
        .contains(&"no_woods".to_string()));

    // a name that exists already is refused before writing
    h.state_mut().rules_panel.new_name = "open".into();
    h.run();
    h.get_by_label("profile `open` exists already: pick a new name");

    // pick the `open` profile and compare it with the standard one
    let app = h.state_mut();
    app.apply_play(vec![kessel_editor::play::PlayCommand::ApplyProfile(Some(
        "open".into(),
    ))]);
    h.run();
    assert!(!on(&h));
    h.get_by_label("Open terrain variant: woods give no defence bonus, bigger stacks");
    h.get_by_label("Compare profiles").click();
    h.run();
    {
        let panel = &mut h.state_mut().rules_panel;
        panel.compare_a = "open".into();
        panel.compare_b = "standard".into();
    }
    h.run();
    h.get_by_label("2 of 3 options differ");
    let _ = std::fs::remove_dir_all(&dir);
}
