//! Movement-field benchmark: a 10-MP unit on a 59×31 map of mixed terrain with rivers and roads,
//! costs declared in Lua (the toy ruleset) and evaluated natively, against a plain Rust Dijkstra
//! on the same grid; plus the price of one Lua hook call. Run with `cargo bench -p kessel-core`.
//!
//! Targets (issue #2): the Lua-declared field within 3× the reference, median ≤ 100 µs.

use kessel_core::algo::movement::{movement_field, Cost, FieldRules};
use kessel_core::engine::Engine;
use kessel_core::hex::HexDir;
use kessel_core::map::Map;
use kessel_core::ruleset::compile_costs;
use kessel_core::script::Limits;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// Builds the benchmark position in Lua: deterministic pseudo-random woods, a winding river and a
/// road across the map.
const SETUP: &str = r#"
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local terrain, hexsides, road = {}, {}, {}
for c = 1, 59 do for r = 1, 31 do
  if rnd(100) < 35 then terrain[string.format("%02d%02d", c, r)] = "woods" end
end end
-- a river down column 20/21 and one along row 15/16
for r = 1, 30 do hexsides[#hexsides + 1] = { string.format("20%02d", r), string.format("21%02d", r), "river" } end
for c = 1, 59 do hexsides[#hexsides + 1] = { string.format("%02d15", c), string.format("%02d16", c), "river" } end
-- a road along row 10 (straight along N-S steps of column 30 too)
for c = 1, 59 do road[#road + 1] = string.format("%02d10", c) end
local links = {}
for r = 1, 31 do links[#links + 1] = string.format("30%02d", r) end
kessel.setup{
  map = { columns = 59, rows = 31, terrain = terrain, hexsides = hexsides,
          links = { { kind = "road", path = links } } },
  units = { { id = "t", side = "red", type = "tank", faces = { "4-2-10" }, at = "3016" } },
  step = "red_move",
}
return function()
  return kessel.paths.field{ from = "3016", budget = 10, class = "wheels", side = "red" }
end
"#;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn time<F: FnMut()>(reps: usize, mut f: F) -> f64 {
    for _ in 0..reps / 10 + 1 {
        f();
    }
    let mut samples = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        f();
        samples.push(t.elapsed().as_secs_f64() * 1e6);
    }
    median(samples)
}

/// The reference: a textbook Dijkstra with costs looked up in plain arrays, no rule machinery.
fn reference_field(
    map: &Map,
    start: kessel_core::Hex,
    budget: u32,
    terrain_cost: &[u32],
    river_bit: u32,
    road_bit: u32,
) -> usize {
    let n = map.len();
    let mut cost = vec![u32::MAX; n];
    let si = map.index(start).expect("start on map");
    cost[si] = 0;
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, si)));
    let terrain = map.terrain_slice();
    while let Some(Reverse((c, i))) = heap.pop() {
        if c != cost[i] {
            continue;
        }
        let here = map.hex_of_index(i);
        for d in HexDir::ALL {
            let to = here.neighbor(d);
            let Some(j) = map.index(to) else { continue };
            let bits = map.side_bits(here.side(d));
            let mut step = if bits & road_bit != 0 {
                Cost::SCALE / 2
            } else {
                terrain_cost[terrain[j] as usize]
            };
            if bits & river_bit != 0 {
                step += 2 * Cost::SCALE;
            }
            let nc = c + step;
            if nc <= budget && nc < cost[j] {
                cost[j] = nc;
                heap.push(Reverse((nc, j)));
            }
        }
    }
    cost.iter().filter(|c| **c != u32::MAX).count()
}

fn main() {
    let toy = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toy");
    let mut engine = Engine::bare(&toy, Limits::default()).expect("toy ruleset");
    engine
        .run_script_text("bench_setup.lua", "")
        .expect("script api");
    let lua = engine.host().lua();
    let field_fn: mlua::Function = engine
        .host()
        .run_text("bench_setup.lua", SETUP)
        .and_then(|v| match v {
            mlua::Value::Function(f) => Ok(f),
            _ => Err(kessel_core::script::ScriptError::plain(
                "setup returned no function",
            )),
        })
        .expect("bench setup");

    let (map, decl) = {
        let w = engine.world();
        (
            w.state.map.clone(),
            w.ruleset.movement.clone().expect("costs"),
        )
    };
    let start = map.parse("3016").expect("start");
    let model = compile_costs(&decl, &map, "wheels", "red").expect("compile");
    let rules = FieldRules::new(map.len());
    let budget = Cost::from_mp(10.0);

    let reps = 2000;
    let reference = {
        let woods = map.terrains.get("woods").map(|w| w as usize);
        let mut tc = vec![Cost::SCALE; map.terrains.names().len()];
        if let Some(w) = woods {
            tc[w] = 2 * Cost::SCALE;
        }
        let river = 1 << map.side_kinds.get("river").expect("river");
        let road = 1 << map.side_kinds.get("road").expect("road");
        let reached = reference_field(&map, start, budget.0, &tc, river, road);
        let native = movement_field(&map, start, budget, &model, &rules, None, None);
        assert_eq!(
            reached,
            native.reachable(&map).len() + 1,
            "reference and engine agree"
        );
        time(reps, || {
            black_box(reference_field(&map, start, budget.0, &tc, river, road));
        })
    };
    let native = time(reps, || {
        black_box(movement_field(
            &map, start, budget, &model, &rules, None, None,
        ));
    });
    // each field asked for as the engine asks: one guarded call, with its own budget
    let from_lua = time(reps, || {
        black_box(
            engine
                .host()
                .guarded(|_| field_fn.call::<mlua::Value>(()))
                .expect("field"),
        );
    });
    let hook: mlua::Function = lua
        .load("return function(a, b) return 1 end")
        .eval()
        .expect("hook");
    let calls = 10_000;
    let per_hook = time(50, || {
        engine
            .host()
            .guarded(|_| {
                for _ in 0..calls {
                    black_box(hook.call::<i64>(("0101", "0102"))?);
                }
                Ok(())
            })
            .expect("calls");
    }) * 1000.0
        / calls as f64;

    println!("movement field, 59x31 map, 10 MP, median of {reps} runs:");
    println!("  reference Dijkstra (plain Rust)        {reference:8.1} µs");
    println!(
        "  engine field, native call              {native:8.1} µs  ({:.2}× reference)",
        native / reference
    );
    println!(
        "  engine field, called from Lua          {from_lua:8.1} µs  ({:.2}× reference)",
        from_lua / reference
    );
    println!("one Lua hook call (2 string args)        {per_hook:8.1} ns");
    println!(
        "targets: ≤ 3× reference → {}; ≤ 100 µs median → {}",
        if from_lua <= 3.0 * reference {
            "met"
        } else {
            "MISSED"
        },
        if from_lua <= 100.0 { "met" } else { "MISSED" }
    );
}
