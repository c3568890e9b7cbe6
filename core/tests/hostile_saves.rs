//! Saves edited by hand (and signed again, as anyone can) in their `option_changes` and
//! `rules_reloaded_at`: each is refused naming the save and the field, or read as written.

use kessel_core::engine::{Engine, SaveFile};
use kessel_core::script::Limits;
use kessel_core::Action;
use std::path::{Path, PathBuf};

/// A toy game of two actions with `stack_limit` set to 1 after the first, saved in a folder of
/// its own; the save's path.
fn saved_game(name: &str) -> PathBuf {
    let dir = kessel_test_support::toy_copy(name);
    let mut e = Engine::load(&dir.join("scenario.toml"), None, 3, Limits::default()).expect("load");
    let mv = |unit: &str, hex: &str| {
        Action::new("move")
            .with("unit", unit)
            .with("path", serde_json::json!([hex]))
    };
    assert!(e.act(&mv("r2", "0203")).expect("runs").is_ok());
    e.set_option("stack_limit", serde_json::json!(1))
        .expect("a stack limit of 1");
    assert!(e.act(&mv("r1", "0103")).expect("runs").is_ok());
    let path = dir.join("game.json");
    std::fs::write(&path, e.save_as(&path, &Default::default()).expect("save")).expect("write");
    path
}

/// The save at `path` changed by `edit` and signed again.
fn edit_save(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut v);
    let file: SaveFile = serde_json::from_value(v.clone()).expect("still a save");
    v["checksum"] = serde_json::Value::String(file.compute_checksum());
    std::fs::write(path, serde_json::to_string_pretty(&v).expect("json")).expect("write");
}

fn load_error(path: &Path) -> String {
    match Engine::load_save(path, Limits::default()) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e.to_string(),
    }
}

/// A change said to be made after more actions than the log holds was never made: the load
/// kept the set-up's options and said nothing.
#[test]
fn an_option_change_after_the_last_action_is_refused() {
    let path = saved_game("hostile-change-past-log");
    edit_save(&path, |v| {
        v["option_changes"][0]["at"] = serde_json::json!(3)
    });
    let err = load_error(&path);
    assert!(
        err.contains("game.json") && err.contains("option_changes") && err.contains("2 actions"),
        "{err}"
    );
    // and one far past it, as a huge number
    edit_save(&path, |v| {
        v["option_changes"][0]["at"] = serde_json::json!(u64::MAX)
    });
    let err = load_error(&path);
    assert!(err.contains("option_changes"), "{err}");
}

/// Changes listed out of the order they were made in: the second was made, the first not.
#[test]
fn option_changes_out_of_order_are_refused() {
    let path = saved_game("hostile-change-order");
    edit_save(&path, |v| {
        let first = v["option_changes"][0].clone();
        let mut earlier = first.clone();
        earlier["at"] = serde_json::json!(0);
        v["option_changes"] = serde_json::json!([first, earlier]);
    });
    let err = load_error(&path);
    assert!(
        err.contains("option_changes") && err.contains("order"),
        "{err}"
    );
}

/// A change's profile given by its path is named relative to the save's folder, as the save's
/// own profile is: it was looked for from the working folder, so the save loaded from nowhere
/// but the folder it was written from.
#[test]
fn an_option_changes_profile_path_is_read_beside_the_save() {
    let path = saved_game("hostile-change-profile");
    let dir = path.parent().expect("folder");
    std::fs::write(
        dir.join("mine.toml"),
        "[profile]\ndescription = \"one to a hex\"\n\n[options]\nstack_limit = 1\n",
    )
    .expect("profile");
    edit_save(&path, |v| {
        v["option_changes"][0]["profile"] = serde_json::json!("mine.toml")
    });
    let loaded = Engine::load_save(&path, Limits::default())
        .unwrap_or_else(|e| panic!("the profile beside the save is read: {e}"));
    assert_eq!(
        loaded.options().values.get("stack_limit"),
        Some(&serde_json::json!(1))
    );
    // a change's profile that is no Kessel file is refused as the save's own is
    edit_save(&path, |v| {
        v["option_changes"][0]["profile"] = serde_json::json!("/dev/zero")
    });
    let err = load_error(&path);
    assert!(err.contains("game.json") && err.contains(".toml"), "{err}");
}

