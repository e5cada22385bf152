//! The rule tables against the pinned spec pages (`oracle/spec/2026-07-28/` for `RULES`,
//! `oracle/spec/2025-11-25/` for `LEGACY_RULES`).
//!
//! Every rule's `sentence` must occur verbatim in the page its `spec` cites (under its
//! revision's folder), after the
//! normalisation documented in `oracle/src/rules/table.rs` (links to their text, emphasis
//! markers and `<sup>` tags removed, code spans kept as written, whitespace collapsed), applied
//! identically to the quote and to the page. Also checked: ids unique, fields non-empty, every
//! judged id present, the `judged` flags, and a floor on the number of core MUST rules.

use mcpdiff_oracle::rules::auth::AUTH_JUDGED_IDS;
use mcpdiff_oracle::rules::client::CLIENT_JUDGED_IDS;
use mcpdiff_oracle::rules::connection::CONNECTION_JUDGED_IDS;
use mcpdiff_oracle::rules::legacy::LEGACY_CHECKED_IDS;
use mcpdiff_oracle::rules::{
    all_rules, revision_of, Level, Revision, Rule, JUDGED_IDS, LEGACY_RULES, RULES,
};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// `oracle/spec/<revision>/`: the pinned pages a revision's table quotes.
fn revision_root(revision: Revision) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("spec")
        .join(revision.spec_root())
}

