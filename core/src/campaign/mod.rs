//! Campaigns: scenarios played one after another, each starting with what the last one left.
//!
//! A campaign file names its games in order and what carries over from one to the next: the
//! units with their state (place, steps, faces, type, variables, flags), chosen game variables,
//! markers, pools and the changes made to a shared map. The core knows nothing of why a game
//! carries anything; the rules decide what the state holds when a game ends (a campaign's phase
//! between two battles is usually a named sequence the rules switch to, see
//! `kessel.sequence(name, steps)`), and [`carry_over`] moves it into the next game's set-up before
//! the next game's rules look at it.

mod carry;
pub mod sources;

pub use carry::{carry_over, secret_note, value_line, CarriedUnit, CarryError, CarryReport};

use crate::error::{read_text, LoadError};
use crate::fsio::KesselToml;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Most games one campaign may chain.
pub const MAX_GAMES: usize = 256;

/// Which variables carry over.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "`vars` takes \"all\" or a list of variable names"
)]
pub enum VarsCarried {
    /// `vars = "all"` (or `true`): every game variable.
    All(AllWord),
    /// `vars = ["cpp", "record"]`: these, when they are set.
    Named(Vec<String>),
    /// Nothing.
    #[default]
    #[serde(skip)]
    Nothing,
}

/// The word `"all"` (serde helper for [`VarsCarried::All`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllWord {
    /// Everything.
    All,
}

/// What carries from one game to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Carry {
    /// Every unit of the last game, in its final state (the eliminated ones too, so they stay
    /// eliminated), hidden from the sides it was hidden from, its secret variables still secret.
    /// A unit of the next scenario with the same id is replaced by it; the next scenario's other
    /// units join as new arrivals.
    #[serde(default)]
    pub units: bool,
    /// Game variables that carry (their final values replace the next scenario's; a secret one
    /// stays its side's secret).
    #[serde(default)]
    pub vars: VarsCarried,
    /// The markers of the last game (renumbered after the next scenario's own).
    #[serde(default)]
    pub markers: bool,
    /// Pools as the last game left them (replacing the next scenario's pools of the same id).
    #[serde(default)]
    pub pools: bool,
    /// The changes made to the map (terrain, hexsides, tags); the next game must be on the same
    /// map as the last.
    #[serde(default)]
    pub map: bool,
}

/// One game of a campaign as its file gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignGame {
    /// The scenario file, relative to the campaign file.
    pub scenario: PathBuf,
    /// A name for this game ("Night I"); default the scenario's.
    #[serde(default)]
    pub name: Option<String>,
    /// Profile for this game (default the scenario's).
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    carry: Carry,
    #[serde(default)]
    game: Vec<CampaignGame>,
}

/// A loaded campaign file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    /// The campaign file.
    pub path: PathBuf,
    /// Name.
    pub name: String,
    /// What it is about, for players.
    pub description: String,
    /// What carries over between games.
    pub carry: Carry,
    /// The games, in order, with their scenario paths resolved against the campaign's folder.
    pub games: Vec<CampaignGame>,
}

impl Campaign {
    /// Loads and checks a campaign file (its scenarios are loaded when played).
    pub fn load(path: &Path) -> Result<Campaign, LoadError> {
        let text = read_text(path, "campaign")?;
        Campaign::parse_checking(path, &text, true)
    }

    /// Parses campaign text; scenario paths are relative to `path`'s folder. (The files the
    /// games name need not be there yet: [`Campaign::load`] asks that they are.)
    pub fn parse(path: &Path, text: &str) -> Result<Campaign, LoadError> {
        Campaign::parse_checking(path, text, false)
    }

