//! The lab's statistics over game records, as numbers (for charts) and as text (the summary
//! `kessel simulate` and `kessel report` print, byte for byte the same for the same games).

use super::measures::{play_stats, write_play, PlayStats};
use super::record::{Data, GameRecord, Header};
use crate::stats::{self, Interval, MeanCi};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Half-widths the summary says how many paired games would resolve.
pub const RESOLVE_VP: [f64; 3] = [10.0, 5.0, 2.0];

/// Statistics of one profile.
#[derive(Clone, Debug)]
pub struct ProfileStats {
    /// Profile name.
    pub name: String,
    /// Games recorded.
    pub games: usize,
    /// Games that reached their end (the statistics below are over these only).
    pub finished: usize,
    /// Level name → (games, 95% Wilson interval of the share), in rank order; levels the
    /// scenario does not declare come last.
    pub levels: Vec<(String, usize, Interval)>,
    /// VP by side, then the difference first − second side (labelled `a − b`).
    pub vp: Vec<(String, MeanCi)>,
    /// Turns reached: mean, min, max.
    pub turns: (f64, u32, u32),
    /// Actions: mean, min, max.
    pub actions: (f64, usize, usize),
    /// How the games were played (means per finished game), see [`PlayStats`].
    pub play: PlayStats,
}

/// The paired comparison of two profiles on the seeds both finished.
#[derive(Clone, Debug)]
pub struct Paired {
    /// First profile (the changed one).
    pub a: String,
    /// Second profile (the baseline).
    pub b: String,
    /// Seeds finished under both.
    pub seeds: usize,
    /// Per side and for the difference: the per-seed change a − b.
    pub diffs: Vec<(String, MeanCi)>,
    /// The per-seed changes of the key quantity (the difference, or the first side's VP).
    pub key_values: Vec<f64>,
    /// Seeds whose level differs.
    pub levels_changed: usize,
    /// Correlation across seeds of the key quantity under `a` and under `b`: how alike one seed
    /// plays under both (near 1, paired differences are sharp; near 0, no better than unpaired).
    pub correlation: Option<f64>,
}

impl Paired {
    /// The key row: the VP difference between the sides (or the only side's VP).
    pub fn key(&self) -> Option<&(String, MeanCi)> {
        self.diffs.last()
    }
}

/// Everything the summary shows.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Per profile, in header order.
    pub profiles: Vec<ProfileStats>,
    /// Each later profile against the first.
    pub paired: Vec<Paired>,
}

/// The sides in the order the statistics show them: the difference's two first, then the rest.
pub fn side_order(header: &Header) -> Vec<String> {
    let mut sides: Vec<String> = header.difference.clone();
    for s in &header.sides {
        if !sides.contains(s) {
            sides.push(s.clone());
        }
    }
    sides
}

/// The label of the VP difference between the first two sides, e.g. `german − soviet`.
pub fn difference_label(sides: &[String]) -> Option<String> {
    match sides {
        [a, b, ..] => Some(format!("{a} − {b}")),
        _ => None,
    }
}

/// The VP rows of a game: each side's final VP, then the difference of the first two sides.
/// Sides without a score count 0 when the game has scores at all; no rows when it has none.
pub fn vp_rows(header: &Header, scores: &BTreeMap<String, f64>) -> Vec<(String, f64)> {
    if scores.is_empty() {
        return Vec::new();
    }
    let mut sides: Vec<String> = side_order(header);
    for s in scores.keys() {
        if !sides.contains(s) {
            sides.push(s.clone());
        }
    }
    let mut rows: Vec<(String, f64)> = sides
        .iter()
        .map(|s| (s.clone(), scores.get(s).copied().unwrap_or(0.0)))
        .collect();
    if let (Some(label), [(_, a), (_, b), ..]) = (difference_label(&sides), rows.as_slice()) {
        let d = a - b;
        rows.push((label, d));
    }
    rows
}

