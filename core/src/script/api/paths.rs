//! `kessel.paths` (movement fields, traces, reach, zones of control); the sets they take and give
//! are `kessel.hexset`s (`hexset.rs`).
//!
//! The rules pass dense hex sets and declared costs; the searches run natively. Lua callbacks are
//! accepted where no data can express a rule, at the price of one call per step.

use super::hex_of;
use super::hexset::{set_arg, LuaHexSet};
use super::strings::intern;
use crate::action::Reason;
use crate::algo::movement::{
    movement_field, Cost, CostModel, FieldRules, MovementField, Unreachable,
};
use crate::algo::trace::{reach, trace, trace_costs, Passage, Step};
use crate::algo::zoc::{zone_of_control, HexSet};
use crate::hex::{Hex, Hexside};
use crate::map::Map;
use crate::world::{Shared, Stage, StageGuard};
use mlua::{Function, Lua, Table, UserData, UserDataMethods};
use std::sync::Arc;

/// The fields of a `kessel.paths.field` spec; any other is a misspelling and refused.
const FIELD_KEYS: [&str; 9] = [
    "from",
    "budget",
    "class",
    "side",
    "stop",
    "forbid",
    "surcharge",
    "cannot_leave",
    "hook",
];

/// The fields of `trace` and `trace_costs` (`reach`: the first four).
const TRACE_KEYS: [&str; 5] = ["from", "budget", "step", "passage", "target"];

/// The fields of a hex-by-hex `step` table, and of a class's (`class`, `side`).
const HEX_STEP_KEYS: [&str; 8] = [
    "hex",
    "free_within",
    "enter_cost",
    "blocked_by",
    "only_along",
    "free_along",
    "class",
    "side",
];

/// Budget units a native search (field, trace, reach, zone of control) costs per hex of the map:
/// it does in one call what would take a script thousands of instructions.
const SEARCH_COST: u64 = 256;

/// Runs a search of `name` (its table read, its `hook`, `step`, `passage` or `target` functions
/// called) as a read-only call of the rules. Such a function, or a metamethod of the table, that
/// set the game up anew (`kessel.setup`), acted or undid mid-search left the answer describing a
/// map that was gone (80 hexes reachable on a 2x2 map): inside, the script functions that drive
/// the engine are refused as in any rules callback (`script_only`), and changes (`kessel.emit`)
/// as in a validator.
fn searching<T>(
    lua: &Lua,
    world: &Shared,
    name: &str,
    search: impl FnOnce() -> mlua::Result<T>,
) -> mlua::Result<T> {
    super::script::running(
        lua,
        || format!("a search of {name} (a function or table it was given)"),
        || {
            let _read_only = StageGuard::enter(world, Stage::Query);
            search()
        },
    )
}

/// Field `name` of a spec, read with a kept key (a `&str` key is a new Lua string per read).
fn field<V: mlua::FromLua>(lua: &Lua, t: &Table, name: &str) -> mlua::Result<V> {
    t.get(intern(lua, name)?)
}

fn reason_of(lua: &Lua, t: &Table) -> mlua::Result<Reason> {
    Ok(Reason {
        rule: field(lua, t, "rule")?,
        message: field::<Option<String>>(lua, t, "message")?
            .unwrap_or_else(|| "not allowed".into()),
    })
}

fn cost_model(world: &Shared, class: &str, side: &str) -> mlua::Result<Arc<CostModel>> {
    let w = world.borrow();
    let decl = w.ruleset.movement_in_force(&w.options).ok_or_else(|| {
        mlua::Error::runtime("the ruleset declared no movement costs (kessel.movement{...})")
    })?;
    // no class given (`class` is optional): the costs by side and `default` apply; it was refused
    // as "movement class `` is not among the classes …"
    if let Some(classes) = decl.get("classes").and_then(|c| c.as_array()) {
        if !class.is_empty() && !classes.iter().any(|c| c.as_str() == Some(class)) {
            let known: Vec<&str> = classes.iter().filter_map(|c| c.as_str()).collect();
            return Err(mlua::Error::runtime(format!(
                "movement class `{class}` is not among the classes kessel.movement declares ({}){}",
                known.join(", "),
                crate::names::did_you_mean(class, &known)
            )));
        }
    }
    // a misspelt side read no side's costs, and the search ran on `default` without a word
    let sides = &w.ruleset.sides;
    if !side.is_empty() && !sides.is_empty() && !sides.iter().any(|s| s == side) {
        return Err(mlua::Error::runtime(format!(
            "`{side}` is not a side of this ruleset ({}){}: a search's `side` picks the costs \
             kessel.movement gives by side",
            sides.join(", "),
            crate::names::did_you_mean(side, sides)
        )));
    }
    let variants = w.ruleset.variant_mask(&w.options);
    let model = w
        .cost_models
        .borrow_mut()
        .get(&decl, variants, &w.state.map, class, side);
    model.map_err(|e| mlua::Error::runtime(e.to_string()))
}

