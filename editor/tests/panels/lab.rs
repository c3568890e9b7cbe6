//! The rules panel's balance lab on the toy ruleset: a short run comes back with the verdict
//! line `kessel simulate` prints, Cancel stops a long one, a profile that does not load is named
//! in the panel, and what the run will not play is said.

use super::toy::{harness, toy_copy};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use kessel_editor::lab::RunState;
use kessel_editor::EditorApp;
use std::time::{Duration, Instant};

/// Opens the rules mode's balance lab.
fn open_lab(h: &mut Harness<'_, EditorApp>) {
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label("Balance lab").click();
    h.run();
    assert!(h.state().rules_panel.lab_open);
}

/// Draws frames (the window keeps drawing while the games play) until `done` holds.
fn frames_until(
    h: &mut Harness<'_, EditorApp>,
    what: &str,
    done: impl Fn(&EditorApp) -> bool,
) -> usize {
    let start = Instant::now();
    let mut frames = 0;
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "timed out waiting for {what}"
        );
        h.step();
        frames += 1;
        std::thread::sleep(Duration::from_millis(10));
    }
    frames
}

fn busy(app: &EditorApp) -> bool {
    app.rules_panel.lab.run.as_ref().is_some_and(|r| r.busy())
}

/// A run was started and its threads have ended (a click is only seen on the next frame).
fn ended(app: &EditorApp) -> bool {
    app.rules_panel.lab.run.as_ref().is_some_and(|r| !r.busy())
}

