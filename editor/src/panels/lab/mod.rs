//! The rules panel's *Balance lab*: N games of the profile in force against a profile of the
//! ruleset (or alone), played in the background ([`crate::lab`]) with a progress bar and a
//! Cancel button; as games come in it shows the victory levels and VP with their 95% intervals,
//! the paired change with the verdict line `kessel simulate` prints, and a chart of the VP
//! difference seed by seed (egui_plot).

use crate::lab::{default_workers, LabProfile, LabRequest, LabRun, RunState};
use egui::{Color32, RichText, Ui};
use egui_plot::{HLine, Line, Plot, PlotPoints, Points, Polygon};
use kessel_lab::stats::MeanCi;
use kessel_lab::summary::{self, Paired, ProfileStats};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

mod players;
use players::players_row;

/// The "profile" that stands for no comparison in the list.
pub const ALONE: &str = "(no comparison)";
/// The option defaults in the list.
pub const DEFAULTS: &str = "(defaults)";
/// This profile again, with other players (`kessel simulate --against-ai`).
pub const OTHER_PLAYERS: &str = "(other players)";
/// Notes about what is not played.
const NOTE: Color32 = Color32::from_rgb(250, 200, 60);
/// The mean and its interval in the chart.
const BAND: Color32 = Color32::from_rgb(120, 200, 120);
/// Profile colours in the chart, in play order.
const COLOURS: [Color32; 2] = [
    Color32::from_rgb(90, 160, 240),
    Color32::from_rgb(240, 150, 60),
];

/// What the lab needs to know of the editor this frame.
pub struct LabCx<'a> {
    /// The scenario file as saved (none for a bare map).
    pub scenario: Option<&'a Path>,
    /// The profile in force (the defaults when none is named).
    pub profile: LabProfile,
    /// The ruleset's profiles.
    pub profiles: &'a [String],
    /// What the run will not see: unsaved edits, options changed by hand.
    pub unsaved: Vec<String>,
    /// The sides playing, for choosing who plays each (none: every side the default AI).
    pub sides: &'a [String],
    /// The levels of the ruleset's computer player, the default first.
    pub ai_levels: &'a [String],
}

/// The lab's settings and its current run.
#[derive(Debug)]
pub struct LabPanel {
    /// Games per profile.
    pub games: u64,
    /// Seed of the first game.
    pub seed: u64,
    /// The profile to compare with: a profile name, [`DEFAULTS`] or [`ALONE`]; empty until
    /// the panel first picks one (the first profile that is not the one in force).
    pub against: String,
    /// Who plays each side where it is not the ruleset's AI at its default level: side → the
    /// player's word of `kessel simulate --ai` (`ai:LEVEL`, `random`).
    pub players: BTreeMap<String, String>,
    /// With *Against* [`OTHER_PLAYERS`]: who plays each side in the games compared with.
    pub against_players: BTreeMap<String, String>,
    /// The run under way or last run.
    pub run: Option<LabRun>,
    /// Why the last Run did not start.
    pub start_error: Option<String>,
}

impl Default for LabPanel {
    fn default() -> LabPanel {
        LabPanel {
            games: 20,
            seed: 1,
            against: String::new(),
            players: BTreeMap::new(),
            against_players: BTreeMap::new(),
            run: None,
            start_error: None,
        }
    }
}

impl LabPanel {
    /// The profile to compare with, as the lab names it.
    fn against_profile(&self) -> Option<LabProfile> {
        match self.against.as_str() {
            ALONE | OTHER_PLAYERS | "" => None,
            DEFAULTS => Some(LabProfile::Defaults),
            p => Some(LabProfile::Named(p.to_string())),
        }
    }

    /// The profiles to compare with; picks the first one that is not the profile in force when
    /// none (or one no longer offered) is picked.
    fn settle_against(&mut self, cx: &LabCx<'_>) -> Vec<String> {
        let mut choices = vec![ALONE.to_string()];
        if !cx.sides.is_empty() {
            choices.push(OTHER_PLAYERS.to_string());
        }
        if cx.profile != LabProfile::Defaults {
            choices.push(DEFAULTS.to_string());
        }
        choices.extend(
            cx.profiles
                .iter()
                .filter(|p| LabProfile::Named(p.to_string()) != cx.profile)
                .cloned(),
        );
        if self.against.is_empty() || !choices.contains(&self.against) {
            let first_profile = choices
                .iter()
                .find(|c| *c != ALONE && *c != DEFAULTS && *c != OTHER_PLAYERS);
            self.against = first_profile
                .or(choices.get(1))
                .cloned()
                .unwrap_or_else(|| ALONE.into());
        }
        choices
    }