/// Level names in rank order: the scenario's, then any others the games reached, by name.
pub fn ranked_levels(header: &Header, games: &[&GameRecord]) -> Vec<String> {
    let mut out = header.levels.clone();
    let mut extra: Vec<String> = games
        .iter()
        .filter_map(|g| g.level.clone())
        .filter(|l| !out.contains(l))
        .collect();
    extra.sort();
    extra.dedup();
    out.extend(extra);
    out
}

/// Computes the statistics of merged data.
pub fn summarize(data: &Data) -> Summary {
    let header = &data.header;
    let mut profiles = Vec::new();
    for p in &header.profiles {
        let all: Vec<&GameRecord> = data.games.iter().filter(|g| g.profile == p.name).collect();
        let done: Vec<&GameRecord> = all.iter().copied().filter(|g| g.finished).collect();
        let levels = ranked_levels(header, &done)
            .into_iter()
            .map(|l| {
                let k = done
                    .iter()
                    .filter(|g| g.level.as_deref() == Some(&l))
                    .count();
                (l, k, stats::wilson(k, done.len()))
            })
            .collect();
        let mut columns: Vec<(String, Vec<f64>)> = Vec::new();
        for g in &done {
            for (label, v) in vp_rows(header, &g.scores) {
                match columns.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, xs)) => xs.push(v),
                    None => columns.push((label, vec![v])),
                }
            }
        }
        let vp = columns
            .into_iter()
            .map(|(l, xs)| (l, stats::mean_ci(&xs)))
            .collect();
        let n = done.len().max(1) as f64;
        profiles.push(ProfileStats {
            name: p.name.clone(),
            games: all.len(),
            finished: done.len(),
            levels,
            vp,
            turns: (
                done.iter().map(|g| f64::from(g.turn)).sum::<f64>() / n,
                done.iter().map(|g| g.turn).min().unwrap_or(0),
                done.iter().map(|g| g.turn).max().unwrap_or(0),
            ),
            actions: (
                done.iter().map(|g| g.actions as f64).sum::<f64>() / n,
                done.iter().map(|g| g.actions).min().unwrap_or(0),
                done.iter().map(|g| g.actions).max().unwrap_or(0),
            ),
            play: play_stats(&done),
        });
    }
    let mut paired = Vec::new();
    if let Some((first, rest)) = header.profiles.split_first() {
        for other in rest {
            paired.push(pair(data, &first.name, &other.name));
        }
    }
    Summary { profiles, paired }
}

/// The paired comparison `a − b` over the seeds both finished.
pub fn pair(data: &Data, a: &str, b: &str) -> Paired {
    let header = &data.header;
    let of = |name: &str| -> BTreeMap<u64, &GameRecord> {
        data.games
            .iter()
            .filter(|g| g.profile == name && g.finished)
            .map(|g| (g.seed, g))
            .collect()
    };
    let (ga, gb) = (of(a), of(b));
    let mut columns: Vec<(String, Vec<f64>)> = Vec::new();
    let mut seeds = 0;
    let mut levels_changed = 0;
    let (mut key_a, mut key_b) = (Vec::new(), Vec::new());
    for (seed, x) in &ga {
        let Some(y) = gb.get(seed) else { continue };
        seeds += 1;
        if x.level != y.level {
            levels_changed += 1;
        }
        let (rx, ry) = (vp_rows(header, &x.scores), vp_rows(header, &y.scores));
        if let (Some((_, kx)), Some((_, ky))) = (rx.last(), ry.last()) {
            key_a.push(*kx);
            key_b.push(*ky);
        }
        for ((label, vx), (_, vy)) in rx.iter().zip(ry.iter()) {
            match columns.iter_mut().find(|(l, _)| l == label) {
                Some((_, xs)) => xs.push(vx - vy),
                None => columns.push((label.clone(), vec![vx - vy])),
            }
        }
    }
    let key_values = columns.last().map(|(_, xs)| xs.clone()).unwrap_or_default();
    Paired {
        a: a.to_string(),
        b: b.to_string(),
        seeds,
        diffs: columns
            .into_iter()
            .map(|(l, xs)| (l, stats::mean_ci(&xs)))
            .collect(),
        key_values,
        levels_changed,
        correlation: stats::pearson(&key_a, &key_b),
    }
}

