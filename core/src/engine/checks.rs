//! The checks made when a game starts: every unit's side and type against the declarations, the
//! map's kinds, and the ruleset's own `check` hooks (stacking and the like), all reported at once.

use super::{hooks, Engine, EngineError};
use crate::error::{LoadError, LoadErrors};

impl Engine {
    /// The notes the ruleset's `check` hooks gave (problems marked `note = true`) come back for
    /// [`Engine::check_notes`]; every other problem is an error.
    pub(super) fn check_scenario(&self) -> Result<Vec<crate::error::Located>, EngineError> {
        let Some(sc) = self.scenario() else {
            return Ok(Vec::new());
        };
        let mut errors = Vec::new();
        {
            let ruleset = self.ruleset();
            for m in ruleset.check_map(&sc.map) {
                errors.push(LoadError::new(
                    &sc.map_path,
                    crate::scenario::kind_line(&sc.map_path, &m),
                    m,
                ));
            }
            // a road drawn as `[[hexsides]]`, a river as `[[links]]`: the ruleset says which
            // kinds are links
            for (is_link, kind, line) in crate::scenario::feature_kind_lines(&sc.map_path) {
                let Some(link) = ruleset.hexside_kind_is_link(&kind) else {
                    continue;
                };
                if link != is_link {
                    let (table, other, what) = if link {
                        (
                            "[[hexsides]]",
                            "[[links]]",
                            "a link (a road: a path of hexes)",
                        )
                    } else {
                        (
                            "[[links]]",
                            "[[hexsides]]",
                            "a hexside feature (a river: on hex edges)",
                        )
                    };
                    errors.push(LoadError::new(
                        &sc.map_path,
                        Some(line),
                        format!(
                            "`{kind}` is {what} in the ruleset, so it goes in `{other}`, not \
                             `{table}`"
                        ),
                    ));
                }
            }
            // the scenario's `sides` are the ruleset's
            if let Some((named, line)) = &sc.sides {
                for side in named.iter().filter(|s| !ruleset.sides.contains(s)) {
                    errors.push(sc.error_at(
                        Some(*line),
                        format!(
                            "`sides` names `{side}`, not a side (the ruleset has: {}){}",
                            ruleset.sides.join(", "),
                            crate::names::did_you_mean(side, ruleset.sides.as_slice())
                        ),
                    ));
                }
            }
            for spec in &sc.units {
                let u = &spec.unit;
                if let Some(why) = side_problem(&u.side, &ruleset.sides, &sc) {
                    errors.push(sc.error_at(Some(spec.line), format!("unit `{}`: {why}", u.id)));
                }
                if !ruleset.unit_types.is_empty() && !ruleset.unit_types.contains_key(&u.kind) {
                    let known: Vec<&str> = ruleset.unit_types.keys().map(String::as_str).collect();
                    errors.push(sc.error_at(
                        Some(spec.line),
                        format!(
                            "unit `{}`: unknown unit type `{}` (the ruleset has: {}){}",
                            u.id,
                            u.kind,
                            known.join(", "),
                            crate::names::did_you_mean(&u.kind, &known)
                        ),
                    ));
                }
            }
        }
        // the side each `[[markers]]` table gives its markers
        {
            let ruleset = self.ruleset();
            for (ids, line) in &sc.marker_lines {
                let Some(m) = sc.markers.get(ids.start as usize) else {
                    continue;
                };
                let Some(why) =
                    (m.side.as_ref()).and_then(|s| side_problem(s, &ruleset.sides, &sc))
                else {
                    continue;
                };
                errors.push(sc.error_at(Some(*line), format!("marker `{}`: {why}", m.kind)));
            }
        }
        // the side scoring each objective and owning each pool: a misspelt one scored for no
        // side and drew for none, and `check` said ok
        {
            let ruleset = self.ruleset();
            for (i, o) in sc.objectives.iter().enumerate() {
                let Some(why) =
                    (o.side.as_ref()).and_then(|s| side_problem(s, &ruleset.sides, &sc))
                else {
                    continue;
                };
                errors.push(sc.error_at(
                    sc.objective_lines.get(i).copied(),
                    format!("objective `{}`: {why}", o.name),
                ));
            }
            for (id, (side, _)) in &sc.pools {
                let Some(why) = side
                    .as_ref()
                    .and_then(|s| side_problem(s, &ruleset.sides, &sc))
                else {
                    continue;
                };
                errors.push(sc.error_at(
                    sc.pool_lines.get(id).copied(),
                    format!("pool `{id}`: {why}"),
                ));
            }
        }
        // the sides `hidden_from` names
        {
            let ruleset = self.ruleset();
            for h in &sc.hidden {
                let crate::scenario::HiddenFrom::Sides(sides) = &h.from else {
                    continue;
                };
                let what = match &h.what {
                    crate::scenario::Hideable::Unit(id) => format!("unit `{id}`"),
                    crate::scenario::Hideable::Markers(ids) => sc
                        .markers
                        .get(ids.start as usize)
                        .map_or_else(|| "marker".into(), |m| format!("marker `{}`", m.kind)),
                };
                for side in sides {
                    if !ruleset.sides.contains(side) {
                        errors.push(sc.error_at(
                            Some(h.line),
                            format!(
                                "{what}: hidden_from names `{side}`, not a side (the ruleset has: {}){}",
                                ruleset.sides.join(", "),
                                crate::names::did_you_mean(side, ruleset.sides.as_slice())
                            ),
                        ));
                    } else if let Some(why) = side_problem(side, &ruleset.sides, &sc) {
                        errors.push(
                            sc.error_at(Some(h.line), format!("{what}: hidden_from names {why}")),
                        );
                    }
                }
            }
        }
        // scenario variables whose value does not have the type the ruleset declared
        {
            let ruleset = self.ruleset();
            for (id, decl) in &ruleset.scenario_vars {
                let Some(v) = sc.vars.get(id) else { continue };
                if let Err(why) = decl.admits(v) {
                    errors.push(sc.error_at(
                        sc.var_lines.get(id).copied(),
                        format!("scenario var `{id}` {why}"),
                    ));
                }
            }
        }
        // two variants of one table in force, neither declared for the pair [Variants]
        {
            let w = self.world.borrow();
            for message in w.ruleset.variant_conflicts(&w.options) {
                errors.push(LoadError::new(&sc.path, None, message));
            }
        }
        let problems = self
            .host
            .guarded(|lua| hooks::call_check_hooks(lua, &self.world))?;
        let mut notes = Vec::new();
        for p in problems {
            let line = (p.unit.as_deref().and_then(|u| sc.unit_line(u)))
                .or_else(|| p.var.as_ref().and_then(|v| sc.var_lines.get(v).copied()))
                .or_else(|| {
                    let id = p.marker?;
                    sc.marker_lines
                        .iter()
                        .find(|(ids, _)| ids.contains(&id))
                        .map(|(_, line)| *line)
                });
            let found = sc.error_at(line, p.message);
            if p.note {
                notes.push(found);
            } else {
                errors.push(found);
            }
        }
        if errors.is_empty() {
            Ok(LoadErrors(notes).located())
        } else {
            Err(EngineError::Load(LoadErrors(errors)))
        }
    }
}

