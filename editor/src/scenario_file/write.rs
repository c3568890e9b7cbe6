//! Writing an edited [`ScenarioDef`] into the author's TOML document with `toml_edit`: only the
//! values that changed are touched, so comments, key order and layout survive.

use super::{
    attrs_of, int_of, placement_of, str_of, strings_of, LevelDef, ObjectiveDef, Placement,
    ScenarioDef, UnitDef, VarDef,
};
use super::{pool_of, MarkerDef, PoolDef};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

/// Replaces a value, keeping the comment and spacing around the old one.
fn put(t: &mut Table, key: &str, v: impl Into<Value>) {
    let mut v: Value = v.into();
    match t.get_mut(key) {
        Some(Item::Value(old)) => {
            *v.decor_mut() = old.decor().clone();
            *old = v;
        }
        _ => {
            t.insert(key, Item::Value(v));
        }
    }
}

fn put_str(t: &mut Table, key: &str, v: Option<&str>) {
    match v {
        Some(v) if str_of(t, key).as_deref() != Some(v) => put(t, key, v),
        Some(_) => {}
        None => {
            t.remove(key);
        }
    }
}

fn put_int(t: &mut Table, key: &str, v: Option<i64>) {
    match v {
        Some(v) if int_of(t, key) != Some(v) => put(t, key, v),
        Some(_) => {}
        None => {
            t.remove(key);
        }
    }
}

fn put_strings(t: &mut Table, key: &str, v: &[String], keep_empty: bool) {
    if v.is_empty() && !keep_empty {
        t.remove(key);
    } else if strings_of(t, key) != v || t.get(key).is_none() {
        put(t, key, v.iter().map(String::as_str).collect::<Array>());
    }
}

fn write_unit(t: &mut Table, u: &UnitDef) {
    put_str(t, "id", Some(&u.id));
    put_str(t, "name", u.name.as_deref());
    put_str(t, "side", Some(&u.side));
    put_str(t, "type", Some(&u.kind));
    put_str(t, "formation", u.formation.as_deref());
    put_strings(t, "faces", &u.faces, false);
    if u.hidden {
        if t.get("hidden").and_then(Item::as_bool) != Some(true) {
            put(t, "hidden", true);
        }
    } else if t.get("hidden").and_then(Item::as_bool) == Some(true) {
        t.remove("hidden");
    }
    put_str(t, "pool", u.pool.as_deref());
    if placement_of(t) != u.placement {
        match &u.placement {
            Placement::Unplaced => {
                for k in ["at", "area", "enter"] {
                    t.remove(k);
                }
            }
            Placement::At(l) => {
                t.remove("area");
                t.remove("enter");
                put_str(t, "at", Some(l));
            }
            Placement::Area(a) => {
                t.remove("at");
                t.remove("enter");
                put_str(t, "area", Some(a));
            }
            Placement::Enter { turn, area } => {
                t.remove("at");
                t.remove("area");
                match t.get_mut("enter").and_then(Item::as_inline_table_mut) {
                    // an inline table stays one: change its values where they are
                    Some(e) => {
                        if e.get("turn").and_then(Value::as_integer) != Some(i64::from(*turn)) {
                            let decor = e.get("turn").map(|v| v.decor().clone());
                            let mut v = Value::from(i64::from(*turn));
                            if let Some(d) = decor {
                                *v.decor_mut() = d;
                            }
                            e.insert("turn", v);
                        }
                        if e.get("area").and_then(Value::as_str) != Some(area.as_str()) {
                            let decor = e.get("area").map(|v| v.decor().clone());
                            let mut v = Value::from(area.as_str());
                            if let Some(d) = decor {
                                *v.decor_mut() = d;
                            }
                            e.insert("area", v);
                        }
                    }
                    None => {
                        t.remove("enter");
                        let mut e = InlineTable::new();
                        e.insert("turn", i64::from(*turn).into());
                        e.insert("area", area.as_str().into());
                        t.insert("enter", Item::Value(Value::InlineTable(e)));
                    }
                }
            }
        }
    }
    if attrs_of(t) != u.attrs {
        if u.attrs.is_empty() {
            t.remove("attrs");
        } else {
            let mut a = InlineTable::new();
            for (k, v) in &u.attrs {
                a.insert(k, (*v).into());
            }
            put(t, "attrs", Value::InlineTable(a));
        }
    }
}