    /// [`Campaign::parse`], refusing a game's file that is not there when `files` says so.
    fn parse_checking(path: &Path, text: &str, files: bool) -> Result<Campaign, LoadError> {
        crate::error::toml_bounds_at(path, text, crate::error::MAX_SMALL_TOML_VALUES)?;
        let file: CampaignFile = toml::from_str(text).map_err(|e| {
            // another of Kessel's files given where a campaign goes: say which it is
            use crate::fsio::{not_the_kind, KesselFile, KesselToml};
            let wanted = KesselFile::Toml(KesselToml::Campaign);
            if let Some(why) = not_the_kind(path, text, wanted, "a campaign file") {
                return LoadError::new(path, None, why);
            }
            let line = e.span().map(|s| {
                text.as_bytes()[..s.start.min(text.len())]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count()
                    + 1
            });
            LoadError::new(path, line, format!("not a campaign file: {}", e.message()))
        })?;
        let fail = |message: String| LoadError::new(path, None, message);
        let fail_at = |line: Option<usize>, message: String| LoadError::new(path, line, message);
        if file.game.is_empty() {
            return Err(fail(
                "a campaign needs at least one [[game]] with a `scenario`".into(),
            ));
        }
        if file.game.len() > MAX_GAMES {
            return Err(fail(format!(
                "a campaign chains at most {MAX_GAMES} games, this one {}",
                file.game.len()
            )));
        }
        // (each was carried as written, or not at all, without a word: `vars = ["all"]` carried a
        // variable named `all`, so none of the others)
        if let VarsCarried::Named(names) = &file.carry.vars {
            for (i, name) in names.iter().enumerate() {
                let shown = crate::error::printable_name(name);
                let why = if name.is_empty() {
                    "an empty name names no variable".to_string()
                } else if name == "all" {
                    "\"all\" in a list names a variable called `all`: write vars = \"all\" to \
                     carry every variable"
                        .to_string()
                } else if names[..i].contains(name) {
                    format!("`{shown}` is listed twice; list each variable once")
                } else {
                    continue;
                };
                return Err(fail_at(
                    line_of_value(text, name),
                    format!("[carry] vars: {why}"),
                ));
            }
        }
        // a game's name heads its part of every report and a save's title: an empty one printed
        // "game 2 ()", and two games of one name could not be told apart in them
        for (i, g) in file.game.iter().enumerate() {
            let Some(name) = &g.name else { continue };
            let shown = crate::error::printable_name(name);
            let why = if name.trim().is_empty() {
                "an empty name: give the game a name, or leave `name` out for the scenario's"
                    .to_string()
            } else if let Some(j) = file.game[..i]
                .iter()
                .position(|o| o.name.as_deref() == Some(name.as_str()))
            {
                format!(
                    "`{shown}` is also game {}'s name; give each game its own",
                    j + 1
                )
            } else {
                continue;
            };
            // the line of this game's name: the value as often written before it is passed over
            let before = file.game[..i]
                .iter()
                .filter(|o| o.name.as_deref() == Some(name.as_str()))
                .count();
            return Err(fail_at(
                line_of_nth_value(text, name, before),
                format!("game {} `name`: {why}", i + 1),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        // the paths a game names: relative to the campaign's folder, of the field's kind
        let mut games = Vec::with_capacity(file.game.len());
        for (i, g) in file.game.into_iter().enumerate() {
            let named = |field: &str, value: &str| {
                crate::fsio::named_path(dir, value, crate::fsio::Named::Toml).map_err(|e| {
                    fail_at(
                        line_of_value(text, value),
                        format!("game {} `{field}`: {e}", i + 1),
                    )
                })
            };
            // a path through a file (`scenario.toml/`), or another of Kessel's files, is said
            // at the game's line: it was the named file's own error ("map.toml: not a
            // scenario … give the scenario that names it"), after "game 1 of the campaign"
            let kind = |field: &str, value: &str, at: &Path, wanted: KesselToml| {
                let line = line_of_value(text, value);
                if let Some(file) = crate::fsio::file_on_the_way(at) {
                    return Err(fail_at(
                        line,
                        format!(
                            "game {} `{field}`: `{value}` goes through {}, which is a file, not \
                             a folder",
                            i + 1,
                            crate::error::shown_path(&file).display()
                        ),
                    ));
                }
                // a file that is not there was said when the game was played, at its own
                // path, with no word of the campaign line that named it
                if files && !at.exists() {
                    return Err(fail_at(
                        line,
                        format!(
                            "game {} `{field}`: `{value}` is not there (looked for at {})",
                            i + 1,
                            crate::error::shown_path(at).display()
                        ),
                    ));
                }
                let Some(found) = (at.is_file())
                    .then(|| read_text(at, field).ok())
                    .flatten()
                    .and_then(|t| {
                        let wanted = crate::fsio::KesselFile::Toml(wanted);
                        crate::fsio::not_the_kind(at, &t, wanted, &format!("a {field}"))
                    })
                else {
                    return Ok(());
                };
                Err(fail_at(
                    line,
                    format!("game {} `{field}`: `{value}` is {found}", i + 1),
                ))
            };
            let written = g.scenario.to_string_lossy().into_owned();
            let scenario = named("scenario", &written)?;
            kind("scenario", &written, &scenario, KesselToml::Scenario)?;
            let profile = match g.profile {
                Some(p) if crate::engine::Engine::is_profile_path(&p) => {
                    let at = named("profile", &p)?;
                    kind("profile", &p, &at, KesselToml::Profile)?;
                    Some(at.to_string_lossy().into_owned())
                }
                other => other,
            };
            games.push(CampaignGame {
                scenario,
                profile,
                ..g
            });
        }
        Ok(Campaign {
            path: path.to_path_buf(),
            name: file.name,
            description: file.description,
            carry: file.carry,
            games,
        })
    }

    /// The name game `index` (0-based) will have, said before its scenario is loaded: its own in
    /// the campaign file, else its scenario file's stem (the scenario's name once it is loaded).
    pub fn planned_name(&self, index: usize) -> String {
        let game = &self.games[index];
        game.name.clone().unwrap_or_else(|| {
            game.scenario.file_stem().map_or_else(
                || format!("game {}", index + 1),
                |s| s.to_string_lossy().into(),
            )
        })
    }

    /// The dice seed of game `index` (0-based) of a campaign played with `seed`: `seed + index`,
    /// so each game has its own dice and the same campaign seed gives the same games.
    pub fn game_seed(seed: u64, index: usize) -> u64 {
        seed.wrapping_add(index as u64)
    }
}

/// The line of a campaign file where the string `value` is first written (quoted either way), for
/// a message about a game's field.
pub(crate) fn line_of_value(text: &str, value: &str) -> Option<usize> {
    line_of_nth_value(text, value, 0)
}

/// The line of the `n`-th (0-based) place `value` is written as a quoted string.
fn line_of_nth_value(text: &str, value: &str, n: usize) -> Option<usize> {
    let at = |quoted: String| text.match_indices(&quoted).nth(n).map(|(at, _)| at);
    at(format!("\"{value}\""))
        .or_else(|| at(format!("'{value}'")))
        .map(|at| text[..at].matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campaign_files_are_checked() {
        let p = Path::new("c.toml");
        let c = Campaign::parse(
            p,
            "name = \"c\"\n[carry]\nunits = true\nvars = \"all\"\n[[game]]\nscenario = \"a.toml\"\n",
        )
        .expect("parses");
        assert_eq!(c.carry.vars, VarsCarried::All(AllWord::All));
        assert!(Campaign::parse(p, "name = \"c\"\n").is_err(), "no game");
        let e = Campaign::parse(
            p,
            "name = \"c\"\n[carry]\nunit = true\n[[game]]\nscenario = \"a\"\n",
        )
        .expect_err("unknown key");
        assert!(e.to_string().contains("unit"), "{e}");
        assert_ne!(Campaign::game_seed(1, 0), Campaign::game_seed(1, 1));
    }

    /// A list of variables to carry names each once, by a name, and not "all" (which is the
    /// whole word `vars = "all"`): each was carried as written or not at all, without a word.
    #[test]
    fn carried_variables_are_named_once_and_all_is_no_name_in_a_list() {
        let path = Path::new("c.toml");
        let with = |vars: &str| {
            format!("name = \"c\"\n[carry]\nvars = {vars}\n[[game]]\nscenario = \"s.toml\"\n")
        };
        for (vars, said) in [
            ("[\"cpp\", \"cpp\"]", "`cpp` is listed twice"),
            ("[\"cpp\", \"\"]", "an empty name names no variable"),
            ("[\"all\"]", "write vars = \"all\" to carry every variable"),
        ] {
            let e = Campaign::parse(path, &with(vars)).expect_err(vars);
            assert_eq!(e.line, Some(3), "{vars}: {e}");
            assert!(e.message.contains(said), "{vars}: {e}");
        }
        for vars in ["\"all\"", "[\"cpp\", \"san\"]"] {
            let c = Campaign::parse(path, &with(vars)).expect(vars);
            assert_ne!(c.carry.vars, VarsCarried::Nothing, "{vars}");
        }
    }

    /// A game's name heads its part of a campaign's reports: an empty one, or one that two games
    /// share, is refused at the line that wrote it; the same scenario twice under the default
    /// names is a campaign's right (the names are numbered in reports).
    #[test]
    fn game_names_are_given_once_and_not_empty() {
        let path = Path::new("c.toml");
        let games = |names: &[&str]| {
            let mut t = String::from("name = \"c\"\n");
            for n in names {
                t.push_str("[[game]]\nscenario = \"s.toml\"\n");
                if !n.is_empty() || names.len() == 1 {
                    t.push_str(&format!("name = \"{n}\"\n"));
                }
            }
            t
        };
        let e = Campaign::parse(path, &games(&[""])).expect_err("empty name");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("game 1 `name`: an empty name"), "{e}");
        let e = Campaign::parse(path, &games(&["Night", "Day", "Night"])).expect_err("twice");
        assert_eq!(e.line, Some(10), "the third game's name: {e}");
        assert!(
            e.message
                .contains("game 3 `name`: `Night` is also game 1's name"),
            "{e}"
        );
        let c = Campaign::parse(path, &games(&["Night", "Day"])).expect("two names");
        assert_eq!(c.games.len(), 2);
        let t = "name = \"c\"\n[[game]]\nscenario = \"s.toml\"\n[[game]]\nscenario = \"s.toml\"\n";
        assert_eq!(
            Campaign::parse(path, t).expect("default names").games.len(),
            2
        );
    }
}