/// Reload points past the log, or out of order, are no reloads a game made.
#[test]
fn rules_reloaded_at_past_the_log_or_out_of_order_is_refused() {
    let path = saved_game("hostile-reloaded-at");
    edit_save(&path, |v| v["rules_reloaded_at"] = serde_json::json!([5]));
    let err = load_error(&path);
    assert!(err.contains("rules_reloaded_at"), "{err}");
    edit_save(&path, |v| {
        v["rules_reloaded_at"] = serde_json::json!([2, 1])
    });
    let err = load_error(&path);
    assert!(err.contains("rules_reloaded_at"), "{err}");
}

/// Many changes at one point are made in one pass, not one pass over them per action.
#[test]
fn a_hundred_thousand_option_changes_load_in_time() {
    let path = saved_game("hostile-many-changes");
    edit_save(&path, |v| {
        let change = v["option_changes"][0].clone();
        let mut many = vec![change; 100_000];
        for (i, c) in many.iter_mut().enumerate() {
            c["at"] = serde_json::json!(if i == 0 { 1 } else { 2 });
        }
        v["option_changes"] = serde_json::Value::Array(many);
    });
    let started = std::time::Instant::now();
    let loaded = Engine::load_save(&path, Limits::default());
    assert!(loaded.is_ok(), "{:?}", loaded.err().map(|e| e.to_string()));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
}

/// A save opened through a link in another folder loads: the files it names were looked for
/// beside the link only, and it was said to miss its scenario.
#[cfg(unix)]
#[test]
fn a_save_opened_through_a_link_elsewhere_loads() {
    let path = saved_game("hostile-linked-save");
    let elsewhere = kessel_test_support::scratch("hostile-linked-save-link");
    std::fs::create_dir_all(&elsewhere).expect("folder");
    let link = elsewhere.join("game.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&path, &link).expect("link");
    let loaded = Engine::load_save(&link, Limits::default())
        .unwrap_or_else(|e| panic!("loads through the link: {e}"));
    assert_eq!(loaded.log().len(), 2);
}

/// A change that puts two variants of one table in force, neither declared for both, is
/// refused as the save's own options are: the game was replayed under one of them, the other
/// dropped unseen.
#[test]
fn an_option_change_into_a_variant_conflict_is_refused() {
    let path = saved_game("hostile-change-conflict");
    let init = path.with_file_name("init.lua");
    let text = std::fs::read_to_string(&init).expect("init.lua");
    let crt = "columns = { \"1-2\", \"1-1\", \"2-1\", \"3-1\" }, rows = { { \"AE\", \"AE\", \"AE\", \"AE\" } }";
    std::fs::write(
        &init,
        format!(
            "{text}\nkessel.option{{ id = \"va\", type = \"bool\", default = false, description = \"a\", rule = \"T98\" }}\n\
             kessel.option{{ id = \"vb\", type = \"bool\", default = false, description = \"b\", rule = \"T99\" }}\n\
             kessel.results_table{{ id = \"crt\", kind = \"ratio\", {crt}, when = {{ va = true }} }}\n\
             kessel.results_table{{ id = \"crt\", kind = \"ratio\", {crt}, when = {{ vb = true }} }}\n"
        ),
    )
    .expect("write");
    // the new options at their defaults: the save still loads
    let loaded = Engine::load_save(&path, Limits::default());
    assert!(loaded.is_ok(), "{:?}", loaded.err().map(|e| e.to_string()));
    edit_save(&path, |v| {
        v["option_changes"][0]["options"]["va"] = serde_json::json!(true);
        v["option_changes"][0]["options"]["vb"] = serde_json::json!(true);
    });
    let err = load_error(&path);
    assert!(
        err.contains("the options changed after action 1") && err.contains("init.lua"),
        "{err}"
    );
}