    /// Starts a run with the panel's settings (a run under way is cancelled first).
    pub fn start(&mut self, cx: &LabCx<'_>, ctx: Option<egui::Context>) -> Result<(), String> {
        let scenario = cx
            .scenario
            .ok_or("the lab plays a scenario file: open or save one first")?;
        if self.games == 0 {
            return Err("play at least one game".into());
        }
        if let Some(run) = &mut self.run {
            run.cancel();
        }
        self.settle_against(cx);
        let playing = |players: &BTreeMap<String, String>| -> BTreeMap<String, String> {
            players
                .iter()
                .filter(|(side, _)| cx.sides.contains(side))
                .map(|(side, word)| (side.clone(), word.clone()))
                .collect()
        };
        let players = playing(&self.players);
        let against_players =
            (self.against == OTHER_PLAYERS).then(|| playing(&self.against_players));
        if against_players.as_ref() == Some(&players) {
            return Err("the players compared with are the same: pick another for a side".into());
        }
        let request = LabRequest {
            scenario: scenario.to_path_buf(),
            profile: cx.profile.clone(),
            against: self.against_profile().filter(|p| *p != cx.profile),
            games: self.games,
            seed: self.seed,
            workers: default_workers(),
            players,
            against_players,
        };
        self.run = Some(LabRun::start(request, ctx));
        Ok(())
    }

    /// Draws the lab.
    pub fn ui(&mut self, ui: &mut Ui, cx: &LabCx<'_>) {
        if let Some(run) = &mut self.run {
            run.poll();
            if run.busy() {
                // the clock and the estimate move between games too
                ui.ctx().request_repaint_after(Duration::from_millis(500));
            }
        }
        let choices = self.settle_against(cx);
        ui.label(
            "Plays whole games headless, the ruleset's AI on every side (or the players picked \
             below), under the profile in force and under another on the same seeds, and says \
             whether the difference is more than chance.",
        );
        let busy = self.run.as_ref().is_some_and(LabRun::busy);
        egui::Grid::new("lab_settings")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("This profile");
                ui.label(RichText::new(cx.profile.name()).strong());
                ui.end_row();
                let label = ui.label("Against");
                egui::ComboBox::from_id_salt("lab_against")
                    .selected_text(self.against.as_str())
                    .show_ui(ui, |ui| {
                        for c in &choices {
                            ui.selectable_value(&mut self.against, c.clone(), c);
                        }
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
                for side in cx.sides {
                    players_row(ui, &mut self.players, side, "played by", cx.ai_levels, busy);
                }
                if self.against == OTHER_PLAYERS {
                    for side in cx.sides {
                        let players = &mut self.against_players;
                        players_row(ui, players, side, "against", cx.ai_levels, busy);
                    }
                }
                let label = ui.label("Games");
                ui.add_enabled(
                    !busy,
                    egui::DragValue::new(&mut self.games).range(1..=100_000),
                )
                .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("First seed");
                ui.add_enabled(!busy, egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
                ui.end_row();
            });
        match cx.scenario {
            Some(p) => {
                let file = p.file_name().map_or(p.display().to_string(), |f| {
                    f.to_string_lossy().into_owned()
                });
                ui.label(format!("Plays {file} and the profiles as saved on disk."))
                    .on_hover_text(p.display().to_string());
            }
            None => {
                ui.label(
                    RichText::new("A bare map: the lab plays a scenario file.")
                        .color(super::play::REFUSAL),
                );
            }
        }
        for note in &cx.unsaved {
            ui.label(RichText::new(note).color(NOTE));
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!busy && cx.scenario.is_some(), egui::Button::new("Run"))
                .clicked()
            {
                self.start_error = self.start(cx, Some(ui.ctx().clone())).err();
            }
            let cancellable = self
                .run
                .as_ref()
                .is_some_and(|r| r.state == RunState::Running);
            if ui
                .add_enabled(cancellable, egui::Button::new("Cancel"))
                .clicked()
            {
                if let Some(run) = &mut self.run {
                    run.cancel();
                }
            }
        });
        if let Some(e) = &self.start_error {
            ui.label(RichText::new(e).color(super::play::REFUSAL));
        }
        if let Some(run) = &self.run {
            run_ui(ui, run);
        }
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Progress, error and results of a run.
fn run_ui(ui: &mut Ui, run: &LabRun) {
    let done = run.done();
    let fraction = if run.total == 0 {
        1.0
    } else {
        done as f32 / run.total as f32
    };
    let mut text = format!("{done}/{} games, {}", run.total, clock(run.elapsed()));
    match run.state {
        RunState::Running => {
            if let Some(eta) = run.eta() {
                text.push_str(&format!(" (about {} left)", clock(eta)));
            }
        }
        RunState::Cancelled if run.busy() => text.push_str(", cancelling…"),
        RunState::Cancelled => text.push_str(", cancelled"),
        RunState::Done => text.push_str(", done"),
    }
    ui.add(egui::ProgressBar::new(fraction).text(text));
    if run.state == RunState::Running {
        let w = run.request.workers;
        ui.label(
            RichText::new(format!(
                "on {w} background thread{}; the editor stays usable",
                if w == 1 { "" } else { "s" }
            ))
            .small(),
        );
    }
    if let Some(e) = &run.error {
        ui.label(RichText::new(format!("The lab stopped: {e}")).color(super::play::REFUSAL));
    }
    let Some((data, s)) = run.results() else {
        return;
    };
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // the answer first: the paired change and its verdict, the chart, then the detail
            for pr in &s.paired {
                paired_ui(ui, pr);
            }
            chart_ui(ui, data, s);
            for p in &s.profiles {
                ui.separator();
                profile_ui(ui, p, data.header.max_actions);
            }
            egui::CollapsingHeader::new("Summary as `kessel simulate` prints it")
                .default_open(false)
                .show(ui, |ui| {
                    if let Some(cmd) = run.request.command_line() {
                        ui.label(RichText::new(cmd).monospace().small());
                    }
                    let text = summary::text(data, s);
                    ui.label(RichText::new(text).monospace().small());
                });
        });
}

