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
    h.get_by_label("1 option changed by hand (highlighted); a saved game keeps them");

    // Save profile is greyed out until a name is typed, and says so
    h.get_by_label(kessel_editor::panels::rules::NAME_FIRST);
    super::picture(&mut h, "rules-name-first");
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
    super::picture(&mut h, "rules-compare");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The folder the test below plays Kessel's own copy of the rules in, and the user's folder for
/// its profiles (the editor's test binary shares one finder: it answers for this folder only).
static KESSELS_COPY: std::sync::OnceLock<(std::path::PathBuf, std::path::PathBuf)> =
    std::sync::OnceLock::new();

fn user_profiles_of_kessels_copy(ruleset: &std::path::Path) -> Option<std::path::PathBuf> {
    let (copy, user) = KESSELS_COPY.get()?;
    let ruleset = ruleset.canonicalize().ok()?;
    ruleset.starts_with(copy).then(|| user.join("toy"))
}

#[test]
fn a_profile_of_kessels_own_copy_of_the_rules_is_saved_in_the_users_folder() {
    let dir = toy_copy("rules-kessels-copy");
    let user = dir.with_file_name(format!(
        "{}-user",
        dir.file_name().expect("name").to_string_lossy()
    ));
    let _ = KESSELS_COPY.set((dir.canonicalize().expect("copy"), user.clone()));
    kessel_core::fsio::set_user_profiles(user_profiles_of_kessels_copy);
    let mut h = harness(&dir);
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label("woods_double").click();
    h.run();
    h.state_mut().rules_panel.new_name = "mine".into();
    h.run();
    // the panel says where it goes before it is saved
    let folder = user.join("toy");
    h.get_by_label(&format!(
        "saved in {} (these rules are Kessel's own copy, replaced by the next version)",
        folder.display()
    ));
    super::picture(&mut h, "rules-user-profile");
    h.get_by_label("Save profile").click();
    h.run();
    let path = folder.join("mine.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "profile written in the user's folder ({e}); the status says: {}",
            h.state().status.message
        )
    });
    assert!(text.contains("\nwoods_double = false\n"), "{text}");
    assert!(
        !dir.join("profiles/mine.toml").exists(),
        "nothing written into Kessel's copy"
    );
    assert!(h.state().rules_panel.profiles.contains(&"mine".to_string()));
    // found by name like the ruleset's own, and its name is taken now
    let app = h.state_mut();
    app.apply_play(vec![kessel_editor::play::PlayCommand::ApplyProfile(Some(
        "mine".into(),
    ))]);
    h.run();
    let session = h.state().session.as_ref().expect("game");
    assert_eq!(session.engine.profile_arg(), Some("mine"));
    assert!(!session.engine.options().on("woods_double"));
    h.state_mut().rules_panel.new_name = "mine".into();
    h.run();
    h.get_by_label("profile `mine` exists already: pick a new name");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&user);
}