/// A movement field, shared with Lua.
pub struct LuaField {
    field: MovementField,
    map: Arc<Map>,
    /// Its bytes, counted against the memory limit while it lives (see `script::hold`).
    _held: crate::script::Held,
}

fn reason_table(lua: &Lua, map: &Map, why: Unreachable) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let (kind, rule, message) = match why {
        Unreachable::Forbidden(r) => ("forbidden", r.rule, r.message),
        Unreachable::BeyondStop(r, at) => {
            t.set("at", map.label(at))?;
            (
                "beyond_stop",
                r.rule,
                format!("{} at {}", r.message, map.label(at)),
            )
        }
        Unreachable::CannotLeave(r) => ("cannot_leave", r.rule, r.message),
        Unreachable::TooFar { needed, budget } => (
            "too_far",
            None,
            format!(
                "needs {} MP, has {} MP",
                fmt_mp(needed.mp()),
                fmt_mp(budget.mp())
            ),
        ),
        Unreachable::NoPath => ("no_path", None, "no way in".to_string()),
        Unreachable::OutOfReach { budget } => (
            "too_far",
            None,
            format!("out of reach with {} MP", fmt_mp(budget.mp())),
        ),
    };
    t.set("kind", kind)?;
    t.set("rule", rule)?;
    t.set("message", message)?;
    Ok(t)
}

/// Formats MP without trailing zeros (`1.5`, `3`).
pub(crate) fn fmt_mp(mp: f64) -> String {
    let s = format!("{mp:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl UserData for LuaField {
    // (the name Lua's own messages and `tostring` use)
    fn add_fields<F: mlua::UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field(mlua::MetaMethod::Type.name(), "field");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("cost", |lua, f, h: String| {
            super::charge_call(lua)?;
            Ok(f.map
                .parse(&h)
                .and_then(|x| f.field.cost(&f.map, x))
                .map(Cost::mp))
        });
        methods.add_method("path", |lua, f, h: String| {
            super::charge_call(lua)?;
            let Some(path) = f.map.parse(&h).and_then(|x| f.field.path_to(&f.map, x)) else {
                return Ok(None);
            };
            let labels = path
                .into_iter()
                .map(|x| super::strings::label(lua, &f.map, x).map(mlua::Value::String))
                .collect::<mlua::Result<Vec<_>>>()?;
            super::strings::list(lua, labels).map(Some)
        });
        methods.add_method("stops", |lua, f, h: String| {
            super::charge_call(lua)?;
            Ok(f.map.parse(&h).is_some_and(|x| f.field.stops_at(&f.map, x)))
        });
        methods.add_method("reachable", |lua, f, ()| {
            super::charge_call(lua)?;
            let reached = f.field.reachable(&f.map);
            super::strings::hex_keyed(lua, &f.map, reached.into_iter().map(|(h, c)| (h, c.mp())))
        });
        // the same hexes as a list sorted by label, as `table.sort` sorts the keys of `reachable`
        // (an enumerator's fixed order without building, walking and sorting the keyed table)
        methods.add_method("hexes", |lua, f, ()| {
            super::charge_call(lua)?;
            let mut reached: Vec<_> = f
                .field
                .reachable(&f.map)
                .into_iter()
                .map(|(h, _)| h)
                .collect();
            super::strings::sort_by_label(lua, &f.map, &mut reached)?;
            let strings = super::strings::labels(lua, &f.map, reached)?;
            super::strings::list(
                lua,
                strings
                    .into_iter()
                    .flatten()
                    .map(mlua::Value::String)
                    .collect(),
            )
        });
        methods.add_method("why_not", |lua, f, h: String| {
            super::charge_call(lua)?;
            let Some(x) = f.map.parse(&h) else {
                return Ok(Some(reason_table(lua, &f.map, Unreachable::NoPath)?));
            };
            match f.field.why_not(&f.map, x) {
                None => Ok(None),
                Some(why) => Ok(Some(reason_table(lua, &f.map, why)?)),
            }
        });
    }
}

