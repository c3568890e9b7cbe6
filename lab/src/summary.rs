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
    /// VP by side, then the key figure (labelled `a − b`, or `a − max(b, c)` with more sides).
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
    /// With `--ai-variations`: per profile, how much of the spread is the dice and how much the
    /// players' own choices.
    pub spread: Vec<Spread>,
}

/// How the spread of one profile's key VP figure (the difference, else the first side's VP)
/// splits between the dice and the players' open choices, from seeds each played several ways
/// with the same dice (a one-way random-effects split: the variance within a seed is the
/// choices', what the seeds' means vary beyond that is the dice').
#[derive(Clone, Debug)]
pub struct Spread {
    /// Profile name.
    pub profile: String,
    /// The figure split.
    pub label: String,
    /// Seeds with at least two finished ways.
    pub seeds: usize,
    /// Finished games in those seeds.
    pub games: usize,
    /// Standard deviation from the players' choices (within a seed).
    pub choices_sd: f64,
    /// Standard deviation from the dice (between seeds, beyond the choices').
    pub dice_sd: f64,
    /// The seeds' means varied no more than the choices alone would make them vary, so the
    /// dice's share was estimated at zero: with few seeds that says too little to tell, not
    /// that the dice do not matter.
    pub dice_not_seen: bool,
}

impl Spread {
    /// The choices' share of the variance (0 to 1), when there is any variance.
    pub fn choices_share(&self) -> Option<f64> {
        let total = self.choices_sd.powi(2) + self.dice_sd.powi(2);
        (total > 0.0).then(|| self.choices_sd.powi(2) / total)
    }
}

/// The split of the key VP figure's spread for each profile played several ways per seed.
pub fn spread(data: &Data) -> Vec<Spread> {
    let header = &data.header;
    let mut out = Vec::new();
    for p in &header.profiles {
        let mut by_seed: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        let mut label = String::new();
        for g in data
            .games
            .iter()
            .filter(|g| g.profile == p.name && g.finished)
        {
            if let Some((l, v)) = vp_rows(header, &g.scores).pop() {
                label = l;
                by_seed.entry(g.seed).or_default().push(v);
            }
        }
        let groups: Vec<&Vec<f64>> = by_seed.values().filter(|xs| xs.len() >= 2).collect();
        if groups.len() < 2 {
            continue;
        }
        let per_group: Vec<stats::MeanCi> = groups.iter().map(|xs| stats::mean_ci(xs)).collect();
        let within = per_group.iter().map(|m| m.sd * m.sd).sum::<f64>() / groups.len() as f64;
        let means: Vec<f64> = per_group.iter().map(|m| m.mean).collect();
        let ways = groups.iter().map(|xs| xs.len()).sum::<usize>();
        let per_seed = ways as f64 / groups.len() as f64;
        let of_means = stats::mean_ci(&means).sd;
        let beyond_choices = of_means * of_means - within / per_seed;
        let between = beyond_choices.max(0.0);
        out.push(Spread {
            profile: p.name.clone(),
            label,
            seeds: groups.len(),
            games: ways,
            choices_sd: within.sqrt(),
            dice_sd: between.sqrt(),
            dice_not_seen: beyond_choices <= 0.0 && within > 0.0,
        });
    }
    out
}