fn write_objective(t: &mut Table, o: &ObjectiveDef) {
    put_str(t, "place", o.place.as_deref());
    put_str(t, "name", o.name.as_deref());
    put_strings(t, "hexes", &o.hexes, false);
    put_int(t, "vp", Some(o.vp));
    put_str(t, "side", o.side.as_deref());
}

fn write_level(t: &mut Table, l: &LevelDef) {
    put_str(t, "name", Some(&l.name));
    put_int(t, "max", l.max);
}

/// A new `[[key]]` table, with a blank line before its header as the format's examples have.
fn new_table() -> Table {
    let mut t = Table::new();
    t.decor_mut().set_prefix("\n");
    t
}

/// The array of tables under `key`, created (after the existing tables) if missing.
fn aot_mut<'a>(doc: &'a mut DocumentMut, key: &str) -> Option<&'a mut ArrayOfTables> {
    if doc.get(key).is_none() {
        doc.insert(key, Item::ArrayOfTables(ArrayOfTables::new()));
    }
    doc.get_mut(key).and_then(Item::as_array_of_tables_mut)
}

/// Writes tables matched by position (objectives, levels: they have no id).
fn write_by_index<T>(
    doc: &mut DocumentMut,
    key: &str,
    old: &[T],
    new: &[T],
    write: fn(&mut Table, &T),
) where
    T: PartialEq,
{
    if old == new {
        return;
    }
    if new.is_empty() {
        doc.remove(key);
        return;
    }
    let Some(aot) = aot_mut(doc, key) else {
        return;
    };
    let mut tables: Vec<Table> = aot.iter().cloned().collect();
    tables.truncate(new.len());
    while tables.len() < new.len() {
        tables.push(new_table());
    }
    aot.clear();
    for (mut t, v) in tables.into_iter().zip(new) {
        write(&mut t, v);
        aot.push(t);
    }
}

pub(super) fn write_def(doc: &mut DocumentMut, old: &ScenarioDef, new: &ScenarioDef) {
    if old.meta != new.meta {
        if let Some(h) = doc.get_mut("scenario").and_then(Item::as_table_mut) {
            let m = &new.meta;
            put_str(h, "name", Some(&m.name));
            put_int(h, "turns", Some(i64::from(m.turns)));
            put_str(h, "profile", m.profile.as_deref());
            if str_of(h, "notes").unwrap_or_default() != m.notes {
                if m.notes.is_empty() {
                    h.remove("notes");
                } else {
                    put(h, "notes", m.notes.as_str());
                }
            }
        }
    }
    if old.units != new.units {
        if new.units.is_empty() {
            doc.remove("units");
        } else if let Some(aot) = aot_mut(doc, "units") {
            // match tables by id so a moved or edited unit keeps its comments
            let mut old_tables: Vec<Table> = aot.iter().cloned().collect();
            aot.clear();
            for u in &new.units {
                let found = old_tables
                    .iter()
                    .position(|t| str_of(t, "id").as_deref() == Some(u.id.as_str()));
                let mut t = match found {
                    Some(i) => old_tables.remove(i),
                    None => new_table(),
                };
                write_unit(&mut t, u);
                aot.push(t);
            }
        }
    }
    write_by_index(
        doc,
        "objectives",
        &old.objectives,
        &new.objectives,
        write_objective,
    );
    write_by_index(doc, "levels", &old.levels, &new.levels, write_level);
    write_by_index(doc, "markers", &old.markers, &new.markers, write_marker);
    write_by_index(doc, "pools", &old.pools, &new.pools, write_pool);
    if old.vars != new.vars {
        write_vars(doc, &old.vars, &new.vars);
    }
    keep_trailing_text_in_place(doc);
}