fn add_sets(
    lua: &Lua,
    world: &Shared,
    rules: &mut FieldRules,
    list: Option<super::List<Table>>,
    which: u8,
) -> mlua::Result<()> {
    let map = world.borrow().state.map.clone();
    for item in list.map_or_else(Vec::new, |l| l.0) {
        let set = set_arg(world, field(lua, &item, "set")?)?;
        let base = reason_of(lua, &item)?;
        let per_hex: Option<Table> = field(lua, &item, "messages")?;
        let mp = mp_given(
            field::<Option<f64>>(lua, &item, "mp")?.unwrap_or(0.0),
            "a blocked set's `mp`",
        )?;
        // the set's own reason, registered where a hex first uses it (registration order, hence
        // each reason's number, is as when every hex registered its copy)
        let mut base_index = None;
        for h in set.hexes(&map) {
            let Some(i) = map.index(h) else { continue };
            let own = match &per_hex {
                Some(m) => m.get::<Option<String>>(super::strings::label(lua, &map, h)?)?,
                None => None,
            };
            if which > 1 {
                rules.surcharge[i] = rules.surcharge[i].saturating_add(Cost::from_mp(mp).0);
                continue;
            }
            let index = match own {
                Some(text) => rules.reason(Reason {
                    rule: base.rule.clone(),
                    message: text,
                }),
                None => *base_index.get_or_insert_with(|| rules.reason(base.clone())),
            };
            if which == 0 {
                rules.stop[i] = Some(index);
            } else {
                rules.forbid[i] = Some(index);
            }
        }
    }
    Ok(())
}

enum StepCost {
    PerHex(PerHexStep),
    Model(Arc<CostModel>),
    Hook(Function),
}

/// `step = { hex = true, ... }`: one per hex, with hexside rules declared as data so that a
/// supply net (a road joined to a source, then so many hexes out) is traced natively.
#[derive(Default)]
struct PerHexStep {
    /// Never across a hexside carrying one of these kinds (`blocked_by`).
    blocked: u32,
    /// Only across hexsides carrying one of these kinds, if given (`only_along`).
    only: Option<u32>,
    /// Free (cost 0) across a hexside carrying one of these kinds (`free_along`) ...
    free: u32,
    /// ... when both hexes are in this set, if given (`free_within`).
    free_within: Option<HexSet>,
    /// Entering a hex of this set costs this much instead of one (`enter_cost = { hexes, cost }`).
    dear: Option<(HexSet, u32)>,
}

impl PerHexStep {
    fn cost(&self, map: &Map, s: Step) -> Option<u32> {
        let side = map.side_bits(s.from.side(s.dir));
        if side & self.blocked != 0 || self.only.is_some_and(|only| side & only == 0) {
            return None;
        }
        let free = side & self.free != 0
            && self
                .free_within
                .as_ref()
                .is_none_or(|w| w.contains(map, s.from) && w.contains(map, s.to));
        if free {
            return Some(0);
        }
        match &self.dear {
            Some((hexes, cost)) if hexes.contains(map, s.to) => Some(*cost),
            _ => Some(Cost::SCALE),
        }
    }
}

/// The mask of the hexside kinds named in `t[key]` (kinds the map does not use match nothing).
fn side_mask(lua: &Lua, map: &Map, t: &Table, key: &str) -> mlua::Result<u32> {
    let mut bits = 0u32;
    for kind in field::<Option<super::List<String>>>(lua, t, key)?.map_or_else(Vec::new, |l| l.0) {
        if let Some(bit) = map.side_kinds.bit(&kind) {
            bits |= bit;
        }
    }
    Ok(bits)
}