impl Data {
    /// The usual games only: with `--ai-variations` each seed's variation 0 (the statistics
    /// other than the spread are over these, one game per seed).
    pub fn usual(&self) -> Data {
        Data {
            header: self.header.clone(),
            games: self
                .games
                .iter()
                .filter(|g| g.variation == 0)
                .cloned()
                .collect(),
        }
    }
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

/// The label of the key VP figure: the first side's VP less the best of the others' — `red −
/// blue` with two sides, `red − max(blue, green)` with more.
///
/// With three or more sides a difference of two of them said nothing of the third: a change that
/// made green win every game left `red − blue` as it was. The first side's lead over its
/// strongest rival is one number per game that every side moves, positive when the first side
/// is ahead of all the others, and the plain difference when there are two.
pub fn difference_label(sides: &[String]) -> Option<String> {
    match sides {
        [a, b] => Some(format!("{a} − {b}")),
        [a, rest @ ..] if rest.len() >= 2 => Some(format!("{a} − max({})", rest.join(", "))),
        _ => None,
    }
}

/// The VP rows of a game: each side's final VP, then the key figure, the first side's VP less
/// the best of the others' (see [`difference_label`]).
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
    if let (Some(label), [(_, a), rest @ ..]) = (difference_label(&sides), rows.as_slice()) {
        let best = rest
            .iter()
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        let d = a - best;
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

/// CPU time per game and where it went: `CPU 1.400 s per game: choosing actions 1.170 s (84%),
/// the rules 0.210 s (15%)`. Records written before the split was kept show the total only.
pub fn cpu_line(games: &[GameRecord]) -> String {
    let n = games.len().max(1) as f64;
    let sum = |f: fn(&GameRecord) -> f64| games.iter().map(f).sum::<f64>() / n;
    let (cpu, choice, rules) = (
        sum(|g| g.cpu_s),
        sum(|g| g.choice_cpu_s),
        sum(|g| g.rules_cpu_s),
    );
    let mut line = format!("CPU {cpu:.3} s per game");
    if choice + rules > 0.0 && cpu > 0.0 {
        let _ = write!(
            line,
            ": choosing actions {choice:.3} s ({:.0}%), the rules {rules:.3} s ({:.0}%)",
            100.0 * choice / cpu,
            100.0 * rules / cpu
        );
    }
    line
}

/// Computes the statistics of merged data.
pub fn summarize(all: &Data) -> Summary {
    let usual = all.usual();
    let data = &usual;
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
    Summary {
        profiles,
        paired,
        spread: spread(all),
    }
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

/// The verdict line of a paired comparison, as the summary prints it: `verdict on a − b: …`.
/// `None` without a key quantity (no VP recorded).
pub fn verdict_line(pr: &Paired) -> Option<String> {
    let (label, m) = pr.key()?;
    Some(format!("verdict on {}: {}", shown(label), verdict(m)))
}

/// About how many paired games would resolve the key difference to each of [`RESOLVE_VP`], as
/// the summary prints it; `None` without an interval yet.
pub fn games_needed_line(pr: &Paired) -> Option<String> {
    let (_, m) = pr.key()?;
    // every seed moved by the same amount (most often: no seed changed at all): more games
    // cannot narrow an interval that has no width, and "about 2 games" would read as advice
    if m.ci.is_some() && m.sd == 0.0 {
        return Some(if m.mean == 0.0 {
            "no paired seed changed at all: more games of these seeds would tell nothing new"
                .to_string()
        } else {
            format!(
                "every paired seed changed by exactly {:+.1} VP: more games would tell nothing new",
                m.mean
            )
        });
    }
    let needs: Vec<String> = RESOLVE_VP
        .iter()
        .filter_map(|&h| {
            stats::games_for_half_width(m.sd, h).map(|n| format!("±{h:.0} VP: about {n}"))
        })
        .collect();
    (m.ci.is_some() && !needs.is_empty())
        .then(|| format!("paired games for a 95% interval of {}", needs.join(", ")))
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
        (Some(lo), Some(hi)) if hi - lo == seeds.len() as u64 - 1 => {
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

/// A name from the data (a scenario's, a level's, a side's, a profile's) as the text shows it: on
/// one line, control characters escaped. A level name holding a line break began a line of its
/// own that passed for the program's.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    kessel_core::error::printable_name(name)
}

/// The statistics as text (deterministic: no timings).
pub fn text(all: &Data, s: &Summary) -> String {
    let usual = all.usual();
    let data = &usual;
    let mut out = String::new();
    let h = &data.header;
    // With `--against-ai` the arms may share one profile and differ by their players: calling
    // them "2 profiles" then read as if a second profile had been played.
    let arm_word = if h.profiles.iter().any(|p| !p.players.is_empty()) {
        "arm"
    } else {
        "profile"
    };
    let _ = writeln!(
        out,
        "{}: {} game{}, {} × {} {arm_word}{}",
        shown(&h.scenario.name),
        data.games.len(),
        plural(data.games.len()),
        seeds_text(data),
        h.profiles.len(),
        plural(h.profiles.len())
    );
    let default = match h.ai_levels.first() {
        Some(level) => format!(" at its default level `{}`", shown(level)),
        None => String::new(),
    };
    if h.profiles.iter().any(|p| !p.players.is_empty()) {
        let _ = writeln!(
            out,
            "players: as named with each profile below (the other sides: the ruleset's AI{default})"
        );
    } else if !h.players.is_empty() {
        let players: Vec<String> = h
            .players
            .iter()
            .map(|(s, p)| format!("{}={}", shown(s), shown(p)))
            .collect();
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
            shown(&p.name),
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
                shown(level),
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
                    shown(label),
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
            shown(&pr.a),
            shown(&pr.b),
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
                shown(label),
                m.mean,
                m.sd,
                interval(m.ci, true)
            );
        }
        if let Some(line) = verdict_line(pr) {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(line) = games_needed_line(pr) {
            let _ = writeln!(out, "  {line}");
        }
    }
    if h.variations > 1 {
        let _ = writeln!(
            out,
            "spread: each seed played {} ways with the same dice, the players' open choices made otherwise\n  ({} games besides the usual ones, left out above)",
            h.variations,
            all.games.len() - data.games.len()
        );
        if s.spread.is_empty() {
            let _ = writeln!(
                out,
                "  (too few seeds finished two ways or more to split it)"
            );
        }
    }
    for sp in &s.spread {
        let share = match sp.choices_share() {
            Some(c) => format!(
                "the dice {:.0}%, the players' choices {:.0}%",
                100.0 * (1.0 - c),
                100.0 * c
            ),
            None => "no spread at all".to_string(),
        };
        let _ = writeln!(
            out,
            "  {} {}: sd from the dice {:.1}, from the players' choices {:.1}\n    {share} of the variance ({} seeds, {} games)",
            shown(&sp.profile),
            shown(&sp.label),
            sp.dice_sd, sp.choices_sd, sp.seeds, sp.games
        );
        if sp.dice_not_seen {
            let _ = writeln!(
                out,
                "    (the seeds' means differ no more than the choices alone would make them: over {} seeds the dice's share cannot be told from nothing; play more seeds)",
                sp.seeds
            );
        }
        if sp.choices_sd == 0.0 {
            let _ = writeln!(
                out,
                "    (every way played the same: the players left nothing open, e.g. an AI that never calls its tiebreak)"
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, MapInfo, ProfileInfo, Seeds, Source};

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
                    players: BTreeMap::new(),
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
            variations: 1,
            ai_levels: Vec::new(),
            turns: None,
            option_notes: BTreeMap::new(),
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
            choice_cpu_s: 0.0,
            rules_cpu_s: 0.0,
            variation: 0,
        }
    }

    #[test]
    fn the_cpu_line_splits_choosing_from_the_rules() {
        let timed = |cpu: f64, choice: f64, rules: f64| GameRecord {
            cpu_s: cpu,
            choice_cpu_s: choice,
            rules_cpu_s: rules,
            ..game("p", 1, true, 1.0, 0.0)
        };
        let games = [timed(2.0, 1.6, 0.3), timed(1.0, 0.8, 0.1)];
        assert_eq!(
            cpu_line(&games),
            "CPU 1.500 s per game: choosing actions 1.200 s (80%), the rules 0.200 s (13%)"
        );
        // records from before the split was kept: the total only
        assert_eq!(cpu_line(&[timed(1.25, 0.0, 0.0)]), "CPU 1.250 s per game");
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
        // the lines other front ends (the editor) show are the summary's own
        let line = verdict_line(pr).expect("a verdict");
        assert!(line.starts_with("verdict on red − blue: distinguishable"));
        assert!(t.contains(&format!("  {line}\n")), "{t}");
        let needed = games_needed_line(pr).expect("games needed");
        assert!(t.contains(&format!("  {needed}\n")), "{t}");
        // one seed: no interval, so no estimate of the games needed
        let one = Data {
            header: header(&["a", "b"]),
            games: vec![game("a", 1, true, 3.0, 1.0), game("b", 1, true, 2.0, 1.0)],
        };
        let pr1 = &summarize(&one).paired[0];
        assert_eq!(
            verdict_line(pr1).as_deref(),
            Some("verdict on red − blue: too few paired games for an interval")
        );
        assert_eq!(games_needed_line(pr1), None);
        // no change at all
        let same = Data {
            header: header(&["a", "b"]),
            games: (1..=4)
                .flat_map(|s| [game("a", s, true, 3.0, 1.0), game("b", s, true, 3.0, 1.0)])
                .collect(),
        };
        let pr = &summarize(&same).paired[0];
        assert!(verdict(&pr.key().expect("key").1).contains("not distinguishable"));
        // no spread to narrow: no count of games to play is offered
        let line = games_needed_line(pr).expect("a line");
        assert!(line.starts_with("no paired seed changed at all"), "{line}");
        assert!(!line.contains("about"), "{line}");
    }

    #[test]
    fn spread_splits_the_variance_between_the_dice_and_the_choices() {
        // two sides; the difference red − blue is the figure split. Seed means 0 and 10 (the
        // dice), each seed's ways ±1 around its mean (the choices)
        let mut d = Data {
            header: header(&["p"]),
            games: Vec::new(),
        };
        d.header.variations = 2;
        for (seed, values) in [
            (1, [-1.0, 1.0]),
            (2, [9.0, 11.0]),
            (3, [-1.0, 1.0]),
            (4, [9.0, 11.0]),
        ] {
            for (v, x) in values.iter().enumerate() {
                let mut g = game("p", seed, true, *x, 0.0);
                g.variation = v as u64;
                d.games.push(g);
            }
        }
        let sp = spread(&d);
        assert_eq!(sp.len(), 1);
        let sp = &sp[0];
        assert_eq!((sp.seeds, sp.games), (4, 8));
        // within a seed: variance 2 (sample variance of ±1); seed means 0,10,0,10: variance
        // 33.33, minus 2/2 for the choices' share of the means' spread
        assert!((sp.choices_sd - 2f64.sqrt()).abs() < 1e-9, "{sp:?}");
        assert!(
            (sp.dice_sd - (100.0f64 / 3.0 - 1.0).sqrt()).abs() < 1e-9,
            "{sp:?}"
        );
        let share = sp.choices_share().expect("some variance");
        assert!(share > 0.0 && share < 0.1, "{share}");
        // the other statistics see the usual games only
        let s = summarize(&d);
        assert_eq!(s.profiles[0].games, 4);
        let text = text(&d, &s);
        assert!(text.contains("each seed played 2 ways"), "{text}");
        assert!(
            text.contains("the dice 94%, the players' choices 6%"),
            "{text}"
        );
        assert!(!text.contains("cannot be told"), "{text}");
    }

    #[test]
    fn a_dice_share_estimated_at_zero_says_the_seeds_were_too_few_to_tell() {
        // four seeds whose means differ less than their ways do: the split puts everything on
        // the choices, and says the seeds could not show the dice
        let mut d = Data {
            header: header(&["p"]),
            games: Vec::new(),
        };
        d.header.variations = 2;
        for (seed, values) in [
            (1, [0.0, 20.0]),
            (2, [1.0, 21.0]),
            (3, [20.0, 0.0]),
            (4, [21.0, 1.0]),
        ] {
            for (v, x) in values.iter().enumerate() {
                let mut g = game("p", seed, true, *x, 0.0);
                g.variation = v as u64;
                d.games.push(g);
            }
        }
        let sp = spread(&d);
        assert!(sp[0].dice_not_seen && sp[0].dice_sd == 0.0, "{sp:?}");
        let s = summarize(&d);
        let text = text(&d, &s);
        assert!(
            text.contains("the dice 0%, the players' choices 100%"),
            "{text}"
        );
        assert!(
            text.contains("over 4 seeds the dice's share cannot be told from nothing"),
            "{text}"
        );
    }

    /// With three sides the key figure is the first side's lead over the best of the other two:
    /// a change that moves only the third side moves it (a difference of two sides did not).
    #[test]
    fn with_three_sides_the_key_figure_is_the_lead_over_the_best_rival() {
        let mut h = header(&["p"]);
        h.sides = vec!["red".into(), "blue".into(), "green".into()];
        h.difference = vec!["red".into(), "blue".into()];
        let scores = |r: f64, b: f64, g: f64| -> BTreeMap<String, f64> {
            [("red".into(), r), ("blue".into(), b), ("green".into(), g)].into()
        };
        let rows = vp_rows(&h, &scores(10.0, 4.0, 7.0));
        assert_eq!(
            rows.last(),
            Some(&("red − max(blue, green)".to_string(), 3.0))
        );
        // green ahead of red: red's lead is below 0, whatever blue scored
        let rows = vp_rows(&h, &scores(10.0, 0.0, 15.0));
        assert_eq!(rows.last().map(|r| r.1), Some(-5.0));
        // two sides: the plain difference, as before
        let two = header(&["p"]);
        let rows = vp_rows(&two, &[("red".into(), 3.0), ("blue".into(), 5.0)].into());
        assert_eq!(rows.last(), Some(&("red − blue".to_string(), -2.0)));
        assert_eq!(difference_label(&["red".into()]), None);
    }
}