/// Each table with the revision whose pages it quotes.
fn tables() -> [(&'static [Rule], Revision); 2] {
    [
        (RULES, Revision::V2026_07_28),
        (LEGACY_RULES, Revision::V2025_11_25),
    ]
}

/// The page file and the section of a `spec` reference.
fn split_spec(spec: &str) -> (&str, &str) {
    spec.split_once('#').unwrap_or((spec, ""))
}

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn backtick_run(s: &[char], i: usize) -> usize {
    s[i..].iter().take_while(|&&c| c == '`').count()
}

/// `s[i]` is a backtick: the length of its run and the index just after the matching closing
/// run (a run of the same length), if there is one.
fn code_span_end(s: &[char], i: usize) -> (usize, Option<usize>) {
    let n = backtick_run(s, i);
    let mut j = i + n;
    while j < s.len() {
        if s[j] == '`' {
            let m = backtick_run(s, j);
            if m == n {
                return (n, Some(j + m));
            }
            j += m;
        } else {
            j += 1;
        }
    }
    (n, None)
}

/// Index of `close` at or after `i`, skipping code spans.
fn find_close(s: &[char], i: usize, close: char) -> Option<usize> {
    let mut j = i;
    while j < s.len() {
        if s[j] == '`' {
            let (n, end) = code_span_end(s, j);
            j = end.unwrap_or(j + n);
            continue;
        }
        if s[j] == close {
            return Some(j);
        }
        j += 1;
    }
    None
}

fn starts_with_at(s: &[char], i: usize, pat: &str) -> bool {
    let pat: Vec<char> = pat.chars().collect();
    s.get(i..i + pat.len()) == Some(pat.as_slice())
}

fn inline(s: &[char]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == '`' {
            let (n, end) = code_span_end(s, i);
            let stop = end.unwrap_or(i + n);
            out.extend(&s[i..stop]);
            i = stop;
            continue;
        }
        if c == '[' {
            if let Some(close) = find_close(s, i + 1, ']') {
                if let Some(&opener) = s.get(close + 1) {
                    if opener == '(' || opener == '[' {
                        let closer = if opener == '(' { ')' } else { ']' };
                        if let Some(off) = s[close + 2..].iter().position(|&x| x == closer) {
                            out.push_str(&inline(&s[i + 1..close]));
                            i = close + 2 + off + 1;
                            continue;
                        }
                    }
                }
            }
            out.push(c);
            i += 1;
            continue;
        }
        if starts_with_at(s, i, "<sup>") {
            i += 5;
            continue;
        }
        if starts_with_at(s, i, "</sup>") {
            i += 6;
            continue;
        }
        if starts_with_at(s, i, "**") || starts_with_at(s, i, "__") {
            i += 2;
            continue;
        }
        if c == '_' {
            let prev = if i > 0 { Some(s[i - 1]) } else { None };
            let next = s.get(i + 1).copied();
            let intraword = matches!((prev, next), (Some(p), Some(n)) if p.is_alphanumeric() && n.is_alphanumeric());
            if prev == Some('\\') || intraword {
                out.push(c);
            }
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The quote normalisation of `table.rs`, applied to sentences and pages alike.
fn normalise(s: &str) -> String {
    let chars: Vec<char> = collapse_ws(s).chars().collect();
    collapse_ws(&inline(&chars))
}

#[test]
fn normalisation_examples() {
    assert_eq!(
        normalise("Servers **MUST**\n  use _emphasis_ and [links][ref] or [`code`](http://x)."),
        "Servers MUST use emphasis and links or `code`."
    );
    assert_eq!(
        normalise("keep `_meta` and snake_case, \\_ too"),
        "keep `_meta` and snake_case, \\_ too"
    );
    assert_eq!(normalise("a<sup>1</sup> b"), "a1 b");
}

#[test]
fn every_sentence_is_verbatim_in_its_pinned_page() {
    let mut pages: BTreeMap<(Revision, &str), Option<String>> = BTreeMap::new();
    let mut failures = Vec::new();
    for (table, revision) in tables() {
        for r in table {
            let (file, _) = split_spec(r.spec);
            let page = pages.entry((revision, file)).or_insert_with(|| {
                std::fs::read_to_string(revision_root(revision).join(file))
                    .ok()
                    .map(|t| normalise(&t))
            });
            let Some(page) = page else {
                failures.push(format!(
                    "{}: page {file} not found under oracle/spec/{revision}",
                    r.id
                ));
                continue;
            };
            let quote = normalise(r.sentence);
            if quote != r.sentence {
                failures.push(format!(
                    "{}: sentence is not in normalised form; expected\n    {quote}",
                    r.id
                ));
            }
            if !page.contains(&quote) {
                failures.push(format!(
                    "{}: not found verbatim in {revision}/{file}:\n    {}",
                    r.id, r.sentence
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} rule(s) fail the verbatim check:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A rule's revision is the table that holds it; legacy ids are `L-` prefixed so the two
/// tables can never clash, and a legacy rule is `judged` exactly when the legacy sequence
/// judge checks it (`LEGACY_CHECKED_IDS`, each with a mutant: `legacy_pure.rs`, and run over
/// HTTP by the revision probe of every run: `tests/legacy_http.rs`).
#[test]
fn every_rule_has_one_revision() {
    let mut failures = Vec::new();
    for (table, revision) in tables() {
        for r in table {
            if revision_of(r.id) != Some(revision) || r.revision() != revision {
                failures.push(format!("{}: revision is not {revision}", r.id));
            }
            if r.id.0.starts_with("L-") != (revision == Revision::V2025_11_25) {
                failures.push(format!("{}: only 2025-11-25 ids start with L-", r.id));
            }
        }
    }
    for r in LEGACY_RULES {
        if r.judged != LEGACY_CHECKED_IDS.contains(&r.id) {
            failures.push(format!(
                "{}: judged is {} but the id is {}in LEGACY_CHECKED_IDS",
                r.id,
                r.judged,
                if r.judged { "not " } else { "" }
            ));
        }
    }
    for id in LEGACY_CHECKED_IDS {
        if revision_of(*id) != Some(Revision::V2025_11_25) {
            failures.push(format!(
                "{id}: checked by the legacy judge, not in LEGACY_RULES"
            ));
        }
    }
    assert_eq!(
        all_rules().count(),
        RULES.len() + LEGACY_RULES.len(),
        "all_rules is both tables"
    );
    let id: mcpdiff_oracle::RuleId =
        serde_json::from_str("\"L-SHTTP-SESSION-404\"").expect("legacy ids deserialize");
    assert_eq!(id.0, "L-SHTTP-SESSION-404");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ids_unique_fields_non_empty_spec_exists() {
    let mut seen = HashSet::new();
    let mut failures = Vec::new();
    for r in all_rules() {
        let root = revision_root(r.revision());
        if !seen.insert(r.id) {
            failures.push(format!("{}: duplicate id", r.id));
        }
        if r.id.0.trim().is_empty() {
            failures.push("empty id".to_string());
        }
        for (field, v) in [
            ("sentence", r.sentence),
            ("spec", r.spec),
            ("summary", r.summary),
        ] {
            if v.trim().is_empty() {
                failures.push(format!("{}: empty {field}", r.id));
            }
        }
        let (file, section) = split_spec(r.spec);
        if section.trim().is_empty() {
            failures.push(format!("{}: spec {:?} has no #section", r.id, r.spec));
        }
        if !file.ends_with(".mdx") || !root.join(file).is_file() {
            failures.push(format!("{}: spec file {file} is not a pinned page", r.id));
        }
        if r.summary.contains('\n') {
            failures.push(format!("{}: summary must be one line", r.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn judged_ids_are_in_the_table_and_flagged() {
    let judged: HashSet<_> = JUDGED_IDS
        .iter()
        .chain(CLIENT_JUDGED_IDS)
        .chain(AUTH_JUDGED_IDS)
        .chain(CONNECTION_JUDGED_IDS)
        .copied()
        .collect();
    let table: HashSet<_> = RULES.iter().map(|r| r.id).collect();
    let mut failures: Vec<String> = judged
        .iter()
        .filter(|id| !table.contains(id))
        .map(|id| format!("{id}: emitted by the judge but missing from the table"))
        .collect();
    for r in RULES {
        if r.judged != judged.contains(&r.id) {
            failures.push(format!(
                "{}: judged is {} but the id is {}in JUDGED_IDS",
                r.id,
                r.judged,
                if r.judged { "not " } else { "" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn core_must_floor() {
    const CORE: [&str; 4] = [
        "basic/transports/streamable-http.mdx",
        "basic/index.mdx",
        "basic/versioning.mdx",
        "server/discover.mdx",
    ];
    let core_must = RULES
        .iter()
        .filter(|r| matches!(r.level, Level::Must | Level::MustNot))
        .filter(|r| CORE.contains(&split_spec(r.spec).0))
        .count();
    assert!(
        core_must >= 60,
        "only {core_must} MUST/MUST NOT rules from the core pages"
    );
    assert!(
        RULES.len() >= 150,
        "only {} rules in the table",
        RULES.len()
    );
}

/// A sentence without an RFC 2119 keyword yields observations, never SHOULD or MUST
/// findings, unless a keyworded sentence binds the behaviour (`derived`, each one quoted in
/// DEVIATIONS.md D-60); and an Observation rule's sentence indeed has no keyword.
#[test]
fn keywordless_sentences_are_observations() {
    const KEYWORDS: [&str; 7] = [
        "MUST",
        "SHOULD",
        "MAY",
        "REQUIRED",
        "RECOMMENDED",
        "SHALL",
        "OPTIONAL",
    ];
    let has_keyword = |s: &str| {
        s.split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| KEYWORDS.contains(&w))
    };
    let deviations = include_str!("../DEVIATIONS.md");
    let d60 = deviations
        .lines()
        .find(|l| l.starts_with("| D-60 "))
        .expect("DEVIATIONS.md has D-60");
    let mut failures = Vec::new();
    for r in all_rules() {
        let kw = has_keyword(r.sentence);
        if r.level == Level::Observation && kw {
            failures.push(format!(
                "{}: OBSERVATION but the sentence has a keyword",
                r.id
            ));
        }
        if !kw && r.level != Level::Observation && !r.derived {
            failures.push(format!(
                "{}: no keyword, neither derived nor OBSERVATION",
                r.id
            ));
        }
        if !kw && r.derived && r.judged && !d60.contains(r.id.0) {
            failures.push(format!(
                "{}: derived and judged but not quoted in D-60",
                r.id
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