fn step_arg(lua: &Lua, world: &Shared, spec: &Table) -> mlua::Result<StepCost> {
    match field::<mlua::Value>(lua, spec, "step")? {
        mlua::Value::Nil => Ok(StepCost::PerHex(PerHexStep::default())),
        mlua::Value::String(s) if s.to_str()? == "hex" => {
            Ok(StepCost::PerHex(PerHexStep::default()))
        }
        mlua::Value::Table(t) if field::<Option<bool>>(lua, &t, "hex")?.unwrap_or(false) => {
            super::strict_keys(&t, "the search's `step` (hex by hex)", &HEX_STEP_KEYS)?;
            let map = world.borrow().state.map.clone();
            let free_within = match field::<mlua::Value>(lua, &t, "free_within")? {
                mlua::Value::Nil => None,
                v => Some(set_arg(world, v)?),
            };
            let dear = match field::<Option<Table>>(lua, &t, "enter_cost")? {
                None => None,
                Some(e) => {
                    super::strict_keys(&e, "step.enter_cost", &["cost", "hexes"])?;
                    let cost: f64 = field::<Option<f64>>(lua, &e, "cost")?.ok_or_else(|| {
                        mlua::Error::runtime("step.enter_cost needs `cost` (a number)")
                    })?;
                    let cost = mp_given(cost, "step.enter_cost's `cost`")?;
                    Some((
                        set_arg(world, field(lua, &e, "hexes")?)?,
                        Cost::from_mp(cost).0,
                    ))
                }
            };
            Ok(StepCost::PerHex(PerHexStep {
                dear,
                blocked: side_mask(lua, &map, &t, "blocked_by")?,
                only: match field::<mlua::Value>(lua, &t, "only_along")? {
                    mlua::Value::Nil => None,
                    _ => Some(side_mask(lua, &map, &t, "only_along")?),
                },
                free: side_mask(lua, &map, &t, "free_along")?,
                free_within,
            }))
        }
        mlua::Value::Table(t) => {
            super::strict_keys(&t, "the search's `step` (by a class's costs)", &["class", "side", "hex"])?;
            let class: String = field::<Option<String>>(lua, &t, "class")?.unwrap_or_default();
            let side: String = field::<Option<String>>(lua, &t, "side")?.unwrap_or_default();
            Ok(StepCost::Model(cost_model(world, &class, &side)?))
        }
        mlua::Value::Function(f) => Ok(StepCost::Hook(f)),
        other => Err(mlua::Error::runtime(format!(
            "trace: `step` is \"hex\", {{hex=true, blocked_by=...}}, {{class=, side=}} or a function, not {}",
            super::a_type(&other)
        ))),
    }
}

enum PassageArg {
    Open,
    Sets(HexSet, HexSet),
    Hook(Function),
}

fn passage_arg(lua: &Lua, world: &Shared, spec: &Table) -> mlua::Result<PassageArg> {
    match field::<mlua::Value>(lua, spec, "passage")? {
        mlua::Value::Nil => Ok(PassageArg::Open),
        mlua::Value::Table(t) => Ok(PassageArg::Sets(
            {
                super::strict_keys(&t, "the search's `passage`", &["blocked", "enter_only"])?;
                set_arg(world, field(lua, &t, "blocked")?)?
            },
            set_arg(world, field(lua, &t, "enter_only")?)?,
        )),
        mlua::Value::Function(f) => Ok(PassageArg::Hook(f)),
        other => Err(mlua::Error::runtime(format!(
            "trace: `passage` is {{blocked=, enter_only=}} or a function, not {}",
            super::a_type(&other)
        ))),
    }
}

/// What every search reads from its spec besides its starts and targets: the map, the budget
/// (fixed point), the step costs and the passage rule.
type SearchRules = (Arc<Map>, u32, StepCost, PassageArg);

/// The hexes named by `from`: one hex or a list of them.
fn starts_arg(lua: &Lua, world: &Shared, spec: &Table) -> mlua::Result<Vec<Hex>> {
    match field::<mlua::Value>(lua, spec, "from")? {
        mlua::Value::String(s) => Ok(vec![hex_of(world, &s.to_str()?)?]),
        mlua::Value::Table(t) => {
            <super::List<String> as mlua::FromLua>::from_lua(mlua::Value::Table(t), lua)?
                .0
                .iter()
                .map(|l| hex_of(world, l))
                .collect::<mlua::Result<Vec<_>>>()
        }
        _ => Err(mlua::Error::runtime("`from` is a hex or a list of hexes")),
    }
}