fn interval(m: &MeanCi, signed: bool) -> String {
    match m.ci {
        Some(ci) if signed => format!("[{:+.1}, {:+.1}]", ci.lo, ci.hi),
        Some(ci) => format!("[{:.1}, {:.1}]", ci.lo, ci.hi),
        None => "(needs 2 games)".into(),
    }
}

fn profile_ui(ui: &mut Ui, p: &ProfileStats, max_actions: usize) {
    let unfinished = p.games - p.finished;
    ui.label(
        RichText::new(format!(
            "{}: {} game{}, {} finished",
            p.name,
            p.games,
            if p.games == 1 { "" } else { "s" },
            p.finished
        ))
        .strong(),
    );
    if unfinished > 0 {
        ui.label(format!(
            "{unfinished} unfinished (stopped at {max_actions} actions or at a dead end) are left out"
        ));
    }
    if p.finished == 0 {
        return;
    }
    egui::Grid::new(("lab_profile", &p.name))
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            for h in ["victory level", "games", "share", "95% interval"] {
                ui.label(RichText::new(h).small());
            }
            ui.end_row();
            for (level, k, ci) in &p.levels {
                ui.label(level);
                ui.label(k.to_string());
                ui.label(format!("{:.0}%", 100.0 * *k as f64 / p.finished as f64));
                ui.label(format!("[{:.0}%, {:.0}%]", 100.0 * ci.lo, 100.0 * ci.hi));
                ui.end_row();
            }
            for h in ["VP", "mean", "sd", "95% interval"] {
                ui.label(RichText::new(h).small());
            }
            ui.end_row();
            for (label, m) in &p.vp {
                ui.label(label);
                ui.label(format!("{:.1}", m.mean));
                ui.label(format!("{:.1}", m.sd));
                ui.label(interval(m, false));
                ui.end_row();
            }
        });
}

fn paired_ui(ui: &mut Ui, pr: &Paired) {
    ui.label(
        RichText::new(format!(
            "{} − {}: {} finished under both, the victory level differs on {}",
            pr.a,
            pr.b,
            crate::words::count(pr.seeds, "seed"),
            pr.levels_changed
        ))
        .strong(),
    );
    if let Some((label, m)) = pr.key() {
        ui.label(format!(
            "change in {label}: {:+.1} VP, sd {:.1}, 95% interval {}",
            m.mean,
            m.sd,
            interval(m, true)
        ));
    }
    if let Some(line) = summary::verdict_line(pr) {
        ui.label(RichText::new(line).strong());
    }
    if let Some(line) = summary::games_needed_line(pr) {
        ui.label(line);
    }
}

