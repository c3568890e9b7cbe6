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
    h.get_by_label("1 option changed by hand (highlighted); a saved game and a new game keep them");

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

/// A variant of the toy's CRT whose every cell reads `cell`, for the options `when` names.
fn crt_variant(when: &str, cell: &str) -> String {
    let row = format!("{{ \"{cell}\", \"{cell}\", \"{cell}\", \"{cell}\" }}");
    format!(
        "kessel.results_table{{ id = \"crt\", kind = \"ratio\", columns = {{ \"1-2\", \"1-1\", \"2-1\", \"3-1\" }},\n  rows = {{ {row}, {row}, {row}, {row}, {row}, {row} }}, when = {when} }}\n"
    )
}

fn option_value(
    h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>,
    id: &str,
) -> serde_json::Value {
    h.state()
        .session
        .as_ref()
        .expect("game")
        .engine
        .options()
        .values[id]
        .clone()
}

/// A GM preparing a year's interpretations: the toy copy's CRT has a variant for each of three
/// options and one for all three together, none for two. From the first option on, each single
/// flip of the others is refused as a conflict, with the reason on the panel; staged and applied
/// together they are taken, and the options are saved as a profile that `--profile FILE` loads.
#[test]
fn options_staged_together_reach_a_variant_single_flips_cannot() {
    let dir = toy_copy("rules-staged");
    let init = dir.join("init.lua");
    let mut lua = std::fs::read_to_string(&init).expect("toy init.lua");
    lua.push_str(
        "kessel.option{ id = \"night\", type = \"bool\", default = false,\n  description = \"Night turns\", rule = \"T99\" }\n",
    );
    lua.push_str(&crt_variant("{ deep_rivers = true }", "AE"));
    lua.push_str(&crt_variant("{ night = true }", "AR"));
    lua.push_str(&crt_variant("{ woods_double = false }", "EX"));
    lua.push_str(&crt_variant(
        "{ deep_rivers = true, night = true, woods_double = false }",
        "DE",
    ));
    std::fs::write(&init, lua).expect("write init.lua");
    let mut h = harness(&dir);
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label(kessel_editor::panels::rules::AS_THE_PROFILE);
    let night_at = h.get_by_label("night").rect();
    h.get_by_label("deep_rivers").click();
    h.run();
    assert_eq!(option_value(&h, "deep_rivers"), serde_json::json!(true));
    // the list stays where it was under the pointer: the next click lands on the option meant
    h.get_by_label("1 option changed by hand (highlighted); a saved game and a new game keep them");
    let moved_from = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>, at: egui::Rect| {
        (h.get_by_label("night").rect().min - at.min).length()
    };
    let moved = |h: &egui_kittest::Harness<'_, kessel_editor::EditorApp>| moved_from(h, night_at);
    assert!(moved(&h) < 2.0, "moved {}", moved(&h));
    // a single flip to the second option is refused, and the panel says why, whole
    h.get_by_label("night").click();
    h.run();
    assert_eq!(option_value(&h, "night"), serde_json::json!(false));
    let refusal = h
        .state()
        .rules_panel
        .refusal
        .clone()
        .expect("the refusal is kept");
    assert!(
        refusal.starts_with("option night = on: results table `crt`"),
        "{refusal}"
    );
    h.get_by_label(&format!("Refused: {refusal}"));
    assert!(moved(&h) < 2.0, "said below the list, moved {}", moved(&h));
    h.get_by_label(&format!(
        "A combination may need several options changed at once: tick \"{}\".",
        kessel_editor::panels::rules_options::STAGE
    ));
    super::picture(&mut h, "rules-refused-flip");

    // staged: nothing changes in the game until they are applied together
    h.get_by_label(kessel_editor::panels::rules_options::STAGE)
        .click();
    h.run();
    assert_eq!(
        h.state().rules_panel.refusal,
        None,
        "the flip's refusal is answered"
    );
    let night_at = h.get_by_label("night").rect();
    h.get_by_label("woods_double").click();
    h.run();
    assert!(
        moved_from(&h, night_at) < 2.0,
        "a staged option moves none below it"
    );
    h.get_by_label("night").click();
    h.run();
    assert_eq!(option_value(&h, "night"), serde_json::json!(false));
    h.get_by_label("2 changes staged: woods_double = off, night = on");
    h.get_by_label("staged; in force: on");
    super::picture(&mut h, "rules-staged");
    h.get_by_label(kessel_editor::panels::rules_options::APPLY)
        .click();
    h.run();
    assert_eq!(option_value(&h, "night"), serde_json::json!(true));
    assert_eq!(option_value(&h, "woods_double"), serde_json::json!(false));
    assert!(h.state().rules_panel.staged.is_empty());
    assert_eq!(h.state().rules_panel.refusal, None);
    let crt = (h.state_mut().session.as_mut().expect("game").engine).run_script_text(
        "probe",
        "assert(kessel.tables.result(\"crt\", 1, 1) == \"DE\", kessel.tables.result(\"crt\", 1, 1))",
    );
    assert!(
        crt.is_ok(),
        "the variant for all three is in force: {crt:?}"
    );

    // a staged set that leaves two variants without theirs is refused whole, staged kept
    h.get_by_label("deep_rivers").click();
    h.run();
    h.get_by_label(kessel_editor::panels::rules_options::APPLY)
        .click();
    h.run();
    assert_eq!(option_value(&h, "deep_rivers"), serde_json::json!(true));
    let refusal = h.state().rules_panel.refusal.clone().expect("refused");
    assert!(
        refusal.starts_with("options deep_rivers = off: results table `crt`"),
        "{refusal}"
    );
    h.get_by_label("1 change staged: deep_rivers = off");
    h.get_by_label(kessel_editor::panels::rules_options::DISCARD)
        .click();
    h.run();
    assert!(h.state().rules_panel.staged.is_empty());

    // kept as a profile file a player can be given: read back by path as `--profile FILE` is
    h.state_mut().rules_panel.new_name = "night_battle".into();
    h.state_mut().rules_panel.new_description = "All three at once".into();
    h.run();
    h.get_by_label("Save profile").click();
    h.run();
    let path = dir.join("profiles/night_battle.toml");
    let text = std::fs::read_to_string(&path).expect("profile written");
    for line in ["deep_rivers = true", "night = true", "woods_double = false"] {
        assert!(text.contains(&format!("\n{line}\n")), "{line}: {text}");
    }
    let engine = kessel_core::engine::Engine::load(
        &dir.join("scenario.toml"),
        Some(path.to_str().expect("utf-8 path")),
        1,
        kessel_core::script::Limits::default(),
    )
    .expect("the profile file loads the scenario under its options");
    assert!(engine.options().on("night"));
    let _ = std::fs::remove_dir_all(&dir);
}