/// A number of MP a script gave (`what` names it): any number but NaN. NaN compares false with
/// everything, so it was read as 0 MP without a word: a step-cost hook dividing by zero made the
/// step free, a budget of 0/0 reached nothing. `math.huge` stays "beyond any budget".
fn mp_given(x: f64, what: &str) -> mlua::Result<f64> {
    if x.is_nan() {
        return Err(mlua::Error::runtime(format!(
            "{what} is NaN (0/0?), not a number of MP"
        )));
    }
    Ok(x)
}

fn search_rules(lua: &Lua, world: &Shared, spec: &Table) -> mlua::Result<SearchRules> {
    let budget = mp_given(
        field::<Option<f64>>(lua, spec, "budget")?.unwrap_or(1e6),
        "the search's `budget`",
    )?;
    let map = world.borrow().state.map.clone();
    Ok((
        map,
        Cost::from_mp(budget).0,
        step_arg(lua, world, spec)?,
        passage_arg(lua, world, spec)?,
    ))
}

/// A search's dense costs (`u32::MAX`: not reached) as a label-keyed table of MP: every hex
/// reached, or only those of `only` when given.
fn costs_table(lua: &Lua, map: &Map, costs: &[u32], only: Option<Vec<Hex>>) -> mlua::Result<Table> {
    let mp = |c: u32| c as f64 / Cost::SCALE as f64;
    let reached: Vec<(Hex, f64)> = match only {
        Some(hexes) => hexes
            .into_iter()
            .filter_map(|h| map.index(h).map(|i| (h, costs[i])))
            .filter(|(_, c)| *c != u32::MAX)
            .map(|(h, c)| (h, mp(c)))
            .collect(),
        None => (0..costs.len())
            .filter(|i| costs[*i] != u32::MAX)
            .map(|i| (map.hex_of_index(i), mp(costs[i])))
            .collect(),
    };
    super::strings::hex_keyed(lua, map, reached.into_iter())
}

/// The search of `reach` and `reach_set` (`name` is the function's, for errors): the map and the
/// cost of every hex, `u32::MAX` where the search did not reach.
fn reach_costs(
    lua: &Lua,
    w: &Shared,
    spec: &Table,
    name: &str,
) -> mlua::Result<(Arc<Map>, Vec<u32>)> {
    super::strict_keys(spec, name, &TRACE_KEYS[..4])?;
    let starts = starts_arg(lua, w, spec)?;
    let (map, budget, step, passage) = search_rules(lua, w, spec)?;
    crate::script::charge(lua, SEARCH_COST * map.len() as u64)?;
    let costs = searched(lua, &map, &step, &passage, |cb| {
        reach(
            &map,
            &starts,
            budget,
            |s| cb.borrow_mut().step(s),
            |h| cb.borrow_mut().passage(h),
        )
    })?;
    Ok((map, costs))
}