/// Text after the file's last table, such as the commented-out keys of an empty `[vars]` in a
/// `kessel new scenario` skeleton, belongs to that table; toml_edit writes it at the very end,
/// below any table the edit added after that one, so a key uncommented there later would land in
/// the new table. It becomes the prefix of the first added table instead: it stays right below
/// the table it followed.
fn keep_trailing_text_in_place(doc: &mut DocumentMut) {
    let trailing = doc.trailing().as_str().unwrap_or_default().to_string();
    if trailing.trim().is_empty() {
        return;
    }
    // the order toml_edit writes tables in: by position, a table without one (added by the
    // edit) right after the table visited before it
    let mut order = Vec::new();
    let mut last = 0;
    let mut index = 0;
    visit_tables(doc.as_table(), &mut |t: &Table| {
        if let Some(p) = t.position() {
            last = p;
        }
        order.push((last, index, t.position().is_some()));
        index += 1;
    });
    order.sort_by_key(|&(p, i, _)| (p, i));
    let Some(last_read) = order.iter().rposition(|&(_, _, read)| read) else {
        return;
    };
    let Some(&(_, target, _)) = order.get(last_read + 1) else {
        return; // nothing was added after the last table read
    };
    let mut index = 0;
    visit_tables_mut(doc.as_table_mut(), &mut |t: &mut Table| {
        if index == target {
            let own = t
                .decor()
                .prefix()
                .and_then(|p| p.as_str())
                .unwrap_or("\n")
                .to_string();
            let sep = if trailing.ends_with('\n') { "" } else { "\n" };
            t.decor_mut().set_prefix(format!("{trailing}{sep}{own}"));
        }
        index += 1;
    });
    doc.set_trailing("");
}

/// Every table under `t` with a header, in the order toml_edit visits them (the root, which has
/// none, and dotted tables are skipped).
fn visit_tables(t: &Table, f: &mut dyn FnMut(&Table)) {
    for (_, item) in t.iter() {
        match item {
            Item::Table(sub) => {
                if !sub.is_dotted() {
                    f(sub);
                }
                visit_tables(sub, f);
            }
            Item::ArrayOfTables(aot) => {
                for sub in aot.iter() {
                    f(sub);
                    visit_tables(sub, f);
                }
            }
            _ => {}
        }
    }
}

/// [`visit_tables`], with each table to change.
fn visit_tables_mut(t: &mut Table, f: &mut dyn FnMut(&mut Table)) {
    for (_, item) in t.iter_mut() {
        match item {
            Item::Table(sub) => {
                if !sub.is_dotted() {
                    f(sub);
                }
                visit_tables_mut(sub, f);
            }
            Item::ArrayOfTables(aot) => {
                for sub in aot.iter_mut() {
                    f(sub);
                    visit_tables_mut(sub, f);
                }
            }
            _ => {}
        }
    }
}

fn write_marker(t: &mut Table, m: &MarkerDef) {
    put_str(t, "kind", Some(&m.kind));
    put_str(t, "side", m.side.as_deref());
    put_int(t, "count", Some(m.count));
}

fn write_pool(t: &mut Table, p: &PoolDef) {
    put_str(t, "id", Some(&p.id));
    put_str(t, "side", p.side.as_deref());
    if t.get("faces").is_none() || pool_of(t).faces != p.faces {
        let faces: Array = p
            .faces
            .iter()
            .map(|(f, n)| {
                let mut pair = Array::new();
                pair.push(f.as_str());
                pair.push(*n);
                Value::Array(pair)
            })
            .collect();
        put(t, "faces", faces);
    }
}

/// Writes the `[vars]` table: changed values replaced in place (keeping their comments), new
/// ones appended, removed ones dropped; a value that is not TOML is left as it was (the panel
/// says why and does not send it).
fn write_vars(doc: &mut DocumentMut, old: &[VarDef], new: &[VarDef]) {
    if new.is_empty() {
        doc.remove("vars");
        return;
    }
    if doc.get("vars").and_then(Item::as_table).is_none() {
        doc.insert("vars", Item::Table(Table::new()));
    }
    let Some(t) = doc.get_mut("vars").and_then(Item::as_table_mut) else {
        return;
    };
    for o in old {
        if !new.iter().any(|v| v.key == o.key) {
            t.remove(&o.key);
        }
    }
    for v in new {
        let unchanged = old.iter().any(|o| o == v);
        if let (false, Ok(value)) = (unchanged, v.parsed()) {
            put(t, &v.key, value);
        }
    }
}