/// The verdict on a paired key difference.
pub fn verdict(m: &MeanCi) -> String {
    match m.ci {
        None => "too few paired games for an interval".to_string(),
        Some(_) if m.sd == 0.0 && m.mean == 0.0 => {
            "not distinguishable from no change (no seed changed at all)".to_string()
        }
        Some(ci) if ci.contains(0.0) => {
            "not distinguishable from no change (the 95% interval contains 0)".to_string()
        }
        Some(_) => format!(
            "distinguishable from no change (the 95% interval excludes 0; mean change {:+.1} VP)",
            m.mean
        ),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(ci: Option<Interval>, signed: bool) -> String {
    match ci {
        Some(ci) if signed => format!("[{:>+7.1}, {:>+7.1}]", ci.lo, ci.hi),
        Some(ci) => format!("[{:>7.1}, {:>7.1}]", ci.lo, ci.hi),
        None => "(needs 2 games)".to_string(),
    }
}

/// The seeds played, as text: `1..10` when contiguous.
fn seeds_text(data: &Data) -> String {
    let mut seeds: Vec<u64> = data.games.iter().map(|g| g.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    match (seeds.first(), seeds.last()) {
        (Some(lo), Some(hi)) if hi - lo + 1 == seeds.len() as u64 => {
            format!("{} seed{} ({lo}..{hi})", seeds.len(), plural(seeds.len()))
        }
        (Some(lo), Some(hi)) => format!("{} seeds (between {lo} and {hi})", seeds.len()),
        _ => "no seeds".to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The statistics as text (deterministic: no timings).
pub fn text(data: &Data, s: &Summary) -> String {
    let mut out = String::new();
    let h = &data.header;
    let _ = writeln!(
        out,
        "{}: {} game{}, {} × {} profile{}",
        h.scenario.name,
        data.games.len(),
        plural(data.games.len()),
        seeds_text(data),
        h.profiles.len(),
        plural(h.profiles.len())
    );
    if !h.players.is_empty() {
        let players: Vec<String> = h.players.iter().map(|(s, p)| format!("{s}={p}")).collect();
        let default = match h.ai_levels.first() {
            Some(level) => format!(" at its default level `{level}`"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "players: {} (the other sides: the ruleset's AI{default})",
            players.join(", ")
        );
    }
    for p in &s.profiles {
        let unfinished = p.games - p.finished;
        let _ = writeln!(
            out,
            "profile {}: {} game{}, {} finished{}",
            p.name,
            p.games,
            plural(p.games),
            p.finished,
            if unfinished > 0 {
                format!(
                    ", {unfinished} unfinished (stopped at the limit of {} actions or at a dead end; excluded below)",
                    h.max_actions
                )
            } else {
                String::new()
            }
        );
        if p.finished == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<26} {:>6} {:>7}  95% interval",
            "victory level", "games", "share"
        );
        for (level, k, ci) in &p.levels {
            let _ = writeln!(
                out,
                "  {:<26} {:>6} {:>7}  [{:>6}, {:>6}]",
                level,
                k,
                pct(*k as f64 / p.finished as f64),
                pct(ci.lo),
                pct(ci.hi)
            );
        }
        if !p.vp.is_empty() {
            let _ = writeln!(
                out,
                "  {:<26} {:>6} {:>7}  95% interval",
                "VP", "mean", "sd"
            );
            for (label, m) in &p.vp {
                let _ = writeln!(
                    out,
                    "  {:<26} {:>6.1} {:>7.1}  {}",
                    label,
                    m.mean,
                    m.sd,
                    interval(m.ci, false)
                );
            }
        }
        let _ = writeln!(
            out,
            "  game length: {:.1} turns ({} to {}), {:.0} actions ({} to {})",
            p.turns.0, p.turns.1, p.turns.2, p.actions.0, p.actions.1, p.actions.2
        );
        write_play(&mut out, &p.play);
    }
    for pr in &s.paired {
        let _ = writeln!(
            out,
            "paired {} − {}: {} seed{} finished under both",
            pr.a,
            pr.b,
            pr.seeds,
            plural(pr.seeds)
        );
        if pr.seeds == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "  levels differ on {} of {} seeds",
            pr.levels_changed, pr.seeds
        );
        if let Some(r) = pr.correlation {
            let _ = writeln!(
                out,
                "  seed-to-seed correlation {r:+.2} (how alike one seed plays under both; near 1, pairing sharpens the comparison)"
            );
        }
        if pr.diffs.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<26} {:>6} {:>7}  95% interval",
            "change in VP", "mean", "sd"
        );
        for (label, m) in &pr.diffs {
            let _ = writeln!(
                out,
                "  {:<26} {:>+6.1} {:>7.1}  {}",
                label,
                m.mean,
                m.sd,
                interval(m.ci, true)
            );
        }
        if let Some((label, m)) = pr.key() {
            let _ = writeln!(out, "  verdict on {label}: {}", verdict(m));
            let needs: Vec<String> = RESOLVE_VP
                .iter()
                .filter_map(|&h| {
                    stats::games_for_half_width(m.sd, h).map(|n| format!("±{h:.0} VP: about {n}"))
                })
                .collect();
            if m.ci.is_some() && !needs.is_empty() {
                let _ = writeln!(
                    out,
                    "  paired games for a 95% interval of {}",
                    needs.join(", ")
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::record::{GameRecord, MapInfo, ProfileInfo, Seeds, Source};

    fn header(profiles: &[&str]) -> Header {
        Header {
            kind: "header".into(),
            format: super::super::record::FORMAT.into(),
            engine: "kessel test".into(),
            scenario: Source {
                name: "Test".into(),
                path: "t.toml".into(),
                hash: "0".into(),
            },
            ruleset: Source {
                name: "r".into(),
                path: "r".into(),
                hash: "0".into(),
            },
            sides: vec!["red".into(), "blue".into()],
            difference: vec![],
            levels: vec!["Blue wins".into(), "Red wins".into()],
            profiles: profiles
                .iter()
                .map(|p| ProfileInfo {
                    name: p.to_string(),
                    options: BTreeMap::new(),
                })
                .collect(),
            objectives: vec![],
            map: MapInfo {
                columns: 1,
                rows: 1,
                lower: vec![false],
            },
            max_actions: 100,
            players: BTreeMap::new(),
            ai_levels: Vec::new(),
            seeds: Seeds {
                first: 1,
                games: 3,
                shard: None,
            },
        }
    }

    fn game(profile: &str, seed: u64, finished: bool, red: f64, blue: f64) -> GameRecord {
        GameRecord {
            kind: "game".into(),
            profile: profile.into(),
            seed,
            finished,
            turn: 3,
            level: Some(if red > blue { "Red wins" } else { "Blue wins" }.into()),
            scores: [("red".to_string(), red), ("blue".to_string(), blue)].into(),
            per_turn: vec![],
            losses: BTreeMap::new(),
            actions: 10,
            actions_by_side: BTreeMap::new(),
            cpu_s: 0.0,
        }
    }

    #[test]
    fn how_the_games_were_played() {
        use super::super::record::TurnRecord;
        let turn = |t: u32, holder: Option<&str>, oos: f64| TurnRecord {
            turn: t,
            scores: BTreeMap::new(),
            control: [("Town".to_string(), holder.map(str::to_string))].into(),
            metrics: [("red_out_of_supply".to_string(), oos)].into(),
        };
        let mut g1 = game("a", 1, true, 1.0, 0.0);
        g1.actions_by_side = [(
            "red".to_string(),
            [("attack".to_string(), 3), ("move".to_string(), 7)].into(),
        )]
        .into();
        // red takes the town, blue takes it back: two changes of hands (nobody → red is none)
        g1.per_turn = vec![
            turn(1, None, 0.0),
            turn(2, Some("red"), 2.0),
            turn(3, Some("blue"), 4.0),
        ];
        let mut g2 = game("a", 2, true, 0.0, 1.0);
        g2.actions_by_side = [("red".to_string(), [("attack".to_string(), 1)].into())].into();
        g2.per_turn = vec![turn(1, Some("red"), 0.0), turn(2, Some("blue"), 0.0)];
        let data = Data {
            header: header(&["a"]),
            games: vec![g1, g2, game("a", 3, false, 0.0, 0.0)],
        };
        let s = summarize(&data);
        let play = &s.profiles[0].play;
        assert_eq!(
            play.actions,
            vec![(
                "red".to_string(),
                vec![("move".to_string(), 3.5), ("attack".to_string(), 2.0)]
            )]
        );
        // g1: red → blue (1) ; g2: red → blue (1): two changes over two finished games
        assert_eq!(play.changes_of_hands, 1.0);
        assert_eq!(
            play.metrics,
            vec![("red_out_of_supply".to_string(), 6.0 / 5.0)]
        );
        let text = text(&data, &s);
        assert!(
            text.contains("  red actions per game: move 3.5, attack 2.0"),
            "{text}"
        );
        assert!(
            text.contains("objectives changing hands per game: 1.0"),
            "{text}"
        );
    }

    #[test]
    fn levels_in_rank_order_and_unfinished_games_apart() {
        let data = Data {
            header: header(&["a"]),
            games: vec![
                game("a", 1, true, 5.0, 1.0),
                game("a", 2, true, 0.0, 3.0),
                game("a", 3, false, 9.0, 0.0),
            ],
        };
        let s = summarize(&data);
        let p = &s.profiles[0];
        assert_eq!((p.games, p.finished), (3, 2));
        let names: Vec<&str> = p.levels.iter().map(|(l, _, _)| l.as_str()).collect();
        assert_eq!(names, ["Blue wins", "Red wins"]);
        assert_eq!(p.levels[1].1, 1, "the unfinished red win is not counted");
        let labels: Vec<&str> = p.vp.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["red", "blue", "red − blue"]);
        assert_eq!(p.vp[2].1.mean, 0.5); // (4 + −3) / 2
        let t = text(&data, &s);
        assert!(
            t.contains("1 unfinished (stopped at the limit of 100 actions or at a dead end; excluded below)"),
            "{t}"
        );
        assert!(t.find("Blue wins") < t.find("Red wins"), "{t}");
    }

    #[test]
    fn paired_difference_and_verdict() {
        let mut games = Vec::new();
        // b is a's game with red 10 VP better on every seed but one
        for seed in 1..=6 {
            games.push(game("a", seed, true, 20.0 + seed as f64, 5.0));
            let bump = if seed == 6 { 8.0 } else { 10.0 };
            games.push(game("b", seed, true, 20.0 + seed as f64 - bump, 5.0));
        }
        let data = Data {
            header: header(&["a", "b"]),
            games,
        };
        let s = summarize(&data);
        let pr = &s.paired[0];
        assert_eq!(pr.seeds, 6);
        let (label, m) = pr.key().expect("key");
        assert_eq!(label, "red − blue");
        assert!((m.mean - 58.0 / 6.0).abs() < 1e-9);
        assert!(verdict(m).starts_with("distinguishable"), "{}", verdict(m));
        let t = text(&data, &s);
        assert!(
            t.contains("paired a − b: 6 seeds finished under both"),
            "{t}"
        );
        assert!(
            t.contains("paired games for a 95% interval of ±10 VP: about 2"),
            "{t}"
        );
        // no change at all
        let same = Data {
            header: header(&["a", "b"]),
            games: (1..=4)
                .flat_map(|s| [game("a", s, true, 3.0, 1.0), game("b", s, true, 3.0, 1.0)])
                .collect(),
        };
        let pr = &summarize(&same).paired[0];
        assert!(verdict(&pr.key().expect("key").1).contains("not distinguishable"));
    }
}