/// The VP difference seed by seed: with a comparison, the paired change (a − b) with its mean
/// and 95% interval; each profile's own difference as lighter points. Alone, the profile's
/// difference with its mean and interval.
fn chart_ui(ui: &mut Ui, data: &kessel_lab::record::Data, s: &summary::Summary) {
    let sides = summary::side_order(&data.header);
    let Some(label) = summary::difference_label(&sides) else {
        return;
    };
    let key_of = |g: &kessel_lab::record::GameRecord| {
        summary::vp_rows(&data.header, &g.scores)
            .last()
            .map(|(_, v)| *v)
    };
    let seeds: Vec<u64> = {
        let mut v: Vec<u64> = data.games.iter().map(|g| g.seed).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (lo, hi) = match (seeds.first(), seeds.last()) {
        (Some(a), Some(b)) => (*a as f64 - 0.5, *b as f64 + 0.5),
        _ => return,
    };
    let paired = s.paired.first();
    let title = match paired {
        Some(pr) => format!("change in {label} per seed ({} − {})", pr.a, pr.b),
        None => format!("{label} per seed"),
    };
    ui.label(RichText::new(title).strong());
    Plot::new("lab_chart")
        .height(200.0)
        // room above the highest point and below the lowest: at egui_plot's 5% they were cut in
        // half by the frame
        .set_margin_fraction(egui::Vec2::new(0.05, 0.12))
        // seed numbers are short: label them closer than egui_plot's default of 60 points
        .custom_x_axes(vec![egui_plot::AxisHints::new_x()
            .label("seed")
            .label_spacing(24.0..=36.0)])
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
            // whole seeds, a dozen labels at most
            let span = (input.bounds.1 - input.bounds.0).max(1.0);
            let step = [1.0, 2.0, 5.0]
                .into_iter()
                .flat_map(|m| (0..12).map(move |e| m * 10f64.powi(e)))
                .filter(|s| span / s <= 12.0)
                .fold(f64::INFINITY, f64::min);
            [step, step * 5.0, step * 10.0]
        }))
        .y_axis_label("VP")
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, p) in s.profiles.iter().enumerate() {
                let pts: Vec<[f64; 2]> = data
                    .games
                    .iter()
                    .filter(|g| g.profile == p.name && g.finished)
                    .filter_map(|g| key_of(g).map(|v| [g.seed as f64, v]))
                    .collect();
                let colour = COLOURS[i % COLOURS.len()];
                let colour = if paired.is_some() {
                    colour.gamma_multiply(0.45)
                } else {
                    colour
                };
                plot.points(
                    Points::new(format!("{} {label}", p.name), PlotPoints::new(pts))
                        .radius(2.5)
                        .color(colour),
                );
            }
            let (name, m, pts) = match paired {
                Some(pr) => {
                    let Some((_, m)) = pr.key() else { return };
                    let pts = paired_points(data, pr, &key_of);
                    (format!("change {} − {}", pr.a, pr.b), *m, pts)
                }
                None => {
                    let Some((_, m)) = s.profiles.first().and_then(|p| p.vp.last()) else {
                        return;
                    };
                    (String::new(), *m, Vec::new())
                }
            };
            if !pts.is_empty() {
                plot.points(
                    Points::new(name.clone(), PlotPoints::new(pts))
                        .radius(4.0)
                        .filled(true)
                        .color(Color32::WHITE),
                );
            }
            if let Some(ci) = m.ci {
                plot.polygon(
                    Polygon::new(
                        "95% interval of the mean",
                        PlotPoints::new(vec![[lo, ci.lo], [hi, ci.lo], [hi, ci.hi], [lo, ci.hi]]),
                    )
                    .fill_color(BAND.gamma_multiply(0.2))
                    .stroke(egui::Stroke::new(1.0, BAND)),
                );
            }
            plot.line(
                Line::new(
                    format!("mean {:+.1}", m.mean),
                    PlotPoints::new(vec![[lo, m.mean], [hi, m.mean]]),
                )
                .color(BAND)
                .width(2.0),
            );
            let zero = if paired.is_some() {
                "no change"
            } else {
                "0 VP"
            };
            plot.hline(HLine::new(zero, 0.0).color(Color32::GRAY));
        });
    // the key instead of a legend, which would cover the points
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let key = |ui: &mut Ui, colour: Color32, text: &str| {
            // a painted dot: the default fonts have no round bullet
            let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 4.0, colour);
            ui.label(RichText::new(text).small());
        };
        if paired.is_some() {
            key(ui, Color32::WHITE, "change on one seed;");
        }
        key(ui, BAND, "mean and its 95% interval;");
        for (i, p) in s.profiles.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let c = if paired.is_some() {
                c.gamma_multiply(0.45)
            } else {
                c
            };
            key(ui, c, &format!("{} {label}", p.name));
        }
    });
}

/// Per seed finished under both, the key difference's change a − b.
fn paired_points(
    data: &kessel_lab::record::Data,
    pr: &Paired,
    key_of: &dyn Fn(&kessel_lab::record::GameRecord) -> Option<f64>,
) -> Vec<[f64; 2]> {
    let of = |name: &str| -> std::collections::BTreeMap<u64, f64> {
        data.games
            .iter()
            .filter(|g| g.profile == name && g.finished)
            .filter_map(|g| key_of(g).map(|v| (g.seed, v)))
            .collect()
    };
    let b = of(&pr.b);
    of(&pr.a)
        .into_iter()
        .filter_map(|(seed, a)| b.get(&seed).map(|b| [seed as f64, a - b]))
        .collect()
}
