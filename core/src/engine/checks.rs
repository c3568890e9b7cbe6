//! The checks made when a game starts: every unit's side and type against the declarations, the
//! map's kinds, and the ruleset's own `check` hooks (stacking and the like), all reported at once.

use super::{calls, Engine, EngineError};
use crate::error::{LoadError, LoadErrors};

impl Engine {
    pub(super) fn check_scenario(&self) -> Result<(), EngineError> {
        let Some(sc) = self.scenario() else {
            return Ok(());
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
            for spec in &sc.units {
                let u = &spec.unit;
                if !ruleset.sides.contains(&u.side) {
                    errors.push(LoadError::new(
                        &sc.path,
                        Some(spec.line),
                        format!(
                            "unit `{}`: unknown side `{}` (the ruleset has: {}){}",
                            u.id,
                            u.side,
                            ruleset.sides.join(", "),
                            crate::names::did_you_mean(&u.side, ruleset.sides.as_slice())
                        ),
                    ));
                }
                if !ruleset.unit_types.is_empty() && !ruleset.unit_types.contains_key(&u.kind) {
                    let known: Vec<&str> = ruleset.unit_types.keys().map(String::as_str).collect();
                    errors.push(LoadError::new(
                        &sc.path,
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
                let Some(side) = m.side.as_ref().filter(|s| !ruleset.sides.contains(s)) else {
                    continue;
                };
                errors.push(LoadError::new(
                    &sc.path,
                    Some(*line),
                    format!(
                        "marker `{}`: unknown side `{side}` (the ruleset has: {}){}",
                        m.kind,
                        ruleset.sides.join(", "),
                        crate::names::did_you_mean(side, ruleset.sides.as_slice())
                    ),
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
                for side in sides.iter().filter(|s| !ruleset.sides.contains(s)) {
                    errors.push(LoadError::new(
                        &sc.path,
                        Some(h.line),
                        format!(
                            "{what}: hidden_from names `{side}`, not a side (the ruleset has: {}){}",
                            ruleset.sides.join(", "),
                            crate::names::did_you_mean(side, ruleset.sides.as_slice())
                        ),
                    ));
                }
            }
        }
        // scenario variables whose value does not have the type the ruleset declared
        {
            let ruleset = self.ruleset();
            for (id, decl) in &ruleset.scenario_vars {
                let Some(v) = sc.vars.get(id) else { continue };
                if let Err(why) = decl.admits(v) {
                    errors.push(LoadError::new(
                        &sc.path,
                        sc.var_lines.get(id).copied(),
                        format!("scenario var `{id}` {why}"),
                    ));
                }
            }
        }
        let problems = self
            .host
            .guarded(|lua| calls::call_check_hooks(lua, &self.world))?;
        for (unit, message) in problems {
            let line = unit.as_deref().and_then(|u| sc.unit_line(u));
            errors.push(LoadError::new(&sc.path, line, message));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(EngineError::Load(LoadErrors(errors)))
        }
    }
}