#[test]
fn a_short_run_shows_the_levels_the_chart_and_the_verdict() {
    let dir = toy_copy("lab-run");
    let mut h = harness(&dir);
    open_lab(&mut h);
    // the profile in force is the scenario's; the panel offers the other one to compare with
    h.get_by_label("This profile");
    assert_eq!(h.state().rules_panel.lab.against, "open");
    h.get_by_label("Plays scenario.toml and the profiles as saved on disk.");
    h.state_mut().rules_panel.lab.games = 6;
    h.run();
    h.get_by_label("Run").click();
    h.step();
    assert!(busy(h.state()), "the games play in the background");
    let frames = frames_until(&mut h, "the run to end", ended);
    assert!(frames >= 1, "frames were drawn while the games played");
    h.run();
    let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
    assert_eq!(run.state, RunState::Done);
    assert_eq!(run.error, None);
    assert_eq!((run.done(), run.total), (12, 12));
    let (data, s) = run.results().expect("results");
    assert_eq!(s.profiles.len(), 2);
    assert_eq!(s.paired[0].seeds, 6, "the same six seeds under both");
    let seeds: Vec<u64> = data.games.iter().map(|g| g.seed).collect();
    assert_eq!(seeds, [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]);
    // the verdict line is the one `kessel simulate` prints for these games
    let line = kessel_lab::summary::verdict_line(&s.paired[0]).expect("a verdict");
    assert!(line.starts_with("verdict on red − blue: "), "{line}");
    assert!(run
        .text()
        .expect("summary")
        .contains(&format!("  {line}\n")));
    let cmd = run.request.command_line().expect("a command line");
    assert!(
        cmd.starts_with("kessel simulate ")
            && cmd.ends_with(
                "scenario.toml --games 6 --seed 1 --profile standard --against-profile open"
            ),
        "{cmd}"
    );
    // the verdict, wrapped or not, keeps clear of the results' scroll bar: bars take room of
    // their own (a floating bar was drawn over the last characters of a wrapped verdict)
    let verdict = h.get_by_label(&line).rect();
    let window = h.ctx.content_rect();
    let (bar, room) = {
        let scroll = &h.ctx.global_style().spacing.scroll;
        (
            scroll.bar_width + scroll.bar_inner_margin,
            scroll.allocated_width(),
        )
    };
    assert!(
        room >= bar,
        "a scroll bar takes {room} px of the {bar} it draws"
    );
    assert!(
        verdict.right() <= window.right() - bar - 4.0,
        "the verdict ends at {} under the scroll bar (window {window:?})",
        verdict.right()
    );
    h.get_by_label("standard − open: 6 seeds finished under both, the victory level differs on 0");
    h.get_by_label("change in red − blue per seed (standard − open)");
    h.get_by_label_contains("12/12 games, ");
    h.get_by_label("standard: 6 games, 6 finished");
    h.get_by_label("open: 6 games, 6 finished");
    super::picture(&mut h, "lab-run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cancel_stops_a_long_run_and_keeps_the_games_played() {
    let dir = toy_copy("lab-cancel");
    let mut h = harness(&dir);
    open_lab(&mut h);
    h.state_mut().rules_panel.lab.games = 50_000;
    h.run();
    h.get_by_label("Run").click();
    frames_until(&mut h, "the first games", |app| {
        app.rules_panel
            .lab
            .run
            .as_ref()
            .is_some_and(|r| r.done() >= 2)
    });
    {
        // the frames came back while the games went on: the window never waited for them
        let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
        assert_eq!(run.state, RunState::Running);
        assert!(run.done() < run.total);
    }
    h.get_by_label("Cancel").click();
    h.step();
    let frames = frames_until(&mut h, "the threads to stop", ended);
    assert!(frames < 2000, "stopped promptly ({frames} frames)");
    h.run();
    let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
    assert_eq!(run.state, RunState::Cancelled);
    assert_eq!(run.error, None, "a cancelled game is no error");
    let done = run.done();
    assert!((2..1000).contains(&done), "{done} of {} games", run.total);
    h.get_by_label_contains(&format!("{done}/100000 games, "));
    h.get_by_label_contains(", cancelled");
    // the statistics of the games played before the cancel are shown
    assert!(run.results().is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_profile_that_does_not_load_is_named_in_the_panel() {
    let dir = toy_copy("lab-broken");
    std::fs::write(
        dir.join("profiles/broken.toml"),
        "[profile]\ndescription = \"x\"\n[options]\nno_such_option = true\n",
    )
    .expect("write profile");
    let mut h = harness(&dir);
    open_lab(&mut h);
    h.state_mut().rules_panel.refresh(&dir);
    h.state_mut().rules_panel.lab.against = "broken".into();
    h.state_mut().rules_panel.lab.games = 3;
    h.run();
    h.get_by_label("Run").click();
    frames_until(&mut h, "the run to end", ended);
    h.run();
    let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
    let e = run.error.clone().expect("an error");
    assert!(e.starts_with("profile broken does not load: "), "{e}");
    assert!(e.contains("no_such_option"), "{e}");
    assert_eq!(run.done(), 0, "no game is played");
    h.get_by_label_contains("The lab stopped: profile broken does not load: ");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_a_run_does_not_play_is_said() {
    let dir = toy_copy("lab-unsaved");
    let mut h = harness(&dir);
    open_lab(&mut h);
    assert!(h.query_by_label_contains("Not played").is_none());
    // an option flipped by hand is not in any profile on disk
    let app = h.state_mut();
    app.apply_play(vec![kessel_editor::play::PlayCommand::SetOption(
        "woods_double".into(),
        serde_json::Value::Bool(false),
    )]);
    h.run();
    h.get_by_label(
        "Not played: the option(s) changed by hand (woods_double); save them as a new profile \
         to test them.",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_option_defaults_are_played_as_defaults_even_when_the_scenario_names_a_profile() {
    use kessel_editor::lab::{LabProfile, LabRequest, LabRun};
    let dir = toy_copy("lab-defaults");
    let scenario = dir.join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).expect("read scenario");
    assert!(text.contains("profile = \"standard\""), "{text}");
    std::fs::write(
        &scenario,
        text.replace("profile = \"standard\"", "profile = \"open\""),
    )
    .expect("write scenario");
    let mut run = LabRun::start(
        LabRequest {
            scenario,
            profile: LabProfile::Named("open".into()),
            against: Some(LabProfile::Defaults),
            games: 3,
            seed: 7,
            workers: 2,
            players: Default::default(),
            against_players: None,
        },
        None,
    );
    let start = Instant::now();
    while run.busy() {
        assert!(start.elapsed() < Duration::from_secs(120), "timed out");
        run.poll();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(run.error, None);
    assert_eq!(run.state, RunState::Done);
    let (data, s) = run.results().expect("results");
    let options = |i: usize| {
        let p = &data.header.profiles[i];
        (
            p.name.clone(),
            p.options.get("woods_double").cloned(),
            p.options.get("stack_limit").cloned(),
        )
    };
    assert_eq!(
        options(0),
        ("open".into(), Some(false.into()), Some(3.into()))
    );
    // not the scenario's own profile: every option at its declared default
    assert_eq!(
        options(1),
        ("defaults".into(), Some(true.into()), Some(2.into()))
    );
    assert_eq!(s.paired[0].seeds, 3);
    assert_eq!(
        run.request.command_line(),
        None,
        "the command line has no word for the defaults here"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Who plays each side can be picked: the toy's `timid` AI level for red plays both profiles'
/// games (red never attacks), the data says so, and the command line that replays the run too.
#[test]
fn a_side_can_be_played_at_another_ai_level_in_the_lab() {
    let dir = toy_copy("lab-players");
    let mut h = harness(&dir);
    open_lab(&mut h);
    h.get_by_label("red played by").click();
    h.run();
    h.get_by_label("AI (timid)").click();
    h.run();
    assert_eq!(
        h.state()
            .rules_panel
            .lab
            .players
            .get("red")
            .map(String::as_str),
        Some("ai:timid")
    );
    h.state_mut().rules_panel.lab.games = 4;
    h.run();
    h.get_by_label("Run").click();
    h.step();
    frames_until(&mut h, "the run to end", ended);
    h.run();
    let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
    assert_eq!(run.error, None);
    let (data, _) = run.results().expect("results");
    assert_eq!(
        data.header.players.get("red").map(String::as_str),
        Some("ai:timid")
    );
    assert_eq!(data.games.len(), 8);
    for g in &data.games {
        let red = g.actions_by_side.get("red").cloned().unwrap_or_default();
        assert!(!red.contains_key("attack"), "timid red attacked: {red:?}");
    }
    let line = run.request.command_line().expect("a command line");
    assert!(line.contains("--ai red=ai:timid"), "{line}");
}

/// *Against* "(other players)" plays the profile in force twice on the same seeds, the second
/// time with the players picked for it, and pairs them as `kessel simulate --against-ai` does.
#[test]
fn the_lab_compares_two_ways_of_playing_one_profile() {
    use kessel_editor::panels::lab::OTHER_PLAYERS;
    let dir = toy_copy("lab-against-players");
    let mut h = harness(&dir);
    open_lab(&mut h);
    h.state_mut().rules_panel.lab.against = OTHER_PLAYERS.to_string();
    h.run();
    h.get_by_label("red against").click();
    h.run();
    h.get_by_label("AI (timid)").click();
    h.run();
    h.state_mut().rules_panel.lab.games = 4;
    h.run();
    h.get_by_label("Run").click();
    h.step();
    frames_until(&mut h, "the run to end", ended);
    h.run();
    let run = h.state().rules_panel.lab.run.as_ref().expect("a run");
    assert_eq!(run.error, None);
    let (data, s) = run.results().expect("results");
    let names: Vec<&str> = data
        .header
        .profiles
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["standard (default AI)", "standard (red=ai:timid)"]);
    assert_eq!(
        data.header.profiles[1]
            .players
            .get("red")
            .map(String::as_str),
        Some("ai:timid")
    );
    assert_eq!(s.paired[0].seeds, 4, "the same seeds both ways");
    for g in data
        .games
        .iter()
        .filter(|g| g.profile.ends_with("(red=ai:timid)"))
    {
        let red = g.actions_by_side.get("red").cloned().unwrap_or_default();
        assert!(!red.contains_key("attack"), "timid red attacked: {red:?}");
    }
    let line = run.request.command_line().expect("a command line");
    assert!(line.contains("--against-ai red=ai:timid"), "{line}");
    assert!(!line.contains("--against-profile"), "{line}");
    super::picture(&mut h, "lab-against-players");
}