/// Runs `search` with the step, passage (and target) functions of a spec in `cb`, then gives the
/// first Lua error they met, if any (the searches themselves cannot fail).
fn searched<'a, T>(
    lua: &'a Lua,
    map: &'a Map,
    step: &'a StepCost,
    passage: &'a PassageArg,
    search: impl FnOnce(&std::cell::RefCell<Callbacks<'a>>) -> T,
) -> mlua::Result<T> {
    let cb = std::cell::RefCell::new(Callbacks {
        lua,
        map,
        step,
        passage,
        error: None,
    });
    let out = search(&cb);
    match cb.into_inner().error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Runs a step/passage pair, remembering the first Lua error (the searches themselves can't fail).
struct Callbacks<'a> {
    lua: &'a Lua,
    map: &'a Map,
    step: &'a StepCost,
    passage: &'a PassageArg,
    error: Option<mlua::Error>,
}

impl Callbacks<'_> {
    fn step(&mut self, s: Step) -> Option<u32> {
        match self.step {
            StepCost::PerHex(rule) => rule.cost(self.map, s),
            StepCost::Model(m) => {
                let side = self.map.side_bits(s.from.side(s.dir));
                let t = *self.map.terrain_slice().get(s.to_index)?;
                m.step(side, t).ok().map(|c| c.0)
            }
            // once a function has failed the search is void: it runs on natively, calling no
            // more Lua (a step function that searched again, and failed at Lua's depth limit,
            // was called for every other edge of every search on the way down: a pcall of it
            // ran for ever, stopped only by the wall clock)
            StepCost::Hook(_) if self.error.is_some() => None,
            StepCost::Hook(f) => {
                let labels = super::strings::label(self.lua, self.map, s.from)
                    .and_then(|a| super::strings::label(self.lua, self.map, s.to).map(|b| (a, b)));
                let cost = labels
                    .and_then(|ab| f.call::<Option<f64>>(ab))
                    .and_then(|c| {
                        c.map(|c| mp_given(c, "the step cost the `step` function returned"))
                            .transpose()
                    });
                match cost {
                    Ok(c) => c.map(|c| Cost::from_mp(c).0),
                    Err(e) => {
                        self.error.get_or_insert(e);
                        None
                    }
                }
            }
        }
    }

    fn is_target(&mut self, target: &Target, h: Hex) -> bool {
        match target {
            Target::Set(s) => s.contains(self.map, h),
            Target::Hook(_) if self.error.is_some() => false,
            Target::Hook(f) => {
                match super::strings::label(self.lua, self.map, h).and_then(|l| f.call::<bool>(l)) {
                    Ok(b) => b,
                    Err(e) => {
                        self.error.get_or_insert(e);
                        false
                    }
                }
            }
        }
    }

    fn passage(&mut self, h: Hex) -> Passage {
        match self.passage {
            PassageArg::Open => Passage::Open,
            PassageArg::Sets(blocked, enter) => {
                if blocked.contains(self.map, h) {
                    Passage::Blocked
                } else if enter.contains(self.map, h) {
                    Passage::EnterOnly
                } else {
                    Passage::Open
                }
            }
            PassageArg::Hook(_) if self.error.is_some() => Passage::Blocked,
            PassageArg::Hook(f) => match super::strings::label(self.lua, self.map, h)
                .and_then(|l| f.call::<Option<String>>(l))
            {
                Ok(Some(s)) if s == "blocked" => Passage::Blocked,
                Ok(Some(s)) if s == "enter" => Passage::EnterOnly,
                Ok(_) => Passage::Open,
                Err(e) => {
                    self.error.get_or_insert(e);
                    Passage::Blocked
                }
            },
        }
    }
}

enum Target {
    Set(HexSet),
    Hook(Function),
}

fn target_arg(lua: &Lua, world: &Shared, spec: &Table, what: &str) -> mlua::Result<Target> {
    Ok(match field::<mlua::Value>(lua, spec, "target")? {
        // without one the search found nothing and answered as if no target could be reached
        mlua::Value::Nil => {
            return Err(mlua::Error::runtime(format!(
                "{what}: `target` is required (a set of hexes or a function)"
            )))
        }
        mlua::Value::Function(f) => Target::Hook(f),
        v => Target::Set(set_arg(world, v)?),
    })
}

