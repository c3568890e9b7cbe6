//! From the file's tables to a [`Scenario`]: every table checked against the map and the
//! limits, each problem located at its line and collected (a lenient result keeps what loaded).

use super::file::*;
use super::*;

impl Scenario {
    pub(super) fn parse_inner(
        path: &Path,
        text: &str,
        map: Option<Map>,
    ) -> Result<Lenient<Scenario>, LoadErrors> {
        let read = super::extends::read(path, text)?;
        let (sources, file) = (read.sources, read.file);
        let extends = (read.extends).map(|e| (e.get_ref().clone(), sources.line(e.span().start)));
        // the paths the scenario names: relative to the folder of the file that names each (a
        // base's map beside the base), of the field's kind
        let dir_of = |v: &S<String>| {
            (sources.at(v.span().start).path.parent())
                .unwrap_or(Path::new("."))
                .to_path_buf()
        };
        let named = |field: &str, v: &S<String>, kind| {
            crate::fsio::named_path(&dir_of(v), v.get_ref(), kind).map_err(|e| {
                let (file, line) = sources.locate(v.span().start);
                LoadError::new(file, Some(line), format!("`{field}`: {e}"))
            })
        };
        let map_path = named("map", &file.scenario.map, Named::Toml)?;
        let named_dir = tidy_ruleset_dir(&named("ruleset", &file.scenario.ruleset, Named::Folder)?);
        let (ruleset_dir, stand_in) = crate::fsio::ruleset_or_stand_in(&named_dir);
        let ruleset_named = stand_in.then_some(named_dir);
        let ruleset_field = (
            file.scenario.ruleset.get_ref().clone(),
            sources.line(file.scenario.ruleset.span().start),
        );
        // a profile is a name in the ruleset's profiles/ folder, or a file beside the scenario
        let profile = match &file.scenario.profile {
            Some(p) if crate::engine::Engine::is_profile_path(p.get_ref()) => Some(
                named("profile", p, Named::Toml)?
                    .to_string_lossy()
                    .into_owned(),
            ),
            Some(p) => Some(p.get_ref().clone()),
            None => None,
        };
        let profile_line = (file.scenario.profile.as_ref()).map(|p| sources.line(p.span().start));
        let (map, map_errors) = match map {
            Some(m) => (m, Vec::new()),
            None => {
                // a map that cannot be read at all (missing, a folder, too large) is the
                // scenario's `map` line's to answer for: it was said at the map's path alone,
                // with no word of which file named it
                let (named_in, line) = sources.locate(file.scenario.map.span().start);
                let text = read_text(&map_path, "map").map_err(|e| match e.line {
                    Some(_) => e,
                    None => LoadError::new(
                        named_in,
                        Some(line),
                        format!(
                            "`map` names {}, which {}",
                            crate::error::shown_path(&map_path).display(),
                            e.message.replace("cannot read map: ", "cannot be read: ")
                        ),
                    ),
                })?;
                parse_map_lenient(&map_path, &text)?
            }
        };
        let mut d = Diag::over(&sources);
        let turns = file.scenario.turns.get_ref().0;
        if turns == 0 {
            d.at(
                file.scenario.turns.span(),
                "a scenario needs at least one turn",
            );
        }
        if turns > MAX_TURNS {
            d.at(
                file.scenario.turns.span(),
                format!("turns = {turns} is over the limit ({MAX_TURNS})"),
            );
        }
        // (said at its own line: a variant's `turns` may be its base's)
        let first = file.scenario.first_turn.as_ref();
        let first_turn = first.map_or(1, |t| t.get_ref().0);
        let last_turn = u64::from(first_turn) + u64::from(turns.max(1)) - 1;
        if let Some(at) = first.map(|t| t.span()) {
            if first_turn == 0 {
                d.at(at, "first_turn = 0: game-turns are numbered from 1");
            } else if first_turn > MAX_TURNS {
                d.at(
                    at,
                    format!("first_turn = {first_turn} is over the limit ({MAX_TURNS})"),
                );
            } else if turns <= MAX_TURNS && last_turn > u64::from(MAX_TURNS) {
                d.at(
                    at,
                    format!(
                        "first_turn = {first_turn} with turns = {turns} plays to turn \
                         {last_turn}, past the highest turn number ({MAX_TURNS}): start earlier \
                         or play fewer turns"
                    ),
                );
            }
        }
        // the ruleset's sides that take part: a list of distinct names (checked against the
        // ruleset's sides when a game starts)
        let sides = file.scenario.sides.as_ref().map(|v| {
            let list = v.get_ref().clone();
            if list.is_empty() {
                d.at(
                    v.span(),
                    "`sides` names no side: leave it out for all the ruleset's sides",
                );
            }
            for (i, side) in list.iter().enumerate() {
                if list[..i].contains(side) {
                    d.at(v.span(), format!("`sides` names `{side}` twice"));
                }
            }
            (list, d.line(v.span().start))
        });
        // later sums (last turn, entry turns) stay in range from here on
        let turns = turns.min(MAX_TURNS);
        let first_turn = first_turn.min(MAX_TURNS);

        let mut pools = BTreeMap::new();
        let mut pool_lines: BTreeMap<&str, usize> = BTreeMap::new();
        for entry in &file.pools {
            let p = entry.get_ref();
            d.name(entry.span(), format_args!("pool id"), &p.id);
            if let Some(first) = d.seen_before(&mut pool_lines, p.id.as_str(), &entry.span()) {
                d.at(
                    entry.span(),
                    format!(
                        "pool `{}` is defined twice (first at {first}): give each pool its \
                         own id, or put all its faces in one entry",
                        p.id
                    ),
                );
                continue;
            }
            let mut faces = Vec::new();
            for f in &p.faces {
                let (face, count) = f.get_ref();
                let count = count.0;
                if faces.len() as u64 + count as u64 > MAX_POOL_FACES {
                    d.at(
                        f.span(),
                        format!(
                            "pool `{}`: {count} more faces is over the limit ({MAX_POOL_FACES} per pool)",
                            p.id
                        ),
                    );
                    continue;
                }
                match Face::parse(face) {
                    Some(fc) => faces.extend(std::iter::repeat_n(fc, count as usize)),
                    None => d.at(f.span(), format!("`{face}` is not a face (A-D-M)")),
                }
            }
            pools.insert(p.id.clone(), (p.side.clone(), faces));
        }
        let pool_lines: BTreeMap<String, usize> = pool_lines
            .into_iter()
            .map(|(id, at)| (id.to_string(), d.line(at)))
            .collect();

        let mut units = Vec::new();
        // units and markers hidden from sides at the start, by line
        let mut hidden = Vec::new();
        let mut seen = BTreeSet::new();
        // units already spread over each set-up area (keeps loading linear in the unit count)
        let mut per_area: BTreeMap<String, usize> = BTreeMap::new();
        for entry in &file.units {
            let line = d.line(entry.span().start);
            let u = entry.get_ref();
            // (the one rule for unit ids, as `kessel.setup` and `kessel.emit.create_unit` hold)
            if let Some(why) = crate::names::unit_id_problem(&u.id) {
                d.at(entry.span(), why);
                if u.id.len() > crate::names::MAX_UNIT_ID {
                    continue;
                }
            } else if !seen.insert(u.id.clone()) {
                d.at(entry.span(), format!("unit id `{}` is used twice", u.id));
            }
            let mut faces = Vec::new();
            let mut named = Vec::new();
            let any_named = u
                .faces
                .iter()
                .any(|f| matches!(f.get_ref(), FaceEntry::Named(_)));
            let (face_texts, face_lines): (Vec<String>, Vec<usize>) = u
                .faces
                .iter()
                .filter_map(|f| match f.get_ref() {
                    FaceEntry::Text(t) => Some((t.clone(), d.line(f.span().start))),
                    FaceEntry::Named(_) => None,
                })
                .unzip();
            let all_text = !any_named && !u.faces.is_empty();
            for f in &u.faces {
                match f.get_ref() {
                    // not A-D-M: read with the type's face_fields once the ruleset is known
                    FaceEntry::Text(text) if all_text && Face::parse(text).is_none() => {
                        if text.split('-').any(|p| p.trim().is_empty()) {
                            d.at(
                                f.span(),
                                format!("`{text}` is not a face (parts joined by `-`)"),
                            );
                        }
                    }
                    FaceEntry::Text(text) => match Face::parse(text) {
                        Some(fc) if any_named => named.push(
                            [
                                ("attack", fc.attack),
                                ("defence", fc.defence),
                                ("movement", fc.movement),
                            ]
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), Value::from(v)))
                            .collect(),
                        ),
                        Some(fc) => faces.push(fc),
                        None => d.at(f.span(), format!("`{text}` is not a face (A-D-M)")),
                    },
                    FaceEntry::Named(values) if values.is_empty() => {
                        d.at(f.span(), "a face table needs named values")
                    }
                    FaceEntry::Named(values) => {
                        let mut face = BTreeMap::new();
                        for (k, v) in values {
                            match plain_data(v) {
                                Ok(v) => {
                                    face.insert(k.clone(), v);
                                }
                                Err(why) => d.at(
                                    f.span(),
                                    format!("unit `{}`: face value `{k}` {why}", u.id),
                                ),
                            }
                        }
                        named.push(face);
                    }
                }
            }
            // faces waiting for the type's face_fields are read together, not in part
            if all_text && faces.len() != face_texts.len() {
                faces.clear();
            }
            if u.hidden {
                match &u.pool {
                    None => d.at(entry.span(), format!("hidden unit `{}` needs a pool", u.id)),
                    Some(p) if !pools.contains_key(p.get_ref()) => {
                        // a scenario cut from a campaign map starts with no pools: say how to
                        // make one, not only that the name is unknown
                        let declared = if pools.is_empty() {
                            "this file declares no pools".to_string()
                        } else {
                            let ids: Vec<&str> = pools.keys().map(String::as_str).collect();
                            format!("this file declares {}", ids.join(", "))
                        };
                        d.at(
                            p.span(),
                            format!(
                                "unknown pool `{}` ({declared}): a `[[pools]]` table gives its id, side and faces \
                                 with their counts (docs/file-formats.md)",
                                p.get_ref()
                            ),
                        )
                    }
                    _ => {}
                }
            } else if faces.is_empty() && named.is_empty() && face_texts.is_empty() {
                // what to write: a game that keeps strengths in `vars` still needs a face
                d.at(
                    entry.span(),
                    format!(
                        "unit `{}` has no faces: give `faces`, its printed values one per step \
                         (\"4-4-10\", or named values such as {{ mp = 3 }}; one face at least), or \
                         make it face down with `hidden = true` and a `pool`",
                        u.id
                    ),
                );
            }
            let mut location = Location::Pending;
            let mut setup_area = None;
            if let Some(at) = &u.at {
                match map.numbering().parse(at.get_ref()) {
                    Some(h) if map.contains(h) => location = Location::Map(h),
                    Some(_) => d.at(
                        at.span(),
                        format!("unit `{}` is placed off the map at {}", u.id, at.get_ref()),
                    ),
                    None => d.at(
                        at.span(),
                        format!("unit `{}`: `{}` is not a hex number", u.id, at.get_ref()),
                    ),
                }
            }
            if let Some(area) = &u.area {
                match map.areas.get(area.get_ref()) {
                    Some(a) if !a.hexes.is_empty() => {
                        setup_area = Some(area.get_ref().clone());
                        // spread units of one area over its hexes in file order; the owner may
                        // rearrange them with the ruleset's set-up action
                        let k = per_area.entry(area.get_ref().clone()).or_default();
                        let n = *k;
                        *k += 1;
                        let k = n;
                        location = Location::Map(a.hexes[k % a.hexes.len()]);
                    }
                    _ => d.at(area.span(), format!("unknown area `{}`", area.get_ref())),
                }
            }
            let mut entry_spec = None;
            if let Some(e) = &u.enter {
                let en = e.get_ref();
                let turn = en.turn.0;
                if turn < first_turn || turn > first_turn + turns.saturating_sub(1) {
                    d.at(
                        e.span(),
                        format!(
                            "unit `{}` enters on turn {}, but the scenario has turns {}–{}",
                            u.id,
                            turn,
                            first_turn,
                            first_turn + turns.saturating_sub(1)
                        ),
                    );
                }
                if !map.areas.contains_key(&en.area) {
                    d.at(
                        e.span(),
                        format!("unit `{}`: unknown entry area `{}`", u.id, en.area),
                    );
                }
                entry_spec = Some(Entry {
                    turn,
                    area: en.area.clone(),
                });
            }
            if u.at.is_some() as u8 + u.area.is_some() as u8 + u.enter.is_some() as u8 > 1 {
                d.at(
                    entry.span(),
                    format!("unit `{}`: give only one of `at`, `area` and `enter`", u.id),
                );
            }
            let step = match &u.step {
                None => 0,
                Some(st) => {
                    let printed = faces.len().max(named.len()).max(face_texts.len()) as u32;
                    let lost = *st.get_ref();
                    if !(0..i64::from(printed.max(1))).contains(&lost) {
                        d.at(
                            st.span(),
                            format!(
                                "unit `{}`: step {lost} but it has {printed} face{} (steps lost count from 0, so 0 to {})",
                                u.id,
                                if printed == 1 { "" } else { "s" },
                                printed.max(1) - 1
                            ),
                        );
                    }
                    u32::try_from(lost).unwrap_or(0)
                }
            };
            for f in &u.flags {
                d.name(entry.span(), format_args!("unit `{}`: flag", u.id), f);
            }
            for k in u.attrs.keys() {
                d.name(entry.span(), format_args!("unit `{}`: attribute", u.id), k);
            }
            let mut vars = BTreeMap::new();
            if let Some(written) = &u.vars {
                for (k, v) in written.get_ref() {
                    d.name(written.span(), format_args!("unit `{}`: var", u.id), k);
                    match plain_value(v) {
                        Ok(v) => {
                            vars.insert(k.clone(), v);
                        }
                        Err(why) => {
                            d.at(written.span(), format!("unit `{}`: var `{k}` {why}", u.id))
                        }
                    }
                }
            }
            if let Some(from) = u.hidden_from.as_ref().and_then(|h| h.get_ref().resolve()) {
                hidden.push(HiddenAtStart {
                    what: Hideable::Unit(u.id.clone()),
                    from,
                    line,
                });
            }
            units.push(UnitSpec {
                unit: Unit {
                    id: u.id.clone(),
                    name: u.name.clone().unwrap_or_else(|| u.id.clone()),
                    side: u.side.get_ref().clone(),
                    kind: u.kind.get_ref().clone(),
                    formation: u.formation.clone(),
                    faces,
                    named,
                    step,
                    hidden: u.hidden,
                    pool: u.pool.as_ref().map(|p| p.get_ref().clone()),
                    location,
                    entry: entry_spec,
                    setup_area,
                    attrs: u.attrs.clone(),
                    flags: u.flags.iter().cloned().collect(),
                    vars,
                },
                line,
                face_lines: if all_text { face_lines } else { Vec::new() },
                face_texts: if all_text { face_texts } else { Vec::new() },
            });
        }

        let mut markers = Vec::new();
        let mut marker_lines = Vec::new();
        let wanted: u64 = file
            .markers
            .iter()
            .map(|m| m.get_ref().count() as u64)
            .sum();
        if wanted > MAX_MARKERS as u64 {
            let biggest = file.markers.iter().max_by_key(|m| m.get_ref().count());
            d.at(
                biggest
                    .and_then(|m| m.get_ref().count.as_ref())
                    .map(|c| c.span())
                    .unwrap_or(0..0),
                format!("the scenario asks for {wanted} markers, over the limit ({MAX_MARKERS})"),
            );
        }
        for entry in file.markers.iter().filter(|_| wanted <= MAX_MARKERS as u64) {
            let m = entry.get_ref();
            d.name(entry.span(), format_args!("marker kind"), &m.kind);
            let mut hex = None;
            let mut other = None;
            if let Some(at) = &m.at {
                if m.count() != 1 {
                    d.at(
                        at.span(),
                        format!(
                            "marker `{}`: a marker placed `at` a hex is one marker (count = 1)",
                            m.kind
                        ),
                    );
                }
                match map.numbering().parse(at.get_ref()) {
                    Some(h) if map.contains(h) => hex = Some(h),
                    _ => d.at(
                        at.span(),
                        format!(
                            "marker `{}`: hex `{}` is not on the map",
                            m.kind,
                            at.get_ref()
                        ),
                    ),
                }
            }
            if let Some(o) = &m.other {
                match (hex, map.numbering().parse(o.get_ref())) {
                    (Some(h), Some(oh)) if map.contains(oh) && h.distance_to(oh) == 1 => {
                        other = Some(oh)
                    }
                    (None, _) => d.at(
                        o.span(),
                        format!(
                            "marker `{}`: `other` needs `at` (the hexside between them)",
                            m.kind
                        ),
                    ),
                    _ => d.at(
                        o.span(),
                        format!(
                            "marker `{}`: `{}` is not a hex adjacent to `at`",
                            m.kind,
                            o.get_ref()
                        ),
                    ),
                }
            }
            let value = match &m.value {
                None => None,
                Some(v) => match plain_value(v.get_ref()) {
                    Ok(v) => Some(v),
                    Err(why) => {
                        d.at(v.span(), format!("marker `{}`: value {why}", m.kind));
                        None
                    }
                },
            };
            let first = markers.len() as u32;
            let line = d.line(entry.span().start);
            marker_lines.push((first..first + m.count(), line));
            if let Some(from) = m.hidden_from.as_ref().and_then(|h| h.get_ref().resolve()) {
                hidden.push(HiddenAtStart {
                    what: Hideable::Markers(first..first + m.count()),
                    from,
                    line,
                });
            }
            for _ in 0..m.count() {
                markers.push(Marker {
                    id: markers.len() as u32,
                    kind: m.kind.clone(),
                    side: m.side.clone(),
                    hex,
                    other,
                    value: value.clone(),
                });
            }
        }

        let mut objectives = Vec::new();
        let mut objective_at = Vec::new();
        // each objective's hexes and side, with its line: the same one twice is refused
        let mut objective_lines: BTreeMap<(Vec<Hex>, Option<String>), usize> = BTreeMap::new();
        for o in &file.objectives {
            let ob = o.get_ref();
            if ob.place.is_some() && !ob.hexes.is_empty() {
                d.at(
                    o.span(),
                    "objective gives both `place` and `hexes`: keep one (`place` takes the place's \
                     hexes from the map; `name` names an objective given by `hexes`)",
                );
            }
            let mut hexes = Vec::new();
            let mut name = ob.name.clone();
            if let Some(n) = &ob.name {
                d.name(o.span(), format_args!("objective `name`"), n);
            }
            // an objective whose place or hexes are wrong is reported as such, once
            let mut misnamed = false;
            if let Some(p) = &ob.place {
                match map.place(p) {
                    Some(place) => hexes.extend(place.hexes.iter().copied()),
                    None => {
                        misnamed = true;
                        let known: Vec<&str> =
                            map.places.iter().map(|pl| pl.name.as_str()).collect();
                        d.at(
                            o.span(),
                            format!(
                                "objective: unknown place `{p}`{}",
                                crate::names::did_you_mean(p, &known)
                            ),
                        )
                    }
                }
                name = name.or_else(|| Some(p.clone()));
            }
            for l in &ob.hexes {
                match expand_label(&map, l) {
                    Ok(h) => hexes.extend(h),
                    Err(m) => {
                        misnamed = true;
                        d.at(o.span(), m)
                    }
                }
            }
            if hexes.is_empty() && !misnamed {
                d.at(o.span(), "objective has no hexes (give `place` or `hexes`)");
            }
            // as a place's: a hex listed twice counted twice wherever the rules count them
            let (mut once, mut twice) = (BTreeSet::new(), BTreeSet::new());
            for h in &hexes {
                if !once.insert(*h) && twice.insert(*h) {
                    d.at(
                        o.span(),
                        format!("objective lists hex {} twice: remove one", map.label(*h)),
                    );
                }
            }
            if !hexes.is_empty() {
                let mut key_hexes = hexes.clone();
                key_hexes.sort();
                key_hexes.dedup();
                let key = (key_hexes, ob.side.clone());
                if let Some(first) = objective_lines.get(&key) {
                    d.at(
                        o.span(),
                        format!(
                            "the same objective twice (the objective at {} has the same \
                             hexes{}): remove one, or give it all the VP",
                            d.line_words(*first, o.span().start),
                            ob.side
                                .as_deref()
                                .map(|s| format!(" and side `{s}`"))
                                .unwrap_or_default()
                        ),
                    );
                } else {
                    objective_lines.insert(key, o.span().start);
                }
            }
            let vp = *ob.vp.get_ref();
            if vp.unsigned_abs() > MAX_VP as u64 {
                d.at(
                    ob.vp.span(),
                    format!("objective vp = {vp} is out of range (at most ±{MAX_VP})"),
                );
            }
            objective_at.push(d.line(o.span().start));
            objectives.push(Objective {
                name: name
                    .unwrap_or_else(|| hexes.first().map(|h| map.label(*h)).unwrap_or_default()),
                hexes,
                vp,
                side: ob.side.clone(),
            });
        }
        let mut level_lines: BTreeMap<&str, usize> = BTreeMap::new();
        for entry in &file.levels {
            let l = entry.get_ref();
            d.name(entry.span(), format_args!("victory level `name`"), &l.name);
            if let Some(first) = d.seen_before(&mut level_lines, l.name.as_str(), &entry.span()) {
                d.at(
                    entry.span(),
                    format!(
                        "victory level `{}` is named twice (first at {first}): give each \
                         level its own name",
                        l.name
                    ),
                );
            }
            if let Some(m) = l
                .max
                .as_ref()
                .filter(|m| m.get_ref().unsigned_abs() > MAX_VP as u64)
            {
                d.at(
                    m.span(),
                    format!(
                        "level `{}`: max = {} is out of range (at most ±{MAX_VP})",
                        l.name,
                        m.get_ref()
                    ),
                );
            }
        }
        let levels = file
            .levels
            .iter()
            .map(|l| Level {
                name: l.get_ref().name.clone(),
                max: l.get_ref().max.as_ref().map(|m| *m.get_ref()),
            })
            .collect();
        let mut vars = BTreeMap::new();
        for (k, v) in &file.vars {
            d.name(k.span(), format_args!("scenario var"), k.get_ref());
            match plain_data(v) {
                Ok(v) => {
                    vars.insert(k.get_ref().clone(), v);
                }
                Err(why) => d.at(k.span(), format!("scenario var `{}` {why}", k.get_ref())),
            }
        }
        let var_lines = file
            .vars
            .keys()
            .map(|k| (k.get_ref().clone(), d.line(k.span().start)))
            .collect();

        let mut scripts = Vec::new();
        let mut seen_scripts = BTreeMap::new();
        for sc in &file.scenario.scripts {
            let p = match crate::fsio::named_path(&dir_of(sc), sc.get_ref(), Named::Lua) {
                Ok(p) => p,
                Err(e) => {
                    d.at(sc.span(), format!("`scripts`: {e}"));
                    continue;
                }
            };
            // (run twice, its declarations were refused as made twice, naming none of this)
            if let Some(first) = d.seen_before(&mut seen_scripts, p.clone(), &sc.span()) {
                d.at(
                    sc.span(),
                    format!(
                        "`scripts`: `{}` is listed twice (first at {first}); each script runs once",
                        sc.get_ref()
                    ),
                );
                continue;
            }
            if !p.is_file() {
                d.at(
                    sc.span(),
                    format!("scenario script `{}` not found", sc.get_ref()),
                );
            }
            scripts.push(p);
        }
        let mut errors = map_errors;
        errors.append(&mut d.errors);
        let files = sources.files();
        let mut unit_lines = BTreeMap::new();
        for u in &units {
            // the first table of an id, as a linear search would find it
            unit_lines.entry(u.unit.id.clone()).or_insert(u.line);
        }
        let scenario = Scenario {
            unit_lines,
            scripts,
            path: path.to_path_buf(),
            files,
            extends,
            name: file.scenario.name,
            ruleset_dir,
            ruleset_field,
            ruleset_named,
            profile,
            profile_line,
            map_path,
            map: Arc::new(map),
            turns,
            first_turn,
            notes: file.scenario.notes,
            units,
            pools,
            pool_lines,
            markers,
            marker_lines,
            hidden,
            objectives,
            objective_lines: objective_at,
            levels,
            vars,
            var_lines,
            sides,
        };
        Ok((scenario, errors))
    }
}
