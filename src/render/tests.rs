use super::*;
use kessel_core::ruleset::{KindDecl, Ruleset};
use kessel_core::scenario::parse_map;
use kessel_core::state::{Face, Location};
use std::path::Path;

const SMALL: &str = r#"
[map]
name = "Test"
columns = 6
rows = 5

[terrain]
default = "clear"
legend = { "." = "clear", "f" = "forest", "s" = "swamp", "q" = "quagmire" }
rows = ["..f...", ".ss...", "...q..", "......", "ff...."]

[[hexsides]]
kind = "river"
name = "Little"
sides = ["0202/0302", "0202/0303", "0203/0303", "0101/0201"]

[[hexsides]]
kind = "lake"
sides = ["0504/0505"]

[[links]]
kind = "road"
path = ["0101", "0201", "0301", "0401"]

[[links]]
kind = "railway"
path = ["0103", "0203", "0303"]

[[places]]
name = "Bigtown"
kind = "major_city"
hexes = ["0303", "0403"]

[[places]]
name = "Small <&> Town"
kind = "minor_city"
hexes = ["0501"]

[[areas]]
id = "A"
hexes = ["0101..0105"]

[[tags]]
tag = "vp_hex"
hexes = ["0604"]
"#;

fn small() -> Map {
    parse_map(Path::new("small.toml"), SMALL).expect("the test map parses")
}

fn decl(id: &str, props: serde_json::Value) -> KindDecl {
    KindDecl {
        id: id.into(),
        props,
    }
}

/// A ruleset declaring most of the small map's kinds, as a ruleset's init.lua would.
fn style() -> MapStyle {
    let mut r = Ruleset {
        sides: vec!["red".into(), "blue".into()],
        ..Ruleset::default()
    };
    r.terrains.push(decl(
        "forest",
        serde_json::json!({"name": "Woodland", "color": "#4a7a3a", "marks": "trees"}),
    ));
    r.terrains
        .push(decl("swamp", serde_json::json!({"marks": "marsh"})));
    r.hexside_kinds.push(decl(
        "river",
        serde_json::json!({"kind": "feature", "color": "#3060c0", "name": "River"}),
    ));
    r.hexside_kinds.push(decl(
        "railway",
        serde_json::json!({"kind": "link", "ticks": true, "color": "#202020"}),
    ));
    r.hexside_kinds.push(decl(
        "road",
        serde_json::json!({"kind": "link", "color": "#8a5a2a"}),
    ));
    r.place_kinds.push(decl(
        "major_city",
        serde_json::json!({"name": "Big city", "symbol": "square", "color": "#b3261e"}),
    ));
    r.constants.insert(
        "side_style".into(),
        serde_json::json!({"blue": {"name": "Bluish", "color": "#3050d0"}}),
    );
    MapStyle::from_ruleset(&r)
}

fn unit(id: &str, side: &str, at: Hex, hidden: bool) -> Unit {
    Unit {
        id: id.into(),
        name: id.to_uppercase(),
        side: side.into(),
        kind: "infantry".into(),
        formation: None,
        faces: if hidden {
            Vec::new()
        } else {
            vec![Face {
                attack: 4,
                defence: 3,
                movement: 7,
            }]
        },
        named: Vec::new(),
        step: 0,
        hidden,
        pool: None,
        location: Location::Map(at),
        entry: None,
        setup_area: None,
        attrs: Default::default(),
        flags: Default::default(),
        vars: Default::default(),
    }
}

fn units(map: &Map) -> Vec<Unit> {
    let a = map.parse("0203").expect("hex");
    let b = map.parse("0505").expect("hex");
    vec![
        unit("x1", "red", a, false),
        unit("x2", "red", a, true),
        unit("y1", "blue", b, true),
    ]
}

fn draw(map: &Map, units: &[Unit], style: &MapStyle, opts: &Options) -> String {
    render_svg(
        &Picture {
            map,
            title: "Test <scenario>",
            units,
            objectives: &[],
            markers: &[],
            style,
            seen_by: None,
        },
        opts,
    )
}

/// The `d` of the path carrying `attr="value"`.
fn path_d<'a>(svg: &'a str, attr: &str, value: &str) -> Option<&'a str> {
    let key = format!("{attr}=\"{value}\" d=\"");
    let start = svg.find(&key)? + key.len();
    svg[start..].split('"').next()
}