pub(super) fn register(lua: &Lua, kessel: &Table, world: &Shared) -> mlua::Result<()> {
    let p = lua.create_table()?;
    let w = world.clone();
    p.set(
        "zoc",
        super::function(lua, move |lua, spec: Table| {
            super::strict_keys(&spec, "kessel.paths.zoc", &["hexes", "blocked_by"])?;
            let map = w.borrow().state.map.clone();
            crate::script::charge(lua, SEARCH_COST * map.len() as u64)?;
            let sources = set_arg(&w, field(lua, &spec, "hexes")?)?;
            let bits = side_mask(lua, &map, &spec, "blocked_by")?;
            let set = zone_of_control(&map, sources.hexes(&map).collect::<Vec<_>>(), bits);
            LuaHexSet::new(lua, set, map)
        })?,
    )?;

    let w = world.clone();
    p.set(
        "field",
        super::function(lua, move |lua, spec: Table| {
            searching(lua, &w, "kessel.paths.field", || {
                crate::script::charge(lua, SEARCH_COST * w.borrow().state.map.len() as u64)?;
                super::strict_keys(&spec, "kessel.paths.field", &FIELD_KEYS)?;
                let required = |what: &str| {
                    mlua::Error::runtime(format!("kessel.paths.field: `{what}` is required"))
                };
                let from: String =
                    field::<Option<String>>(lua, &spec, "from")?.ok_or_else(|| required("from"))?;
                let start = hex_of(&w, &from)?;
                let budget: f64 = field::<Option<f64>>(lua, &spec, "budget")?
                    .ok_or_else(|| required("budget"))?;
                let budget = mp_given(budget, "`budget`")?;
                let class: String =
                    field::<Option<String>>(lua, &spec, "class")?.unwrap_or_default();
                let side: String = field::<Option<String>>(lua, &spec, "side")?.unwrap_or_default();
                let model = cost_model(&w, &class, &side)?;
                let map = w.borrow().state.map.clone();
                let mut rules = FieldRules::new(map.len());
                add_sets(lua, &w, &mut rules, field(lua, &spec, "stop")?, 0)?;
                add_sets(lua, &w, &mut rules, field(lua, &spec, "forbid")?, 1)?;
                add_sets(lua, &w, &mut rules, field(lua, &spec, "surcharge")?, 2)?;
                let cannot_leave = field::<Option<Table>>(lua, &spec, "cannot_leave")?
                    .map(|t| reason_of(lua, &t))
                    .transpose()?;
                let hook: Option<Function> = field(lua, &spec, "hook")?;
                let mut hook_error = None;
                let field = match &hook {
                    None => movement_field(
                        &map,
                        start,
                        Cost::from_mp(budget),
                        &model,
                        &rules,
                        cannot_leave,
                        None,
                    ),
                    Some(f) => {
                        let m2 = map.clone();
                        let mut h = |a: Hex,
                                     b: Hex,
                                     so_far: Cost,
                                     step: Cost|
                         -> Result<Option<Cost>, Reason> {
                            // (after a failure, no more Lua: see `Callbacks::step`)
                            if hook_error.is_some() {
                                return Err(Reason {
                                    rule: None,
                                    message: "hook failed".into(),
                                });
                            }
                            let labels = super::strings::label(lua, &m2, a)
                                .and_then(|a| super::strings::label(lua, &m2, b).map(|b| (a, b)));
                            let called = labels.and_then(|(a, b)| {
                                f.call::<(mlua::Value, Option<String>, Option<String>)>((
                                    a,
                                    b,
                                    so_far.mp(),
                                    step.mp(),
                                ))
                            });
                            match called {
                                Ok((mlua::Value::Number(n), _, _)) => {
                                    match mp_given(n, "the cost the field's `hook` returned") {
                                        Ok(n) => Ok(Some(Cost::from_mp(n))),
                                        Err(e) => {
                                            hook_error.get_or_insert(e);
                                            Err(Reason {
                                                rule: None,
                                                message: "hook failed".into(),
                                            })
                                        }
                                    }
                                }
                                Ok((mlua::Value::Integer(n), _, _)) => {
                                    Ok(Some(Cost::from_mp(n as f64)))
                                }
                                Ok((mlua::Value::Boolean(false), msg, rule)) => Err(Reason {
                                    rule,
                                    message: msg.unwrap_or_else(|| "not allowed".into()),
                                }),
                                Ok(_) => Ok(None),
                                Err(e) => {
                                    hook_error.get_or_insert(e);
                                    Err(Reason {
                                        rule: None,
                                        message: "hook failed".into(),
                                    })
                                }
                            }
                        };
                        movement_field(
                            &map,
                            start,
                            Cost::from_mp(budget),
                            &model,
                            &rules,
                            cannot_leave,
                            Some(&mut h),
                        )
                    }
                };
                if let Some(e) = hook_error {
                    return Err(e);
                }
                let _held = crate::script::hold(lua, field.heap_bytes() + 128)?;
                Ok(LuaField { field, map, _held })
            })
        })?,
    )?;

    let w = world.clone();
    p.set(
        "trace",
        super::function(lua, move |lua, spec: Table| {
            searching(lua, &w, "kessel.paths.trace", || {
                super::strict_keys(&spec, "kessel.paths.trace", &TRACE_KEYS)?;
                let starts = starts_arg(lua, &w, &spec)?;
                let (map, budget, step, passage) = search_rules(lua, &w, &spec)?;
                crate::script::charge(lua, SEARCH_COST * map.len() as u64)?;
                let [start] = starts[..] else {
                    return Err(mlua::Error::runtime("trace: `from` is one hex"));
                };
                let target = target_arg(lua, &w, &spec, "kessel.paths.trace")?;
                let found = searched(lua, &map, &step, &passage, |cb| {
                    trace(
                        &map,
                        start,
                        budget,
                        |s| cb.borrow_mut().step(s),
                        |h| cb.borrow_mut().passage(h),
                        |h| cb.borrow_mut().is_target(&target, h),
                    )
                })?;
                match found {
                    None => Ok(None),
                    Some(t) => {
                        let out = lua.create_table()?;
                        out.set(
                            "path",
                            t.path.iter().map(|h| map.label(*h)).collect::<Vec<_>>(),
                        )?;
                        out.set("cost", t.cost as f64 / Cost::SCALE as f64)?;
                        Ok(Some(out))
                    }
                }
            })
        })?,
    )?;

    let w = world.clone();
    p.set(
        "reach",
        super::function(lua, move |lua, spec: Table| {
            searching(lua, &w, "kessel.paths.reach", || {
                let (map, costs) = reach_costs(lua, &w, &spec, "kessel.paths.reach")?;
                costs_table(lua, &map, &costs, None)
            })
        })?,
    )?;
    // the hexes `reach` would list, as a hexset: no table of costs to build when only membership
    // matters (a supply network asked once per unit costs far less as a set of bits than as a
    // table of a thousand labels)
    let w = world.clone();
    p.set(
        "reach_set",
        super::function(lua, move |lua, spec: Table| {
            searching(lua, &w, "kessel.paths.reach_set", || {
                let (map, costs) = reach_costs(lua, &w, &spec, "kessel.paths.reach_set")?;
                let mut set = HexSet::new(&map);
                for (i, c) in costs.iter().enumerate() {
                    if *c != u32::MAX {
                        set.insert(&map, map.hex_of_index(i));
                    }
                }
                LuaHexSet::new(lua, set, map)
            })
        })?,
    )?;
    // what `trace` would find from every hex (or from the `from` hexes), by one search back
    // from the targets
    let w = world.clone();
    p.set(
        "trace_costs",
        super::function(lua, move |lua, spec: Table| {
            searching(lua, &w, "kessel.paths.trace_costs", || {
                super::strict_keys(&spec, "kessel.paths.trace_costs", &TRACE_KEYS)?;
                let (map, budget, step, passage) = search_rules(lua, &w, &spec)?;
                let target = target_arg(lua, &w, &spec, "kessel.paths.trace_costs")?;
                let only = match field::<mlua::Value>(lua, &spec, "from")? {
                    mlua::Value::Nil => None,
                    _ => Some(starts_arg(lua, &w, &spec)?),
                };
                crate::script::charge(lua, SEARCH_COST * map.len() as u64)?;
                let costs = searched(lua, &map, &step, &passage, |cb| {
                    trace_costs(
                        &map,
                        budget,
                        |s| cb.borrow_mut().step(s),
                        |h| cb.borrow_mut().passage(h),
                        |h| cb.borrow_mut().is_target(&target, h),
                    )
                })?;
                costs_table(lua, &map, &costs, only)
            })
        })?,
    )?;
    // the declared cost of one step (or of entering a hex from off the map, without `from`)
    let w = world.clone();
    p.set(
        "cost",
        super::function(lua, move |_, spec: Table| {
            super::strict_keys(&spec, "kessel.paths.cost", &["class", "side", "from", "to"])?;
            let class: String = spec.get::<Option<String>>("class")?.unwrap_or_default();
            let side: String = spec.get::<Option<String>>("side")?.unwrap_or_default();
            let model = cost_model(&w, &class, &side)?;
            let to: String = spec.get::<Option<String>>("to")?.ok_or_else(|| {
                mlua::Error::runtime("kessel.paths.cost: `to` (the hex entered) is missing")
            })?;
            let to = hex_of(&w, &to)?;
            let map = w.borrow().state.map.clone();
            let bits = match spec.get::<Option<String>>("from")? {
                Some(f) => {
                    let from = hex_of(&w, &f)?;
                    let side = Hexside::between(from, to).ok_or_else(|| {
                        mlua::Error::runtime(format!("{f} and {} are not adjacent", map.label(to)))
                    })?;
                    map.side_bits(side)
                }
                None => 0,
            };
            let t = map
                .terrain(to)
                .ok_or_else(|| mlua::Error::runtime("off the map"))?;
            match model.step(bits, t) {
                Ok(c) => Ok((Some(c.mp()), None, None)),
                Err(r) => Ok((None, Some(r.message.clone()), r.rule.clone())),
            }
        })?,
    )?;
    kessel.set("paths", p)?;
    Ok(())
}
