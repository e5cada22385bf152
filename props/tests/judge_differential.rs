//! The judge's two readers of a request (`read_fast`, the one the judge runs, and
//! `read_simple`, which looks every header up on its own and parses every body into a
//! `serde_json::Value`) must give the same `RequestView`, and the rules over each the same
//! Verdict. Compared over the runner's generated cases, the probe set, the property-test
//! mixes, fuzz-byte cases, and bodies rewritten to stress the scanner (escapes, duplicate
//! keys, odd numbers, whitespace, nesting, truncation), on several surfaces (modern-only,
//! dual-era, header-less legacy, no capabilities, allowed origins).

use mcpdiff_oracle::judge::{body_read_in_place, judge_view, read_fast, read_simple};
use mcpdiff_oracle::reference::probes::probes;
use mcpdiff_oracle::{fixture, judge, Capabilities, Case, Surface};
use mcpdiff_props::fuzz_props::case_from_bytes;
use mcpdiff_props::gen::{case_for, case_strategy};
use mcpdiff_props::strategies::case::mixed_case;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::Value;

/// Surfaces that take different paths through the judge.
fn surfaces() -> Vec<(&'static str, Surface)> {
    let base = fixture::surface();
    let mut dual = base.clone();
    dual.supported_versions.push("2025-06-18".to_string());
    let mut headerless = base.clone();
    headerless.supported_versions.push("2025-03-26".to_string());
    let mut legacy_probe = base.clone();
    legacy_probe.legacy_era = true;
    let mut bare = base.clone();
    bare.capabilities = Capabilities::default();
    let mut origins = base.clone();
    origins.allowed_origins = vec!["http://example.com".to_string(), "null".to_string()];
    let mut two_versions = base.clone();
    two_versions
        .supported_versions
        .push("2027-01-01".to_string());
    vec![
        ("fixture", base),
        ("dual-era", dual),
        ("header-less", headerless),
        ("legacy-era", legacy_probe),
        ("no-capabilities", bare),
        ("allowed-origins", origins),
        ("two-modern-versions", two_versions),
    ]
}

fn assert_same(what: &str, case: &Case, surface_name: &str, surface: &Surface) {
    let (mut fast_tree, mut simple_tree) = (None, None);
    let fast = read_fast(case, &mut fast_tree);
    let simple = read_simple(case, &mut simple_tree);
    let body = String::from_utf8_lossy(&case.body);
    assert_eq!(
        fast, simple,
        "{what}: the fast reading departs from the simple one for\n{case:?}\nbody: {body}"
    );
    let verdict = judge(case, surface);
    assert_eq!(
        verdict,
        judge_view(&fast, surface),
        "{what} on surface {surface_name}: judge is not the rules over the fast view"
    );
    assert_eq!(
        verdict,
        judge_view(&simple, surface),
        "{what} on surface {surface_name}: the rules depart over the simple view for\n{case:?}\nbody: {body}"
    );
}

/// Cases from the runner's generator at a fixed seed, and their bodies rewritten.
#[test]
fn runner_cases_read_alike() {
    // (bodies read in place, bodies parsed the full way)
    let mut paths = (0usize, 0usize);
    for (name, surface) in surfaces() {
        let strategy = case_strategy(&fixture::surface());
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
        for i in 0..2000 {
            let case = case_for(&strategy, 7, i);
            assert_same("runner case", &case, name, &surface);
            for _ in 0..2 {
                let mut rewritten = case.clone();
                rewritten.body = rewrite_body(&case.body, &mut rng);
                assert_same("rewritten body", &rewritten, name, &surface);
                if body_read_in_place(&rewritten.body) {
                    paths.0 += 1;
                } else {
                    paths.1 += 1;
                }
            }
        }
    }
    // both readings of the body must be compared, and often
    let total = paths.0 + paths.1;
    assert!(
        paths.0 * 10 > total && paths.1 * 10 > total,
        "in place {} / full parse {}",
        paths.0,
        paths.1
    );
}

#[test]
fn probes_read_alike() {
    for (name, surface) in surfaces() {
        for p in probes(&fixture::surface()) {
            assert_same(p.rule.0, &p.case, name, &surface);
        }
    }
}