/// Why `side` cannot be named in this scenario: not a side of the ruleset, or a side its `sides`
/// leaves out.
fn side_problem(
    side: &str,
    ruleset_sides: &[String],
    sc: &crate::scenario::Scenario,
) -> Option<String> {
    if !ruleset_sides.iter().any(|s| s == side) {
        return Some(format!(
            "unknown side `{side}` (the ruleset has: {}){}",
            ruleset_sides.join(", "),
            crate::names::did_you_mean(side, ruleset_sides)
        ));
    }
    let playing = sc.playing_sides(ruleset_sides.to_vec());
    (!playing.iter().any(|s| s == side)).then(|| {
        format!(
            "`{side}`, a side that takes no part in this scenario (its `sides`: {})",
            playing.join(", ")
        )
    })
}

/// What of the game in progress `new` rules could not play, as `(where declared, why)`: a side or
/// unit type its units or markers have that the rules no longer declare, a kind of its map, or a
/// step it stands at that the sequence no longer has (or has as another step). A reload that
/// loaded without an error but dropped the step the game was at left `kessel.game.step()` nil
/// and every rule that read it failing; one that dropped a side or unit type left units the
/// rules could not name. Such a reload is refused and the last good rules stay live.
pub(super) fn game_misfits(
    old: &crate::ruleset::Ruleset,
    new: &crate::ruleset::Ruleset,
    state: &crate::state::GameState,
    options: &crate::options::Options,
    scenario: Option<&crate::scenario::Scenario>,
) -> Vec<(Option<crate::ruleset::Site>, String)> {
    use std::collections::BTreeSet;
    let mut out = Vec::new();
    // the scenario's variables, as the new declarations read them (as `check_scenario` does)
    if let Some(sc) = scenario {
        for (id, decl) in &new.scenario_vars {
            let Some(v) = sc.vars.get(id) else { continue };
            if let Err(why) = decl.admits(v) {
                let at = match sc.var_lines.get(id) {
                    Some(l) => {
                        let (file, line) = sc.locate(*l);
                        format!("{}:{line}", crate::script::display_path(file))
                    }
                    None => crate::script::display_path(&sc.path),
                };
                out.push((None, format!("scenario var `{id}` ({at}) {why}")));
            }
        }
    }
    // an option value chosen for this game (not its old default) that the new declaration
    // refuses: the game would go on under another value than the one chosen
    for (id, value) in &options.values {
        let chosen =
            (options.decls.iter().find(|d| &d.id == id)).is_none_or(|d| d.default != *value);
        let Some(decl) = new.options.iter().find(|d| &d.id == id) else {
            continue;
        };
        if let (true, Err(why)) = (chosen, decl.check(value)) {
            out.push((
                None,
                format!("option `{id}` is {value} in this game, which the new declaration refuses: {why}"),
            ));
        }
    }
    let sides: BTreeSet<&str> = (state.units.iter().map(|u| u.side.as_str()))
        .chain(state.markers.iter().filter_map(|m| m.side.as_deref()))
        .filter(|s| !new.sides.iter().any(|n| n == s))
        .collect();
    for side in sides {
        out.push((
            None,
            format!(
                "the game has units or markers of side `{side}`, which the rules no longer \
                 declare (their sides: {})",
                new.sides.join(", ")
            ),
        ));
    }
    if !new.unit_types.is_empty() {
        let kinds: BTreeSet<&str> = (state.units.iter().map(|u| u.kind.as_str()))
            .filter(|k| !new.unit_types.contains_key(*k))
            .collect();
        for kind in kinds {
            let unit = state.units.iter().find(|u| u.kind == kind);
            out.push((
                None,
                format!(
                    "the game has units of type `{kind}` (`{}` among them), which the rules no \
                     longer declare",
                    unit.map_or("", |u| u.id.as_str())
                ),
            ));
        }
    }
    for m in new.check_map(&state.map) {
        out.push((None, format!("the game's map: {m}")));
    }
    let mode = state.mode.as_deref();
    let site = match mode {
        None => new.sequence_site.clone(),
        Some(m) => new.modes.get(m).and_then(|n| n.site.clone()),
    };
    let was = old.step_in(mode, state.phase);
    let now = new.step_in(mode, state.phase);
    let within = match mode {
        None => "the sequence of play".to_string(),
        Some(m) => format!("mode `{m}`"),
    };
    match (was, now) {
        (Some(a), Some(b)) if a.id != b.id => out.push((
            site,
            format!(
                "the game is at step `{}`, number {} of {within}, which is now step `{}`",
                a.id,
                state.phase + 1,
                b.id
            ),
        )),
        (Some(a), None) => out.push((
            site,
            format!(
                "the game is at step `{}`, number {} of {within}, which now has {}",
                a.id,
                state.phase + 1,
                match new.steps_of(mode).len() {
                    1 => "1 step".to_string(),
                    n => format!("{n} steps"),
                }
            ),
        )),
        _ => {}
    }
    out
}