fn points(d: &str) -> Vec<(f32, f32)> {
    let nums: Vec<f32> = d
        .split(['M', 'L', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("number"))
        .collect();
    nums.chunks(2).map(|c| (c[0], c[1])).collect()
}

fn near(p: (f32, f32), q: Point) -> bool {
    (p.0 - q.x).abs() < 0.11 && (p.1 - q.y).abs() < 0.11
}

#[test]
fn every_river_hexside_is_a_path_on_the_edge_both_hexes_share() {
    let map = small();
    let svg = draw(&map, &[], &style(), &Options::default());
    let l = layout_of(&map);
    let river = map
        .features
        .iter()
        .find(|f| f.kind == "river")
        .expect("river");
    assert_eq!(river.sides.len(), 4);
    let group = svg
        .split("<g data-kind=\"river\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("river group");
    assert!(group.contains("stroke=\"#3060c0\""), "the declared colour");
    assert_eq!(group.matches("<path data-side=").count(), 4);
    for side in &river.sides {
        let (a, b) = side.hexes();
        let label = format!("{}/{}", map.label(a), map.label(b));
        let d = path_d(group, "data-side", &label).expect("a path for the side");
        let ends = points(d);
        assert_eq!(ends.len(), 2, "{label}: {d}");
        // both ends are corners of both hexes
        for h in [a, b] {
            for e in &ends {
                let is_corner = l.corners(h).iter().any(|c| near(*e, *c));
                assert!(
                    is_corner,
                    "{label}: {e:?} is not a corner of {}",
                    map.label(h)
                );
            }
        }
    }
    assert!(
        path_d(&svg, "data-side", "0505/0504").is_some(),
        "lake side"
    );
}

#[test]
fn roads_and_railways_join_hex_centres() {
    let map = small();
    let svg = draw(&map, &[], &style(), &Options::default());
    let l = layout_of(&map);
    let road = svg
        .split("<g data-kind=\"road\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("road group");
    assert_eq!(road.matches("<path data-link=").count(), 3);
    let a = map.parse("0201").expect("hex");
    let b = map.parse("0301").expect("hex");
    let (x, y) = Hexside::between(a, b).expect("adjacent").hexes();
    let label = format!("{}/{}", map.label(x), map.label(y));
    let ends = points(path_d(road, "data-link", &label).expect("segment"));
    let (ca, cb) = (l.center(a), l.center(b));
    assert!((near(ends[0], ca) && near(ends[1], cb)) || (near(ends[0], cb) && near(ends[1], ca)));
    let rail = svg
        .split("<g data-kind=\"railway\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("railway group");
    assert_eq!(rail.matches("<path data-link=").count(), 2);
    // a railway segment carries cross-ticks: more than one sub-path
    let first = rail.split("d=\"").nth(1).expect("d");
    assert!(first.split('"').next().expect("d").matches('M').count() > 1);
}

#[test]
fn output_is_deterministic_and_complete() {
    let map = small();
    let us = units(&map);
    let st = style();
    let a = draw(&map, &us, &st, &Options::default());
    let b = draw(&map, &us, &st, &Options::default());
    assert_eq!(a, b);
    assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(a.trim_end().ends_with("</svg>"));
    for h in map.hexes() {
        assert!(a.contains(&format!(">{}</text>", map.label(h))));
    }
    assert!(a.contains("Test &lt;scenario&gt;"));
    assert!(a.contains("Small &lt;&amp;&gt; Town"));
    assert!(!a.contains("<&>"));
    // declared terrain colours; an undeclared one gets the model's stable fallback
    assert!(a.contains("data-terrain=\"forest\" fill=\"#4a7a3a\""));
    assert!(a.contains("data-marks=\"forest\""));
    assert!(a.contains(&format!(
        "data-terrain=\"quagmire\" fill=\"{}\"",
        st.terrain("quagmire").fill.to_hex()
    )));
    assert!(a.contains(">Bigtown</text>") && a.contains("font-weight=\"bold\""));
    assert!(a.contains("data-tag=\"vp"));
    assert!(a.contains("data-area=\"A\""));
    // the top of a stack is the unit listed last
    assert!(a.contains("data-unit=\"x2\"") && a.contains("data-unit=\"y1\""));
    assert!(!a.contains("data-unit=\"x1\""), "x1 lies under x2");
    assert!(a.contains(">?</text>") && a.contains(">2</text>"));
    // sides: declared colour and name, or the palette by play order
    assert!(a.contains("fill=\"#3050d0\""));
    assert!(a.contains(">Red unit</text>") && a.contains(">Bluish unit</text>"));
    assert!(!a.contains("NaN"));
}

#[test]
fn the_legend_shows_display_names_not_ids() {
    let map = small();
    let svg = draw(&map, &units(&map), &style(), &Options::default());
    let legend = svg.split("<g id=\"legend\"").nth(1).expect("legend");
    for name in [
        ">Woodland</text>",
        ">Quagmire</text>",
        ">River hexside</text>",
        ">Railway (hex to hex)</text>",
        ">Big city</text>",
        ">Minor city</text>",
    ] {
        assert!(legend.contains(name), "{name} missing from the legend");
    }
    for id in [">forest</text>", ">major_city</text>", ">red unit</text>"] {
        assert!(!legend.contains(id), "{id} in the legend");
    }
}

#[test]
fn place_names_are_drawn_under_the_counters() {
    let map = small();
    let svg = draw(&map, &units(&map), &style(), &Options::default());
    let names = svg.find("<g id=\"place-names\"").expect("names");
    let counters = svg.find("<g id=\"units\"").expect("units");
    assert!(names < counters, "a name never covers a counter");
}

#[test]
fn areas_and_units_can_be_left_out() {
    let map = small();
    let svg = draw(
        &map,
        &units(&map),
        &style(),
        &Options {
            areas: false,
            units: false,
        },
    );
    assert!(!svg.contains("data-area="));
    assert!(!svg.contains("data-unit="));
    assert!(!svg.contains("id=\"area-labels\""));
}

#[test]
fn the_svg_rasterises() {
    let map = small();
    let svg = draw(
        &map,
        &units(&map),
        &MapStyle::default(),
        &Options::default(),
    );
    let png = svg_to_png(&svg, 0.5).expect("renders");
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn an_objective_under_counters_gets_its_star_over_them() {
    let map = small();
    let st = style();
    let held = map.parse("0203").expect("hex");
    let free = map.parse("0401").expect("hex");
    let objectives = [held, free].map(|h| Objective {
        name: map.label(h),
        hexes: vec![h],
        vp: 5,
        side: None,
    });
    let svg = render_svg(
        &Picture {
            map: &map,
            title: "Stars",
            units: &units(&map),
            objectives: &objectives,
            markers: &[],
            style: &st,
            seen_by: None,
        },
        &Options::default(),
    );
    let stars: Vec<usize> = svg
        .match_indices("data-tag=\"vp\"")
        .map(|(i, _)| i)
        .collect();
    // 0203 (two counters), 0401 (none) and the map's vp_hex tag on 0604
    assert_eq!(stars.len(), 3, "{stars:?}");
    let top = svg
        .find("data-unit=\"x2\"")
        .expect("the stack's top counter");
    assert_eq!(
        stars.iter().filter(|&&i| i > top).count(),
        1,
        "one star drawn after 0203's counters"
    );
    // and that one on the top counter's left edge, not under the count badge at its right
    let (min, w) = *pieces::stack_rects(layout_of(&map).center(held), S, 2)
        .last()
        .expect("rects");
    let (at, _) = pieces::star_on_stack(min, w);
    let last = &svg[*stars.last().expect("a star")..];
    let d = last.split("d=\"").nth(1).and_then(|s| s.split('"').next());
    let tip = d
        .map(|d| points(d.trim_end_matches('Z')))
        .and_then(|p| p.first().copied())
        .expect("a tip");
    assert!((tip.0 - at.x).abs() < 0.5 && tip.1 < at.y, "{tip:?} {at:?}");
}

#[test]
fn the_legend_explains_the_vp_star_once() {
    let map = small();
    let svg = draw(&map, &units(&map), &style(), &Options::default());
    let legend = svg.split("<g id=\"legend\"").nth(1).expect("legend");
    assert!(legend.contains(">VP hex (objective or VP tag)</text>"));
    assert!(legend.contains("data-tag=\"legend\""), "with its star");
    // the map's vp_hex tag is that star, not a tag of its own
    assert!(!legend.contains(">tag vp_hex</text>"));
}

#[test]
fn a_count_badge_keeps_off_the_name_of_the_hex_above() {
    let map = small();
    // Small Town's hex holds a stack, so its name runs on below it into 0502
    let (town, below, apart) = (
        map.parse("0501").expect("hex"),
        map.parse("0502").expect("hex"),
        map.parse("0201").expect("hex"),
    );
    let units: Vec<Unit> = [
        ("a", town),
        ("b", below),
        ("c", below),
        ("d", apart),
        ("e", apart),
    ]
    .into_iter()
    .map(|(id, h)| unit(id, "red", h, false))
    .collect();
    let svg = draw(&map, &units, &style(), &Options::default());
    let l = layout_of(&map);
    let badge_y = |h: Hex| {
        let (min, _) = *pieces::stack_rects(l.center(h), S, 2)
            .last()
            .expect("rects");
        let cx = svg
            .split("<circle cx=\"")
            .skip(1)
            .filter_map(|s| {
                let x: f32 = s.split('"').next()?.parse().ok()?;
                let y: f32 = s.split("cy=\"").nth(1)?.split('"').next()?.parse().ok()?;
                (x > min.x && x < min.x + 40.0 && y > min.y - 10.0 && y < min.y + 30.0).then_some(y)
            })
            .next()
            .expect("a badge by the counter");
        cx - min.y
    };
    // under the name: on the counter's edge, level with its top; in the open: on its corner
    assert!((badge_y(below) - BADGE_R).abs() < 0.1, "{}", badge_y(below));
    assert!(badge_y(apart).abs() < 0.1, "{}", badge_y(apart));
}

#[test]
fn markers_on_the_map_are_drawn_with_their_initials_and_value() {
    let map = small();
    let at = map.parse("0302").expect("hex");
    let marker = |id: u32, kind: &str, value: Option<serde_json::Value>| Marker {
        id,
        kind: kind.into(),
        side: None,
        hex: Some(at),
        other: None,
        value,
    };
    let markers = [
        marker(0, "mine_field", Some(serde_json::json!({ "ap": 6 }))),
        marker(1, "air_interdiction", None),
        Marker {
            hex: None,
            ..marker(2, "spare", None)
        },
    ];
    let svg = render_svg(
        &Picture {
            map: &map,
            title: "Markers",
            units: &[],
            objectives: &[],
            markers: &markers,
            style: &style(),
            seen_by: None,
        },
        &Options::default(),
    );
    let layer = svg
        .split("<g id=\"markers\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("a marker layer");
    assert!(layer.contains(">MF</text>") && layer.contains(">AI</text>"));
    assert!(layer.contains(">6</text>"), "the value: {layer}");
    assert!(
        !layer.contains("spare"),
        "a marker off the map is not drawn"
    );
    // one under the other down the hex's left side, not over each other
    let at = |attr: &str| -> Vec<f32> {
        layer
            .split("data-marker=")
            .skip(1)
            .filter_map(|s| s.split(attr).nth(1)?.split('"').next()?.parse().ok())
            .collect()
    };
    let (xs, ys, ws) = (at(" x=\""), at(" y=\""), at(" width=\""));
    assert_eq!((xs.len(), ys.len()), (2, 2), "{xs:?} {ys:?}");
    // the first has a value: its tag (7.5 high for a chip of the size wanted, smaller in step
    // with a chip made smaller to fit the hex) under it stays clear of the next chip
    let chip = ws[0];
    assert!(chip <= pieces::MARKER_CHIP * S + 0.05, "{ws:?}");
    let tag = 7.5 * chip / (pieces::MARKER_CHIP * S);
    assert!(ys[1] - ys[0] >= chip + tag - 0.05, "{ys:?}");
    let legend = svg.split("<g id=\"legend\"").nth(1).expect("legend");
    assert!(legend.contains(">mine field marker</text>"));
    assert!(!legend.contains(">spare marker</text>"));
}

/// One to four markers, with values, on a hex with a counter and a VP star and on one with a
/// counter alone: every chip lies inside its own hex (0503's second chip in scenarios/ridge lay on
/// 0403's counter).
#[test]
fn marker_chips_stay_inside_their_own_hex() {
    let map = small();
    let (starred, plain) = (
        map.parse("0302").expect("hex"),
        map.parse("0203").expect("hex"),
    );
    let units = [
        unit("a", "red", starred, false),
        unit("b", "blue", plain, false),
    ];
    let objectives = [Objective {
        name: "Hill".into(),
        hexes: vec![starred],
        vp: 5,
        side: None,
    }];
    let l = layout_of(&map);
    for count in 1..=4 {
        let markers: Vec<Marker> = (0..count)
            .flat_map(|k| [starred, plain].map(|h| (k, h)))
            .enumerate()
            .map(|(id, (k, h))| Marker {
                id: id as u32,
                kind: format!("kind{k}"),
                side: None,
                hex: Some(h),
                other: None,
                value: Some(serde_json::json!(k + 1)),
            })
            .collect();
        let svg = render_svg(
            &Picture {
                map: &map,
                title: "Markers",
                units: &units,
                objectives: &objectives,
                markers: &markers,
                style: &style(),
                seen_by: None,
            },
            &Options::default(),
        );
        let layer = svg
            .split("<g id=\"markers\"")
            .nth(1)
            .and_then(|s| s.split("</g>").next())
            .expect("a marker layer");
        let attr = |chip: &str, name: &str| -> f32 {
            (chip.split(&format!(" {name}=\"")).nth(1))
                .and_then(|s| s.split('"').next()?.parse().ok())
                .expect("a number")
        };
        let chips: Vec<&str> = layer.split("data-marker=").skip(1).collect();
        assert_eq!(chips.len(), 2 * count);
        // the chips of each hex are drawn together, the hexes in order: 0203's, then 0302's
        for (i, chip) in chips.iter().enumerate() {
            let h = if i < count { plain } else { starred };
            let c = l.center(h);
            let (x, y, w) = (attr(chip, "x"), attr(chip, "y"), attr(chip, "width"));
            for (px, py) in [(x, y), (x + w, y), (x, y + w), (x + w, y + w)] {
                let (dx, dy) = ((px - c.x).abs(), (py - c.y).abs());
                assert!(
                    dy <= 0.866 * S + 0.05 && dx + dy / 3f32.sqrt() <= S + 0.05,
                    "{count} markers, chip {i} out of {}: {chip}",
                    map.label(h)
                );
            }
        }
    }
}

#[test]
fn a_count_badge_keeps_off_a_neighbours_vp_star() {
    let map = small();
    // 0401 lies north-east of 0302: its star on its top counter's left edge sits by 0302's
    // counter's top right corner
    let (objective, beside) = (
        map.parse("0401").expect("hex"),
        map.parse("0302").expect("hex"),
    );
    let units: Vec<Unit> = [
        ("a", objective),
        ("b", objective),
        ("c", beside),
        ("d", beside),
    ]
    .into_iter()
    .map(|(id, h)| unit(id, "red", h, false))
    .collect();
    let objectives = [Objective {
        name: "Hill".into(),
        hexes: vec![objective],
        vp: 5,
        side: None,
    }];
    let draw_with = |objectives: &[Objective]| {
        render_svg(
            &Picture {
                map: &map,
                title: "Stars",
                units: &units,
                objectives,
                markers: &[],
                style: &style(),
                seen_by: None,
            },
            &Options::default(),
        )
    };
    let l = layout_of(&map);
    let (min, w) = *pieces::stack_rects(l.center(beside), S, 2)
        .last()
        .expect("rects");
    let badge_y = |svg: &str| {
        let at = format!("<circle cx=\"{}\" cy=\"", svg::n(min.x + w));
        let y: f32 = svg
            .split(&at)
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|y| y.parse().ok())
            .expect("a badge on the counter's right edge");
        y - min.y
    };
    // with no star beside it the badge takes the corner; with one, the edge below it
    assert!(badge_y(&draw_with(&[])).abs() < 0.1);
    assert!((badge_y(&draw_with(&objectives)) - BADGE_R).abs() < 0.1);
}

#[test]
fn an_area_id_at_the_west_edge_stays_on_the_picture() {
    // a long id on the west edge, written outside it, ran off the picture's left side
    let text = SMALL.replace("id = \"A\"", "id = \"entry_from_the_west\"");
    let map = parse_map(Path::new("small.toml"), &text).expect("the test map parses");
    let svg = draw(&map, &units(&map), &style(), &Options::default());
    let label = svg
        .split("<g id=\"area-labels\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("area labels");
    let x: f32 = label
        .split("<text x=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .and_then(|x| x.parse().ok())
        .expect("the label's x");
    assert!(label.contains("text-anchor=\"end\""), "{label}");
    // its start: the end less a bold character's width (at most 0.65 em) per character
    let start = x - 0.65 * AREA_FONT * "entry_from_the_west".len() as f32;
    assert!(start >= 0.0, "the id starts at {start}: cut");
    // and the map moved right to make room: its first hex's left corner is right of the id
    let l = layout_of(&map);
    assert!(l.center(map.hex_at(0, 0)).x - S > x, "{x}");
}

/// A marker with a value on an objective under a counter: neither its chip nor the value's tag
/// lies on the VP star drawn on the counter's left edge (the first chip's tag covered the star's
/// left arm).
#[test]
fn a_marker_on_an_objective_keeps_off_its_vp_star() {
    let map = small();
    let held = map.parse("0302").expect("hex");
    let objectives = [Objective {
        name: "held".into(),
        hexes: vec![held],
        vp: 5,
        side: None,
    }];
    let marker = |id: u32, kind: &str, value: serde_json::Value| Marker {
        id,
        kind: kind.into(),
        side: None,
        hex: Some(held),
        other: None,
        value: Some(value),
    };
    let markers = [
        marker(0, "fort", serde_json::json!("fortified")),
        marker(1, "mine", serde_json::json!(12)),
    ];
    let svg = render_svg(
        &Picture {
            map: &map,
            title: "Star and markers",
            units: &[unit("x1", "red", held, false)],
            objectives: &objectives,
            markers: &markers,
            style: &style(),
            seen_by: None,
        },
        &Options::default(),
    );
    let (min, w) = *pieces::stack_rects(layout_of(&map).center(held), S, 1)
        .last()
        .expect("the counter");
    let (star, r) = pieces::star_on_stack(min, w);
    let layer = svg
        .split("<g id=\"markers\"")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("a marker layer");
    // every rectangle of the layer: the chips and the value tags under them
    let attr = |rect: &str, name: &str| -> f32 {
        rect.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} of {rect}"))
    };
    let rects: Vec<&str> = layer.split("<rect").skip(1).collect();
    assert_eq!(rects.len(), 4, "two chips, two tags: {layer}");
    for rect in rects {
        let (x, y) = (attr(rect, "x"), attr(rect, "y"));
        let (w, h) = (attr(rect, "width"), attr(rect, "height"));
        let apart =
            x + w <= star.x - r || x >= star.x + r || y + h <= star.y - r || y >= star.y + r;
        assert!(apart, "{rect} lies on the star at {star:?} (r {r})");
    }
}

/// A counter in the picture is the editor's: what the drawing model prints on it
/// ([`counter::counter_face`]: the formation on top, the unit symbol in its box, the values), not
/// a layout of the renderer's own (it printed the unit's name or type over the values and no
/// symbol, so a map and the editor showed one unit two ways).
#[test]
fn counters_are_drawn_as_the_drawing_model_prints_them() {
    let map = small();
    let at = map.parse("0302").expect("hex");
    let mut r = Ruleset {
        sides: vec!["red".into(), "blue".into()],
        ..Ruleset::default()
    };
    r.unit_types.insert(
        "infantry".into(),
        serde_json::json!({ "symbol": "infantry" }),
    );
    let st = MapStyle::from_ruleset(&r);
    let mut u = unit("x1", "red", at, false);
    u.formation = Some("7 Pz".into());
    let svg = draw(&map, std::slice::from_ref(&u), &st, &Options::default());
    let group = svg
        .split("<g id=\"units\">")
        .nth(1)
        .and_then(|s| s.split("</g>").next())
        .expect("the units");
    let (min, w) = *pieces::stack_rects(layout_of(&map).center(at), S, 1)
        .last()
        .expect("a counter");
    let face = counter::counter_face(&st, &u, min, w);
    assert!(
        group.contains(">7 Pz</text>"),
        "the formation on top: {group}"
    );
    assert!(!group.contains(">X1</text>"), "not the name: {group}");
    assert!(group.contains(">4-3-7</text>"), "the values: {group}");
    // the infantry symbol: its box and the two lines of its cross, where the model puts them
    let lines = group.matches("<line ").count();
    assert_eq!(lines, 2, "{group}");
    for p in &face.prints {
        if let Print::Line { a, .. } = p {
            assert!(
                group.contains(&format!("x1=\"{}\" y1=\"{}\"", svg::n(a.x), svg::n(a.y))),
                "{p:?} in {group}"
            );
        }
    }
}