/// Fuzz-byte cases (probe cases edited byte-wise) from a fixed pseudo-random stream.
#[test]
fn fuzz_byte_cases_read_alike() {
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[3; 32]);
    let surfaces = surfaces();
    for _ in 0..4000 {
        let len = rng.random_range(0..600);
        let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let case = case_from_bytes(&data);
        for (name, surface) in &surfaces {
            assert_same("fuzz-byte case", &case, name, surface);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn arbitrary_cases_read_alike(case in mixed_case(), seed in any::<[u8; 32]>()) {
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut rewritten = case.clone();
        rewritten.body = rewrite_body(&case.body, &mut rng);
        for (name, surface) in surfaces() {
            assert_same("arbitrary case", &case, name, &surface);
            assert_same("arbitrary case, rewritten body", &rewritten, name, &surface);
        }
    }
}

/// Hand-picked bodies at the scanner's edges, each inside an otherwise conformant request.
#[test]
fn edge_bodies_read_alike() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let bodies: Vec<String> = vec![
        String::new(),
        " ".into(),
        "null".into(),
        "[]".into(),
        "{}".into(),
        "{".into(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}}}} "#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}}}} x"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"id":"a","method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"ping","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","\u0069d":1,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":"\ud800","method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":"\u00e9","method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1e400,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1.0,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1e2,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":99999999999999999999e280,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":-1E-280,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1e-400,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"execute_sql","arguments":{{"region":"us","count":4.2e1,"flag":true,"query":"q"}},{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":-0,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":01,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":18446744073709551616,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":-9223372036854775808,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":-9223372036854775809,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":[1],"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}},"params":{{}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","result":{{}},"params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","error":null,"params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":2.0,"id":1,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":7,"params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_weather","arguments":{{"location":"x"}},{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"execute_sql","arguments":{{"region":"us","region":"eu","count":4.20e1,"flag":true,"query":"q"}},{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"execute_sql","arguments":{{"region":"\u0075s","count":42.0,"flag":false,"opt":null}},{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"execute_sql","arguments":[1,2],{meta}}}}}"#),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":\"a\tb\",\"method\":\"tools/list\",\"params\":{{{meta}}}}}"),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":\"\u{7f}\",\"method\":\"tools/list\",\"params\":{{{meta}}}}}"),
        format!("\u{feff}{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{{{meta}}}}}"),
        format!("{}{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{{{meta}}}}}{}", "[".repeat(130), "]".repeat(130)),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"x\":{}1{},\"params\":{{{meta}}}}}", "[".repeat(127), "]".repeat(127)),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"x\":{}1{},\"params\":{{{meta}}}}}", "[".repeat(128), "]".repeat(128)),
    ];
    let mut invalid_utf8 = bodies[7].clone().into_bytes();
    let at = invalid_utf8.len() - 60;
    invalid_utf8[at] = 0xff;
    let surfaces = surfaces();
    for body in bodies
        .into_iter()
        .map(String::into_bytes)
        .chain([invalid_utf8])
    {
        let mut case = fixture_case();
        case.body = body;
        for (name, surface) in &surfaces {
            assert_same("edge body", &case, name, surface);
        }
    }
}

fn fixture_case() -> Case {
    Case::post(
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        Vec::new(),
    )
}

/// `body` re-written in a way that means the same JSON (whitespace, `\u` escapes, float and
/// exponent spellings of numbers) or a slightly different one (a duplicate key, deeper
/// nesting, a truncation, a flipped byte). Bodies that do not parse get byte edits only.
fn rewrite_body(body: &[u8], rng: &mut TestRng) -> Vec<u8> {
    match serde_json::from_slice::<Value>(body) {
        Ok(v) if rng.random_bool(0.8) => {
            let mut out = String::new();
            write_value(&v, rng, &mut out, 0);
            let mut out = out.into_bytes();
            if rng.random_bool(0.1) {
                byte_edit(&mut out, rng);
            }
            out
        }
        _ => {
            let mut out = body.to_vec();
            byte_edit(&mut out, rng);
            out
        }
    }
}

fn byte_edit(b: &mut Vec<u8>, rng: &mut TestRng) {
    const BYTES: &[u8] = b"{}[]\",:\\ 0e.-\t\nu\x00\x80\xff";
    if b.is_empty() {
        b.push(BYTES[rng.random_range(0..BYTES.len())]);
        return;
    }
    let at = rng.random_range(0..b.len());
    match rng.random_range(0..4) {
        0 => b.truncate(at),
        1 => b[at] = BYTES[rng.random_range(0..BYTES.len())],
        2 => b.insert(at, BYTES[rng.random_range(0..BYTES.len())]),
        _ => {
            b.remove(at);
        }
    }
}

fn ws(rng: &mut TestRng, out: &mut String) {
    if rng.random_bool(0.15) {
        for _ in 0..rng.random_range(1..3) {
            out.push([' ', '\t', '\n', '\r'][rng.random_range(0..4)]);
        }
    }
}

fn write_string(s: &str, rng: &mut TestRng, out: &mut String) {
    out.push('"');
    let escape_all = rng.random_bool(0.05);
    for ch in s.chars() {
        let forced = matches!(ch, '"' | '\\') || (ch as u32) < 0x20;
        if forced || escape_all || rng.random_bool(0.01) {
            let mut buf = [0u16; 2];
            for unit in ch.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(ch);
        }
    }
    out.push('"');
}

fn write_value(v: &Value, rng: &mut TestRng, out: &mut String, depth: usize) {
    ws(rng, out);
    // now and then a value nested in arrays, some beyond serde_json's recursion limit
    let wrap = if depth > 0 && rng.random_bool(0.01) {
        rng.random_range(1..140)
    } else {
        0
    };
    out.push_str(&"[".repeat(wrap));
    match v {
        Value::Object(m) => {
            out.push('{');
            let mut first = true;
            for (k, x) in m {
                let mut emit = |val: &Value, rng: &mut TestRng, out: &mut String| {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    ws(rng, out);
                    write_string(k, rng, out);
                    ws(rng, out);
                    out.push(':');
                    write_value(val, rng, out, depth + 1);
                };
                if rng.random_bool(0.03) {
                    // a duplicate key ahead of the real one: the last one wins
                    let decoy = [Value::Null, Value::from(7), Value::from("decoy")];
                    emit(&decoy[rng.random_range(0..3)], rng, out);
                }
                emit(x, rng, out);
                if rng.random_bool(0.02) {
                    // a duplicate key after the real one: it wins
                    emit(&Value::from("late"), rng, out);
                }
            }
            ws(rng, out);
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(x, rng, out, depth + 1);
            }
            out.push(']');
        }
        Value::String(s) => write_string(s, rng, out),
        Value::Number(n) if n.is_i64() && rng.random_bool(0.1) => {
            let i = n.as_i64().unwrap_or(0);
            let spelled = [
                format!("{i}.0"),
                format!("{i}e0"),
                format!("{i}E+0"),
                format!("{i}.000"),
                "1e400".to_string(),
                "123456789012345678901234567890".to_string(),
            ];
            out.push_str(&spelled[rng.random_range(0..spelled.len())]);
        }
        other => out.push_str(&other.to_string()),
    }
    out.push_str(&"]".repeat(wrap));
    ws(rng, out);
}
